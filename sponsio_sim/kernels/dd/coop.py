"""Double-dummy bounds for a seat whose bets every seat helps (the best case).

With every seat on the seat's side the search has no opponent to cut it
short: ruling a goal out means trying every line. Two counting arguments
rule out, at a trick boundary, goals that need more than the cards allow.
Both rest on how few cards of a colour C another seat Y can discard: Y
discards only into tricks led in a colour g it is void in, and

    phi = sum over g != C of max(0, n_g - |Y_g|)

bounds the cards of C it can discard, where n_g bounds the tricks still to
be led in g. A trick of g that Y is void in lowers n_g and so the term of
g by one (|Y_g| = 0 < n_g there), and Y's discard raises the term of its
own colour by at most one (or is a card of C); a trick that Y follows
lowers n_g and |Y_g| alike. So phi never grows while Y discards C, and
falls by one each time it does. (Once Y is void in C nothing is left to
count.)

``coop_tricks``: the seat must win ``need`` more tricks. It wins a trick
of colour C only with a card of C above every other card of C in it. While
it holds C it plays C in every trick of C; in those tricks Y plays C while
it holds C, so in at least q = min(|S_C|, |Y_C| - phi) of them (Y best
discards its highest cards of C and plays its lowest), and the seat wins at
most |S_C| - q + (the greedy matching of those q cards of Y's under the
seat's) tricks of C. The least of that over Y, summed over the colours,
must reach ``need``. Here n_g is the longest holding of g among the seats
but Y (each trick of g takes a card from every seat holding g); when the
seat needs every trick left, each card it plays wins a trick of its own
colour, so exactly n_g = |S_g| tricks are led in g (the sweep).

``coop_capture``: the seat must capture ``need`` more cards of C, so at most
``slack`` of the cards of C still in play may end in another seat's trick.
A card of Y's lands in the seat's trick only as a discard (at most phi of
them, n_g = the longest holding of g among the seats but Y: each trick of
g takes a card from every seat holding g) or under a higher card of the
seat's in a trick of C, one trick per card of the seat's (at most the
greedy matching of Y's cards under the seat's). Every card of Y beyond
those two counts escapes, and the escapes of all seats together may not
pass the slack.

Each bound returns the cards it rests on (``dd.tt`` winning ranks): in
each colour whose ranks it compared to reach its answer, a card at or
below every card it compared, so that a matching position holds those
cards in the same hands (and the lengths, in the table's key, give the
same phi).
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import COLOUR, TRICKS
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
def discards(hands, players, ask, y, col, colmask, sweep):
    """``phi`` of the module docstring for seat ``y`` and colour ``col``:
    with ``sweep``, n_g is seat ``ask``'s length in g, else the longest
    holding of g among the seats but ``y``."""
    phi = 0
    for g in range(colmask.shape[0]):
        if g == col:
            continue
        n = 0
        if sweep:
            n = popcount(hands[ask] & colmask[g])
        else:
            for t in range(players):
                if t != y:
                    n = max(n, popcount(hands[t] & colmask[g]))
        phi += max(0, n - popcount(hands[y] & colmask[g]))
    return phi


@no_refcount
def coop_tricks(hands, players, ask, need, left, colmask):
    """(NO, the cards it rests on) when seat ``ask`` cannot win ``need`` of
    the ``left`` tricks left even with every seat's help (the sweep when
    ``need == left``), else (UNKNOWN, 0). The cards: for the colours with
    the largest shortfalls that together rule the goal out, the lowest card
    of the seat's and the limiting seat's cards of the colour."""
    sweep = need == left
    short = U0      # per colour (4 bits each), the tricks of it the seat cannot win
    cards = U0      # per colour, the lowest card the shortfall rests on
    total = 0
    for col in range(colmask.shape[0]):
        mine = hands[ask] & colmask[col]
        k = popcount(mine)
        if k == 0:
            continue
        most = k
        rest = U0
        for y in range(players):
            theirs = hands[y] & colmask[col]
            if y == ask or theirs == U0:
                continue
            q = min(popcount(theirs) - discards(hands, players, ask, y, col, colmask, sweep), k)
            if q <= 0:
                continue
            low = theirs
            for _ in range(popcount(theirs) - q):
                low &= ~bit(highest(low))
            v = k - q + under(mine, low)
            if v < most:
                most = v
                rest = theirs
        if most < k:
            short |= np.uint64(k - most) << np.uint64(4 * col)
            cards |= bit(lowest(mine | rest))
            total += k - most
    if total <= left - need:
        return UNKNOWN, U0
    w = U0
    got = 0
    while got <= left - need:
        top = 0
        pick = 0
        for col in range(colmask.shape[0]):
            x = int((short >> np.uint64(4 * col)) & np.uint64(15))
            if x > top:
                top = x
                pick = col
        got += top
        w |= cards & colmask[pick]
        short &= ~(np.uint64(15) << np.uint64(4 * pick))
    return NO, w


@no_refcount
def coop_capture(hands, players, ask, col, slack, colmask):
    """(NO, the cards it rests on) when more than ``slack`` cards of colour
    ``col`` must end in other seats' tricks even with every seat's help,
    else (UNKNOWN, 0). The cards: the lowest of the seat's and the escaping
    seats' cards of the colour."""
    mine = hands[ask] & colmask[col]
    escapes = 0
    w = U0
    for y in range(players):
        theirs = hands[y] & colmask[col]
        if y == ask or theirs == U0:
            continue
        e = popcount(theirs) - under(mine, theirs) - discards(hands, players, ask, y, col, colmask, False)
        if e > 0:
            escapes += e
            w |= mine | theirs
    if escapes > slack:
        return NO, bit(lowest(w))
    return UNKNOWN, U0


@no_refcount
def coop_bound(codes, bcounts, ask, row, players, n_col, left, hands, in_play, colmask):
    """Trick-boundary bound for seat ``ask``'s bets with every seat helping:
    (NO, the cards it rests on) when a trick bet needs more tricks, or a
    colour bet more cards of its colour, than can reach the seat; else
    (UNKNOWN, 0)."""
    for i in range(bcounts[ask]):
        kind = codes[ask, i, 0]
        if kind == TRICKS and codes[ask, i, 1] > row[ask]:
            v, w = coop_tricks(hands, players, ask, codes[ask, i, 1] - row[ask], left, colmask)
            if v == NO:
                return v, w
        elif kind == COLOUR:
            col = codes[ask, i, 1]
            need = codes[ask, i, 2] - row[players + ask * n_col + col]
            if need > 0:
                v, w = coop_capture(hands, players, ask, col, popcount(in_play & colmask[col]) - need, colmask)
                if v == NO:
                    return v, w
    return UNKNOWN, U0
