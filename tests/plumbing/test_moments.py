"""Moments of per-game vectors (``tabletop_mc.moments``) against direct computations on the vectors."""

import numpy as np
import pytest

from tabletop_mc.moments import Moments, add_moments, moments_size
from tabletop_mc.stats import mean_ci, t975


def block_of(x: np.ndarray) -> np.ndarray:
    """The moments block the kernel helper builds from the rows of ``x``."""
    m = x.shape[1]
    out = np.zeros(moments_size(m))
    for row in x:
        out[0] += 1
        add_moments(row, out[1:1 + m], out[1 + m:])
    return out


@pytest.fixture(scope="module")
def games():
    rng = np.random.default_rng(5)
    n = 400
    rounds = rng.integers(1, 6, n).astype(float)
    trolls = rng.binomial((rounds * 4).astype(int), 0.4).astype(float)
    rounds2 = np.maximum(rounds - rng.integers(0, 2, n), 1.0)            # a second, correlated play
    trolls2 = rng.binomial((rounds2 * 4).astype(int), 0.3).astype(float)
    zeros = np.zeros(n)                                                  # a measure that never happens
    return np.column_stack([rounds, trolls, rounds2, trolls2, zeros])


def test_means_and_covariance(games):
    mom = Moments(block_of(games), games.shape[1])
    assert mom.n == len(games)
    assert np.allclose(mom.mean, games.mean(axis=0))
    assert np.allclose(mom.cov, np.cov(games, rowvar=False))


def test_a_mean_and_a_paired_difference_are_t_intervals_of_the_values(games):
    mom = Moments(block_of(games), games.shape[1])
    x = games[:, 0]
    assert np.allclose(mom.mean_of(0), mean_ci(x.sum(), (x ** 2).sum(), len(x)))
    d = games[:, 2] - games[:, 0]
    assert np.allclose(mom.diff(2, 0), mean_ci(d.sum(), (d ** 2).sum(), len(d)))
    assert mom.mean_of(4) == (0.0, 0.0, 0.0)


def test_ratio_difference_is_the_linearised_per_game_interval(games):
    """The delta method equals a t interval of the per-game linearised values (the textbook form)."""
    mom = Moments(block_of(games), games.shape[1])
    seat_rounds = 4.0
    got = mom.ratio_diff(mom.coef(3), mom.coef((2, seat_rounds)), mom.coef(1), mom.coef((0, seat_rounds)))
    t1, b1 = games[:, 3], seat_rounds * games[:, 2]
    t0, b0 = games[:, 1], seat_rounds * games[:, 0]
    r1, r0 = t1.sum() / b1.sum(), t0.sum() / b0.sum()
    z = (t1 - r1 * b1) / b1.mean() - (t0 - r0 * b0) / b0.mean()
    half = t975(len(z) - 1) * z.std(ddof=1) / np.sqrt(len(z))
    assert got[0] == pytest.approx(r1 - r0)
    assert got[1] == pytest.approx(r1 - r0 - half) and got[2] == pytest.approx(r1 - r0 + half)


def test_few_games_get_no_interval():
    x = np.ones((5, 2))
    v, lo, hi = Moments(block_of(x), 2).mean_of(0)
    assert v == 1.0 and np.isnan(lo) and np.isnan(hi)
    with pytest.raises(ValueError):
        Moments(np.zeros(5), 2)
