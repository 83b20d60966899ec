"""The suite computes in a cache folder of its own (``tests/conftest.py``), never the user's."""

import os
from pathlib import Path

from tabletop_mc.cachedir import kernel_cache_root, user_cache_root
from tabletop_mc.resultcache import default_root


def test_the_suite_keeps_results_and_models_in_a_folder_of_its_own():
    own = Path(os.environ["SPONSIO_TEST_CACHE"])
    assert own.is_dir() and own.resolve() != (Path.home() / ".cache").resolve()
    assert user_cache_root().parent == own
    assert default_root().is_relative_to(own)
    from sponsio_sim.analysis.game.model import cache_dir
    assert cache_dir().is_relative_to(own)


def test_compiled_kernels_stay_where_the_tools_keep_them():
    assert "NUMBA_CACHE_DIR" in os.environ
    assert not kernel_cache_root().is_relative_to(Path(os.environ["SPONSIO_TEST_CACHE"]))
