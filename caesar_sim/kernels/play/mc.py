"""Flat Monte Carlo lookahead (numba): score each legal action by K rollouts.

In the rollouts every seat plays by a weight row with a small chance (``WEIGHTS.mc_epsilon``) of a random
action, so that the K rollouts of one action differ. Without a rollout field (``WEIGHTS.field_size`` = 0)
every seat, the mover too, plays by the mc seat's own row: `tuned` by default, `value`'s or
`distilled`'s on request. With one, the mover plays its own row and each other seat a member
drawn from the field for that rollout (rows ``WEIGHTS.field_first ...``, cumulative weights ``WEIGHTS.field_cum``), so
the opponents are modelled as the field plays, not as copies of the mover. A row plays in the
rollouts by its ``WEIGHTS.rollout_policy`` policy. Horizon ``WEIGHTS.mc_horizon``: 0 = to the end of the day (all of
it is on the table), 1 = to the end of the game (the unseen decks are reshuffled in each
rollout, so `mc` never sees their order), 2 = to the end of the phase, where the mover's network
(a `net` row) values the position: its expected win share (the value head as a leaf evaluator,
``kernels.play.net.net_value``; the decks reshuffled too, as the next day may be laid out). The
outcome is the coin margin over the best rival (horizons 0 and 1) or the win share (horizon 2:
the value head's, or the final one at the game's end).

``mc_values`` also keeps, for every candidate, the sum of squares of its rollouts' differences
from the first candidate's (the pass) on the same random numbers: the standard error of each
action's gain over passing, which `caesar train` weighs its targets by.

Common random numbers: a decision draws one key from the game's stream; rollout k of every
candidate then plays from stream (key, k) (the same field draws, deck shuffles and, while the
paths agree, the same random actions), so candidates differ by their action, not their luck,
and fewer rollouts per candidate decide as well.
"""

import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import next_u64, randbelow, seed_state, uniform
from caesar_sim.kernels.play.items import wrow
from caesar_sim.kernels.layout import MAX_ACTIONS, MC_PAIRED, MERCHANT_VALUES, ROWS, SCRATCH, STATE, WEIGHTS
from caesar_sim.kernels.play.net import net_value
from caesar_sim.kernels.play.dispatch import fast_action
from caesar_sim.kernels.play.policies import legal_actions
from caesar_sim.kernels.play.setup import shuffle
from caesar_sim.kernels.play.state import advance


@no_refcount
def rollout_action(ro, eps):
    """The acting seat's rollout play on the rollout pointers ``ro`` (its row's ``WEIGHTS.rollout_policy``),
    with an ``eps`` chance of a random legal action."""
    game_state, actions, rng = ro.game_state, ro.actions, ro.rng
    p = game_state[STATE.turn]
    if uniform(rng) < eps:
        return actions[randbelow(rng, legal_actions(game_state, p, actions, 0))]
    return fast_action(ro, p, int(ro.weight_table[wrow(game_state, p) + WEIGHTS.rollout_policy]))


@no_refcount
def draw_member(weight_table, f0, fn, rng):
    """A field member's row, drawn by its weight: rows ``f0 .. f0 + fn - 1``, cumulative weights
    ``WEIGHTS.field_cum``."""
    u = uniform(rng)
    m = f0
    while m < f0 + fn - 1 and u >= weight_table[m * WEIGHTS.size + WEIGHTS.field_cum]:
        m += 1
    return m


@no_refcount
def rollout_start(game_state, rollout_state, weight_table, p, rng):
    """Copy the state ``game_state`` into ``rollout_state`` for one rollout of seat ``p``'s decision and seat the rollout players:
    without a field every seat plays by ``p``'s row; with one, the others are members drawn for this rollout."""
    for j in range(STATE.size):
        rollout_state[j] = game_state[j]
    o = wrow(game_state, p)
    f0, fn = int(weight_table[o + WEIGHTS.field_first]), int(weight_table[o + WEIGHTS.field_size])
    if fn > 0:  # the others: members drawn from the field; the mover: its own row
        for q in range(rollout_state[STATE.players]):
            r = game_state[STATE.weight_row + p] if q == p else draw_member(weight_table, f0, fn, rng)
            rollout_state[STATE.weight_row + q] = r
            rollout_state[STATE.policy + q] = int(weight_table[r * WEIGHTS.size + WEIGHTS.rollout_policy])
    else:
        for q in range(rollout_state[STATE.players]):  # every seat plays with the mc seat's weights
            rollout_state[STATE.weight_row + q] = game_state[STATE.weight_row + p]
    if weight_table[o + WEIGHTS.mc_horizon] > 0:  # hidden: only the order of the decks
        shuffle(rollout_state, STATE.ticket_deck + rollout_state[STATE.next_ticket],
                rollout_state[STATE.tickets_dealt] - rollout_state[STATE.next_ticket], rng)
        shuffle(rollout_state, STATE.visitor_deck + rollout_state[STATE.next_visitor],
                rollout_state[STATE.visitors_dealt] - rollout_state[STATE.next_visitor], rng)
        shuffle(rollout_state, STATE.favour_deck + rollout_state[STATE.next_favour],
                rollout_state[STATE.favours_dealt] - rollout_state[STATE.next_favour], rng)


@no_refcount
def outcome(game_state, p):
    """Rollout score for seat ``p``: its coin margin over the best rival (a smooth proxy for winning)."""
    best = -(1 << 30)
    for q in range(game_state[STATE.players]):
        if q != p and game_state[STATE.score + q] > best:
            best = game_state[STATE.score + q]
    return float(game_state[STATE.score + p] - best)


@no_refcount
def win_share(game_state, p):
    """Seat ``p``'s share of the win at the game's end (ties shared)."""
    top, tied = -(1 << 30), 0
    for q in range(game_state[STATE.players]):
        if game_state[STATE.score + q] > top:
            top, tied = game_state[STATE.score + q], 1
        elif game_state[STATE.score + q] == top:
            tied += 1
    return 1.0 / tied if game_state[STATE.score + p] == top else 0.0


@no_refcount
def leaf_outcome(ro, p, o):
    """A rollout's outcome for seat ``p`` by its row ``o``'s horizon (module docstring)."""
    rollout_state = ro.game_state
    if ro.weight_table[o + WEIGHTS.mc_horizon] < 2:
        return outcome(rollout_state, p)
    if rollout_state[STATE.over]:
        return win_share(rollout_state, p)
    return net_value(ro.rulebook, rollout_state, ro.weight_table, p, ro.scratch, ro.actions)


@no_refcount
def _rollouts(ro, game_state, p, o, i, key, k0, k1, how):
    """Rollouts ``k0 .. k1 - 1`` of candidate ``i`` (``actions[MAX_ACTIONS + i]``) of seat ``p`` (row ``o``): their
    outcomes summed into ``scratch[SCRATCH.rollout_mean + i]``, the squared paired differences from the
    first candidate's into ``scratch[SCRATCH.rollout_sq + i]``. ``how``: (to the game's end, the day, the
    phase it ends with or -1, the chance of a random action)."""
    whole, d0, ph0, eps = how
    rng, rollout_state, scratch = ro.rng, ro.game_state, ro.scratch
    a = ro.actions[MAX_ACTIONS + i]
    for k in range(k0, k1):
        seed_state(key, k, rng)   # common random numbers: rollout k of every candidate replays stream (key, k)
        rollout_start(game_state, rollout_state, ro.weight_table, p, rng)
        advance(ro, a)
        while rollout_state[STATE.over] == 0 and (whole or rollout_state[STATE.day] == d0) and (
                ph0 < 0 or rollout_state[STATE.phase] == ph0):
            advance(ro, rollout_action(ro, eps))
        y = leaf_outcome(ro, p, o)
        scratch[SCRATCH.rollout_mean + i] += y
        if k < MC_PAIRED:    # the paired differences from the first candidate's rollouts
            if i == 0:
                scratch[SCRATCH.rollout_first + k] = y
            scratch[SCRATCH.rollout_sq + i] += (y - scratch[SCRATCH.rollout_first + k]) ** 2


@no_refcount
def mc_values(game_state, ro, K):
    """Every legal action of the acting seat of state ``game_state`` (none at a row its ``WEIGHTS.ban_rows`` bans) into
    ``actions[MAX_ACTIONS + i]`` and its mean outcome over ``K`` rollouts on the rollout pointers ``ro``
    (``kernels.contexts``: its state the rollout board) into ``scratch[SCRATCH.rollout_mean + i]``, with the
    rollouts it took (``SCRATCH.rollout_n``: ``K``, or half as many for a candidate that ``WEIGHTS.mc_prune`` drops,
    one whose first half falls that far below the best's) and the paired squares (``_rollouts``); returns their
    number."""
    weight_table, rng, actions, scratch = ro.weight_table, ro.rng, ro.actions, ro.scratch
    p, d0 = game_state[STATE.turn], game_state[STATE.day]
    cnt = legal_actions(game_state, p, actions, MAX_ACTIONS)
    o = wrow(game_state, p)
    ban = int(weight_table[o + WEIGHTS.ban_rows])
    if ban:   # a restricted player: never a bid at a banned row (the actions' order kept)
        m = 1
        for i in range(1, cnt):
            a = actions[MAX_ACTIONS + i]
            if not (ban >> ((a // MERCHANT_VALUES) % ROWS)) & 1:
                actions[MAX_ACTIONS + m] = a
                m += 1
        cnt = m
    horizon = weight_table[o + WEIGHTS.mc_horizon]
    whole, ph0 = horizon == 1, game_state[STATE.phase] if horizon == 2 else -1
    eps, prune = weight_table[o + WEIGHTS.mc_epsilon], weight_table[o + WEIGHTS.mc_prune]
    key = next_u64(rng)
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    first = K if prune <= 0.0 else max(1, K // 2)
    best = -1e300
    for i in range(cnt):
        scratch[SCRATCH.rollout_mean + i], scratch[SCRATCH.rollout_sq + i] = 0.0, 0.0
        _rollouts(ro, game_state, p, o, i, key, np.int64(0), first, (whole, d0, ph0, eps))
        best = max(best, scratch[SCRATCH.rollout_mean + i])
        scratch[SCRATCH.rollout_n + i] = first
    if first < K:   # pruning: the rest of the rollouts for the first candidate (the pass: the paired errors'
        for i in range(cnt):  # reference) and the candidates within ``prune`` of the best
            if i == 0 or scratch[SCRATCH.rollout_mean + i] >= best - prune * first:
                _rollouts(ro, game_state, p, o, i, key, first, K, (whole, d0, ph0, eps))
                scratch[SCRATCH.rollout_n + i] = K
    for i in range(cnt):
        scratch[SCRATCH.rollout_mean + i] /= scratch[SCRATCH.rollout_n + i]
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3   # the game goes on from one draw per decision
    return cnt


@no_refcount
def mc_action(game_state, ro, K):
    """The legal action with the best mean rollout outcome for the acting seat (the first if tied)."""
    actions, scratch = ro.actions, ro.scratch
    cnt = mc_values(game_state, ro, K)
    best, bv = actions[MAX_ACTIONS], scratch[SCRATCH.rollout_mean]
    for i in range(1, cnt):
        if scratch[SCRATCH.rollout_mean + i] > bv:
            best, bv = actions[MAX_ACTIONS + i], scratch[SCRATCH.rollout_mean + i]
    return best
