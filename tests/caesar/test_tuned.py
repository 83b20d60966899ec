"""Weights as data, `tuned`, tune (CMA-ES), exploit, the reference profile."""

import json
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from caesar_sim import weights as WT
from caesar_sim.analysis import RunSettings, exploit, run_games
from caesar_sim.analysis.game.bids import bid_table
from caesar_sim.analysis.game.tune import CMAES, Search, tune
from caesar_sim.cli import main
from caesar_sim.kernels import api
from caesar_sim.kernels import layout
from caesar_sim.profile import parse_profile, reference_profile
from caesar_helpers import Table


@pytest.fixture()
def value_file(tmp_path):
    """A weights file holding `value`'s own weights."""
    return str(WT.save(tmp_path / "value.json", WT.DEFAULTS, 4, {"note": "value's defaults"}))


def test_weights_file_round_trips(tmp_path):
    w = {**WT.DEFAULTS, "boost": 1.2345, "risk": 0.25, "ban_rows": 4}
    meta = {"command": "caesar tune ...", "seed": 7, "nested": {"a": [1, 2]}}
    path = WT.save(tmp_path / "w.json", w, 5, meta)
    data = WT.load(path)
    assert data["weights"] == w and data["meta"] == meta and data["players"] == 5
    assert np.array_equal(WT.vector(data["weights"]), WT.vector(w))
    assert parse_profile(f"tuned@{path} x5", 5).weights[1, WT.ORDER.index("boost")] == 1.2345


@pytest.mark.parametrize("text,msg", [
    ("{", "not valid JSON"), ('{"format": "x"}', "not a caesar-weights/1 file"),
    ('{"format": "caesar-weights/1", "weights": {"nope": 1}}', "unknown weight 'nope'"),
    ('{"format": "caesar-weights/1", "weights": {"boost": 1}}', "missing weights"),
    ('{"format": "caesar-weights/1", "weights": {"boost": "a"}}', "'boost' must be a number"),
])
def test_bad_weights_files(tmp_path, text, msg):
    f = tmp_path / "bad.json"
    f.write_text(text)
    with pytest.raises(UserError, match=msg):
        parse_profile(f"tuned@{f},value,value", 3)


def test_tuned_with_values_weights_plays_exactly_like_value(value_file):
    for prof, twin in ((f"tuned@{value_file} x4", "value x4"),
                       (f"tuned@{value_file},greedy,value,random", "value,greedy,value,random"),
                       (f"mc:2:tuned@{value_file},tuned@{value_file},value,greedy", "mc:2:value,value,value,greedy")):
        n = 40 if "mc" in prof else 2000
        a = run_games(4, prof, n, RunSettings(seed=9, progress=False), rotate=True)
        b = run_games(4, twin, n, RunSettings(seed=9, progress=False), rotate=True)
        assert np.array_equal(a.scores, b.scores), prof


def test_mc_rollouts_use_tuned_by_default_and_value_on_request():
    p = parse_profile("mc:4,mc:4:value,mc", 3)
    assert p.entries == ("mc:4", "mc:4:value", "mc:8")
    assert np.array_equal(p.weights[0], parse_profile("tuned x3", 3).weights[0])
    assert np.array_equal(p.weights[1], WT.vector())
    a = run_games(3, "mc:2,value,value", 30, RunSettings(seed=4, progress=False))
    b = run_games(3, "mc:2:value,value,value", 30, RunSettings(seed=4, progress=False))
    assert not np.array_equal(a.scores, b.scores)


def test_shipped_tuned_weights_record_how_they_were_made():
    for players in (3, 4, 5):
        data = WT.shipped(players)
        assert data["players"] == players
        assert data["meta"]["command"].startswith(f"caesar tune --players {players} ")
        assert isinstance(data["meta"]["seed"], int)
        assert WT.vector(data["weights"])[layout.WEIGHTS.ban_rows] == 0
    assert reference_profile(4) == "reference"


def test_restricted_player_never_bids_at_a_banned_location_or_for_a_banned_item():
    t = Table(phase=2, policy=layout.TUNED)
    t.visitors(2, [3])
    t.give_ticket(1, 2, 2)
    for p in (0, 2, 3):
        t.state["passed"][p] = 1
    t.state["turn"] = 1
    weight_table = WT.vector()
    assert int(api.k_decide(t.rulebook, weight_table, t.game_state, t.rng)) >= 0
    assert int(api.k_decide(t.rulebook, WT.vector(ban_rows=1 << 4), t.game_state, t.rng)) == -1   # row 4: the Colosseum
    t = Table(phase=0, policy=layout.TUNED)
    t.favours(gold=1, start_card=False)
    t.state["turn"] = 0
    assert int(api.k_decide(t.rulebook, weight_table, t.game_state, t.rng)) >= 0
    assert int(api.k_decide(t.rulebook, WT.vector(ban_items=1 << layout.GOLD), t.game_state, t.rng)) == -1


def test_restricted_profile_in_whole_games():
    prof = parse_profile("value x4", 4)
    row = WT.vector(ban_rows=1 << 4)
    for e in range(4):
        prof = prof.replace(e, "value", row)
    table = bid_table(run_games(4, prof, 300, RunSettings(seed=3, progress=False)), by_seat=False)
    assert set(table["location"]) == {"Caesars Villa", "Forum Romanum", "Circus Maximus", "Pompeius Theater"}


def test_exploit_gain_is_the_difference_of_two_separate_runs():
    table, line, base = exploit(4, "value x4", 400, RunSettings(seed=5, progress=False),
                                policies=("greedy", "mc:1:value"), weights=False, restricted=False)
    for _, row in table.iterrows():
        dev = run_games(4, parse_profile(f"{row['deviation']},value,value,value", 4), 400,
                        RunSettings(seed=5, progress=False), rotate=True)
        solo = run_games(4, "value x4", 400, RunSettings(seed=5, progress=False), rotate=True)
        want = dev.win_shares()[:, 0].mean() - solo.win_shares()[:, 0].mean()
        assert row["gain"] == pytest.approx(want, abs=1e-12)
        assert row["gain_low"] <= row["gain"] <= row["gain_high"]
    assert line.startswith("verdict: ")


def test_exploit_lists_weight_and_restricted_deviations_and_flags_a_clear_gain():
    table, line, _ = exploit(3, "random x3", 300, RunSettings(seed=2, progress=False), policies=("value",))
    assert list(table["deviation"]) == ["value"]             # random has no weights to push
    assert table.loc[0, "finding"] == "gains" and "EXPLOITABLE" in line and "'value'" in line
    table, _, _ = exploit(3, "value x3", 60, RunSettings(seed=2, progress=False), policies=())
    assert len(table) == 2 * len(WT.TUNABLE) + 4 + 5      # value's weights all lie inside their ranges
    assert {"weight", "restricted"} == set(table["kind"])
    assert "boost +0.5" in set(table["deviation"]) and "never bids at Colosseum" in set(table["deviation"])
    at_bound = parse_profile("value x3", 3).replace(0, "value", WT.vector(strength=0.0))
    table, _, _ = exploit(3, at_bound, 30, RunSettings(seed=2, progress=False), policies=(), restricted=False)
    assert list(table["deviation"]).count("strength +0.1") == 1 and not table["deviation"].str.startswith(
        "strength -").any()


def test_start_card_push_and_never_double_play_the_same_games_when_the_two_favours_tie():
    """In the 4-player exploit table "start_card +0.5" and "never takes double" had identical
    numbers. Shipped 4-player `tuned` weighs both at -1 (their tuning bound); a tie goes to the double, so
    raising the start card or banning the double changes the same choices, game for game. Untie them
    (double -0.5) and the two deviations part."""
    tuned = WT.vector(WT.shipped(4)["weights"])
    assert tuned[WT.ORDER.index("double")] == tuned[WT.ORDER.index("start_card")] == -1.0
    for row, same in ((tuned, True), (WT.vector({**WT.as_dict(tuned), "double": -0.5}), False)):
        prof = parse_profile("tuned x4", 4).replace(0, "tuned", row)
        table, _, _ = exploit(4, prof, 300, RunSettings(seed=4, progress=False), policies=())
        t = table.set_index("deviation")
        a, b = t.loc["start_card +0.5"], t.loc["never takes double"]
        assert (a[["gain", "coins_gain"]].tolist() == b[["gain", "coins_gain"]].tolist()) == same
        assert a["gain"] != 0 or not same


def test_restricted_distilled_and_mc_players():
    """Restricted play exists for `distilled` (a field's member) and `mc`: a banned row is never bid at."""
    for text in ("distilled x4", "mc:2 x4"):
        table, _, _ = exploit(4, text, 20 if "mc" in text else 200, RunSettings(seed=2, progress=False), policies=())
        assert set(table["kind"]) == {"restricted"} and "never bids at Colosseum" in set(table["deviation"])
    prof = parse_profile("mc:2 x4", 4)
    for e in range(4):
        s = prof.strategies()[e]
        row = s.row.copy()
        row[layout.WEIGHTS.ban_rows] = 1 << 4
        prof = prof.with_entry(e, replace(s, row=row))
    table = bid_table(run_games(4, prof, 20, RunSettings(seed=3, progress=False)), by_seat=False)
    assert "Colosseum" not in set(table["location"]) and "Circus Maximus" in set(table["location"])
    table, _, _ = exploit(4, "reference", 40, RunSettings(seed=2, progress=False), policies=())
    assert "never takes boost" in set(table["deviation"])


def test_cma_es_finds_the_top_of_a_noisy_bowl():
    rng = np.random.default_rng(1)
    target = np.array([0.2, 0.7, 0.5, 0.9])
    es = CMAES(np.full(4, 0.5), 0.2, 10, np.random.default_rng(3))
    for _ in range(80):
        X = es.ask()
        es.tell(X, -((X - target) ** 2).sum(axis=1) + rng.normal(0, 1e-4, len(X)))
    assert np.abs(es.mean - target).max() < 0.03


def test_tune_is_reproducible_and_writes_a_loadable_file(tmp_path):
    a = tune(3, 30, Search(2, lam=4), RunSettings(seed=3, threads=1, progress=False))
    b = tune(3, 30, Search(2, lam=4), RunSettings(seed=3, threads=1, progress=False))
    assert a.weights == b.weights and a.weights != WT.DEFAULTS
    res = CliRunner().invoke(main, ["tune", "--players", "3", "-n", "30", "--generations", "1", "--lam", "4",
                                    "--seed", "3", "--out", str(tmp_path / "t.json"), "--format", "json"])
    assert res.exit_code == 0, res.output
    data = WT.load(tmp_path / "t.json")
    assert data["meta"]["seed"] == 3 and "--generations 1" in data["meta"]["command"]
    assert {r["weight"] for r in json.loads(res.output)["rows"]} == set(WT.TUNABLE)


def test_exploit_cli_prints_a_verdict_line():
    res = CliRunner().invoke(main, ["exploit", "--players", "3", "--profile", "value x3", "-n", "30",
                                    "--policies", "greedy", "--no-weights", "--no-restricted"])
    assert res.exit_code == 0, res.output
    assert res.output.strip().splitlines()[-1].startswith("verdict: ")
    res = CliRunner().invoke(main, ["exploit", "--players", "3", "--profile", "value x3", "-n", "30", "--policies", "",
                                    "--no-weights", "--no-restricted", "--format", "json"])
    data = json.loads(res.output)
    assert data["verdict"].startswith("verdict: ") and data["deviations"] == []
    assert data["meta"]["command"] == "caesar exploit"
    table = CliRunner().invoke(main, ["exploit", "--players", "3", "-n", "30", "--policies", "", "--no-weights",
                                      "--no-restricted"])
    assert "reference field (" in table.output
