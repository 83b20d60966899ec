"""Bit scans on uint64 masks for the game kernels (numba).

``popcount``, ``lowest`` and ``highest`` compile to popcnt / tzcnt / lzcnt
through LLVM intrinsics; with ``NUMBA_DISABLE_JIT=1`` plain-Python versions
stand in. Sponsio uses them on card sets, Circus Maximus on merchant hands.
"""

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic


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


@intrinsic
def _cttz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


if nb.config.DISABLE_JIT:  # pragma: no cover - debugging mode only
    def popcount(x):
        """Number of set bits of mask ``x``."""
        return bin(int(x)).count("1")

    def lowest(x):
        """Index of the lowest set bit of a non-empty mask."""
        x = int(x)
        return (x & -x).bit_length() - 1

    def highest(x):
        """Index of the highest set bit of a non-empty mask."""
        return int(x).bit_length() - 1
else:
    @nb.njit(cache=True, inline="always")
    def popcount(x):
        """Number of set bits of mask ``x``."""
        return np.int64(_ctpop(np.uint64(x)))

    @nb.njit(cache=True, inline="always")
    def lowest(x):
        """Index of the lowest set bit of a non-empty mask."""
        return np.int64(_cttz(np.uint64(x)))

    @nb.njit(cache=True, inline="always")
    def highest(x):
        """Index of the highest set bit of a non-empty mask."""
        return np.int64(63) - np.int64(_ctlz(np.uint64(x)))
