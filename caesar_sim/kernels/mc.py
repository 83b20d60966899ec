"""Flat Monte Carlo lookahead (numba): score each legal action by K rollouts of `value` play."""

import numba as nb

from mcsim.rng import randbelow, uniform
from caesar_sim.kernels.items import PP_EPS, PP_HORIZON
from caesar_sim.kernels.layout import *  # noqa: F401,F403  (index constants only)
from caesar_sim.kernels.policies import legal_actions, value_action
from caesar_sim.kernels.state import advance, shuffle


@nb.njit(cache=True)
def rollout_action(R, S, PP, rng, A, W):
    """`value` play with an ``PP_EPS`` chance of a random legal action (rollouts differ)."""
    p = S[S_TURN]
    if uniform(rng) < PP[PP_EPS]:
        return A[randbelow(rng, legal_actions(S, p, A, 0))]
    return value_action(R, S, PP, p, W)


@nb.njit(cache=True)
def outcome(S, p, whole_game):
    """Rollout score for seat ``p``: coin margin over the best rival (day), or win share (game)."""
    best, ties = -(1 << 30), 0
    for q in range(S[S_N]):
        if q != p:
            if S[S_TOT + q] > best:
                best, ties = S[S_TOT + q], 0
            ties += S[S_TOT + q] == best
    margin = S[S_TOT + p] - best
    if not whole_game:
        return float(margin)
    share = 0.0 if margin < 0 else (1.0 if margin > 0 else 1.0 / (ties + 1))
    return share + 1e-3 * margin


@nb.njit(cache=True)
def mc_action(R, S, PP, K, rng, B, A, W, lg, st):
    """The legal action with the best mean rollout outcome for the acting seat."""
    p, d0 = S[S_TURN], S[S_DAY]
    cnt = legal_actions(S, p, A, ACT_MAX)
    whole = PP[PP_HORIZON] > 0
    best, bv = -1, -1e18
    for i in range(cnt):
        a = A[ACT_MAX + i]
        tot = 0.0
        for _ in range(K):
            for j in range(S_SIZE):
                B[j] = S[j]
            if whole:  # hidden: only the order of the decks
                shuffle(B, S_TDECK + B[S_TPTR], B[S_NT] - B[S_TPTR], rng)
                shuffle(B, S_VDECK + B[S_VPTR], B[S_NVD] - B[S_VPTR], rng)
                shuffle(B, S_FDECK + B[S_FPTR], B[S_NF] - B[S_FPTR], rng)
            advance(R, B, PP, W, a, rng, lg, st)
            while B[S_OVER] == 0 and (whole or B[S_DAY] == d0):
                advance(R, B, PP, W, rollout_action(R, B, PP, rng, A, W), rng, lg, st)
            tot += outcome(B, p, whole)
        if tot > bv:
            best, bv = a, tot
    return best
