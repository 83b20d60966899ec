"""`meta` for either game: population -> payoff table -> equilibrium -> tables and a field.

A game supplies its population (canonical strategy texts) and an adapter
``play(counts, games, seed)`` (``tabletop_mc.metagame.build``); this module
plays every profile (or only the ones a base table lacks), solves the
symmetric game, bootstraps the sampling error and words the verdict, the
same for both games:

- ``solve`` -> ``MetaResult``: every distinct symmetric equilibrium found
  (replicator dynamics from several starts, ``metagame.solve_nash``); the
  one reached from the most starts is *the* equilibrium, with each member's
  regret (its gain over the mixture's value) and the weights with 95 %
  bootstrap intervals, and alpha-Rank beside it;
- ``frames``: the tables a command prints (``mixture``, ``equilibria``,
  ``payoffs``);
- ``to_field``: the equilibrium as a field (``tabletop_mc.field``) that
  records how it was made; ``write_outputs`` saves payoffs, mixture and
  field files into a directory.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.field import Field, field_to_json
from tabletop_mc.metagame import (AlphaRank, Bootstrap, Equilibrium, PayoffTable, alpharank, bootstrap, play_table,
                                  solve_nash, verdict)
from tabletop_mc.plotfile import write_atomic

MARGIN = 0.01          # a member "gains" when its regret's lower bound exceeds this (win share)
REPLICATES = 1000


@dataclass
class MetaResult:
    table: PayoffTable
    equilibria: list[Equilibrium]
    boot: Bootstrap
    alpha: AlphaRank | None
    margin: float

    @property
    def names(self) -> list[str]:
        return self.table.names

    @property
    def equilibrium(self) -> Equilibrium:
        return self.equilibria[0]

    @property
    def verdict(self) -> str:
        return verdict(self.boot, self.margin)


def play(names, players: int, adapter, *, games: int, seed: int, base: PayoffTable | None = None,
         bar=None) -> PayoffTable:
    """Every profile the table lacks, played by ``adapter`` with the same seed (common random numbers)."""
    def progress(done, total, counts):
        if bar is not None:
            bar.set_label(f"meta {done}/{total}")
    return play_table(names, players, adapter, games=games, seed=seed, base=base, progress=progress)


def solve(table: PayoffTable, *, seed: int, margin: float = MARGIN, replicates: int = REPLICATES) -> MetaResult:
    """The table's equilibria, bootstrap and alpha-Rank (module docstring)."""
    if not table.complete:
        raise UserError("the payoff table lacks profiles: play them first")
    game = table.game()
    eqs = solve_nash(game, seed=seed)
    if not eqs:
        raise UserError("no symmetric equilibrium found from the starts (the table may be too noisy)")
    boot = bootstrap(game, eqs[0].mixture, replicates=replicates, seed=seed)
    try:
        alpha = alpharank(game)
    except (ValueError, FloatingPointError, np.linalg.LinAlgError):
        alpha = None
    return MetaResult(table, eqs, boot, alpha, margin)


def frames(result: MetaResult) -> dict[str, pd.DataFrame]:
    """``mixture`` (per member: weight and regret with CIs, gains flag, alpha-Rank mass),
    ``equilibria`` (every one found), ``payoffs`` (the table, one row per entry)."""
    mix = result.boot.frame().rename(columns={"strategy": "member"})
    mix["gains"] = mix["regret_low"] > result.margin
    if result.alpha is not None:
        mix["alpha_rank"] = result.alpha.stationary
    eq = pd.DataFrame([{"equilibrium": i + 1, "mixture": e.describe(result.names), "value": e.value,
                        "gap": e.gap, "starts": e.starts, "support": len(e.support)}
                       for i, e in enumerate(result.equilibria)])
    return {"mixture": mix, "equilibria": eq, "payoffs": result.table.to_frame()}


def to_field(result: MetaResult, *, game: str, rules: str, command: str, seed: int, games: int,
             version: str, payoffs: str = "payoffs.csv", notes: dict | None = None) -> Field:
    """The equilibrium as a field file's content (weights rounded to 4 decimals, renormalised)."""
    b = result.boot
    w = np.round(np.clip(b.mixture, 0.0, None), 4)
    w = w / w.sum()
    rnd = lambda a: tuple(round(float(v), 4) for v in a)   # noqa: E731
    low = np.nan_to_num(b.weight_low, nan=0.0)
    high = np.nan_to_num(b.weight_high, nan=1.0)
    return Field(game=game, players=result.table.n_players, rules=rules, members=tuple(result.names),
                 weights=tuple(float(v) for v in w), weights_low=rnd(low), weights_high=rnd(high),
                 value=round(float(b.value), 4), regret=rnd(b.regret), regret_high=rnd(b.regret_high),
                 payoffs=payoffs, command=command, seed=int(seed), games_per_profile=int(games),
                 version=version, notes=dict(notes or {}))


def write_outputs(result: MetaResult, out: str | Path, field: Field) -> list[Path]:
    """``payoffs.csv``, ``mixture.csv``, ``equilibria.csv`` and ``field.json`` in ``out``
    (each written atomically); returns the paths."""
    out = Path(out)
    tables = frames(result)
    paths = []
    result.table.to_csv(out / field.payoffs)
    paths.append(out / field.payoffs)
    for name in ("mixture", "equilibria"):
        path = out / f"{name}.csv"
        write_atomic(path, lambda tmp, t=tables[name]: t.to_csv(tmp, index=False), "--out")
        paths.append(path)
    path = out / "field.json"
    write_atomic(path, lambda tmp: Path(tmp).write_text(field_to_json(field)), "--out")
    paths.append(path)
    return paths
