"""Game and day set-up on the flat state vector ``S`` (numba): the decks, the day's displays.

Also the small helpers every engine module shares: the event log, shuffling and sorted inserts.
"""

import numba as nb

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow
from caesar_sim.kernels.layout import (DISP, EV_CAESAR, EV_DAY, EV_FAVOURS_SHOWN, EV_PHASE, EV_REMOVE, EV_SHORT,
                                       EV_TICKET, EV_VISITOR, LOGW, NFT, NROW, NVAL, NVEN, RM_FAVOUR, RM_TICKET,
                                       RM_VISITOR, RULES, SHORT_TICKETS, SHORT_VISITORS, STATE, STATS)


@nb.njit(cache=True, inline="always")
def log(lg, ev, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    """Append an event row to log ``lg`` (row 0: count, capacity): ``ev``, then up to 8 values (the 8th,
    zero here, the caller writes at the returned offset + 8); returns the row's offset, -1 if the log
    is full or off (capacity 0)."""
    i = lg[0] + 1
    if i >= lg[1]:
        return -1
    lg[0] = i
    o = i * LOGW
    lg[o], lg[o + 1], lg[o + 2], lg[o + 3], lg[o + 4] = ev, a, b, c, d
    lg[o + 5], lg[o + 6], lg[o + 7], lg[o + 8] = e, f, g, 0
    return o


@no_refcount
def shuffle(S, off, n, rng):
    for i in range(n - 1, 0, -1):
        j = off + randbelow(rng, i + 1)
        t = S[off + i]
        S[off + i] = S[j]
        S[j] = t


@nb.njit(cache=True, inline="always")
def insert_desc(S, off, cnt, value, ooff=-1, origin=0):
    """Insert ``value`` into the descending list S[off:off+cnt] (origins alongside); return new count."""
    i = cnt
    while i > 0 and S[off + i - 1] < value:
        S[off + i] = S[off + i - 1]
        if ooff >= 0:
            S[ooff + i] = S[ooff + i - 1]
        i -= 1
    S[off + i] = value
    if ooff >= 0:
        S[ooff + i] = origin
    return cnt + 1


@no_refcount
def deal(R, S, rng, lg):
    """Build and shuffle the ticket, visitor and favour decks; the cards the rule set removes for
    this player count stay out (logged as EV_REMOVE)."""
    tpv = R[RULES.tickets_per_venue]
    k = 0
    for i in range(NVEN * tpv):  # cards the rule set removes for this player count stay out
        if R[RULES.removed_tickets] >> i & 1:
            log(lg, EV_REMOVE, RM_TICKET, i // tpv, R[RULES.ticket_coins + i % tpv])
        else:
            S[STATE.ticket_deck + k] = i
            k += 1
    S[STATE.tickets_dealt] = k
    k = 0
    for i in range(R[RULES.visitor_cards] + (1 if R[RULES.caesar] else 0)):
        if i < R[RULES.visitor_cards] and R[RULES.removed_visitors] >> i & 1:
            log(lg, EV_REMOVE, RM_VISITOR, 0, R[RULES.visitor_coins + i])
        else:
            S[STATE.visitor_deck + k] = i
            k += 1
    S[STATE.visitors_dealt] = k
    k = 0
    for t in range(NFT):
        for j in range(R[RULES.favour_counts + t]):
            if j < R[RULES.removed_favours + t]:
                log(lg, EV_REMOVE, RM_FAVOUR, t)
            else:
                S[STATE.favour_deck + k] = t
                k += 1
    S[STATE.favours_dealt] = k
    shuffle(S, STATE.ticket_deck, S[STATE.tickets_dealt], rng)
    shuffle(S, STATE.visitor_deck, S[STATE.visitors_dealt], rng)
    shuffle(S, STATE.favour_deck, S[STATE.favours_dealt], rng)


@no_refcount
def lay_visitor(R, S, x, lg):
    """Lay the next visitor card beside venue ``x`` (the Caesar card brings extra ones); return how
    many visitor cards were due but missing (the deck ran out)."""
    todo = 1
    while todo > 0 and S[STATE.next_visitor] < S[STATE.visitors_dealt]:
        todo -= 1
        c = S[STATE.visitor_deck + S[STATE.next_visitor]]
        S[STATE.next_visitor] += 1
        if c == R[RULES.visitor_cards]:
            S[STATE.caesar] = x
            todo += R[RULES.caesar_extra_visitors]
            log(lg, EV_CAESAR, x)
        else:
            coin = R[RULES.visitor_coins + c]
            S[STATE.visitors_shown + x] = insert_desc(S, STATE.visitor_coins + x * DISP, S[STATE.visitors_shown + x],
                                                      coin)
            log(lg, EV_VISITOR, x, coin)
    return todo


@no_refcount
def draw_ticket(R, S, lg, special):
    """Lay the next ticket on the forum display; its venue, or -1 if the deck is empty."""
    if S[STATE.next_ticket] >= S[STATE.tickets_dealt] or S[STATE.tickets_shown] >= DISP:
        return -1
    tid = S[STATE.ticket_deck + S[STATE.next_ticket]]
    S[STATE.next_ticket] += 1
    x, coin = tid // R[RULES.tickets_per_venue], R[RULES.ticket_coins + tid % R[RULES.tickets_per_venue]]
    S[STATE.ticket_venue + S[STATE.tickets_shown]] = x
    S[STATE.ticket_coins + S[STATE.tickets_shown]] = coin
    S[STATE.tickets_shown] += 1
    log(lg, EV_TICKET, x, coin, special)
    return x


@no_refcount
def setup_day(R, S, lg, st):
    """Clear the day's state and lay favours, tickets, visitors and special events.

    A deck that runs out leaves the day with what is left: logged (EV_SHORT, cards missing) and
    counted in ``st`` (days short of tickets, of visitors, of either).
    """
    n, d = S[STATE.players], S[STATE.day]
    for p in range(n):
        S[STATE.hand + p] = (1 << NVAL) - 1
        S[STATE.coin_cards + p] = 0
        for t in range(NFT):
            S[STATE.favours + p * NFT + t] = 0
        for x in range(NVEN):
            S[STATE.tickets_held + p * NVEN + x] = 0
            S[STATE.visitors_held + p * NVEN + x] = 0
    for t in range(NFT):
        S[STATE.favours_shown + t] = 0
    for x in range(NVEN):
        S[STATE.visitors_shown + x] = 0
        S[STATE.specials + x] = 0
    S[STATE.tickets_shown] = 0
    S[STATE.caesar] = -1
    S[STATE.cards_played] = 0
    S[STATE.start_card_shown] = 1
    S[STATE.phase] = 0
    log(lg, EV_DAY, d, S[STATE.start])
    if R[RULES.gift_type] >= 0:
        S[STATE.favours + R[RULES.gift_seat] * NFT + R[RULES.gift_type]] += 1
    for _ in range(n):
        if S[STATE.next_favour] < S[STATE.favours_dealt]:
            S[STATE.favours_shown + S[STATE.favour_deck + S[STATE.next_favour]]] += 1
            S[STATE.next_favour] += 1
    log(lg, EV_FAVOURS_SHOWN, S[STATE.favours_shown], S[STATE.favours_shown + 1], S[STATE.favours_shown + 2])
    miss_t, miss_v = 0, 0
    for _ in range(R[RULES.tickets_per_day]):
        miss_t += draw_ticket(R, S, lg, 0) < 0
    for x in range(NVEN):
        cnt = 0
        for i in range(S[STATE.tickets_shown]):
            cnt += S[STATE.ticket_venue + i] == x
        for _ in range(cnt - 1):
            miss_v += lay_visitor(R, S, x, lg)
    for _ in range(R[RULES.special_tickets + d]):
        x = draw_ticket(R, S, lg, 1)
        if x >= 0:
            S[STATE.specials + x] += 1
            miss_v += lay_visitor(R, S, x, lg)
        else:
            miss_t += 1
    if miss_t > 0:
        log(lg, EV_SHORT, SHORT_TICKETS, miss_t)
    if miss_v > 0:
        log(lg, EV_SHORT, SHORT_VISITORS, miss_v)
    if st[STATS.on] > 0:
        st[STATS.short] += miss_t > 0
        st[STATS.short + 1] += miss_v > 0
        st[STATS.short + 2] += (miss_t > 0) | (miss_v > 0)
    begin_phase(S, lg)


@no_refcount
def begin_phase(S, lg):
    for p in range(S[STATE.players]):
        S[STATE.passed + p] = 0
    for r in range(NROW):
        S[STATE.row_cards + r] = 0
    S[STATE.turn] = S[STATE.start]
    log(lg, EV_PHASE, S[STATE.day], S[STATE.phase], S[STATE.start])
