"""Value's row scan (numba): `value`, `tuned`, their softmax versions, `distilled`, and the features.

One scan visits every legal bid of the acting seat (row, favour, merchant) and knows, for each,
what it wins as the rows stand: the items' worth to the seat (``u``, from the row's item
weights), whether opponents who can still outbid threaten them, the merchant's unplayed coins,
the cards it leaves short for later phases. What it does with a bid depends on ``mode``:

- ``BEST``: `value`'s choice, the bid with the largest ``keep * u - cost`` (pass scores 0),
  pruning bids that cannot beat the best so far;
- ``SCORES``: every legal action (pass first) with that score, at ``scratch[SCRATCH.score + i]``;
- ``LINEAR``: every legal action with `distilled`'s score, a linear function of the action's
  features (weights ``weight_table[o + WEIGHTS.features ...]``, per phase);
- ``FEATURES``: every legal action's feature vector into row i of ``F`` (``N_FEATURES`` floats).

Features of a bid (``N_BID_FEATURES`` per phase, the phase's block; the names in ``caesar_sim.weights``):
the items' worth if no rival can outbid for them (else 0) and if one can, the merchant's coins,
its value, the cards short for later phases, boost, double, winning nothing, rivals able to
outbid beyond the spare items, items won; then what the items are: phase 1 the boosts,
doubles, golds and start card won; phase 2 the tickets' coin cards, ticket coins times the
venue's visitor share, their expected visitor coins, and how many need a phase-3 merchant;
phase 3 the visitors' coins and ticket coins scored, the most the visitors are worth to a
rival, and how many score. A pass (``N_PASS_FEATURES`` per phase): 1, cards in hand, items on the
phase's displays, rivals still bidding.

Actions go to ``actions[off + i]`` in the non-``BEST`` modes; banned rows (restricted players) are
left out. A positive ``temperature`` weight samples the action from a softmax over the scores.
"""

import math
from collections import namedtuple

import numba as nb

from tabletop_mc.bits import highest, lowest, popcount
from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import uniform
from caesar_sim.kernels.play.items import visitor_util, wrow
from caesar_sim.kernels.layout import (BOOST, DOUBLE, FAVOUR_TYPES, GOLD, MAX_DISPLAY_ITEMS, MAX_ROW_CARDS,
                                       MERCHANT_VALUES, N_BID_FEATURES, N_FEATURES, N_PASS_FEATURES, ROWS, RULES,
                                       SCRATCH, START_CARD, STATE, VENUES, WEIGHTS)
from caesar_sim.kernels.play.policies import phase_rows, row_scan, row_utils, visitor_slots
from caesar_sim.kernels.play.state import n_items

BEST, SCORES, LINEAR, FEATURES = 0, 1, 2, 3
F_PASS = 3 * N_BID_FEATURES   # feature index of phase 1's pass block (then phases 2, 3)
# where a listing scan writes: the seat's weight row (weight_table at o), scratch, actions[off:], features F, the mode
Listing = namedtuple("Listing", "weight_table o scratch actions off F mode")
# one bid as the scan sees it: action code, the items' worth u and the chance to keep them, the card's cost
# (unplayed coins, shortfall, strength) and the favour's keep value, then the rest of its features (module
# docstring): merchant coins, value, cards short, favour (0 none, 1 boost, 2 double), wins nothing, rivals
# able to outbid beyond the spare items, items won, and the phase's four item parts
Bid = namedtuple("Bid", "a u keep cost fcost mcoin v shortn f nothing threat items parts")


@nb.njit(cache=True, inline="always")
def _emit(out, i, ph, bid):
    """List ``bid`` as action ``i`` with its score (``SCORES``, ``LINEAR``) or features (``FEATURES``)."""
    scratch, mode = out.scratch, out.mode
    out.actions[out.off + i] = bid.a
    if mode == SCORES:
        scratch[SCRATCH.score + i] = bid.keep * bid.u - bid.cost - bid.fcost
        return
    u, f = bid.u, bid.f
    scratch[SCRATCH.features], scratch[SCRATCH.features + 1] = (u, 0.0) if bid.keep == 1.0 else (0.0, u)
    scratch[SCRATCH.features + 2], scratch[SCRATCH.features + 3], scratch[SCRATCH.features + 4], scratch[SCRATCH.features + 5] = bid.mcoin, bid.v, bid.shortn, f == 1
    scratch[SCRATCH.features + 6], scratch[SCRATCH.features + 7], scratch[SCRATCH.features + 8], scratch[SCRATCH.features + 9] = f == 2, bid.nothing, bid.threat, bid.items
    scratch[SCRATCH.features + 10], scratch[SCRATCH.features + 11], scratch[SCRATCH.features + 12], scratch[SCRATCH.features + 13] = bid.parts
    x = ph * N_BID_FEATURES
    if mode == LINEAR:
        sc = 0.0
        for k in range(N_BID_FEATURES):
            sc += out.weight_table[out.o + WEIGHTS.features + x + k] * scratch[SCRATCH.features + k]
        scratch[SCRATCH.score + i] = sc
        return
    F = out.F
    r = i * N_FEATURES
    for k in range(N_FEATURES):
        F[r + k] = 0.0
    for k in range(N_BID_FEATURES):
        F[r + x + k] = scratch[SCRATCH.features + k]


@nb.njit(cache=True, inline="always")
def _pass_features(game_state, p, ph, hand, scratch):
    """The pass block's features into scratch[SCRATCH.features:SCRATCH.features + N_PASS_FEATURES]: 1, cards in
    hand, items on display, rivals bidding."""
    r0, r1 = phase_rows(ph)
    items = 0
    for row in range(r0, r1):
        items += n_items(game_state, row)
    rivals = 0
    for q in range(game_state[STATE.players]):
        rivals += (q != p) & (game_state[STATE.passed + q] == 0) & (game_state[STATE.hand + q] != 0)
    scratch[SCRATCH.features], scratch[SCRATCH.features + 1], scratch[SCRATCH.features + 2], scratch[SCRATCH.features + 3] = 1.0, popcount(hand), items, rivals


@nb.njit(cache=True, inline="always")
def _item_parts(rulebook, game_state, weight_table, p, row, j, scratch, u_j):
    """What item ``j`` of ``row`` adds to the phase's four decomposition features (worth ``u_j`` to ``p``)."""
    if row == 0:
        t = int(scratch[SCRATCH.item_id + j])
        return 1.0 * (t == BOOST), 1.0 * (t == DOUBLE), 1.0 * (t == GOLD), 1.0 * (t == START_CARD)
    if row == 1:
        i = int(scratch[SCRATCH.item_id + j])
        x, c, share = game_state[STATE.ticket_venue + i], game_state[STATE.ticket_coins + i], scratch[SCRATCH.share + j]
        cc = min(game_state[STATE.specials + x], game_state[STATE.bank_coins]) * rulebook[RULES.coin_card_value]
        c3 = weight_table[wrow(game_state, p) + WEIGHTS.phase3_card] if share > 0 else 0.0
        return 1.0 * cc, share * c, u_j - cc - share * c + c3, 1.0 * (share > 0)
    x = row - 2
    coin = game_state[STATE.visitor_coins + x * MAX_DISPLAY_ITEMS + j]
    deny = 0.0
    for q in range(game_state[STATE.players]):
        if q != p:
            deny = max(deny, visitor_util(rulebook, game_state, q, x, coin, 0))
    scores = 1.0 if u_j > 0 else 0.0
    return coin * scores, (u_j - coin) * scores, deny, scores


@no_refcount
def _scan(rulebook, game_state, weight_table, p, scratch, actions, off, F, mode):
    """`value`'s scan (module docstring): ``BEST`` returns the action, the other modes the count.

    One compiled function for the four modes (``mode`` is read at run time): inlined into each
    caller it was compiled four times over, the largest part of the first Circus game's compile."""
    ph, hand, n = game_state[STATE.phase], game_state[STATE.hand + p], game_state[STATE.players]
    o = wrow(game_state, p)
    out = Listing(weight_table, o, scratch, actions, off, F, mode)
    ban = int(weight_table[o + WEIGHTS.ban_rows])
    cnt = 0
    if mode != BEST:  # pass first
        actions[off] = -1
        cnt = 1
        if mode == SCORES:
            scratch[SCRATCH.score] = 0.0
        else:
            _pass_features(game_state, p, ph, hand, scratch)
            x = F_PASS + ph * N_PASS_FEATURES
            if mode == LINEAR:
                sc = 0.0
                for k in range(N_PASS_FEATURES):
                    sc += weight_table[o + WEIGHTS.features + x + k] * scratch[SCRATCH.features + k]
                scratch[SCRATCH.score] = sc
            else:
                for k in range(N_FEATURES):
                    F[k] = 0.0
                for k in range(N_PASS_FEATURES):
                    F[x + k] = scratch[SCRATCH.features + k]
    if hand == 0:
        return -1 if mode == BEST else cnt
    r0, r1 = phase_rows(ph)
    boost, dbl = rulebook[RULES.boost_value], rulebook[RULES.double_items]
    # threats: bit-sliced counters (t0 + 2 t1 + 4 t2 at bit e) of active opponents who can play above e
    t0, t1, t2 = 0, 0, 0
    for q in range(n):  # branch-free: x = 0 adds nothing
        hq = game_state[STATE.hand + q]
        top = highest(hq | 1) + 1 + boost * ((ph > 0) & (game_state[STATE.favours + q * FAVOUR_TYPES + BOOST] > 0))
        x = ((1 << top) - 1) * ((q != p) & (game_state[STATE.passed + q] == 0) & (hq != 0))
        c = t0 & x
        t0 ^= x
        t2 |= t1 & c
        t1 ^= c
    need = weight_table[o + WEIGHTS.need_phase1]
    if ph == 1:
        nit1, ahead1, _, total1 = row_scan(rulebook, game_state, 1, p)
        need = weight_table[o + WEIGHTS.need_phase2] + ahead1
        for x in range(VENUES):
            need += game_state[STATE.tickets_held + p * VENUES + x]
    left = popcount(hand) - 1  # cards left after this one
    shortn = max(0.0, need - left) if ph < 2 else 0.0
    short = shortn * weight_table[o + WEIGHTS.short] if ph < 2 else 0.0
    alpha = weight_table[o + WEIGHTS.strength] if ph < 2 else 0.0
    # a card's cost: rulebook[RULES.merchant_coins + v - 1] + short + alpha * v
    risk = weight_table[o + WEIGHTS.risk_visitors] if ph == 2 else weight_table[o + WEIGHTS.risk]
    mono = 0.0 <= alpha <= 1e300 and -1e300 <= short <= 1e300  # then costs rise with v if the coins do
    for v in range(1, MERCHANT_VALUES):
        mono = mono and rulebook[RULES.merchant_coins + v] >= rulebook[RULES.merchant_coins + v - 1]
    v = lowest(hand) + 1
    cheap, rising = min(1e18, rulebook[RULES.merchant_coins + v - 1] + short + alpha * v), True
    if not mono:
        prev, m = rulebook[RULES.merchant_coins + v - 1] + short + alpha * v, hand & (hand - 1)
        while m:
            v = lowest(m) + 1
            m &= m - 1
            c = rulebook[RULES.merchant_coins + v - 1] + short + alpha * v
            cheap = min(cheap, c)
            rising = rising and c >= prev
            prev = c
    best, bg = -1, 0.0
    most = dbl if ph > 0 and game_state[STATE.favours + p * FAVOUR_TYPES + DOUBLE] > 0 else 1
    for row in range(r0, r1):
        if ban >> row & 1:
            continue
        if ph == 1:
            nit, ahead, total = nit1, ahead1, total1
        else:
            nit, ahead, _, total = row_scan(rulebook, game_state, row, p)
        if mode == BEST:
            if nit == 0 or (row >= 2 and visitor_slots(rulebook, game_state, p, row - 2) <= ahead):
                continue
        if row < 2:
            if nit > 0:
                row_utils(rulebook, game_state, weight_table, o, p, row, scratch, mode >= LINEAR)
                if row == 0 and ahead > 0:
                    for i in range(nit):
                        scratch[i] /= 1.0 + weight_table[o + WEIGHTS.villa_decay] * ahead
            top = scratch[0]
        else:
            top = visitor_util(rulebook, game_state, p, row - 2,
                               game_state[STATE.visitor_coins + (row - 2) * MAX_DISPLAY_ITEMS], ahead)
        if mode == BEST and top * min(most, nit) - cheap <= bg:  # even the best items for the cheapest card lose
            continue
        base, rown = row * MAX_ROW_CARDS, game_state[STATE.row_cards + row]
        for f in range(3):
            if f > 0 and (ph == 0 or game_state[STATE.favours + p * FAVOUR_TYPES + f - 1] == 0):
                continue
            takes = dbl if f == 2 else 1
            fcost = weight_table[o + WEIGHTS.favour_keep] if f > 0 and ph == 1 else 0.0
            bonus = boost if f == 1 else 0
            last, u = -1, 0.0
            d0, d1, d2, d3 = 0.0, 0.0, 0.0, 0.0
            i, s, m = rown, total, hand  # s: items taken before the card (equal cards stay left)
            while m:
                v = lowest(m) + 1
                m &= m - 1
                eff = v + bonus
                while i > 0 and game_state[STATE.row_effective + base + i - 1] < eff:
                    i -= 1
                    s -= dbl if game_state[STATE.row_favour + base + i] == 2 else 1
                a = v - 1 + MERCHANT_VALUES * row + MERCHANT_VALUES * ROWS * f
                mcoin = rulebook[RULES.merchant_coins + v - 1]
                if s >= nit:
                    if mode != BEST:
                        _emit(out, cnt, ph, Bid(a, 0.0, 1.0, mcoin + short + alpha * v, fcost, mcoin, v, shortn, f,
                                                1.0, 0.0, 0.0, (0.0, 0.0, 0.0, 0.0)))
                        cnt += 1
                    continue
                if s != last:
                    last, u = s, 0.0
                    d0, d1, d2, d3 = 0.0, 0.0, 0.0, 0.0
                    for k in range(min(takes, nit - s)):
                        if row < 2:
                            uk = scratch[s + k]
                        else:
                            uk = visitor_util(rulebook, game_state, p, row - 2,
                                              game_state[STATE.visitor_coins + (row - 2) * MAX_DISPLAY_ITEMS + s + k],
                                              ahead + k)
                        u += uk
                        if mode >= LINEAR:
                            e0, e1, e2, e3 = _item_parts(rulebook, game_state, weight_table, p, row, s + k, scratch, uk)
                            d0, d1, d2, d3 = d0 + e0, d1 + e1, d2 + e2, d3 + e3
                threats = ((t0 >> eff) & 1) + 2 * ((t1 >> eff) & 1) + 4 * ((t2 >> eff) & 1)
                keep = 1.0 if threats <= nit - s - takes else risk
                if mode != BEST:
                    _emit(out, cnt, ph, Bid(a, u, keep, mcoin + short + alpha * v, fcost, mcoin, v, shortn, f, 0.0,
                                            float(max(0, threats - (nit - s - takes))), float(min(takes, nit - s)),
                                            (d0, d1, d2, d3)))
                    cnt += 1
                    continue
                g = keep * u - (mcoin + short + alpha * v) - fcost
                if g > bg:
                    best, bg = a, g
                if s == 0 and keep == 1.0 and rising:
                    break  # higher merchants win nothing more and cost more
    return best if mode == BEST else cnt


@no_refcount
def value_action(rulebook, game_state, weight_table, p, scratch):
    """`value` and `tuned` (the same features, each with its own weight row). Best bid by expected item
    coins minus the card's unplayed coins and later needs; else pass.

    For each row, favour and merchant: the item(s) the card would win as the row stands
    (phase 1: favours by their weights, halved per item already won there; phase 2: tickets
    by ``ticket_utils``; phase 3: visitors that fill an open ticket), times the chance to
    keep them against opponents who can still outbid, minus the card's unplayed coins,
    a favour's keep value, and (phases 1-2) its strength and any shortfall of cards needed later.
    A row whose bit is set in the ``WEIGHTS.ban_rows`` weight is never bid at (restricted players).
    """
    return _scan(rulebook, game_state, weight_table, p, scratch, scratch, 0, scratch, BEST)


@no_refcount
def value_scores(rulebook, game_state, weight_table, p, scratch, actions, off):
    """Every legal action of ``p`` (pass first) into ``actions[off:]`` and value's score into ``scratch[SCRATCH.score:]``; the count."""
    return _scan(rulebook, game_state, weight_table, p, scratch, actions, off, scratch, SCORES)


@no_refcount
def linear_scores(rulebook, game_state, weight_table, p, scratch, actions, off):
    """Every legal action of ``p`` into ``actions[off:]`` and `distilled`'s score into ``scratch[SCRATCH.score:]``; the count."""
    return _scan(rulebook, game_state, weight_table, p, scratch, actions, off, scratch, LINEAR)


@no_refcount
def action_features(rulebook, game_state, weight_table, p, scratch, actions, off, F):
    """Every legal action of ``p`` into ``actions[off:]`` and its features into row i of ``F`` (N_FEATURES floats)."""
    return _scan(rulebook, game_state, weight_table, p, scratch, actions, off, F, FEATURES)


@no_refcount
def pick(scratch, cnt, temp, rng):
    """Index of the action to play from scores ``scratch[SCRATCH.score:SCRATCH.score + cnt]``: the first best if
    ``temp <= 0``, else a draw from the softmax at temperature ``temp``."""
    best, bg = 0, scratch[SCRATCH.score]
    for i in range(1, cnt):
        if scratch[SCRATCH.score + i] > bg:
            best, bg = i, scratch[SCRATCH.score + i]
    if temp <= 0.0:
        return best
    tot = 0.0
    for i in range(cnt):
        tot += math.exp((scratch[SCRATCH.score + i] - bg) / temp)
    x = uniform(rng) * tot
    for i in range(cnt):
        x -= math.exp((scratch[SCRATCH.score + i] - bg) / temp)
        if x < 0.0:
            return i
    return best


@no_refcount
def scored_action(rulebook, game_state, weight_table, p, scratch, actions, rng, linear):
    """The action of a seat that plays by scores: `distilled` (``linear``) or `value`/`tuned`, each
    the best or (weight ``temperature`` > 0) sampled from the softmax over its scores."""
    temp = weight_table[wrow(game_state, p) + WEIGHTS.temperature]
    if not linear and temp <= 0.0:
        return value_action(rulebook, game_state, weight_table, p, scratch)
    cnt = linear_scores(rulebook, game_state, weight_table, p, scratch, actions,
                        0) if linear else value_scores(rulebook, game_state, weight_table, p, scratch, actions, 0)
    return actions[pick(scratch, cnt, temp, rng)]
