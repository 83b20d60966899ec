"""`sponsio sweep`: every measure against a tournament of the same seed, effects paired, `moved` by the interval."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.balance.sweep import (TRACK_SCALE, change, default_levers, effects_table, headline,
                                                lever_table, parse_lever, sweep)
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.runs import entry_table, game_table, run_games, seat_table
from sponsio_sim.analysis.game.setup import parse_profile
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cli import main
from sponsio_sim.rules import load_rules

R4 = load_rules(None, 4)
PROFILE = "ev:goal:cash4, troll:goal, ev0.5:goal:cash3, ev:goal:never"
N = 240


def tournament_measures(rules) -> dict:
    """The sweep's measures from a separate rotated tournament of the same seed (``sponsio tournament
    --rotate`` sums exactly these statistics)."""
    prof = parse_profile(PROFILE, rules)
    totals = run_games(rules, prof, N, rotate=True, seed=6, model=find_model(R4))
    games = game_table(totals, 4).set_index("measure")["value"]
    seats = seat_table(totals, 4)["win_share"]
    entries = entry_table(totals, prof, True, rules)
    placed = {k: entries[f"{k}_placed"].sum() for k in rules.bets}
    return {"seat 0 - fair share": seats.iloc[0] - 0.25, "largest seat gap": seats.max() - seats.min(),
            "rounds per game": games["rounds per game"], "lead changes per game": games["lead changes per game"],
            "comeback rate": games["won by a player last after round 1"],
            "troll share": (entries["troll_share"] * entries["rounds"]).sum() / entries["rounds"].sum(),
            **{f"ended by {r}": games[f"ended by {r}"] for r in ("track", "coins", "rounds")},
            **{f"{k} share of bets": placed[k] / sum(placed.values()) for k in rules.bets}}


@pytest.fixture(scope="module")
def swept():
    return sweep(PROFILE, players=4, levers=["troll_pay=1,3", "multiplier.last=2,3"], n=N, run=Run(seed=6, cache=False))


def test_every_measure_is_the_tournaments_and_every_effect_the_paired_difference(swept):
    table = effects_table(swept)
    assert set(table["lever"]) == {"troll_pay", "multiplier.last"}
    for r in swept:
        rows = table[table["lever"] == r.lever.key]
        base = rows[rows["standard"]].set_index("measure")["level"]
        assert sorted(r.runs) == sorted({*r.lever.values, r.standard})
        for value in r.runs:
            rules = load_rules(R4, overrides=r.lever.overrides(R4, value))
            got = rows[rows["value"] == value].set_index("measure")
            for name, want in tournament_measures(rules).items():
                assert got.loc[name, "level"] == pytest.approx(want, abs=1e-12), (r.lever.key, value, name)
            assert np.allclose(got["effect"], got["level"] - base.reindex(got.index), atol=1e-12)
            assert ((got["effect_low"] > 0) | (got["effect_high"] < 0)).equals(got["moved"])
            lo_ok = (got["level_low"] <= got["level"] + 1e-12).all()
            assert lo_ok and (got["level"] <= got["level_high"] + 1e-12).all()
        assert r.paired and r.refit.startswith("no (the deal is unchanged")


def test_the_effect_interval_is_paired(swept):
    """Raising troll pay moves the troll share by far less noise than two separate runs would allow."""
    r = next(x for x in swept if x.lever.key == "troll_pay")
    c = change(r, 3, 1, "troll share")
    rows = r.rows[r.rows["measure"] == "troll share"].set_index("value")
    unpaired = np.hypot(*(rows.loc[v, "level_high"] - rows.loc[v, "level_low"] for v in (1, 3))) / 2
    assert c["moved"] and c["effect"] > 0
    assert (c["effect_high"] - c["effect_low"]) / 2 < unpaired
    lines = headline(swept)
    row = lines[(lines["lever"] == "troll_pay") & (lines["measure"] == "troll share")].iloc[0]
    assert (row["low"], row["high"]) == ("1", "3") and row["change"] == pytest.approx(c["effect"])
    wide = lever_table(r).set_index("measure")
    assert wide.loc["troll share", "3"].endswith("*") and wide.loc["troll share", "2 (standard)"]


def test_levers():
    keys = [lv.key for lv in default_levers(R4)]
    assert keys == [*(f"multiplier.{k}" for k in R4.bets), "troll_pay", "round_bonus", TRACK_SCALE, "coins_to_end",
                    "max_rounds"]
    scale = parse_lever("track_value.scale=0.5,2", R4)
    assert scale.overrides(R4, 0.5) == {"track_value": [int(round(v * 0.5)) for v in R4.track_value]}
    assert scale.standard(R4) == 1 and parse_lever("round_bonus=0..4:2", R4).values == (0, 2, 4)
    for bad, needle in (("nosuch=1..2", "unknown rule key"), ("troll_pay=a..b", "values must be finite numbers"),
                        ("players=3,4", "not a lever"), ("track_value.scale=-1,2", "must not be negative"),
                        ("troll_pay", "expected KEY"), ("track_value.scale=nan", "values must be finite numbers"),
                        ("track_value.scale=inf", "values must be finite numbers"),
                        ("round_bonus=0..1e12", "give 1 to"), ("round_bonus=1,nan", "finite")):
        with pytest.raises(UserError, match=needle):
            parse_lever(bad, R4)


def test_cli_table_json_and_out(tmp_path):
    """(Bad input: tests/test_cli_hygiene.py.)"""
    args = ["sweep", "--players", "4", "--profile", PROFILE, "--lever", "round_bonus=2,4", "-n", "240", "--no-cache"]
    (tmp_path / "s").mkdir()
    (tmp_path / "theirs.csv").write_text("theirs")
    (tmp_path / "s" / "effects.csv").symlink_to(tmp_path / "theirs.csv")   # replaced, not written through
    res = CliRunner().invoke(main, args + ["--out", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "s" / "effects.csv").is_symlink() and (tmp_path / "theirs.csv").read_text() == "theirs"
    assert "[4 players: round_bonus (standard 3)]" in res.stdout and "players refitted: no for every lever" in res.stdout
    assert (tmp_path / "s" / "sweep_4p_round_bonus.png").stat().st_size > 1000
    data = json.loads(CliRunner().invoke(main, args + ["--format", "json"]).stdout)
    assert {r["value"] for r in data["effects"]} == {2, 3, 4}


def test_adapt_re_solves_the_field_for_every_value_and_plays_it():
    from sponsio_sim.analysis.balance.adapt import field_adapter
    res = sweep("reference", players=4, levers=["troll_pay=0,2"], n=60, run=Run(seed=6, cache=False),
                adapt_games=20)[0]
    assert set(res.fields) == {0, 2} and "re-solved" in res.refit
    for v, (run, j) in res.runs.items():
        assert np.allclose(run.plays[j].profile.weights, res.fields[v].weights)
    base = load_rules(None, 4)
    again = field_adapter(base, parse_profile("reference", base), games=20, seed=6,
                          model=find_model(base, variant="reference"), cache=False)
    assert np.allclose(again(load_rules(base, overrides={"troll_pay": 0})).weights, res.fields[0].weights)
    with pytest.raises(UserError, match="field profile"):
        sweep(PROFILE, players=4, levers=["troll_pay=0,2"], n=60, adapt_games=20)


@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_mc_cashes_in_as_the_fields_heaviest_member(players):
    """The lookahead the re-solved field is checked against (``scripts/adaptive_check.py``) parses for
    every shipped field, whose heaviest member may cash in by the network (``net``)."""
    from sponsio_sim.analysis.balance.adapt import every_seat_mc
    rules = load_rules(None, players)
    field = parse_profile("reference", rules)
    heaviest = field[int(np.argmax(field.weights))]
    mc = every_seat_mc(field, rules)
    assert len(mc) == players and {st.text for st in mc} == {f"mc:goal:{heaviest.cash_text}"}
