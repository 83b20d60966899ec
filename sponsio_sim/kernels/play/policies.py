"""Play policies: which legal card a seat plays.

Every policy sees only what its seat may know (docs/rules-sponsio.md section 8): its own
hand, the talon, revealed cards, cards played, and voids shown in play.

- ``random``: a uniformly random legal card.
- ``greedy``: maximises its chance of winning the trick, cheapest card first.
- ``goal``: scores each legal card by its holder's bets and the bets it plays
  against (the relevance table, see ``build_relevance``) using an estimate
  of who wins the trick, and plays the best; ties go to the lowest card.
  What each bet is worth in a trick is ``goals``, one branch per bet kind.

State arrays (``board``, ``game_state``, ``money``) are laid out in ``kernels.layout``.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.bits import RANKS, U0, U1, above, beats, bit, lowest, popcount, select
from sponsio_sim.kernels.play.goals import colour_terms, goal_weights
from sponsio_sim.kernels.trickstate import rel_at
from sponsio_sim.kernels.layout import BOARD, MAX_REL, TRICK_STATE
from sponsio_sim.kernels.rulebook import nines_own

RANDOM, GREEDY, GOAL = 0, 1, 2
# Weights of the goal policy's card-scoring terms (heuristic constants, not rules;
# the bets' own terms are in ``goals``).
_NINE_SAFE = 0.3   # playing a 9 where it wins (it cannot be discarded later)
_KEEP = 0.02       # per rank: keep high cards (wanting tricks) or dump them
_KEEP_TOP = 0.3    # a last-trick bettor keeps its best card
_CHEAP = 0.001     # per rank: prefer the cheaper of equal cards
_OVERTAKE = 0.7    # chance a seat holding a higher card of the led colour plays it


@no_refcount
def build_relevance(codes, counts, game_state):
    """Which bets each seat plays for (+1) or against (-1), into ``game_state``.

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
                    game_state[rel_at(s, n, 0)] = codes[t, i, 0]
                    game_state[rel_at(s, n, 1)] = codes[t, i, 1]
                    game_state[rel_at(s, n, 2)] = codes[t, i, 2]
                    game_state[rel_at(s, n, 3)] = t
                    game_state[rel_at(s, n, 4)] = sign
                    n += 1
        game_state[TRICK_STATE.n_rel + s] = n


@no_refcount
def choose_random(legal, state):
    """A uniformly random legal card."""
    return select(legal, randbelow(state, popcount(legal)))


@no_refcount
def choose_scored(s, goal, legal, trick, board, game_state, money):
    """The goal policy's card (``goal``), else the greedy policy's (see module
    docstring), for seat s in ``trick`` (a ``contexts.Trick``).

    Cards that differ only by ranks already gone (played or in the talon)
    are one move: only the cheapest is scored, except 9s (nines bets).
    For each legal card it estimates who wins the trick: the card on top
    after it holds unless a seat still to play has a higher card of the led
    colour. A revealed higher card there beats it; each unknown higher card
    lies with the seats still to play in proportion to their unknown slots
    (seats void in the led colour excluded) and is played with probability
    ``_OVERTAKE``. A beaten top is shared evenly among those seats. The score
    is the sum over seats of P(seat wins) x ``money[seat]`` plus per-card
    terms.
    """
    players, leader, pos, led, best, best_seat, trick_mask, tricks_left = trick
    hand = board[BOARD.hands + s]
    revealed = board[BOARD.revealed]
    unknown = board[BOARD.deck] & ~(hand | board[BOARD.talon] | board[BOARD.played] | trick_mask | revealed)
    rem_rev = U0
    t = leader + pos
    for _ in range(pos + 1, players):
        t += 1
        if t >= players:
            t -= players
        rem_rev |= board[BOARD.hands + t] & revealed
    dead = board[BOARD.played] | board[BOARD.talon]
    if goal:
        keep, own_last, n_colour, nine_sign, bank = goal_weights(s, players, tricks_left, trick_mask,
                                                                 board, game_state, money)
    else:
        for t in range(players):
            money[t] = 0.0
        money[s] = 1.0
        keep = 0.0
        own_last = False
        n_colour = 0
        nine_sign = 0.0
        bank = 0.0
    nine_dead = pos > 0 and (trick_mask & board[BOARD.nine_cards] & ~bit(best)) != U0 \
        and not nines_own(game_state)
    cur_col = -1
    q = 0.0
    n_can = np.int64(0)
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
            q, n_can = _seats_to_play(s, players, pos, leader, lead_col, board, game_state)
            w_can = 0.0
            for k in range(n_can):
                w_can += money[game_state[TRICK_STATE.can + k]]
        if pos == 0 or beats(c, best):
            top_seat = s
            higher = board[BOARD.colour_masks + lead_col] & above(c)
        else:
            top_seat = best_seat
            higher = board[BOARD.colour_masks + lead_col] & above(best)
        hold = 1.0
        if n_can > 0:
            if rem_rev & higher:
                hold = 1.0 - _OVERTAKE
            for _ in range(popcount(unknown & higher)):
                hold *= q
        score = hold * money[top_seat] - _CHEAP * rank
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
            score += colour_terms(c, s, trick, lead_col, hold, top_seat, n_can, unknown, board, game_state)
        if score > best_score:
            best_score = score
            best_card = c
    return best_card


@nb.njit(cache=True, inline="always")
def _seats_to_play(s, players, pos, leader, lead_col, board, game_state):
    """For the led colour: (chance an unknown card is NOT with a seat still to
    play, number of such seats not void in it); those seats go to game_state[CAN:]."""
    vbit = np.int64(1) << lead_col
    revealed = board[BOARD.revealed]
    rem_slots = 0
    tot_slots = 0
    n_can = 0
    for t in range(players):
        if t == s or (game_state[TRICK_STATE.void + t] & vbit) != 0:
            continue
        slots = popcount(board[BOARD.hands + t] & ~revealed)
        tot_slots += slots
        t_pos = t - leader
        if t_pos < 0:
            t_pos += players
        if t_pos > pos:
            rem_slots += slots
            game_state[TRICK_STATE.can + n_can] = t
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
