"""The rules of play on the flat state vector ``game_state`` (numba).

A game is a state machine: ``new_game`` deals and sets up day 1 and stops at
the first decision; ``advance(a)`` applies the acting seat's action and runs
everything that follows without a decision (passes of empty hands, phase
resolution with item choices, day scoring, next day's set-up) up to the next
decision or the game end (``game_state[STATE.over]``). Actions: -1 pass, else
``(v - 1) + 8 * row + 40 * favour`` (favour 0 none, 1 boost, 2 double).
"""

import numba as nb

from tabletop_mc.jit import no_refcount
from caesar_sim.kernels.play.items import choose_item
from caesar_sim.kernels.layout import (BIN_STATS, BOOST, DOUBLE, EV_BID, EV_FAVOUR_TICKET, EV_NOTHING, EV_PASS,
                                       EV_SCORE, EV_START_CARD_FALLS, EV_TAKE, FAVOUR_TYPES, GOLD, MAX_DISPLAY_ITEMS,
                                       MAX_HELD_ITEMS, MAX_PLAYERS, MAX_ROW_CARDS, MERCHANT_VALUES, ROWS, RULES,
                                       SCORE_PARTS, START_CARD, STATE, STATS, VENUES)
from caesar_sim.kernels.play.setup import begin_phase, deal, insert_desc, log, setup_day


@no_refcount
def new_game(t, policies, rollouts, weight_rows):
    """Deal a fresh game on pointers ``t`` (``kernels.contexts``) for the seats' policies (seat p: policy
    ``policies[p]``, rollouts ``rollouts[p]``, weight row ``weight_rows[p]``) and stop at the first decision."""
    rulebook, game_state = t.rulebook, t.game_state
    n = rulebook[RULES.players]
    for i in range(STATE.favours_shown):  # scalars and per-seat fields; day and phase set-up reset the rest
        game_state[i] = 0
    game_state[STATE.players] = n
    deal(rulebook, game_state, t.rng, t.game_log)
    game_state[STATE.bank_coins] = rulebook[RULES.coin_cards]
    game_state[STATE.start] = rulebook[RULES.first_start_seat] % n
    for p in range(n):
        game_state[STATE.policy + p] = policies[p]
        game_state[STATE.rollouts + p] = rollouts[p]
        game_state[STATE.weight_row + p] = weight_rows[p]
    setup_day(rulebook, game_state, t.game_log, t.game_stats)
    settle(t)


@nb.njit(cache=True, inline="always")
def n_items(game_state, row):
    """Items on the display of ``row``."""
    if row == 0:
        shown = STATE.favours_shown
        return game_state[shown] + game_state[shown + 1] + game_state[shown + 2] + game_state[STATE.start_card_shown]
    if row == 1:
        return game_state[STATE.tickets_shown]
    return game_state[STATE.visitors_shown + row - 2]


@no_refcount
def consumed(rulebook, game_state, row, eff):
    """Items taken before a card of effective value ``eff`` played now (equal cards stay left)."""
    took = 0
    for i in range(game_state[STATE.row_cards + row]):
        j = row * MAX_ROW_CARDS + i
        if game_state[STATE.row_effective + j] < eff:
            break
        took += rulebook[RULES.double_items] if game_state[STATE.row_favour + j] == 2 else 1
    return took


@no_refcount
def apply_action(rulebook, game_state, p, a, game_log, game_stats):
    """Seat ``p`` passes (a < 0) or plays a merchant (with a favour) into a row."""
    if a < 0:
        game_state[STATE.passed + p] = 1
        log(game_log, EV_PASS, p, 0)
        return
    v, row, f = a % MERCHANT_VALUES + 1, (a // MERCHANT_VALUES) % ROWS, a // (MERCHANT_VALUES * ROWS)
    game_state[STATE.hand + p] &= ~(1 << (v - 1))
    eff = v
    if f == 1:
        eff += rulebook[RULES.boost_value]
    if f > 0:
        game_state[STATE.favours + p * FAVOUR_TYPES + f - 1] -= 1
        if game_stats[STATS.on] > 0:
            game_stats[STATS.favours + (f - 1) * 4 + 1] += 1
    c = game_state[STATE.cards_played]
    game_state[STATE.cards_played] = c + 1
    order = p - game_state[STATE.start]
    game_state[STATE.card_value + c], game_state[STATE.card_row + c] = v, row
    game_state[STATE.card_order + c] = order + game_state[STATE.players] if order < 0 else order
    game_state[STATE.card_owner + c], game_state[STATE.card_items + c], game_state[STATE.card_item + c] = p, 0, -1
    game_state[STATE.card_net_coins + c] = -rulebook[RULES.merchant_coins + v - 1]
    base = row * MAX_ROW_CARDS
    i = game_state[STATE.row_cards + row]
    while i > 0 and game_state[STATE.row_effective + base + i - 1] < eff:
        j = base + i
        game_state[STATE.row_owner + j] = game_state[STATE.row_owner + j - 1]
        game_state[STATE.row_value + j] = game_state[STATE.row_value + j - 1]
        game_state[STATE.row_effective + j] = game_state[STATE.row_effective + j - 1]
        game_state[STATE.row_favour + j], game_state[STATE.row_card + j] = game_state[STATE.row_favour + j - 1], game_state[STATE.row_card + j - 1]
        i -= 1
    game_state[STATE.row_owner + base + i], game_state[STATE.row_value + base + i], game_state[STATE.row_effective + base + i] = p, v, eff
    game_state[STATE.row_favour + base + i], game_state[STATE.row_card + base + i] = f, c
    game_state[STATE.row_cards + row] += 1
    log(game_log, EV_BID, p, v, row, f, eff, i)


@no_refcount
def take_item(t, p, row, c):
    """Seat ``p`` takes one item from ``row`` for day card ``c``."""
    rulebook, game_state, game_log, game_stats = t.rulebook, t.game_state, t.game_log, t.game_stats
    i = choose_item(rulebook, game_state, t.weight_table, p, row, t.rng, t.scratch)
    game_state[STATE.card_items + c] += 1
    if row == 0:
        game_state[STATE.card_item + c] = i
        if i == START_CARD:
            game_state[STATE.start_card_shown] = 0
            game_state[STATE.start] = p
            if game_stats[STATS.on] > 0:
                game_stats[STATS.start_card] += 1
        else:
            game_state[STATE.favours_shown + i] -= 1
            game_state[STATE.favours + p * FAVOUR_TYPES + i] += 1
            if game_stats[STATS.on] > 0:
                game_stats[STATS.favours + i * 4] += 1
        log(game_log, EV_TAKE, p, game_state[STATE.card_value + c], row, i)
        return
    if row == 1:
        x, coin = game_state[STATE.ticket_venue + i], game_state[STATE.ticket_coins + i]
        game_state[STATE.tickets_shown] -= 1
        game_state[STATE.ticket_venue + i] = game_state[STATE.ticket_venue + game_state[STATE.tickets_shown]]
        game_state[STATE.ticket_coins + i] = game_state[STATE.ticket_coins + game_state[STATE.tickets_shown]]
        h = (p * VENUES + x)
        game_state[STATE.tickets_held + h] = insert_desc(game_state, STATE.held_ticket_coins + h * MAX_HELD_ITEMS,
                                                         game_state[STATE.tickets_held + h], coin,
                                                STATE.held_ticket_card + h * MAX_HELD_ITEMS, c)
        k = min(game_state[STATE.specials + x], game_state[STATE.bank_coins])
        game_state[STATE.bank_coins] -= k
        game_state[STATE.coin_cards + p] += k
        game_state[STATE.card_net_coins + c] += k * rulebook[RULES.coin_card_value]
        log(game_log, EV_TAKE, p, game_state[STATE.card_value + c], row, x, coin, k)
        return
    x = row - 2
    off = STATE.visitor_coins + x * MAX_DISPLAY_ITEMS
    coin = game_state[off + i]
    game_state[STATE.visitors_shown + x] -= 1
    for j in range(i, game_state[STATE.visitors_shown + x]):
        game_state[off + j] = game_state[off + j + 1]
    h = (p * VENUES + x)
    game_state[STATE.visitors_held + h] = insert_desc(game_state, STATE.held_visitor_coins + h * MAX_HELD_ITEMS,
                                                      game_state[STATE.visitors_held + h], coin,
                                             STATE.held_visitor_card + h * MAX_HELD_ITEMS, c)
    log(game_log, EV_TAKE, p, game_state[STATE.card_value + c], row, x, coin)


@no_refcount
def resolve_phase(t):
    """Hand out the items of the phase's rows, left to right."""
    rulebook, game_state, game_log, game_stats = t.rulebook, t.game_state, t.game_log, t.game_stats
    ph = game_state[STATE.phase]
    r0 = 2 if ph == 2 else ph
    r1 = ROWS if ph == 2 else ph + 1
    for row in range(r0, r1):
        base = row * MAX_ROW_CARDS
        for e in range(game_state[STATE.row_cards + row]):
            p, c = game_state[STATE.row_owner + base + e], game_state[STATE.row_card + base + e]
            takes = rulebook[RULES.double_items] if game_state[STATE.row_favour + base + e] == 2 else 1
            for _ in range(takes):
                if n_items(game_state, row) > 0:
                    take_item(t, p, row, c)
            if game_state[STATE.card_items + c] == 0:
                log(game_log, EV_NOTHING, p, game_state[STATE.card_value + c], row)
    if ph == 0:
        if game_state[STATE.start_card_shown] and game_state[STATE.row_cards] > 0:
            game_state[STATE.start] = game_state[STATE.row_owner]
            log(game_log, EV_START_CARD_FALLS, game_state[STATE.start])
        if game_stats[STATS.on] > 0:
            if game_state[STATE.start_card_shown] == 1:
                game_stats[STATS.start_card + (1 if game_state[STATE.row_cards] > 0 else 2)] += 1
            u = game_state[STATE.favours_shown] + game_state[STATE.favours_shown + 1] + game_state[STATE.favours_shown + 2]
            game_stats[STATS.unclaimed] += u
            game_stats[STATS.unclaimed + 1] += u * u
            game_stats[STATS.unclaimed + 2] += game_state[STATE.start_card_shown]
            game_stats[STATS.unclaimed + 3] += game_state[STATE.start_card_shown]
        game_state[STATE.start_card_shown] = 0
    elif game_stats[STATS.on] > 0:
        shown = STATE.visitors_shown
        u = game_state[STATE.tickets_shown] if ph == 1 else game_state[shown] + game_state[shown + 1] + game_state[shown + 2]
        game_stats[STATS.unclaimed + 2 * (ph + 1)] += u
        game_stats[STATS.unclaimed + 2 * (ph + 1) + 1] += u * u


@no_refcount
def score_day(rulebook, game_state, game_log, game_stats):
    """Phase 4: assign visitors to tickets, score every seat, record the day's statistics."""
    n = game_state[STATE.players]
    for p in range(n):
        merch = 0
        for v in range(MERCHANT_VALUES):
            if game_state[STATE.hand + p] >> v & 1:
                merch += rulebook[RULES.merchant_coins + v]
        vis = 0
        tix = 0
        for x in range(VENUES):
            h = p * VENUES + x
            nt, nv = game_state[STATE.tickets_held + h], game_state[STATE.visitors_held + h]
            k = min(nt, nv)
            for i in range(k):
                tix += game_state[STATE.held_ticket_coins + h * MAX_HELD_ITEMS + i]
                vis += game_state[STATE.held_visitor_coins + h * MAX_HELD_ITEMS + i]
                j = h * MAX_HELD_ITEMS + i
                game_state[STATE.card_net_coins + game_state[STATE.held_ticket_card + j]] += game_state[STATE.held_ticket_coins + j]
                game_state[STATE.card_net_coins + game_state[STATE.held_visitor_card + j]] += game_state[STATE.held_visitor_coins + j]
            if x == game_state[STATE.caesar]:
                allow = rulebook[RULES.caesar_favour_tickets]
                for i in range(k, nv):
                    coin = game_state[STATE.held_visitor_coins + h * MAX_HELD_ITEMS + i]
                    t = BOOST if game_state[STATE.favours + p * FAVOUR_TYPES + BOOST] > 0 else DOUBLE
                    if game_state[STATE.favours + p * FAVOUR_TYPES + t] == 0:
                        t = GOLD
                    if allow == 0 or game_state[STATE.favours + p * FAVOUR_TYPES + t] == 0 or (t == GOLD and coin <= rulebook[RULES.gold_coins]):
                        break
                    allow -= 1
                    game_state[STATE.favours + p * FAVOUR_TYPES + t] -= 1
                    vis += coin
                    game_state[STATE.card_net_coins
                               + game_state[STATE.held_visitor_card + h * MAX_HELD_ITEMS + i]] += coin
                    log(game_log, EV_FAVOUR_TICKET, p, x, coin, t)
                    if game_stats[STATS.on] > 0:
                        game_stats[STATS.favours + t * 4 + 2] += 1
        gold_left = game_state[STATE.favours + p * FAVOUR_TYPES + GOLD]
        gold = gold_left * rulebook[RULES.gold_coins]
        for c in range(game_state[STATE.cards_played]):
            if (gold_left > 0 and game_state[STATE.card_owner + c] == p and game_state[STATE.card_row + c] == 0
                    and game_state[STATE.card_item + c] == GOLD):
                game_state[STATE.card_net_coins + c] += rulebook[RULES.gold_coins]
                gold_left -= 1
        cc = game_state[STATE.coin_cards + p] * rulebook[RULES.coin_card_value]
        day = merch + vis + tix + cc + gold
        game_state[STATE.score + p] += day
        o = log(game_log, EV_SCORE, p, merch, vis, tix, cc, gold, day)
        if o >= 0:
            game_log[o + 8] = game_state[STATE.score + p]
        if game_stats[STATS.on] > 0:
            comp = (merch, vis, tix, cc, gold)
            for j in range(SCORE_PARTS):
                game_stats[STATS.score_parts + (p * SCORE_PARTS + j) * 2] += comp[j]
                game_stats[STATS.score_parts + (p * SCORE_PARTS + j) * 2 + 1] += comp[j] * comp[j]
            for t in range(FAVOUR_TYPES):
                game_stats[STATS.favours + t * 4 + 3] += game_state[STATE.favours + p * FAVOUR_TYPES + t]
    if game_stats[STATS.on] > 0:
        game_stats[STATS.days] += 1
        for c in range(game_state[STATE.cards_played]):
            own = game_state[STATE.card_owner + c]
            b = STATS.bids + ((((game_state[STATE.policy + own] * MAX_PLAYERS + game_state[STATE.card_order + c]) * ROWS
                                + game_state[STATE.card_row + c]) * MERCHANT_VALUES
                               + game_state[STATE.card_value + c] - 1) * BIN_STATS)
            g = game_state[STATE.card_net_coins + c]
            game_stats[b] += 1
            game_stats[b + 1] += game_state[STATE.card_items + c] > 0
            game_stats[b + 2] += g
            game_stats[b + 3] += g * g


@no_refcount
def settle(t):
    """Run everything up to the next decision (``game_state[STATE.turn]`` to act) or the game end."""
    rulebook, game_state, game_log, game_stats = t.rulebook, t.game_state, t.game_log, t.game_stats
    n = game_state[STATE.players]
    while game_state[STATE.over] == 0:
        q = game_state[STATE.turn]
        for _ in range(n):
            if game_state[STATE.passed + q] == 0:
                if game_state[STATE.hand + q] != 0:
                    game_state[STATE.turn] = q
                    return
                game_state[STATE.passed + q] = 1
                log(game_log, EV_PASS, q, 1)
            q = q + 1 if q + 1 < n else 0
        resolve_phase(t)
        if game_state[STATE.phase] < 2:
            game_state[STATE.phase] += 1
            begin_phase(game_state, game_log)
        else:
            score_day(rulebook, game_state, game_log, game_stats)
            game_state[STATE.day] += 1
            if game_state[STATE.day] >= rulebook[RULES.days]:
                game_state[STATE.over] = 1
                return
            setup_day(rulebook, game_state, game_log, game_stats)


@no_refcount
def advance(t, a):
    """The acting seat plays ``a`` on pointers ``t``; then run on to the next decision."""
    game_state = t.game_state
    p = game_state[STATE.turn]
    apply_action(t.rulebook, game_state, p, a, t.game_log, t.game_stats)
    game_state[STATE.turn] = p + 1 if p + 1 < game_state[STATE.players] else 0
    settle(t)
