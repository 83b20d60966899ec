"""Whole games (numba): one logged game, and chunked batches run in ``prange``.

A profile batch (``run_batch``) plays chunk c from random stream (seed, c). A field batch
(``run_field_batch``) takes its seats from a member table (policy code, `mc` rollouts, weight
row m of ``PP``), and every game ``g`` has streams of its own, so game g is the same deal and the
same seat draws in every run sharing the keys, whatever else differs (common random numbers):

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
from tabletop_mc.rng import randbelow, seed_state, uniform
from caesar_sim.kernels.layout import (A_SIZE, DISTILLED, GREEDY, LOGW, MC, P, RANDOM, RULES, STATE, STATS, TUNED,
                                       VALUE, W_SIZE)
from caesar_sim.kernels.mc import mc_action
from caesar_sim.kernels.policies import greedy_action, legal_actions
from caesar_sim.kernels.scan import scored_action
from caesar_sim.kernels.ptr import as_ptr
from caesar_sim.kernels.state import advance, new_game


@no_refcount
def decide(R, S, PP, rng, B, A, W, lgd, std):
    """The acting seat's action under its policy."""
    p = S[STATE.turn]
    pol = S[STATE.policy + p]
    if pol == RANDOM:
        return A[randbelow(rng, legal_actions(S, p, A, 0))]
    if pol == GREEDY:
        return greedy_action(R, S, PP, p)
    if pol == VALUE or pol == TUNED or pol == DISTILLED:
        return scored_action(R, S, PP, p, W, A, rng, pol == DISTILLED)
    if pol == MC:
        return mc_action(R, S, PP, S[STATE.rollouts + p], rng, B, A, W, lgd, std)
    raise ValueError("unknown Circus policy")


@no_refcount
def play_game(R, PP, pols, ks, rows, S, rng, B, A, W, lg, st, lgd, std, dt, keep):
    """Play one game into ``S`` (totals at ``STATE.score``); log to ``lg``, add statistics to ``st``; with
    ``keep``, every seat's total at the end of day d into ``dt[d * P + s]``."""
    new_game(R, S, PP, W, pols, ks, rows, rng, lg, st)
    d = S[STATE.day]
    while S[STATE.over] == 0:
        advance(R, S, PP, W, decide(R, S, PP, rng, B, A, W, lgd, std), rng, lg, st)
        if keep and S[STATE.day] != d:
            for s in range(S[STATE.players]):
                dt[d * P + s] = S[STATE.score + s]
            d = S[STATE.day]


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


@nb.njit(cache=True)
def seated_games(R, PP, mem_pol, mem_k, seating, rotate, cum, focal, draw_key, per_game, game_key, g0, count, rng,
                 lg, st, scores, rots, members, days):
    """Games ``g0 .. g0+count-1`` of a chunk (arrays in; pointers inside); seat s of game g plays
    member m (policy ``mem_pol[m]``, rollouts ``mem_k[m]``, weight row m of ``PP``):

    - ``seating[0] >= 0``: m = ``seating[(s + rot) % n]``, rot = g % n if ``rotate`` else 0;
    - else drawn from ``cum`` (``draw_seats``); ``focal >= 0``: seat g % n plays ``focal``.

    ``per_game``: game g plays from stream (game_key, g) (``rng`` reseeded per game), else on from
    ``rng``. Outputs: ``scores[g]``, ``rots[g]``, ``members[g]`` and ``days[g, d]`` (every seat's total
    at the end of day d; each if sized for g).
    """
    n = R[RULES.players]
    S, B = np.zeros(STATE.size, np.int64), np.zeros(STATE.size, np.int64)
    A, W = np.zeros(A_SIZE, np.int64), np.zeros(W_SIZE)
    dlg, dst = np.zeros(LOGW, np.int64), np.zeros(STATS.size)
    seat = np.zeros(P, np.int64)
    pols, ks, rows = np.zeros(P, np.int64), np.zeros(P, np.int64), np.zeros(P, np.int64)
    pR, pPP, pS, pB, pA, pW = as_ptr(R), as_ptr(PP), as_ptr(S), as_ptr(B), as_ptr(A), as_ptr(W)
    prng, plg, pst, pdlg, pdst = as_ptr(rng), as_ptr(lg), as_ptr(st), as_ptr(dlg), as_ptr(dst)
    ppols, pks, prows = as_ptr(pols), as_ptr(ks), as_ptr(rows)
    dt = np.zeros(max(R[RULES.days], 1) * P, np.int64)
    pdt = as_ptr(dt)
    for j in range(count):
        g = g0 + j
        rot = g % n if rotate else 0
        if seating[0] >= 0:
            for s in range(n):
                seat[s] = seating[(s + rot) % n]
        else:
            draw_seats(cum, draw_key, g, n, seat)
        if focal >= 0:
            seat[g % n] = focal
        for s in range(n):
            pols[s], ks[s], rows[s] = mem_pol[seat[s]], mem_k[seat[s]], seat[s]
        if per_game:
            seed_state(game_key, g, rng)
        keep = days.shape[0] > g
        play_game(pR, pPP, ppols, pks, prows, pS, prng, pB, pA, pW, plg, pst, pdlg, pdst, pdt, keep)
        for s in range(n):
            scores[g, s] = S[STATE.score + s]
            if keep:
                for d in range(days.shape[1]):
                    days[g, d, s] = dt[d * P + s]
            if members.shape[0] > g:
                members[g, s] = seat[s]
        if rots.shape[0] > g:
            rots[g] = rot
    # keep every array alive until the pointers are no longer used
    return S[0] + B[0] + A[0] + W[0] + dlg[0] + dst[0] + pols[0] + ks[0] + rows[0] + seat[0] + dt[0]


@nb.njit(cache=True)
def _games(R, PP, prof_pol, prof_k, rotate, g0, count, rng, lg, st, scores, rots, days):
    """Games ``g0 .. g0+count-1`` of a profile: the seat playing entry e reads weight row e."""
    seating = np.arange(P)
    no = np.zeros((0, P), np.int64)
    seated_games(R, PP, prof_pol, prof_k, seating, rotate, np.ones(1), -1, np.uint64(0), False, np.uint64(0), g0,
                 count, rng, lg, st, scores, rots, no, days)


@nb.njit(cache=True)
def play_one(R, PP, pols, ks, seed, lg):
    """Game 0 of chunk 0 for ``seed`` (the first game a batch plays, unrotated), logged into the
    2-d int64 array ``lg`` (row 0: count, capacity); returns the final totals by seat."""
    rng = np.empty(4, np.uint64)
    seed_state(seed, 0, rng)
    lg[0, 0], lg[0, 1] = 0, lg.shape[0]
    scores = np.zeros((1, P), np.int64)
    st = np.zeros(STATS.size)
    _games(R, PP, pols, ks, False, 0, 1, rng, lg, st, scores, np.zeros(1, np.int64), np.zeros((0, 1, P), np.int64))
    return scores[0]


@nb.njit(cache=True)
def play_field_one(R, PP, mem_pol, mem_k, seating, game_key, lg):
    """Game 0 of a field run (seat s plays member ``seating[s]``, drawn by the caller with ``draw_seats``),
    on stream (game_key, 0), logged into ``lg`` as ``play_one``; returns the final totals by seat."""
    rng = np.empty(4, np.uint64)
    lg[0, 0], lg[0, 1] = 0, lg.shape[0]
    scores = np.zeros((1, P), np.int64)
    st = np.zeros(STATS.size)
    seated_games(R, PP, mem_pol, mem_k, seating, False, np.ones(1), -1, np.uint64(0), True, game_key, 0, 1, rng, lg,
                 st, scores, np.zeros(1, np.int64), np.zeros((0, P), np.int64), np.zeros((0, 1, P), np.int64))
    return scores[0]


@nb.njit(cache=True, parallel=True)
def run_batch(R, PP, prof_pol, prof_k, rotate, seed, first_chunk, counts, chunk_size, scores, rots, stats, days):
    """Chunks ``first_chunk + i`` of ``counts[i]`` games each; per-game totals into ``scores``/``rots``
    (and day-end totals into ``days``, if sized for the games).

    Chunk c draws from random stream (seed, c) alone. Seat ``s`` of game ``g`` plays profile
    entry ``(s + rot) % n`` with ``rot = g % n`` if ``rotate``, else 0. ``stats[i]`` receives
    chunk i's summed statistics (layout ST_*).
    """
    for ci in nb.prange(counts.shape[0]):
        rng = np.empty(4, np.uint64)
        seed_state(seed, first_chunk + ci, rng)
        lg = np.zeros(LOGW, np.int64)
        st = np.zeros(STATS.size)
        st[STATS.on] = 1.0
        _games(R, PP, prof_pol, prof_k, rotate, (first_chunk + ci) * chunk_size, counts[ci], rng, lg, st,
               scores, rots, days)
        stats[ci, :] = st


@nb.njit(cache=True, parallel=True)
def run_field_batch(R, PP, mem_pol, mem_k, cum, seating, focal, draw_key, game_key, first_chunk, counts,
                    chunk_size, stats_on, scores, members, stats, days):
    """Chunks ``first_chunk + i`` of ``counts[i]`` games whose seats come from a member table: drawn
    from the field ``cum`` per game (or ``seating`` rotated game by game), seat g % n playing
    ``focal`` if >= 0; every game from its own streams (module docstring). Final coins by seat
    into ``scores[g]``, each seat's member into ``members[g]``, day-end totals into ``days[g]`` (if
    sized for g), chunk i's statistics into ``stats[i]`` (collected if ``stats_on``)."""
    for ci in nb.prange(counts.shape[0]):
        rng = np.empty(4, np.uint64)
        lg = np.zeros(2, np.int64)  # logging off
        st = np.zeros(STATS.size)
        st[STATS.on] = 1.0 if stats_on else 0.0
        seated_games(R, PP, mem_pol, mem_k, seating, True, cum, focal, draw_key, True, game_key,
                     (first_chunk + ci) * chunk_size, counts[ci], rng, lg, st, scores, np.zeros(0, np.int64),
                     members, days)
        stats[ci, :] = st
