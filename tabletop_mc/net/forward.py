"""The network's forward pass inside the kernels (numba), and picking the best legal action.

``net_forward`` evaluates a ``NetWeights.packed`` vector on one input vector,
in float32 (twice the SIMD lanes of float64): a game keeps the packed weights
in a float64 vector it already reaches (Sponsio: its rulebook's
``money_rules``) and hands over a float32 view or pointer of them
(``tabletop_mc.pointers.as_float32``). Each layer is computed input by input,
``h += x[i] * W[i, :]``: a contiguous row that LLVM vectorises, and a zero
input skips its row. Every buffer is a separate view (LLVM vectorises only
what it can tell apart from the weights). The accumulation order of each
unit is fixed (input by input), whatever the vector width, so the same
weights and inputs give the same bits on any machine and thread count.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.jitcache import configure_shared
from tabletop_mc.pointers import shift
from tabletop_mc.rng import uniform

configure_shared()   # the kernels below are cached keyed by their sources


@no_refcount
def _layer(w, n_in, n_out, x, out, relu):
    """``out[:n_out] = x[:n_in] @ W + b`` (``w``: W input-major, then b), ReLU if asked;
    returns the layer's size in ``w``."""
    b = n_in * n_out
    for j in range(n_out):
        out[j] = w[b + j]
    for i in range(n_in):
        xi = x[i]
        if xi != 0.0:
            row = i * n_out
            for j in range(n_out):
                out[j] += xi * w[row + j]
    if relu:
        for j in range(n_out):
            if out[j] < 0.0:
                out[j] = 0.0
    return b + n_out


@nb.njit(cache=True)
def net_forward(params, dims, n_dims, x, scratch, q):
    """The packed network ``params`` with the ``n_dims`` layer widths ``dims`` (inputs, hidden...,
    actions; each an array or a pointer, ``tabletop_mc.pointers.shift``) on inputs ``x``: the action
    values into ``q[:dims[n_dims - 1]]``; returns the position's value.
    ``scratch`` holds at least twice the widest hidden layer. Reference counted (not ``no_refcount``):
    it hands ``_layer`` views of its buffers, a few per decision against tens of thousands of
    multiply-adds."""
    n_layers = n_dims - 2
    width = 0
    for k in range(1, n_layers + 1):
        width = max(width, dims[k])
    a = scratch[:width]
    b = scratch[width:2 * width]
    at = _layer(shift(params, 0), dims[0], dims[1], x, a, True)
    for k in range(1, n_layers):
        at += _layer(shift(params, at), dims[k], dims[k + 1], a, b, True)
        a, b = b, a
    hidden = dims[n_layers]
    at += _layer(shift(params, at), hidden, dims[n_layers + 1], a, q, False)
    v = params[at + hidden]
    for j in range(hidden):
        v += a[j] * params[at + j]
    return v


def float32_slots(n: int) -> int:
    """float64 slots that hold ``n`` float32 values."""
    return (n + 1) // 2


def as_float64_slots(values: np.ndarray) -> np.ndarray:
    """float32 ``values`` packed two to a float64 slot (padded), for a float64 state vector."""
    v = np.zeros(2 * float32_slots(len(values)), dtype=np.float32)
    v[:len(values)] = values
    return v.view(np.float64)


@nb.njit(cache=True, inline="always")
def best_legal(q, legal, n):
    """Index of the highest ``q[i]`` with ``legal[i]`` nonzero among the first ``n`` (ties: the lowest index;
    -1 when none is legal). An illegal action never wins, whatever its value."""
    best = -1
    for i in range(n):
        if legal[i] != 0 and (best < 0 or q[i] > q[best]):
            best = i
    return best



@no_refcount
def pick_legal(q, legal, n, temp, state):
    """``best_legal``, or with a temperature ``temp`` > 0 an action drawn with probability proportional
    to ``exp(q / temp)`` among the legal ones (a softmax over the values; one draw from ``state``)."""
    best = best_legal(q, legal, n)
    if temp <= 0.0 or best < 0:
        return best
    total = 0.0
    for i in range(n):
        if legal[i] != 0:
            total += np.exp((q[i] - q[best]) / temp)
    u = uniform(state) * total
    for i in range(n):
        if legal[i] != 0:
            u -= np.exp((q[i] - q[best]) / temp)
            if u < 0.0:
                return i
    return best   # pragma: no cover - rounding: u consumed by the last term
