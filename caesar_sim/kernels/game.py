"""Whole games (numba): one logged game, and chunked batches run in ``prange``."""

import numba as nb
import numpy as np

from mcsim.rng import randbelow, seed_state
from caesar_sim.kernels.layout import *  # noqa: F401,F403  (index constants only)
from caesar_sim.kernels.mc import mc_action
from caesar_sim.kernels.policies import greedy_action, legal_actions, value_action
from caesar_sim.kernels.state import advance, new_game

W_SIZE = 64 + 2 * NVAL + 8 + P


@nb.njit(cache=True)
def decide(R, S, PP, rng, B, A, W, lgd, std):
    """The acting seat's action under its policy."""
    p = S[S_TURN]
    pol = S[S_POL + p]
    if pol == RANDOM:
        return A[randbelow(rng, legal_actions(S, p, A))]
    if pol == GREEDY:
        return greedy_action(R, S, PP, p)
    if pol == VALUE:
        return value_action(R, S, PP, p, W)
    return mc_action(R, S, PP, S[S_K + p], rng, B, A, W, lgd, std)


@nb.njit(cache=True)
def play_game(R, PP, pols, ks, S, rng, B, A, W, lg, st, lgd, std):
    """Play one game into ``S`` (totals in ``S[S_TOT:]``); log to ``lg``, add statistics to ``st``."""
    new_game(R, S, PP, pols, ks, rng, lg, st)
    while S[S_OVER] == 0:
        advance(R, S, PP, decide(R, S, PP, rng, B, A, W, lgd, std), rng, lg, st)


@nb.njit(cache=True)
def play_one(R, PP, pols, ks, seed, lg):
    """Game 0 of chunk 0 for ``seed`` (the first game of a batch), logged; returns the state."""
    rng = np.empty(4, np.uint64)
    seed_state(seed, 0, rng)
    S = np.zeros(S_SIZE, np.int64)
    play_game(R, PP, pols, ks, S, rng, np.zeros(S_SIZE, np.int64), np.zeros(ACT_MAX, np.int64),
              np.zeros(W_SIZE), lg, np.zeros(1), np.zeros((1, LOGW), np.int64), np.zeros(1))
    return S


@nb.njit(cache=True, parallel=True)
def run_batch(R, PP, prof_pol, prof_k, rotate, seed, first_chunk, counts, chunk_size, scores, rots, stats):
    """Chunks ``first_chunk + i`` of ``counts[i]`` games each; per-game totals into ``scores``/``rots``.

    Seat ``s`` of game ``g`` plays profile entry ``(s + rot) % n`` with ``rot = g % n`` if
    ``rotate``, else 0. ``stats[i]`` receives chunk i's summed statistics (layout ST_*).
    """
    n = R[R_PLAYERS]
    for ci in nb.prange(counts.shape[0]):
        rng = np.empty(4, np.uint64)
        seed_state(seed, first_chunk + ci, rng)
        S = np.zeros(S_SIZE, np.int64)
        B = np.zeros(S_SIZE, np.int64)
        A = np.zeros(ACT_MAX, np.int64)
        W = np.zeros(W_SIZE)
        dummy_lg = np.zeros((1, LOGW), np.int64)
        dummy_st = np.zeros(1)
        pols = np.zeros(P, np.int64)
        ks = np.zeros(P, np.int64)
        for j in range(counts[ci]):
            g = (first_chunk + ci) * chunk_size + j
            rot = g % n if rotate else 0
            for s in range(n):
                pols[s] = prof_pol[(s + rot) % n]
                ks[s] = prof_k[(s + rot) % n]
            play_game(R, PP, pols, ks, S, rng, B, A, W, dummy_lg, stats[ci], dummy_lg, dummy_st)
            for s in range(n):
                scores[g, s] = S[S_TOT + s]
            rots[g] = rot
