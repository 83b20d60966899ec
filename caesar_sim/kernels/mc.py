"""Flat Monte Carlo lookahead (numba): score each legal action by K rollouts of `value`-feature play.

Every seat (the mover too) plays ``value_action`` with the mc seat's own weight row in the
rollouts (the profile gives it `tuned` weights by default, or `value`'s), with a small chance of
a random action so that the K rollouts of one action differ. Horizon ``PP_HORIZON``:
0 = to the end of the day (all of it is on the table), 1 = to the end of the game
(the unseen decks are reshuffled in each rollout, so `mc` never sees their order).
"""


from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow, uniform
from caesar_sim.kernels.items import PP_EPS, PP_HORIZON, wrow
from caesar_sim.kernels.layout import *  # noqa: F401,F403  (index constants only)
from caesar_sim.kernels.policies import legal_actions, value_action
from caesar_sim.kernels.setup import shuffle
from caesar_sim.kernels.state import advance


@no_refcount
def rollout_action(R, S, PP, eps, rng, A, W):
    """``value_action`` play with an ``eps`` chance of a random legal action (rollouts differ)."""
    p = S[S_TURN]
    if uniform(rng) < eps:
        return A[randbelow(rng, legal_actions(S, p, A, 0))]
    return value_action(R, S, PP, p, W)


@no_refcount
def outcome(S, p):
    """Rollout score for seat ``p``: its coin margin over the best rival (a smooth proxy for winning)."""
    best = -(1 << 30)
    for q in range(S[S_N]):
        if q != p and S[S_TOT + q] > best:
            best = S[S_TOT + q]
    return float(S[S_TOT + p] - best)


@no_refcount
def mc_action(R, S, PP, K, rng, B, A, W, lg, st):
    """The legal action with the best mean rollout outcome for the acting seat."""
    p, d0 = S[S_TURN], S[S_DAY]
    cnt = legal_actions(S, p, A, ACT_MAX)
    o = wrow(S, p)
    whole = PP[o + PP_HORIZON] > 0
    eps = PP[o + PP_EPS]
    best, bv = -1, -1e18
    for i in range(cnt):
        a = A[ACT_MAX + i]
        tot = 0.0
        for _ in range(K):
            for j in range(S_SIZE):
                B[j] = S[j]
            for q in range(B[S_N]):  # in the rollouts every seat plays with the mc seat's weights
                B[S_WROW + q] = S[S_WROW + p]
            if whole:  # hidden: only the order of the decks
                shuffle(B, S_TDECK + B[S_TPTR], B[S_NT] - B[S_TPTR], rng)
                shuffle(B, S_VDECK + B[S_VPTR], B[S_NVD] - B[S_VPTR], rng)
                shuffle(B, S_FDECK + B[S_FPTR], B[S_NF] - B[S_FPTR], rng)
            advance(R, B, PP, W, a, rng, lg, st)
            while B[S_OVER] == 0 and (whole or B[S_DAY] == d0):
                advance(R, B, PP, W, rollout_action(R, B, PP, eps, rng, A, W), rng, lg, st)
            tot += outcome(B, p)
        if tot > bv:
            best, bv = a, tot
    return best
