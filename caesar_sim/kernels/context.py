"""The arrays that travel together through the kernels, as named tuples (numba passes a tuple's fields
as separate machine arguments, so a context costs what its arrays did one by one).

- ``Table``: the pointers one game is played on (``kernels.ptr``): rules ``R``, weight matrix ``PP``,
  state ``S``, scratch floats ``W`` and ints ``A``, random stream ``rng``, log ``lg`` and statistics
  ``st``. An `mc` seat's rollouts play on a second ``Table`` sharing all but the state (the rollout
  board) and a dummy log and statistics (``rollout_table``).
- ``Seats``: who sits where in a batch of games and from which streams (``kernels.game``): each
  member's ``policy`` code and ``rollouts``, a fixed ``seating`` (``seating[0] < 0``: drawn per game
  from the cumulative weights ``cum`` on stream (``draw_key``, g)), ``rotate``, the ``focal`` member
  (-1: none), and ``per_game`` streams (``game_key``, g). Built by ``seats``.
- ``Results``: a batch's per-game outputs, each written for game g only if sized for it: final
  ``scores``, rotations ``rots``, each seat's member ``members``, day-end totals ``days``.
"""

from collections import namedtuple

import numba as nb
import numpy as np

from caesar_sim.kernels.ptr import as_ptr

Table = namedtuple("Table", "R PP S W A rng lg st")
Seats = namedtuple("Seats", "policy rollouts seating rotate cum focal draw_key per_game game_key")
Results = namedtuple("Results", "scores rots members days")


@nb.njit(cache=True, inline="always")
def table(R, PP, S, W, A, rng, lg, st):
    """The ``Table`` of pointers to these arrays (valid while they are alive)."""
    return Table(as_ptr(R), as_ptr(PP), as_ptr(S), as_ptr(W), as_ptr(A), as_ptr(rng), as_ptr(lg), as_ptr(st))


@nb.njit(cache=True, inline="always")
def rollout_table(t, B, lg, st):
    """``t`` with the state ``B`` (pointer), log ``lg`` and statistics ``st`` in place of its own."""
    return Table(t.R, t.PP, B, t.W, t.A, t.rng, lg, st)


def seats(policy, rollouts, *, seating=None, rotate=False, cum=None, focal=-1, draw_key=0, game_key=None):
    """``Seats`` with the kernels' types (one compiled version): ``game_key`` None = the games play on
    from the chunk's stream (a profile batch), else each from its own."""
    fixed = np.full(1, -1, np.int64) if seating is None else np.asarray(seating, np.int64)
    return Seats(np.asarray(policy, np.int64), np.asarray(rollouts, np.int64), fixed, bool(rotate),
                 np.ones(1) if cum is None else np.asarray(cum, np.float64), int(focal), np.uint64(draw_key),
                 game_key is not None, np.uint64(0 if game_key is None else game_key))
