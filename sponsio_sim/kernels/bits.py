"""Bitboard primitives on uint64 card sets.

The bit scans (``popcount``, ``lowest``, ``highest``) and ``select`` (the
card id of a set's k-th lowest card) are the shared ones of
``tabletop_mc.bits`` (CPU popcnt / tzcnt / lzcnt, pdep).
"""

import numba as nb
import numpy as np

from tabletop_mc.bits import highest, lowest, popcount, select  # noqa: F401  (re-exported for the kernels)
from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import RANKS  # noqa: F401  (re-exported for the kernels)

U1 = np.uint64(1)
U0 = np.uint64(0)
NINE_OF_COLOUR0 = 8  # rank 9 is bit 8 of its colour


@nb.njit(cache=True, inline="always")
def bit(c):
    """The mask of card id ``c``."""
    return U1 << np.uint64(c)


@nb.njit(cache=True, inline="always")
def beats(c, best):
    """Does card ``c`` take the trick from its top card ``best`` (docs/rules-sponsio.md section 5: no
    trumps, so only a higher card of ``best``'s colour, the led colour, does)?"""
    return c > best and c // RANKS == best // RANKS


@nb.njit(cache=True, inline="always")
def above(c):
    """Mask of all card ids strictly above ``c``, within 64 bits."""
    return ~((bit(c) << U1) - U1)


@no_refcount
def nines_mask(n_colours):
    """Mask of every 9 in a deck of ``n_colours`` colours."""
    m = U0
    for col in range(n_colours):
        m |= bit(col * RANKS + NINE_OF_COLOUR0)
    return m


@nb.njit(cache=True)
def colour_masks(n_colours):
    """uint64 mask of each colour's nine cards."""
    out = np.empty(n_colours, dtype=np.uint64)
    for col in range(n_colours):
        out[col] = np.uint64(0x1FF) << np.uint64(col * RANKS)
    return out
