"""The network's forward pass inside the kernels (numba), and picking the best legal action.

``net_forward`` evaluates a ``NetWeights.packed`` vector (held in any float
array at offset ``at``, so a game keeps it in the state vectors it already
passes around) on one input vector. Each layer is computed input by input:
``h += x[i] * W[i, :]``, a contiguous row that LLVM vectorises, and a zero
input skips its row. The accumulation order is fixed, so the same weights and
inputs give the same bits on any machine and thread count.
"""

import numba as nb

from tabletop_mc.jit import no_refcount


@no_refcount
def _layer(params, at, n_in, n_out, x, x_at, out, out_at, relu):
    """``out[out_at:][:n_out] = x[x_at:][:n_in] @ W + b`` (W input-major at ``params[at]``, b after
    it), ReLU if asked; returns the offset after the layer."""
    b = at + n_in * n_out
    for j in range(n_out):
        out[out_at + j] = params[b + j]
    for i in range(n_in):
        xi = x[x_at + i]
        if xi != 0.0:
            row = at + i * n_out
            for j in range(n_out):
                out[out_at + j] += xi * params[row + j]
    if relu:
        for j in range(n_out):
            if out[out_at + j] < 0.0:
                out[out_at + j] = 0.0
    return b + n_out


@no_refcount
def net_forward(params, at, dims, x, scratch, q):
    """The network packed at ``params[at:]`` with layer widths ``dims`` (inputs, hidden..., actions)
    on inputs ``x``: the action values into ``q[:dims[-1]]``; returns the position's value.
    ``scratch`` holds at least twice the widest hidden layer."""
    n_layers = dims.shape[0] - 2
    width = 0
    for k in range(1, n_layers + 1):
        width = max(width, dims[k])
    cur = 0
    at = _layer(params, at, dims[0], dims[1], x, 0, scratch, cur, True)
    for k in range(1, n_layers):
        at = _layer(params, at, dims[k], dims[k + 1], scratch, cur, scratch, width - cur, True)
        cur = width - cur
    hidden = dims[n_layers]
    at = _layer(params, at, hidden, dims[n_layers + 1], scratch, cur, q, 0, False)
    v = params[at + hidden]
    for j in range(hidden):
        v += scratch[cur + j] * params[at + j]
    return v


@nb.njit(cache=True, inline="always")
def best_legal(q, legal, n):
    """Index of the highest ``q[i]`` with ``legal[i]`` among the first ``n`` (ties: the lowest index;
    -1 when none is legal). An illegal action never wins, whatever its value."""
    best = -1
    for i in range(n):
        if legal[i] and (best < 0 or q[i] > q[best]):
            best = i
    return best

