"""The rules of play on the flat state vector ``S`` (numba).

A game is a state machine: ``new_game`` deals and sets up day 1 and stops at
the first decision; ``advance(a)`` applies the acting seat's action and runs
everything that follows without a decision (passes of empty hands, phase
resolution with item choices, day scoring, next day's set-up) up to the next
decision or the game end (``S[STATE.over]``). Actions: -1 pass, else
``(v - 1) + 8 * row + 40 * favour`` (favour 0 none, 1 boost, 2 double).
"""

import numba as nb

from tabletop_mc.jit import no_refcount
from caesar_sim.kernels.items import choose_item
from caesar_sim.kernels.layout import (BIN_STATS, BOOST, DISP, DOUBLE, EV_BID, EV_FAVOUR_TICKET, EV_NOTHING, EV_PASS,
                                       EV_SCORE, EV_START_CARD_FALLS, EV_TAKE, GOLD, HOLD, NFT, NROW, NVAL, NVEN, P,
                                       ROWCAP, RULES, SCORE_PARTS, START_CARD, STATE, STATS)
from caesar_sim.kernels.setup import begin_phase, deal, insert_desc, log, setup_day


@no_refcount
def new_game(t, policies, rollouts, weight_rows):
    """Deal a fresh game on table ``t`` (``kernels.context``) for the seats' policies (seat p: policy
    ``policies[p]``, rollouts ``rollouts[p]``, weight row ``weight_rows[p]``) and stop at the first decision."""
    R, S = t.R, t.S
    n = R[RULES.players]
    for i in range(STATE.favours_shown):  # scalars and per-seat fields; day and phase set-up reset the rest
        S[i] = 0
    S[STATE.players] = n
    deal(R, S, t.rng, t.lg)
    S[STATE.bank_coins] = R[RULES.coin_cards]
    S[STATE.start] = R[RULES.first_start_seat] % n
    for p in range(n):
        S[STATE.policy + p] = policies[p]
        S[STATE.rollouts + p] = rollouts[p]
        S[STATE.weight_row + p] = weight_rows[p]
    setup_day(R, S, t.lg, t.st)
    settle(t)


@nb.njit(cache=True, inline="always")
def n_items(S, row):
    """Items on the display of ``row``."""
    if row == 0:
        shown = STATE.favours_shown
        return S[shown] + S[shown + 1] + S[shown + 2] + S[STATE.start_card_shown]
    if row == 1:
        return S[STATE.tickets_shown]
    return S[STATE.visitors_shown + row - 2]


@no_refcount
def consumed(R, S, row, eff):
    """Items taken before a card of effective value ``eff`` played now (equal cards stay left)."""
    took = 0
    for i in range(S[STATE.row_cards + row]):
        j = row * ROWCAP + i
        if S[STATE.row_effective + j] < eff:
            break
        took += R[RULES.double_items] if S[STATE.row_favour + j] == 2 else 1
    return took


@no_refcount
def apply_action(R, S, p, a, lg, st):
    """Seat ``p`` passes (a < 0) or plays a merchant (with a favour) into a row."""
    if a < 0:
        S[STATE.passed + p] = 1
        log(lg, EV_PASS, p, 0)
        return
    v, row, f = a % NVAL + 1, (a // NVAL) % NROW, a // (NVAL * NROW)
    S[STATE.hand + p] &= ~(1 << (v - 1))
    eff = v
    if f == 1:
        eff += R[RULES.boost_value]
    if f > 0:
        S[STATE.favours + p * NFT + f - 1] -= 1
        if st[STATS.on] > 0:
            st[STATS.favours + (f - 1) * 4 + 1] += 1
    c = S[STATE.cards_played]
    S[STATE.cards_played] = c + 1
    order = p - S[STATE.start]
    S[STATE.card_value + c], S[STATE.card_row + c] = v, row
    S[STATE.card_order + c] = order + S[STATE.players] if order < 0 else order
    S[STATE.card_owner + c], S[STATE.card_items + c], S[STATE.card_item + c] = p, 0, -1
    S[STATE.card_net_coins + c] = -R[RULES.merchant_coins + v - 1]
    base = row * ROWCAP
    i = S[STATE.row_cards + row]
    while i > 0 and S[STATE.row_effective + base + i - 1] < eff:
        j = base + i
        S[STATE.row_owner + j] = S[STATE.row_owner + j - 1]
        S[STATE.row_value + j] = S[STATE.row_value + j - 1]
        S[STATE.row_effective + j] = S[STATE.row_effective + j - 1]
        S[STATE.row_favour + j], S[STATE.row_card + j] = S[STATE.row_favour + j - 1], S[STATE.row_card + j - 1]
        i -= 1
    S[STATE.row_owner + base + i], S[STATE.row_value + base + i], S[STATE.row_effective + base + i] = p, v, eff
    S[STATE.row_favour + base + i], S[STATE.row_card + base + i] = f, c
    S[STATE.row_cards + row] += 1
    log(lg, EV_BID, p, v, row, f, eff, i)


@no_refcount
def take_item(t, p, row, c):
    """Seat ``p`` takes one item from ``row`` for day card ``c``."""
    R, S, lg, st = t.R, t.S, t.lg, t.st
    i = choose_item(R, S, t.PP, p, row, t.rng, t.W)
    S[STATE.card_items + c] += 1
    if row == 0:
        S[STATE.card_item + c] = i
        if i == START_CARD:
            S[STATE.start_card_shown] = 0
            S[STATE.start] = p
            if st[STATS.on] > 0:
                st[STATS.start_card] += 1
        else:
            S[STATE.favours_shown + i] -= 1
            S[STATE.favours + p * NFT + i] += 1
            if st[STATS.on] > 0:
                st[STATS.favours + i * 4] += 1
        log(lg, EV_TAKE, p, S[STATE.card_value + c], row, i)
        return
    if row == 1:
        x, coin = S[STATE.ticket_venue + i], S[STATE.ticket_coins + i]
        S[STATE.tickets_shown] -= 1
        S[STATE.ticket_venue + i] = S[STATE.ticket_venue + S[STATE.tickets_shown]]
        S[STATE.ticket_coins + i] = S[STATE.ticket_coins + S[STATE.tickets_shown]]
        h = (p * NVEN + x)
        S[STATE.tickets_held + h] = insert_desc(S, STATE.held_ticket_coins + h * HOLD, S[STATE.tickets_held + h], coin,
                                                STATE.held_ticket_card + h * HOLD, c)
        k = min(S[STATE.specials + x], S[STATE.bank_coins])
        S[STATE.bank_coins] -= k
        S[STATE.coin_cards + p] += k
        S[STATE.card_net_coins + c] += k * R[RULES.coin_card_value]
        log(lg, EV_TAKE, p, S[STATE.card_value + c], row, x, coin, k)
        return
    x = row - 2
    off = STATE.visitor_coins + x * DISP
    coin = S[off + i]
    S[STATE.visitors_shown + x] -= 1
    for j in range(i, S[STATE.visitors_shown + x]):
        S[off + j] = S[off + j + 1]
    h = (p * NVEN + x)
    S[STATE.visitors_held + h] = insert_desc(S, STATE.held_visitor_coins + h * HOLD, S[STATE.visitors_held + h], coin,
                                             STATE.held_visitor_card + h * HOLD, c)
    log(lg, EV_TAKE, p, S[STATE.card_value + c], row, x, coin)


@no_refcount
def resolve_phase(t):
    """Hand out the items of the phase's rows, left to right."""
    R, S, lg, st = t.R, t.S, t.lg, t.st
    ph = S[STATE.phase]
    r0 = 2 if ph == 2 else ph
    r1 = NROW if ph == 2 else ph + 1
    for row in range(r0, r1):
        base = row * ROWCAP
        for e in range(S[STATE.row_cards + row]):
            p, c = S[STATE.row_owner + base + e], S[STATE.row_card + base + e]
            takes = R[RULES.double_items] if S[STATE.row_favour + base + e] == 2 else 1
            for _ in range(takes):
                if n_items(S, row) > 0:
                    take_item(t, p, row, c)
            if S[STATE.card_items + c] == 0:
                log(lg, EV_NOTHING, p, S[STATE.card_value + c], row)
    if ph == 0:
        if S[STATE.start_card_shown] and S[STATE.row_cards] > 0:
            S[STATE.start] = S[STATE.row_owner]
            log(lg, EV_START_CARD_FALLS, S[STATE.start])
        if st[STATS.on] > 0:
            if S[STATE.start_card_shown] == 1:
                st[STATS.start_card + (1 if S[STATE.row_cards] > 0 else 2)] += 1
            u = S[STATE.favours_shown] + S[STATE.favours_shown + 1] + S[STATE.favours_shown + 2]
            st[STATS.unclaimed] += u
            st[STATS.unclaimed + 1] += u * u
            st[STATS.unclaimed + 2] += S[STATE.start_card_shown]
            st[STATS.unclaimed + 3] += S[STATE.start_card_shown]
        S[STATE.start_card_shown] = 0
    elif st[STATS.on] > 0:
        shown = STATE.visitors_shown
        u = S[STATE.tickets_shown] if ph == 1 else S[shown] + S[shown + 1] + S[shown + 2]
        st[STATS.unclaimed + 2 * (ph + 1)] += u
        st[STATS.unclaimed + 2 * (ph + 1) + 1] += u * u


@no_refcount
def score_day(R, S, lg, st):
    """Phase 4: assign visitors to tickets, score every seat, record the day's statistics."""
    n = S[STATE.players]
    for p in range(n):
        merch = 0
        for v in range(NVAL):
            if S[STATE.hand + p] >> v & 1:
                merch += R[RULES.merchant_coins + v]
        vis = 0
        tix = 0
        for x in range(NVEN):
            h = p * NVEN + x
            nt, nv = S[STATE.tickets_held + h], S[STATE.visitors_held + h]
            k = min(nt, nv)
            for i in range(k):
                tix += S[STATE.held_ticket_coins + h * HOLD + i]
                vis += S[STATE.held_visitor_coins + h * HOLD + i]
                j = h * HOLD + i
                S[STATE.card_net_coins + S[STATE.held_ticket_card + j]] += S[STATE.held_ticket_coins + j]
                S[STATE.card_net_coins + S[STATE.held_visitor_card + j]] += S[STATE.held_visitor_coins + j]
            if x == S[STATE.caesar]:
                allow = R[RULES.caesar_favour_tickets]
                for i in range(k, nv):
                    coin = S[STATE.held_visitor_coins + h * HOLD + i]
                    t = BOOST if S[STATE.favours + p * NFT + BOOST] > 0 else DOUBLE
                    if S[STATE.favours + p * NFT + t] == 0:
                        t = GOLD
                    if allow == 0 or S[STATE.favours + p * NFT + t] == 0 or (t == GOLD and coin <= R[RULES.gold_coins]):
                        break
                    allow -= 1
                    S[STATE.favours + p * NFT + t] -= 1
                    vis += coin
                    S[STATE.card_net_coins + S[STATE.held_visitor_card + h * HOLD + i]] += coin
                    log(lg, EV_FAVOUR_TICKET, p, x, coin, t)
                    if st[STATS.on] > 0:
                        st[STATS.favours + t * 4 + 2] += 1
        gold_left = S[STATE.favours + p * NFT + GOLD]
        gold = gold_left * R[RULES.gold_coins]
        for c in range(S[STATE.cards_played]):
            if (gold_left > 0 and S[STATE.card_owner + c] == p and S[STATE.card_row + c] == 0
                    and S[STATE.card_item + c] == GOLD):
                S[STATE.card_net_coins + c] += R[RULES.gold_coins]
                gold_left -= 1
        cc = S[STATE.coin_cards + p] * R[RULES.coin_card_value]
        day = merch + vis + tix + cc + gold
        S[STATE.score + p] += day
        o = log(lg, EV_SCORE, p, merch, vis, tix, cc, gold, day)
        if o >= 0:
            lg[o + 8] = S[STATE.score + p]
        if st[STATS.on] > 0:
            comp = (merch, vis, tix, cc, gold)
            for j in range(SCORE_PARTS):
                st[STATS.score_parts + (p * SCORE_PARTS + j) * 2] += comp[j]
                st[STATS.score_parts + (p * SCORE_PARTS + j) * 2 + 1] += comp[j] * comp[j]
            for t in range(NFT):
                st[STATS.favours + t * 4 + 3] += S[STATE.favours + p * NFT + t]
    if st[STATS.on] > 0:
        st[STATS.days] += 1
        for c in range(S[STATE.cards_played]):
            own = S[STATE.card_owner + c]
            b = STATS.bids + ((((S[STATE.policy + own] * P + S[STATE.card_order + c]) * NROW + S[STATE.card_row + c]) * NVAL
                            + S[STATE.card_value + c] - 1) * BIN_STATS)
            g = S[STATE.card_net_coins + c]
            st[b] += 1
            st[b + 1] += S[STATE.card_items + c] > 0
            st[b + 2] += g
            st[b + 3] += g * g


@no_refcount
def settle(t):
    """Run everything up to the next decision (``S[STATE.turn]`` to act) or the game end."""
    R, S, lg, st = t.R, t.S, t.lg, t.st
    n = S[STATE.players]
    while S[STATE.over] == 0:
        q = S[STATE.turn]
        for _ in range(n):
            if S[STATE.passed + q] == 0:
                if S[STATE.hand + q] != 0:
                    S[STATE.turn] = q
                    return
                S[STATE.passed + q] = 1
                log(lg, EV_PASS, q, 1)
            q = q + 1 if q + 1 < n else 0
        resolve_phase(t)
        if S[STATE.phase] < 2:
            S[STATE.phase] += 1
            begin_phase(S, lg)
        else:
            score_day(R, S, lg, st)
            S[STATE.day] += 1
            if S[STATE.day] >= R[RULES.days]:
                S[STATE.over] = 1
                return
            setup_day(R, S, lg, st)


@no_refcount
def advance(t, a):
    """The acting seat plays ``a`` on table ``t``; then run on to the next decision."""
    S = t.S
    p = S[STATE.turn]
    apply_action(t.R, S, p, a, t.lg, t.st)
    S[STATE.turn] = p + 1 if p + 1 < S[STATE.players] else 0
    settle(t)
