"""The ``net`` betting policy: a small network values every action the seat may take.

Each betting decision encodes what the seat knows (``encode``, inputs
``netlayout.NET_INPUTS``), marks the actions it weighs (``weighed``: pass,
the model's best ``TOP_PER_KIND`` legal bets of each type, every token it
may take and the exchange), evaluates the network once
(``tabletop_mc.net.forward``) and takes the action with the highest value,
ties to the earlier one (with a temperature: a softmax draw). Its values are
round gains in coins over passing, as the ``mc`` lookahead it is trained on
measures them (``betting.netlabel``). A bet reveals the seat's lowest hidden
card, a token is paid by revealing a card where one is left (else in coins),
the exchange is the one the success model likes best; as betting ends it
uses its tokens as ``ev`` does.

The value head (the seat's expected win share) decides the cash-in of an
entry whose strategy says ``net`` for it (``net_cash_in``): the position's
value after cashing in against keeping the streak.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.pointers import as_float32, offset
from tabletop_mc.net.forward import net_forward, pick_legal
from sponsio_sim.bet_kinds import FAIL, N_KINDS
from sponsio_sim.kernels.betting.model import prepare_features, row_prob
from sponsio_sim.kernels.betting.netlayout import (A_BET, A_PASS, A_SWAP, A_TOKEN, F_HIDDEN, F_LEGAL, F_Q, F_X,
                                                   MAX_HIDDEN, N_ACTIONS, NET_INPUTS, NET_TRACK, SCRATCH_SLOTS,
                                                   TOP_PER_KIND)
from sponsio_sim.kernels.betting.phase import betting_place, entry_of, leader_of, token_free
from sponsio_sim.kernels.betting.policies import (NO_GAIN, allowed_kind, best_swap, cheap_card, may_bet, payment,
                                                  token_gain, troll_income)
from sponsio_sim.kernels.bits import U0, U1, lowest, popcount
from sponsio_sim.kernels.layout import (BET, BOARD, GAME, LEAD_TOKEN, MAX_BETS, MAX_COLOURS, MAX_ROWS, MONEY,
                                        MONEY_RULES, N_TOKENS, PASS, RULES, SWAP, TOKEN)
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of


@no_refcount
def _cards(mask, x, at):
    """One input per card of ``mask`` at ``x[at + card]``."""
    m = mask
    while m:
        c = lowest(m)
        m &= m - U1
        x[at + c] = 1.0


@nb.njit(cache=True, inline="always")
def slot_row(s, j, game_state):
    """The catalogue row of seat s's bet action ``j`` (-1: none). A ``fail`` bet on a seat is action
    ``first + k - 1`` for the seat k places clockwise (``first``: the first ``fail`` row); every other
    row is its own action."""
    rules = rules_of(game_state)
    if j >= rules[RULES.catalogue_rows]:
        return -1
    first = rules[RULES.kind_first_row + FAIL]
    if (first < 0 or j < first or rules[RULES.catalogue + 3 * j] != FAIL
            or rules[RULES.catalogue + 3 * j + 1] < 0):
        return j
    players = rules[RULES.players]
    k = j - first + 1
    return -1 if k >= players else first + (s + k) % players


@nb.njit(cache=True, inline="always")
def row_slot(s, row, game_state):
    """Seat s's bet action of catalogue row ``row`` (-1: a ``fail`` bet on itself); ``slot_row``'s inverse."""
    rules = rules_of(game_state)
    first = rules[RULES.kind_first_row + FAIL]
    if (first < 0 or row < first or rules[RULES.catalogue + 3 * row] != FAIL
            or rules[RULES.catalogue + 3 * row + 1] < 0):
        return row
    players = rules[RULES.players]
    k = (rules[RULES.catalogue + 3 * row + 1] - s) % players
    return -1 if k == 0 else first + k - 1


@no_refcount
def encode(s, cash_phase, board, game_state, money, x):
    """Seat s's inputs (``NET_INPUTS``) into ``x``: a betting decision, or with ``cash_phase`` the
    end of a round (public numbers only). Prepares seat s's model features."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    for i in range(NET_INPUTS.size):
        x[i] = 0.0
    players = rules[RULES.players]
    for k in range(players):
        t = (s + k) % players
        x[NET_INPUTS.coins + k] = money[MONEY.coins + t]
        x[NET_INPUTS.track + k] = game_state[GAME.track + t]
    track_win = rules[RULES.track_win]
    pos = game_state[GAME.track + s]
    if pos < track_win:
        x[NET_INPUTS.track_value_own] = money_rules[MONEY_RULES.track_values + pos]
    done = game_state[GAME.round] + (1 if cash_phase else 0)
    x[NET_INPUTS.rounds_done] = done
    x[NET_INPUTS.rounds_left] = rules[RULES.max_rounds] - done
    for kind in range(N_KINDS):
        first = rules[RULES.kind_first_row + kind]
        if first >= 0:
            x[NET_INPUTS.multiplier + kind] = money_rules[MONEY_RULES.multiplier + first]
    x[NET_INPUTS.troll_pay] = money_rules[MONEY_RULES.troll_pay]
    x[NET_INPUTS.round_bonus] = money_rules[MONEY_RULES.bonus]
    x[NET_INPUTS.coins_to_end] = money_rules[MONEY_RULES.coins_to_end]
    x[NET_INPUTS.max_rounds] = rules[RULES.max_rounds]
    for p in range(min(NET_TRACK, track_win)):
        x[NET_INPUTS.track_values + p] = money_rules[MONEY_RULES.track_values + p]
    x[NET_INPUTS.track_win] = track_win
    x[NET_INPUTS.stake] = money_rules[MONEY_RULES.stake]
    x[NET_INPUTS.token_cost] = money_rules[MONEY_RULES.token_cost]
    if cash_phase:
        x[NET_INPUTS.cash_phase] = 1.0
        return
    hand = board[BOARD.hands + s]
    shown = board[BOARD.revealed]
    talon = board[BOARD.talon]
    _cards(hand, x, NET_INPUTS.hand)
    _cards(hand & shown, x, NET_INPUTS.hand_shown)
    _cards(talon, x, NET_INPUTS.talon)
    for k in range(1, players):
        t = (s + k) % players
        known = board[BOARD.hands + t] & shown
        _cards(known, x, NET_INPUTS.others_shown)
        for col in range(rules[RULES.colours]):
            x[NET_INPUTS.others_shown_colours + (k - 1) * MAX_COLOURS + col] = popcount(
                known & board[BOARD.colour_masks + col])
        x[NET_INPUTS.others_hidden + k - 1] = popcount(board[BOARD.hands + t] & ~shown)
        for kind in range(N_KINDS):
            if (game_state[GAME.kinds_held + t] >> kind) & 1:
                x[NET_INPUTS.others_kinds + (k - 1) * N_KINDS + kind] = 1.0
        for i in range(game_state[GAME.bet_count + t]):
            row = game_state[GAME.bet_row + t * MAX_BETS + i]
            if rules[RULES.catalogue + 3 * row] == FAIL and rules[RULES.catalogue + 3 * row + 1] == s:
                x[NET_INPUTS.others_fail_me + k - 1] = 1.0
    steps = game_state[GAME.betting_steps]
    x[NET_INPUTS.turns_done] = steps // players
    x[NET_INPUTS.turns_left] = rules[RULES.betting_turns] - steps // players
    place = betting_place(s, game_state)
    x[NET_INPUTS.place + place] = 1.0
    lead = leader_of(game_state) == s
    x[NET_INPUTS.leads] = 1.0 if lead else 0.0
    x[NET_INPUTS.hidden] = popcount(hand & ~shown)
    nbets = game_state[GAME.bet_count + s]
    x[NET_INPUTS.bets_held] = nbets
    troll = troll_income(s, game_state, money)
    x[NET_INPUTS.troll_income] = troll
    forgone = troll if nbets == 0 else 0.0
    stake = money_rules[MONEY_RULES.stake]
    prepare_features(hand, talon, lead, place, board, game_state)
    for j in range(rules[RULES.catalogue_rows]):
        row = slot_row(s, j, game_state)
        if row >= 0:
            p = row_prob(row, s, game_state, money)
            x[NET_INPUTS.bet_p + j] = p
            x[NET_INPUTS.bet_gain + j] = p * money_rules[MONEY_RULES.multiplier + row] * stake - stake - forgone
    for i in range(nbets):
        j = row_slot(s, game_state[GAME.bet_row + s * MAX_BETS + i], game_state)
        x[NET_INPUTS.bet_held + j] = 1.0
    for t in range(N_TOKENS):
        if (rules[RULES.tokens] >> t) & 1 == 0:
            continue
        owner = game_state[GAME.token_owner + t]
        if owner < 0:
            x[NET_INPUTS.token_free + t] = 1.0
            if nbets > 0 and not (t == LEAD_TOKEN and lead):
                g = token_gain(s, t, 0.0, game_state, money)
                x[NET_INPUTS.token_gain + t] = g if g > NO_GAIN else 0.0   # no parameter to change: no gain
        elif owner == s:
            x[NET_INPUTS.token_mine + t] = 1.0


@no_refcount
def weighed(s, board, game_state, money, x, legal):
    """Mark in ``legal`` (1.0) the actions seat s weighs (module docstring), from its
    encoded inputs ``x``; every other action is 0.0."""
    rules = rules_of(game_state)
    for a in range(N_ACTIONS):
        legal[a] = 0.0
    legal[A_PASS] = 1.0
    hand = board[BOARD.hands + s]
    unrev = hand & ~board[BOARD.revealed]
    if unrev == U0:
        return
    n_rows = rules[RULES.catalogue_rows]
    for kind in range(N_KINDS):
        first = rules[RULES.kind_first_row + kind]
        if first < 0 or (game_state[GAME.kinds_held + s] >> kind) & 1 or not allowed_kind(s, kind, game_state):
            continue
        # the best TOP_PER_KIND legal rows of the kind by ev's gain, best first (ties: the earlier row)
        top = GAME.net_top
        n = 0
        row = first
        while row < n_rows and rules[RULES.catalogue + 3 * row] == kind:
            j = row_slot(s, row, game_state)
            if j >= 0 and may_bet(s, row, game_state, money):
                g = x[NET_INPUTS.bet_gain + j]
                if n < TOP_PER_KIND or g > x[NET_INPUTS.bet_gain + game_state[top + n - 1]]:
                    k = n if n < TOP_PER_KIND else TOP_PER_KIND - 1   # the slot to fill (full: drop the last)
                    while k > 0 and g > x[NET_INPUTS.bet_gain + game_state[top + k - 1]]:
                        game_state[top + k] = game_state[top + k - 1]
                        k -= 1
                    game_state[top + k] = j
                    n = min(n + 1, TOP_PER_KIND)
            row += 1
        for k in range(n):
            legal[A_BET + game_state[top + k]] = 1.0
    lead = leader_of(game_state) == s
    pay, cost = payment(s, cheap_card(unrev), board, game_state, money)
    if pay > -2:
        for t in range(N_TOKENS):
            if token_free(t, game_state) and not (t == LEAD_TOKEN and lead):
                legal[A_TOKEN + t] = 1.0
    if game_state[GAME.bet_count + s] > 0 and board[BOARD.talon] != U0:
        legal[A_SWAP] = 1.0


@no_refcount
def action_of(s, a, board, game_state, money):
    """Action ``a`` of the list as ``phase.apply_action`` takes it: ``(act, x, y, rv)``."""
    unrev = board[BOARD.hands + s] & ~board[BOARD.revealed]
    if a == A_PASS or unrev == U0:
        return PASS, -1, -1, -1
    rv = cheap_card(unrev)
    if a < A_TOKEN:
        return BET, slot_row(s, a - A_BET, game_state), -1, rv
    if a < A_SWAP:
        pay, cost = payment(s, rv, board, game_state, money)
        return TOKEN, a - A_TOKEN, pay, rv
    lead = leader_of(game_state) == s
    prepare_features(board[BOARD.hands + s], board[BOARD.talon], lead, betting_place(s, game_state), board,
                     game_state)
    g, x, y = best_swap(s, lead, board, game_state, money)
    if x < 0:
        return PASS, -1, -1, -1
    return SWAP, x, y, x if (unrev & (U1 << np.uint64(x))) != U0 else rv


@no_refcount
def action_index(s, act, x, game_state):
    """The list index of betting action ``(act, x, ...)`` (any exchange counts as the exchange)."""
    if act == BET:
        return A_BET + row_slot(s, x, game_state)
    if act == TOKEN:
        return A_TOKEN + x
    if act == SWAP:
        return A_SWAP
    return A_PASS


@nb.njit(cache=True, inline="always")
def scratch_of(game_state, money):
    """The decision scratch as float32 views: (inputs, action values, actions weighed, hidden layers)."""
    rules = rules_of(game_state)
    sc = rules[RULES.net_scratch]
    f = money[sc:sc + SCRATCH_SLOTS].view(np.float32)
    return f[F_X:F_Q], f[F_Q:F_LEGAL], f[F_LEGAL:F_HIDDEN], f[F_HIDDEN:F_HIDDEN + 2 * MAX_HIDDEN]


@nb.njit(cache=True)
def evaluate(game_state, money, x, q, hidden):
    """The network on inputs ``x``: action values into ``q``; returns the position's value."""
    rules = rules_of(game_state)
    at = rules[RULES.net_at]
    if at < 0:
        raise ValueError("net: no network weights loaded")
    params = as_float32(offset(money_rules_of(game_state), at))   # float32 weights, two per slot
    return net_forward(params, offset(rules, RULES.net_dims), rules[RULES.net_depth], x, hidden, q)


@nb.njit(cache=True)
def choose_net(s, board, game_state, money, state):
    """The ``net`` policy's betting action (module docstring)."""
    money_rules = money_rules_of(game_state)
    if (board[BOARD.hands + s] & ~board[BOARD.revealed]) == U0:
        return PASS, -1, -1, -1
    x, q, legal, hidden = scratch_of(game_state, money)
    encode(s, np.bool_(False), board, game_state, money, x)
    weighed(s, board, game_state, money, x, legal)
    evaluate(game_state, money, x, q, hidden)
    a = pick_legal(q, legal, N_ACTIONS, money_rules[MONEY_RULES.temperature + entry_of(s, game_state)], state)
    return action_of(s, a, board, game_state, money)


@nb.njit(cache=True)
def cash_values(s, board, game_state, money):
    """The value head's (keep, cash in) for seat s at the end of a round (its streak position unmoved)."""
    money_rules = money_rules_of(game_state)
    x, q, legal, hidden = scratch_of(game_state, money)
    encode(s, np.bool_(True), board, game_state, money, x)
    keep = evaluate(game_state, money, x, q, hidden)
    pos = game_state[GAME.track + s]
    x[NET_INPUTS.coins] += money_rules[MONEY_RULES.track_values + pos]
    x[NET_INPUTS.track] = 0.0
    x[NET_INPUTS.track_value_own] = money_rules[MONEY_RULES.track_values]
    return keep, evaluate(game_state, money, x, q, hidden)


@nb.njit(cache=True)
def net_cash_in(s, board, game_state, money):
    """Seat s cashes in: the value head says cashing in is worth more than keeping (ties keep)."""
    keep, cash = cash_values(s, board, game_state, money)
    return cash > keep
