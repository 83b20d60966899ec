"""Raw data pointers for the kernels' inner calls.

Entry points take and return NumPy arrays. Inside, the engine passes each
array as a typed data pointer (``ptr[i]`` reads and writes like the array):
a numba array argument costs seven machine words and an atomic reference
count per call, which made calls, not game logic, most of a game's run time.
A pointer is valid only while its array is alive: take pointers inside a
function that receives the arrays as arguments (``tabletop_mc.pointers``
moves one along its vector or reads it as float32).
"""

import numba as nb
from numba import types
from numba.extending import intrinsic


@intrinsic
def _address_as_ptr(typingctx, addr, dtype):
    item = dtype.dtype if isinstance(dtype, types.DType) else dtype
    sig = types.CPointer(item)(addr, dtype)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


@nb.njit(cache=True, inline="always")
def as_ptr(a):
    """Typed pointer to the data of contiguous array ``a`` (flat index)."""
    return _address_as_ptr(a.ctypes.data, a.dtype)

