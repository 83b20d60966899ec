"""The trick phase (spec section 5): follow colour, no trumps, winner leads."""

import numba as nb
import numpy as np

from sponsio_sim.kernels.bits import RANKS, U0, U1, bit, lowest, popcount
from sponsio_sim.kernels.policies import RANDOM, choose_random, choose_scored


@nb.njit(cache=True)
def play_tricks(hands, leader, talon, revealed, policy, rel, nrel, colmask, deck, nines,
                state, tricks, won, void, probs, can_seats):
    """Play every trick; hands are emptied in place.

    ``policy[s]`` picks seat s's policy; ``revealed`` is the public part of
    the hands. Fills ``tricks[s]`` and ``won[s]`` (cards in s's tricks) and
    returns ``(last_trick_winner, nines_ok)``.
    """
    players = hands.shape[0]
    for s in range(players):
        tricks[s] = 0
        won[s] = U0
        void[s] = 0
    n_tricks = popcount(hands[leader])
    played = U0
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
            h = hands[s]
            if pos == 0:
                legal = h
            else:
                legal = h & led_mask
                if legal == U0:
                    legal = h
                    void[s] |= np.int64(1) << led
            pol = policy[s]
            if pol == RANDOM:
                c = choose_random(legal, state)
            elif (legal & (legal - U1)) == U0:
                c = lowest(legal)
            else:
                c = choose_scored(s, pol, legal, pos, leader, led, best, best_seat, trick_mask,
                                  tricks_left, hands, revealed, talon, played, void, tricks, won,
                                  rel, nrel, colmask, deck, nines, probs, can_seats)
            b = bit(c)
            hands[s] = h & ~b
            revealed &= ~b
            trick_mask |= b
            if pos == 0:
                led = c // RANKS
                led_mask = colmask[led]
                best = c
                best_seat = s
            elif (b & led_mask) != U0 and c > best:
                best = c
                best_seat = s
        if trick_mask & nines & ~bit(best):
            nines_ok = False
        tricks[best_seat] += 1
        won[best_seat] |= trick_mask
        played |= trick_mask
        leader = best_seat
    return leader, nines_ok

