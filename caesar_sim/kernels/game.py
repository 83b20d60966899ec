"""Whole games (numba): one logged game, and chunked batches run in ``prange``."""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow, seed_state
from caesar_sim.kernels.layout import *  # noqa: F401,F403  (index constants only)
from caesar_sim.kernels.mc import mc_action
from caesar_sim.kernels.policies import greedy_action, legal_actions, value_action
from caesar_sim.kernels.ptr import as_ptr
from caesar_sim.kernels.state import advance, new_game


@no_refcount
def decide(R, S, PP, rng, B, A, W, lgd, std):
    """The acting seat's action under its policy."""
    p = S[S_TURN]
    pol = S[S_POL + p]
    if pol == RANDOM:
        return A[randbelow(rng, legal_actions(S, p, A, 0))]
    if pol == GREEDY:
        return greedy_action(R, S, PP, p)
    if pol == VALUE or pol == TUNED:
        return value_action(R, S, PP, p, W)
    return mc_action(R, S, PP, S[S_K + p], rng, B, A, W, lgd, std)


@no_refcount
def play_game(R, PP, pols, ks, rows, S, rng, B, A, W, lg, st, lgd, std):
    """Play one game into ``S`` (totals at ``S_TOT``); log to ``lg``, add statistics to ``st``."""
    new_game(R, S, PP, W, pols, ks, rows, rng, lg, st)
    while S[S_OVER] == 0:
        advance(R, S, PP, W, decide(R, S, PP, rng, B, A, W, lgd, std), rng, lg, st)


@nb.njit(cache=True)
def _games(R, PP, prof_pol, prof_k, rotate, g0, count, rng, lg, st, scores, rots):
    """Games ``g0 .. g0+count-1`` of a chunk (arrays in; pointers inside). ``PP`` holds one weight
    row per profile entry; the seat playing entry e reads row e."""
    n = R[R_PLAYERS]
    S, B = np.zeros(S_SIZE, np.int64), np.zeros(S_SIZE, np.int64)
    A, W = np.zeros(A_SIZE, np.int64), np.zeros(W_SIZE)
    dlg, dst = np.zeros(LOGW, np.int64), np.zeros(ST_SIZE)
    pols, ks, rows = np.zeros(P, np.int64), np.zeros(P, np.int64), np.zeros(P, np.int64)
    pR, pPP, pS, pB, pA, pW = as_ptr(R), as_ptr(PP), as_ptr(S), as_ptr(B), as_ptr(A), as_ptr(W)
    prng, plg, pst, pdlg, pdst = as_ptr(rng), as_ptr(lg), as_ptr(st), as_ptr(dlg), as_ptr(dst)
    ppols, pks, prows = as_ptr(pols), as_ptr(ks), as_ptr(rows)
    for j in range(count):
        g = g0 + j
        rot = g % n if rotate else 0
        for s in range(n):
            pols[s] = prof_pol[(s + rot) % n]
            ks[s] = prof_k[(s + rot) % n]
            rows[s] = (s + rot) % n
        play_game(pR, pPP, ppols, pks, prows, pS, prng, pB, pA, pW, plg, pst, pdlg, pdst)
        for s in range(n):
            scores[g, s] = S[S_TOT + s]
        rots[g] = rot
    # keep every array alive until the pointers are no longer used
    return S[0] + B[0] + A[0] + W[0] + dlg[0] + dst[0] + pols[0] + ks[0] + rows[0]


@nb.njit(cache=True)
def play_one(R, PP, pols, ks, seed, lg):
    """Game 0 of chunk 0 for ``seed`` (the first game a batch plays, unrotated), logged into the
    2-d int64 array ``lg`` (row 0: count, capacity); returns the final totals by seat."""
    rng = np.empty(4, np.uint64)
    seed_state(seed, 0, rng)
    lg[0, 0], lg[0, 1] = 0, lg.shape[0]
    scores = np.zeros((1, P), np.int64)
    st = np.zeros(ST_SIZE)
    _games(R, PP, pols, ks, False, 0, 1, rng, lg, st, scores, np.zeros(1, np.int64))
    return scores[0]


@nb.njit(cache=True, parallel=True)
def run_batch(R, PP, prof_pol, prof_k, rotate, seed, first_chunk, counts, chunk_size, scores, rots, stats):
    """Chunks ``first_chunk + i`` of ``counts[i]`` games each; per-game totals into ``scores``/``rots``.

    Chunk c draws from random stream (seed, c) alone. Seat ``s`` of game ``g`` plays profile
    entry ``(s + rot) % n`` with ``rot = g % n`` if ``rotate``, else 0. ``stats[i]`` receives
    chunk i's summed statistics (layout ST_*).
    """
    for ci in nb.prange(counts.shape[0]):
        rng = np.empty(4, np.uint64)
        seed_state(seed, first_chunk + ci, rng)
        lg = np.zeros(LOGW, np.int64)
        st = np.zeros(ST_SIZE)
        st[ST_ON] = 1.0
        _games(R, PP, prof_pol, prof_k, rotate, (first_chunk + ci) * chunk_size, counts[ci], rng, lg, st,
               scores, rots)
        stats[ci, :] = st
