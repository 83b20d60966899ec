"""Balance tables, sweeps and the multiplier recommendation (small runs)."""

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.balance.run import balance, parse_sweep
from sponsio_sim.analysis.balance.recommend import parse_range, recommend
from sponsio_sim.cli import main
from sponsio_sim.rules import load_rules

N = 720


@pytest.fixture(scope="module")
def result():
    return balance("ev:goal:cash4 x4", n=N, seed=3, sweep_spec="troll_pay=1..2", cache=False)


def test_bet_rows_agree_with_the_per_type_counts(result):
    ent = result.entries
    for kind in load_rules().bets:
        per_row = result.bets.loc[result.bets["type"] == kind, "placed"].sum()
        assert per_row == ent[f"{kind}_placed"].sum()
        k = result.kinds.set_index("type").loc[kind]
        assert k["placed"] == per_row
        if per_row:
            assert k["hit_low"] <= k["hit"] <= k["hit_high"]
    by_seat = result.by_seat.groupby("bet")["placed"].sum()
    overall = result.bets.set_index("bet")["placed"]
    assert (by_seat.reindex(overall.index) == overall).all()


def test_ev_rtp_fair_multiplier_relations(result):
    b = result.bets
    assert np.allclose(b["ev_per_coin"], b["rtp"] - 1)
    ok = b["rtp"] > 0
    assert np.allclose(b.loc[ok, "fair_multiplier"] * b.loc[ok, "rtp"], b.loc[ok, "multiplier"])
    # Without double, payout = multiplier x hit: RTP can only exceed it through doubled bets.
    assert (b["rtp"] >= b["multiplier"] * b["hit"] - 1e-9).all()
    assert (b["volatility_index"] >= 0).all()


def test_troll_economics(result):
    dist = result.troll_pay
    assert dist["share"].sum() == pytest.approx(1.0)
    troll_rounds = dist["rounds"].sum()
    assert troll_rounds == result.trolls.loc[1, "n"]
    mean = (dist["rounds"] * dist["troll_pay"]).sum() / troll_rounds
    assert result.trolls.loc[1, "value"] == pytest.approx(mean)
    tvb = result.meta["troll_vs_bettor"]
    assert list(tvb["role"]) == ["troll", "bettor"]
    assert list(tvb["seat_0_strategy"]) == ["troll:goal:cash4", "ev:goal:cash4"]   # the troll cashes in alike


def test_sweep_changes_troll_pay_and_keeps_deals(result):
    sw = result.meta["sweep"]
    assert sorted(sw["value"].unique()) == [1, 2]
    assert (sw.groupby("value")["games"].first() == N).all()


def test_bad_sweeps_and_ranges():
    r = load_rules()
    with pytest.raises(UserError, match="unknown rule key"):
        parse_sweep("multiplier.lst=2..4", r)
    with pytest.raises(UserError, match="values must be numbers"):
        parse_sweep("troll_pay=a..b", r)
    with pytest.raises(UserError, match="must not be negative"):
        parse_sweep("troll_pay=-1..1", r)
    assert parse_sweep("multiplier.last=2..5", r) == ("multiplier.last", [2, 3, 4, 5])
    assert parse_sweep("round_bonus=0,3", r)[1] == [0, 3]
    with pytest.raises(UserError, match="LOW..HIGH"):
        parse_range("2-6")


def test_recommend_moves_rtp_towards_target():
    df = recommend("ev:goal:cash4 x4", n=N, seed=2, target_rtp=1.0, mult_range="2..6", max_iter=3, cache=False)
    assert set(df["type"]) == set(load_rules().bets)
    assert df["multiplier_after"].between(2, 6).all()
    assert df.attrs["spread_after"] <= df.attrs["spread_before"] + 1e-12
    assert df.attrs["iterations"] >= 2
    # "converged" only when every type placed is within the tolerance; every other type says why
    placed = df[df["placed_after"] > 0]
    assert df.attrs["converged"] == bool(((placed["rtp_after"] - 1.0).abs() <= df.attrs["tolerance"]).all())
    assert ((df["why_not"] == "") == df["within"]).all()
    value = df.attrs["restricted_play"]
    assert list(value["type"]) == list(load_rules().bets)
    assert (value["value_low"] <= value["value"]).all() and (value["value"] <= value["value_high"]).all()
    assert df.attrs["dominant"] == list(value.loc[value["value_low"] > 0.05, "type"])


def test_recommend_says_converged_when_the_tolerance_is_wide():
    df = recommend("ev:goal:cash4 x4", n=240, seed=2, tolerance=9.0, max_iter=1, check=False, cache=False)
    assert df.attrs["converged"] and df.attrs["iterations"] == 1
    assert (df.loc[df["placed_after"] > 0, "why_not"] == "").all()
    assert "restricted_play" not in df.attrs


def test_cli_errors_one_line():
    runner = CliRunner()
    for args, needle in ((["balance", "--sweep", "nosuch=1..2", "-n", "10"], "unknown rule key 'nosuch'"),
                         (["balance", "--profile", "ev:goal x3", "-n", "10"], "profile"),
                         (["recommend", "--range", "7..2", "-n", "10"], "LOW <= HIGH"),
                         (["balance", "-n", "0"], "at least 1")):
        res = runner.invoke(main, args)
        assert res.exit_code == 2, (args, res.output)
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], (args, res.stderr)
