"""Sampling error of a meta-game solution: a parametric bootstrap of the table.

``bootstrap(game, mixture, *, replicates=1000, seed=0, resolve=True,
tol=1e-6, steps=4000)`` -> ``Bootstrap``. Each replicate draws every entry
from N(payoff, se) (``numpy.random.default_rng(seed)``); in it

- the mixture's regret of each strategy, u_j(x) - u(x, x), is computed:
  95 % percentile intervals ``regret_low``/``regret_high``;
- with ``resolve``, the replicate is solved again from the mixture:
  ``nash.local_equilibrium`` (Newton on the mixture's support, changed where
  a weight turns negative or another strategy gains), or where that fails,
  replicator dynamics from the mixture (blended 1 % with the centre, so that
  any strategy can enter) and ``nash.refine``; a replicate counts when its
  gap is <= ``tol`` (``resolved`` says how many did): 95 % percentile
  intervals of the weights over those. Re-solving fits a mixture that is an
  equilibrium of the table; for any other (an old field against a table
  grown by PSRO) pass ``resolve=False`` and read the regrets.

Every entry the computation uses needs a standard error (n >= 2 samples).
``verdict(result, margin=0.01)`` words the outcome in one line, e.g.
"equilibrium: 0.62 a + 0.38 b; no member gains > 0.01 (largest upper bound 0.006)".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.metagame.game import SymmetricGame, check_mixture
from tabletop_mc.metagame.nash import local_equilibrium, refine, replicator
from tabletop_mc.metagame.profiles import describe
from tabletop_mc.metagame.text import decimals_for, describe_mixture

CHUNK = 256   # replicates drawn and solved at once (bounds the memory of a batch)


@dataclass(frozen=True)
class Bootstrap:
    """Point estimates and 95 % percentile intervals per strategy (arrays of length K)."""
    names: list
    mixture: np.ndarray
    value: float
    regret: np.ndarray
    regret_low: np.ndarray
    regret_high: np.ndarray
    weight_low: np.ndarray       # NaN without resolve
    weight_high: np.ndarray
    replicates: int
    resolved: int | None         # replicates whose re-solve reached gap <= tol (None: not re-solved)
    tol: float

    @property
    def gap(self) -> float:
        """The mixture's largest regret in the table itself."""
        return float(self.regret.max())

    @property
    def largest_upper(self) -> float:
        """The largest upper bound of any strategy's regret interval."""
        return float(self.regret_high.max())

    def frame(self) -> pd.DataFrame:
        """One row per strategy: weight with its interval, regret with its interval."""
        return pd.DataFrame({"strategy": self.names, "weight": self.mixture, "weight_low": self.weight_low,
                             "weight_high": self.weight_high, "regret": self.regret,
                             "regret_low": self.regret_low, "regret_high": self.regret_high})


def _check_se(game: SymmetricGame) -> np.ndarray:
    if game.se is None:
        raise UserError("the bootstrap needs the payoff table's standard errors")
    bad = np.isfinite(game.payoffs) & ~(np.isfinite(game.se) & (game.se >= 0))
    if bad.any():
        j, q = (int(v[0]) for v in np.nonzero(bad))
        raise UserError(f"the payoff table's entry for {game.names[j]} in {describe(game.profile_of(j, q), game.names)} "
                        "has no standard error (fewer than 2 samples)")
    return np.where(np.isfinite(game.se), game.se, 0.0)


def _resolve(batch: SymmetricGame, x, tol: float, steps: int) -> np.ndarray:
    """Re-solved mixtures of a batch of games (R, K), NaN rows where none reached gap <= tol.

    First ``local_equilibrium`` from x (the replicate's equilibrium is usually
    the nearby one, on x's support or one changed by a strategy or two); where
    that fails, replicator dynamics from x blended 1 % with the centre, then ``refine``."""
    r, k = batch.payoffs.shape[0], batch.n_strategies
    games = [batch.with_payoffs(batch.payoffs[i]) for i in range(r)]
    out = np.full((r, k), np.nan)
    for i, one in enumerate(games):
        point = local_equilibrium(one, x, tol=tol)
        if point is not None:
            out[i] = point
    redo = np.flatnonzero(np.isnan(out[:, 0]))
    if len(redo):
        start = np.broadcast_to(0.99 * x + 0.01 / k, (len(redo), k))
        last, average = replicator(batch.with_payoffs(batch.payoffs[redo]), start, steps=steps, tol=tol / 10)
        for i, a, b in zip(redo, last, average):
            point = refine(games[i], a, tol=tol)
            if point is None:
                point = refine(games[i], b, tol=tol)
            if point is not None:
                out[i] = point
    return out


def bootstrap(game: SymmetricGame, mixture, *, replicates: int = 1000, seed: int = 0, resolve: bool = True,
              tol: float = 1e-6, steps: int = 4000) -> Bootstrap:
    """Regret and weight intervals of ``mixture`` from the table's sampling error (see the module)."""
    x = check_mixture(mixture, game.n_strategies)
    if replicates < 40:
        raise ValueError("a 95 % percentile interval needs at least 40 replicates")
    se = _check_se(game)
    point = game.regrets(x)        # also: every entry x needs is there
    rng = np.random.default_rng(seed)
    regrets, weights = [], []
    for done in range(0, replicates, CHUNK):
        size = min(CHUNK, replicates - done)
        batch = game.with_payoffs(game.payoffs + se * rng.standard_normal((size,) + game.payoffs.shape))
        regrets.append(batch.regrets(np.broadcast_to(x, (size, len(x)))))
        if resolve:
            weights.append(_resolve(batch, x, tol, steps))
    regrets = np.concatenate(regrets)
    r_low, r_high = np.percentile(regrets, [2.5, 97.5], axis=0)
    w_low = w_high = np.full(len(x), np.nan)
    resolved = None
    if resolve:
        weights = np.concatenate(weights)
        ok = weights[~np.isnan(weights).any(axis=1)]
        resolved = len(ok)
        if resolved:
            w_low, w_high = np.percentile(ok, [2.5, 97.5], axis=0)
    return Bootstrap(list(game.names), x, float(game.value(x)), point, r_low, r_high, w_low, w_high,
                     replicates, resolved, tol)


def verdict(result: Bootstrap, margin: float = 0.01, weight_decimals: int = 2) -> str:
    """One line: the mixture, then whether any member gains more than ``margin``.

    - some interval lies above ``margin``: "<j> gains <r> [<lo>, <hi>] > margin";
    - every upper bound is at most ``margin``: "no member gains > margin (largest upper bound u)";
    - otherwise, members whose interval lies above 0: "<j> gains <r> [lo, hi]: above 0, not
      shown above margin"; none: "no evidence that any member gains (largest: ...), but the
      table cannot rule out a gain > margin".

    When some resamples did not re-find an equilibrium near the mixture, the
    mixture is followed by "(re-found in R of B resamples)".
    """
    names = result.names
    head = "equilibrium" if result.gap <= result.tol else "mixture"
    line = f"{head}: {describe_mixture(result.mixture, names, weight_decimals)}"
    if result.resolved is not None and result.resolved < result.replicates:
        line += f" (re-found in {result.resolved} of {result.replicates} resamples)"
    d = decimals_for(float(np.max(result.regret_high - result.regret_low)) / 2)

    def est(j):
        return f"{result.regret[j]:.{d}f} [{result.regret_low[j]:.{d}f}, {result.regret_high[j]:.{d}f}]"

    order = sorted(range(len(names)), key=lambda j: -result.regret_low[j])
    above = [j for j in order if result.regret_low[j] > margin]
    if above:
        gains = ", ".join(f"{names[j]} gains {est(j)}" for j in above)
        return f"{line}; {gains} > {margin:g}"
    if result.largest_upper <= margin:
        return f"{line}; no member gains > {margin:g} (largest upper bound {result.largest_upper:.{d}f})"
    positive = [j for j in order if result.regret_low[j] > 0]
    if positive:
        gains = ", ".join(f"{names[j]} gains {est(j)}" for j in positive)
        return f"{line}; {gains}: above 0, not shown above {margin:g}"
    top = int(np.argmax(result.regret_high))
    return (f"{line}; no evidence that any member gains (largest: {names[top]} {est(top)}), "
            f"but the table cannot rule out a gain > {margin:g}")
