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


def _unary_intrinsic(emit):
    """A numba intrinsic uint64 -> uint64 whose LLVM code is ``emit(builder, x)``."""
    @intrinsic
    def op(typingctx, x):
        def codegen(context, builder, signature, args):
            return emit(builder, args[0])
        return types.uint64(types.uint64), codegen
    return op


_NOT_POISON = ir.Constant(ir.IntType(1), 0)  # a zero input gives 64, not poison
_ctpop = _unary_intrinsic(lambda b, x: b.ctpop(x))
_ctlz = _unary_intrinsic(lambda b, x: b.ctlz(x, _NOT_POISON))
_cttz = _unary_intrinsic(lambda b, x: b.cttz(x, _NOT_POISON))


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
