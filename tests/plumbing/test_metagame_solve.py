"""The meta-game solvers: focal-player payoffs against brute force, symmetric
Nash equilibria of games solved by hand, the two independent solvers against
each other, and alpha-Rank on games whose ranking is known."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tabletop_mc.metagame import SymmetricGame, alpharank, profiles, solve_nash, support_enumeration
from tabletop_mc.metagame.nash import local_equilibrium, starting_points

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)


def brute_force(payoff, n, k, x):
    """u_j(x) over every ordered tuple of the N-1 other seats' strategies (K^(N-1) of them)."""
    u = np.zeros(k)
    for j in range(k):
        for others in itertools.product(range(k), repeat=n - 1):
            counts = np.bincount(list(others) + [j], minlength=k)
            u[j] += np.prod(x[list(others)]) * payoff[tuple(counts)][j]
    return u


def random_table(n, k, seed):
    rng = np.random.default_rng(seed)
    return {tuple(int(v) for v in c): rng.random(k) for c in profiles(n, k)}


def test_focal_payoff_against_brute_force_3_strategies_4_seats():
    table = random_table(4, 3, seed=0)
    game = SymmetricGame.from_function(4, 3, lambda j, c: table[c][j])
    rng = np.random.default_rng(1)
    for x in list(rng.dirichlet(np.ones(3), size=20)) + [np.array([0.5, 0.5, 0.0]), np.eye(3)[2]]:
        np.testing.assert_allclose(game.deviation_payoffs(x), brute_force(table, 4, 3, x), rtol=0, atol=1e-12)
    # the formula of one public implementation, sum(...) / (1 - (1 - x_j)^N), is not this one
    x = np.array([0.2, 0.3, 0.5])
    assert not np.allclose(game.deviation_payoffs(x), brute_force(table, 4, 3, x) / (1 - (1 - x) ** 4))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 4), k=st.integers(1, 3), seed=st.integers(0, 2 ** 32 - 1),
       zeros=st.lists(st.booleans(), min_size=3, max_size=3))
def test_focal_payoff_property(n, k, seed, zeros):
    table = random_table(n, k, seed)
    game = SymmetricGame.from_function(n, k, lambda j, c: table[c][j])
    rng = np.random.default_rng(seed)
    x = rng.dirichlet(np.ones(k)) * ~np.array(zeros[:k])
    x = x / x.sum() if x.sum() > 0 else np.eye(k)[0]
    u = game.deviation_payoffs(x)
    np.testing.assert_allclose(u, brute_force(table, n, k, x), rtol=0, atol=1e-12)
    r = game.regrets(x)
    assert r @ x == pytest.approx(0.0, abs=1e-12) and game.gap(x) >= -1e-12
    assert game.value(x) == pytest.approx(x @ u)


def test_support_jacobian_is_the_derivative():
    game = SymmetricGame(4, np.random.default_rng(5).random((3, len(profiles(3, 3)))))
    x, h = np.array([0.2, 0.3, 0.5]), 1e-6
    jac = game.support_jacobian(x, [0, 1, 2])
    for i in range(3):
        e = np.eye(3)[i] * h
        probs = [game.opponent_probabilities(x + s * e) @ game.payoffs.T for s in (1, -1)]
        np.testing.assert_allclose(jac[:, i], (probs[0] - probs[1]) / (2 * h), atol=1e-7)


def test_restrict_keeps_the_subgame():
    game = SymmetricGame(3, np.random.default_rng(2).random((3, len(profiles(2, 3)))), names="abc")
    sub = game.restrict([2, 0])
    assert sub.names == ["c", "a"]
    np.testing.assert_allclose(sub.deviation_payoffs([0.3, 0.7]), game.deviation_payoffs([0.7, 0.0, 0.3])[[2, 0]])


def test_rock_paper_scissors_from_every_start():
    eqs = solve_nash(SymmetricGame.from_matrix(RPS))
    assert len(eqs) == 1
    np.testing.assert_allclose(eqs[0].mixture, [1 / 3] * 3, atol=1e-9)
    assert eqs[0].starts == len(starting_points(3)) and eqs[0].value == pytest.approx(0.0, abs=1e-12)
    assert eqs[0].describe(["rock", "paper", "scissors"]) == "0.33 rock + 0.33 paper + 0.33 scissors"


def test_four_seat_resource_game_solved_by_hand():
    """Four seats each pick one of three resources; resource j is worth a_j, shared equally
    by the seats on it: a seat gets a_j / (1 + k) when k others chose j. Against x, k is
    Binomial(3, x_j), and E[1 / (1 + k)] = (1 - (1 - x_j)^4) / (4 x_j) =: g(x_j), so
    u_j(x) = a_j g(x_j). With a_j = 1 / g(x*_j) every resource pays 1 at x* = (1/2, 1/3, 1/6):
    x* is an equilibrium of value 1, the only one (g decreases, so each u_j falls as x_j grows:
    a mixture elsewhere has a resource paying more than the mixture's value)."""
    target = np.array([1 / 2, 1 / 3, 1 / 6])
    g = (1 - (1 - target) ** 4) / (4 * target)
    a = 1 / g
    game = SymmetricGame.from_function(4, 3, lambda j, c: a[j] / c[j])
    x = np.array([0.2, 0.3, 0.5])
    np.testing.assert_allclose(game.deviation_payoffs(x), a * (1 - (1 - x) ** 4) / (4 * x), atol=1e-12)
    eqs = solve_nash(game)
    assert len(eqs) == 1 and eqs[0].starts == len(starting_points(3))
    np.testing.assert_allclose(eqs[0].mixture, target, atol=1e-9)
    assert eqs[0].value == pytest.approx(1.0) and eqs[0].gap < 1e-9
    np.testing.assert_allclose(support_enumeration(game), [target], atol=1e-9)


def test_three_seat_volunteers_dilemma_solved_by_hand():
    """Three seats; a volunteer gets 1, a free rider 2 if someone else volunteered, else 0.
    Against x = P(volunteer): u_V = 1, u_F = 2 (1 - (1 - x)^2), equal at x = 1 - 1/sqrt(2);
    neither pure profile is an equilibrium (all free riders: volunteering pays 1 > 0;
    all volunteers: free riding pays 2 > 1)."""
    game = SymmetricGame.from_function(3, 2, lambda j, c: 1.0 if j == 0 else 2.0 * (c[0] > 0))
    eqs = solve_nash(game)
    assert len(eqs) == 1
    assert eqs[0].mixture[0] == pytest.approx(1 - 2 ** -0.5, abs=1e-9)
    assert eqs[0].value == pytest.approx(1.0)


def test_dominant_strategy():
    rng = np.random.default_rng(7)
    u = rng.random((4, len(profiles(3, 4))))
    u[2] = u.max(axis=0) + 0.05               # strategy 2 beats every other against every opponent multiset
    game = SymmetricGame(4, u)
    eqs = solve_nash(game)
    assert len(eqs) == 1 and eqs[0].support == (2,) and eqs[0].starts == len(starting_points(4))
    assert eqs[0].regrets.max() == 0.0 and np.all(np.delete(eqs[0].regrets, 2) <= -0.05 + 1e-12)
    assert [list(p) for p in support_enumeration(game)] == [[0.0, 0.0, 1.0, 0.0]]


def test_two_equilibria_are_both_listed():
    """Three seats coordinate: a seat on j gets b_j per other seat on j, b = (1, 2). Both pure
    profiles are strict equilibria; the mixed one, x_0 b_0 = x_1 b_1 at x = (2/3, 1/3), is
    unstable (the dynamics leave it), so the support enumeration finds it and they do not."""
    b = [1.0, 2.0]
    game = SymmetricGame.from_function(3, 2, lambda j, c: b[j] * (c[j] - 1), names=["low", "high"])
    eqs = solve_nash(game)
    assert sorted(e.support for e in eqs) == [(0,), (1,)]
    assert sum(e.starts for e in eqs) == len(starting_points(2))
    assert eqs[0].support == (1,)             # the larger basin first
    every = support_enumeration(game)
    np.testing.assert_allclose(every, [[1, 0], [2 / 3, 1 / 3], [0, 1]], atol=1e-12)


def test_local_equilibrium_follows_a_changing_support():
    """Three seats share three resources worth a (a seat gets a_j / (1 + others on j)). With
    a = (1, 1, 0.1) the equilibrium is (1/2, 1/2, 0): the two pay (1 - 1/8) / (3/2) = 7/12 and
    the third resource, alone, 0.1. Raised to 0.7 > 7/12 it joins; with a = (1, 0.2, 0.1)
    the second drops out (alone on it pays 0.2 < 1/3, what three seats sharing the first get)."""
    def game(a):
        return SymmetricGame.from_function(3, 3, lambda j, c: a[j] / c[j])
    start = np.array([0.5, 0.5, 0.0])
    assert game([1, 1, 0.1]).gap(start) == pytest.approx(0.0, abs=1e-15)
    joined = local_equilibrium(game([1, 1, 0.7]), start)
    assert joined.min() > 0 and game([1, 1, 0.7]).gap(joined) <= 1e-12
    np.testing.assert_allclose(joined, solve_nash(game([1, 1, 0.7]))[0].mixture, atol=1e-9)
    np.testing.assert_array_equal(local_equilibrium(game([1, 0.2, 0.1]), start), [1.0, 0.0, 0.0])


@pytest.mark.parametrize("n, k", [(2, 4), (3, 3), (4, 4), (5, 3)])
def test_the_two_solvers_agree_on_random_games(n, k):
    for seed in range(3):
        game = SymmetricGame(n, np.random.default_rng(seed).random((k, len(profiles(n - 1, k)))))
        every = support_enumeration(game)
        eqs = solve_nash(game, seed=seed)
        assert eqs, "every game has a symmetric equilibrium"
        for e in eqs:
            assert e.gap <= 1e-6
            assert min(np.abs(e.mixture - p).max() for p in every) < 1e-6, (seed, e.mixture)


def test_alpharank_on_known_rankings():
    uniform = alpharank(SymmetricGame.from_matrix(RPS), alpha=5.0, population=20).stationary
    np.testing.assert_allclose(uniform, [1 / 3] * 3, atol=1e-12)
    u = np.random.default_rng(3).random((3, len(profiles(3, 3))))
    u[1] = u.max(axis=0) + 0.2
    ranked = alpharank(SymmetricGame(4, u), alpha=50.0, population=30)
    assert ranked.stationary[1] > 0.999
    assert ranked.fixation[0, 1] > 0.5 and ranked.fixation[1, 0] < 1e-6


def test_alpharank_two_strategies_by_hand():
    """Two seats, a population of m = 3, neutral payoffs except u(r | s) = 1 + d: with k r-players
    f_r(k) - f_s(k) follows from the hypergeometric draw of the one other seat, and
    fixation = 1 / (1 + sum_l prod_{k<=l} exp(-alpha (f_r(k) - f_s(k))))."""
    d, alpha, m = 0.3, 2.0, 3
    a = np.array([[1.0, 1.0 + d], [1.0, 1.0]])   # row r=0 against s=1 gets 1 + d
    game = SymmetricGame.from_matrix(a)
    # k r-players among 3: an r player meets the other r with P (k-1)/2, the s with (3-k)/2
    diff = [((k - 1) / 2 * 1 + (3 - k) / 2 * (1 + d)) - 1.0 for k in (1, 2)]
    expected = 1 / (1 + np.exp(-alpha * diff[0]) + np.exp(-alpha * (diff[0] + diff[1])))
    assert alpharank(game, alpha=alpha, population=m).fixation[1, 0] == pytest.approx(expected)
