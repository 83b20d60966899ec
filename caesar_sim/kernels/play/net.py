"""`net`: the learned policy (numba): one forward pass of a small network per decision.

A `net` seat's weight row holds value's item weights (the items it takes, ``kernels.play.items``), a
linear score over `distilled`'s action features (``WEIGHTS.features``) and where its network sits
in ``weight_table`` (``WEIGHTS.net_at``; ``caesar_sim.nets`` appends it there). The network's
block: the reference rule vector (``RULES.size`` slots; the ``rules`` inputs are measured from
it), then the network packed with its widths as float32 (``NetWeights.packed(header=True)``), two
values per slot.

An action's value is its linear score plus the network's value for it: the linear part carries
what the project's scorers know about each bid (the items it wins, their worth, the rivals able
to outbid, the merchant's coins), the network what the whole position adds (``kernels.play.encode``:
hands, displays, rows, holdings, scores, rule numbers). The network's outputs follow a fixed
action list (``NET_ACTIONS``: pass, then action code + 1) and only the legal actions' are
computed: an illegal action is never a candidate. The seat plays the first best (ties: the first
in the scan's order, so the same seed gives the same game anywhere) or, with a temperature, a draw
from the softmax over the values. The value head (``net_value``) is the seat's expected win share:
`mc` reads it at the end of a truncated rollout (``kernels.play.mc``).
"""

import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.net.packed import NetIO, net_forward_packed
from tabletop_mc.pointers import as_float32, offset
from caesar_sim.kernels.play.encode import INPUTS, encode
from caesar_sim.kernels.play.items import wrow
from caesar_sim.kernels.layout import ACTIONS, NET_ACTIONS, NET_IO, RULES, SCRATCH, WEIGHTS
from caesar_sim.kernels.play.scan import linear_scores, pick

NET_X = 0                                   # float32 offsets in SCRATCH.net: the inputs,
NET_Q = INPUTS.size + INPUTS.size % 2       # the action values,
NET_WORK = NET_Q + NET_ACTIONS + 1          # the hidden layers' work (twice the widest)
MAX_HIDDEN = (NET_IO - NET_WORK) // 2


@no_refcount
def encode_scored(rulebook, game_state, weight_table, p, scratch, actions, x, idx):
    """Seat ``p``'s inputs (``kernels.play.encode``, from the rules of the net row ``p`` plays by) with the
    ``bid_scores`` block: the linear score of each bid of ``p`` as the rows stand (its weight row's
    features); ``actions[0:]`` and ``scratch[SCRATCH.score:]`` keep them. Returns (inputs listed in ``idx``,
    actions scored)."""
    o = wrow(game_state, p)
    at = int(weight_table[o + WEIGHTS.net_at])
    if at <= 0:
        raise ValueError("net: this weight row has no network (caesar_sim.nets.with_blocks)")
    cnt = linear_scores(rulebook, game_state, weight_table, p, scratch, actions, 0)
    k = encode(rulebook, offset(weight_table, at), game_state, p, x, idx)
    for i in range(cnt):
        j = INPUTS.bid_scores + actions[i] + 1
        x[j] = scratch[SCRATCH.score + i]
        idx[k] = j
        k += 1
    return k, cnt


@no_refcount
def net_run(rulebook, game_state, weight_table, p, scratch, actions, n_only):
    """Seat ``p``'s inputs, then the network of its weight row: with ``n_only`` > 0 the values of its legal
    actions, with ``n_only`` < 0 of every action, into the float32 view of ``SCRATCH.net`` at ``NET_Q``.
    Returns (the position's value, the value head's, unless ``n_only`` > 0; the number of legal actions,
    kept with their linear scores as ``encode_scored`` keeps them)."""
    at = int(weight_table[wrow(game_state, p) + WEIGHTS.net_at])
    buf = as_float32(offset(scratch, SCRATCH.net))
    k, cnt = encode_scored(rulebook, game_state, weight_table, p, scratch, actions, offset(buf, NET_X),
                           offset(actions, ACTIONS.net_nz))
    only = offset(actions, ACTIONS.net_only)
    for i in range(cnt):
        only[i] = actions[i] + 1
    n = cnt if n_only > 0 else n_only
    io = NetIO(buf, NET_X, NET_WORK, NET_Q, actions, ACTIONS.net_nz, k, ACTIONS.net_only, n, n <= 0)
    return float(net_forward_packed(as_float32(offset(weight_table, at + RULES.size)), 0, io)), cnt


@no_refcount
def net_value(rulebook, game_state, weight_table, p, scratch, actions):
    """Seat ``p``'s expected win share in ``game_state`` by the network of its weight row (its value head)."""
    return net_run(rulebook, game_state, weight_table, p, scratch, actions, np.int64(0))[0]


@no_refcount
def net_scores(rulebook, game_state, weight_table, p, scratch, actions):
    """Every legal action of ``p`` into ``actions[0:]`` (none at a banned row) and its value (linear score plus
    the network's) into ``scratch[SCRATCH.score:]``; returns their number."""
    cnt = net_run(rulebook, game_state, weight_table, p, scratch, actions, np.int64(1))[1]
    q = as_float32(offset(scratch, SCRATCH.net))
    for i in range(cnt):
        scratch[SCRATCH.score + i] += q[NET_Q + actions[i] + 1]
    return cnt


@no_refcount
def net_action(t, p):
    """Seat ``p``'s `net` action on pointers ``t`` (module docstring)."""
    game_state, weight_table, scratch, actions = t.game_state, t.weight_table, t.scratch, t.actions
    cnt = net_scores(t.rulebook, game_state, weight_table, p, scratch, actions)
    temp = weight_table[wrow(game_state, p) + WEIGHTS.temperature]
    return actions[pick(scratch, cnt, temp, t.rng)]

