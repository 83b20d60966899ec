"""The success model: hand features -> a cell of a fitted table -> P(bet wins).

A bet's chance depends on the bettor's hand and the public situation. The
model reduces them to a few features and looks the chance up in tables
fitted by simulation (``game_fit``, ``analysis.fit``):

- tricks=N: sure winners, high cards (rank 7+), whether the seat leads;
- colour:C=N: own cards of C, the talon's cards of C, own sure winners in C;
- last: sure winners, own 9s, whether the seat leads;
- nines: 9s not in the talon, own 9s;
- fail:S: the bets S holds.

``prepare_features`` writes a hand's features to the ``ints`` scratch; then
``cell_of`` / ``prob`` read them for any bet, so scanning the catalogue costs
one feature pass. Layout and table shapes: ``game_layout``.
"""

import numba as nb
import numpy as np

from sponsio_sim.kernels.bits import RANKS, U0, popcount
from sponsio_sim.kernels.game_layout import (COLOUR, COLOUR_CELLS, COLOUR_PARAMS, FAIL, FAIL_CELLS, I_F_COL,
                                             I_F_HIGH, I_F_LEAD, I_F_NINPLAY, I_F_NOWN, I_F_SURE, I_HAND,
                                             I_MOFF, I_NBETS, I_NCOL, I_ROWS, LAST, LAST_CELLS, NINES,
                                             NINES_CELLS, TRICKS, TRICKS_CELLS, W_MODEL)
from sponsio_sim.kernels.policies import sure_winners
from sponsio_sim.kernels.table import COLMASK, NINES as NINES_MASK

HIGH_RANK = 6  # rank index 6 = rank 7: "high cards" are 7, 8, 9


@nb.njit(cache=True)
def prepare_features(hand, talon, lead, tab, ints):
    """Features of ``hand`` with the talon ``talon`` known, into ``ints`` scratch."""
    for col in range(ints[I_NCOL]):
        cm = tab[COLMASK + col]
        sc = sure_winners(hand & cm, talon, tab)
        k = popcount(hand & cm)
        t = popcount(talon & cm)
        ints[I_F_COL + col] = (min(k, COLOUR_CELLS[0] - 1) * COLOUR_CELLS[1]
                               + min(t, COLOUR_CELLS[1] - 1)) * COLOUR_CELLS[2] + min(sc, COLOUR_CELLS[2] - 1)
    ints[I_F_SURE] = sure_winners(hand, talon, tab)
    ints[I_F_HIGH] = popcount(hand & _high_mask(tab, ints[I_NCOL]))
    nines = tab[NINES_MASK]
    ints[I_F_NOWN] = popcount(hand & nines)
    ints[I_F_NINPLAY] = popcount(nines & ~talon)
    ints[I_F_LEAD] = 1 if lead else 0


@nb.njit(cache=True, inline="always")
def _high_mask(tab, n_colours):
    m = U0
    for col in range(n_colours):
        cm = tab[COLMASK + col]
        m |= cm & ~(cm >> np.uint64(RANKS - HIGH_RANK))  # the top RANKS - HIGH_RANK ranks
    return m


@nb.njit(cache=True)
def cell_of(kind, a, b, target_bets, ints):
    """Index (into ``weight``) of the model cell for bet (kind, a, b), using the
    features last prepared; ``target_bets`` = bets held by a fail bet's target."""
    if kind == TRICKS:
        f = (min(ints[I_F_SURE], TRICKS_CELLS[0] - 1) * TRICKS_CELLS[1]
             + min(ints[I_F_HIGH], TRICKS_CELLS[1] - 1)) * TRICKS_CELLS[2] + ints[I_F_LEAD]
        return W_MODEL + ints[I_MOFF + TRICKS] + f * (ints[I_HAND] + 1) + a
    if kind == COLOUR:
        return W_MODEL + ints[I_MOFF + COLOUR] + ints[I_F_COL + a] * COLOUR_PARAMS + b
    if kind == LAST:
        f = (min(ints[I_F_SURE], LAST_CELLS[0] - 1) * LAST_CELLS[1]
             + min(ints[I_F_NOWN], LAST_CELLS[1] - 1)) * LAST_CELLS[2] + ints[I_F_LEAD]
        return W_MODEL + ints[I_MOFF + LAST] + f
    if kind == NINES:
        f = min(ints[I_F_NINPLAY], NINES_CELLS[0] - 1) * NINES_CELLS[1] + min(ints[I_F_NOWN], NINES_CELLS[1] - 1)
        return W_MODEL + ints[I_MOFF + NINES] + f
    return W_MODEL + ints[I_MOFF + FAIL] + min(target_bets, FAIL_CELLS[0] - 1)


@nb.njit(cache=True)
def row_prob(row, ints, weight):
    """Model P(win) of catalogue row ``row`` for the prepared hand."""
    kind = ints[I_ROWS + 3 * row]
    a = ints[I_ROWS + 3 * row + 1]
    tb = ints[I_NBETS + a] if kind == FAIL else 0
    return weight[cell_of(kind, a, ints[I_ROWS + 3 * row + 2], tb, ints)]
