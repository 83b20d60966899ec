"""Double-dummy bounds for a seat alone that wants to avoid tricks.

``ducks_all``: can the seat ``ask``, not on lead, lose every trick left
whatever the others do? In a colour the others lead, the seat can always
play under the led card when, with its cards of the colour s1 < s2 < ...
and the others' o1 < o2 < ... (all of them, whoever holds which), s_j <
o_j for every j up to t, the shorter of the seat's holding and the others'
longest one: it plays its highest card below the lead, and the rule still
holds afterwards for t - 1. A trick in the colour takes a card from every
seat holding it, so t bounds the tricks the others can still lead in it;
cards the others play or discard only raise their j-th card; the lead o_q
and the seat's card s_p below it go together (q <= p, unless p >= t, since
s_(p+1) > o_q). Void in the colour led, the seat discards the highest
card of a colour, which keeps the rule there. So it never wins a trick
and never gets the lead.

One colour c may instead have a guard: another seat Y whose cards of c
are all above the seat's, with |Y_c| - |S_c| >= phi, the sum over the
other colours g of min(max(0, |S_g| - |Y_g|), L_g), L_g the others'
longest holding of g. While Y holds c, no trick in c is the seat's. Y can
drop c early only by discarding it in a trick of a colour g it is void in;
when the seat is void there too, it discards c as well (any other discard
of Y it copies in colour if it can), else it follows g, which uses up one
of its excess cards of g and one of the tricks the others can lead in g:
the term of g falls with |Y_c| - |S_c|. No other step lowers |Y_c| -
|S_c| - phi (a discard of Y in g raises g's term by at most one, in a
trick that lowered another's), so Y holds c as long as the seat does. (A
discard copied or not in the seat's other colours is its highest card
there, which keeps their rule.)

``ducks_trick``: the same inside a trick that the seat has already lost
(it played, and the trick's top card is another seat's): the cards the
others still play to it only leave them fewer cards, and another seat leads
next.

``frozen_bets``: do the seat's bets all succeed when it wins no trick
from here (its counters stay where they are)?
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import COLOUR, FAIL, FIRST, LAST, NINES, TRICKS
from sponsio_sim.kernels.bits import U0, U1, bit, highest, lowest, popcount
from sponsio_sim.kernels.dd.core import F_BEST, F_BEST_SEAT, F_LEADER, F_POS, tally_layout


@nb.njit(cache=True, inline="always")
def _longest(hands, players, ask, cm):
    """The longest holding of the colour ``cm`` among the seats but ``ask``."""
    n = 0
    for t in range(players):
        if t != ask:
            n = max(n, popcount(hands[t] & cm))
    return n


@nb.njit(cache=True, inline="always")
def colour_ducks(hands, players, ask, in_play, cm):
    """Can the seat play under every lead of the others in the colour
    ``cm`` (the rule of the module docstring)? At the j-th card of the
    others the seat must have shown at least j cards, for j up to its
    length and the number of tricks the others can still lead in the
    colour (their longest holding of it)."""
    mine = hands[ask] & cm
    k = min(popcount(mine), _longest(hands, players, ask, cm))
    ns = 0
    no = 0
    m = in_play & cm
    while m != U0 and no < k:
        c = lowest(m)
        m &= m - U1
        if (mine & bit(c)) != U0:
            ns += 1
        else:
            no += 1
            if ns < no:
                return False
    return True


@no_refcount
def _guard(hands, players, ask, col, in_play, colmask, guards):
    """The lowest card of colour ``col`` of a seat of mask ``guards`` that
    guards the seat in it (the module docstring), else -1."""
    cm = colmask[col]
    mine = hands[ask] & cm
    top = highest(mine)
    for t in range(players):
        hc = hands[t] & cm
        if t == ask or not (guards >> t) & 1 or hc == U0 or lowest(hc) < top:
            continue
        phi = 0
        for g in range(colmask.shape[0]):
            if g != col:
                phi += min(max(0, popcount(hands[ask] & colmask[g]) - popcount(hands[t] & colmask[g])),
                           _longest(hands, players, ask, colmask[g]))
        if popcount(hc) - popcount(mine) >= phi:
            return lowest(hc)
    return -1


@nb.njit(cache=True, inline="always")
def ducks_all(hands, players, leader, ask, in_play, colmask, guards):
    """(True, the cards it rests on) when seat ``ask`` can lose every trick
    left from this trick boundary (``leader`` on lead), else (False, 0);
    a guard may come from the seats of mask ``guards``. The cards: in each
    colour both hold, the others' lowest card (below it every card is the
    seat's, so the lengths in the table's key fix the rest); for the
    guarded colour, the guard's lowest card (the seat's are all below)."""
    if leader == ask:
        return False, U0
    w = U0
    guarded = False
    for col in range(colmask.shape[0]):
        cm = colmask[col]
        mine = hands[ask] & cm
        oth = in_play & cm & ~mine
        if mine == U0 or oth == U0:
            continue
        if colour_ducks(hands, players, ask, in_play, cm):
            w |= bit(lowest(oth))
            continue
        if guarded:
            return False, U0
        g = _guard(hands, players, ask, col, in_play, colmask, guards)
        if g < 0:
            return False, U0
        guarded = True
        w |= bit(g)
    return True, w


@nb.njit(cache=True, inline="always")
def ducks_trick(d, hands, players, ask, colmask, plies):
    """``ducks_all`` at ply d inside a trick: (True, the cards it rests on
    and the trick's top card) when the seat has played to the trick, does
    not hold its top card and can lose every later trick; else (False, 0).
    Only a seat that has played to the trick may guard."""
    pos = plies[d, F_POS]
    bseat = plies[d, F_BEST_SEAT]
    leader = plies[d, F_LEADER]
    if bseat == ask or (ask - leader) % players >= pos:
        return False, U0
    in_play = U0
    guards = np.int64(0)
    for t in range(players):
        in_play |= hands[t]
        if (t - leader) % players < pos:
            guards |= 1 << t
    ok, w = ducks_all(hands, players, bseat, ask, in_play, colmask, guards)
    return ok, w | bit(plies[d, F_BEST])


@nb.njit(cache=True, inline="always")
def frozen_bets(codes, bcounts, ask, row, players, n_col):
    """Do all of seat ``ask``'s bets succeed if it wins no more tricks? Only
    trick, colour and first bets are judged (a last bet then fails; the
    others depend on other seats): False when it holds another kind."""
    if bcounts[ask] == 0:
        return False
    first = row[tally_layout(players, n_col)[3]]
    for i in range(bcounts[ask]):
        kind = codes[ask, i, 0]
        if kind == TRICKS:
            if row[ask] != codes[ask, i, 1]:
                return False
        elif kind == COLOUR:
            if row[players + ask * n_col + codes[ask, i, 1]] != codes[ask, i, 2]:
                return False
        elif kind == FIRST:
            if first != ask:
                return False
        elif kind == LAST or kind == NINES or kind == FAIL:   # not judged
            return False
        else:
            raise ValueError("unknown bet kind")
    return True
