"""A betting decision's legal actions, and replaying a round's history.

A history is an int64 array, one row per event of the round so far:
``(seat, kind, a, b, c)``; kind PASS, BET, TOKEN or SWAP is a betting
action ``(act, x, y, rv) = (kind, a, b, c)`` (``betting.phase``); kind
``END_USE`` is an end-of-betting token use ``(t, x, y) = (a, b, c)``
(``betting.phase.apply_end_token``).

An action is ``(act, x, y, rv)`` as ``betting.phase.apply_action`` takes
it at a betting step; at an end-of-betting token it is ``(-1, x, y, -1)``
with ``(x, y)`` as ``apply_end_token`` takes them, (-1, -1) for not using it.
"""

import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.betting.phase import (apply_action, apply_end_token, bet_legal, betting_steps, end_token,
                                               token_free)
from sponsio_sim.kernels.betting.dispatch import choose_action
from sponsio_sim.kernels.betting.policies import cheap_card
from sponsio_sim.kernels.bits import U0, U1, bit, lowest
from sponsio_sim.kernels.layout import (BET, BOARD, DOUBLE_TOKEN, GAME, MAX_BETS, MONEY, MONEY_RULES, N_TOKENS, PASS,
                                        REBET_TOKEN, RULES, SWAP, SWAP_TOKEN, TOKEN)
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of

END_USE = 4              # history kind of an end-of-betting token use
HIST_FIELDS = 5
MAX_ACTIONS = 192        # more than any decision has: 1 + 72 rows + 8 token payments + 8 x 4 swaps (+ reveals)


@no_refcount
def _add(out, n, act, x, y, rv):
    out[n, 0] = act
    out[n, 1] = x
    out[n, 2] = y
    out[n, 3] = rv
    return n + 1


@no_refcount
def betting_actions(s, board, game_state, money, out):
    """Every legal action of seat s at a betting step into ``out``: pass;
    each legal catalogue bet; each free token paid in coins and paid by
    revealing a card; each exchange of a hand card with a talon card. The
    card revealed to act is the cheapest unrevealed one (an exchange shows
    the card it gives when that is unrevealed; ``reveal_actions`` varies it).
    Returns their number."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    n = _add(out, 0, PASS, -1, -1, -1)
    hand = board[BOARD.hands + s]
    unrev = hand & ~board[BOARD.revealed]
    if unrev == U0:
        return n
    rv = cheap_card(unrev)
    for row in range(rules[RULES.catalogue_rows]):
        if bet_legal(s, row, game_state, money):
            n = _add(out, n, BET, row, -1, rv)
    rest = unrev & ~bit(rv)
    for t in range(N_TOKENS):
        if not token_free(t, game_state):
            continue
        if money[MONEY.coins + s] >= money_rules[MONEY_RULES.token_cost]:
            n = _add(out, n, TOKEN, t, -1, rv)
        if rest != U0:
            n = _add(out, n, TOKEN, t, cheap_card(rest), rv)
    return _swaps(s, SWAP, rv, board, out, n)


@no_refcount
def _swaps(s, act, rv, board, out, n):
    """Each exchange of one of seat s's hand cards with a talon card as
    ``(act, x, y, reveal)``: at a betting step (``rv >= 0``) the card
    revealed is the one given when that is unrevealed, else ``rv``; as
    betting ends (``rv < 0``) nothing is revealed. Returns the new count."""
    unrev = board[BOARD.hands + s] & ~board[BOARD.revealed]
    mx = board[BOARD.hands + s]
    while mx:
        x = lowest(mx)
        mx &= mx - U1
        my = board[BOARD.talon]
        while my:
            y = lowest(my)
            my &= my - U1
            n = _add(out, n, act, x, y, -1 if rv < 0 else (x if (unrev & bit(x)) != U0 else rv))
    return n


@no_refcount
def end_actions(s, t, board, game_state, out):
    """Every use seat s may make of end-of-betting token ``t``: none first,
    then each exchange (swap), each bet to double (double), each other
    parameter of each bet (rebet). Returns their number."""
    rules = rules_of(game_state)
    n = _add(out, 0, -1, -1, -1, -1)
    if t == SWAP_TOKEN:
        n = _swaps(s, -1, -1, board, out, n)
    elif t == DOUBLE_TOKEN:
        for i in range(game_state[GAME.bet_count + s]):
            n = _add(out, n, -1, i, -1, -1)
    elif t == REBET_TOKEN:
        for i in range(game_state[GAME.bet_count + s]):
            row = game_state[GAME.bet_row + s * MAX_BETS + i]
            kind = rules[RULES.catalogue + 3 * row]
            for r in range(rules[RULES.catalogue_rows]):
                if (r != row and rules[RULES.catalogue + 3 * r] == kind
                        and not (kind == FAIL and rules[RULES.catalogue + 3 * r + 1] == s)):
                    n = _add(out, n, -1, i, r, -1)
    return n


@no_refcount
def reveal_actions(s, act, x, y, board, out):
    """The action ``(act, x, y)`` with each of seat s's unrevealed cards as
    the card revealed to act (a token paid by revealing pays with the
    cheapest other card). Returns their number."""
    unrev = board[BOARD.hands + s] & ~board[BOARD.revealed]
    n = 0
    m = unrev
    while m:
        rv = lowest(m)
        m &= m - U1
        if act == TOKEN and y >= 0:
            rest = unrev & ~bit(rv)
            if rest == U0:
                continue
            n = _add(out, n, act, x, cheap_card(rest), rv)
        else:
            n = _add(out, n, act, x, y, rv)
    return n


@no_refcount
def decision_actions(step, s, board, game_state, money, out):
    """The legal actions of seat s at ``step`` (betting steps, then the end tokens)."""
    n_bet = betting_steps(game_state)
    if step < n_bet:
        return betting_actions(s, board, game_state, money, out)
    return end_actions(s, end_token(step - n_bet), board, game_state, out)


@no_refcount
def same_choice(act, x, y, kind, a, b):
    """A policy's choice ``(act, x, y)`` is the observed action: the same kind
    and the same bet, token or exchange (which card is revealed, and how a
    token is paid, are not compared)."""
    if act != kind:
        return False
    if act == PASS:
        return True
    if act == SWAP:
        return x == a and y == b
    return x == a


@no_refcount
def replay(hist, n, judged, tremble, board, game_state, money, state):
    """Apply the first ``n`` history rows to a round-start state. Every
    betting action of a seat in the bitmask ``judged`` is first compared with
    what that seat's policy (in ``game_state``) would do: the log-likelihood gains
    ``log(tremble)`` at each disagreement (the seat follows its policy except
    for trembles). Returns (first illegal row or -1, log-likelihood)."""
    loglik = 0.0
    log_tremble = np.log(tremble)
    for k in range(n):
        s = hist[k, 0]
        kind = hist[k, 1]
        a = hist[k, 2]
        b = hist[k, 3]
        c = hist[k, 4]
        if kind == END_USE:
            if not apply_end_token(s, a, b, c, board, game_state):
                return k, loglik
            continue
        if (judged >> s) & 1:
            act, x, y, rv = choose_action(s, board, game_state, money, state, np.bool_(True))
            if not same_choice(act, x, y, kind, a, b):
                loglik += log_tremble
        if not apply_action(s, kind, a, b, c, board, game_state, money):
            return k, loglik
    return -1, loglik


@no_refcount
def undo_swaps(hist, n, hands):
    """Turn the hands as they are after ``hist[:n]`` into the hands as dealt,
    by undoing its exchanges (betting swaps and the swap token) last first."""
    for k in range(n - 1, -1, -1):
        s = hist[k, 0]
        if hist[k, 1] == SWAP:
            x, y = hist[k, 2], hist[k, 3]
        elif hist[k, 1] == END_USE and hist[k, 2] == SWAP_TOKEN:
            x, y = hist[k, 3], hist[k, 4]
        else:
            continue
        hands[s] = (hands[s] & ~bit(y)) | bit(x)
