"""The meta-game solvers against external implementations: nashpy (every
equilibrium of a 2-player game) and egttools (N-player replicator gradient,
which holds the focal-player payoff, and the small-mutation fixation and
stationary distribution that alpha-Rank is). Skipped where they are absent."""

import numpy as np
import pytest

from tabletop_mc.metagame import SymmetricGame, alpharank, profile_index, profiles, solve_nash, support_enumeration


def egttools_payoffs(egttools, game):
    """egttools' (K, group configurations) matrix: strategy j's payoff in each whole group."""
    n, k = game.n_players, game.n_strategies
    index = profile_index(n - 1, k)
    out = np.zeros((k, egttools.calculate_nb_states(n, k)))
    for c in range(out.shape[1]):
        group = egttools.sample_simplex(c, n, k)
        for j in np.flatnonzero(group):
            others = group.copy()
            others[j] -= 1
            out[j, c] = game.payoffs[j, index[tuple(int(v) for v in others)]]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_symmetric_equilibria_of_two_player_games_match_nashpy(seed):
    nash = pytest.importorskip("nashpy", reason="nashpy is not installed (pip install -e '.[test]')")
    a = np.random.default_rng(seed).random((4, 4))
    theirs = [s for s, t in nash.Game(a, a.T).support_enumeration() if np.allclose(s, t)]
    game = SymmetricGame.from_matrix(a)
    np.testing.assert_allclose(sorted(map(tuple, support_enumeration(game))), sorted(map(tuple, theirs)), atol=1e-9)
    for eq in solve_nash(game):
        assert min(np.abs(eq.mixture - s).max() for s in theirs) < 1e-9


@pytest.mark.parametrize("n, k", [(3, 3), (4, 3), (5, 4)])
def test_replicator_gradient_matches_egttools(n, k):
    egttools = pytest.importorskip("egttools", reason="egttools is not installed (pip install -e '.[test]')")
    from egttools.analytical import replicator_equation_n_player
    game = SymmetricGame(n, np.random.default_rng(n * k).random((k, len(profiles(n - 1, k)))))
    table = egttools_payoffs(egttools, game)
    for x in np.random.default_rng(1).dirichlet(np.ones(k), size=5):
        u = game.deviation_payoffs(x)
        np.testing.assert_allclose(replicator_equation_n_player(x, table, n), x * (u - x @ u), atol=1e-12)


@pytest.mark.parametrize("n, k, population, alpha", [(2, 4, 20, 1.0), (4, 3, 12, 0.7), (5, 3, 30, 3.0)])
def test_alpharank_matches_egttools(n, k, population, alpha):
    pytest.importorskip("egttools", reason="egttools is not installed (pip install -e '.[test]')")
    from egttools.analytical import StochDynamics
    game = SymmetricGame(n, np.random.default_rng(k).random((k, len(profiles(n - 1, k)))))
    index = profile_index(n - 1, k)

    def pair(i, j):     # egttools: i's payoff in a group of `inside` i-players (itself included), the rest j
        return lambda inside, size, *args: game.payoffs[i, index[tuple(
            (inside - 1) * (s == i) + (size - inside) * (s == j) for s in range(k))]]

    if n == 2:          # egttools takes the plain matrix for pairs
        matrix = game.payoffs[:, [index[tuple(int(s == i) for s in range(k))] for i in range(k)]]
    else:
        matrix = np.array([[pair(i, j) for j in range(k)] for i in range(k)], dtype=object)
    dynamics = StochDynamics(k, matrix, population, group_size=n, mu=0)
    _, fixation = dynamics.transition_and_fixation_matrix(alpha)
    ours = alpharank(game, alpha=alpha, population=population)
    # egttools rounds a fixation probability below 1e-7 to 0 (its sum passes 1e7)
    np.testing.assert_allclose(ours.fixation, fixation, rtol=1e-9, atol=1e-7)
    assert np.all((fixation > 0) | (ours.fixation < 1e-7))
    np.testing.assert_allclose(ours.stationary, dynamics.calculate_stationary_distribution(alpha), atol=1e-6)
