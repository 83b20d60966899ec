"""Symmetric Nash equilibria by replicator dynamics from several starts.

``solve_nash(game, *, tol=1e-6, random_starts=8, seed=0, steps=4000, step=0.1,
merge=1e-3, rounds=3, reach=0.1)`` -> list of ``Equilibrium``, most-reached first:

1. starts: the centre, one near each vertex (0.9 on it), ``random_starts``
   Dirichlet(1) points from ``numpy.random.default_rng(seed)``;
2. ``replicator``: the replicator equation x_j' = x_j (u_j(x) - u(x, x)),
   integrated by RK4 in log coordinates (x = softmax(y), y' = u(x)), so x
   stays on the simplex; time step ``step / game.scale()``; it keeps the
   last point and the average of the second half of the path (the average
   is what converges when the dynamics cycle, e.g. rock-paper-scissors);
3. ``refine``: Newton's method on the equal-payoff equations of a support
   read off the candidate, changing the support where a weight turns
   negative or an outside strategy gains (``local_equilibrium``), keeping a
   point only if its Nash gap (largest regret) is at most ``tol`` (payoff units)
   and it lies within ``reach`` (max-norm) of the path's point; a path with no
   such point goes on for another ``steps`` (``rounds`` times in all), and
   in the end counts for the first equilibrium refined from it, however far;
4. points closer than ``merge`` (max-norm) are one equilibrium; ``starts``
   counts how many starts reached it.

The dynamics find stable equilibria (and the centre when it is one); an
unstable one is listed only when a start lands on it. ``support_enumeration``
is the exhaustive cross-check for small K. A continuum of equilibria (e.g.
two identical strategies) shows up as several points of it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop_mc.metagame.game import SymmetricGame, check_mixture
from tabletop_mc.metagame.text import describe_mixture

SUPPORT_FLOOR, SUPPORT_CEILING = 0.05, 1e-8     # supports tried by refine, relative to the largest weight


@dataclass(frozen=True)
class Equilibrium:
    """A symmetric mixture with its regrets (u_j(x) - u(x, x)), value u(x, x), gap (max regret)
    and the number of starts that reached it; ``support``: strategies with weight > 1e-9."""
    mixture: np.ndarray
    regrets: np.ndarray
    value: float
    gap: float
    starts: int = 1

    @property
    def support(self) -> tuple[int, ...]:
        return tuple(int(j) for j in np.flatnonzero(self.mixture > 1e-9))

    def describe(self, names, decimals: int = 2) -> str:
        """'0.62 a + 0.38 b' (largest weight first)."""
        return describe_mixture(self.mixture, names, decimals)


def equilibrium_at(game: SymmetricGame, x, starts: int = 1) -> Equilibrium:
    """The ``Equilibrium`` record of mixture x (regrets and gap as they are)."""
    x = check_mixture(x, game.n_strategies)
    r = game.regrets(x)
    return Equilibrium(x, r, float(game.value(x)), float(r.max()), starts)


def starting_points(n_strategies: int, random_starts: int = 8, seed: int = 0) -> np.ndarray:
    """Centre, near each vertex, then Dirichlet(1) draws: shape (1 + K + random_starts, K)."""
    k = n_strategies
    centre = np.full((1, k), 1.0 / k)
    near = np.full((k, k), 0.1 / max(k - 1, 1))
    np.fill_diagonal(near, 0.9)
    rand = np.random.default_rng(seed).dirichlet(np.ones(k), size=random_starts)
    return np.vstack([centre, near if k > 1 else np.empty((0, k)), rand])


def _u_log(game: SymmetricGame, y):
    y = y - y.max(axis=-1, keepdims=True)
    logx = y - np.log(np.exp(y).sum(axis=-1, keepdims=True))
    return game._payoffs_against(np.exp(logx @ game.opponents.T + game._log_coef)), np.exp(logx)


def replicator(game: SymmetricGame, x0, *, step: float = 0.1, steps: int = 4000, tol: float | None = None):
    """Integrate the replicator dynamics from interior starts x0 (..., K).

    Returns (last, average of the second half), both (..., K). With ``tol``
    it stops early once every path's last point has Nash gap <= tol (then
    the average is the last point). A batch of games (payoffs (R, K, Q))
    runs with x0 of shape (R, K), one path per game.
    """
    x0 = check_mixture(x0, game.n_strategies)
    if np.any(x0 <= 0):
        raise ValueError("replicator dynamics start inside the simplex (every weight > 0)")
    h = step / game.scale()
    y = np.log(x0)
    total, counted = np.zeros_like(x0), 0
    for t in range(steps):
        k1, x = _u_log(game, y)
        if t >= steps // 2:
            total += x
            counted += 1
        if tol is not None and t % 100 == 0:
            if np.max(k1 - (x * k1).sum(axis=-1, keepdims=True)) <= tol:
                return x, x
        k2 = _u_log(game, y + 0.5 * h * k1)[0]
        k3 = _u_log(game, y + 0.5 * h * k2)[0]
        k4 = _u_log(game, y + h * k3)[0]
        y = y + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    last = _u_log(game, y)[1]
    return last, (total / counted if counted else last)


def newton_on_support(game: SymmetricGame, x, support, iters: int = 50):
    """Solve u_j(z) equal for all j in ``support``, sum z = 1 (z zero elsewhere), from x.

    Newton's method on the polynomial equations, steps capped at 0.5 in max-norm;
    the weights may turn negative (the caller checks). Returns z (K,) or None
    if it does not converge. Its regrets off the support are not checked.
    """
    s = np.asarray(support, dtype=np.int64)
    z = np.asarray(x, dtype=float)[s]
    if z.sum() <= 0:
        return None
    z = z / z.sum()
    full = np.zeros(game.n_strategies)
    eps = 1e-13 * game.scale()
    for _ in range(iters):
        full[:] = 0.0
        full[s] = z
        u = game.polynomial_payoffs(full)
        g = np.append(u[s[1:]] - u[s[0]], z.sum() - 1.0)
        if np.max(np.abs(g)) <= eps:
            return full / full.sum()
        jac = game.support_jacobian(full, s)
        a = np.vstack([jac[s[1:]] - jac[s[0]], np.ones(len(s))])
        dz = np.linalg.lstsq(a, -g, rcond=None)[0]
        z = z + dz * min(1.0, 0.5 / max(np.max(np.abs(dz)), 1e-300))
    return None


def local_equilibrium(game: SymmetricGame, x, *, tol: float = 1e-6, changes: int | None = None):
    """The equilibrium found by following x's support, or None.

    Newton on the support of x; a weight that turns negative leaves the
    support, the strategy that gains most (by more than ``tol``) joins it;
    at most ``changes`` (default 2K) changes.
    """
    x = np.asarray(x, dtype=float)
    support = [int(j) for j in np.flatnonzero(x > 0)]
    point = x
    for _ in range(changes or 2 * game.n_strategies):
        sol = newton_on_support(game, point, support)
        if sol is None:
            return None
        if sol.min() < 0:
            support.remove(int(np.argmin(sol)))
            point = np.clip(sol, 0.0, None)
            continue
        regrets = game.regrets(sol)
        j = int(np.argmax(regrets))
        if regrets[j] <= tol:
            return sol
        support = sorted(support + [j])
        point = sol
    return None


def refine(game: SymmetricGame, x, *, tol: float = 1e-6):
    """An equilibrium (gap <= tol) near candidate x, or None.

    ``local_equilibrium`` from x's weights above 5 % of the largest; else
    Newton on the supports of x's m largest weights, m growing up to the
    number of weights above 1e-8 of the largest; else x itself.
    """
    x = np.asarray(x, dtype=float)
    point = local_equilibrium(game, np.where(x > SUPPORT_FLOOR * x.max(), x, 0.0), tol=tol)
    if point is not None:
        return point
    order = np.argsort(-x, kind="stable")
    smallest = max(1, int(np.sum(x > SUPPORT_FLOOR * x.max())))
    for m in range(smallest, int(np.sum(x > SUPPORT_CEILING * x.max())) + 1):
        point = newton_on_support(game, x, np.sort(order[:m]))
        if point is not None and point.min() >= 0 and game.gap(point) <= tol:
            return point
    return x if game.gap(x) <= tol else None


def merge_points(points, merge: float):
    """Group points closer than ``merge`` (max-norm): list of (first point, how many)."""
    groups: list[list] = []
    for p in points:
        for grp in groups:
            if np.max(np.abs(grp[0] - p)) < merge:
                grp[1] += 1
                break
        else:
            groups.append([p, 1])
    return [(p, n) for p, n in groups]


def solve_nash(game: SymmetricGame, *, tol: float = 1e-6, random_starts: int = 8, seed: int = 0,
               steps: int = 4000, step: float = 0.1, merge: float = 1e-3, rounds: int = 3,
               reach: float = 0.1) -> list[Equilibrium]:
    """Distinct symmetric Nash equilibria reached from the starts (see the module)."""
    x0 = starting_points(game.n_strategies, random_starts, seed)
    pending = np.arange(len(x0))
    found, farther = [], {}
    for _ in range(rounds):
        last, average = replicator(game, x0[pending], step=step, steps=steps, tol=tol / 10)
        again = []
        for i, a, b in zip(pending, last, average):
            for candidate in (a, b):
                point = refine(game, candidate, tol=tol)
                if point is not None and np.max(np.abs(point - candidate)) <= reach:
                    found.append(point)
                    break
                if point is not None:
                    farther.setdefault(i, point)
            else:
                x0[i] = np.maximum(a, 1e-12) / np.maximum(a, 1e-12).sum()   # go on from where the path is
                again.append(i)
        pending = np.array(again, dtype=np.int64)
        if not len(pending):
            break
    found += [farther[i] for i in pending if i in farther]
    eqs = [equilibrium_at(game, p, n) for p, n in merge_points(found, merge)]
    return sorted(eqs, key=lambda e: (-e.starts, -e.value))
