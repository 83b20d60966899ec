"""A heuristic payoff table: each strategy's estimated payoff in each profile.

``PayoffTable(names, n_players)`` starts empty; rows follow ``profiles(N, K)``
(canonical order), columns the strategies. Arrays ``payoff`` and ``se``
(float, NaN where there is no entry) and ``n`` (int, 0 there), shape (P, K).
An entry (profile, strategy j) exists only where j has a seat: the mean
payoff of the seats playing j (their win share), its standard error, and n,
the number of independent samples behind it (games, or rotation blocks).

- ``record(counts, total, total_sq, n)`` sets one profile's entries from
  per-strategy sufficient statistics (sum of the per-sample payoffs, sum of
  their squares, sample count; see ``build.play_table``);
- ``missing()``: the profiles that lack an entry; ``complete``;
- ``game()``: the ``SymmetricGame`` (payoffs and SEs, NaN where missing: a
  computation that needs one raises ``MissingProfileError``);
- ``with_strategies(names)``: the same entries in a table with more
  strategies appended (their profiles unplayed);
- ``to_frame()`` / ``PayoffTable.from_frame(df)``, ``to_csv(path)`` /
  ``PayoffTable.read_csv(path)``: one row per entry, columns = one count
  column per strategy (named by it, in table order), then ``strategy``,
  ``payoff``, ``se``, ``n``. Values round-trip exactly. Bad files raise a
  one-line ``UserError``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.metagame.game import SymmetricGame, focal_rows
from tabletop_mc.metagame.profiles import describe, profile_index, profiles
from tabletop_mc.plotfile import write_atomic
from tabletop_mc.stats import mean_se

ENTRY_COLUMNS = ("strategy", "payoff", "se", "n")


def check_names(names) -> list[str]:
    names = [str(s) for s in names]
    if len(set(names)) != len(names):
        raise UserError(f"strategy names repeat: {', '.join(sorted({s for s in names if names.count(s) > 1}))}")
    clash = [s for s in names if s in ENTRY_COLUMNS or not s.strip()]
    if clash:
        raise UserError(f"{clash[0]!r} cannot name a strategy (the payoff table uses {', '.join(ENTRY_COLUMNS)})")
    return names


class PayoffTable:
    """Estimated payoffs of a symmetric N-seat game over named strategies (see the module)."""

    def __init__(self, names, n_players: int):
        self.names = check_names(names)
        if len(self.names) < 1 or n_players < 2:
            raise UserError("a payoff table needs at least one strategy and two seats")
        self.n_players = int(n_players)
        self.profiles = profiles(self.n_players, len(self.names))
        self._index = profile_index(self.n_players, len(self.names))
        shape = self.profiles.shape
        self.payoff = np.full(shape, np.nan)
        self.se = np.full(shape, np.nan)
        self.n = np.zeros(shape, dtype=np.int64)

    @property
    def n_strategies(self) -> int:
        return len(self.names)

    def row(self, counts) -> int:
        """The row of a profile (count tuple in table order); UserError if it is not one."""
        key = tuple(int(c) for c in counts)
        if key not in self._index:
            raise UserError(f"{list(key)} is not a profile of {self.n_players} seats over {self.n_strategies} strategies")
        return self._index[key]

    def record(self, counts, total, total_sq, n) -> None:
        """Set the entries of profile ``counts`` from per-strategy sums, sums of squares and counts."""
        i = self.row(counts)
        seated = self.profiles[i] > 0
        n = np.asarray(n, dtype=np.int64)
        if n.shape != seated.shape or np.any(n[seated] < 1) or np.any(n[~seated] != 0):
            raise ValueError(f"profile {describe(self.profiles[i], self.names)}: need n >= 1 for each seated "
                             f"strategy and 0 for the others, got {n.tolist()}")
        mean, se = mean_se(total, total_sq, n)
        self.payoff[i] = np.where(seated, mean, np.nan)
        self.se[i] = np.where(seated, se, np.nan)
        self.n[i] = n

    def entry_missing(self) -> np.ndarray:
        """(P, K) bool: a seated strategy without an entry."""
        return (self.profiles > 0) & (self.n == 0)

    def missing(self) -> list[tuple[int, ...]]:
        """Count tuples of the profiles that lack at least one entry, canonical order."""
        return [tuple(int(c) for c in self.profiles[i]) for i in np.flatnonzero(self.entry_missing().any(axis=1))]

    @property
    def complete(self) -> bool:
        return not self.entry_missing().any()

    def describe(self, counts) -> str:
        return describe(counts, self.names)

    def game(self) -> SymmetricGame:
        """The focal-player arrays (NaN where an entry is missing)."""
        rows = focal_rows(self.n_players, self.n_strategies)
        cols = np.arange(self.n_strategies)[:, None]
        return SymmetricGame(self.n_players, self.payoff[rows, cols], se=self.se[rows, cols], names=self.names)

    def with_strategies(self, names) -> "PayoffTable":
        """A table over ``self.names + names`` holding this table's entries."""
        out = PayoffTable(self.names + [str(s) for s in names], self.n_players)
        p = len(self.profiles)        # canonical order: the old profiles come first
        k = self.n_strategies
        out.payoff[:p, :k], out.se[:p, :k], out.n[:p, :k] = self.payoff, self.se, self.n
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per entry: count columns (one per strategy), strategy, payoff, se, n."""
        i, j = np.nonzero(self.n > 0)
        frame = pd.DataFrame(self.profiles[i], columns=self.names)
        frame["strategy"] = np.array(self.names, dtype=object)[j]
        frame["payoff"], frame["se"], frame["n"] = self.payoff[i, j], self.se[i, j], self.n[i, j]
        return frame

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, what: str = "payoff table") -> "PayoffTable":
        """The table of a ``to_frame`` frame; a one-line UserError naming the problem otherwise."""
        lacking = [c for c in ENTRY_COLUMNS if c not in frame.columns]
        if lacking:
            raise UserError(f"{what}: no column {', '.join(lacking)}")
        names = [str(c) for c in frame.columns if c not in ENTRY_COLUMNS]
        if not names:
            raise UserError(f"{what}: no strategy count columns")
        if frame.empty:
            raise UserError(f"{what}: no entries")
        try:
            counts = frame[names].to_numpy(dtype=float)
            payoff, se, n = (frame[c].to_numpy(dtype=float) for c in ("payoff", "se", "n"))
        except (TypeError, ValueError):
            raise UserError(f"{what}: the count, payoff, se and n columns must be numbers") from None
        if not np.all(np.isfinite(counts)) or np.any(counts < 0) or np.any(counts != np.round(counts)):
            raise UserError(f"{what}: the count columns must be whole numbers >= 0")
        seats = counts.sum(axis=1)
        if np.any(seats != seats[0]):
            raise UserError(f"{what}: profiles of {int(seats.min())} and {int(seats.max())} seats in one table")
        table = cls(names, int(seats[0]))
        strat = frame["strategy"].astype(str).to_numpy()
        unknown = sorted(set(strat) - set(names))
        if unknown:
            raise UserError(f"{what}: strategy {unknown[0]!r} has no count column")
        if not np.all(np.isfinite(payoff)):
            raise UserError(f"{what}: a payoff is missing or not finite")
        if np.any(n < 1) or np.any(n != np.round(n)) or np.any(se < 0):
            raise UserError(f"{what}: n must be a whole number >= 1 and se >= 0")
        rows = [table.row(c) for c in counts.astype(np.int64)]
        cols = [names.index(s) for s in strat]
        for r, c in zip(rows, cols):
            if table.profiles[r, c] == 0:
                raise UserError(f"{what}: an entry for {names[c]} in {table.describe(table.profiles[r])}, "
                                "where it has no seat")
            if table.n[r, c]:
                raise UserError(f"{what}: two entries for {names[c]} in {table.describe(table.profiles[r])}")
            table.n[r, c] = 1
        table.payoff[rows, cols], table.se[rows, cols], table.n[rows, cols] = payoff, se, n.astype(np.int64)
        return table

    def to_csv(self, path, option: str = "--out") -> None:
        """Write ``to_frame()`` as CSV (atomically; see ``tabletop_mc.plotfile.write_atomic``)."""
        write_atomic(path, lambda tmp: self.to_frame().to_csv(tmp, index=False), option)

    @classmethod
    def read_csv(cls, path) -> "PayoffTable":
        try:
            frame = pd.read_csv(path, dtype={"strategy": str})
        except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise UserError(f"payoff table {path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
        return cls.from_frame(frame, what=f"payoff table {Path(path)}")
