"""Array-in, array-out entry points to single engine steps (tests, tools).

Each takes NumPy arrays (``R`` rules, ``PP`` weights, ``S`` state, ``rng``
state, ``lg`` 2-d log, ``st`` statistics; layouts in ``layout``) and runs one
step of ``state``/``policies`` on pointers to them.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import seed_state
from caesar_sim.kernels.context import rollout_table, table
from caesar_sim.kernels.layout import A_SIZE, P, STATE, STATS, W_SCORE, W_SIZE
from caesar_sim.kernels.game import decide
from caesar_sim.kernels.mc import rollout_start
from caesar_sim.kernels.ptr import as_ptr
from caesar_sim.kernels.policies import legal_actions
from caesar_sim.kernels.scan import linear_scores, value_scores
from caesar_sim.kernels.setup import setup_day
from caesar_sim.kernels.state import advance, apply_action, new_game, resolve_phase, score_day


@nb.njit(cache=True)
def k_new_game(R, PP, S, pols, ks, rows, rng, lg, st):
    """Deal and set up a game; stop at the first decision."""
    W, A = np.zeros(W_SIZE), np.zeros(A_SIZE, np.int64)
    new_game(table(R, PP, S, W, A, rng, lg, st), as_ptr(pols), as_ptr(ks), as_ptr(rows))
    return W[0] + A[0]


@no_refcount
def k_setup_day(R, S, lg, st):
    """Lay out the day's displays for day ``S[STATE.day]`` from the decks in ``S``."""
    setup_day(as_ptr(R), as_ptr(S), as_ptr(lg), as_ptr(st))


@no_refcount
def k_apply(R, S, p, a, lg, st):
    """Seat ``p`` plays action ``a`` (no turn handling, no resolution)."""
    apply_action(as_ptr(R), as_ptr(S), p, a, as_ptr(lg), as_ptr(st))


@nb.njit(cache=True)
def k_resolve(R, PP, S, rng, lg, st):
    """Resolve the rows of phase ``S[STATE.phase]``."""
    W, A = np.zeros(W_SIZE), np.zeros(A_SIZE, np.int64)
    resolve_phase(table(R, PP, S, W, A, rng, lg, st))
    return W[0] + A[0]


@no_refcount
def k_score(R, S, lg, st):
    """Score the day (phase 4) into the totals."""
    score_day(as_ptr(R), as_ptr(S), as_ptr(lg), as_ptr(st))


@nb.njit(cache=True)
def k_advance(R, PP, S, a, rng, lg, st):
    """The acting seat plays ``a``; run on to the next decision."""
    W, A = np.zeros(W_SIZE), np.zeros(A_SIZE, np.int64)
    advance(table(R, PP, S, W, A, rng, lg, st), a)
    return W[0] + A[0]


@nb.njit(cache=True)
def k_decide(R, PP, S, rng):
    """The action the acting seat's policy chooses now (state unchanged except the rng)."""
    B = np.zeros(S.shape[0], np.int64)
    A = np.zeros(A_SIZE, np.int64)
    W = np.zeros(W_SIZE)
    lg = np.zeros(2, np.int64)
    st = np.zeros(1)
    t = table(R, PP, S, W, A, rng, lg, st)
    a = decide(t, rollout_table(t, as_ptr(B), t.lg, t.st))
    return a + 0 * (B[0] + A[0] + lg[0]) + int(0 * (W[0] + st[0]))


@nb.njit(cache=True)
def k_states(R, PP, pols, ks, seed, count):
    """The states at the first ``count`` decisions of the games of stream (``seed``, 0), played on by the
    seats' policies; one row of ``S`` per decision (tests of the policies on real positions)."""
    out = np.zeros((count, STATE.size), np.int64)
    rng = np.empty(4, np.uint64)
    seed_state(seed, 0, rng)
    S, B = np.zeros(STATE.size, np.int64), np.zeros(STATE.size, np.int64)
    A, W = np.zeros(A_SIZE, np.int64), np.zeros(W_SIZE)
    lg, st = np.zeros(2, np.int64), np.zeros(STATS.size)
    rows = np.arange(P)
    t = table(R, PP, S, W, A, rng, lg, st)
    ro = rollout_table(t, as_ptr(B), t.lg, t.st)
    i = 0
    while i < count:
        new_game(t, as_ptr(pols), as_ptr(ks), as_ptr(rows))
        while S[STATE.over] == 0 and i < count:
            out[i, :] = S
            i += 1
            advance(t, decide(t, ro))
    return out


@nb.njit(cache=True)
def k_scores(R, PP, S, linear):
    """(actions, scores) of the acting seat: every legal action (pass first) with value's score, or with
    `distilled`'s linear score if ``linear``."""
    A = np.zeros(A_SIZE, np.int64)
    W = np.zeros(W_SIZE)
    p = S[STATE.turn]
    if linear:
        cnt = linear_scores(as_ptr(R), as_ptr(S), as_ptr(PP), p, as_ptr(W), as_ptr(A), 0)
    else:
        cnt = value_scores(as_ptr(R), as_ptr(S), as_ptr(PP), p, as_ptr(W), as_ptr(A), 0)
    return A[:cnt].copy(), W[W_SCORE:W_SCORE + cnt].copy()


@nb.njit(cache=True)
def k_rollout_seats(PP, S, rng):
    """(weight row, policy) of every seat in one `mc` rollout of the acting seat's decision (``rollout_start``)."""
    B = np.zeros(STATE.size, np.int64)
    rollout_start(as_ptr(S), as_ptr(B), as_ptr(PP), S[STATE.turn], as_ptr(rng))
    n = S[STATE.players]
    return B[STATE.weight_row:STATE.weight_row + n].copy(), B[STATE.policy:STATE.policy + n].copy()


@nb.njit(cache=True)
def k_legal(S, p):
    """Seat ``p``'s legal actions (pass first)."""
    A = np.zeros(A_SIZE, np.int64)
    cnt = legal_actions(as_ptr(S), p, as_ptr(A), 0)
    return A[:cnt].copy()
