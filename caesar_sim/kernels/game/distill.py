"""Recording `mc`'s decisions (numba): the data `distilled` is fitted to.

Field games as in ``kernels.game.engine`` (seats drawn from the members, per-game streams), with the
focal member (an `mc` strategy) in seat ``g % n`` of game g. At each of its decisions the
recorder writes one row per legal action: ``REC_*`` columns (``kernels.layout``), then the action's features
(``kernels.play.scan``, ``N_FEATURES`` floats, computed with the mc seat's weight row), and plays the
action with the best mean rollout outcome, as `mc` would.
"""

import numba as nb
import numpy as np

from tabletop_mc.pointers import as_ptr, hold
from tabletop_mc.rng import seed_state
from tabletop_mc.spans import each_span
from caesar_sim.kernels.contexts import game_ptrs, rollout_ptrs
from caesar_sim.kernels.game.engine import decide, seat_members
from caesar_sim.kernels.layout import (ACTIONS, MAX_ACTIONS, MAX_PLAYERS, MERCHANT_VALUES, N_FEATURES, REC_ACTION,
                                       REC_CHOSEN, REC_DAY, REC_DECISION, REC_PHASE, REC_Q, ROWS, RULES, SCRATCH, STATE,
                                       STATS)
from caesar_sim.kernels.play.mc import mc_values
from caesar_sim.kernels.play.scan import action_features
from caesar_sim.kernels.play.state import advance, new_game

CODES = 1 + MERCHANT_VALUES * ROWS * 3     # action code + 1 (pass = 0)


@nb.njit(cache=True, inline="always")
def _record(rulebook, weight_table, seats, g0, count, out, r0):
    """Games ``g0 .. g0+count-1`` (``seats``: ``kernels.contexts.Seats``, members drawn, the focal one
    recorded); rows from ``out[r0]`` on; returns the number of rows written."""
    n = rulebook[RULES.players]
    game_state, rollout_state = np.zeros(STATE.size, np.int64), np.zeros(STATE.size, np.int64)
    actions, scratch = np.zeros(ACTIONS.size, np.int64), np.zeros(SCRATCH.size)
    F = np.zeros(MAX_ACTIONS * N_FEATURES)
    slot = np.full(CODES, -1, np.int64)
    game_log, game_stats = np.zeros(2, np.int64), np.zeros(STATS.size)
    rng = np.empty(4, np.uint64)
    seat = np.zeros(MAX_PLAYERS, np.int64)
    pols, ks, rows = np.zeros(MAX_PLAYERS, np.int64), np.zeros(MAX_PLAYERS, np.int64), np.zeros(MAX_PLAYERS, np.int64)
    t = game_ptrs(rulebook, weight_table, game_state, scratch, actions, rng, game_log, game_stats)
    ro = rollout_ptrs(t, as_ptr(rollout_state), t.game_log, t.game_stats)
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
        while game_state[STATE.over] == 0:
            p = game_state[STATE.turn]
            if p != me:
                a = decide(t, ro)
            else:
                cnt = mc_values(t.game_state, ro, ks[p])
                best, bv = actions[MAX_ACTIONS], scratch[SCRATCH.rollout_mean]
                for i in range(cnt):
                    slot[actions[MAX_ACTIONS + i] + 1] = i
                    if scratch[SCRATCH.rollout_mean + i] > bv:
                        best, bv = actions[MAX_ACTIONS + i], scratch[SCRATCH.rollout_mean + i]
                m = action_features(t.rulebook, t.game_state, t.weight_table, p, t.scratch, t.actions, 0, pF)
                for i in range(m):
                    a = actions[i]
                    out[r, REC_DECISION] = g * 1000 + dec
                    out[r, REC_ACTION] = a
                    out[r, REC_Q] = scratch[SCRATCH.rollout_mean + slot[a + 1]]
                    out[r, REC_CHOSEN] = a == best
                    out[r, REC_PHASE] = game_state[STATE.phase]
                    out[r, REC_DAY] = game_state[STATE.day]
                    for k in range(N_FEATURES):
                        out[r, 6 + k] = F[i * N_FEATURES + k]
                    r += 1
                dec += 1
                a = best
            advance(t, a)
    hold((rulebook, weight_table, game_state, rollout_state, actions, scratch, F, rng, game_log, game_stats, pols, ks,
          rows))   # read through pointers until here (inlined: the arguments are the caller's variables)
    return r - r0


def record_batch(rulebook, weight_table, seats, first_chunk, counts, chunk_size, out, rows_per_chunk, used):
    """Chunks ``first_chunk + i`` of ``counts[i]`` games: chunk i writes from row ``i * rows_per_chunk`` of
    ``out`` and the count into ``used[i]``. The chunks run on threads (``tabletop_mc.spans``)."""
    each_span(lambda lo, hi: record_span(rulebook, weight_table, seats, first_chunk, counts, chunk_size, out,
                                         rows_per_chunk, used, lo, hi), counts.shape[0])


@nb.njit(cache=True, nogil=True)
def record_span(rulebook, weight_table, seats, first_chunk, counts, chunk_size, out, rows_per_chunk, used, lo, hi):
    """Chunks ``lo..hi-1`` of ``record_batch``."""
    for ci in range(lo, hi):
        used[ci] = _record(rulebook, weight_table, seats, (first_chunk + ci) * chunk_size, counts[ci], out,
                           ci * rows_per_chunk)


record_batch.kernel = record_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)
