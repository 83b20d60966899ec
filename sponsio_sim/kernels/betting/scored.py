"""Betting policies that pick from a scored list of candidates
(``betting.candidates``):

- ``ev`` with a temperature ``tau > 0`` coins (``MONEY_RULES.temperature``): samples one of
  the actions ``ev`` weighs with probability proportional to
  ``exp(gain / tau)`` (a softmax over its own scores), so players who value
  actions alike still differ; as ``tau`` -> 0 it is ``ev``.
- ``distilled``: scores actions by a linear function of their features
  (``candidate_features``; weights ``MONEY_RULES.distilled_weights``, fitted to ``mc``'s recorded
  decisions, ``analysis.game.distill``) and takes the best (pass scores the
  entry's threshold); with a temperature it samples. Its candidates are
  ``mc``'s without the pilot (``step_candidates``), except that each bet
  type's parameter is the one its own score ranks first over every legal
  row of the type (``best_rows``), not the model's highest P x multiplier.

The candidates' arrays are scratch in ``game_state`` (``GAME.candidates``) and
``money`` (``MONEY.gains``, ``MONEY.features``), so a decision allocates nothing; the
functions that take views of them count references (plain ``njit``).
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import uniform
from sponsio_sim.kernels.betting.candidates import NO_PILOT, candidate_features, ev_candidates, step_candidates
from sponsio_sim.kernels.betting.phase import bet_legal, entry_of
from sponsio_sim.kernels.layout import BET, CANDIDATE_FEATURES, GAME, MAX_CANDS, MONEY, MONEY_RULES, RULES
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of


@no_refcount
def pick(gains, n, temp, state):
    """Index of the first highest of ``gains[:n]`` (``temp`` <= 0), or one drawn
    with probability proportional to ``exp(gain / temp)``."""
    best = 0
    for i in range(1, n):
        if gains[i] > gains[best]:
            best = i
    if temp <= 0.0 or n == 1:
        return best
    total = 0.0
    for i in range(n):
        total += np.exp((gains[i] - gains[best]) / temp)
    u = uniform(state) * total
    for i in range(n):
        u -= np.exp((gains[i] - gains[best]) / temp)
        if u < 0.0:
            return i
    return best   # pragma: no cover - rounding: u consumed by the last term


@nb.njit(cache=True)
def choose_soft(s, board, game_state, money, state):
    """``ev`` with its entry's temperature (module docstring)."""
    money_rules = money_rules_of(game_state)
    cands = game_state[GAME.candidates:GAME.candidates + 4 * MAX_CANDS].reshape((MAX_CANDS, 4))
    gains = money[MONEY.gains:MONEY.gains + MAX_CANDS]
    n = ev_candidates(s, board, game_state, money, cands, gains)
    i = pick(gains, n, money_rules[MONEY_RULES.temperature + entry_of(s, game_state)], state)
    return cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3]


@no_refcount
def distilled_scores(s, n, board, game_state, money, cands, gains):
    """Replace the model gains of candidates 1..n-1 by their ``distilled`` scores
    (candidate 0, pass, keeps the entry's threshold)."""
    money_rules = money_rules_of(game_state)
    for i in range(1, n):
        if cands[i, 0] == BET and cands[i, 1] < 0:
            gains[i] = -1e300   # collapsed into another candidate of its type (``best_rows``)
        else:
            gains[i] = score_of(s, cands[i, 0], cands[i, 1], cands[i, 2], gains[i], board, game_state, money)
    gains[0] = money_rules[MONEY_RULES.ev_threshold + entry_of(s, game_state)]


@nb.njit(cache=True)
def score_of(s, act, x, y, gain, board, game_state, money):
    """``distilled``'s score of one candidate: its features (``candidate_features``)
    times ``MONEY_RULES.distilled_weights``."""
    money_rules = money_rules_of(game_state)
    phi = money[MONEY.features:MONEY.features + CANDIDATE_FEATURES.size]
    candidate_features(s, act, x, y, gain, board, game_state, money, phi)
    v = 0.0
    for f in range(CANDIDATE_FEATURES.size):
        v += money_rules[MONEY_RULES.distilled_weights + f] * phi[f]
    return v


@no_refcount
def best_rows(s, n, board, game_state, money, cands, gains):
    """Give each bet candidate of 1..n-1 its type's legal row that scores highest (the features
    are seat s's prepared hand's); candidates of one type collapse into the first."""
    rules = rules_of(game_state)
    for i in range(1, n):
        if cands[i, 0] != BET or cands[i, 1] < 0:
            continue
        kind = rules[RULES.catalogue + 3 * cands[i, 1]]
        best, brow = -1e300, -1
        row = rules[RULES.kind_first_row + kind]
        while row >= 0 and row < rules[RULES.catalogue_rows] and rules[RULES.catalogue + 3 * row] == kind:
            if bet_legal(s, row, game_state, money):
                v = score_of(s, np.int64(BET), row, np.int64(-1), 0.0, board, game_state, money)
                if v > best:
                    best, brow = v, row
            row += 1
        cands[i, 1] = brow
        for j in range(i + 1, n):   # the pilot's other row of this type (none without a pilot)
            if cands[j, 0] == BET and cands[j, 1] >= 0 and rules[RULES.catalogue + 3 * cands[j, 1]] == kind:
                cands[j, 1] = -1


@nb.njit(cache=True)
def choose_distilled(s, board, game_state, money, state):
    """The ``distilled`` policy (module docstring)."""
    money_rules = money_rules_of(game_state)
    cands = game_state[GAME.candidates:GAME.candidates + 4 * MAX_CANDS].reshape((MAX_CANDS, 4))
    gains = money[MONEY.gains:MONEY.gains + MAX_CANDS]
    n = step_candidates(s, board, game_state, money, NO_PILOT, cands, gains)
    best_rows(s, n, board, game_state, money, cands, gains)
    distilled_scores(s, n, board, game_state, money, cands, gains)
    i = pick(gains, n, money_rules[MONEY_RULES.temperature + entry_of(s, game_state)], state)
    return cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3]
