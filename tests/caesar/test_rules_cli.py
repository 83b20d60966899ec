"""Rule files and the command line: results, one-line errors with exit status 2."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from caesar_sim.cli import main
from caesar_sim.kernels import layout
from caesar_sim.profile import parse_profile
from caesar_sim.rules import kernel_rules, load_rules


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_standard_rules_carry_every_default():
    r = load_rules()
    assert r.merchant_coins == (0, 0, 1, 1, 2, 2, 3, 3) and r.favour_counts == (6, 6, 6)
    assert r.ticket_coins == (1, 1, 1, 1, 2, 2) and sorted(r.visitor_coins) == [1] * 6 + [2] * 5 + [3] * 4
    rulebook = kernel_rules(r, 5)
    r = layout.RULES.named(rulebook)
    assert r["tickets_per_day"] == 5 and r["gold_coins"] == 2 and r["boost_value"] == 3 and r["coin_cards"] == 12


@pytest.mark.parametrize("override,msg", [
    ("merchant.coins=[0,1]", "needs 8 entries"),
    ("favour.gold_coins=-1", "integer 0..1,000"),
    ("special_tickets=[0,1]", "one entry per day"),
    ("nosuch=3", "unknown rule key"),
    ("caesar=3", "true or false"),
])
def test_bad_overrides_name_the_problem(override, msg):
    with pytest.raises(UserError, match=msg):
        load_rules(overrides=[override])


def test_broken_rule_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'x'\ndays = [")
    with pytest.raises(UserError, match="not valid TOML"):
        load_rules(str(bad))
    bad.write_text("name = 'x'\ndays = 3\n")
    with pytest.raises(UserError, match="missing key"):
        load_rules(str(bad))


@pytest.mark.parametrize("text,players,msg", [
    ("value,value", 4, "2 entries for 4 players"), ("value x3,foo", 4, "unknown policy 'foo'"),
    ("greedy:3 x3", 3, "only mc takes"), ("mc:0,value,value", 3, "only mc takes"),
])
def test_bad_profiles(text, players, msg):
    with pytest.raises(UserError, match=msg):
        parse_profile(text, players)


def test_profile_shorthand():
    p = parse_profile("value x2, mc:16 ,greedy", 4)
    assert p.entries == ("value", "value", "mc:16", "greedy") and p.rollouts[2] == 16
    assert p.labels == ["value#0", "value#1", "mc:16", "greedy"]


@pytest.mark.parametrize("args", [
    ["simulate", "--players", "6", "-n", "10"],
    ["simulate", "--players", "4", "--profile", "value,nope,value,value", "-n", "10"],
    ["bids", "--players", "3", "--profile", "value x4", "-n", "10"],
    ["game", "--players", "2"],
    ["simulate", "-n", "10", "--set", "merchant.coins=[1]"],
    ["simulate", "-n", "10", "--rules", "/nonexistent/rules.toml"],
    ["sweep", "-n", "10"],
    ["bids", "-n", "10", "--plot", "/nonexistent/dir/x.png"],
    ["simulate", "-n", "0"],
    ["tune", "-n", "10", "--generations", "1", "--out", "/nonexistent/dir/w.json"],
    ["exploit", "--players", "3", "--seat", "5", "-n", "10"],
    ["exploit", "--players", "3", "-n", "10", "--policies", "value,bogus"],
    ["simulate", "-n", "10", "--profile", "tuned@/nonexistent/w.json x4"],
])
def test_bad_input_is_one_line_exit_2(args, tmp_path):
    proc = subprocess.run([sys.executable, "-c", "from caesar_sim.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert not list(tmp_path.iterdir())


def test_every_command_has_help_with_an_example():
    for cmd in ("game", "simulate", "bids", "sweep levers", "sweep seats", "tune", "exploit"):
        res = run(*cmd.split(), "--help")
        assert res.exit_code == 0 and "Example" in res.output and "--seed" in res.output, cmd
    res = run("sweep", "--help")   # the group: its two subcommands, each with an example
    assert res.exit_code == 0 and "caesar sweep levers --players" in res.output and "caesar sweep seats" in res.output


def test_simulate_json_and_bids_csv(tmp_path):
    res = run("simulate", "--players", "3", "--profile", "value,greedy,random", "-n", "300", "--no-favour-value",
              "--format", "json")
    data = json.loads(res.output)
    assert {"wins", "seats", "favours", "start_card", "unclaimed", "score_parts"} <= set(data)
    assert all(r["n"] == 300 and r["ci_low"] <= r["win_rate"] <= r["ci_high"] for r in data["wins"])
    png = tmp_path / "b.png"
    res = run("bids", "--players", "3", "--profile", "value x3", "-n", "300", "--format", "csv", "--plot", str(png))
    assert res.output.splitlines()[0].startswith("policy,seat_order,phase,location,value,n,net_coins")
    assert png.stat().st_size > 1000


def test_game_and_sweep_tables():
    res = run("game", "--players", "3", "--profile", "value,greedy,random", "--seed", "4")
    assert res.exit_code == 0 and "=== Day 3" in res.output and "[result]" in res.output
    res = run("sweep", "seats", "--players", "3", "--profile", "value,greedy,random", "-n", "200", "--format", "json",
              "--set", "favour.gold_coins=0;4")
    rows = json.loads(res.output)["rows"]
    assert {r["variant"] for r in rows} == {"baseline", "favour.gold_coins=0", "favour.gold_coins=4"}
    base = [r for r in rows if r["variant"] == "baseline"]
    assert all(r["d_score"] == 0 and not r["moved"] for r in base)
    old = ["--players", "3", "--profile", "value,greedy,random", "-n", "200", "--by-seat", "--set", "favour.gold_coins=0;4"]
    res = run("sweep", *old)   # the former form: one line naming the new one
    assert res.exit_code == 2 and res.output.strip().count("\n") == 0
    assert res.output.startswith("error: `caesar sweep --by-seat ...` is now `caesar sweep seats ...`, the same options "
                                 "without --by-seat: caesar sweep seats --players 3 "), res.output


def test_exploit_default_deviations_match_the_analysis_layer():
    import importlib

    from caesar_sim.cli import strategy
    assert strategy.POLICY_DEVIATIONS == importlib.import_module("caesar_sim.analysis.game.exploit").POLICY_DEVIATIONS
