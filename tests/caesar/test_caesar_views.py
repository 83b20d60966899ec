"""Circus Maximus designer views: per-day totals, drama and margins from seeded field games, the
exchange-rate table's signs and per-favour scaling, seat tables that name the best and worst seat."""

import numpy as np
import pandas as pd
import pytest

from caesar_sim.analysis import views
from caesar_sim.analysis.game.runs import RunSettings, run_field
from caesar_sim.fieldplay import field_play
from caesar_sim.profile import REFERENCE

CI = ["n", "value", "ci_low", "ci_high"]


def test_day_views_from_seeded_field_games():
    b = run_field(4, field_play(REFERENCE, 4), 60, RunSettings(seed=2), day_totals=True)
    d = views.day_views(b.day_totals, b.scores, 4)
    assert set(CI) <= set(d.columns)
    lead = d[d["measure"] == "eventual winner leads after the day"]
    assert list(lead["day"]) == [1, 2] and (lead["n"] == 60).all()     # the last day would be an identity
    means = d[d["measure"] == "leader's total"]
    assert list(means["day"]) == [1, 2, 3] and means["value"].is_monotonic_increasing
    shares = d[d["statistic"] == "share of games"]
    assert shares["value"].sum() == pytest.approx(1.0) and (shares["margin"] >= 0).all()
    ok = d.dropna(subset=["ci_low"])
    assert ((ok["ci_low"] <= ok["value"] + 1e-12) & (ok["value"] <= ok["ci_high"] + 1e-12)).all()


def test_exchange_rates_per_favour_and_what_a_restricted_player_gives_up():
    favours = pd.DataFrame({"favour": ["boost"], "n_games": [100], "value_per_day": [1.5], "value_low": [1.0],
                            "value_high": [2.0], "win_rate_change": [0.09], "change_low": [0.03], "change_high": [0.15]})
    ex = pd.DataFrame({"kind": ["restricted", "restricted", "weight"], "n": [100, 100, 100],
                       "deviation": ["never takes start card", "never bids at Forum Romanum", "w +0.1"],
                       "gain": [-0.02, -0.1, 0.0], "gain_low": [-0.04, -0.12, 0.0], "gain_high": [0.0, -0.08, 0.0],
                       "coins_gain": [-1.0, -4.0, 0.0], "coins_low": [-1.5, -5.0, 0.0], "coins_high": [-0.5, -3.0, 0.0]})
    r = views.exchange_rates(favours, ex, days=3).set_index("item")
    assert r.loc["boost", "win"] == pytest.approx(0.03) and r.loc["boost", "win_low"] == pytest.approx(0.01)
    assert r.loc["start card", "coins"] == 1.0 and r.loc["start card", "coins_low"] == 0.5
    assert r.loc["tickets", "win"] == pytest.approx(0.1) and r.loc["tickets", "win_high"] == pytest.approx(0.12)
    assert len(r) == 3


def test_seat_views_name_best_and_worst_per_player_count():
    seats = pd.DataFrame({"players": [3] * 3 + [4] * 4, "model": "reference field",
                          "seat": [f"seat {s}" for s in (0, 1, 2, 0, 1, 2, 3)],
                          "win_rate": [0.3, 0.4, 0.3, 0.25, 0.29, 0.26, 0.2],
                          "ci_low": [0.28, 0.38, 0.28, 0.23, 0.27, 0.24, 0.18],
                          "ci_high": [0.32, 0.42, 0.32, 0.27, 0.31, 0.28, 0.22]})
    marked, said = views.seat_views(seats, "reference field")
    for p, d in marked.groupby("players"):
        assert d["win_rate"].sum() == pytest.approx(1.0)
        assert sorted(d["rank"]) == ["", ] * (p - 2) + ["best", "worst"]
    assert said[1].startswith("4 players: best seat 1 0.290") and "worst seat 3" in said[1]
