"""The arrays that travel together through the kernels, as named tuples (numba passes a tuple's fields
as separate machine arguments, so a context costs what its arrays did one by one).

- ``GamePtrs``: the pointers one game is played on (``tabletop_mc.pointers``): the ``rulebook`` (``RULES``), the
  ``weight_table`` (a row of ``WEIGHTS`` per weight set), the ``game_state`` (``STATE``), the decision's
  ``scratch`` floats and legal ``actions`` (``SCRATCH``, ``ACTIONS``), the random stream ``rng``, the
  ``game_log`` and the ``game_stats`` (``STATS``). An `mc` seat's rollouts play on a second ``GamePtrs``
  sharing all but the state (the ``rollout_state``) and a dummy log and statistics (``rollout_ptrs``).
- ``Seats``: who sits where in a batch of games and from which streams (``kernels.game.engine``): each
  member's ``policy`` code and ``rollouts``, a fixed ``seating`` (``seating[0] < 0``: drawn per game
  from the cumulative weights ``cum`` on stream (``draw_key``, g)), ``rotate``, the ``focal`` member
  (-1: none), and ``per_game`` streams (``game_key``, g). Built by ``seats``.
- ``Results``: a batch's per-game outputs, each written for game g only if sized for it: final
  ``scores``, rotations ``rots``, each seat's member ``members``, day-end totals ``days``.
"""

from collections import namedtuple

import numba as nb
import numpy as np

from tabletop_mc.pointers import as_ptr

GamePtrs = namedtuple("GamePtrs", "rulebook weight_table game_state scratch actions rng game_log game_stats")
Seats = namedtuple("Seats", "policy rollouts seating rotate cum focal draw_key per_game game_key")
Results = namedtuple("Results", "scores rots members days")


@nb.njit(cache=True, inline="always")
def game_ptrs(rulebook, weight_table, game_state, scratch, actions, rng, game_log, game_stats):
    """The ``GamePtrs``: pointers to these arrays (valid while they are alive)."""
    return GamePtrs(as_ptr(rulebook), as_ptr(weight_table), as_ptr(game_state), as_ptr(scratch), as_ptr(actions),
                    as_ptr(rng), as_ptr(game_log), as_ptr(game_stats))


@nb.njit(cache=True, inline="always")
def rollout_ptrs(t, rollout_state, game_log, game_stats):
    """``t`` with the state ``rollout_state`` (pointer), log ``game_log`` and statistics ``game_stats`` in place of its own."""
    return GamePtrs(t.rulebook, t.weight_table, rollout_state, t.scratch, t.actions, t.rng, game_log, game_stats)


def seats(policy, rollouts, *, seating=None, rotate=False, cum=None, focal=-1, draw_key=0, game_key=None):
    """``Seats`` with the kernels' types (one compiled version): ``game_key`` None = the games play on
    from the chunk's stream (a profile batch), else each from its own."""
    fixed = np.full(1, -1, np.int64) if seating is None else np.asarray(seating, np.int64)
    return Seats(np.asarray(policy, np.int64), np.asarray(rollouts, np.int64), fixed, bool(rotate),
                 np.ones(1) if cum is None else np.asarray(cum, np.float64), int(focal), np.uint64(draw_key),
                 game_key is not None, np.uint64(0 if game_key is None else game_key))
