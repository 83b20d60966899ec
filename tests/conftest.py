"""Fixtures shared by the test folders, and the order the test files run in."""

import builtins
import os
import re
import shutil
import tempfile

import pytest

# The suite is bound by numba compiling, once per process, what a file's kernels need
# (pytest-xdist runs one file per worker; ``--no-loadscope-reorder`` keeps this order). So
# the longest file starts first, and the files that compile the same kernel family follow
# each other instead of two workers compiling it at once: the report (game, net, mc, sweeps,
# then grading) on one worker while the other compiles the double-dummy and trick-play
# family, then Circus's, then the shared plumbing; the Sponsio game files come last, when
# the report has compiled their kernels.
RUN_ORDER = (
    r"tests/reports/test_sponsio_report\.py",
    r"tests/sponsio/test_(dd|pimc|trick_|grading|odds|exhaustive|play_conformance|c_reference)",
    r"tests/(caesar/|reports/test_caesar)",
    r"tests/plumbing/",
)


# The suite keeps what it computes (result batches, fitted models, the success model) in a folder
# of its own, made by the first process and shared by the xdist workers it starts (they inherit
# its environment), and removed at the end: a run never reads, writes or is sped up by the
# user's caches (``~/.cache/sponsio-sim``). Compiled kernels stay where the tools keep them
# (``$NUMBA_CACHE_DIR``, else the user's cache): they are keyed by the kernels' source, and
# compiling them is most of the suite's time.
# A command's compile helper (``tabletop_mc.warmup``) is off: the workers already fill the cores.
ISOLATED = ("XDG_CACHE_HOME", "SPONSIO_MODEL_DIR", "NUMBA_CACHE_DIR", "SPONSIO_TEST_CACHE", "TABLETOP_COMPILE_HELPER")
_SAVED = pytest.StashKey[dict]()


def pytest_configure(config):
    if os.environ.get("SPONSIO_TEST_CACHE"):   # an xdist worker: its controller's folder
        return
    from tabletop_mc.cachedir import kernel_cache_root
    config.stash[_SAVED] = {name: os.environ.get(name) for name in ISOLATED}
    folder = tempfile.mkdtemp(prefix="sponsio-sim-tests-")
    os.environ["NUMBA_CACHE_DIR"] = str(kernel_cache_root())   # before XDG_CACHE_HOME moves it
    os.environ["XDG_CACHE_HOME"] = os.environ["SPONSIO_TEST_CACHE"] = folder
    os.environ.pop("SPONSIO_MODEL_DIR", None)
    os.environ["TABLETOP_COMPILE_HELPER"] = "0"


def pytest_unconfigure(config):
    saved = config.stash.get(_SAVED, None)
    if saved is None:
        return
    shutil.rmtree(os.environ["SPONSIO_TEST_CACHE"], ignore_errors=True)
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def run_rank(nodeid: str) -> int:
    """Where a test's file comes in ``RUN_ORDER`` (the rest after, in collection order)."""
    return next((i for i, pattern in enumerate(RUN_ORDER) if re.match(pattern, nodeid)), len(RUN_ORDER))


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: run_rank(item.nodeid))   # stable: each file keeps its own order


@pytest.fixture
def without_training_extra(monkeypatch):
    """Imports of jax and optax fail, as where the optional [train] extra is not installed."""
    real = builtins.__import__

    def no_jax(name, *args, **kw):
        if name.split(".")[0] in ("jax", "optax"):
            raise ImportError(name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_jax)
