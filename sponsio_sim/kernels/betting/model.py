"""The success model: hand features -> a cell of a fitted table -> P(bet wins).

A bet's chance depends on the bettor's hand and the public situation. The
model reduces them to a few features and looks the chance up in tables
fitted by simulation (``game.fit``, ``analysis.game.fit``):

- tricks=N: sure winners, high cards (rank 7+), whether the seat leads;
- colour:C=N: own cards of C, the talon's cards of C, own sure winners in C,
  the bettor's place in the betting order;
- last: sure winners, own 9s, whether the seat leads;
- nines: 9s not in the talon, own 9s;
- fail:S: the bets S holds (``fail``: the bets every other seat holds), the
  bettor's place in the betting order;
- first: sure winners, high cards, whether the seat leads.

The place (0 = first to bet, ``PLACES - 1`` and later pooled) is public. A
later bettor has seen more bets and faces fewer bets placed against it, and
wins a cycle of fail bets (docs/rules-sponsio.md section 4, "Settling fail bets"): without it the
model, fitted over every place, was off by up to 4 points per seat in
fixed-seat games while calibrated over all seats.

``prepare_features`` writes a hand's features to the ``game_state`` scratch; then
``cell_of`` / ``prob`` read them for any bet, so scanning the catalogue costs
one feature pass. Layout and table shapes: ``kernels.layout``.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.bits import RANKS, U0, U1, highest, popcount
from sponsio_sim.kernels.bets import target_bets
from sponsio_sim.bet_kinds import BY_NAME, COLOUR, FAIL, FIRST, LAST, NINES, PLACES, TRICKS
from sponsio_sim.kernels.layout import (BOARD, COLOUR_CELLS, COLOUR_PARAMS, FAIL_CELLS, GAME, LAST_CELLS, MODEL_START,
                                        MONEY_RULES, NINES_CELLS, RULES, TRICKS_CELLS)
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of

TOP_RANKS = 0x1C0  # ranks 7, 8, 9 of a colour: the "high cards"
FIRST_CELLS = BY_NAME["first"].cell_sizes   # sure winners (0..3+), high cards (0..4+), leads


@nb.njit(cache=True, inline="always")
def _run(known, col):
    """Ranks (9 bits) of the run down from the 9 of colour ``col`` inside ``known``."""
    holes = ~(known >> np.uint64(col * RANKS)) & np.uint64(0x1FF)
    if holes == U0:
        return np.uint64(0x1FF)
    return np.uint64(0x1FF) & ~((U1 << np.uint64(highest(holes) + 1)) - U1)


@no_refcount
def sure_mask(hand, talon, board, game_state):
    """Own cards that win whenever led (the top run of own and talon cards)."""
    rules = rules_of(game_state)
    m = U0
    for col in range(rules[RULES.colours]):
        m |= hand & (_run(hand | talon, col) << np.uint64(col * RANKS))
    return m


@no_refcount
def prepare_features(hand, talon, lead, place, board, game_state):
    """Features of ``hand`` with the talon ``talon`` known, of a seat at
    ``place`` in the betting order, into ``game_state`` scratch."""
    rules = rules_of(game_state)
    game_state[GAME.betting_place] = min(place, PLACES - 1)
    for col in range(rules[RULES.colours]):
        colour_features(col, hand, talon, board, game_state)
    total_features(hand, talon, board, game_state)
    game_state[GAME.leads] = 1 if lead else 0


@nb.njit(cache=True, inline="always")
def colour_features(col, hand, talon, board, game_state):
    """Colour ``col``'s features: its colour-bet cell, sure winners, high cards
    (the place in the betting order already in ``game_state``)."""
    cm = board[BOARD.colour_masks + col]
    shift = np.uint64(col * RANKS)
    sc = popcount(hand & (_run(hand | talon, col) << shift))
    game_state[GAME.colour_sure + col] = sc
    game_state[GAME.colour_high + col] = popcount(hand & cm & (np.uint64(TOP_RANKS) << shift))
    k = popcount(hand & cm)
    t = popcount(talon & cm)
    game_state[GAME.colour_cell + col] = (
        ((min(k, COLOUR_CELLS[0] - 1) * COLOUR_CELLS[1] + min(t, COLOUR_CELLS[1] - 1)) * COLOUR_CELLS[2]
         + min(sc, COLOUR_CELLS[2] - 1)) * COLOUR_CELLS[3] + game_state[GAME.betting_place])


@nb.njit(cache=True, inline="always")
def total_features(hand, talon, board, game_state):
    """Whole-hand features from the colours' (``colour_features`` first)."""
    rules = rules_of(game_state)
    sure = 0
    high = 0
    for col in range(rules[RULES.colours]):
        sure += game_state[GAME.colour_sure + col]
        high += game_state[GAME.colour_high + col]
    game_state[GAME.sure_winners] = sure
    game_state[GAME.high_cards] = high
    nines = board[BOARD.nine_cards]
    game_state[GAME.own_nines] = popcount(hand & nines)
    game_state[GAME.nines_in_play] = popcount(nines & ~talon)


@nb.njit(cache=True, inline="always")
def tricks_cell(game_state):
    return (min(game_state[GAME.sure_winners], TRICKS_CELLS[0] - 1) * TRICKS_CELLS[1]
            + min(game_state[GAME.high_cards], TRICKS_CELLS[1] - 1)) * TRICKS_CELLS[2] + game_state[GAME.leads]


@no_refcount
def cell_of(kind, a, b, target_bets, game_state):
    """Index (into ``money_rules``) of the model cell for bet (kind, a, b), using the
    features last prepared; ``target_bets`` = bets held by a fail bet's target."""
    rules = rules_of(game_state)
    if kind == TRICKS:
        return (MODEL_START + rules[RULES.model_at + TRICKS]
                + tricks_cell(game_state) * (rules[RULES.hand_size] + 1) + a)
    if kind == COLOUR:
        return MODEL_START + rules[RULES.model_at + COLOUR] + game_state[GAME.colour_cell + a] * COLOUR_PARAMS + b
    if kind == NINES:
        f = (min(game_state[GAME.nines_in_play], NINES_CELLS[0] - 1) * NINES_CELLS[1]
             + min(game_state[GAME.own_nines], NINES_CELLS[1] - 1))
        return MODEL_START + rules[RULES.model_at + NINES] + f
    if kind == LAST or kind == FIRST:
        # One branch for both (sure winners, a count, leads): a branch of its
        # own for first made whole games 15 % slower (scripts/ab_game_speed.py).
        cells = LAST_CELLS if kind == LAST else FIRST_CELLS
        x = game_state[GAME.own_nines] if kind == LAST else game_state[GAME.high_cards]
        f = ((min(game_state[GAME.sure_winners], cells[0] - 1) * cells[1] + min(x, cells[1] - 1)) * cells[2]
             + game_state[GAME.leads])
        return MODEL_START + rules[RULES.model_at + kind] + f
    if kind == FAIL:
        return (MODEL_START + rules[RULES.model_at + FAIL] + min(target_bets, FAIL_CELLS[0] - 1) * FAIL_CELLS[1]
                + game_state[GAME.betting_place])
    raise ValueError("unknown bet kind")


@no_refcount
def precompute_best(rules, money_rules):
    """For every tricks cell, and every colour and colour cell, the catalogue row
    of that kind with the highest P x multiplier (so a scan is one lookup), into
    ``rules`` as the rulebook is built."""
    n_t = TRICKS_CELLS[0] * TRICKS_CELLS[1] * TRICKS_CELLS[2]
    n_c = COLOUR_CELLS[0] * COLOUR_CELLS[1] * COLOUR_CELLS[2] * COLOUR_CELLS[3]
    h1 = rules[RULES.hand_size] + 1
    first = rules[RULES.kind_first_row + TRICKS]
    if first >= 0:
        for f in range(n_t):
            cell = MODEL_START + rules[RULES.model_at + TRICKS] + f * h1
            rules[RULES.best_tricks_row + f] = _argmax_rows(first, h1, cell, money_rules)
    first = rules[RULES.kind_first_row + COLOUR]
    if first >= 0:
        for col in range(rules[RULES.colours]):
            for f in range(n_c):
                cell = MODEL_START + rules[RULES.model_at + COLOUR] + f * COLOUR_PARAMS
                rules[RULES.best_colour_row + col * n_c + f] = _argmax_rows(
                    first + col * COLOUR_PARAMS, COLOUR_PARAMS, cell, money_rules)


@no_refcount
def _argmax_rows(row0, n, cell0, money_rules):
    best = row0
    bv = -1.0
    for j in range(n):
        v = money_rules[cell0 + j] * money_rules[MONEY_RULES.multiplier + row0 + j]
        if v > bv:
            bv = v
            best = row0 + j
    return best


@no_refcount
def kind_best(kind, s, game_state, money):
    """(P x multiplier, row) of the best row of ``kind`` for seat s's prepared
    hand (a fail bet never names s itself)."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    if kind == TRICKS:
        row = rules[RULES.best_tricks_row + tricks_cell(game_state)]
        return row_prob(row, s, game_state, money) * money_rules[MONEY_RULES.multiplier + row], row
    best = -1.0
    brow = -1
    if kind == COLOUR:
        n_c = COLOUR_CELLS[0] * COLOUR_CELLS[1] * COLOUR_CELLS[2] * COLOUR_CELLS[3]
        for col in range(rules[RULES.colours]):
            row = rules[RULES.best_colour_row + col * n_c + game_state[GAME.colour_cell + col]]
            v = row_prob(row, s, game_state, money) * money_rules[MONEY_RULES.multiplier + row]
            if v > best:
                best = v
                brow = row
        return best, brow
    if kind == LAST or kind == NINES or kind == FAIL or kind == FIRST:   # no best-row table: scan the kind's rows
        row = rules[RULES.kind_first_row + kind]
        while row < rules[RULES.catalogue_rows] and rules[RULES.catalogue + 3 * row] == kind:
            if not (kind == FAIL and rules[RULES.catalogue + 3 * row + 1] == s):
                v = row_prob(row, s, game_state, money) * money_rules[MONEY_RULES.multiplier + row]
                if v > best:
                    best = v
                    brow = row
            row += 1
        return best, brow
    raise ValueError("unknown bet kind")


@nb.njit(cache=True, inline="always")
def row_cell(row, s, game_state):
    """Index (into ``money_rules``) of the model cell of catalogue row ``row`` for seat s's prepared hand."""
    rules = rules_of(game_state)
    kind = rules[RULES.catalogue + 3 * row]
    a = rules[RULES.catalogue + 3 * row + 1]
    tb = target_bets(s, a, game_state, GAME.bet_count, rules[RULES.players]) if kind == FAIL else 0
    return cell_of(kind, a, rules[RULES.catalogue + 3 * row + 2], tb, game_state)


@nb.njit(cache=True, inline="always")
def row_prob(row, s, game_state, money):
    """Model P(win) of catalogue row ``row`` for seat s's prepared hand."""
    return money_rules_of(game_state)[row_cell(row, s, game_state)]
