"""Double-dummy solver building blocks: workspace layout, keys, bounds, goals.

The search itself is in ``dd_search``; this module holds what it calls at
trick boundaries and when it generates moves. Everything is scalar or plain
arrays (numba only).

Workspace (one per thread, reused across solves):
- ``PL[d, F_*]`` int64 per ply: who moves, trick state, the move list;
- ``PU[d, U_*]`` uint64 per ply: cards in the current trick, the winning
  ranks gathered so far, the position words of a trick boundary;
- ``CT[t, :]`` int64 per completed-trick count ``t``: tricks per seat,
  captured cards per seat and colour, nines-ok flag, last trick's winner;
- ``TT``: the transposition table of ``dd_tt`` (winning ranks, relative
  ranks). An entry is live only under the caller's current ``stamp``, so no
  clearing between solves is needed. Its move hint is the last move that
  decided the node (colour x 9 + relative rank + 1, 0 for none), tried
  first when the position comes back.

Two extra key words carry the leader and, for bet goals, the accumulated
state those bets still depend on (``bet_extra_keys``).
"""

import numba as nb
import numpy as np

from sponsio_sim.kernels.bets import COLOUR, FAIL, LAST, NINES, TRICKS
from sponsio_sim.kernels.bits import RANKS, U0, U1, bit, highest, lowest, popcount
from sponsio_sim.kernels.dd_tt import MAX_PLAYERS, NO, U_REL0, UNKNOWN, YES, new_table

# Search modes.
MODE_TRICKS, MODE_BET = 0, 1
# Kleene three-valued logic for goal bounds: NO, YES, UNKNOWN (from dd_tt).
MAX_MOVES = 18                 # a hand holds at most 36 / 2 cards
# Per-ply int fields.
F_SEAT, F_POS, F_LEADER, F_BEST, F_BSEAT, F_LED, F_TN, F_NMOV, F_IMOV, F_SLOT, F_NEED, F_ISOR, \
    F_EXPANDED, F_HINT = range(14)
F_MOV0 = 14
F_SC0 = F_MOV0 + MAX_MOVES
N_FIELDS = F_SC0 + MAX_MOVES
# Per-ply uint64 fields: trick mask, winning ranks so far, the position
# words the transposition table reads (``dd_tt``), then the moves found
# equivalent to one already tried (``dd_moves.skip_small``).
U_TMASK, U_WR = 0, 1
U_SKIP = U_REL0 + MAX_PLAYERS
N_UFIELDS = U_SKIP + 1
TT_BITS = 16


@nb.njit(cache=True)
def ct_layout(players, n_colours):
    """Column offsets in a ``CT`` row: (captured, nines_ok, last, width)."""
    cc = players
    nok = cc + players * n_colours
    return cc, nok, nok + 1, nok + 2


@nb.njit(cache=True)
def new_workspace(players, n_colours, max_cards, tt_bits):
    """Arrays for one thread's solves (see module docstring)."""
    plies = max_cards + 2
    width = ct_layout(players, n_colours)[3]
    PL = np.zeros((plies, N_FIELDS), dtype=np.int64)
    PU = np.zeros((plies, N_UFIELDS), dtype=np.uint64)
    CT = np.zeros((max_cards // max(players, 1) + 2, width), dtype=np.int64)
    return PL, PU, CT, new_table(players, tt_bits)


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


@nb.njit(cache=True, _nrt=False)
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


@nb.njit(cache=True, _nrt=False)
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


@nb.njit(cache=True, _nrt=False)
def sweep_bound(hands, players, side, in_play, colmask):
    """(most tricks ``side`` can take if it must take every trick left, the
    cards that rests on). Taking them all, it leads every trick, and it
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
def rel_move(c, in_play):
    """A card as colour x 9 + its rank among the colour's cards in play, + 1."""
    base = (c // RANKS) * RANKS
    return base + popcount(in_play & (bit(c) - U1) & ~(bit(base) - U1)) + 1


@nb.njit(cache=True, inline="always")
def abs_move(move, hand, in_play):
    """The card of ``hand`` that ``rel_move`` encoded as ``move`` (-1: none)."""
    if move == 0:
        return -1
    base = ((move - 1) // RANKS) * RANKS
    k = move - 1 - base
    m = in_play & (np.uint64(0x1FF) << np.uint64(base))
    for _ in range(k):
        if m == U0:
            return -1
        m &= m - U1
    if m == U0:
        return -1
    c = lowest(m)
    return c if (hand & bit(c)) != U0 else -1


@nb.njit(cache=True, inline="always")
def _not3(v):
    return v if v == UNKNOWN else 1 - v


@nb.njit(cache=True, inline="always")
def _or3(a, b):
    if a == YES or b == YES:
        return YES
    if a == NO and b == NO:
        return NO
    return UNKNOWN


@nb.njit(cache=True, inline="always")
def _and3(a, b):
    """Kleene AND, by De Morgan from ``_or3``."""
    return _not3(_or3(_not3(a), _not3(b)))


@nb.njit(cache=True, inline="always")
def _atom3(kind, a, b, s, row, players, n_colours, left, in_play, colmask, nines):
    """Can a plain bet of seat s still succeed / fail, ``left`` tricks to go?"""
    if kind == TRICKS:
        t = row[s]
        if t > a or t + left < a:
            return NO
        return YES if left == 0 else UNKNOWN
    if kind == COLOUR:
        k = row[players + s * n_colours + a]
        rest = popcount(in_play & colmask[a])
        if k > b or k + rest < b:
            return NO
        return YES if rest == 0 else UNKNOWN
    if kind == LAST:
        if left == 0:
            return YES if row[players + players * n_colours + 1] == s else NO
        return UNKNOWN
    if row[players + players * n_colours] == 0:
        return NO
    return YES if (in_play & nines) == U0 else UNKNOWN


@nb.njit(cache=True, inline="always")
def _clash(codes, bcounts, s, row, left, my_nines):
    """Seat s bets on exactly a tricks and cannot win all its bets any more:
    a ``last`` bet wins one more trick, a ``nines`` bet one more per 9 the
    seat still holds (each 9 must win its own trick; a 9 may win the last)."""
    a = -1
    more = 0
    for i in range(bcounts[s]):
        kind = codes[s, i, 0]
        if kind == TRICKS:
            a = codes[s, i, 1]
        elif kind == LAST and left > 0:
            more = max(more, 1)
        elif kind == NINES:
            more = max(more, my_nines)
    return a >= 0 and row[s] + more > a


@nb.njit(cache=True, _nrt=False)
def goal3(codes, bcounts, ask, any_fail, row, players, n_colours, left, hands, in_play, colmask, nines,
          res3, fail3):
    """Does seat ``ask`` win all its bets: YES, NO or UNKNOWN yet.

    Kleene evaluation of exactly the computation in ``kernels.bets.settle``
    (fail chains unrolled to ``players`` passes), on partial results: a
    definite answer holds for every way the remaining tricks can go. Bets
    that each could still succeed but not together count as failed
    (``_clash``).
    """
    if bcounts[ask] == 0:
        return NO
    if not any_fail:
        if _clash(codes, bcounts, ask, row, left, popcount(hands[ask] & nines)):
            return NO
        v = YES
        for i in range(bcounts[ask]):
            v = _and3(v, _atom3(codes[ask, i, 0], codes[ask, i, 1], codes[ask, i, 2], ask, row,
                                players, n_colours, left, in_play, colmask, nines))
            if v == NO:
                return NO
        return v
    for s in range(players):
        f = NO
        for i in range(bcounts[s]):
            if codes[s, i, 0] == FAIL:
                res3[s, i] = NO
                continue
            v = _atom3(codes[s, i, 0], codes[s, i, 1], codes[s, i, 2], s, row, players, n_colours,
                       left, in_play, colmask, nines)
            res3[s, i] = v
            f = _or3(f, _not3(v))
        fail3[s] = YES if _clash(codes, bcounts, s, row, left, popcount(hands[s] & nines)) else f
    for _ in range(players):
        for s in range(players):
            for i in range(bcounts[s]):
                if codes[s, i, 0] == FAIL:
                    t = codes[s, i, 1]
                    res3[s, i] = _and3(YES if bcounts[t] > 0 else NO, fail3[t])
        for s in range(players):
            f = NO
            for i in range(bcounts[s]):
                f = _or3(f, _not3(res3[s, i]))
            fail3[s] = YES if _clash(codes, bcounts, s, row, left, popcount(hands[s] & nines)) else f
    return _not3(fail3[ask])


@nb.njit(cache=True)
def relevant_seats(codes, bcounts, ask):
    """Seats whose bets decide ``ask``'s: ask and, through fail bets, their targets."""
    rel = np.int64(1) << ask
    for _ in range(bcounts.shape[0]):
        for s in range(bcounts.shape[0]):
            if (rel >> s) & 1:
                for i in range(bcounts[s]):
                    if codes[s, i, 0] == FAIL:
                        rel |= np.int64(1) << codes[s, i, 1]
    return rel


@nb.njit(cache=True, _nrt=False)
def bet_extra_keys(codes, bcounts, relseats, row, players, n_colours, leader, in_play, nines,
                   nines_sens):
    """Key words for the accumulated state the relevant bets still depend on:
    each counter clamped just above its target, the nines flag and which 9s
    are still in play (relative ranks hide which top card is a 9)."""
    x1 = np.uint64(leader)
    if nines_sens:
        x1 |= np.uint64(row[players + players * n_colours]) << np.uint64(3)
        x1 |= (in_play & nines) << np.uint64(4)
    x2 = U0
    sh = 0
    for s in range(players):
        if (relseats >> s) & 1:
            for i in range(bcounts[s]):
                kind = codes[s, i, 0]
                if kind == TRICKS:
                    v = min(row[s], codes[s, i, 1] + 1)
                elif kind == COLOUR:
                    v = min(row[players + s * n_colours + codes[s, i, 1]], codes[s, i, 2] + 1)
                else:
                    continue
                x2 |= np.uint64(v) << np.uint64(sh)
                sh += 5
    return x1, x2


@nb.njit(cache=True)
def bet_flags(codes, bcounts, relseats):
    """(any fail bet among relevant seats, any nines bet among them)."""
    any_fail = False
    sens = False
    for s in range(bcounts.shape[0]):
        if (relseats >> s) & 1:
            for i in range(bcounts[s]):
                if codes[s, i, 0] == FAIL:
                    any_fail = True
                if codes[s, i, 0] == NINES:
                    sens = True
    return any_fail, sens


@nb.njit(cache=True, inline="always")
def desire(codes, bcounts, ask, row, players, n_colours, left):
    """+1 if seat ``ask`` wants to win tricks now, -1 if it wants to lose them
    (move ordering only; ``left`` tricks to go, this one included). A seat
    betting on the last trick keeps a winner for it."""
    d = 1
    tricks = -1
    last = False
    colour = False
    for i in range(bcounts[ask]):
        kind = codes[ask, i, 0]
        if kind == TRICKS:
            tricks = codes[ask, i, 1]
        elif kind == LAST:
            last = left > 1
        elif kind == COLOUR:
            colour = True
            d = 1 if codes[ask, i, 2] > row[players + ask * n_colours + codes[ask, i, 1]] else -1
    if tricks >= 0:
        return 1 if tricks - row[ask] > (1 if last else 0) else -1
    if last and not colour:
        return -1
    return d
