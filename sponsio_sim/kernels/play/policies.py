"""Play policies: which legal card a seat plays.

Every policy sees only what its seat may know (spec section 8): its own
hand, the talon, revealed cards, cards played, and voids shown in play.

- ``random``: a uniformly random legal card.
- ``greedy``: maximises its chance of winning the trick, cheapest card first.
- ``goal``: scores each legal card by its holder's bets and the bets it plays
  against (the relevance table, see ``build_relevance``) using an estimate
  of who wins the trick, and plays the best; ties go to the lowest card.

State arrays (``tab``, ``ints``, ``weight``) are laid out in ``table``.
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import randbelow
from sponsio_sim.kernels.bets import COLOUR, FAIL, LAST, NINES, TRICKS
from sponsio_sim.kernels.bits import RANKS, U0, U1, above, beats, bit, highest, lowest, popcount, select
from sponsio_sim.kernels.table import (CAN, COLMASK, DECK, FLAGS, HANDS, MAX_COLOURS, MAX_REL, NINES as NINES_MASK,
                                       NINES_OWN as NINES_OWN_FLAG, NREL,
                                       PLAYED, REVEALED, TALON, TRICKS as TRICKS_WON, VOID, WON, rel_at)

RANDOM, GREEDY, GOAL = 0, 1, 2
# Weights of the goal policy's scoring terms (heuristic constants, not rules).
_PACE = 0.25       # mild wish to spread the tricks a tricks=N bet still needs
_COLOUR_GAIN = 0.5  # gaining cards of a colour a colour bet still needs
_NINE_SAFE = 0.3   # playing a 9 where it wins (it cannot be discarded later)
_KEEP = 0.02       # per rank: keep high cards (wanting tricks) or dump them
_KEEP_TOP = 0.3    # a last-trick bettor keeps its best card
_LAST_LEAD = 0.3   # win the second-to-last trick to lead the last
_CHEAP = 0.001     # per rank: prefer the cheaper of equal cards
_OVERTAKE = 0.7    # chance a seat holding a higher card of the led colour plays it
_VOID_GUESS = 0.1  # chance a seat not known to be void in the led colour is void
_AVOID = 0.7       # a tricks=N bettor whose sure winners suffice avoids other tricks


@nb.njit(cache=True)
def build_relevance(codes, counts, ints):
    """Which bets each seat plays for (+1) or against (-1), into ``ints``.

    Entry j of seat s is (kind, a, b, owner, sign). A bettor plays for its
    own bets and, for each ``fail:T`` it holds, against T's bets (``fail``:
    every other seat's); a seat with no bets is a troll and plays against
    every other seat's bets.
    """
    players = counts.shape[0]
    for s in range(players):
        n = 0
        for t in range(players):
            if counts[s] == 0:
                if t == s:
                    continue
                sign = -1
            elif t == s:
                sign = 1
            else:
                sign = 0
                for i in range(counts[s]):
                    if codes[s, i, 0] == FAIL and (codes[s, i, 1] == t or codes[s, i, 1] < 0):
                        sign = -1
                if sign == 0:
                    continue
            for i in range(counts[t]):
                if codes[t, i, 0] != FAIL and n < MAX_REL:
                    ints[rel_at(s, n, 0)] = codes[t, i, 0]
                    ints[rel_at(s, n, 1)] = codes[t, i, 1]
                    ints[rel_at(s, n, 2)] = codes[t, i, 2]
                    ints[rel_at(s, n, 3)] = t
                    ints[rel_at(s, n, 4)] = sign
                    n += 1
        ints[NREL + s] = n


@nb.njit(cache=True)
def choose_random(legal, state):
    """A uniformly random legal card."""
    return select(legal, randbelow(state, popcount(legal)))


@nb.njit(cache=True)
def choose_scored(s, players, policy, legal, pos, leader, led, best, best_seat, trick_mask,
                  tricks_left, tab, ints, weight):
    """The greedy or goal policy's card (see module docstring).

    Cards that differ only by ranks already gone (played or in the talon)
    are one move: only the cheapest is scored, except 9s (nines bets).
    For each legal card it estimates who wins the trick: the card on top
    after it holds unless a seat still to play has a higher card of the led
    colour. A revealed higher card there beats it; each unknown higher card
    lies with the seats still to play in proportion to their unknown slots
    (seats void in the led colour excluded) and is played with probability
    ``_OVERTAKE``. A beaten top is shared evenly among those seats. The score
    is the sum over seats of P(seat wins) x ``weight[seat]`` plus per-card
    terms.
    """
    hand = tab[HANDS + s]
    revealed = tab[REVEALED]
    unknown = tab[DECK] & ~(hand | tab[TALON] | tab[PLAYED] | trick_mask | revealed)
    rem_rev = U0
    t = leader + pos
    for _ in range(pos + 1, players):
        t += 1
        if t >= players:
            t -= players
        rem_rev |= tab[HANDS + t] & revealed
    dead = tab[PLAYED] | tab[TALON]
    if policy == GREEDY:
        for t in range(players):
            weight[t] = 0.0
        weight[s] = 1.0
        keep = 0.0
        own_last = False
        n_colour = 0
        nine_sign = 0.0
        bank = 0.0
    else:
        keep, own_last, n_colour, nine_sign, bank = _decision_weights(s, players, tricks_left, trick_mask,
                                                                      tab, ints, weight)
    nine_dead = pos > 0 and (trick_mask & tab[NINES_MASK] & ~bit(best)) != U0 \
        and (ints[FLAGS] & NINES_OWN_FLAG) == 0
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
            q, n_can = _seats_to_play(s, players, pos, leader, lead_col, tab, ints)
            w_can = 0.0
            for k in range(n_can):
                w_can += weight[ints[CAN + k]]
        if pos == 0 or beats(c, best):
            top_seat = s
            higher = tab[COLMASK + lead_col] & above(c)
        else:
            top_seat = best_seat
            higher = tab[COLMASK + lead_col] & above(best)
        hold = 1.0
        if n_can > 0:
            if rem_rev & higher:
                hold = 1.0 - _OVERTAKE
            for _ in range(popcount(unknown & higher)):
                hold *= q
        score = hold * weight[top_seat] - _CHEAP * rank
        if bank != 0.0 and hold == 1.0 and top_seat == s:
            score += bank  # cashing a sure winner the bet needs
        if n_can > 0:
            score += (1.0 - hold) / n_can * w_can
        if top_seat != s:
            score -= _KEEP * keep * rank  # this card surely loses: keep or dump high cards
        if own_last and tricks_left > 1 and _is_top_rank(c, hand):
            score -= _KEEP_TOP
        if nine_sign != 0.0 and rank == RANKS - 1 and not nine_dead:
            score += nine_sign * (-1.0 if pos > 0 and col != led else _NINE_SAFE)
        if n_colour > 0:
            score += _colour_terms(c, s, pos, players, lead_col, trick_mask, hold, top_seat, n_can,
                                   unknown, tab, ints)
        if score > best_score:
            best_score = score
            best_card = c
    return best_card


@nb.njit(cache=True, inline="always")
def _decision_weights(s, players, tricks_left, trick_mask, tab, ints, weight):
    """Fold seat s's trick-count and last-trick terms into ``weight[o]``: the
    value to s of owner o winning this trick rather than losing it. Returns
    (keep, own_last, colour terms, nines sign, bank) for the per-card terms.

    A seat whose own ``tricks=N`` bet can be filled by its sure winners
    (``sure_winners``) avoids other tricks; winning with a sure winner is
    then neutral: ``bank`` is the weight to give back for such a card.
    """
    for t in range(players):
        weight[t] = 0.0
    bank = 0.0
    keep = 0.0
    own_last = False
    n_colour = 0
    nine_sign = 0.0
    for j in range(ints[NREL + s]):
        kind = ints[rel_at(s, j, 0)]
        owner = ints[rel_at(s, j, 3)]
        sign = ints[rel_at(s, j, 4)]
        if kind == TRICKS:
            need = ints[rel_at(s, j, 1)] - ints[TRICKS_WON + owner]
            if need < 0 or need > tricks_left:
                continue
            if need == 0:
                weight[owner] -= sign
            elif need == tricks_left:
                weight[owner] += sign
            elif owner == s:
                sure = sure_winners(tab[HANDS + s], tab[PLAYED] | tab[TALON] | trick_mask, tab)
                if need > sure:
                    weight[s] += _PACE * 2.0 * min(1.0, (need - sure) / max(1, tricks_left - sure))
                else:
                    weight[s] -= _AVOID
                    bank += _AVOID
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
        elif kind == NINES and (owner == s or (ints[FLAGS] & NINES_OWN_FLAG) == 0):
            nine_sign += sign  # under nines_scope = own, only the bettor's own 9s count
    return keep, own_last, n_colour, nine_sign, bank


@nb.njit(cache=True, inline="always")
def sure_winners(hand, gone, tab):
    """Cards of ``hand`` that win whenever led: per colour, the own cards in
    the run from the top down made only of own and gone cards."""
    n = 0
    for col in range(MAX_COLOURS):
        cmask = tab[COLMASK + col]
        if cmask == U0:
            break
        shift = np.uint64(col * RANKS)
        holes = ~((hand | gone) >> shift) & np.uint64(0x1FF)
        top_run = np.uint64(0x1FF) if holes == U0 else (np.uint64(0x1FF) & ~((bit(highest(holes)) << U1) - U1))
        n += popcount(hand & (top_run << shift))
    return n


@nb.njit(cache=True)
def _colour_terms(c, s, pos, players, lead_col, trick_mask, hold, top_seat, n_can, unknown, tab, ints):
    """Value of playing ``c`` for the colour-count bets seat s plays for or against.

    The seats still to play add to the trick a card of the led colour each if
    they can follow; seats that cannot (known voids, or a small guessed
    chance) discard, a card of colour C in proportion to C's unknown cards.
    """
    tmask = trick_mask | bit(c)
    gone = tab[TALON] | tab[PLAYED]
    n_rem = players - 1 - pos
    n_unknown = popcount(unknown)
    discards = (n_rem - n_can) + _VOID_GUESS * n_can
    score = 0.0
    for j in range(ints[NREL + s]):
        if ints[rel_at(s, j, 0)] != COLOUR:
            continue
        col = ints[rel_at(s, j, 1)]
        cmask = tab[COLMASK + col]
        owner = ints[rel_at(s, j, 3)]
        need = ints[rel_at(s, j, 2)] - popcount(tab[WON + owner] & cmask)
        avail = popcount(cmask & ~gone)
        if need < 0 or need > avail:
            continue
        m_c = popcount(tmask & cmask)
        if col == lead_col:
            m_c = min(m_c + n_can, avail)
            extra = 0.0
        elif n_unknown > 0:
            extra = discards * popcount(unknown & cmask) / n_unknown
        else:
            extra = 0.0
        if m_c > need:
            u_win = -1.0
        elif need == 0:
            u_win = -min(1.0, extra)
        else:
            u_win = _COLOUR_GAIN * min(m_c + extra, need) / need
        u_lose = -1.0 if need > avail - m_c else 0.0
        po = hold if owner == top_seat else 0.0
        for k in range(n_can):
            if ints[CAN + k] == owner:
                po += (1.0 - hold) / n_can
        score += ints[rel_at(s, j, 4)] * (po * u_win + (1.0 - po) * u_lose)
    return score


@nb.njit(cache=True, inline="always")
def _seats_to_play(s, players, pos, leader, lead_col, tab, ints):
    """For the led colour: (chance an unknown card is NOT with a seat still to
    play, number of such seats not void in it); those seats go to ints[CAN:]."""
    vbit = np.int64(1) << lead_col
    revealed = tab[REVEALED]
    rem_slots = 0
    tot_slots = 0
    n_can = 0
    for t in range(players):
        if t == s or (ints[VOID + t] & vbit) != 0:
            continue
        slots = popcount(tab[HANDS + t] & ~revealed)
        tot_slots += slots
        t_pos = t - leader
        if t_pos < 0:
            t_pos += players
        if t_pos > pos:
            rem_slots += slots
            ints[CAN + n_can] = t
            n_can += 1
    if rem_slots == 0:
        return 1.0, n_can
    return 1.0 - _OVERTAKE * rem_slots / tot_slots, n_can


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
