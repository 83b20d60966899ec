"""What an item is worth to a seat, and which item a seat takes (numba); a seat's weights: ``layout.WEIGHTS``."""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow
from caesar_sim.kernels.layout import (BOOST, DISTILLED, DOUBLE, FAVOUR_TYPES, GOLD, GREEDY, MAX_DISPLAY_ITEMS,
                                       MAX_HELD_ITEMS, MC, NET, RANDOM, RULES, SCRATCH, START_CARD, STATE, TUNED, VALUE,
                                       VENUES, WEIGHTS)

BANNED = -1e9   # utility of an item type a restricted player never takes (WEIGHTS.ban_items bit set)


@nb.njit(cache=True, inline="always")
def wrow(game_state, p):
    """Offset in weight_table of seat ``p``'s weight row."""
    return game_state[STATE.weight_row + p] * WEIGHTS.size


@nb.njit(cache=True, inline="always")
def favour_util(rulebook, weight_table, o, t):
    """Expected coins of favour type ``t`` (or the start card) to its taker (weight row at ``o``)."""
    if int(weight_table[o + WEIGHTS.ban_items]) >> t & 1:
        return BANNED
    if t == BOOST:
        return weight_table[o + WEIGHTS.boost]
    if t == DOUBLE:
        return weight_table[o + WEIGHTS.double]
    if t == GOLD:
        return float(rulebook[RULES.gold_coins])
    return weight_table[o + WEIGHTS.start_card]


@nb.njit(cache=True, inline="always")
def venue_terms(rulebook, game_state, weight_table, p, x, held):
    """(base, per_coin): a display ticket of venue ``x`` worth c coins is worth base + per_coin * c to ``p``.

    ``held``: the venue's tickets in play (display and seats). Coin cards of special events are
    certain; ticket and visitor coins count with the share of the venue's visitors per ticket
    in play, net of the phase-3 merchant the visitor costs.
    """
    c3 = weight_table[wrow(game_state, p) + WEIGHTS.phase3_card]
    cc = min(game_state[STATE.specials + x], game_state[STATE.bank_coins]) * rulebook[RULES.coin_card_value]
    vis = game_state[STATE.visitors_shown + x]
    if vis <= game_state[STATE.tickets_held + p * VENUES + x]:
        return float(cc), 0.0
    tot = 0
    for i in range(vis):
        tot += game_state[STATE.visitor_coins + x * MAX_DISPLAY_ITEMS + i]
    if vis >= held:  # share 1 (saves a division)
        return cc + float(tot) / vis - c3, 1.0
    share = min(1.0, vis / max(held, 1))
    return cc + share * float(tot) / vis - c3, share


@no_refcount
def ticket_utils(rulebook, game_state, weight_table, p, scratch, ids):
    """scratch[i] = what display ticket i is worth to seat ``p`` (coins); returns the index of the best. With
    ``ids``: also scratch[SCRATCH.item_id + i] = i and scratch[SCRATCH.share + i] = the ticket venue's visitor share (its per-coin worth)."""
    nt = game_state[STATE.tickets_shown]
    k0, k1, k2 = 0, 0, 0  # tickets of each venue on display
    for i in range(nt):
        x = game_state[STATE.ticket_venue + i]
        k0 += x == 0
        k1 += x == 1
        k2 += x == 2
    h0, h1, h2 = k0, k1, k2  # ... and in play
    for q in range(game_state[STATE.players]):
        h0 += game_state[STATE.tickets_held + q * VENUES]
        h1 += game_state[STATE.tickets_held + q * VENUES + 1]
        h2 += game_state[STATE.tickets_held + q * VENUES + 2]
    b0, m0 = venue_terms(rulebook, game_state, weight_table, p, 0, h0) if k0 > 0 else (0.0, 0.0)
    b1, m1 = venue_terms(rulebook, game_state, weight_table, p, 1, h1) if k1 > 0 else (0.0, 0.0)
    b2, m2 = venue_terms(rulebook, game_state, weight_table, p, 2, h2) if k2 > 0 else (0.0, 0.0)
    best, bu = 0, -1e18
    for i in range(nt):
        x, c = game_state[STATE.ticket_venue + i], game_state[STATE.ticket_coins + i]
        u = b0 + m0 * c if x == 0 else (b1 + m1 * c if x == 1 else b2 + m2 * c)
        scratch[i] = u
        if ids:
            scratch[SCRATCH.item_id + i] = i
            scratch[SCRATCH.share + i] = m0 if x == 0 else (m1 if x == 1 else m2)
        if u > bu:
            best, bu = i, u
    return best


@nb.njit(cache=True, inline="always")
def visitor_util(rulebook, game_state, p, x, coin, ahead):
    """Coins a visitor worth ``coin`` at venue ``x`` scores for ``p``, who wins ``ahead`` others there first."""
    k = game_state[STATE.visitors_held + p * VENUES + x] + ahead
    if k < game_state[STATE.tickets_held + p * VENUES + x]:
        return float(coin + game_state[STATE.held_ticket_coins + (p * VENUES + x) * MAX_HELD_ITEMS + k])
    if x == game_state[STATE.caesar]:
        spare = k - game_state[STATE.tickets_held + p * VENUES + x]
        if spare < rulebook[RULES.caesar_favour_tickets]:
            f = game_state[STATE.favours + p * FAVOUR_TYPES + BOOST] + game_state[STATE.favours + p * FAVOUR_TYPES + DOUBLE]
            if spare < f:
                return float(coin)
            if spare < f + game_state[STATE.favours + p * FAVOUR_TYPES + GOLD] and coin > rulebook[RULES.gold_coins]:
                return float(coin - rulebook[RULES.gold_coins])
    return 0.0


@nb.njit(cache=True, inline="always")
def takes_at_random(pol):
    """Does policy ``pol`` take the items it wins at random (else the best for it)?"""
    if pol == RANDOM:
        return True
    if pol == GREEDY or pol == VALUE or pol == MC or pol == TUNED or pol == DISTILLED:
        return False
    if pol == NET:   # the items by its row's item weights, as `value`
        return False
    raise ValueError("unknown Circus policy")


@no_refcount
def choose_item(rulebook, game_state, weight_table, p, row, rng, scratch):
    """Index of the item seat ``p`` takes from ``row``'s display (phase 1: a type code)."""
    at_random = takes_at_random(game_state[STATE.policy + p])
    if row == 0:
        best, bu, cnt = -1, -1e9, 0
        for t in range(FAVOUR_TYPES + 1):
            avail = game_state[STATE.start_card_shown] if t == START_CARD else game_state[STATE.favours_shown + t]
            if avail <= 0:
                continue
            cnt += 1
            if at_random:
                if randbelow(rng, cnt) == 0:
                    best = t
            else:
                u = favour_util(rulebook, weight_table, wrow(game_state, p), t)
                if u > bu:
                    best, bu = t, u
        return best
    if row == 1:
        nt = game_state[STATE.tickets_shown]
        if at_random:
            return randbelow(rng, nt)
        return ticket_utils(rulebook, game_state, weight_table, p, scratch, np.bool_(False))
    nv = game_state[STATE.visitors_shown + row - 2]
    if at_random:
        return randbelow(rng, nv)
    return 0  # visitors are kept sorted, best first
