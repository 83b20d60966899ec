"""Array-in, array-out entry points to single engine steps (tests, tools).

Each takes NumPy arrays (the ``rulebook``, ``weight_table``, ``game_state``, ``rng`` state, 2-d
``game_log`` and ``game_stats``; layouts in ``layout``) and runs one step of ``play.state``/``play.policies``
on pointers to them.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.pointers import as_float32, as_ptr, hold, offset
from tabletop_mc.rng import seed_state
from caesar_sim.kernels.contexts import game_ptrs, rollout_ptrs
from caesar_sim.kernels.play.encode import INPUTS, encode
from caesar_sim.kernels.game.engine import decide
from caesar_sim.kernels.layout import ACTIONS, MAX_PLAYERS, NET_ACTIONS, SCRATCH, STATE, STATS
from caesar_sim.kernels.play.mc import rollout_start
from caesar_sim.kernels.play.net import NET_Q, NET_X, net_run, net_scores
from caesar_sim.kernels.play.policies import legal_actions
from caesar_sim.kernels.play.scan import linear_scores, value_scores
from caesar_sim.kernels.play.setup import setup_day
from caesar_sim.kernels.play.state import advance, apply_action, new_game, resolve_phase, score_day


@nb.njit(cache=True)
def k_new_game(rulebook, weight_table, game_state, pols, ks, rows, rng, game_log, game_stats):
    """Deal and set up a game; stop at the first decision."""
    scratch, actions = np.zeros(SCRATCH.size), np.zeros(ACTIONS.size, np.int64)
    new_game(game_ptrs(rulebook, weight_table, game_state, scratch, actions, rng, game_log, game_stats), as_ptr(pols),
             as_ptr(ks), as_ptr(rows))
    hold((scratch, actions))


@no_refcount
def k_setup_day(rulebook, game_state, game_log, game_stats):
    """Lay out the day's displays for day ``game_state[STATE.day]`` from the decks in ``game_state``."""
    setup_day(as_ptr(rulebook), as_ptr(game_state), as_ptr(game_log), as_ptr(game_stats))


@no_refcount
def k_apply(rulebook, game_state, p, a, game_log, game_stats):
    """Seat ``p`` plays action ``a`` (no turn handling, no resolution)."""
    apply_action(as_ptr(rulebook), as_ptr(game_state), p, a, as_ptr(game_log), as_ptr(game_stats))


@nb.njit(cache=True)
def k_resolve(rulebook, weight_table, game_state, rng, game_log, game_stats):
    """Resolve the rows of phase ``game_state[STATE.phase]``."""
    scratch, actions = np.zeros(SCRATCH.size), np.zeros(ACTIONS.size, np.int64)
    resolve_phase(game_ptrs(rulebook, weight_table, game_state, scratch, actions, rng, game_log, game_stats))
    hold((scratch, actions))


@no_refcount
def k_score(rulebook, game_state, game_log, game_stats):
    """Score the day (phase 4) into the totals."""
    score_day(as_ptr(rulebook), as_ptr(game_state), as_ptr(game_log), as_ptr(game_stats))


@nb.njit(cache=True)
def k_decide(rulebook, weight_table, game_state, rng):
    """The action the acting seat's policy chooses now (state unchanged except the rng)."""
    rollout_state = np.zeros(game_state.shape[0], np.int64)
    actions = np.zeros(ACTIONS.size, np.int64)
    scratch = np.zeros(SCRATCH.size)
    game_log = np.zeros(2, np.int64)
    game_stats = np.zeros(1)
    t = game_ptrs(rulebook, weight_table, game_state, scratch, actions, rng, game_log, game_stats)
    a = decide(t, rollout_ptrs(t, as_ptr(rollout_state), t.game_log, t.game_stats))
    hold((rollout_state, actions, scratch, game_log, game_stats))   # read through pointers until here
    return a


@nb.njit(cache=True)
def k_states(rulebook, weight_table, pols, ks, seed, count):
    """The states at the first ``count`` decisions of the games of stream (``seed``, 0), played on by the
    seats' policies; one row of ``game_state`` per decision (tests of the policies on real positions)."""
    out = np.zeros((count, STATE.size), np.int64)
    rng = np.empty(4, np.uint64)
    seed_state(seed, np.int64(0), rng)
    game_state, rollout_state = np.zeros(STATE.size, np.int64), np.zeros(STATE.size, np.int64)
    actions, scratch = np.zeros(ACTIONS.size, np.int64), np.zeros(SCRATCH.size)
    game_log, game_stats = np.zeros(2, np.int64), np.zeros(STATS.size)
    rows = np.arange(MAX_PLAYERS)
    t = game_ptrs(rulebook, weight_table, game_state, scratch, actions, rng, game_log, game_stats)
    ro = rollout_ptrs(t, as_ptr(rollout_state), t.game_log, t.game_stats)
    i = 0
    while i < count:
        new_game(t, as_ptr(pols), as_ptr(ks), as_ptr(rows))
        while game_state[STATE.over] == 0 and i < count:
            out[i, :] = game_state
            i += 1
            advance(t, decide(t, ro))
    hold((game_state, rng, rollout_state, actions, scratch, game_log, game_stats, rows))   # read through pointers until here
    return out


@nb.njit(cache=True)
def k_scores(rulebook, weight_table, game_state, linear):
    """(actions, scores) of the acting seat: every legal action (pass first) with value's score, or with
    `distilled`'s linear score if ``linear``."""
    actions = np.zeros(ACTIONS.size, np.int64)
    scratch = np.zeros(SCRATCH.size)
    p = game_state[STATE.turn]
    if linear:
        cnt = linear_scores(as_ptr(rulebook), as_ptr(game_state), as_ptr(weight_table), p, as_ptr(scratch),
                            as_ptr(actions), 0)
    else:
        cnt = value_scores(as_ptr(rulebook), as_ptr(game_state), as_ptr(weight_table), p, as_ptr(scratch),
                           as_ptr(actions), 0)
    return actions[:cnt].copy(), scratch[SCRATCH.score:SCRATCH.score + cnt].copy()


@nb.njit(cache=True)
def k_rollout_seats(weight_table, game_state, rng):
    """(weight row, policy) of every seat in one `mc` rollout of the acting seat's decision (``rollout_start``)."""
    rollout_state = np.zeros(STATE.size, np.int64)
    rollout_start(as_ptr(game_state), as_ptr(rollout_state), as_ptr(weight_table), game_state[STATE.turn], as_ptr(rng))
    n = game_state[STATE.players]
    return rollout_state[STATE.weight_row:STATE.weight_row + n].copy(), rollout_state[STATE.policy:STATE.policy + n].copy()


@nb.njit(cache=True)
def k_legal(game_state, p):
    """Seat ``p``'s legal actions (pass first)."""
    actions = np.zeros(ACTIONS.size, np.int64)
    cnt = legal_actions(as_ptr(game_state), p, as_ptr(actions), 0)
    return actions[:cnt].copy()


@nb.njit(cache=True)
def k_encode(rulebook, reference, game_state, p):
    """(seat ``p``'s `net` inputs without the bid_scores block, the indices of the nonzero ones) in ``game_state``,
    measured from ``reference``."""
    x = np.zeros(INPUTS.size, np.float32)
    idx = np.zeros(INPUTS.size, np.int64)
    k = encode(as_ptr(rulebook), as_ptr(reference), as_ptr(game_state), p, as_ptr(x), as_ptr(idx))
    return x, idx[:k].copy()


@nb.njit(cache=True)
def k_net_outputs(rulebook, weight_table, game_state, p):
    """The network of seat ``p``'s weight row, seen from ``p``: its inputs (the bid_scores block filled), every
    action's value (float32, the fixed action list) and the position's value."""
    actions, scratch = np.zeros(ACTIONS.size, np.int64), np.zeros(SCRATCH.size)
    v, _ = net_run(as_ptr(rulebook), as_ptr(game_state), as_ptr(weight_table), p, as_ptr(scratch), as_ptr(actions),
                   np.int64(-1))
    buf = as_float32(offset(as_ptr(scratch), SCRATCH.net))
    x, q = np.zeros(INPUTS.size, np.float32), np.zeros(NET_ACTIONS, np.float32)
    for j in range(INPUTS.size):
        x[j] = buf[NET_X + j]
    for j in range(NET_ACTIONS):
        q[j] = buf[NET_Q + j]
    hold((scratch, actions))   # read through pointers (``buf``) until here
    return x, q, v


@nb.njit(cache=True)
def k_net_scores(rulebook, weight_table, game_state):
    """(actions, values) of the acting `net` seat: every legal action it weighs and its linear score plus the
    network's value."""
    actions, scratch = np.zeros(ACTIONS.size, np.int64), np.zeros(SCRATCH.size)
    cnt = net_scores(as_ptr(rulebook), as_ptr(game_state), as_ptr(weight_table), game_state[STATE.turn],
                     as_ptr(scratch), as_ptr(actions))
    return actions[:cnt].copy(), scratch[SCRATCH.score:SCRATCH.score + cnt].copy()
