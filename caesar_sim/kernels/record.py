"""Recording `mc`'s decisions (numba): the data `distilled` is fitted to.

Field games as in ``kernels.game`` (seats drawn from the members, per-game streams), with the
focal member (an `mc` strategy) in seat ``g % n`` of game g. At each of its decisions the
recorder writes one row per legal action: ``REC_*`` columns, then the action's features
(``kernels.scan``, ``NFEAT`` floats, computed with the mc seat's weight row), and plays the
action with the best mean rollout outcome, as `mc` would.
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state
from caesar_sim.kernels.context import rollout_table, table
from caesar_sim.kernels.game import decide, seat_members
from caesar_sim.kernels.items import NFEAT
from caesar_sim.kernels.layout import ACT_MAX, A_SIZE, DAYS_MAX, NROW, NVAL, P, RULES, STATE, STATS, W_Q, W_SIZE
from caesar_sim.kernels.mc import mc_values
from caesar_sim.kernels.ptr import as_ptr
from caesar_sim.kernels.scan import action_features
from caesar_sim.kernels.state import advance, new_game

REC_DECISION, REC_ACTION, REC_Q, REC_CHOSEN, REC_PHASE, REC_DAY = range(6)
REC_COLS = 6 + NFEAT
CODES = 1 + NVAL * NROW * 3     # action code + 1 (pass = 0)
MAX_ROWS_PER_GAME = 3 * 9 * DAYS_MAX * ACT_MAX   # a bound: decisions per day x days x actions


@nb.njit(cache=True)
def _record(R, PP, seats, g0, count, out, r0):
    """Games ``g0 .. g0+count-1`` (``seats``: ``kernels.context.Seats``, members drawn, the focal one
    recorded); rows from ``out[r0]`` on; returns the number of rows written."""
    n = R[RULES.players]
    S, B = np.zeros(STATE.size, np.int64), np.zeros(STATE.size, np.int64)
    A, W = np.zeros(A_SIZE, np.int64), np.zeros(W_SIZE)
    F = np.zeros(ACT_MAX * NFEAT)
    slot = np.full(CODES, -1, np.int64)
    lg, st = np.zeros(2, np.int64), np.zeros(STATS.size)
    rng = np.empty(4, np.uint64)
    seat = np.zeros(P, np.int64)
    pols, ks, rows = np.zeros(P, np.int64), np.zeros(P, np.int64), np.zeros(P, np.int64)
    t = table(R, PP, S, W, A, rng, lg, st)
    ro = rollout_table(t, as_ptr(B), t.lg, t.st)
    pF = as_ptr(F)
    r = r0
    for j in range(count):
        g = g0 + j
        seat_members(seats, g, n, seat)
        me = g % n
        for s in range(n):
            pols[s], ks[s], rows[s] = seats.policy[seat[s]], seats.rollouts[seat[s]], seat[s]
        seed_state(seats.game_key, g, rng)
        new_game(t, as_ptr(pols), as_ptr(ks), as_ptr(rows))
        dec = 0
        while S[STATE.over] == 0:
            p = S[STATE.turn]
            if p != me:
                a = decide(t, ro)
            else:
                cnt = mc_values(t.S, ro, ks[p])
                best, bv = A[ACT_MAX], W[W_Q]
                for i in range(cnt):
                    slot[A[ACT_MAX + i] + 1] = i
                    if W[W_Q + i] > bv:
                        best, bv = A[ACT_MAX + i], W[W_Q + i]
                m = action_features(t.R, t.S, t.PP, p, t.W, t.A, 0, pF)
                for i in range(m):
                    a = A[i]
                    out[r, REC_DECISION] = g * 1000 + dec
                    out[r, REC_ACTION] = a
                    out[r, REC_Q] = W[W_Q + slot[a + 1]]
                    out[r, REC_CHOSEN] = a == best
                    out[r, REC_PHASE] = S[STATE.phase]
                    out[r, REC_DAY] = S[STATE.day]
                    for k in range(NFEAT):
                        out[r, 6 + k] = F[i * NFEAT + k]
                    r += 1
                dec += 1
                a = best
            advance(t, a)
    return r - r0 + int(0 * (B[0] + lg[0] + st[0] + pols[0] + ks[0] + rows[0]))


@nb.njit(cache=True, parallel=True)
def record_batch(R, PP, seats, first_chunk, counts, chunk_size, out, rows_per_chunk, used):
    """Chunks ``first_chunk + i`` of ``counts[i]`` games: chunk i writes from row ``i * rows_per_chunk`` of
    ``out`` and the count into ``used[i]``."""
    for ci in nb.prange(counts.shape[0]):
        used[ci] = _record(R, PP, seats, (first_chunk + ci) * chunk_size, counts[ci], out, ci * rows_per_chunk)
