"""`caesar cache show|clear`: the compiled kernels on disk."""

from tabletop_mc.cachecli import cache_group
from tabletop_mc.cachedir import kernel_cache_root
from caesar_sim.cli import main

cache_group(main, "caesar", lambda: [("compiled kernels", kernel_cache_root(), "caesar_sim-*"),
                                     ("compiled shared kernels", kernel_cache_root(), "tabletop_mc-*")],
            "compiled kernels")
