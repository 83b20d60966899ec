"""Numba kernels for Sponsio: plain arrays and scalars in and out.

Cards are bit positions in a uint64 (see ``sponsio_sim.cards``); bets are
integer triples (see ``sponsio_sim.bets``). Nothing here sees a Python object.
"""

from pathlib import Path

from tabletop_mc.jitcache import configure

CACHE_DIR = configure("sponsio_sim", Path(__file__).parent)
