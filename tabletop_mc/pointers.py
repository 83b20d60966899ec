"""Typed data pointers to the kernels' arrays: taken, moved along their vector, read as float32 (numba intrinsics).

The second half of the kernel-call idiom (the first is ``tabletop_mc.jit.no_refcount``). A numba
array argument is passed as seven machine words (meminfo, parent, size, item size, data, shape,
strides); a pointer is one. A kernel that passes several state arrays through many small calls
per game spends much of its time on those words even without reference counting, so such a
game's entry points take NumPy arrays and hand its inner ``no_refcount`` kernels pointers
(``as_ptr``; ``ptr[i]`` reads and writes like the flat array). A pointer does not keep its array
alive: take pointers inside a function that holds the arrays (its arguments, or locals that
``hold`` keeps alive past the last call that reads through the pointers; in an inlined
function, the arguments too: ``tests/plumbing/test_pointers_held.py`` checks the source).
``offset`` gives the pointer some items further on (so a kernel can hand a callee one block
of a flat vector), ``as_float32`` reads the 8-byte slots of a float64 or int64 vector as
float32 values, two per slot (the learned policies keep their networks and their work in the
float vectors the games already pass around, and float32 arithmetic vectorises twice as
wide), ``at_address`` a pointer from an address one vector keeps to another (Sponsio's state
to its rulebook, ``sponsio_sim.kernels.rulebook``).
"""

import numba as nb
from numba import types
from numba.extending import intrinsic, overload

from tabletop_mc.jitcache import configure_shared

configure_shared()   # the kernels below are cached keyed by their sources


@intrinsic
def _address_as_ptr(typingctx, addr, dtype):
    item = (dtype.dtype if isinstance(dtype, types.DType)
            else dtype.instance_type if isinstance(dtype, types.NumberClass) else dtype)
    sig = types.CPointer(item)(addr, dtype)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


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


@intrinsic
def hold(typingctx, arrays):
    """``hold((a, b, ...))``: the arrays stay alive up to this point. numba releases an array
    after its last use in a function, and a pointer taken from it (``as_ptr``) is no use: an
    array read only through pointers after that is freed memory (a crash, or a wrong number, in
    another thread's game). Call it after the last use of the pointers; it compiles to nothing.
    In a function that is inlined (``inline="always"``), the arguments are the caller's
    variables: hold those the pointers read too."""
    sig = types.none(arrays)

    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return sig, codegen


@nb.njit(cache=True, inline="always")
def as_ptr(a):
    """Typed pointer to the data of contiguous array ``a`` (flat index)."""
    return _address_as_ptr(a.ctypes.data, a.dtype)


@nb.njit(cache=True, inline="always")
def at_address(addr, dtype):
    """Typed pointer to the ``dtype`` values (e.g. ``np.int64``) at address ``addr`` (an integer, as
    ``a.ctypes.data`` gives it): a pointer one vector keeps to another that outlives it."""
    return _address_as_ptr(addr, dtype)


@nb.njit(cache=True, inline="always")
def offset(ptr, k):
    """The pointer ``k`` items past ``ptr`` (``offset(ptr, k)[i]`` is ``ptr[k + i]``)."""
    return _offset(ptr, k)


@nb.njit(cache=True, inline="always")
def as_float32(ptr):
    """The bytes at ``ptr`` read as float32 values (two per 8-byte slot)."""
    return _as_float32(ptr)


def shift(a, k):
    """``a[k:]`` of an array, ``offset(a, k)`` of a pointer: code that reads a flat vector from
    position ``k`` on takes either (``tabletop_mc.net.forward.net_forward``)."""
    return a[k:]


@overload(shift, jit_options={"cache": True})
def _shift(a, k):
    if isinstance(a, types.CPointer):
        return lambda a, k: _offset(a, k)
    return lambda a, k: a[k:]
