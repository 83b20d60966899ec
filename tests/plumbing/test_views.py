"""The shared view statistics on hand-made games: who led, the margins, the best and worst seat."""

import numpy as np
import pandas as pd
import pytest

from tabletop_mc import views


def test_leader_drama_counts_games_where_a_winner_already_led():
    scores = np.array([[[3, 1], [5, 6]], [[1, 2], [4, 4]], [[2, 2], [1, 0]]], dtype=float)   # games x steps x seats
    winners = np.array([[False, True], [True, False], [True, True]])
    running = np.array([[True, False], [True, True], [True, False]])
    d = views.leader_drama(scores, winners, running)
    assert list(d["n"]) == [3, 1]
    assert d["value"].iloc[0] == pytest.approx(1 / 3)          # game 2 only: its shared lead counts
    assert d["value"].iloc[1] == pytest.approx(1.0)            # game 1 after step 2: tied lead
    assert (d["ci_low"] <= d["value"]).all() and (d["value"] <= d["ci_high"]).all()


def test_margins_and_seat_extremes():
    final = np.array([[10, 7, 3], [5, 5, 1], [2, 9, 8]])
    assert list(views.margins(final)) == [3, 0, 1]
    m = views.margin_table(final)
    assert m[m["statistic"] == "share of games"]["value"].sum() == pytest.approx(1.0)
    assert m[m["statistic"] == "mean margin"]["n"].iloc[0] == 3
    seats = pd.DataFrame({"seat": ["a", "b", "c"], "v": [0.5, 0.2, 0.3], "lo": [0.45, 0.15, 0.25],
                          "hi": [0.55, 0.25, 0.35]})
    marked, text = views.seat_advantage(seats, "seat", "v", "lo", "hi")
    assert list(marked["rank"]) == ["best", "worst", ""]
    assert text.startswith("best a 0.500") and "do not overlap" in text
