"""Tournament and matrix APIs: reproducibility on 1 and 2 threads, rotation,
policy parameters, and the statistics' internal consistency."""

import numpy as np
import pandas as pd
import pytest

from sponsio_sim.analysis.game.tournament import matrix, tournament
from sponsio_sim.analysis.settings import Run
from sponsio_sim.kernels.layout import MAX_PLAYERS

PROFILE = "ev:goal:cash4, troll:goal, ev:goal:never, random:random"


def test_same_seed_same_result_on_1_and_2_threads():
    one = tournament(PROFILE, n=1200, run=Run(seed=5, threads=1))
    two = tournament(PROFILE, n=1200, run=Run(seed=5, threads=2))
    pd.testing.assert_frame_equal(one.table, two.table)
    pd.testing.assert_frame_equal(one.games, two.games)
    other = tournament(PROFILE, n=1200, run=Run(seed=6, threads=2))
    assert not one.table["coins"].equals(other.table["coins"])


def test_rows_and_consistency():
    res = tournament(PROFILE, n=2000, run=Run(seed=1))
    df = res.table
    assert list(df["strategy"]) == ["ev:goal:cash4", "troll:goal:never", "ev:goal:never", "random:random:never"]
    assert list(df["seat"]) == ["0", "1", "2", "3"]
    assert (df["games"] == 2000).all()
    assert df["win_share"].sum() == pytest.approx(1.0)
    assert df["win"].sum() >= 1.0                       # shared wins count for each winner
    assert ((df["win_low"] <= df["win"]) & (df["win"] <= df["win_high"])).all()
    troll = df.iloc[1]
    assert troll["troll_share"] == 1.0 and troll["cash_ins"] == 0
    assert all(troll[f"{k}_bets_per_round"] == 0 for k in ("tricks", "colour", "last", "nines", "fail"))
    games = res.games
    ends = games[games.measure.str.startswith("ended by")]["value"]
    assert ends.sum() == pytest.approx(1.0)
    rounds = games.iloc[0]["value"]
    assert 1 <= rounds <= 5 and all(x == pytest.approx(rounds * 2000) for x in df["rounds"])


def test_rotation_cancels_seat_effects_for_identical_strategies():
    df = tournament("ev:goal x4", n=2400, rotate=True, run=Run(seed=2)).table
    assert list(df["seat"]) == ["all"] * 4
    # identical strategies rotated over the seats: each entry's win share is 1/4 up to noise
    half = 1.96 * np.sqrt(0.25 * 0.75 / 2400) * 1.5
    assert (abs(df["win_share"] - 0.25) < half).all()


def test_random_that_always_passes_and_ev_with_a_huge_threshold_never_bet():
    df = tournament("random1:goal, ev1000:goal, ev:goal, troll:goal", n=600, run=Run(seed=3)).table
    assert df.iloc[0]["troll_share"] == 1.0 and df.iloc[1]["troll_share"] == 1.0
    assert df.iloc[2]["troll_share"] < 1.0


def test_ev_bets_with_the_success_it_predicts_better_than_random():
    df = tournament("ev:goal, random0:goal, troll:goal, troll:goal", n=1200, run=Run(seed=4)).table
    ev, rnd = df.iloc[0], df.iloc[1]
    assert ev["colour_won"] > rnd["colour_won"] + 0.2
    assert ev["win"] > rnd["win"]


def test_matrix_pairs_and_three_players():
    res = matrix("ev:goal, troll:goal", players=3, n=480, run=Run(seed=1))
    df = res.table
    assert list(zip(df["a"], df["b"])) == [("ev:goal:never", "ev:goal:never"), ("ev:goal:never", "troll:goal:never"),
                                           ("troll:goal:never", "ev:goal:never"),
                                           ("troll:goal:never", "troll:goal:never")]
    same = df[df["a"] == df["b"]]
    # a seat playing the same strategy as everyone else wins its fair share (within 3 SE)
    assert (abs(same["win_share"] - 1 / 3) < 3 * np.sqrt(2 / 9 / 480)).all()
    assert ((df["win_low"] <= df["win"]) & (df["win"] <= df["win_high"])).all()
    assert res.players == 3 and MAX_PLAYERS >= 3
