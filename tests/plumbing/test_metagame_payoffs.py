"""The meta-game's profiles and payoff table: canonical order, sufficient
statistics, CSV round trip, bad files, filling through an adapter with
common random numbers, PSRO extension, partial tables."""

from math import comb

import numpy as np
import pandas as pd
import pytest

from tabletop_mc.errors import UserError
from tabletop_mc.metagame import (MissingProfileError, PayoffTable, n_profiles, play_table, profile_index,
                                  profiles, solve_nash)
from tabletop_mc.metagame.profiles import multinomial
from tabletop_mc.stats import mean_ci

NAMES = ["ev0.5:goal:cash3", "mc", "troll:goal", "distilled"]


def synthetic_play(names, calls=None, games_sd=0.3):
    """An adapter: seat payoffs are a fixed function of the profile plus noise whose stream
    depends only on (seed, the named strategies seated and their counts)."""
    def play(counts, games, seed):
        if calls is not None:
            calls.append(counts)
        seated = {names[j]: c for j, c in enumerate(counts) if c}
        key = [seed] + [sum(map(ord, s)) * 100 + c for s, c in sorted(seated.items())]
        rng = np.random.default_rng(key)
        k = len(counts)
        total, total_sq, n = np.zeros(k), np.zeros(k), np.zeros(k, dtype=np.int64)
        for j, c in enumerate(counts):
            if c:
                mean = (sum(map(ord, names[j])) % 7) / 10 + 0.05 * sum(counts[:j])
                y = mean + games_sd * rng.standard_normal(games)
                total[j], total_sq[j], n[j] = y.sum(), (y ** 2).sum(), games
        return total, total_sq, n
    return play


def test_profiles_count_order_and_index():
    for n, k in [(2, 1), (2, 3), (4, 3), (4, 6), (5, 4)]:
        p = profiles(n, k)
        assert p.shape == (comb(n + k - 1, n), k) == (n_profiles(n, k), k)
        assert np.all(p.sum(axis=1) == n) and np.all(p >= 0)
        assert len({tuple(r) for r in p}) == len(p)
        assert [tuple(r[::-1]) for r in p] == sorted(tuple(r[::-1]) for r in p)    # canonical order
        assert all(profile_index(n, k)[tuple(int(v) for v in r)] == i for i, r in enumerate(p))
    # the profiles of the first k strategies are the first rows for K > k: a new strategy renumbers nothing
    small, big = profiles(4, 3), profiles(4, 5)
    assert np.array_equal(big[:len(small), :3], small) and not big[:len(small), 3:].any()
    assert 126 == n_profiles(4, 6) and 330 == n_profiles(4, 8)     # the design notes' figures


def test_multinomial_counts_orderings():
    assert multinomial([[2, 1, 1], [4, 0, 0], [1, 1, 1]]).tolist() == [12.0, 1.0, 6.0]


def test_record_uses_the_sufficient_statistics():
    t = PayoffTable(["a", "b"], 3)
    y = np.array([0.0, 1.0, 1.0, 0.5])
    t.record((2, 1), [y.sum(), 2.0], [(y ** 2).sum(), 2.5], [4, 4])
    i = t.row((2, 1))
    assert t.payoff[i, 0] == pytest.approx(y.mean())
    assert t.se[i, 0] == pytest.approx(y.std(ddof=1) / 2)
    assert mean_ci(y.sum(), (y ** 2).sum(), 4, min_n=2)[0] == pytest.approx(y.mean())
    assert t.n[i].tolist() == [4, 4] and np.isnan(t.payoff[t.row((3, 0)), 1])
    with pytest.raises(ValueError, match="n >= 1 for each seated"):
        t.record((3, 0), [1, 1], [1, 1], [5, 5])      # b has no seat in (3, 0)


def test_csv_round_trip_is_exact_and_tidy(tmp_path):
    t = play_table(NAMES, 3, synthetic_play(NAMES), games=30, seed=4)
    path = tmp_path / "table.csv"
    t.to_csv(path)
    frame = pd.read_csv(path)
    assert list(frame.columns) == NAMES + ["strategy", "payoff", "se", "n"]
    assert len(frame) == (t.profiles > 0).sum()                    # one row per (profile, seated strategy)
    back = PayoffTable.read_csv(path)
    assert back.names == NAMES and back.n_players == 3
    np.testing.assert_array_equal(back.payoff, t.payoff)
    np.testing.assert_array_equal(back.se, t.se)
    np.testing.assert_array_equal(back.n, t.n)


@pytest.mark.parametrize("edit, message", [
    (lambda f: f.drop(columns="se"), "no column se"),
    (lambda f: f.assign(payoff="x"), "must be numbers"),
    (lambda f: f.assign(a=f["a"] + 0.5), "whole numbers"),
    (lambda f: f.assign(a=f["a"] + (f.index == 0)), "profiles of 3 and 4 seats"),
    (lambda f: f.assign(strategy="c"), "'c' has no count column"),
    (lambda f: f.assign(n=0), "n must be a whole number >= 1"),
    (lambda f: pd.concat([f, f.iloc[:1]]), "two entries for"),
    (lambda f: f.assign(strategy=np.where(f["a"] == 0, "a", f["strategy"])), "where it has no seat"),
])
def test_bad_tables_get_one_line(edit, message):
    frame = play_table(["a", "b"], 3, synthetic_play(["a", "b"]), games=5, seed=1).to_frame()
    with pytest.raises(UserError, match=message) as info:
        PayoffTable.from_frame(edit(frame))
    assert "\n" not in str(info.value)


def test_bad_names_and_unreadable_file(tmp_path):
    with pytest.raises(UserError, match="repeat: a"):
        PayoffTable(["a", "b", "a"], 3)
    with pytest.raises(UserError, match="'payoff' cannot name a strategy"):
        PayoffTable(["a", "payoff"], 3)
    with pytest.raises(UserError, match="cannot read"):
        PayoffTable.read_csv(tmp_path / "absent.csv")


def test_order_progress_and_common_random_numbers():
    seen = []
    order = list(reversed(profiles(3, 3)))
    t = play_table(NAMES[:3], 3, synthetic_play(NAMES[:3]), games=20, seed=9, profiles=order,
                   progress=lambda done, total, counts: seen.append((done, total, counts)))
    assert [s[2] for s in seen] == [tuple(int(v) for v in p) for p in order]
    assert seen[-1][:2] == (10, 10) and t.complete
    again = play_table(NAMES[:3], 3, synthetic_play(NAMES[:3]), games=20, seed=9)    # canonical order
    np.testing.assert_array_equal(again.payoff, t.payoff)


def test_psro_extension_equals_a_table_built_at_once():
    calls = []
    small = play_table(NAMES[:2], 4, synthetic_play(NAMES), games=25, seed=3)
    grown = play_table(NAMES, 4, synthetic_play(NAMES, calls), games=25, seed=3, base=small)
    whole = play_table(NAMES, 4, synthetic_play(NAMES), games=25, seed=3)
    assert len(calls) == n_profiles(4, 4) - n_profiles(4, 2)            # only the new profiles were played
    assert all(c[2] or c[3] for c in calls)
    for a, b in [(grown.payoff, whole.payoff), (grown.se, whole.se), (grown.n, whole.n)]:
        np.testing.assert_array_equal(a, b)
    with pytest.raises(UserError, match="must come first"):
        play_table(NAMES[1:], 4, synthetic_play(NAMES), games=5, seed=3, base=small)


def test_partial_table_names_the_missing_profile():
    names = ["a", "b", "c"]
    ab = [p for p in profiles(3, 3) if p[2] == 0]
    t = play_table(names, 3, synthetic_play(names), games=10, seed=2, profiles=ab)
    assert t.missing() == [tuple(int(v) for v in p) for p in profiles(3, 3) if p[2] > 0]
    game = t.game()
    with pytest.raises(MissingProfileError, match=r"no entry for c in the profile 2 a \+ 1 c; play that"):
        game.deviation_payoffs([1.0, 0.0, 0.0])          # c's deviation needs profiles with one c
    sub = game.restrict([0, 1])                            # the game among a and b is all there
    a = [t.payoff[t.row(c), 0] for c in [(3, 0, 0), (2, 1, 0), (1, 2, 0)]]     # a against aa, ab, bb
    assert sub.deviation_payoffs([0.5, 0.5])[0] == pytest.approx(0.25 * a[0] + 0.5 * a[1] + 0.25 * a[2])
    with pytest.raises(MissingProfileError):
        solve_nash(game)
    done = play_table(names, 3, synthetic_play(names), games=10, seed=2, base=t)   # fill in what is missing
    assert done.complete
    np.testing.assert_array_equal(done.payoff, play_table(names, 3, synthetic_play(names), games=10, seed=2).payoff)
