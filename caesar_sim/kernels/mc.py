"""Flat Monte Carlo lookahead (numba): score each legal action by K rollouts.

In the rollouts every seat plays by a weight row with a small chance (``WEIGHTS.mc_epsilon``) of a random
action, so that the K rollouts of one action differ. Without a rollout field (``WEIGHTS.field_size`` = 0)
every seat, the mover too, plays by the mc seat's own row: `tuned` by default, `value`'s or
`distilled`'s on request. With one, the mover plays its own row and each other seat a member
drawn from the field for that rollout (rows ``WEIGHTS.field_first ...``, cumulative weights ``WEIGHTS.field_cum``), so
the opponents are modelled as the field plays, not as copies of the mover. A row plays in the
rollouts by its ``WEIGHTS.rollout_policy`` policy. Horizon ``WEIGHTS.mc_horizon``: 0 = to the end of the day (all of
it is on the table), 1 = to the end of the game (the unseen decks are reshuffled in each
rollout, so `mc` never sees their order).

Common random numbers: a decision draws one key from the game's stream; rollout k of every
candidate then plays from stream (key, k) (the same field draws, deck shuffles and, while the
paths agree, the same random actions), so candidates differ by their action, not their luck.
At K = 4 that gains as much against a field as K = 8 without (and runs faster).
"""

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import next_u64, randbelow, seed_state, uniform
from caesar_sim.kernels.items import WEIGHTS, wrow
from caesar_sim.kernels.layout import ACT_MAX, NROW, NVAL, STATE, W_Q
from caesar_sim.kernels.play import fast_action
from caesar_sim.kernels.policies import legal_actions
from caesar_sim.kernels.setup import shuffle
from caesar_sim.kernels.state import advance


@no_refcount
def rollout_action(ro, eps):
    """The acting seat's rollout play on the rollout table ``ro`` (its row's ``WEIGHTS.rollout_policy``),
    with an ``eps`` chance of a random legal action."""
    S, A, rng = ro.S, ro.A, ro.rng
    p = S[STATE.turn]
    if uniform(rng) < eps:
        return A[randbelow(rng, legal_actions(S, p, A, 0))]
    return fast_action(ro, p, int(ro.PP[wrow(S, p) + WEIGHTS.rollout_policy]))


@no_refcount
def draw_member(PP, f0, fn, rng):
    """A field member's row, drawn by its weight: rows ``f0 .. f0 + fn - 1``, cumulative weights
    ``WEIGHTS.field_cum``."""
    u = uniform(rng)
    m = f0
    while m < f0 + fn - 1 and u >= PP[m * WEIGHTS.size + WEIGHTS.field_cum]:
        m += 1
    return m


@no_refcount
def rollout_start(S, B, PP, p, rng):
    """Copy the state ``S`` into ``B`` for one rollout of seat ``p``'s decision and seat the rollout players:
    without a field every seat plays by ``p``'s row; with one, the others are members drawn for this rollout."""
    for j in range(STATE.size):
        B[j] = S[j]
    o = wrow(S, p)
    f0, fn = int(PP[o + WEIGHTS.field_first]), int(PP[o + WEIGHTS.field_size])
    if fn > 0:  # the others: members drawn from the field; the mover: its own row
        for q in range(B[STATE.players]):
            r = S[STATE.weight_row + p] if q == p else draw_member(PP, f0, fn, rng)
            B[STATE.weight_row + q] = r
            B[STATE.policy + q] = int(PP[r * WEIGHTS.size + WEIGHTS.rollout_policy])
    else:
        for q in range(B[STATE.players]):  # every seat plays with the mc seat's weights
            B[STATE.weight_row + q] = S[STATE.weight_row + p]
    if PP[o + WEIGHTS.mc_horizon] > 0:  # hidden: only the order of the decks
        shuffle(B, STATE.ticket_deck + B[STATE.next_ticket], B[STATE.tickets_dealt] - B[STATE.next_ticket], rng)
        shuffle(B, STATE.visitor_deck + B[STATE.next_visitor], B[STATE.visitors_dealt] - B[STATE.next_visitor], rng)
        shuffle(B, STATE.favour_deck + B[STATE.next_favour], B[STATE.favours_dealt] - B[STATE.next_favour], rng)


@no_refcount
def outcome(S, p):
    """Rollout score for seat ``p``: its coin margin over the best rival (a smooth proxy for winning)."""
    best = -(1 << 30)
    for q in range(S[STATE.players]):
        if q != p and S[STATE.score + q] > best:
            best = S[STATE.score + q]
    return float(S[STATE.score + p] - best)


@no_refcount
def mc_values(S, ro, K):
    """Every legal action of the acting seat of state ``S`` (none at a row its ``WEIGHTS.ban_rows`` bans) into
    ``A[ACT_MAX + i]`` and its mean outcome over ``K`` rollouts on the rollout table ``ro`` (``kernels.context``:
    its state the rollout board) into ``W[W_Q + i]``; returns their number."""
    PP, rng, B, A, W = ro.PP, ro.rng, ro.S, ro.A, ro.W
    p, d0 = S[STATE.turn], S[STATE.day]
    cnt = legal_actions(S, p, A, ACT_MAX)
    o = wrow(S, p)
    ban = int(PP[o + WEIGHTS.ban_rows])
    if ban:   # a restricted player: never a bid at a banned row (the actions' order kept)
        m = 1
        for i in range(1, cnt):
            a = A[ACT_MAX + i]
            if not (ban >> ((a // NVAL) % NROW)) & 1:
                A[ACT_MAX + m] = a
                m += 1
        cnt = m
    whole = PP[o + WEIGHTS.mc_horizon] > 0
    eps = PP[o + WEIGHTS.mc_epsilon]
    key = next_u64(rng)
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    for i in range(cnt):
        a = A[ACT_MAX + i]
        tot = 0.0
        for k in range(K):
            seed_state(key, k, rng)   # common random numbers: rollout k of every candidate replays stream (key, k)
            rollout_start(S, B, PP, p, rng)
            advance(ro, a)
            while B[STATE.over] == 0 and (whole or B[STATE.day] == d0):
                advance(ro, rollout_action(ro, eps))
            tot += outcome(B, p)
        W[W_Q + i] = tot / K
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3   # the game goes on from one draw per decision
    return cnt


@no_refcount
def mc_action(S, ro, K):
    """The legal action with the best mean rollout outcome for the acting seat (the first if tied)."""
    A, W = ro.A, ro.W
    cnt = mc_values(S, ro, K)
    best, bv = A[ACT_MAX], W[W_Q]
    for i in range(1, cnt):
        if W[W_Q + i] > bv:
            best, bv = A[ACT_MAX + i], W[W_Q + i]
    return best
