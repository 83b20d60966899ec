"""Players who adapt: a field's mixture re-solved for a changed rule set (both games).

A field is the equilibrium of a population under one rule set; a lever value
changes the rules, so the same weights are no longer what strong players would
play. ``adapt`` re-solves the mixture weights under the changed rules over the
members *near* the current mixture (``near_members``: the support, then the
members that lose least against it, ``keep`` in all): it plays their payoff
table under those rules (``metagame.play_table``: every profile, ``games``
each, one seed for every profile and every rule set, so the lever values are
compared on common random numbers) and follows the replicator dynamics from
the current mixture to the equilibrium they reach (``metagame.replicator``
then ``refine``; the most-reached equilibrium of ``solve_nash`` if that path
finds none). Members outside the near set keep weight 0.

Cost: C(N + keep - 1, N) profiles x ``games`` games per rule set (35 profiles
at keep 4 and 4 seats); the game's adapter caches finished batches, and
``Adapter.memo`` keeps each rule set's result for the process, so the
standard rule set is solved once however many levers use it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Hashable

import numpy as np

from tabletop_mc.metagame import n_profiles, play_table, replicator, solve_nash
from tabletop_mc.metagame.nash import refine
from tabletop_mc.metagame.text import describe_mixture

KEEP = 4              # members in the re-solved table (the support first)
WITHIN = 0.05         # the check against mc: the re-solved field within this of every-seat mc
SUPPORT = 1e-3        # a member with more weight than this is in the current support
START_FLOOR = 0.02    # the replicator path starts from the current mixture, every near member at least this


def near_members(weights, regret, keep: int = KEEP) -> list[int]:
    """Indices of the members the re-solve keeps: the support (heaviest first), then the others by
    regret against the current mixture (least loss first), ``keep`` in all (never fewer than the
    support, never fewer than two)."""
    w = np.asarray(weights, dtype=float)
    r = np.asarray(regret, dtype=float) if len(regret) == len(w) else np.zeros(len(w))
    support = [int(j) for j in np.argsort(-w, kind="stable") if w[j] > SUPPORT]
    rest = [int(j) for j in np.argsort(-np.nan_to_num(r, nan=-np.inf), kind="stable") if j not in support]
    return support + rest[:max(keep, 2, len(support)) - len(support)]


@dataclass
class Adapted:
    """A re-solved mixture: weights over every member (0 outside ``near``), the restricted
    game's value and Nash gap, and what it cost."""

    names: list[str]
    near: list[int]
    weights: np.ndarray
    value: float
    gap: float
    profiles: int
    games: int
    seconds: float

    def text(self, digits: int = 2) -> str:
        return describe_mixture(self.weights, self.names, digits)

    def share(self, pick: Callable[[str], bool]) -> float:
        """The total weight of the members ``pick`` selects."""
        return float(sum(w for n, w in zip(self.names, self.weights) if pick(n)))


def _solve(game, start) -> np.ndarray:
    """The equilibrium the replicator path from ``start`` reaches (module docstring)."""
    x0 = np.maximum(np.asarray(start, dtype=float), START_FLOOR)
    last, avg = replicator(game, x0 / x0.sum(), tol=1e-7)
    for cand in (last, avg):
        point = refine(game, cand)
        if point is not None:
            return point
    eqs = solve_nash(game)
    return eqs[0].mixture if eqs else last


def adapt(names, weights, regret, players: int, adapter, *, games: int, seed: int, keep: int = KEEP) -> Adapted:
    """The mixture re-solved under the rules ``adapter`` plays (module docstring). ``adapter`` is the
    game's ``play(counts, games, seed)`` over the near members, in ``near_members`` order."""
    t0 = time.perf_counter()
    names = [str(n) for n in names]
    near = near_members(weights, regret, keep)
    table = play_table([names[j] for j in near], players, adapter, games=games, seed=seed)
    game = table.game()
    start = np.asarray(weights, dtype=float)[near]
    x = _solve(game, start / start.sum() if start.sum() > 0 else np.full(len(near), 1.0 / len(near)))
    full = np.zeros(len(names))
    full[near] = x
    return Adapted(names, near, full / full.sum(), float(game.value(x)), float(game.gap(x)),
                   n_profiles(players, len(near)), games, time.perf_counter() - t0)


@dataclass
class Adapter:
    """Re-solves for many rule sets of one field, each once per process (``memo``): ``make(rules, near)``
    gives the game's payoff adapter for the members at indices ``near`` under ``rules``; ``key(rules)``
    a hashable that tells rule sets apart."""

    names: list[str]
    weights: tuple
    regret: tuple
    players: int
    make: Callable
    key: Callable[[object], Hashable]
    games: int
    seed: int
    keep: int = KEEP
    memo: dict = field(default_factory=dict)

    def __call__(self, rules) -> Adapted:
        k = self.key(rules)
        if k not in self.memo:
            near = near_members(self.weights, self.regret, self.keep)
            self.memo[k] = adapt(self.names, self.weights, self.regret, self.players, self.make(rules, near),
                                 games=self.games, seed=self.seed, keep=self.keep)
        return self.memo[k]

    def cost(self) -> dict:
        """Rule sets solved, profiles and games played, seconds spent (this process)."""
        runs = list(self.memo.values())
        return {"rule_sets": len(runs), "profiles": sum(a.profiles for a in runs),
                "games": sum(a.profiles * a.games for a in runs), "seconds": sum(a.seconds for a in runs)}


def mc_check_row(fixed, adapted, mc) -> dict:
    """One rule set of the check against `mc` (both games' ``analysis.balance.adapt.mc_check``): a
    measure's (level, 95 % low, high) under the field as shipped, re-solved, and under every-seat `mc`;
    ``within``: the re-solved field lies within ``WITHIN`` of mc or their intervals overlap;
    ``closer``: it is nearer mc than the field as shipped."""
    gap = adapted[0] - mc[0]
    row = {}
    for name, (v, lo, hi) in (("fixed", fixed), ("adapted", adapted), ("mc", mc)):
        row.update({name: float(v), f"{name}_low": float(lo), f"{name}_high": float(hi)})
    row["within"] = bool(abs(gap) <= WITHIN or (adapted[1] <= mc[2] and mc[1] <= adapted[2]))
    row["closer"] = bool(abs(gap) < abs(fixed[0] - mc[0]))
    return row
