"""Play policies: which legal card a seat plays.

Every policy sees only what its seat may know (spec section 8): its own
hand, the talon, revealed cards, cards played, and voids shown in play.

- ``random``: a uniformly random legal card.
- ``greedy``: maximises its chance of winning the trick, cheapest card first.
- ``goal``: scores each legal card by its holder's bets and the bets it plays
  against (``rel`` table, see ``build_relevance``) using an estimate of who
  wins the trick, and plays the best; ties go to the lowest card.
"""

import numba as nb
import numpy as np

from mcsim.rng import randbelow
from sponsio_sim.kernels.bets import COLOUR, FAIL, LAST, NINES, TRICKS
from sponsio_sim.kernels.bits import RANKS, U0, U1, above, bit, lowest, popcount, select

RANDOM, GREEDY, GOAL = 0, 1, 2
MAX_REL = 16
# Weights of the goal policy's scoring terms (heuristic constants, not rules).
_PACE = 0.25       # mild wish to spread the tricks a tricks=N bet still needs
_COLOUR_GAIN = 0.5  # gaining cards of a colour a colour bet still needs
_NINE_SAFE = 0.3   # playing a 9 where it wins (it cannot be discarded later)
_KEEP = 0.02       # per rank: keep high cards (wanting tricks) or dump them
_KEEP_TOP = 0.3    # a last-trick bettor keeps its best card
_LAST_LEAD = 0.3   # win the second-to-last trick to lead the last
_CHEAP = 0.001     # per rank: prefer the cheaper of equal cards


@nb.njit(cache=True)
def build_relevance(codes, counts, rel, nrel):
    """Which bets each seat plays for (+1) or against (-1).

    ``rel[s, j] = (kind, a, b, owner, sign)``. A bettor plays for its own
    bets and, for each ``fail:T`` it holds, against T's bets; a seat with no
    bets is a troll and plays against every other seat's bets.
    """
    players = counts.shape[0]
    for s in range(players):
        n = 0
        if counts[s] == 0:
            for t in range(players):
                if t == s:
                    continue
                for i in range(counts[t]):
                    if codes[t, i, 0] != FAIL and n < MAX_REL:
                        rel[s, n, 0] = codes[t, i, 0]
                        rel[s, n, 1] = codes[t, i, 1]
                        rel[s, n, 2] = codes[t, i, 2]
                        rel[s, n, 3] = t
                        rel[s, n, 4] = -1
                        n += 1
        else:
            for i in range(counts[s]):
                if codes[s, i, 0] != FAIL:
                    if n < MAX_REL:
                        rel[s, n, 0] = codes[s, i, 0]
                        rel[s, n, 1] = codes[s, i, 1]
                        rel[s, n, 2] = codes[s, i, 2]
                        rel[s, n, 3] = s
                        rel[s, n, 4] = 1
                        n += 1
                    continue
                t = codes[s, i, 1]
                for j in range(counts[t]):
                    if codes[t, j, 0] != FAIL and n < MAX_REL:
                        rel[s, n, 0] = codes[t, j, 0]
                        rel[s, n, 1] = codes[t, j, 1]
                        rel[s, n, 2] = codes[t, j, 2]
                        rel[s, n, 3] = t
                        rel[s, n, 4] = -1
                        n += 1
        nrel[s] = n


@nb.njit(cache=True)
def choose_random(legal, state):
    """A uniformly random legal card."""
    return select(legal, randbelow(state, popcount(legal)))


@nb.njit(cache=True)
def choose_scored(s, policy, legal, pos, leader, led, best, best_seat, trick_mask, tricks_left,
                  hands, revealed, talon, played, void, tricks, won, rel, nrel, colmask, deck, nines,
                  weight, can_seats):
    """The greedy or goal policy's card (see module docstring).

    Cards that differ only by ranks already gone (played or in the talon)
    are one move: only the cheapest is scored, except 9s (nines bets).
    For each legal card it estimates who wins the trick: the card on top
    after it holds unless a seat still to play has a higher card of the led
    colour. A revealed higher card there beats it; each unknown higher card
    lies with the seats still to play in proportion to their unknown slots
    (seats void in the led colour excluded). A beaten top is shared evenly
    among those seats. ``weight`` and ``can_seats`` are scratch arrays.
    """
    players = hands.shape[0]
    unknown = deck & ~(hands[s] | talon | played | trick_mask | revealed)
    rem_rev = U0
    t = leader + pos
    for _ in range(pos + 1, players):
        t += 1
        if t >= players:
            t -= players
        rem_rev |= hands[t] & revealed
    dead = played | talon
    if policy == GREEDY:
        for t in range(players):
            weight[t] = 0.0
        weight[s] = 1.0
        keep = 0.0
        own_last = False
        n_colour = 0
        nine_sign = 0.0
    else:
        keep, own_last, n_colour, nine_sign = _decision_weights(
            s, tricks_left, tricks, rel, nrel, weight)
    nine_dead = pos > 0 and (trick_mask & nines & ~bit(best)) != U0
    cur_col = -1
    q = 0.0
    n_can = 0
    w_can = 0.0
    best_card = -1
    best_score = -1e300
    prev = -1
    m = legal
    while m:
        c = lowest(m)
        m &= m - U1
        col = c // RANKS
        rank = c % RANKS
        if prev >= 0 and prev // RANKS == col and rank != RANKS - 1 \
                and ((bit(c) - U1) & ~((bit(prev) << U1) - U1) & ~dead) == U0:
            prev = c
            continue  # same power as the cheaper card just scored
        prev = c
        lead_col = led if pos > 0 else col
        if lead_col != cur_col:
            cur_col = lead_col
            q, n_can = _seats_to_play(s, pos, leader, hands, revealed, void, lead_col, can_seats)
            w_can = 0.0
            for k in range(n_can):
                w_can += weight[can_seats[k]]
        if pos == 0 or (col == led and c > best):
            top_seat = s
            higher = colmask[lead_col] & above(c)
        else:
            top_seat = best_seat
            higher = colmask[lead_col] & above(best)
        hold = 1.0
        if n_can > 0:
            if rem_rev & higher:
                hold = 0.0
            else:
                for _ in range(popcount(unknown & higher)):
                    hold *= q
        # sum over seats of P(seat wins) x weight(seat)
        score = hold * weight[top_seat] - _CHEAP * rank
        if n_can > 0:
            score += (1.0 - hold) / n_can * w_can
        p_me = hold if top_seat == s else 0.0
        score -= _KEEP * keep * rank * (1.0 - p_me)
        if own_last and tricks_left > 1 and _is_top_rank(c, hands[s]):
            score -= _KEEP_TOP
        if nine_sign != 0.0 and rank == RANKS - 1 and not nine_dead:
            score += nine_sign * (-1.0 if pos > 0 and col != led else _NINE_SAFE)
        if n_colour > 0:
            score += _colour_terms(c, s, trick_mask, hold, top_seat, n_can, can_seats, talon, played,
                                   won, rel, nrel, colmask)
        if score > best_score:
            best_score = score
            best_card = c
    return best_card


@nb.njit(cache=True)
def _decision_weights(s, tricks_left, tricks, rel, nrel, weight):
    """Fold seat s's trick-count and last-trick terms into ``weight[o]``: the
    value to s of owner o winning this trick rather than losing it. Returns
    (keep, own_last, colour terms, nines sign) for the per-card terms."""
    for t in range(weight.shape[0]):
        weight[t] = 0.0
    keep = 0.0
    own_last = False
    n_colour = 0
    nine_sign = 0.0
    for j in range(nrel[s]):
        kind = rel[s, j, 0]
        owner = rel[s, j, 3]
        sign = rel[s, j, 4]
        if kind == TRICKS:
            need = rel[s, j, 1] - tricks[owner]
            if need < 0 or need > tricks_left:
                continue
            if need == 0:
                weight[owner] -= sign
            elif need == tricks_left:
                weight[owner] += sign
            else:
                weight[owner] += sign * _PACE * (2.0 * need - tricks_left) / tricks_left
            if owner == s:
                keep += 1.0 if need > 0 else -1.0
        elif kind == LAST:
            if tricks_left == 1:
                weight[owner] += 2.0 * sign
            elif tricks_left == 2:
                weight[owner] += sign * _LAST_LEAD
            if owner == s:
                own_last = True
        elif kind == COLOUR:
            n_colour += 1
        elif kind == NINES:
            nine_sign += sign
    return keep, own_last, n_colour, nine_sign


@nb.njit(cache=True)
def _colour_terms(c, s, trick_mask, hold, top_seat, n_can, can_seats, talon, played, won, rel, nrel,
                  colmask):
    """Value of playing ``c`` for the colour-count bets seat s plays for or against."""
    tmask = trick_mask | bit(c)
    score = 0.0
    for j in range(nrel[s]):
        if rel[s, j, 0] != COLOUR:
            continue
        a = rel[s, j, 1]
        owner = rel[s, j, 3]
        need = rel[s, j, 2] - popcount(won[owner] & colmask[a])
        avail = popcount(colmask[a] & ~talon & ~played)
        if need < 0 or need > avail:
            continue
        m_c = popcount(tmask & colmask[a])
        u_win = 0.0
        if m_c > need:
            u_win = -1.0
        elif m_c > 0:
            u_win = _COLOUR_GAIN * m_c / need
        u_lose = -1.0 if need > avail - m_c else 0.0
        po = hold if owner == top_seat else 0.0
        for k in range(n_can):
            if can_seats[k] == owner:
                po += (1.0 - hold) / n_can
        score += rel[s, j, 4] * (po * u_win + (1.0 - po) * u_lose)
    return score


@nb.njit(cache=True)
def _seats_to_play(s, pos, leader, hands, revealed, void, lead_col, can_seats):
    """For the led colour: (chance an unknown card is NOT with a seat still to
    play, number of such seats not void in it); those seats go to ``can_seats``."""
    players = hands.shape[0]
    vbit = np.int64(1) << lead_col
    rem_slots = 0
    tot_slots = 0
    n_can = 0
    for t in range(players):
        if t == s or (void[t] & vbit) != 0:
            continue
        slots = popcount(hands[t] & ~revealed)
        tot_slots += slots
        t_pos = t - leader
        if t_pos < 0:
            t_pos += players
        if t_pos > pos:
            rem_slots += slots
            can_seats[n_can] = t
            n_can += 1
    if rem_slots == 0:
        return 1.0, n_can
    return 1.0 - rem_slots / tot_slots, n_can


@nb.njit(cache=True, inline="always")
def _is_top_rank(c, hand):
    """True when no card in ``hand`` has a higher rank than ``c``."""
    r = c % RANKS
    h = hand
    while h:
        if lowest(h) % RANKS > r:
            return False
        h &= h - U1
    return True
