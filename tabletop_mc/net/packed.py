"""The network's forward pass for kernels that keep everything in one buffer (numba).

``net_forward_packed`` evaluates a vector packed with its widths
(``NetWeights.packed(header=True)``), so a kernel needs nothing but the
vector, on inputs, hidden work and action values that all sit in one buffer
at offsets (a game's scratch vector), and computes the values of the listed
actions only (``only``: the legal ones), each summed as the full layer sums
it. The inputs' nonzero indices may come from the caller (an encoder knows
them) or be found here; each layer adds four input rows per pass over its
sums, in the list's order, so the same weights and inputs give the same bits
on any machine and thread count. The params and the buffer may be float32
(about twice as fast) or float64.
"""

from collections import namedtuple

import llvmlite.ir as llvm_ir
import numba as nb
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from tabletop_mc.jit import no_refcount
from tabletop_mc.jitcache import configure_shared

configure_shared()   # the kernels below are cached keyed by their sources

MAX_INPUTS = 8192    # the widest layer input the kernels take (a stack list of its nonzero inputs)
MAX_UNITS = 4096     # the widest layer (``weights.MAX_WIDTH``; a stack accumulator)
# where ``net_forward_packed`` works: inputs at ``buf[x_at:]``, hidden work (twice the widest hidden layer) at
# ``buf[work_at:]``, action values at ``buf[q_at + j]``; ``ints[nz_at:]``: the indices of the nonzero inputs,
# ascending and distinct (``n_nz`` of them; ``n_nz < 0``: found here), ``ints[only_at:]``: the actions whose
# values are computed (``n_only`` of them; ``n_only < 0``: all); ``value``: compute the position's value (else 0)
NetIO = namedtuple("NetIO", "buf x_at work_at q_at ints nz_at n_nz only_at n_only value")


@intrinsic
def _stack_ints(typingctx):
    """A stack list of MAX_INPUTS int32 (no allocation: the kernels may not allocate)."""
    sig = types.CPointer(types.int32)()

    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, llvm_ir.IntType(32), size=MAX_INPUTS)

    return sig, codegen


@intrinsic
def _stack_like(typingctx, ptr):
    """A stack array of MAX_UNITS values of ``ptr``'s type (the accumulator: it aliases nothing, so the
    loops over a row vectorise without run-time checks)."""
    sig = types.CPointer(ptr.dtype)(ptr)

    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, context.get_value_type(ptr.dtype), size=MAX_UNITS)

    return sig, codegen


@nb.njit(cache=True, inline="always")
def _nonzero(x, x_at, n, idx):
    """The indices of the nonzero ``x[x_at:][:n]`` into ``idx`` (ascending, without a branch: a zero input's
    index is overwritten by the next); returns their number."""
    if n > MAX_INPUTS:
        raise ValueError("net: a layer wider than MAX_INPUTS inputs")
    k = 0
    for i in range(n):
        idx[k] = i
        k += x[x_at + i] != 0.0
    return k


@no_refcount
def _accumulate(params, at, n_in, n_out, x, x_at, nz, out, out_at, relu):
    """``out[out_at:][:n_out] = x[x_at:][:n_in] @ W + b`` over the inputs listed in ``nz`` = (list, its
    first slot, count) (the others are 0), in the list's order (W input-major at ``params[at]``, b after it),
    ReLU if asked; returns the offset after the layer."""
    lst, i0, k = nz
    b = at + n_in * n_out
    acc = _stack_like(params)
    for j in range(n_out):
        acc[j] = params[b + j]
    m = 0
    while m + 4 <= k:     # four rows per pass over the sums: a quarter of the trips through memory
        j0, j1, j2, j3 = lst[i0 + m], lst[i0 + m + 1], lst[i0 + m + 2], lst[i0 + m + 3]
        x0, x1, x2, x3 = x[x_at + j0], x[x_at + j1], x[x_at + j2], x[x_at + j3]
        r0, r1, r2, r3 = at + j0 * n_out, at + j1 * n_out, at + j2 * n_out, at + j3 * n_out
        for j in range(n_out):
            s = acc[j]
            s += x0 * params[r0 + j]
            s += x1 * params[r1 + j]
            s += x2 * params[r2 + j]
            s += x3 * params[r3 + j]
            acc[j] = s
        m += 4
    for m in range(m, k):
        xi = x[x_at + lst[i0 + m]]
        row = at + lst[i0 + m] * n_out
        for j in range(n_out):
            acc[j] += xi * params[row + j]
    for j in range(n_out):
        out[out_at + j] = 0.0 if relu and acc[j] < 0.0 else acc[j]
    return b + n_out


@no_refcount
def _dense(params, at, n_in, n_out, x, x_at, out, out_at, relu):
    """``_accumulate`` over the nonzero inputs."""
    idx = _stack_ints()
    return _accumulate(params, at, n_in, n_out, x, x_at, (idx, 0, _nonzero(x, x_at, n_in, idx)), out, out_at, relu)


@no_refcount
def _heads(params, at, hidden, n_act, work, cur, q, q_at, listed, value):
    """The action values (all when ``listed`` = (list, first slot, count) has a count < 0, else those of the
    listed actions, each summed as the full layer sums it) and, if ``value``, the position's value (else 0)."""
    only, o0, n_only = listed
    if n_only < 0:
        at = _dense(params, at, hidden, n_act, work, cur, q, q_at, False)
    else:
        b = at + hidden * n_act
        idx = _stack_ints()
        k = _nonzero(work, cur, hidden, idx)
        for a in range(n_only):
            q[q_at + only[o0 + a]] = params[b + only[o0 + a]]
        for m in range(k):    # hidden unit by unit: the actions' sums are independent chains
            h = work[cur + idx[m]]
            row = at + idx[m] * n_act
            for a in range(n_only):
                j = only[o0 + a]
                q[q_at + j] += h * params[row + j]
        at = b + n_act
    if not value:
        return params[at] * 0.0
    v = params[at + hidden]
    for j in range(hidden):
        v += work[cur + j] * params[at + j]
    return v


@no_refcount
def _forward(params, at, dims, d0, n_dims, io):
    """The layers at ``params[at:]`` with widths ``dims[d0:d0 + n_dims]`` on ``io`` (a ``NetIO``)."""
    buf, ints = io.buf, io.ints
    n_layers = n_dims - 2
    width = 0
    for k in range(1, n_layers + 1):
        width = max(width, int(dims[d0 + k]))
    cur = io.work_at
    n_in, n_out = int(dims[d0]), int(dims[d0 + 1])
    if io.n_nz >= 0:
        at = _accumulate(params, at, n_in, n_out, buf, io.x_at, (ints, io.nz_at, io.n_nz), buf, cur, True)
    else:
        at = _dense(params, at, n_in, n_out, buf, io.x_at, buf, cur, True)
    for k in range(1, n_layers):
        nxt = io.work_at + width - (cur - io.work_at)
        at = _dense(params, at, int(dims[d0 + k]), int(dims[d0 + k + 1]), buf, cur, buf, nxt, True)
        cur = nxt
    return _heads(params, at, int(dims[d0 + n_layers]), int(dims[d0 + n_layers + 1]), buf, cur, buf, io.q_at,
                  (ints, io.only_at, io.n_only), io.value)


@no_refcount
def net_forward_packed(params, at, io):
    """The network packed with its widths at ``params[at:]`` (``NetWeights.packed(header=True)``) on ``io``
    (a ``NetIO``: the inputs, work and action values in one buffer; only the listed actions' values are
    computed, ``n_only = 0``: none); returns the position's value (0 unless ``io.value``)."""
    n_dims = int(params[at])
    return _forward(params, at + 1 + n_dims, params, at + 1, n_dims, io)
