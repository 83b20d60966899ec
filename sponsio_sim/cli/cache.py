"""`sponsio cache show|clear`: compiled kernels, finished batches and fitted models on disk."""

from tabletop_mc.cachecli import cache_group
from tabletop_mc.cachedir import kernel_cache_root
from sponsio_sim.cli import main


def _parts():
    from tabletop_mc.resultcache import default_root
    from sponsio_sim.analysis.game.model import cache_dir
    return [("compiled kernels", kernel_cache_root(), "sponsio_sim-*"),
            ("compiled shared kernels", kernel_cache_root(), "tabletop_mc-*"),
            ("finished batches (resume)", default_root(), None),
            ("fitted success models", cache_dir(), None)]


cache_group(main, "sponsio", _parts, "compiled kernels, finished batches, fitted models")
