"""Choice balance (`sponsio balance`): plays on common random numbers, the measures, the criterion."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from tabletop_mc.field import Field
from sponsio_sim.analysis.balance.choice import balance, measure_choice
from sponsio_sim.analysis.balance.criteria import Band, bands_from, parse_band
from sponsio_sim.analysis.balance.measures import level
from sponsio_sim.analysis.balance.plays import choice_plays, run_plays
from sponsio_sim.analysis.game.exploit import Deviations, exploit
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.runs import entry_table, run_games
from sponsio_sim.analysis.game.setup import Profile, parse_profile, parse_strategy
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cli import main
from sponsio_sim.kernels.layout import GAME_MEASURES, named_stats
from sponsio_sim.rules import load_rules

R4 = load_rules(None, 4)
MEMBERS = ("ev0.5:goal:cash3", "troll:goal", "ev0:goal:cash4:temp=0.5")
FIXED = "ev:goal:cash4 x4"


def field(weights=(0.5, 0.2, 0.3)):
    f = Field("sponsio", 4, "standard-4p", tuple(parse_strategy(m, R4).text for m in MEMBERS), tuple(weights))
    return Profile([parse_strategy(m, R4) for m in MEMBERS], f, "test field")


@pytest.mark.parametrize("prof", [parse_profile(FIXED, R4), field()], ids=["fixed seats", "field"])
def test_every_play_is_the_tournament_of_its_line_up(prof):
    """Each play's statistics are exactly a separate run of that line-up with the same seed."""
    model = find_model(R4)
    cp = choice_plays(R4, prof, members=True)
    run = run_plays(cp.plays, 240, seed=3, model=model, cache=False)
    for p, totals in zip(cp.plays, run.totals):
        if p.focal < 0:
            alone = run_games(p.rules, p.profile, 240, rotate=True, seed=3, model=model)
        else:   # the focal seat pinned to one entry: that play run alone
            alone = run_plays([p], 240, seed=3, model=model, cache=False).totals[0]
        assert np.array_equal(alone, totals), p.label
    # the game measures read back what the statistics hold
    stats = named_stats(run.totals[0], 4)
    assert level(run, 0, "rounds per game")["level"] == pytest.approx(stats["rounds"] / stats["games"])
    trolls = sum(stats["entry"][e]["troll_rounds"] for e in range(len(cp.plays[0].profile)))
    assert level(run, 0, "troll share")["level"] == pytest.approx(trolls / (stats["rounds"] * 4))


def test_restricted_play_value_is_minus_exploits_paired_gain():
    """With fixed seats, the value of type T is what `sponsio exploit` reports for without=T, negated."""
    model = find_model(R4)
    ch = measure_choice(R4, parse_profile(FIXED, R4), 240, seed=3, model=model, cache=False)
    ex = exploit(FIXED, n=240, deviating=Deviations(family="without,troll"), run=Run(seed=3)).table
    ex = ex.set_index("deviation")
    for kind in R4.bets:
        v, lo, hi = ch.rp_value(kind)
        row = ex.loc[f"without={kind}"]
        assert (v, lo, hi) == pytest.approx((-row["gain"], -row["gain_high"], -row["gain_low"]), abs=1e-12)
    troll = ch.run.moments.diff(ch.run.at(ch.plays.troll, GAME_MEASURES.focal_share),
                                ch.run.at(ch.plays.base, GAME_MEASURES.focal_share))
    assert troll[0] == pytest.approx(ex.loc["troll", "gain"], abs=1e-12)


def test_a_type_made_dominant_is_flagged():
    """colour x9: one player barred from colour loses far more than the band allows (dominant),
    while under the standard table no type is dominant; colour takes more bets."""
    base = balance(field(), n=2400, run=Run(seed=3, cache=False)).tables["bet types"].set_index("type")
    dom = balance(field(), n=2400, overrides=["multiplier.colour=9"], run=Run(seed=3, cache=False))
    types = dom.tables["bet types"].set_index("type")
    assert types.loc["colour", "value_verdict"] == "dominant"
    assert types.loc["colour", "rp_value_low"] > 0.05 >= base.loc["colour", "rp_value_high"]
    assert (base["value_verdict"] != "dominant").all() and (types.drop("colour")["value_verdict"] != "dominant").all()
    assert types.loc["colour", "placed"] > base.loc["colour", "placed"]
    assert types.loc["colour", "share_verdict"] == "crowding"
    assert types["share"].sum() == pytest.approx(1.0)


@pytest.fixture(scope="module")
def fixed():
    return balance(FIXED, n=480, run=Run(seed=2, cache=False))


def test_families_split_each_type_and_colour_none_of_dominates(fixed):
    fam = fixed.tables["bet families"]
    types = fixed.tables["bet types"].set_index("type")
    for kind, d in fam.groupby("type"):
        assert d["placed"].sum() == types.loc[kind, "placed"]
        assert d["share_of_type"].sum() == pytest.approx(1.0)
    fail = fam[fam["type"] == "fail"]
    assert set(fail["family"]) <= {"seat +1", "seat +2", "seat +3"}
    colour = fam[fam["type"] == "colour"].set_index("family")
    assert bool(colour.loc["N=0", "dominates"]) == (colour.loc["N=0", "share_of_type_low"] > 0.5)


def test_coin_flow_adds_up_to_the_final_coins(fixed):
    """Sources per seat-round, net of stakes and fees, times the seat-rounds = coins gained in all games."""
    flow = fixed.tables["coin flow"].set_index("source")
    stats = named_stats(fixed.choice.totals, 4)
    gained = sum(stats["entry"][e]["coins"] for e in range(4)) - 4 * stats["games"] * R4.start_coins
    assert flow.loc["net", "coins_per_seat_round"] * stats["rounds"] * 4 == pytest.approx(gained)
    ins = flow[flow["direction"] == "in"]["coins_per_seat_round"].sum()
    outs = flow[flow["direction"] == "out"]["coins_per_seat_round"].sum()
    assert ins + outs == pytest.approx(flow.loc["net", "coins_per_seat_round"])
    assert (flow["ci_low"] <= flow["coins_per_seat_round"] + 1e-12).all()


def test_seat_gap_and_strategies(fixed):
    seats = fixed.tables["seats"]
    shares = seats["value"].iloc[:4]
    assert shares.sum() == pytest.approx(1.0)
    gap = seats[seats["measure"].str.startswith("largest seat gap")].iloc[0]
    assert gap["value"] == pytest.approx(shares.max() - shares.min())
    first = seats[seats["measure"].str.startswith("seat 0 - fair")].iloc[0]
    assert first["value"] == pytest.approx(shares.iloc[0] - 0.25)
    ent = entry_table(fixed.choice.totals, fixed.choice.profile, True, R4)
    assert list(fixed.tables["strategies"]["win_share"]) == list(ent["win_share"])


def test_bands():
    assert parse_band("nines=0.01..0.4", "--share-band", R4.bets) == ("nines", Band(0.01, 0.4))
    b = bands_from(R4.bets, share=["nines=0.01..0.4"], troll="0.1..0.5")
    assert b.of("share", "nines") == Band(0.01, 0.4) and b.of("share", "tricks") == Band(0.05, 0.4)
    assert Band(0.0, 1.0).violation(1.5) == pytest.approx(0.5) and Band(0.0, 1.0).margin(0.25) == 0.25
    assert Band(0.01, 0.05).verdict(0.08, 0.06, 0.1) == "above"
    assert Band(0.01, 0.05).verdict(0.06, 0.04, 0.08) == "edge"
    for bad, needle in (("0.4..0.1", "LOW must be below HIGH"), ("x..1", "expected"), ("sixes=0..1", "not a bet"),
                        ("0..inf", "finite")):
        with pytest.raises(UserError, match=needle):
            parse_band(bad, "--share-band", R4.bets)


def test_cli_json_and_out(tmp_path):
    """(Bad input: tests/test_cli_hygiene.py.)"""
    (tmp_path / "b").mkdir()
    (tmp_path / "theirs.png").write_text("theirs")
    (tmp_path / "b" / "coin_flow.png").symlink_to(tmp_path / "theirs.png")   # replaced, not written through
    res = CliRunner().invoke(main, ["balance", "--profile", FIXED, "-n", "240", "--format", "json", "--no-cache",
                                    "--out", str(tmp_path / "b")])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {"bet types", "trolls", "seats", "coin flow", "rounds"} <= set(data)
    assert (tmp_path / "b" / "coin_flow.png").stat().st_size > 1000 and not (tmp_path / "b" / "coin_flow.png").is_symlink()
    assert (tmp_path / "theirs.png").read_text() == "theirs"
