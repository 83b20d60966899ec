"""PIMC play: a seat that samples the hidden cards and asks the DD solver.

At each of its decisions the ``pimc`` seat draws ``worlds`` layouts of the
cards it cannot see, consistent with everything public (its own hand, the
talon, revealed cards and who holds them, cards played, voids shown in
play), and for each legal card asks in each world whether it still makes
all its bets against every other seat (worst case). It plays the card that
succeeds in the most worlds; when no card succeeds in any world it counts
best-case successes instead (the card most likely to leave a chance);
remaining ties go to the cheapest card (lowest rank, then lowest id).
Cards adjacent among the cards still in hands are one choice.

``pimc_play`` is a trick-phase driver like ``play.play_tricks``: other seats
play through the shared policies (``policies.choose_scored`` / random).
"""

import numba as nb
import numpy as np

from mcsim.rng import randbelow
from sponsio_sim.kernels.bits import RANKS, U0, U1, bit, highest, lowest, popcount
from sponsio_sim.kernels.dd import solve_bets
from sponsio_sim.kernels.dd_core import ct_layout
from sponsio_sim.kernels.policies import RANDOM, choose_random, choose_scored
from sponsio_sim.kernels.table import COLMASK, HANDS, NINES, PLAYED, REVEALED, TRICKS, VOID, WON

PIMC = 3
_REJECT_TRIES = 200


@nb.njit(cache=True)
def sample_world(s, players, tab, ints, state, pool, out):
    """Fill ``out`` with one layout of the hands seat s cannot see.

    Uniform over layouts respecting voids (rejection); if 200 tries fail,
    cards of the colours some seat is void in are placed first, each into a
    random free slot of a seat that may hold it (close to uniform)."""
    revealed = tab[REVEALED]
    n = 0
    for t in range(players):
        if t == s:
            continue
        m = tab[HANDS + t] & ~revealed
        while m != U0:
            pool[n] = lowest(m)
            m &= m - U1
            n += 1
    for attempt in range(_REJECT_TRIES + 1):
        for i in range(n - 1):
            j = i + randbelow(state, n - i)
            x = pool[i]
            pool[i] = pool[j]
            pool[j] = x
        if attempt == _REJECT_TRIES:
            _constrained_order(s, players, tab, ints, state, pool, n)
        pos = 0
        ok = True
        for t in range(players):
            h = tab[HANDS + t]
            if t == s:
                out[t] = h
                continue
            w = h & revealed
            for _ in range(popcount(h & ~revealed)):
                c = pool[pos]
                pos += 1
                if (ints[VOID + t] >> (c // RANKS)) & 1:
                    ok = False
                w |= bit(c)
            out[t] = w
        if ok:
            return


@nb.njit(cache=True)
def _constrained_order(s, players, tab, ints, state, pool, n):
    """Reorder ``pool`` so that dealing it seat by seat respects voids."""
    revealed = tab[REVEALED]
    free = np.zeros(players, dtype=np.int64)
    for t in range(players):
        if t != s:
            free[t] = popcount(tab[HANDS + t] & ~revealed)
    seat_of = np.full(n, -1, dtype=np.int64)
    for phase in range(2):
        for i in range(n):
            col = pool[i] // RANKS
            restricted = False
            for t in range(players):
                if t != s and (ints[VOID + t] >> col) & 1:
                    restricted = True
            if (phase == 0) != restricted or seat_of[i] >= 0:
                continue
            slots = 0
            for t in range(players):
                if t != s and not (ints[VOID + t] >> col) & 1:
                    slots += free[t]
            if slots == 0:
                continue
            k = randbelow(state, slots)
            for t in range(players):
                if t != s and not (ints[VOID + t] >> col) & 1:
                    if k < free[t]:
                        seat_of[i] = t
                        free[t] -= 1
                        break
                    k -= free[t]
    order = pool[:n].copy()
    pos = 0
    for t in range(players):
        for i in range(n):
            if seat_of[i] == t:
                pool[pos] = order[i]
                pos += 1
    for i in range(n):
        if seat_of[i] < 0:
            pool[pos] = order[i]
            pos += 1


@nb.njit(cache=True)
def pimc_choose(s, players, n_colours, legal, leader, trick, n_trick, best, tab, ints, ctr, codes,
                bcounts, worlds, state, pool, world, PL, PU, CT, TT, stamps, score):
    """The pimc seat's card (see module docstring). ``trick[:n_trick]`` are
    the cards already in the trick; ``ctr`` the solver's counters so far;
    ``stamps`` = (worst-case stamp, best-case stamp) for the game."""
    colmask = tab[COLMASK:COLMASK + n_colours].copy()
    nines = tab[NINES]
    in_play = U0
    for t in range(players):
        in_play |= tab[HANDS + t]
    if n_trick > 0:
        in_play |= bit(best)
    # one candidate per class of cards adjacent among the cards in play
    n = 0
    m = legal
    while m != U0:
        c = lowest(m)
        m &= m - U1
        cm = tab[COLMASK + c // RANKS]
        below = in_play & cm & (bit(c) - U1)
        if below != U0 and (legal & bit(highest(below))) != U0:
            continue
        score[n, 0] = c
        score[n, 1] = 0
        score[n, 2] = 0
        n += 1
    if n == 1:
        return score[0, 0]
    tr = trick[:n_trick]
    everyone = (np.int64(1) << players) - 1
    for _ in range(worlds):
        sample_world(s, players, tab, ints, state, pool, world)
        for k in range(n):
            ok, _ = solve_bets(world, leader, tr, ctr, colmask, nines, codes, bcounts, s,
                               np.int64(1) << s, bit(score[k, 0]), PL, PU, CT, TT, stamps[0])
            if ok:
                score[k, 1] += 1
    top = 0
    for k in range(n):
        top = max(top, score[k, 1])
    if top == 0:
        for _ in range(worlds):
            sample_world(s, players, tab, ints, state, pool, world)
            for k in range(n):
                ok, _ = solve_bets(world, leader, tr, ctr, colmask, nines, codes, bcounts, s,
                                   everyone, bit(score[k, 0]), PL, PU, CT, TT, stamps[1])
                if ok:
                    score[k, 2] += 1
    pick = 0
    for k in range(1, n):
        if _better(score[k, 1], score[k, 2], score[k, 0], score[pick, 1], score[pick, 2], score[pick, 0]):
            pick = k
    return score[pick, 0]


@nb.njit(cache=True, inline="always")
def _better(w1, b1, c1, w2, b2, c2):
    """More worst-case wins, then more best-case wins, then the cheaper card."""
    if w1 != w2:
        return w1 > w2
    if b1 != b2:
        return b1 > b2
    if c1 % RANKS != c2 % RANKS:
        return c1 % RANKS < c2 % RANKS
    return c1 < c2


@nb.njit(cache=True)
def pimc_play(players, leader, policy, tab, ints, weight, state, codes, bcounts, worlds, n_colours,
              PL, PU, CT, TT, stamps):
    """Play every trick like ``play.play_tricks``; seats with policy PIMC
    decide with ``pimc_choose``. Returns ``(last_trick_winner, nines_ok)``."""
    cc0, nok, last_i, width = ct_layout(players, n_colours)
    ctr = np.zeros(width, dtype=np.int64)
    trick = np.zeros(players, dtype=np.int64)
    pool = np.zeros(n_colours * RANKS, dtype=np.int64)
    world = np.zeros(players, dtype=np.uint64)
    score = np.zeros((n_colours * RANKS, 3), dtype=np.int64)
    n_tricks = popcount(tab[HANDS + leader])
    nines = tab[NINES]
    nines_ok = True
    for t in range(n_tricks):
        tricks_left = n_tricks - t
        trick_mask = U0
        led = -1
        led_mask = U0
        best = -1
        best_seat = -1
        s = leader - 1
        for pos in range(players):
            s += 1
            if s == players:
                s = 0
            h = tab[HANDS + s]
            if pos == 0:
                legal = h
            else:
                legal = h & led_mask
                if legal == U0:
                    legal = h
                    ints[VOID + s] |= np.int64(1) << led
            pol = policy[s]
            if (legal & (legal - U1)) == U0:
                c = lowest(legal)
            elif pol == RANDOM:
                c = choose_random(legal, state)
            elif pol == PIMC:
                for q in range(players):
                    ctr[q] = ints[TRICKS + q]
                    for col in range(n_colours):
                        ctr[cc0 + q * n_colours + col] = popcount(tab[WON + q] & tab[COLMASK + col])
                ctr[nok] = 1 if nines_ok else 0
                ctr[last_i] = -1
                c = pimc_choose(s, players, n_colours, legal, leader, trick, pos, best, tab, ints, ctr, codes,
                                bcounts, worlds, state, pool, world, PL, PU, CT, TT, stamps, score)
            else:
                c = choose_scored(s, players, pol, legal, pos, leader, led, best, best_seat, trick_mask,
                                  tricks_left, tab, ints, weight)
            b = bit(c)
            tab[HANDS + s] = h & ~b
            tab[REVEALED] &= ~b
            trick_mask |= b
            trick[pos] = c
            if pos == 0:
                led = c // RANKS
                led_mask = tab[COLMASK + led]
                best = c
                best_seat = s
            elif (b & led_mask) != U0 and c > best:
                best = c
                best_seat = s
        if trick_mask & nines & ~bit(best):
            nines_ok = False
        ints[TRICKS + best_seat] += 1
        tab[WON + best_seat] |= trick_mask
        tab[PLAYED] |= trick_mask
        leader = best_seat
    return leader, nines_ok
