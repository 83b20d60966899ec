"""tabletop_mc.adaptive: a field's weights re-solved for changed rules, over the members near it."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tabletop_mc.adaptive import WITHIN, Adapter, adapt, mc_check_row, near_members


def hawk_dove(v: float, c: float = 1.0, extra: int = 0):
    """A 2-seat adapter whose first two strategies are hawk and dove (hawk weight V/C at equilibrium);
    ``extra`` more strategies that lose to everything."""
    def pay(j, other):
        if j >= 2 or other >= 2:
            return -1.0 if j >= 2 else 1.0
        return [[(v - c) / 2, v], [0.0, v / 2]][j][other]

    def play(counts, games, seed):
        seats = [j for j, k in enumerate(counts) for _ in range(k)]
        k = len(counts)
        total, sq, n = np.zeros(k), np.zeros(k), np.zeros(k, dtype=np.int64)
        for j in set(seats):
            rest = list(seats)
            rest.remove(j)
            y = pay(j, rest[0])
            total[j], sq[j], n[j] = y * games, y * y * games, games
        return total, sq, n
    return play


def test_near_members_support_first_then_least_regret():
    w = [0.0, 0.6, 0.0, 0.4, 0.0]
    regret = [-0.3, 0.0, -0.01, 0.0, -0.2]
    assert near_members(w, regret, keep=4) == [1, 3, 2, 4]
    assert near_members(w, regret, keep=1) == [1, 3]          # never fewer than the support
    assert near_members([1.0, 0.0, 0.0], [], keep=1) == [0, 1]   # never fewer than two


@settings(max_examples=10, deadline=None)
@given(st.floats(0.1, 0.9))
def test_adapt_finds_the_equilibrium_of_the_changed_rules(v):
    a = adapt(["hawk", "dove", "loser"], [0.5, 0.5, 0.0], [0.0, 0.0, -1.0], 2, hawk_dove(v, extra=1),
              games=10, seed=1, keep=3)
    assert a.weights[0] == pytest.approx(v, abs=1e-6)
    assert a.weights[2] == pytest.approx(0.0, abs=1e-9)
    assert a.gap <= 1e-6 and a.profiles == 6


def test_adapter_solves_each_rule_set_once_and_counts_its_cost():
    made = []

    def make(rules, near):
        made.append((rules, tuple(near)))
        inner = hawk_dove(rules)   # strategies in table order; the adapter's counts come in ``near`` order

        def play(counts, games, seed):
            full = [0, 0]
            for c, j in zip(counts, near):
                full[j] = c
            return tuple(np.asarray(v)[list(near)] for v in inner(tuple(full), games, seed))
        return play

    ad = Adapter(["hawk", "dove"], (0.3, 0.7), (0.0, 0.0), 2, make, lambda r: round(r, 6), games=5, seed=2)
    assert ad(0.3).weights[0] == pytest.approx(0.3, abs=1e-6)
    assert ad(0.8).weights[0] == pytest.approx(0.8, abs=1e-6)
    ad(0.3)
    assert [m[0] for m in made] == [0.3, 0.8] and made[0][1] == (1, 0)   # the support, heaviest first
    cost = ad.cost()
    assert cost["rule_sets"] == 2 and cost["profiles"] == 6 and cost["games"] == 30


@pytest.mark.parametrize("adapted, mc, within, closer", [
    ((0.30, 0.28, 0.32), (0.33, 0.30, 0.36), True, True),                         # 3 points apart
    ((0.30, 0.28, 0.32), (0.30 + WITHIN + 0.03, 0.31, 0.40), True, True),        # 8 points, intervals overlap
    ((0.30, 0.29, 0.31), (0.30 + WITHIN + 0.03, 0.37, 0.39), False, True),       # 8 points, apart
    ((0.50, 0.49, 0.51), (0.20, 0.18, 0.22), False, False),                       # farther than the shipped field
])
def test_the_check_against_mc_says_within_and_closer(adapted, mc, within, closer):
    """The players-who-adapt check (both games): within 5 points of every-seat mc or overlapping
    intervals; closer than the field as shipped (0.50 here: a tie is not closer)."""
    row = mc_check_row((0.50, 0.49, 0.51), adapted, mc)
    assert (row["within"], row["closer"]) == (within, closer)
    assert (row["fixed"], row["adapted_low"], row["mc_high"]) == (0.50, adapted[1], mc[2])
