"""Double-dummy bet goals: can a seat still win all its bets, one branch per
bet kind (``bet_kinds``).

``goal_verdict`` evaluates ``kernels.bets.settle`` three-valued (YES, NO, UNKNOWN)
on a ``tally`` row of a position part-way through the trick phase; the rest
tells the search what a goal depends on: the key words for its accumulated
state (``bet_extra_keys``), whether fail or 9-sensitive bets are in play
(``bet_flags``), and which way the seat leans in move ordering (``desire``).
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import COLOUR, FAIL, FIRST, LAST, NINES, TRICKS
from sponsio_sim.kernels.bets import PENDING, fail_targets, settle_fail_bets
from sponsio_sim.kernels.bits import U0, popcount
from sponsio_sim.kernels.dd.core import tally_layout
from sponsio_sim.kernels.dd.tt import NO, UNKNOWN, YES


@nb.njit(cache=True, inline="always")
def _kleene_not(v):
    return v if v == UNKNOWN else 1 - v


@nb.njit(cache=True, inline="always")
def _kleene_or(a, b):
    if a == YES or b == YES:
        return YES
    if a == NO and b == NO:
        return NO
    return UNKNOWN


@nb.njit(cache=True, inline="always")
def _kleene_and(a, b):
    """Kleene AND, by De Morgan from ``_kleene_or``."""
    return _kleene_not(_kleene_or(_kleene_not(a), _kleene_not(b)))


@nb.njit(cache=True, inline="always")
def _bet_verdict(kind, a, b, s, row, players, left, in_play, colmask, nines):
    """Can a plain bet of seat s still succeed / fail, ``left`` tricks to go?"""
    n_colours = colmask.shape[0]
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
    if kind == FIRST:
        first = row[tally_layout(players, n_colours)[3]]
        if first < 0:
            return UNKNOWN
        return YES if first == s else NO
    if kind == NINES:
        if row[players + players * n_colours] == 0:
            return NO
        return YES if (in_play & nines) == U0 else UNKNOWN
    if kind == FAIL:
        raise ValueError("_bet_verdict: a fail bet is settled by goal_verdict")
    raise ValueError("unknown bet kind")


@nb.njit(cache=True, inline="always")
def _clash(codes, bcounts, s, row, first, left, my_nines):
    """Seat s bets on exactly a tricks and cannot win all its bets any more:
    a ``last`` bet wins one more trick, a ``first`` bet one more while the
    first trick (``first``: its winner, -1) is being played, a ``nines`` bet
    one more per 9 the seat still holds (each 9 must win its own trick; a 9
    may win the last or the first)."""
    a = -1
    more = 0
    for i in range(bcounts[s]):
        kind = codes[s, i, 0]
        if kind == TRICKS:
            a = codes[s, i, 1]
        elif kind == LAST:
            if left > 0:
                more = max(more, 1)
        elif kind == FIRST:
            if first < 0:
                more = max(more, 1)
        elif kind == NINES:
            more = max(more, my_nines)
        elif kind == COLOUR or kind == FAIL:   # no trick of their own
            continue
        else:
            raise ValueError("unknown bet kind")
    return a >= 0 and row[s] + more > a


# Hot core (every trick boundary of a bet goal): plain arguments (dd.search docstring: a context cost 2.5 %).
@no_refcount
def goal_verdict(codes, bcounts, ask, any_fail, row, players, n_colours, left, hands, in_play, colmask, nines,
                 bet_results, seat_failed):
    """Does seat ``ask`` win all its bets: YES, NO or UNKNOWN yet.

    Kleene evaluation of ``kernels.bets.settle`` on partial results: a
    definite answer holds for every way the remaining tricks can go. Bets
    that each could still succeed but not together count as failed
    (``_clash``). With fail bets, each seat's plain bets give it a
    three-valued "failed" state; the fail bets are then settled exactly
    (``settle_fail_bets``) for every completion of the unknown states, and
    an answer all completions share is definite.
    """
    if bcounts[ask] == 0:
        return NO
    first = row[tally_layout(players, n_colours)[3]]
    if not any_fail:
        if _clash(codes, bcounts, ask, row, first, left, popcount(hands[ask] & nines)):
            return NO
        v = YES
        for i in range(bcounts[ask]):
            v = _kleene_and(v, _bet_verdict(codes[ask, i, 0], codes[ask, i, 1], codes[ask, i, 2], ask, row,
                                            players, left, in_play, colmask, nines))
            if v == NO:
                return NO
        return v
    for s in range(players):
        f = NO
        for i in range(bcounts[s]):
            if codes[s, i, 0] == FAIL:
                bet_results[s, i] = NO
                continue
            v = _bet_verdict(codes[s, i, 0], codes[s, i, 1], codes[s, i, 2], s, row, players, left, in_play,
                             colmask, nines)
            bet_results[s, i] = v
            f = _kleene_or(f, _kleene_not(v))
        seat_failed[s] = YES if _clash(codes, bcounts, s, row, first, left, popcount(hands[s] & nines)) else f
    known = 0
    unknown = 0
    for s in range(players):
        if seat_failed[s] == UNKNOWN:
            unknown |= 1 << s
        elif seat_failed[s] == YES:
            known |= 1 << s
    answer = -1
    sub = unknown
    while True:  # every subset of the unknown seats fails, the rest stay clean
        for s in range(players):
            for i in range(bcounts[s]):
                bet_results[s, i] = PENDING if codes[s, i, 0] == FAIL else 1
            seat_failed[s] = 1 if ((known | sub) >> s) & 1 else 0   # now: has seat s failed a bet?
        settle_fail_bets(codes, bcounts, bet_results, seat_failed)
        v = YES
        for i in range(bcounts[ask]):
            if bet_results[ask, i] == 0:
                v = NO
        if seat_failed[ask]:
            v = NO
        if answer < 0:
            answer = v
        elif answer != v:
            return UNKNOWN
        if sub == 0:
            return answer
        sub = (sub - 1) & unknown


@nb.njit(cache=True, inline="always")
def trick_bet(codes, bcounts, ask):
    """The number of seat ``ask``'s trick bet, -1 if it holds none."""
    a = -1
    for i in range(bcounts[ask]):
        if codes[ask, i, 0] == TRICKS:
            a = codes[ask, i, 1]
    return a


@nb.njit(cache=True, inline="always")
def has_last(codes, bcounts, ask):
    """Does seat ``ask`` hold a ``last`` bet?"""
    for i in range(bcounts[ask]):
        if codes[ask, i, 0] == LAST:
            return True
    return False


@nb.njit(cache=True, inline="always")
def colour_bet(codes, bcounts, ask):
    """The colour of seat ``ask``'s colour bet, -1 if it holds none."""
    for i in range(bcounts[ask]):
        if codes[ask, i, 0] == COLOUR:
            return codes[ask, i, 1]
    return -1


@no_refcount
def relevant_seats(codes, bcounts, ask):
    """Seats whose bets decide ``ask``'s: ask and, through fail bets, their targets."""
    rel = np.int64(1) << ask
    for _ in range(bcounts.shape[0]):
        for s in range(bcounts.shape[0]):
            if (rel >> s) & 1:
                for i in range(bcounts[s]):
                    if codes[s, i, 0] == FAIL:
                        rel |= fail_targets(s, codes[s, i, 1], bcounts.shape[0])
    return rel


@no_refcount
def bet_extra_keys(codes, bcounts, deciding_seats, row, players, n_colours, leader, in_play, nines,
                   any_nines):
    """Key words for the accumulated state the relevant bets still depend on:
    what each counter still needs (its target minus the counter plus one,
    0 once past the target: a counter never comes back), the nines flag and
    which 9s are still in play (relative ranks hide which top card is a 9),
    the first trick's winner (bits 44-46 of the first word). Keyed by need,
    an entry answers the same question for every target of a goal family
    (``same_family``)."""
    x1 = np.uint64(leader)
    if any_nines:
        x1 |= np.uint64(row[players + players * n_colours]) << np.uint64(3)
        x1 |= (in_play & nines) << np.uint64(4)
    x2 = U0
    sh = 0
    for s in range(players):
        if (deciding_seats >> s) & 1:
            for i in range(bcounts[s]):
                kind = codes[s, i, 0]
                if kind == TRICKS:
                    v = max(codes[s, i, 1] - row[s] + 1, 0)
                elif kind == COLOUR:
                    v = max(codes[s, i, 2] - row[players + s * n_colours + codes[s, i, 1]] + 1, 0)
                elif kind == FIRST:   # who took the first trick decides every first bet
                    x1 |= np.uint64(row[tally_layout(players, n_colours)[3]] + 1) << np.uint64(44)
                    continue
                elif kind == LAST or kind == NINES or kind == FAIL:   # the leader, the nines word, other bets
                    continue
                else:
                    raise ValueError("unknown bet kind")
                x2 |= np.uint64(v) << np.uint64(sh)
                sh += 5
    return x1, x2


@nb.njit(cache=True, inline="always")
def family_field(kind):
    """The field (``kernels.bets``) in which bets of one goal family may
    differ: the number a counter is keyed against by need in
    ``bet_extra_keys``; -1 for a kind keyed otherwise."""
    if kind == TRICKS:
        return 1
    if kind == COLOUR:
        return 2
    if kind == LAST or kind == NINES or kind == FAIL or kind == FIRST:
        return -1
    raise ValueError("unknown bet kind")


@nb.njit(cache=True)
def same_family(a, na, b, nb_):
    """Do the bet rows ``a[:na]`` and ``b[:nb_]`` (``kernels.bets`` fields)
    differ at most in the numbers of trick and colour bets? Then a bet
    question's table entries (keyed by need, ``bet_extra_keys``) answer
    the other's: the solver may keep one stamp for both."""
    if na != nb_:
        return False
    for j in range(na):
        kind = a[j, 0]
        if b[j, 0] != kind:
            return False
        for f in range(a.shape[1]):
            if f != family_field(kind) and a[j, f] != b[j, f]:
                return False
    return True


@no_refcount
def bet_flags(codes, bcounts, deciding_seats):
    """(any fail bet among relevant seats, any nines bet among them)."""
    any_fail = False
    any_nines = False
    for s in range(bcounts.shape[0]):
        if (deciding_seats >> s) & 1:
            for i in range(bcounts[s]):
                any_fail |= codes[s, i, 0] == FAIL
                any_nines |= codes[s, i, 0] == NINES
    return any_fail, any_nines


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
        elif kind == FIRST:
            if row[tally_layout(players, n_colours)[3]] < 0:
                return 1   # the first trick is being played: take it
        elif kind == COLOUR:
            colour = True
            d = 1 if codes[ask, i, 2] > row[players + ask * n_colours + codes[ask, i, 1]] else -1
        elif kind == NINES or kind == FAIL:   # no lean of their own
            continue
        else:
            raise ValueError("unknown bet kind")
    if tricks >= 0:
        return 1 if tricks - row[ask] > (1 if last else 0) else -1
    if last and not colour:
        return -1
    return d
