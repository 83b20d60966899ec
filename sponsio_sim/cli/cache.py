"""`sponsio cache show|clear`: compiled kernels, finished batches and fitted models on disk."""

from tabletop_mc.cachecli import Part, cache_group
from tabletop_mc.cachedir import kernel_cache_root
from sponsio_sim.cli.root import main


def _parts():
    from tabletop_mc.kernelfiles import KEPT, owned_kernels
    from tabletop_mc.resultcache import default_root, kept_note, owned_batches
    from sponsio_sim.analysis.game.model import cache_dir, owned_models
    kernels = kernel_cache_root()
    return [Part("compiled kernels", kernels / "sponsio_sim-*", lambda: owned_kernels(kernels, "sponsio_sim"),
                 KEPT),
            Part("compiled shared kernels", kernels / "tabletop_mc-*", lambda: owned_kernels(kernels, "tabletop_mc")),
            Part("finished batches (resume)", default_root(), owned_batches, kept_note()),
            Part("fitted success models", cache_dir(), owned_models)]


cache_group(main, "sponsio", _parts, "compiled kernels, finished batches, fitted models")
