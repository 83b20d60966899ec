"""Support enumeration: every symmetric Nash equilibrium of a small game.

``support_enumeration(game, *, tol=1e-9, grid=10, max_support=None)`` -> list of
mixtures (K,) sorted lexicographically, stable and unstable alike. It tries
every support S (non-empty set of strategies): one strategy is a pure
profile; two strategies a and b meet where u_a = u_b on their edge, the
roots in (0, 1) of a polynomial of degree N - 1 (exact, numpy's roots);
three or more are searched by Newton's method from a grid of interior
starts (``grid`` steps per axis). A point counts when its weights are
positive on S and no strategy gains more than ``tol`` against it.

It is independent of the replicator dynamics (``nash.solve_nash``) and
costs about 2^K Newton searches: a cross-check for K up to ~6, not the
production solver. A support whose equal-payoff set is not isolated (two
identical strategies) yields only the points Newton happens to reach.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
from numpy.polynomial import Polynomial

from tabletop_mc.metagame.game import SymmetricGame
from tabletop_mc.metagame.nash import merge_points, newton_on_support
from tabletop_mc.metagame.profiles import profile_index, profiles


def _edge_roots(game: SymmetricGame, a: int, b: int) -> list[float]:
    """t in (0, 1) with u_a = u_b at t e_a + (1 - t) e_b (Bernstein form of both payoffs)."""
    n1 = game.n_players - 1
    index = profile_index(n1, game.n_strategies)
    t, s = Polynomial([0.0, 1.0]), Polynomial([1.0, -1.0])
    diff = Polynomial([0.0])
    for k in range(n1 + 1):
        opp = [0] * game.n_strategies
        opp[a], opp[b] = k, n1 - k
        q = index[tuple(opp)]
        diff = diff + comb(n1, k) * t ** k * s ** (n1 - k) * (game.payoffs[a, q] - game.payoffs[b, q])
    coef = diff.coef
    if np.all(np.abs(coef) <= 1e-12 * game.scale()):
        return []           # u_a = u_b along the whole edge: not isolated
    roots = diff.roots()
    return [float(r.real) for r in roots if abs(r.imag) < 1e-9 and 0.0 < r.real < 1.0]


def _grid(size: int, steps: int) -> np.ndarray:
    """Interior points of the (size-1)-simplex: compositions of ``steps`` into positive parts."""
    comps = profiles(steps - size, size) + 1
    return comps / steps


def support_enumeration(game: SymmetricGame, *, tol: float = 1e-9, grid: int = 10,
                        max_support: int | None = None) -> list[np.ndarray]:
    """All symmetric equilibria found support by support (see the module)."""
    k = game.n_strategies
    found = []
    for size in range(1, min(k, max_support or k) + 1):
        for support in combinations(range(k), size):
            candidates = []
            if size == 1:
                candidates.append(np.eye(k)[support[0]])
            elif size == 2:
                a, b = support
                for r in _edge_roots(game, a, b):
                    x = np.zeros(k)
                    x[a], x[b] = r, 1.0 - r
                    candidates.append(x)
            else:
                for start in _grid(size, max(grid, size + 1)):
                    x = np.zeros(k)
                    x[list(support)] = start
                    point = newton_on_support(game, x, support)
                    if point is not None:
                        candidates.append(point)
            found += [x for x in candidates if np.all(x[list(support)] > 0) and game.gap(x) <= tol]
    points = [p for p, _ in merge_points(found, 1e-7)]
    return sorted(points, key=lambda p: tuple(-p))
