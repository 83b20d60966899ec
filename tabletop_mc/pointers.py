"""Typed data pointers moved along their vector or read as another type (numba intrinsics).

The kernels pass their arrays as typed data pointers (a game's ``ptr.as_ptr``). ``offset`` gives
the pointer some items further on (so a kernel can hand a callee one block of a flat vector),
``as_float32`` reads the 8-byte slots of a float64 or int64 vector as float32 values, two per slot
(the learned policies keep their networks and their work in the float vectors the games already
pass around, and float32 arithmetic vectorises twice as wide).
"""

import numba as nb
from numba import types
from numba.extending import intrinsic


@intrinsic
def _offset(typingctx, ptr, k):
    sig = ptr(ptr, k)

    def codegen(context, builder, signature, args):
        return builder.gep(args[0], [args[1]])

    return sig, codegen


@intrinsic
def _as_float32(typingctx, ptr):
    sig = types.CPointer(types.float32)(ptr)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


@nb.njit(cache=True, inline="always")
def offset(ptr, k):
    """The pointer ``k`` items past ``ptr`` (``offset(ptr, k)[i]`` is ``ptr[k + i]``)."""
    return _offset(ptr, k)


@nb.njit(cache=True, inline="always")
def as_float32(ptr):
    """The bytes at ``ptr`` read as float32 values (two per 8-byte slot)."""
    return _as_float32(ptr)
