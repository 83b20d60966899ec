"""Bidding policies on the state vector (numba): legal actions, greedy, and the row scans value uses.

``random`` picks uniformly from ``legal_actions``; `value`, `tuned` and `distilled` live in
``scan.py``, ``mc`` in ``mc.py``.
Action codes as in ``state``: -1 pass, else ``(v-1) + 8*row + 40*favour``.
"""

import numba as nb

from tabletop_mc.bits import lowest
from tabletop_mc.jit import no_refcount
from caesar_sim.kernels.play.items import favour_util, ticket_utils, wrow
from caesar_sim.kernels.layout import (BOOST, FAVOUR_TYPES, MAX_ROW_CARDS, MERCHANT_VALUES, ROWS, RULES, SCRATCH,
                                       START_CARD, STATE, VENUES, WEIGHTS)
from caesar_sim.kernels.play.state import n_items


@nb.njit(cache=True, inline="always")
def phase_rows(ph):
    """First and one-past-last row of phase ``ph``."""
    return (2, ROWS) if ph == 2 else (ph, ph + 1)


@no_refcount
def legal_actions(game_state, p, actions, off):
    """Fill ``actions[off:]`` with seat ``p``'s legal actions (pass first); return their number."""
    ph, hand = game_state[STATE.phase], game_state[STATE.hand + p]
    r0, r1 = phase_rows(ph)
    actions[off] = -1
    cnt = 1
    for f in range(3):
        if f > 0 and (ph == 0 or game_state[STATE.favours + p * FAVOUR_TYPES + f - 1] == 0):
            continue
        for row in range(r0, r1):
            for v in range(MERCHANT_VALUES):
                if hand >> v & 1:
                    actions[off + cnt] = v + MERCHANT_VALUES * row + MERCHANT_VALUES * ROWS * f
                    cnt += 1
    return cnt


@nb.njit(cache=True, inline="always")
def visitor_slots(rulebook, game_state, p, x):
    """Visitors at venue ``x`` that seat ``p`` could still score (open tickets, Caesar favours)."""
    h = p * VENUES + x
    cap = game_state[STATE.tickets_held + h] - game_state[STATE.visitors_held + h]
    if x == game_state[STATE.caesar]:
        fav = STATE.favours + p * FAVOUR_TYPES
        cap += min(rulebook[RULES.caesar_favour_tickets], game_state[fav] + game_state[fav + 1] + game_state[fav + 2])
    return cap


@nb.njit(cache=True, inline="always")
def row_scan(rulebook, game_state, row, p):
    """(items on display, items ``p`` wins as the row stands, least effective value that wins one,
    items the row's cards claim)."""
    nit = n_items(game_state, row)
    took = 0
    mine = 0
    tau = 1
    for e in range(game_state[STATE.row_cards + row]):
        j = row * MAX_ROW_CARDS + e
        t = rulebook[RULES.double_items] if game_state[STATE.row_favour + j] == 2 else 1
        mine += max(0, min(t, nit - took)) * (game_state[STATE.row_owner + j] == p)
        took += t
        if took >= nit and tau == 1:
            tau = game_state[STATE.row_effective + j] + 1
    return nit, mine, tau, took


@nb.njit(cache=True, inline="always")
def cheapest(hand, tau):
    """Lowest merchant value in ``hand`` that is at least ``tau`` (MERCHANT_VALUES + 1 if none)."""
    if tau > MERCHANT_VALUES:
        return MERCHANT_VALUES + 1
    m = hand >> (max(tau, 1) - 1) << (max(tau, 1) - 1)
    return MERCHANT_VALUES + 1 if m == 0 else lowest(m) + 1


@no_refcount
def greedy_action(rulebook, game_state, weight_table, p):
    """The cheapest merchant that, as the rows stand, wins an item ``p`` wants (boost if needed)."""
    ph, hand = game_state[STATE.phase], game_state[STATE.hand + p]
    r0, r1 = phase_rows(ph)
    boost = rulebook[RULES.boost_value] if ph > 0 and game_state[STATE.favours + p * FAVOUR_TYPES + BOOST] > 0 else -1
    best, bestv, bestb = -1, MERCHANT_VALUES + 1, MERCHANT_VALUES + 1
    for row in range(r0, r1):
        if n_items(game_state, row) == 0:
            continue
        if row == 0:
            cap = 1
        elif row == 1:
            cap = 0
            for i in range(game_state[STATE.tickets_shown]):
                if game_state[STATE.visitors_shown + game_state[STATE.ticket_venue + i]] > 0:
                    cap = int(weight_table[wrow(game_state, p) + WEIGHTS.greedy_tickets])
                    break
        else:
            cap = visitor_slots(rulebook, game_state, p, row - 2)
        if cap <= 0:
            continue
        nit, have, tau, _ = row_scan(rulebook, game_state, row, p)
        if have >= cap:
            continue
        v = cheapest(hand, tau)
        if v < bestv:
            best, bestv = v - 1 + MERCHANT_VALUES * row, v
        if boost >= 0 and bestv > MERCHANT_VALUES:
            v = cheapest(hand, tau - boost)
            if v < bestb:
                best, bestb = v - 1 + MERCHANT_VALUES * row + MERCHANT_VALUES * ROWS, v
    return best


@nb.njit(cache=True, inline="always")
def row_utils(rulebook, game_state, weight_table, o, p, row, scratch, ids):
    """Fill scratch[0:n] with what each item of row 0/1 is worth to ``p``, best first; return n. With ``ids``,
    each item's id (row 0: favour type or START_CARD; row 1: display ticket) and visitor share (row 1)
    move with it at scratch[SCRATCH.item_id:] and scratch[SCRATCH.share:]."""
    m = 0
    if row == 0:
        for t in range(FAVOUR_TYPES + 1):
            cnt = game_state[STATE.start_card_shown] if t == START_CARD else game_state[STATE.favours_shown + t]
            for _ in range(cnt):
                scratch[m] = favour_util(rulebook, weight_table, o, t)
                if ids:
                    scratch[SCRATCH.item_id + m] = t
                m += 1
    else:
        ticket_utils(rulebook, game_state, weight_table, p, scratch, ids)
        m = game_state[STATE.tickets_shown]
    for i in range(1, m):
        u = scratch[i]
        d, a = 0.0, 0.0
        if ids:
            d, a = scratch[SCRATCH.item_id + i], scratch[SCRATCH.share + i]
        j = i
        while j > 0 and scratch[j - 1] < u:
            scratch[j] = scratch[j - 1]
            if ids:
                scratch[SCRATCH.item_id + j], scratch[SCRATCH.share + j] = scratch[SCRATCH.item_id + j - 1], scratch[SCRATCH.share + j - 1]
            j -= 1
        scratch[j] = u
        if ids:
            scratch[SCRATCH.item_id + j], scratch[SCRATCH.share + j] = d, a
    return m
