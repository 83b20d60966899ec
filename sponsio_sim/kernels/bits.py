"""Bitboard primitives on uint64 card sets.

``popcount`` and ``highest`` compile to the CPU's popcnt / lzcnt through LLVM
intrinsics; with ``NUMBA_DISABLE_JIT=1`` plain-Python versions stand in.
"""

import numba as nb
import numpy as np
from numba.core import types
from llvmlite import ir
from numba.extending import intrinsic

U1 = np.uint64(1)
U0 = np.uint64(0)
RANKS = 9
NINE_OF_COLOUR0 = 8  # rank 9 is bit 8 of its colour


@nb.njit(cache=True, inline="always")
def bit(c):
    """The mask of card id ``c``."""
    return U1 << np.uint64(c)


@intrinsic
def _ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


if nb.config.DISABLE_JIT:  # pragma: no cover - debugging mode only
    def popcount(x):
        """Number of cards in mask ``x``."""
        return bin(int(x)).count("1")

    def lowest(x):
        """Card id of the lowest set bit of a non-empty mask."""
        x = int(x)
        return (x & -x).bit_length() - 1

    def highest(x):
        """Card id of the highest set bit of a non-empty mask."""
        return int(x).bit_length() - 1
else:
    @nb.njit(cache=True, inline="always")
    def popcount(x):
        """Number of cards in mask ``x``."""
        return np.int64(_ctpop(np.uint64(x)))

    @nb.njit(cache=True, inline="always")
    def lowest(x):
        """Card id of the lowest set bit of a non-empty mask."""
        return popcount((x & (~x + U1)) - U1)

    @nb.njit(cache=True, inline="always")
    def highest(x):
        """Card id of the highest set bit of a non-empty mask."""
        return np.int64(63) - np.int64(_ctlz(np.uint64(x)))


@nb.njit(cache=True, inline="always")
def select(x, k):
    """Card id of the ``k``-th (0-based) lowest set bit of ``x``."""
    for _ in range(k):
        x &= x - U1
    return lowest(x)


@nb.njit(cache=True, inline="always")
def above(c):
    """Mask of all card ids strictly above ``c``, within 64 bits."""
    return ~((bit(c) << U1) - U1)


@nb.njit(cache=True)
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
