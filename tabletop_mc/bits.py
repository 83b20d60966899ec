"""Bit scans on uint64 masks for the game kernels (numba).

``popcount``, ``lowest`` and ``highest`` compile to popcnt / tzcnt / lzcnt
through LLVM intrinsics; ``compress`` to BMI2's pext and ``select`` (the
k-th set bit) to pdep and tzcnt where the target CPU has BMI2 (loops
elsewhere). With ``NUMBA_DISABLE_JIT=1`` plain-Python
versions stand in. Sponsio uses them on card sets, Circus Maximus on
merchant hands.
"""

import llvmlite.binding as llb
import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from tabletop_mc.jitcache import configure_shared

configure_shared()   # the kernels below are cached keyed by their sources


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


def _target_has_bmi2():
    """Does the CPU numba compiles for have BMI2 (pext)? numba targets the
    host unless ``NUMBA_CPU_FEATURES`` names other features."""
    if nb.config.CPU_FEATURES is not None:
        return "+bmi2" in nb.config.CPU_FEATURES.split(",")
    return bool(llb.get_host_cpu_features().get("bmi2", False))


def _binary_bmi2(name):
    """A numba intrinsic (uint64, uint64) -> uint64 calling the BMI2 instruction ``name``."""
    @intrinsic
    def op(typingctx, x, m):
        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                                f"llvm.x86.bmi.{name}.64")
            return builder.call(fn, args)
        return types.uint64(types.uint64, types.uint64), codegen
    return op


_pext = _binary_bmi2("pext")
_pdep = _binary_bmi2("pdep")


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


@nb.njit(cache=True, inline="always")
def compress_loop(x, m):
    """The bits of ``x`` at the set bits of ``m``, packed from bit 0 up
    (one step per bit of ``m``: for CPUs without BMI2, and without JIT)."""
    x = np.uint64(x)
    m = np.uint64(m)
    out = np.uint64(0)
    k = np.uint64(0)
    while m != np.uint64(0):
        low = m & (~m + np.uint64(1))
        if (x & low) != np.uint64(0):
            out |= np.uint64(1) << k
        k += np.uint64(1)
        m ^= low
    return out


@nb.njit(cache=True, inline="always")
def select_loop(x, k):
    """Index of the ``k``-th (0-based) lowest set bit of ``x``, 64 when ``x`` has at most ``k``
    (one step per lower bit: for CPUs without BMI2, and without JIT)."""
    x = np.uint64(x)
    for _ in range(k):
        x &= x - np.uint64(1)
    return lowest(x)


if _target_has_bmi2() and not nb.config.DISABLE_JIT:
    @nb.njit(cache=True, inline="always")
    def compress(x, m):
        """The bits of ``x`` at the set bits of ``m``, packed from bit 0 up (pext)."""
        return _pext(np.uint64(x), np.uint64(m))

    @nb.njit(cache=True, inline="always")
    def select(x, k):
        """Index of the ``k``-th (0-based, ``0 <= k < 64``) lowest set bit of ``x``, 64 when ``x``
        has at most ``k`` (pdep deposits bit k at that bit, tzcnt reads its place)."""
        return lowest(_pdep(np.uint64(1) << np.uint64(k), np.uint64(x)))
else:  # pragma: no cover - CPUs without BMI2, or JIT disabled
    compress = compress_loop
    select = select_loop
