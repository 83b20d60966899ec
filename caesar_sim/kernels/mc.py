"""Flat Monte Carlo lookahead (numba): score each legal action by K rollouts.

In the rollouts every seat plays by a weight row with a small chance (``PP_EPS``) of a random
action, so that the K rollouts of one action differ. Without a rollout field (``PP_FIELDN`` = 0)
every seat, the mover too, plays by the mc seat's own row: `tuned` by default, `value`'s or
`distilled`'s on request. With one, the mover plays its own row and each other seat a member
drawn from the field for that rollout (rows ``PP_FIELD0 ...``, cumulative weights ``PP_CUM``), so
the opponents are modelled as the field plays, not as copies of the mover. A row plays in the
rollouts by its ``PP_RPOL`` policy. Horizon ``PP_HORIZON``: 0 = to the end of the day (all of
it is on the table), 1 = to the end of the game (the unseen decks are reshuffled in each
rollout, so `mc` never sees their order).

Common random numbers: a decision draws one key from the game's stream; rollout k of every
candidate then plays from stream (key, k) (the same field draws, deck shuffles and, while the
paths agree, the same random actions), so candidates differ by their action, not their luck.
At K = 4 that gains as much against a field as K = 8 without (and runs faster).
"""

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import next_u64, randbelow, seed_state, uniform
from caesar_sim.kernels.items import (PP_BAN_ROWS, PP_CUM, PP_EPS, PP_FIELD0, PP_FIELDN, PP_HORIZON, PP_RPOL,
                                     PP_SIZE, wrow)
from caesar_sim.kernels.layout import *  # noqa: F401,F403  (index constants only)
from caesar_sim.kernels.policies import greedy_action, legal_actions
from caesar_sim.kernels.scan import scored_action
from caesar_sim.kernels.setup import shuffle
from caesar_sim.kernels.state import advance


@no_refcount
def rollout_action(R, S, PP, eps, rng, A, W):
    """The acting seat's rollout play (its row's ``PP_RPOL``), with an ``eps`` chance of a random legal action."""
    p = S[S_TURN]
    if uniform(rng) < eps:
        return A[randbelow(rng, legal_actions(S, p, A, 0))]
    pol = int(PP[wrow(S, p) + PP_RPOL])
    if pol == RANDOM:
        return A[randbelow(rng, legal_actions(S, p, A, 0))]
    if pol == GREEDY:
        return greedy_action(R, S, PP, p)
    if pol == VALUE or pol == TUNED or pol == DISTILLED:
        return scored_action(R, S, PP, p, W, A, rng, pol == DISTILLED)
    if pol == MC:
        raise ValueError("rollout_action: an mc seat's rollouts are played by another policy")
    raise ValueError("unknown Circus policy")


@no_refcount
def draw_member(PP, f0, fn, rng):
    """A field member's row, drawn by its weight: rows ``f0 .. f0 + fn - 1``, cumulative weights ``PP_CUM``."""
    u = uniform(rng)
    m = f0
    while m < f0 + fn - 1 and u >= PP[m * PP_SIZE + PP_CUM]:
        m += 1
    return m


@no_refcount
def rollout_start(S, B, PP, p, rng):
    """Copy the state ``S`` into ``B`` for one rollout of seat ``p``'s decision and seat the rollout players:
    without a field every seat plays by ``p``'s row; with one, the others are members drawn for this rollout."""
    for j in range(S_SIZE):
        B[j] = S[j]
    o = wrow(S, p)
    f0, fn = int(PP[o + PP_FIELD0]), int(PP[o + PP_FIELDN])
    if fn > 0:  # the others: members drawn from the field; the mover: its own row
        for q in range(B[S_N]):
            r = S[S_WROW + p] if q == p else draw_member(PP, f0, fn, rng)
            B[S_WROW + q] = r
            B[S_POL + q] = int(PP[r * PP_SIZE + PP_RPOL])
    else:
        for q in range(B[S_N]):  # every seat plays with the mc seat's weights
            B[S_WROW + q] = S[S_WROW + p]
    if PP[o + PP_HORIZON] > 0:  # hidden: only the order of the decks
        shuffle(B, S_TDECK + B[S_TPTR], B[S_NT] - B[S_TPTR], rng)
        shuffle(B, S_VDECK + B[S_VPTR], B[S_NVD] - B[S_VPTR], rng)
        shuffle(B, S_FDECK + B[S_FPTR], B[S_NF] - B[S_FPTR], rng)


@no_refcount
def outcome(S, p):
    """Rollout score for seat ``p``: its coin margin over the best rival (a smooth proxy for winning)."""
    best = -(1 << 30)
    for q in range(S[S_N]):
        if q != p and S[S_TOT + q] > best:
            best = S[S_TOT + q]
    return float(S[S_TOT + p] - best)


@no_refcount
def mc_values(R, S, PP, K, rng, B, A, W, lg, st):
    """Every legal action of the acting seat (none at a row its ``PP_BAN_ROWS`` bans) into ``A[ACT_MAX + i]``
    and its mean rollout outcome into ``W[W_Q + i]``; returns their number."""
    p, d0 = S[S_TURN], S[S_DAY]
    cnt = legal_actions(S, p, A, ACT_MAX)
    o = wrow(S, p)
    ban = int(PP[o + PP_BAN_ROWS])
    if ban:   # a restricted player: never a bid at a banned row (the actions' order kept)
        m = 1
        for i in range(1, cnt):
            a = A[ACT_MAX + i]
            if not (ban >> ((a // NVAL) % NROW)) & 1:
                A[ACT_MAX + m] = a
                m += 1
        cnt = m
    whole = PP[o + PP_HORIZON] > 0
    eps = PP[o + PP_EPS]
    key = next_u64(rng)
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    for i in range(cnt):
        a = A[ACT_MAX + i]
        tot = 0.0
        for k in range(K):
            seed_state(key, k, rng)   # common random numbers: rollout k of every candidate replays stream (key, k)
            rollout_start(S, B, PP, p, rng)
            advance(R, B, PP, W, a, rng, lg, st)
            while B[S_OVER] == 0 and (whole or B[S_DAY] == d0):
                advance(R, B, PP, W, rollout_action(R, B, PP, eps, rng, A, W), rng, lg, st)
            tot += outcome(B, p)
        W[W_Q + i] = tot / K
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3   # the game goes on from one draw per decision
    return cnt


@no_refcount
def mc_action(R, S, PP, K, rng, B, A, W, lg, st):
    """The legal action with the best mean rollout outcome for the acting seat (the first if tied)."""
    cnt = mc_values(R, S, PP, K, rng, B, A, W, lg, st)
    best, bv = A[ACT_MAX], W[W_Q]
    for i in range(1, cnt):
        if W[W_Q + i] > bv:
            best, bv = A[ACT_MAX + i], W[W_Q + i]
    return best
