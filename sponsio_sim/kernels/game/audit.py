"""What the ``mc`` policy's search does in real games: searches, rollouts,
how often its pruning changes a decision and what that costs, in coins of
round gain as the full search estimates it (``betting.mc``)."""

import numba as nb
import numpy as np

from sponsio_sim.kernels.game.engine import game_round, play_game
from sponsio_sim.kernels.layout import AUDIT_COUNTS, DECISION_RECORD, GAME, RULES, TRICK_STATE
from sponsio_sim.kernels.rulebook import rules_of
from sponsio_sim.kernels.game.log import no_log


@nb.njit(cache=True)
def audit_chunk(seed, stream, games, keep, audit, tab0, ints0, weight0, n_stats):
    """Play ``games`` games of stream ``(seed, stream)`` with ``keep`` candidates
    searched (and, if ``audit``, every candidate too); the counts (``AUDIT_COUNTS``).
    The games read a copy of the rules with those two settings."""
    book = rules_of(ints0)
    rules = np.empty(RULES.size, dtype=np.int64)
    for i in range(RULES.size):
        rules[i] = book[i]
    rules[RULES.mc_keep] = keep
    rules[RULES.mc_audit] = audit
    return _audited(seed, stream, games, rules, tab0, ints0, weight0, n_stats)


@nb.njit(cache=True)
def _audited(seed, stream, games, rules, tab0, ints0, weight0, n_stats):
    """``audit_chunk``'s games on copies of the state that read ``rules`` (an argument: alive for
    the whole call) and ``ints0``'s money rules."""
    board = tab0.copy()
    game_state = ints0.copy()
    money = weight0.copy()
    game_state[TRICK_STATE.rules_at] = rules.ctypes.data
    rnd = game_round(board, game_state, money, np.empty(4, dtype=np.uint64))
    row = np.zeros(n_stats, dtype=np.float64)
    nolog = no_log()
    nocells = np.zeros(1, dtype=np.float64)
    mc_seats = np.zeros((1, DECISION_RECORD.size), dtype=np.float64)   # as engine.mc_switch: nothing recorded
    for g in range(games):
        play_game(seed, stream, g, rnd, row, nolog, nocells, np.bool_(True), mc_seats, None)
    out = np.zeros(AUDIT_COUNTS.size, dtype=np.float64)
    out[AUDIT_COUNTS.decisions] = game_state[GAME.mc_decisions]
    out[AUDIT_COUNTS.pruned] = game_state[GAME.mc_pruned]
    out[AUDIT_COUNTS.searches] = game_state[GAME.mc_searches_run]
    out[AUDIT_COUNTS.rollouts] = game_state[GAME.mc_rollouts_run]
    out[AUDIT_COUNTS.regret] = game_state[GAME.mc_regret] / 1000.0
    return out
