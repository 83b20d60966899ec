"""Game and day set-up on the flat state vector ``game_state`` (numba): the decks, the day's displays.

Also the small helpers every engine module shares: the event log, shuffling and sorted inserts.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow
from caesar_sim.kernels.layout import (EV_CAESAR, EV_DAY, EV_FAVOURS_SHOWN, EV_PHASE, EV_REMOVE, EV_SHORT, EV_TICKET,
                                       EV_VISITOR, FAVOUR_TYPES, LOG_FIELDS, MAX_DISPLAY_ITEMS, MERCHANT_VALUES,
                                       RM_FAVOUR, RM_TICKET, RM_VISITOR, ROWS, RULES, SHORT_TICKETS, SHORT_VISITORS,
                                       STATE, STATS, VENUES)


@nb.njit(cache=True, inline="always")
def log(game_log, ev, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    """Append an event row to log ``game_log`` (row 0: count, capacity): ``ev``, then up to 8 values (the 8th,
    zero here, the caller writes at the returned offset + 8); returns the row's offset, -1 if the log
    is full or off (capacity 0)."""
    i = game_log[0] + 1
    if i >= game_log[1]:
        return -1
    game_log[0] = i
    o = i * LOG_FIELDS
    game_log[o], game_log[o + 1], game_log[o + 2], game_log[o + 3], game_log[o + 4] = ev, a, b, c, d
    game_log[o + 5], game_log[o + 6], game_log[o + 7], game_log[o + 8] = e, f, g, 0
    return o


@no_refcount
def shuffle(game_state, off, n, rng):
    for i in range(n - 1, 0, -1):
        j = off + randbelow(rng, i + 1)
        t = game_state[off + i]
        game_state[off + i] = game_state[j]
        game_state[j] = t


@nb.njit(cache=True, inline="always")
def insert_desc(game_state, off, cnt, value, ooff=-1, origin=0):
    """Insert ``value`` into the descending list game_state[off:off+cnt] (origins alongside); return new count."""
    i = cnt
    while i > 0 and game_state[off + i - 1] < value:
        game_state[off + i] = game_state[off + i - 1]
        if ooff >= 0:
            game_state[ooff + i] = game_state[ooff + i - 1]
        i -= 1
    game_state[off + i] = value
    if ooff >= 0:
        game_state[ooff + i] = origin
    return cnt + 1


@no_refcount
def deal(rulebook, game_state, rng, game_log):
    """Build and shuffle the ticket, visitor and favour decks; the cards the rule set removes for
    this player count stay out (logged as EV_REMOVE)."""
    tpv = rulebook[RULES.tickets_per_venue]
    k = 0
    for i in range(VENUES * tpv):  # cards the rule set removes for this player count stay out
        if rulebook[RULES.removed_tickets] >> i & 1:
            log(game_log, EV_REMOVE, RM_TICKET, i // tpv, rulebook[RULES.ticket_coins + i % tpv])
        else:
            game_state[STATE.ticket_deck + k] = i
            k += 1
    game_state[STATE.tickets_dealt] = k
    k = 0
    for i in range(rulebook[RULES.visitor_cards] + (1 if rulebook[RULES.caesar] else 0)):
        if i < rulebook[RULES.visitor_cards] and rulebook[RULES.removed_visitors] >> i & 1:
            log(game_log, EV_REMOVE, RM_VISITOR, 0, rulebook[RULES.visitor_coins + i])
        else:
            game_state[STATE.visitor_deck + k] = i
            k += 1
    game_state[STATE.visitors_dealt] = k
    k = 0
    for t in range(FAVOUR_TYPES):
        for j in range(rulebook[RULES.favour_counts + t]):
            if j < rulebook[RULES.removed_favours + t]:
                log(game_log, EV_REMOVE, RM_FAVOUR, t)
            else:
                game_state[STATE.favour_deck + k] = t
                k += 1
    game_state[STATE.favours_dealt] = k
    shuffle(game_state, STATE.ticket_deck, game_state[STATE.tickets_dealt], rng)
    shuffle(game_state, STATE.visitor_deck, game_state[STATE.visitors_dealt], rng)
    shuffle(game_state, STATE.favour_deck, game_state[STATE.favours_dealt], rng)


@no_refcount
def lay_visitor(rulebook, game_state, x, game_log):
    """Lay the next visitor card beside venue ``x`` (the Caesar card brings extra ones); return how
    many visitor cards were due but missing (the deck ran out)."""
    todo = 1
    while todo > 0 and game_state[STATE.next_visitor] < game_state[STATE.visitors_dealt]:
        todo -= 1
        c = game_state[STATE.visitor_deck + game_state[STATE.next_visitor]]
        game_state[STATE.next_visitor] += 1
        if c == rulebook[RULES.visitor_cards]:
            game_state[STATE.caesar] = x
            todo += rulebook[RULES.caesar_extra_visitors]
            log(game_log, EV_CAESAR, x)
        else:
            coin = rulebook[RULES.visitor_coins + c]
            game_state[STATE.visitors_shown + x] = insert_desc(game_state, STATE.visitor_coins + x * MAX_DISPLAY_ITEMS,
                                                               game_state[STATE.visitors_shown + x],
                                                      coin)
            log(game_log, EV_VISITOR, x, coin)
    return todo


@no_refcount
def draw_ticket(rulebook, game_state, game_log, special):
    """Lay the next ticket on the forum display; its venue, or -1 if the deck is empty."""
    if (game_state[STATE.next_ticket] >= game_state[STATE.tickets_dealt]
            or game_state[STATE.tickets_shown] >= MAX_DISPLAY_ITEMS):
        return -1
    tid = game_state[STATE.ticket_deck + game_state[STATE.next_ticket]]
    game_state[STATE.next_ticket] += 1
    x, coin = tid // rulebook[RULES.tickets_per_venue], rulebook[RULES.ticket_coins + tid % rulebook[RULES.tickets_per_venue]]
    game_state[STATE.ticket_venue + game_state[STATE.tickets_shown]] = x
    game_state[STATE.ticket_coins + game_state[STATE.tickets_shown]] = coin
    game_state[STATE.tickets_shown] += 1
    log(game_log, EV_TICKET, x, coin, special)
    return x


@no_refcount
def setup_day(rulebook, game_state, game_log, game_stats):
    """Clear the day's state and lay favours, tickets, visitors and special events.

    A deck that runs out leaves the day with what is left: logged (EV_SHORT, cards missing) and
    counted in ``game_stats`` (days short of tickets, of visitors, of either).
    """
    n, d = game_state[STATE.players], game_state[STATE.day]
    for p in range(n):
        game_state[STATE.hand + p] = (1 << MERCHANT_VALUES) - 1
        game_state[STATE.coin_cards + p] = 0
        for t in range(FAVOUR_TYPES):
            game_state[STATE.favours + p * FAVOUR_TYPES + t] = 0
        for x in range(VENUES):
            game_state[STATE.tickets_held + p * VENUES + x] = 0
            game_state[STATE.visitors_held + p * VENUES + x] = 0
    for t in range(FAVOUR_TYPES):
        game_state[STATE.favours_shown + t] = 0
    for x in range(VENUES):
        game_state[STATE.visitors_shown + x] = 0
        game_state[STATE.specials + x] = 0
    game_state[STATE.tickets_shown] = 0
    game_state[STATE.caesar] = -1
    game_state[STATE.cards_played] = 0
    game_state[STATE.start_card_shown] = 1
    game_state[STATE.phase] = 0
    log(game_log, EV_DAY, d, game_state[STATE.start])
    if rulebook[RULES.gift_type] >= 0:
        game_state[STATE.favours + rulebook[RULES.gift_seat] * FAVOUR_TYPES + rulebook[RULES.gift_type]] += 1
    for _ in range(n):
        if game_state[STATE.next_favour] < game_state[STATE.favours_dealt]:
            game_state[STATE.favours_shown + game_state[STATE.favour_deck + game_state[STATE.next_favour]]] += 1
            game_state[STATE.next_favour] += 1
    log(game_log, EV_FAVOURS_SHOWN, game_state[STATE.favours_shown], game_state[STATE.favours_shown + 1],
        game_state[STATE.favours_shown + 2])
    miss_t, miss_v = 0, 0
    for _ in range(rulebook[RULES.tickets_per_day]):
        miss_t += draw_ticket(rulebook, game_state, game_log, np.int64(0)) < 0
    for x in range(VENUES):
        cnt = 0
        for i in range(game_state[STATE.tickets_shown]):
            cnt += game_state[STATE.ticket_venue + i] == x
        for _ in range(cnt - 1):
            miss_v += lay_visitor(rulebook, game_state, x, game_log)
    for _ in range(rulebook[RULES.special_tickets + d]):
        x = draw_ticket(rulebook, game_state, game_log, np.int64(1))
        if x >= 0:
            game_state[STATE.specials + x] += 1
            miss_v += lay_visitor(rulebook, game_state, x, game_log)
        else:
            miss_t += 1
    if miss_t > 0:
        log(game_log, EV_SHORT, SHORT_TICKETS, miss_t)
    if miss_v > 0:
        log(game_log, EV_SHORT, SHORT_VISITORS, miss_v)
    if game_stats[STATS.on] > 0:
        game_stats[STATS.short] += miss_t > 0
        game_stats[STATS.short + 1] += miss_v > 0
        game_stats[STATS.short + 2] += (miss_t > 0) | (miss_v > 0)
    begin_phase(game_state, game_log)


@no_refcount
def begin_phase(game_state, game_log):
    for p in range(game_state[STATE.players]):
        game_state[STATE.passed + p] = 0
    for r in range(ROWS):
        game_state[STATE.row_cards + r] = 0
    game_state[STATE.turn] = game_state[STATE.start]
    log(game_log, EV_PHASE, game_state[STATE.day], game_state[STATE.phase], game_state[STATE.start])
