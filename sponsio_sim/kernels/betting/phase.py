"""The betting phase's rules (spec 2-3): legal actions and their effects.

An action is ``(act, x, y, rv)``: ``rv`` is the hand card revealed to act;
PASS; BET ``x`` = catalogue row; TOKEN ``x`` = token, ``y`` = the card
revealed to pay for it or -1 to pay coins; SWAP ``x`` = hand card given,
``y`` = talon card taken. ``apply_action`` checks every rule and returns
False (state untouched) for an illegal action, so policies and hand-made
tests go through the same gate. State layout: ``game.layout``.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.bits import U0, bit
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.game.layout import (BET, DOUBLE_TOKEN, END_TOKENS, I_BET_RANK, I_BET_ROW, I_DEALER, I_DOUBLED,
                                             I_ENTRY, I_KINDS_HELD, I_NBETS, I_NPLACED, I_NROWS, I_STEPS_DONE,
                                             I_PLAYERS, I_ROWS, I_SWAPS, I_TOKENS, I_TOKEN_OWNER, I_TOKEN_TAKEN,
                                             I_TURNS, LEAD_TOKEN, MAX_BETS, N_TOKENS, PASS, REBET_TOKEN, SWAP,
                                             SWAP_TOKEN, TOKEN, W_COINS, W_FEES, W_STAKE, W_STAKES, W_TOKEN_COST)
from sponsio_sim.kernels.table import HANDS, REVEALED, TALON


@nb.njit(cache=True, inline="always")
def leader_of(ints):
    """Who leads the first trick: the lead token's holder, else left of the dealer."""
    owner = ints[I_TOKEN_OWNER + LEAD_TOKEN]
    if owner >= 0:
        return owner
    s = ints[I_DEALER] + 1
    return 0 if s == ints[I_PLAYERS] else s


@nb.njit(cache=True, inline="always")
def entry_of(s, ints):
    return ints[I_ENTRY + s]


@nb.njit(cache=True, inline="always")
def bet_legal(s, row, ints, weight):
    """Spec 2.2: a catalogue bet of a type not yet held, never on one's own
    failure, and only with coins for the stake (never with 0 coins)."""
    if row < 0 or row >= ints[I_NROWS]:
        return False
    kind = ints[I_ROWS + 3 * row]
    if (ints[I_KINDS_HELD + s] >> kind) & 1:
        return False
    if kind == FAIL and ints[I_ROWS + 3 * row + 1] == s:
        return False
    coins = weight[W_COINS + s]
    return coins > 0 and coins >= weight[W_STAKE]


@nb.njit(cache=True, inline="always")
def token_free(t, ints):
    """Token ``t`` is in the rule set and still in the pool."""
    return t >= 0 and t < N_TOKENS and (ints[I_TOKENS] >> t) & 1 == 1 and ints[I_TOKEN_OWNER + t] < 0


@no_refcount
def _unrevealed(s, tab, c):
    return c >= 0 and (tab[HANDS + s] & ~tab[REVEALED] & bit(c)) != U0


@no_refcount
def swap_cards(s, x, y, tab, ints):
    """Exchange hand card ``x`` with talon card ``y``; both become public."""
    bx = bit(x)
    by = bit(y)
    tab[HANDS + s] = (tab[HANDS + s] & ~bx) | by
    tab[TALON] = (tab[TALON] & ~by) | bx
    tab[REVEALED] = (tab[REVEALED] & ~bx) | by
    ints[I_SWAPS + s] += 1


@no_refcount
def swap_legal(s, x, y, tab):
    return (x >= 0 and y >= 0 and (tab[HANDS + s] & bit(x)) != U0 and (tab[TALON] & bit(y)) != U0)


@no_refcount
def add_bet(s, row, ints):
    """Seat s takes catalogue bet ``row``, ranked after every bet placed before it this round."""
    n = ints[I_NBETS + s]
    ints[I_BET_ROW + s * MAX_BETS + n] = row
    ints[I_BET_RANK + s * MAX_BETS + n] = ints[I_NPLACED]
    ints[I_NPLACED] += 1
    ints[I_NBETS + s] = n + 1
    ints[I_KINDS_HELD + s] |= np.int64(1) << ints[I_ROWS + 3 * row]


@no_refcount
def apply_action(s, act, x, y, rv, tab, ints, weight):
    """Check and apply seat s's betting action; False (nothing changed) if illegal."""
    if act == PASS:
        ints[I_STEPS_DONE] += 1
        return True
    if not _unrevealed(s, tab, rv):
        return False
    if act == BET:
        if not bet_legal(s, x, ints, weight):
            return False
        add_bet(s, x, ints)
        weight[W_COINS + s] -= weight[W_STAKE]
        weight[W_STAKES + s] += weight[W_STAKE]
    elif act == TOKEN:
        if not token_free(x, ints):
            return False
        if y >= 0:
            if y == rv or not _unrevealed(s, tab, y):
                return False
            tab[REVEALED] |= bit(y)
        else:
            if weight[W_COINS + s] < weight[W_TOKEN_COST]:
                return False
            weight[W_COINS + s] -= weight[W_TOKEN_COST]
            weight[W_FEES + s] += weight[W_TOKEN_COST]
        ints[I_TOKEN_OWNER + x] = s
        ints[I_TOKEN_TAKEN + s * N_TOKENS + x] = 1
    elif act == SWAP:
        if not swap_legal(s, x, y, tab):
            return False
    else:
        return False
    tab[REVEALED] |= bit(rv)
    if act == SWAP:
        swap_cards(s, x, y, tab, ints)
    ints[I_STEPS_DONE] += 1
    return True


@no_refcount
def apply_rebet(s, i, row, ints):
    """The rebet token: bet i of seat s takes parameter ``row`` (same type)."""
    if i < 0 or i >= ints[I_NBETS + s] or row < 0 or row >= ints[I_NROWS]:
        return False
    old = ints[I_BET_ROW + s * MAX_BETS + i]
    kind = ints[I_ROWS + 3 * row]
    if row == old or kind != ints[I_ROWS + 3 * old]:
        return False
    if kind == FAIL and ints[I_ROWS + 3 * row + 1] == s:
        return False
    ints[I_BET_ROW + s * MAX_BETS + i] = row
    return True


@no_refcount
def apply_double(s, i, ints):
    """The double token names bet i of its holder."""
    if i < 0 or i >= ints[I_NBETS + s]:
        return False
    ints[I_DOUBLED + s] = i
    return True


@nb.njit(cache=True, inline="always")
def actor(step, ints):
    """The seat that acts at betting step ``step`` (turn ``step // players``),
    starting left of the dealer."""
    players = ints[I_PLAYERS]
    return (ints[I_DEALER] + 1 + step % players) % players


@nb.njit(cache=True, inline="always")
def betting_place(s, ints):
    """Seat s's place in the betting order (0: left of the dealer, first to act)."""
    players = ints[I_PLAYERS]
    return (s - ints[I_DEALER] - 1 + players) % players


@nb.njit(cache=True, inline="always")
def betting_steps(ints):
    """Betting actions in a round: every seat once per turn."""
    return ints[I_TURNS] * ints[I_PLAYERS]


@nb.njit(cache=True, inline="always")
def end_token(j):
    """The j-th token to take effect when betting ends (``END_TOKENS``)."""
    return END_TOKENS[j]


@no_refcount
def apply_end_token(s, t, x, y, tab, ints):
    """Seat s uses token ``t`` as betting ends (swap: hand card x for talon
    card y; rebet: bet x takes row y; double: bet x); False if not used or illegal."""
    if t == SWAP_TOKEN:
        if swap_legal(s, x, y, tab):
            swap_cards(s, x, y, tab, ints)
            return True
        return False
    if t == REBET_TOKEN:
        return apply_rebet(s, x, y, ints)
    if t == DOUBLE_TOKEN:
        return apply_double(s, x, ints)
    return False
