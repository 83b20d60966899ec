"""Bet settlement on a finished trick phase (spec section 4).

A bet is ``(kind, a, b)``: tricks (0, N, -), colour (1, C, N), last (2),
nines (3), fail (4, S, -). Outcome of a trick phase: ``tricks[s]`` won,
``won[s]`` mask of cards in seat s's tricks, ``last`` winner of the last
trick, ``nines_ok`` (every 9 played won its trick).
"""

import numba as nb

from sponsio_sim.kernels.bits import popcount

TRICKS, COLOUR, LAST, NINES, FAIL = 0, 1, 2, 3, 4


@nb.njit(cache=True, inline="always")
def plain_bet_won(kind, a, b, seat, tricks, won, last, nines_ok, colmask):
    """Outcome of a bet that does not depend on other bets (not ``fail``)."""
    if kind == TRICKS:
        return tricks[seat] == a
    if kind == COLOUR:
        return popcount(won[seat] & colmask[a]) == b
    if kind == LAST:
        return last == seat
    return nines_ok


@nb.njit(cache=True, inline="always")
def settle(codes, counts, tricks, won, last, nines_ok, colmask, result, failed):
    """Judge every seat's bets.

    ``codes[s, i]`` / ``counts[s]`` hold the bets. Fills ``result[s, i]``
    (1 won, 0 lost) and ``failed[s]`` (seat s holds a bet and lost at least
    one). ``fail:S`` wins iff S holds a bet and failed one; chains of fail
    bets are resolved by iteration (a cycle settles after ``players`` passes).
    """
    players = counts.shape[0]
    for s in range(players):
        failed[s] = False
        for i in range(counts[s]):
            kind = codes[s, i, 0]
            if kind == FAIL:
                result[s, i] = 0
                continue
            ok = plain_bet_won(kind, codes[s, i, 1], codes[s, i, 2], s, tricks, won, last, nines_ok, colmask)
            result[s, i] = 1 if ok else 0
            if not ok:
                failed[s] = True
    for _ in range(players):
        changed = False
        for s in range(players):
            for i in range(counts[s]):
                if codes[s, i, 0] != FAIL:
                    continue
                target = codes[s, i, 1]
                ok = counts[target] > 0 and failed[target]
                v = 1 if ok else 0
                if result[s, i] != v:
                    result[s, i] = v
                    changed = True
        for s in range(players):
            f = False
            for i in range(counts[s]):
                if result[s, i] == 0:
                    f = True
            if f != failed[s]:
                failed[s] = f
                changed = True
        if not changed:
            break


@nb.njit(cache=True)
def all_won(result, counts, seat):
    """True when seat holds bets and won every one."""
    if counts[seat] == 0:
        return False
    for i in range(counts[seat]):
        if result[seat, i] == 0:
            return False
    return True
