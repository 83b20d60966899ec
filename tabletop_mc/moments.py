"""Moments of per-game measure vectors: means, paired differences and ratios with 95 % intervals.

A kernel that plays games adds each game's vector ``x`` of measures to ``sums``
and its outer product to ``prods`` (``add_moments``; upper triangle). Several
plays of the same game sit side by side in ``x``, so a difference between plays
is paired game by game. ``Moments`` reads (n, sums, prods) back: the mean of
every measure and their per-game covariance, hence the interval of any smooth
function of the means by the delta method (``Moments.delta``): a mean, a paired
difference, a ratio of sums (troll rounds per seat-round), a difference of
ratios. Intervals: estimate +/- t(0.975, n-1) SE, none below ``MIN_MEAN_N``
games; for a mean the very interval of ``stats.mean_ci``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tabletop_mc.jitcache import configure_shared
from tabletop_mc.stats import MIN_MEAN_N, t975

configure_shared()   # the kernels below are cached keyed by their sources


@nb.njit(cache=True)
def add_moments(x, sums, prods):
    """``sums += x``; ``prods[i * m + j] += x[i] x[j]`` for i <= j (m = len(x))."""
    m = x.shape[0]
    for i in range(m):
        xi = x[i]
        if xi == 0.0:
            continue
        sums[i] += xi
        base = i * m
        for j in range(i, m):
            prods[base + j] += xi * x[j]


def moments_size(m: int) -> int:
    """Slots of one moments block for vectors of ``m`` measures: n, sums, products."""
    return 1 + m + m * m


class Moments:
    """Means and per-game covariance of ``m`` measures from a block (n, sums, products)."""

    def __init__(self, block: np.ndarray, m: int):
        block = np.asarray(block, dtype=np.float64)
        if len(block) != moments_size(m):
            raise ValueError(f"a moments block of {m} measures has {moments_size(m)} slots, got {len(block)}")
        self.n = float(block[0])
        self.m = m
        sums = block[1:1 + m]
        upper = np.triu(block[1 + m:].reshape(m, m))
        prods = upper + upper.T - np.diag(np.diag(upper))
        n = max(self.n, 1.0)
        self.mean = sums / n
        self.cov = (prods - n * np.outer(self.mean, self.mean)) / max(self.n - 1.0, 1.0)

    def delta(self, value: float, grad, *, lower=None, upper=None, min_n: int = MIN_MEAN_N):
        """(value, low, high): ``value`` of a function of the means whose gradient is ``grad``,
        with the delta-method interval value +/- t(0.975, n-1) sqrt(grad' C grad / n),
        clipped to [lower, upper]; no interval below ``min_n`` games."""
        g = np.asarray(grad, dtype=np.float64)
        if self.n < max(min_n, 2):
            return float(value), float("nan"), float("nan")
        se = float(np.sqrt(max(g @ self.cov @ g, 0.0) / self.n))
        q = float(t975(self.n - 1.0))
        lo, hi = value - q * se, value + q * se
        if lower is not None:
            lo = max(lo, lower)
        if upper is not None:
            hi = min(hi, upper)
        return float(value), float(lo), float(hi)

    def coef(self, *terms) -> np.ndarray:
        """A coefficient vector: each term an index (weight 1) or an (index, weight) pair;
        a term's index may be a list (every index in it)."""
        c = np.zeros(self.m)
        for t in terms:
            i, w = t if isinstance(t, tuple) else (t, 1.0)
            c[np.atleast_1d(i)] += w
        return c

    def linear(self, coef, shift: float = 0.0, **clip):
        """Mean of ``coef . x + shift`` per game (e.g. a paired difference: +1, -1)."""
        c = np.asarray(coef, dtype=np.float64)
        return self.delta(float(c @ self.mean) + shift, c, **clip)

    def mean_of(self, i: int, **clip):
        return self.linear(self.coef(i), **clip)

    def diff(self, i: int, j: int):
        """Mean of x_i - x_j: paired when both are measured on the same games."""
        return self.linear(self.coef(i, (j, -1.0)))

    def ratio_grad(self, num, den) -> tuple[float, np.ndarray]:
        """(num . mean) / (den . mean) and its gradient in the means."""
        num, den = np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)
        top, bottom = float(num @ self.mean), float(den @ self.mean)
        if bottom == 0.0:
            return float("nan"), np.zeros(self.m)
        return top / bottom, num / bottom - top / bottom ** 2 * den

    def ratio(self, num, den, **clip):
        """A ratio of sums (coefficient vectors ``num``, ``den``), e.g. troll seat-rounds per seat-round."""
        r, g = self.ratio_grad(num, den)
        return self.delta(r, g, **clip) if np.isfinite(r) else (r, float("nan"), float("nan"))

    def ratio_diff(self, num1, den1, num0, den0):
        """ratio(num1, den1) - ratio(num0, den0), paired (the same games)."""
        r1, g1 = self.ratio_grad(num1, den1)
        r0, g0 = self.ratio_grad(num0, den0)
        if not (np.isfinite(r1) and np.isfinite(r0)):
            return float("nan"), float("nan"), float("nan")
        return self.delta(r1 - r0, g1 - g0)
