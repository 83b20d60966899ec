"""Filling a payoff table by playing its profiles through a game's adapter.

``play_table(names, n_players, play, *, games, seed, base=None, profiles=None,
progress=None)`` -> ``PayoffTable``.

The adapter, written per game: ``play(counts, games, seed) -> (total, total_sq, n)``

- ``counts``: tuple of K ints, seats per strategy in ``names`` order (sum N);
- ``games``: how many games to play; ``seed``: the same for every profile
  (common random numbers), so a profile's entries depend on nothing but
  (counts, games, seed): tables built in any order, or extended later,
  agree entry for entry;
- returns three length-K sequences (a ``Sample`` or any 3-tuple): for each
  strategy, the sum over samples of y = the mean payoff of that strategy's
  seats in the sample, the sum of y**2, and the number of samples (0 for a
  strategy without a seat). Samples must be independent: one game each, or
  one block of seat-rotated games (y is then the block's mean).

``base``: a table over the first strategies of ``names`` (PSRO appends new
strategies at the end): its entries are kept and only what it lacks is
played. ``profiles``: count tuples to play, in that order (default: every
profile lacking an entry, canonical order); ``progress(done, total, counts)``
is called after each profile.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Sequence

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.metagame.payoffs import PayoffTable


class Sample(NamedTuple):
    """Per-strategy sufficient statistics of one profile's games (length-K arrays)."""
    total: np.ndarray
    total_sq: np.ndarray
    n: np.ndarray


Play = Callable[[tuple, int, int], Sequence]


def play_table(names, n_players: int, play: Play, *, games: int, seed: int, base: PayoffTable | None = None,
               profiles=None, progress: Callable[[int, int, tuple], None] | None = None) -> PayoffTable:
    """A payoff table over ``names`` with the chosen profiles played (see the module)."""
    names = [str(s) for s in names]
    if base is None:
        table = PayoffTable(names, n_players)
    else:
        if base.n_players != n_players:
            raise UserError(f"the base payoff table has {base.n_players} seats, not {n_players}")
        if names[:base.n_strategies] != base.names:
            raise UserError("the base payoff table's strategies must come first, in its order: "
                            + ", ".join(base.names))
        table = base.with_strategies(names[base.n_strategies:])
    todo = table.missing() if profiles is None else [tuple(int(c) for c in p) for p in profiles]
    for counts in todo:
        table.row(counts)            # every requested profile is valid before any game is played
    k = table.n_strategies
    for done, counts in enumerate(todo, 1):
        total, total_sq, n = (np.asarray(v) for v in play(counts, games, seed))
        if not (total.shape == total_sq.shape == n.shape == (k,)):
            raise ValueError(f"play{counts} must return three sequences of {k} values")
        table.record(counts, total, total_sq, n)
        if progress is not None:
            progress(done, len(todo), counts)
    return table
