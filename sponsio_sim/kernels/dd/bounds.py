"""Double-dummy bounds: deciding a node without searching it.

Sure tricks (``quick_tricks`` of one seat, ``side_quick_tricks`` of the side
on lead, ``tops_against`` of the side not on lead), the ``sweep_bound`` of a
side that needs every trick left, the ``last_trick`` and, inside a trick,
``trick_decides``. Each returns the cards its argument rests on: the
winning ranks that ``dd.tt`` generalises a result with.
"""

import numba as nb

from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import COLOUR, FAIL, FIRST, LAST, NINES, TRICKS
from sponsio_sim.kernels.bits import RANKS, U0, bit, highest, lowest, popcount
from sponsio_sim.kernels.dd.context import TrickSoFar
from sponsio_sim.kernels.dd.core import F_BEST, F_BEST_SEAT, F_LED, F_POS, F_SEAT, F_TRICKS_DONE, U_TMASK, side_tricks
from sponsio_sim.kernels.dd.tt import NO, UNKNOWN, YES


@nb.njit(cache=True, inline="always")
def quick_tricks(hands, seat, hand, in_play, colmask):
    """(tricks seat ``seat`` takes for sure by cashing the cards ``hand``,
    those cards): in each colour, its cards that are the highest still in
    play, one after another; and the rest of the colour too once every
    other seat's cards of it in play are gone by then (length tricks).
    Discards by others only make them safer, and the seat keeps the lead."""
    q = 0
    w = U0
    for col in range(colmask.shape[0]):
        m = in_play & colmask[col]
        k = 0
        while m != U0:
            h = highest(m)
            if (hand & bit(h)) == U0:
                break
            k += 1
            w |= bit(h)
            m &= ~bit(h)
        rest = hand & m
        if k > 0 and rest != U0:
            longest = 0
            for t in range(hands.shape[0]):
                if t != seat:
                    longest = max(longest, popcount(hands[t] & m))
            if longest <= k:
                k += popcount(rest)
        q += k
    return q, w


@no_refcount
def side_quick_tricks(hands, players, leader, side, in_play, colmask):
    """(sure tricks of the leader's side, the cards they rest on): the most
    of three lines. The leader cashes its own top cards. Or, for a colour
    whose top card another seat of ``side`` holds, the leader leads its
    lowest card of it there and that seat cashes its own top cards after the
    trick. Or the leader cashes first and crosses after; the partner then
    counts only top cards of colours the leader did not cash (it may have had
    to follow there) and keeps enough cards for them and the entry through
    the leader's tricks (all hands are the same size here)."""
    n_col = colmask.shape[0]
    q0, w0 = quick_tricks(hands, leader, hands[leader], in_play, colmask)
    q = q0
    w = w0
    cashed = U0
    for col in range(n_col):
        if (w0 & colmask[col]) != U0:
            cashed |= colmask[col]
    left = popcount(hands[leader])
    for col in range(n_col):
        mine = hands[leader] & colmask[col]
        m = in_play & colmask[col]
        if mine == U0 or (mine & bit(highest(m))) != U0:
            continue
        top = bit(highest(m))
        entry = bit(lowest(mine))
        for p in range(players):
            if p != leader and (side >> p) & 1 and (hands[p] & top) != U0:
                q2, w2 = quick_tricks(hands, p, hands[p] & ~top, in_play & ~top & ~entry, colmask)
                if q2 + 1 > q:
                    q = q2 + 1
                    w = w2 | top
                if q0 > 0:
                    q3, w3 = quick_tricks(hands, p, hands[p] & ~top & ~cashed, in_play & ~top & ~entry & ~w0,
                                          colmask)
                    q3 = min(q3, left - q0 - 1)
                    if q0 + 1 + q3 > q:
                        q = q0 + 1 + q3
                        w = w0 | top | w3
    return q, w


@no_refcount
def tops_against(hands, players, leader, side, in_play, colmask):
    """(sure tricks of the seats outside ``side``, the leader's side, from
    this trick on; the cards they rest on). If they hold the top card in
    play of every colour the leader holds, they can win this trick whatever
    is led, and the seat that wins it can then cash its own top cards: the
    fewest over the colours the leader may lead, plus one. Else 0."""
    n_col = colmask.shape[0]
    q = 99
    w = U0
    for col in range(n_col):
        if hands[leader] & colmask[col] == U0:
            continue
        top = bit(highest(in_play & colmask[col]))
        holder = -1
        for t in range(players):
            if not (side >> t) & 1 and (hands[t] & top) != U0:
                holder = t
        if holder < 0:
            return 0, U0
        k, wk = quick_tricks(hands, holder, hands[holder] & ~top, in_play & ~top, colmask)
        q = min(q, 1 + k)
        w |= top | wk
    return (q, w) if q < 99 else (0, U0)


@no_refcount
def sweep_bound(hands, players, side, in_play, colmask):
    """(most tricks ``side`` can take if it must take every trick left, the
    cards that bound rests on). Taking them all, it leads every trick, and it
    loses any trick in a colour whose top card the others hold; so it can
    only run the colours whose top card it holds, each as many rounds as
    its longest holding of it (the others' top cards: the winning ranks)."""
    total = 0
    w = U0
    for col in range(colmask.shape[0]):
        m = in_play & colmask[col]
        if m == U0:
            continue
        top = bit(highest(m))
        longest = 0
        mine = False
        for t in range(players):
            if (side >> t) & 1:
                longest = max(longest, popcount(hands[t] & m))
                if (hands[t] & top) != U0:
                    mine = True
        if mine:
            total += longest
        else:
            w |= top
    return total, w


@nb.njit(cache=True, inline="always")
def last_trick(hands, players, leader):
    """(winner, winning ranks) of a trick where every seat holds one card."""
    best = lowest(hands[leader])
    win = leader
    same = 0
    for t in range(players):
        c = lowest(hands[t])
        if c // RANKS == best // RANKS:
            same += 1
            if c > best:
                best = c
                win = t
    return win, (bit(best) if same > 1 else U0)


@nb.njit(cache=True, inline="always")
def trick_decides(d, hands, players, colmask, target, coalition, plies, tally):
    """Mid-trick bound for a coalition goal: (YES or NO, winning ranks) if
    the trick under way and the sure tricks after it settle it, else
    (UNKNOWN, 0). The trick goes to the side holding the highest card of
    the led colour among the current top card and the hands still to play;
    the seat that wins it leads next and cashes its own top cards (counted
    in second hand only: elsewhere it costs more time than it saves)."""
    s = plies[d, F_SEAT]
    tricks_done = plies[d, F_TRICKS_DONE]
    need = target - side_tricks(tally[tricks_done], coalition, players)
    left = popcount(hands[s])
    pos = plies[d, F_POS]
    if pos != 1 and need != 1 and need != left:
        return UNKNOWN, U0
    cm = colmask[plies[d, F_LED]]
    top = plies[d, F_BEST]
    holder = plies[d, F_BEST_SEAT]
    t = s
    for _ in range(players - pos):
        c = hands[t] & cm
        if c != U0 and highest(c) > top:
            top = highest(c)
            holder = t
        t += 1
        if t == players:
            t = 0
    ours = (coalition >> holder) & 1
    if ours and need == 1:
        return YES, bit(top)
    if not ours and need == left:
        return NO, bit(top)
    if pos != 1:
        return UNKNOWN, U0
    in_play = U0
    for t in range(players):
        in_play |= hands[t]
    q, w = quick_tricks(hands, holder, hands[holder] & ~bit(top), in_play & ~bit(top), colmask)
    if ours and 1 + q >= need:
        return YES, w | bit(top)
    if not ours and left - 1 - q < need:
        return NO, w | bit(top)
    return UNKNOWN, U0


@nb.njit(cache=True, inline="always")
def bet_room(codes, bcounts, ask, row, players, n_col):
    """How much more the seat alone may win without failing a bet outright:
    (tricks, colour of its colour bet or -1, cards of that colour); 99 when
    no bet limits it. A counter past its bet's number never comes back."""
    tr = 99
    col = -1
    cr = 99
    for i in range(bcounts[ask]):
        kind = codes[ask, i, 0]
        if kind == TRICKS:
            tr = min(tr, codes[ask, i, 1] - row[ask])
        elif kind == COLOUR:
            if col < 0:
                col = codes[ask, i, 1]
                cr = codes[ask, i, 2] - row[players + ask * n_col + col]
        elif kind == LAST or kind == NINES or kind == FAIL or kind == FIRST:   # no room of their own
            continue
        else:
            raise ValueError("unknown bet kind")
    return tr, col, cr


@nb.njit(cache=True, inline="always")
def forced_win(hands, colmask, ask, room, trick):
    """Can the seats other than ``ask`` make ``ask`` win the ``trick``
    under way (a ``dd.context.TrickSoFar``), and does that trick break the
    seat's ``room`` (``bet_room``: tricks ``tr``, colour ``col``, its cards
    ``cr``)? Every other seat plays its lowest card of the led colour, or,
    void, discards a card of colour ``col`` if it holds one; the seat wins
    whatever it plays when its lowest card of the led colour (or its card
    already played) beats every card the others play. Returns (True or
    False, that card of the seat): the winning rank the answer rests on
    (the holding lengths, in the table's key, tell which seats hold a card
    below it and which are void)."""
    players = hands.shape[0]
    led, top, top_seat, next_seat, to_play, cards = trick
    tr, col, cr = room
    cm = colmask[led]
    if (ask - next_seat) % players < to_play:
        mine = hands[ask] & cm
        if mine == U0 or top > lowest(mine):
            return False, -1
        bar = lowest(mine)
    elif top_seat == ask:
        bar = top
    else:
        return False, -1
    m = popcount(cards & colmask[col]) if col >= 0 else 0
    t = next_seat
    for _ in range(to_play):
        h = hands[t] & cm
        if t == ask:
            if led == col:
                m += 1
        else:
            if h != U0 and lowest(h) > bar:
                return False, -1
            if col >= 0 and (hands[t] & colmask[col]) != U0 and (led == col or h == U0):
                m += 1
        t += 1
        if t == players:
            t = 0
    return tr < 1 or m > cr, bar


@no_refcount
def forced_lead(hands, players, leader, colmask, codes, bcounts, ask, row):
    """Trick-boundary bound for the bets of seat ``ask`` alone against every
    other seat: (NO, the cards it rests on) when the others can make the
    seat win this trick in a way that breaks one of its bets (``forced_win``)
    whatever the leader leads, else (UNKNOWN, 0). The seat on lead: for
    every colour it holds; another seat on lead: for some colour both hold.
    The winning ranks: the seat's lowest card of each colour used."""
    n_col = colmask.shape[0]
    room = bet_room(codes, bcounts, ask, row, players, n_col)
    if room[0] >= 1 and room[2] >= players:
        return UNKNOWN, U0
    w = U0
    for x in range(n_col):
        cm = colmask[x]
        if (hands[leader] & cm) == U0:
            continue
        if leader != ask and (hands[ask] & cm) == U0:
            continue
        f, bar = forced_win(hands, colmask, ask, room, TrickSoFar(x, -1, -1, leader, players, U0))
        if leader == ask:
            if not f:
                return UNKNOWN, U0
            w |= bit(bar)
        elif f:
            return NO, bit(bar)
    return (NO, w) if leader == ask else (UNKNOWN, U0)


@nb.njit(cache=True, inline="always")
def bet_trick_decides(d, hands, players, colmask, codes, bcounts, ask, plies, ply_cards, tally):
    """Mid-trick bound for the bets of seat ``ask`` alone: (NO, its winning
    rank) when the others can make the seat win the trick under way in a
    way that breaks one of its bets (``forced_win``), else (UNKNOWN, 0)."""
    n_col = colmask.shape[0]
    room = bet_room(codes, bcounts, ask, tally[plies[d, F_TRICKS_DONE]], players, n_col)
    if room[0] >= 1 and room[2] >= players:
        return UNKNOWN, U0
    trick = TrickSoFar(plies[d, F_LED], plies[d, F_BEST], plies[d, F_BEST_SEAT], plies[d, F_SEAT],
                       players - plies[d, F_POS], ply_cards[d, U_TMASK])
    f, bar = forced_win(hands, colmask, ask, room, trick)
    if f:
        return NO, bit(bar)
    return UNKNOWN, U0
