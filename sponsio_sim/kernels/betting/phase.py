"""The betting phase's rules (docs/rules-sponsio.md sections 2-3): legal actions and their effects.

An action is ``(act, x, y, rv)``: ``rv`` is the hand card revealed to act;
PASS; BET ``x`` = catalogue row; TOKEN ``x`` = token, ``y`` = the card
revealed to pay for it or -1 to pay coins; SWAP ``x`` = hand card given,
``y`` = talon card taken. ``apply_action`` checks every rule and returns
False (state untouched) for an illegal action, so policies and hand-made
tests go through the same gate. State layout: ``kernels.layout``.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.bits import U0, bit
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.layout import (BET, BOARD, DOUBLE_TOKEN, END_TOKENS, GAME, LEAD_TOKEN, MAX_BETS, MONEY,
                                        MONEY_RULES, N_TOKENS, PASS, REBET_TOKEN, RULES, SWAP, SWAP_TOKEN, TOKEN)
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of


@nb.njit(cache=True, inline="always")
def leader_of(game_state):
    """Who leads the first trick: the lead token's holder, else left of the dealer."""
    rules = rules_of(game_state)
    owner = game_state[GAME.token_owner + LEAD_TOKEN]
    if owner >= 0:
        return owner
    s = game_state[GAME.dealer] + 1
    return 0 if s == rules[RULES.players] else s


@nb.njit(cache=True, inline="always")
def entry_of(s, game_state):
    return game_state[GAME.seat_entry + s]


@nb.njit(cache=True, inline="always")
def bet_legal(s, row, game_state, money):
    """docs/rules-sponsio.md section 2.2: a catalogue bet of a type not yet held, never on one's own
    failure, and only with coins for the stake (never with 0 coins)."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    if row < 0 or row >= rules[RULES.catalogue_rows]:
        return False
    kind = rules[RULES.catalogue + 3 * row]
    if (game_state[GAME.kinds_held + s] >> kind) & 1:
        return False
    if kind == FAIL and rules[RULES.catalogue + 3 * row + 1] == s:
        return False
    coins = money[MONEY.coins + s]
    return coins > 0 and coins >= money_rules[MONEY_RULES.stake]


@nb.njit(cache=True, inline="always")
def token_free(t, game_state):
    """Token ``t`` is in the rule set and still in the pool."""
    rules = rules_of(game_state)
    return t >= 0 and t < N_TOKENS and (rules[RULES.tokens] >> t) & 1 == 1 and game_state[GAME.token_owner + t] < 0


@no_refcount
def _unrevealed(s, board, c):
    return c >= 0 and (board[BOARD.hands + s] & ~board[BOARD.revealed] & bit(c)) != U0


@no_refcount
def swap_cards(s, x, y, board, game_state):
    """Exchange hand card ``x`` with talon card ``y``; both become public."""
    bx = bit(x)
    by = bit(y)
    board[BOARD.hands + s] = (board[BOARD.hands + s] & ~bx) | by
    board[BOARD.talon] = (board[BOARD.talon] & ~by) | bx
    board[BOARD.revealed] = (board[BOARD.revealed] & ~bx) | by
    game_state[GAME.swaps + s] += 1


@no_refcount
def swap_legal(s, x, y, board):
    return (x >= 0 and y >= 0 and (board[BOARD.hands + s] & bit(x)) != U0 and (board[BOARD.talon] & bit(y)) != U0)


@no_refcount
def add_bet(s, row, game_state):
    """Seat s takes catalogue bet ``row``, ranked after every bet placed before it this round."""
    rules = rules_of(game_state)
    n = game_state[GAME.bet_count + s]
    game_state[GAME.bet_row + s * MAX_BETS + n] = row
    game_state[GAME.bet_rank + s * MAX_BETS + n] = game_state[GAME.bets_placed]
    game_state[GAME.bets_placed] += 1
    game_state[GAME.bet_count + s] = n + 1
    game_state[GAME.kinds_held + s] |= np.int64(1) << rules[RULES.catalogue + 3 * row]


@no_refcount
def apply_action(s, act, x, y, rv, board, game_state, money):
    """Check and apply seat s's betting action; False (nothing changed) if illegal."""
    money_rules = money_rules_of(game_state)
    if act == PASS:
        game_state[GAME.betting_steps] += 1
        return True
    if not _unrevealed(s, board, rv):
        return False
    if act == BET:
        if not bet_legal(s, x, game_state, money):
            return False
        add_bet(s, x, game_state)
        money[MONEY.coins + s] -= money_rules[MONEY_RULES.stake]
        money[MONEY.stakes + s] += money_rules[MONEY_RULES.stake]
    elif act == TOKEN:
        if not token_free(x, game_state):
            return False
        if y >= 0:
            if y == rv or not _unrevealed(s, board, y):
                return False
            board[BOARD.revealed] |= bit(y)
        else:
            if money[MONEY.coins + s] < money_rules[MONEY_RULES.token_cost]:
                return False
            money[MONEY.coins + s] -= money_rules[MONEY_RULES.token_cost]
            money[MONEY.fees + s] += money_rules[MONEY_RULES.token_cost]
        game_state[GAME.token_owner + x] = s
        game_state[GAME.token_taken + s * N_TOKENS + x] = 1
    elif act == SWAP:
        if not swap_legal(s, x, y, board):
            return False
    else:
        return False
    board[BOARD.revealed] |= bit(rv)
    if act == SWAP:
        swap_cards(s, x, y, board, game_state)
    game_state[GAME.betting_steps] += 1
    return True


@no_refcount
def apply_rebet(s, i, row, game_state):
    """The rebet token: bet i of seat s takes parameter ``row`` (same type)."""
    rules = rules_of(game_state)
    if i < 0 or i >= game_state[GAME.bet_count + s] or row < 0 or row >= rules[RULES.catalogue_rows]:
        return False
    old = game_state[GAME.bet_row + s * MAX_BETS + i]
    kind = rules[RULES.catalogue + 3 * row]
    if row == old or kind != rules[RULES.catalogue + 3 * old]:
        return False
    if kind == FAIL and rules[RULES.catalogue + 3 * row + 1] == s:
        return False
    game_state[GAME.bet_row + s * MAX_BETS + i] = row
    return True


@no_refcount
def apply_double(s, i, game_state):
    """The double token names bet i of its holder."""
    if i < 0 or i >= game_state[GAME.bet_count + s]:
        return False
    game_state[GAME.doubled_bet + s] = i
    return True


@nb.njit(cache=True, inline="always")
def actor(step, game_state):
    """The seat that acts at betting step ``step`` (turn ``step // players``),
    starting left of the dealer."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    return (game_state[GAME.dealer] + 1 + step % players) % players


@nb.njit(cache=True, inline="always")
def betting_place(s, game_state):
    """Seat s's place in the betting order (0: left of the dealer, first to act)."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    return (s - game_state[GAME.dealer] - 1 + players) % players


@nb.njit(cache=True, inline="always")
def betting_steps(game_state):
    """Betting actions in a round: every seat once per turn."""
    rules = rules_of(game_state)
    return rules[RULES.betting_turns] * rules[RULES.players]


@nb.njit(cache=True, inline="always")
def end_token(j):
    """The j-th token to take effect when betting ends (``END_TOKENS``)."""
    return END_TOKENS[j]


@no_refcount
def apply_end_token(s, t, x, y, board, game_state):
    """Seat s uses token ``t`` as betting ends (swap: hand card x for talon
    card y; rebet: bet x takes row y; double: bet x); False if not used or illegal."""
    if t == SWAP_TOKEN:
        if swap_legal(s, x, y, board):
            swap_cards(s, x, y, board, game_state)
            return True
        return False
    if t == REBET_TOKEN:
        return apply_rebet(s, x, y, game_state)
    if t == DOUBLE_TOKEN:
        return apply_double(s, x, game_state)
    return False
