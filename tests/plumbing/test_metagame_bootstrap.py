"""The meta-game's sampling error: bootstrap intervals cover the truth at about
the stated rate on synthetic noisy tables (fixed seeds), and the verdict line
says what the intervals show."""

import numpy as np
import pytest

from tabletop_mc.errors import UserError
from tabletop_mc.metagame import Bootstrap, SymmetricGame, bootstrap, play_table, solve_nash, verdict

NAMES = ["a", "b", "c"]
TARGET = np.array([1 / 2, 1 / 3, 1 / 6])
# the resource game of test_metagame_solve: 4 seats, its only equilibrium is TARGET
WORTH = 4 * TARGET / (1 - (1 - TARGET) ** 4) / 4
TRUE = SymmetricGame.from_function(4, 3, lambda j, c: WORTH[j] / c[j], names=NAMES)


def noisy_play(sd=0.3):
    """Each game's payoff of a strategy: its true payoff in the profile plus N(0, sd)."""
    def play(counts, games, seed):
        c = np.array(counts)
        rng = np.random.default_rng([seed, *counts])
        seated = c > 0
        y = np.where(seated, WORTH / np.maximum(c, 1), 0.0)[:, None] + sd * rng.standard_normal((3, games))
        y[~seated] = 0.0
        return y.sum(axis=1), (y ** 2).sum(axis=1), np.where(seated, games, 0)
    return play


def noisy_game(seed, games=40):
    return play_table(NAMES, 4, noisy_play(), games=games, seed=seed).game()


def test_regret_intervals_cover_the_truth():
    x = np.array([0.2, 0.3, 0.5])          # not an equilibrium: the true regrets differ from 0
    truth = TRUE.regrets(x)
    assert np.abs(truth).max() > 0.05
    covered = []
    for seed in range(150):
        result = bootstrap(noisy_game(seed), x, replicates=200, seed=1000 + seed, resolve=False)
        covered += list((result.regret_low <= truth) & (truth <= result.regret_high))
    assert 0.90 <= np.mean(covered) <= 0.985, np.mean(covered)


def test_weight_intervals_cover_the_equilibrium():
    covered, resolved = [], 0
    for seed in range(30):
        game = noisy_game(seed, games=100)
        eq = solve_nash(game)[0]
        result = bootstrap(game, eq.mixture, replicates=100, seed=seed)
        resolved += result.resolved
        covered += list((result.weight_low <= TARGET) & (TARGET <= result.weight_high))
    assert resolved == 30 * 100
    assert 0.85 <= np.mean(covered) <= 1.0, np.mean(covered)


def test_same_seed_same_intervals_and_errors():
    game = noisy_game(0)
    x = solve_nash(game)[0].mixture
    one, two = (bootstrap(game, x, replicates=60, seed=5) for _ in range(2))
    np.testing.assert_array_equal(one.regret_high, two.regret_high)
    np.testing.assert_array_equal(one.weight_low, two.weight_low)
    assert not np.array_equal(one.regret_high, bootstrap(game, x, replicates=60, seed=6).regret_high)
    with pytest.raises(UserError, match="needs the payoff table's standard errors"):
        bootstrap(TRUE, x, replicates=60)
    single = play_table(NAMES, 4, noisy_play(), games=1, seed=0).game()
    with pytest.raises(UserError, match=r"entry for a in 4 a has no standard error"):
        bootstrap(single, x, replicates=60)


def result(regret, low, high, mixture=(0.62, 0.38, 0.0), tol=1e-6):
    k = len(regret)
    return Bootstrap(["ev0.5:goal:cash3", "distilled", "mc"], np.array(mixture), 0.25, np.array(regret),
                     np.array(low), np.array(high), np.full(k, np.nan), np.full(k, np.nan), 1000, 1000, tol)


def test_verdict_wording():
    quiet = result([0.0, 0.0, -0.02], [-0.004, -0.005, -0.026], [0.004, 0.006, -0.014])
    assert verdict(quiet) == ("equilibrium: 0.62 ev0.5:goal:cash3 + 0.38 distilled; "
                              "no member gains > 0.01 (largest upper bound 0.0060)")
    gains = result([0.0, 0.0, 0.034], [-0.004, -0.005, 0.021], [0.004, 0.006, 0.047])
    assert verdict(gains) == ("mixture: 0.62 ev0.5:goal:cash3 + 0.38 distilled; "
                              "mc gains 0.034 [0.021, 0.047] > 0.01")
    small = result([0.0, 0.0, 0.008], [-0.004, -0.005, 0.002], [0.004, 0.006, 0.014])
    assert verdict(small).endswith("; mc gains 0.0080 [0.0020, 0.0140]: above 0, not shown above 0.01")
    unsure = result([0.0, 0.0, 0.004], [-0.004, -0.005, -0.007], [0.004, 0.006, 0.015])
    assert verdict(unsure).endswith("; no evidence that any member gains (largest: mc 0.004 [-0.007, 0.015]), "
                                    "but the table cannot rule out a gain > 0.01")
    assert "no member gains > 0.02" in verdict(unsure, margin=0.02)
    partly = Bootstrap(**{**quiet.__dict__, "resolved": 973})
    assert verdict(partly).startswith("equilibrium: 0.62 ev0.5:goal:cash3 + 0.38 distilled "
                                      "(re-found in 973 of 1000 resamples); no member")
