"""Whole games (numba): one logged game, and chunked batches run on threads (``tabletop_mc.spans``).

A batch's seats come from a member table (``kernels.contexts.Seats``: policy code, `mc` rollouts,
weight row m of ``weight_table``). A profile batch (``run_batch``) plays chunk c from random stream
(seed, c). In a field batch (``run_field_batch``) every game ``g`` has streams of its own, so game
g is the same deal and the same seat draws in every run sharing the keys, whatever else differs
(common random numbers):

- stream ``(draw_key, g)`` draws each seat's member from the cumulative weights ``cum``, one
  uniform per seat in seat order, and nothing else;
- stream ``(game_key, g)`` plays the game (deal, then every random choice of the policies).

With ``seating[0] >= 0`` there is no draw: seat s plays member ``seating[(s + g) % n]`` (a fixed
profile rotated game by game, for the payoff table). With ``focal >= 0`` seat ``g % n`` plays
member ``focal`` instead of its draw (a deviation against the field, paired with the run
without it on the same streams).
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.pointers import as_ptr, hold
from tabletop_mc.rng import seed_state, uniform
from tabletop_mc.spans import each_span
from caesar_sim.kernels.contexts import Results, Seats, game_ptrs, rollout_ptrs
from caesar_sim.kernels.layout import ACTIONS, LOG_FIELDS, MAX_PLAYERS, MC, RULES, SCRATCH, STATE, STATS
from caesar_sim.kernels.play.mc import mc_action
from caesar_sim.kernels.play.dispatch import fast_action
from caesar_sim.kernels.play.state import advance, new_game


@no_refcount
def decide(t, ro):
    """The acting seat's action under its policy, on pointers ``t``; an `mc` seat's rollouts play on ``ro``."""
    game_state = t.game_state
    p = game_state[STATE.turn]
    pol = game_state[STATE.policy + p]
    if pol == MC:
        return mc_action(game_state, ro, game_state[STATE.rollouts + p])
    return fast_action(t, p, pol)


@no_refcount
def play_game(t, ro, policies, rollouts, weight_rows, day_totals, keep):
    """Play one game on pointers ``t`` (totals at ``STATE.score``; `mc` rollouts on ``ro``); with ``keep``,
    every seat's total at the end of day d into ``day_totals[d * MAX_PLAYERS + s]``."""
    game_state = t.game_state
    new_game(t, policies, rollouts, weight_rows)
    d = game_state[STATE.day]
    while game_state[STATE.over] == 0:
        advance(t, decide(t, ro))
        if keep and game_state[STATE.day] != d:
            for s in range(game_state[STATE.players]):
                day_totals[d * MAX_PLAYERS + s] = game_state[STATE.score + s]
            d = game_state[STATE.day]


@nb.njit(cache=True)
def draw_seats(cum, draw_key, g, n, out):
    """Members of the ``n`` seats of game ``g`` drawn from ``cum`` (stream (draw_key, g)) into ``out``."""
    drng = np.empty(4, np.uint64)
    seed_state(draw_key, g, drng)
    last = cum.shape[0] - 1
    for s in range(n):
        u = uniform(drng)
        m = 0
        while m < last and u >= cum[m]:
            m += 1
        out[s] = m


@nb.njit(cache=True, inline="always")
def seat_members(seats, g, n, seat):
    """The member of each of the ``n`` seats of game ``g`` into ``seat``; returns the rotation:

    - ``seating[0] >= 0``: m = ``seating[(s + rot) % n]``, rot = g % n if ``rotate`` else 0;
    - else drawn from ``cum`` (``draw_seats``); ``focal >= 0``: seat g % n plays ``focal``.
    """
    rot = g % n if seats.rotate else 0
    if seats.seating[0] >= 0:
        for s in range(n):
            seat[s] = seats.seating[(s + rot) % n]
    else:
        draw_seats(seats.cum, seats.draw_key, g, n, seat)
    if seats.focal >= 0:
        seat[g % n] = seats.focal
    return rot


@nb.njit(cache=True, inline="always")
def seated_games(rulebook, weight_table, seats, g0, count, rng, game_log, game_stats, out):
    """Games ``g0 .. g0+count-1`` of a chunk (arrays in; pointers inside); seat s of game g plays
    member m (``seat_members``): policy ``seats.policy[m]``, rollouts ``seats.rollouts[m]``, weight
    row m of ``weight_table``. ``seats.per_game``: game g plays from stream (game_key, g) (``rng`` reseeded
    per game), else on from ``rng``. Outputs into ``out`` (``kernels.contexts.Results``).
    """
    n = rulebook[RULES.players]
    game_state, rollout_state = np.zeros(STATE.size, np.int64), np.zeros(STATE.size, np.int64)
    actions, scratch = np.zeros(ACTIONS.size, np.int64), np.zeros(SCRATCH.size)
    rollout_log, rollout_stats = np.zeros(LOG_FIELDS, np.int64), np.zeros(STATS.size)
    seat = np.zeros(MAX_PLAYERS, np.int64)
    policies, rollouts = np.zeros(MAX_PLAYERS, np.int64), np.zeros(MAX_PLAYERS, np.int64)
    weight_rows = np.zeros(MAX_PLAYERS, np.int64)
    t = game_ptrs(rulebook, weight_table, game_state, scratch, actions, rng, game_log, game_stats)
    ro = rollout_ptrs(t, as_ptr(rollout_state), as_ptr(rollout_log), as_ptr(rollout_stats))
    policies_ptr, rollouts_ptr, weight_rows_ptr = as_ptr(policies), as_ptr(rollouts), as_ptr(weight_rows)
    days = np.zeros(max(rulebook[RULES.days], 1) * MAX_PLAYERS, np.int64)   # every seat's total at each day's end
    day_totals = as_ptr(days)
    for j in range(count):
        g = g0 + j
        rot = seat_members(seats, g, n, seat)
        for s in range(n):
            policies[s], rollouts[s], weight_rows[s] = seats.policy[seat[s]], seats.rollouts[seat[s]], seat[s]
        if seats.per_game:
            seed_state(seats.game_key, g, rng)
        keep = out.days.shape[0] > g
        play_game(t, ro, policies_ptr, rollouts_ptr, weight_rows_ptr, day_totals, keep)
        for s in range(n):
            out.scores[g, s] = game_state[STATE.score + s]
            if keep:
                for d in range(out.days.shape[1]):
                    out.days[g, d, s] = days[d * MAX_PLAYERS + s]
            if out.members.shape[0] > g:
                out.members[g, s] = seat[s]
        if out.rots.shape[0] > g:
            out.rots[g] = rot
    # every array the pointers read, the arguments too: inlined, they are the caller's variables
    # (``field_span`` makes ``game_log`` and uses it nowhere else; the games read it after its release)
    hold((rulebook, weight_table, rng, game_log, game_stats, game_state, rollout_state, actions, scratch, rollout_log,
          rollout_stats, policies, rollouts, weight_rows, days))


@nb.njit(cache=True, inline="always")
def _one_game(rulebook, weight_table, seats, rng, game_log):
    """Game 0 of ``seats`` logged into the 2-d int64 array ``game_log`` (row 0: count, capacity); the final totals."""
    game_log[0, 0], game_log[0, 1] = 0, game_log.shape[0]
    out = Results(np.zeros((1, MAX_PLAYERS), np.int64), np.zeros(1, np.int64), np.zeros((0, MAX_PLAYERS), np.int64),
                  np.zeros((0, 1, MAX_PLAYERS), np.int64))
    seated_games(rulebook, weight_table, seats, 0, 1, rng, game_log, np.zeros(STATS.size), out)
    return out.scores[0]


@nb.njit(cache=True)
def play_one(rulebook, weight_table, pols, ks, seed, game_log):
    """Game 0 of chunk 0 for ``seed`` (the first game a batch plays, unrotated), logged into the
    2-d int64 array ``game_log`` (row 0: count, capacity); returns the final totals by seat."""
    rng = np.empty(4, np.uint64)
    seed_state(seed, np.int64(0), rng)
    return _one_game(rulebook, weight_table, Seats(pols, ks, np.arange(MAX_PLAYERS), False, np.ones(1), -1,
                                                   np.uint64(0), False, np.uint64(0)),
                     rng, game_log)


@nb.njit(cache=True)
def play_field_one(rulebook, weight_table, mem_pol, mem_k, seating, game_key, game_log):
    """Game 0 of a field run (seat s plays member ``seating[s]``, drawn by the caller with ``draw_seats``),
    on stream (game_key, 0), logged into ``game_log`` as ``play_one``; returns the final totals by seat."""
    seats = Seats(mem_pol, mem_k, seating, False, np.ones(1), -1, np.uint64(0), True, game_key)
    return _one_game(rulebook, weight_table, seats, np.empty(4, np.uint64), game_log)


def run_batch(rulebook, weight_table, seats, seed, first_chunk, counts, chunk_size, out, stats):
    """Chunks ``first_chunk + i`` of ``counts[i]`` games of a profile (``seats``: fixed seating,
    rotated game by game if ``rotate``); per-game outputs into ``out`` (``Results``).

    Chunk c draws from random stream (seed, c) alone. Seat ``s`` of game ``g`` plays profile
    entry ``(s + rot) % n`` with ``rot = g % n`` if ``rotate``, else 0. ``stats[i]`` receives
    chunk i's summed statistics (layout ``STATS``). The chunks run on threads (``tabletop_mc.spans``).
    """
    each_span(lambda lo, hi: batch_span(rulebook, weight_table, seats, seed, first_chunk, counts, chunk_size, out,
                                        stats, lo, hi), counts.shape[0])


@nb.njit(cache=True, nogil=True)
def batch_span(rulebook, weight_table, seats, seed, first_chunk, counts, chunk_size, out, stats, lo, hi):
    """Chunks ``lo..hi-1`` of ``run_batch``."""
    for ci in range(lo, hi):
        rng = np.empty(4, np.uint64)
        seed_state(seed, first_chunk + ci, rng)
        game_log = np.zeros(LOG_FIELDS, np.int64)
        game_stats = np.zeros(STATS.size)
        game_stats[STATS.on] = 1.0
        seated_games(rulebook, weight_table, seats, (first_chunk + ci) * chunk_size, counts[ci], rng, game_log,
                     game_stats, out)
        stats[ci, :] = game_stats


def run_field_batch(rulebook, weight_table, seats, first_chunk, counts, chunk_size, stats_on, out, stats):
    """Chunks ``first_chunk + i`` of ``counts[i]`` games whose seats come from a member table
    (``seats``: drawn from the field ``cum`` per game, or ``seating`` rotated game by game, seat
    g % n playing ``focal`` if >= 0); every game from its own streams (module docstring). Per-game
    outputs into ``out`` (``Results``), chunk i's statistics into ``stats[i]`` (collected if
    ``stats_on``). The chunks run on threads (``tabletop_mc.spans``)."""
    each_span(lambda lo, hi: field_span(rulebook, weight_table, seats, first_chunk, counts, chunk_size, stats_on,
                                        out, stats, lo, hi), counts.shape[0])


@nb.njit(cache=True, nogil=True)
def field_span(rulebook, weight_table, seats, first_chunk, counts, chunk_size, stats_on, out, stats, lo, hi):
    """Chunks ``lo..hi-1`` of ``run_field_batch``."""
    for ci in range(lo, hi):
        rng = np.empty(4, np.uint64)
        game_log = np.zeros(2, np.int64)  # logging off
        game_stats = np.zeros(STATS.size)
        game_stats[STATS.on] = 1.0 if stats_on else 0.0
        seated_games(rulebook, weight_table, seats, (first_chunk + ci) * chunk_size, counts[ci], rng, game_log,
                     game_stats, out)
        stats[ci, :] = game_stats


# the compiled kernels the batch functions run (``tabletop_mc.jitcache.needs_compile``)
run_batch.kernel = batch_span
run_field_batch.kernel = field_span
