"""A betting decision's candidate actions, their model gains and features.

A candidate is a row ``(act, x, y, rv)`` of ``cands`` (``betting.phase``'s
action form) with its gain in ``gains``: what the ``ev`` policy's success
model expects it to add to the round in coins. Candidate 0 is always pass,
whose gain is the entry's threshold.

- ``ev_candidates``: exactly the actions ``ev`` weighs (a bet per type: the
  model's best; the best exchange only when no bet beats the threshold;
  the free tokens only when the seat holds a bet), so its first highest
  gain is ``ev``'s choice, and the softmax policy samples the same list.
- ``step_candidates``: what ``mc`` searches and ``distilled`` scores: per
  type the model's best bet and the pilot's best, the best exchange and
  every free token, whatever the others are worth.
- ``candidate_features``: the features ``distilled`` scores a candidate by
  (``kernels.layout.DIST_*``), the same for a recorded ``mc`` decision and for play.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import N_KINDS
from sponsio_sim.kernels.betting.model import kind_best, prepare_features, row_prob
from sponsio_sim.kernels.betting.phase import betting_place, entry_of, leader_of, token_free
from sponsio_sim.kernels.betting.policies import (NO_GAIN, allowed_kind, best_swap, cheap_card, payment, token_gain,
                                                  troll_income)
from sponsio_sim.kernels.bits import U0, U1, popcount
from sponsio_sim.kernels.layout import (BET, BOARD, CANDIDATE_FEATURES, GAME, LEAD_TOKEN, MAX_ROWS, MONEY, MONEY_RULES,
                                        N_TOKENS, PASS, RULES, SWAP, TOKEN)
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of

# no pilot estimates: -1 per catalogue row (``ev`` and ``distilled`` weigh the success model alone)
NO_PILOT = np.full(MAX_ROWS, -1.0)


@no_refcount
def add_candidate(cands, gains, n, act, x, y, rv, g):
    """Append candidate ``(act, x, y, rv)`` with gain ``g`` at ``n``; returns ``n + 1``."""
    cands[n, 0] = act
    cands[n, 1] = x
    cands[n, 2] = y
    cands[n, 3] = rv
    gains[n] = g
    return n + 1


@nb.njit(cache=True)
def ev_candidates(s, board, game_state, money, cands, gains):
    """The actions ``ev`` weighs for seat s and their gains (module docstring);
    ties go to the earlier one, as in ``policies.choose_ev``. Returns their number."""
    return decision_candidates(s, board, game_state, money, NO_PILOT, np.bool_(True), cands, gains)


@no_refcount
def step_candidates(s, board, game_state, money, pilot, cands, gains):
    """Seat s's candidates for ``mc`` and ``distilled`` (module docstring).
    ``pilot[row]``: the pilot's estimate of P(win) of a catalogue row, or -1
    where it has none; a bet's gain uses it where there is one. Returns their number."""
    return decision_candidates(s, board, game_state, money, pilot, np.bool_(False), cands, gains)


@no_refcount
def decision_candidates(s, board, game_state, money, pilot, ev_only, cands, gains):
    """Seat s's candidates: pass, per bet type the model's best row (its gain by the pilot's
    estimate where there is one) and the pilot's best, the best exchange and the free tokens;
    ``ev_only``: as ``ev`` weighs them (the exchange only when no bet beats the threshold,
    tokens only for a seat holding a bet). Returns their number."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    n = add_candidate(cands, gains, 0, PASS, -1, -1, -1,
                      money_rules[MONEY_RULES.ev_threshold + entry_of(s, game_state)])
    hand = board[BOARD.hands + s]
    unrev = hand & ~board[BOARD.revealed]
    if unrev == U0:
        return n
    lead = leader_of(game_state) == s
    prepare_features(hand, board[BOARD.talon], lead, betting_place(s, game_state), board, game_state)
    best = gains[0]
    stake = money_rules[MONEY_RULES.stake]
    nbets = game_state[GAME.bet_count + s]
    forgone = troll_income(s, game_state, money) if nbets == 0 else 0.0
    rv = cheap_card(unrev)
    if money[MONEY.coins + s] > 0 and money[MONEY.coins + s] >= stake:
        for kind in range(N_KINDS):
            if (rules[RULES.kind_first_row + kind] < 0 or (game_state[GAME.kinds_held + s] >> kind) & 1 != 0
                    or not allowed_kind(s, kind, game_state)):
                continue
            v, row = kind_best(kind, s, game_state, money)
            prow = pilot_best(kind, pilot, game_state, money)
            if row >= 0:
                if pilot[row] >= 0.0:
                    v = pilot[row] * money_rules[MONEY_RULES.multiplier + row]
                g = v * stake - stake - forgone
                n = add_candidate(cands, gains, n, BET, row, -1, rv, g)
                best = max(best, g)
            if prow >= 0 and prow != row:
                n = add_candidate(cands, gains, n, BET, prow, -1, rv,
                                  pilot[prow] * money_rules[MONEY_RULES.multiplier + prow] * stake - stake - forgone)
    g = NO_GAIN
    if not ev_only or best == gains[0]:   # ev: no bet beats the threshold, so the turn may improve the hand
        g, x, y = best_swap(s, lead, board, game_state, money)
        if x >= 0:
            n = add_candidate(cands, gains, n, SWAP, x, y, x if (unrev & (U1 << np.uint64(x))) != U0 else rv, g)
    if nbets > 0 or not ev_only:
        pay, cost = payment(s, rv, board, game_state, money)
        if pay > -2:
            for t in range(N_TOKENS):
                if token_free(t, game_state) and not (t == LEAD_TOKEN and lead):
                    tg = token_gain(s, t, g, game_state, money) if nbets > 0 else 0.0
                    n = add_candidate(cands, gains, n, TOKEN, t, pay, rv, tg - cost)
    return n


@no_refcount
def pilot_best(kind, pilot, game_state, money):
    """The row of ``kind`` with the highest pilot P x multiplier (-1: none estimated)."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    best = -1.0
    brow = -1
    row = rules[RULES.kind_first_row + kind]
    while row >= 0 and row < rules[RULES.catalogue_rows] and rules[RULES.catalogue + 3 * row] == kind:
        if pilot[row] >= 0.0 and pilot[row] * money_rules[MONEY_RULES.multiplier + row] > best:
            best = pilot[row] * money_rules[MONEY_RULES.multiplier + row]
            brow = row
        row += 1
    return brow


@no_refcount
def candidate_features(s, act, x, y, gain, board, game_state, money, phi):
    """``distilled``'s features (``DIST_*``) of seat s's candidate ``(act, x, y)``
    with model gain ``gain`` into ``phi`` (length ``CANDIDATE_FEATURES.size``; pass: all 0).
    Seat s's hand features must be prepared (``prepare_features``)."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    for f in range(CANDIDATE_FEATURES.size):
        phi[f] = 0.0
    if act == PASS:
        return
    phi[CANDIDATE_FEATURES.hidden] = popcount(board[BOARD.hands + s] & ~board[BOARD.revealed])
    turns_done = game_state[GAME.betting_steps] // rules[RULES.players]
    phi[CANDIDATE_FEATURES.turns_left] = rules[RULES.betting_turns] - 1 - turns_done
    stake = money_rules[MONEY_RULES.stake]
    if act == BET:
        kind = rules[RULES.catalogue + 3 * x]
        p = row_prob(x, s, game_state, money)
        nbets = game_state[GAME.bet_count + s]
        phi[CANDIDATE_FEATURES.bet + kind] = 1.0
        phi[CANDIDATE_FEATURES.pay + kind] = p * money_rules[MONEY_RULES.multiplier + x] * stake
        phi[CANDIDATE_FEATURES.p + kind] = p
        phi[CANDIDATE_FEATURES.forgone] = troll_income(s, game_state, money) if nbets == 0 else 0.0
        phi[CANDIDATE_FEATURES.held] = nbets
        phi[CANDIDATE_FEATURES.streak] = money_rules[MONEY_RULES.track_values + game_state[GAME.track + s]]
    elif act == SWAP:
        phi[CANDIDATE_FEATURES.swap] = 1.0
        phi[CANDIDATE_FEATURES.swap_gain] = gain
    elif act == TOKEN:
        phi[CANDIDATE_FEATURES.token + x] = 1.0
        cost = 0.0 if y >= 0 else money_rules[MONEY_RULES.token_cost]   # paid by revealing a card, or in coins
        phi[CANDIDATE_FEATURES.token_cost] = cost
        phi[CANDIDATE_FEATURES.token_gain + x] = gain + cost
