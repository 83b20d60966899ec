"""`caesar sweep`'s lever-to-effect tables: day-end totals, every measure against
separately played runs on the same seed, paired effects, `moved` only when the CI excludes 0."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from caesar_sim.analysis.balance.levers import CLOSE, MEASURES, effects_table, game_vectors, lever_effects
from caesar_sim.analysis.game.runs import RunSettings, run_games
from caesar_sim.cli import main


def slow_measures(b):
    """Per game, by plain loops: lead changes and comeback from the day-end totals, lead and spread."""
    out = []
    for g in range(b.n):
        days = [list(b.day_totals[g, d]) for d in range(b.day_totals.shape[1])]
        leaders = [{s for s, x in enumerate(t) if x == max(t)} for t in days]
        changes = sum(1 for d in range(1, len(days)) if not (leaders[d] & leaders[d - 1]))
        first = days[0]
        last = {s for s, x in enumerate(first) if x == min(first) and x < max(first)}
        final = list(b.scores[g])
        winners = {s for s, x in enumerate(final) if x == max(final)}
        top = sorted(final)
        mean = sum(final) / len(final)
        sd = (sum((x - mean) ** 2 for x in final) / len(final)) ** 0.5
        out.append((changes, float(bool(winners & last)), top[-1] - top[-2], sd))
    return np.array(out, dtype=float)


@pytest.mark.parametrize("profile", ["value,greedy,random", "reference"])
def test_day_totals_and_game_measures_against_plain_loops(profile):
    b = run_games(3, profile, 120, RunSettings(seed=5), day_totals=True)
    assert b.day_totals.shape == (120, 3, 3)
    assert np.array_equal(b.day_totals[:, -1], b.scores)             # the last day's end is the final score
    assert (np.diff(b.day_totals, axis=1) >= 0).all()                  # coins are never lost
    x = game_vectors(b)
    slow = slow_measures(b)
    col = {name: 3 + i for i, name in enumerate(MEASURES[2:])}
    assert np.array_equal(x[:, col["lead changes per game"]], slow[:, 0])
    assert np.array_equal(x[:, col["comeback rate"]], slow[:, 1])
    assert np.array_equal(x[:, col["winner's lead (coins)"]], slow[:, 2])
    assert np.allclose(x[:, col["score spread (SD of final coins)"]], slow[:, 3])
    assert np.array_equal(x[:, col[f"close games (lead <= {CLOSE})"]], slow[:, 2] <= CLOSE)
    assert (x[:, col["lead changes per game"]] > 0).any()
    assert run_games(3, profile, 10, RunSettings(seed=5)).day_totals is None


def test_each_measure_against_separate_runs_on_the_same_seed():
    res = lever_effects(3, "reference", 300, ["favour.gold_coins=4"], RunSettings(seed=7))
    assert len(res) == 1 and res[0].standard == "2"
    rows = res[0].rows.set_index(["value", "measure"])
    base = run_games(3, "reference", 300, RunSettings(seed=7), day_totals=True)
    alt = run_games(3, "reference", 300, RunSettings(seed=7, overrides=["favour.gold_coins=4"]), day_totals=True)
    xb, xa = game_vectors(base), game_vectors(alt)
    w0, w1 = base.win_shares(by_entry=False).mean(axis=0), alt.win_shares(by_entry=False).mean(axis=0)
    direct = {"start seat - fair share": (w0[0] - 1 / 3, w1[0] - 1 / 3),
              "largest seat gap": (w0.max() - w0.min(), w1.max() - w1.min())}
    for i, name in enumerate(MEASURES[2:]):
        direct[name] = (xb[:, 3 + i].mean(), xa[:, 3 + i].mean())
    for name, (b, a) in direct.items():
        assert rows.loc[("2", name), "level"] == pytest.approx(b)
        assert rows.loc[("4", name), "level"] == pytest.approx(a)
        assert rows.loc[("4", name), "effect"] == pytest.approx(a - b)
        assert rows.loc[("2", name), "effect"] == 0 and not rows.loc[("2", name), "moved"]
    assert rows.loc[("4", "mean final coins"), "moved"]   # two more coins a gold favour: more coins
    r = res[0].rows
    assert (r["moved"] == ((r["effect_low"] > 0) | (r["effect_high"] < 0))).all()
    assert rows.loc[("4", "days per game"), "effect"] == 0 and not rows.loc[("4", "days per game"), "moved"]


def test_the_unchanged_value_moves_nothing():
    res = lever_effects(3, "value x3", 150, ["favour.gold_coins=2", "tickets_per_day=5"], RunSettings(seed=3))
    gold, tickets = res
    same = gold.rows[~gold.rows["standard"]]
    assert (same["effect"] == 0).all() and not same["moved"].any()
    assert tickets.rows["moved"].any()
    table = effects_table(res)
    assert set(table["lever"]) == {"favour.gold_coins", "tickets_per_day"} and not table["refitted"].any()


def test_sweep_cli_tables_json_and_bad_players(tmp_path):
    run = CliRunner().invoke
    res = run(main, ["sweep", "--players", "3,4", "-n", "60", "--set", "favour.gold_coins=3", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert {r["players"] for r in data["effects"]} == {3, 4} and "refitted" in data["meta"]
    png = tmp_path / "s.png"
    res = run(main, ["sweep", "--players", "3", "-n", "60", "--set", "favour.gold_coins=3", "--plot", str(png)])
    assert res.exit_code == 0 and "[3 players: favour.gold_coins]" in res.output and "refitted" in res.output
    assert "reference field (" in res.output and png.stat().st_size > 1000
    res = run(main, ["sweep", "--players", "x", "-n", "10", "--set", "favour.gold_coins=3"])
    assert res.exit_code == 2 and "--players 'x'" in res.output
    res = run(main, ["sweep", "seats", "--players", "3,4", "-n", "10", "--set", "favour.gold_coins=3"])
    assert res.exit_code == 2 and "'3,4': not an integer" in res.output
    res = run(main, ["sweep", "seats", "--players", "3", "--adapt", "10", "--set", "favour.gold_coins=3"])
    assert res.exit_code == 2 and "No such option '--adapt'" in res.output


def test_adapt_plays_each_value_with_the_field_re_solved_for_its_rules():
    from caesar_sim.analysis.balance.adapt import adapted, field_adapter
    from caesar_sim.fieldplay import field_play
    from caesar_sim.rules import load_rules
    res = lever_effects(3, "reference", 120, ["favour.gold_coins=4"], RunSettings(seed=7), adapt_games=30)[0]
    assert set(res.fields) == {"2", "4"} and "re-solved" in res.refit
    play = field_play("reference", 3)
    resolver = field_adapter(3, play, RunSettings(seed=7), games=30)
    alt_rules = load_rules(None, ["favour.gold_coins=4"])
    assert np.allclose(resolver(alt_rules).weights, res.fields["4"].weights)
    alt = run_games(3, adapted(resolver, alt_rules, play), 120, RunSettings(seed=7, rules=alt_rules), day_totals=True)
    lead = res.rows.set_index(["value", "measure"]).loc[("4", "winner's lead (coins)"), "level"]
    assert lead == pytest.approx(game_vectors(alt)[:, 3 + MEASURES[2:].index("winner's lead (coins)")].mean())


def test_a_change_is_confirmed_on_fresh_seeds_with_the_field_re_solved_for_it():
    from caesar_sim.analysis.balance.adapt import adapted, field_adapter
    from caesar_sim.analysis.firstpage import CONFIRM_SEED, confirm_run
    from caesar_sim.analysis.balance.levers import levels
    from caesar_sim.fieldplay import field_play
    from caesar_sim.rules import load_rules
    base = load_rules(None)
    resolver = field_adapter(3, field_play("reference", 3), RunSettings(seed=7, rules=base), games=30)
    got = confirm_run(3, resolver, base, {"favour.gold_coins": "4"}, 60, RunSettings(seed=7))
    alt = load_rules(base, ["favour.gold_coins=4"])
    b = run_games(3, adapted(resolver, alt, field_play("reference", 3)), 60,
                  RunSettings(seed=7 + CONFIRM_SEED, rules=alt), day_totals=True)
    assert set(got) == set(MEASURES) and all(v[3] == 60 for v in got.values())
    assert got["comeback rate"][:3] == pytest.approx(levels(b)["comeback rate"])


def test_the_check_against_mc_refuses_a_bad_measure_or_value_before_any_work():
    """``analysis.balance.adapt.mc_check`` (``scripts/adaptive_check.py --game caesar``): an unknown
    measure or a lever value the rules refuse is one line (``UserError``), before anything is played."""
    from tabletop_mc.errors import UserError
    from caesar_sim.analysis.balance.check import mc_check
    from caesar_sim.analysis.game.runs import RunSettings
    with pytest.raises(UserError, match="--measure"):
        mc_check(4, ["favour.gold_coins=1;3"], RunSettings(), n=10, n_mc=10, games=10, measure="nope")
    with pytest.raises(UserError):
        mc_check(4, ["favour.gold_coins=1;x"], RunSettings(), n=10, n_mc=10, games=10)
