"""`caesar cache show|clear`: the compiled kernels on disk."""

from tabletop_mc.cachecli import Part, cache_group
from tabletop_mc.cachedir import kernel_cache_root
from caesar_sim.cli.root import main


def _parts():
    from tabletop_mc.kernelfiles import KEPT, owned_kernels
    kernels = kernel_cache_root()
    return [Part("compiled kernels", kernels / "caesar_sim-*", lambda: owned_kernels(kernels, "caesar_sim"), KEPT),
            Part("compiled shared kernels", kernels / "tabletop_mc-*", lambda: owned_kernels(kernels, "tabletop_mc"))]


cache_group(main, "caesar", _parts, "compiled kernels")
