"""Double-dummy bound for a seat whose bets every seat helps (the best case).

With every seat on the seat's side the search has no opponent to cut it
short: ruling a goal out means trying every line. ``coop_sweep`` rules out,
at a trick boundary, a trick bet that needs every trick left, and a colour
bet that needs every card of its colour C still in play while some seat
holds nothing but C: each trick left then holds a card of C, and the seat
must take them all.

Taking every trick, the seat wins each with a card of the colour led, so
exactly |S_g| tricks are led in each colour g (S: the seat's cards), and in
each of the |S_C| tricks of a colour C every other seat Y still holding C
plays a card of C below the seat's. Y can lose cards of C before that only
by discarding them into tricks of a colour g it is void in, and

    phi = sum over g != C of max(0, |S_g| - |Y_g|)

bounds how many: a trick of g that Y is void in lowers |S_g| and so the
term of g by one (|Y_g| = 0 there), while Y's discard raises the term of
its own colour by at most one (or is a card of C); a trick that Y follows
lowers |S_g| and |Y_g| alike. So phi never grows while Y discards C and
falls by one each time it does. Y best discards its highest cards of C and
plays its lowest, q = min(|S_C|, |Y_C| - phi) of them, each under a
different card of the seat's; if the greedy matching cannot place them, the
sweep fails.

Measured on ``scripts/bench_dd.py`` deals, the same counting for fewer
tricks than all (n_g then the longest holding of g among the seats but Y),
and for capturing nearly every card of a colour, ruled out too little to
pay for itself: both cost more time per node than they saved in nodes. The
capture-all case above costs one loop over the hands per trick boundary and
saves more nodes than it costs (``bench_dd.py --only best``; the figures
are in ``scripts/README.md``).
"""

import numba as nb

from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import COLOUR, FAIL, FIRST, LAST, NINES, TRICKS
from sponsio_sim.kernels.bits import U0, bit, highest, lowest, popcount
from sponsio_sim.kernels.dd.tt import NO, UNKNOWN


@nb.njit(cache=True, inline="always")
def under(mine, theirs):
    """How many cards of ``theirs`` can each go under a different, higher
    card of ``mine`` (one colour; the greedy matching from the top down)."""
    free = 0
    n = 0
    m = mine | theirs
    while m != U0:
        c = highest(m)
        m &= ~bit(c)
        if (mine & bit(c)) != U0:
            free += 1
        elif free > 0:
            free -= 1
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def discards(hands, ask, y, col, colmask):
    """``phi`` of the module docstring: how many cards of colour ``col``
    seat ``y`` can discard while seat ``ask`` takes every trick."""
    phi = 0
    for g in range(colmask.shape[0]):
        if g != col:
            phi += max(0, popcount(hands[ask] & colmask[g]) - popcount(hands[y] & colmask[g]))
    return phi


@no_refcount
def coop_sweep(hands, players, ask, colmask):
    """(NO, the cards it rests on) when seat ``ask`` cannot win every trick
    left even with every seat's help, else (UNKNOWN, 0). The cards: the
    lowest of the seat's and the blocking seat's cards of the colour (a
    matching position holds those cards in the same hands, and the lengths,
    in the table's key, give the same phi)."""
    for col in range(colmask.shape[0]):
        mine = hands[ask] & colmask[col]
        k = popcount(mine)
        if k == 0:
            continue
        for y in range(players):
            theirs = hands[y] & colmask[col]
            if y == ask or theirs == U0:
                continue
            q = min(popcount(theirs) - discards(hands, ask, y, col, colmask), k)
            if q <= 0:
                continue
            low = theirs
            for _ in range(popcount(theirs) - q):
                low &= ~bit(highest(low))
            if under(mine, low) < q:
                return NO, bit(lowest(mine | theirs))
    return UNKNOWN, U0


@no_refcount
def coop_bound(codes, bcounts, ask, row, hands, players, left, colmask):
    """Trick-boundary bound for seat ``ask``'s bets with every seat helping:
    (NO, the cards it rests on) when it must win every trick left and
    cannot (``coop_sweep``): its trick bet needs them all (``row``: the
    ``tally`` row so far), or its colour bet needs every card of the colour
    in play and some seat holds only that colour; else (UNKNOWN, 0)."""
    n_col = colmask.shape[0]
    for i in range(bcounts[ask]):
        kind = codes[ask, i, 0]
        if kind == TRICKS:
            if codes[ask, i, 1] - row[ask] == left:
                return coop_sweep(hands, players, ask, colmask)
        elif kind == COLOUR:
            cm = colmask[codes[ask, i, 1]]
            rest = 0
            for t in range(players):
                rest += popcount(hands[t] & cm)
            if rest > 0 and codes[ask, i, 2] - row[players + ask * n_col + codes[ask, i, 1]] == rest:
                for t in range(players):
                    if (hands[t] & ~cm) == U0:
                        return coop_sweep(hands, players, ask, colmask)
        elif kind == LAST or kind == NINES or kind == FAIL or kind == FIRST:   # no sweep bound
            continue
        else:
            raise ValueError("unknown bet kind")
    return UNKNOWN, U0
