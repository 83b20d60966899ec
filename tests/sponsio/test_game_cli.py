"""`sponsio game`, `tournament`, `matrix`, `fit` from the command line:
formats, plots, and one-line errors with exit status 2 and no output file."""

import json

import pytest
from click.testing import CliRunner

from sponsio_sim.cli import main
from sponsio_sim.rules import load_rules

PROFILE = "ev:goal:cash4, troll:goal, ev:goal:never, random:random"


def run(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("args,needle", [
    (["game", "--profile", "ev:goal x3"], "--profile has 3 strategies for 4 players"),
    (["game", "--profile", "bet:goal x4"], "unknown betting policy 'bet'"),
    (["game", "--profile", "ev:smart x4"], "unknown play policy 'smart'"),
    (["game", "--profile", "ev:goal:cash12 x4"], "cash12 must be 1..8"),
    (["game", "--profile", "ev:goal:keep x4"], "unknown cash-in policy 'keep'"),
    (["game", "--profile", "random2:goal x4"], "pass share of random must be 0..1"),
    (["game", "--profile", "troll3:goal x4"], "troll takes no parameter"),
    (["game", "--profile", "ev x4"], "expected BETTING:PLAY[:CASH]"),
    (["game", "--profile", "ev:goal,,troll:goal"], "empty strategy"),
    (["game", "--profile", "ev:goal x4", "--set", "colour=3"], "unknown rule key 'colour'"),
    (["game", "--profile", "ev:goal x4", "--model", "/nonexistent.npz"], "no such file"),
    (["tournament", "--profile", "ev:goal x4", "-n", "0"], "-n 0"),
    (["tournament", "--profile", "ev:goal x4", "--players", "5"], "--players 5"),
    (["tournament", "--profile", "ev:goal x4", "--plot", "out.txt"], "name it *.png"),
    (["tournament", "--profile", "ev:goal x4", "--plot", "/nonexistent/out.png"], "does not exist"),
    (["tournament", "--profile", "ev:goal x4", "--format", "xml"], "'xml' is not one of"),
    (["matrix", "--strategies", "ev:goal, nope:goal"], "unknown betting policy 'nope'"),
    (["fit", "-n", "0"], "-n 0"),
    (["fit", "--policy", "smart"], "unknown play policy"),
    (["fit", "--out", "/nonexistent/m.npz"], "--out /nonexistent/m.npz"),
])
def test_bad_input_is_one_line_exit_2(args, needle):
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert needle in err


def test_every_command_has_help_with_an_example():
    for cmd in ("game", "tournament", "matrix", "fit"):
        code, out, _ = run(cmd, "--help")
        assert code == 0 and "Example:" in out and "--seed" in out and "--format" in out


def test_game_table_verbose_and_json():
    code, out, _ = run("game", "--profile", PROFILE, "--seed", "3")
    assert code == 0 and "Game over after round" in out and "coins_before" in out
    assert "betting:" not in out
    code, verbose, _ = run("game", "--profile", PROFILE, "--seed", "3", "--verbose")
    assert code == 0 and "betting:" in verbose and "settlement:" in verbose
    code, out, _ = run("game", "--profile", PROFILE, "--seed", "3", "--format", "json")
    data = json.loads(out)
    assert data["reason"] in ("track", "coins", "rounds") and data["winners"]
    assert data["rounds"][0]["round"] == 1


def test_tournament_formats_and_plot(tmp_path):
    png = tmp_path / "t.png"
    code, out, _ = run("tournament", "--profile", PROFILE, "-n", "480", "--rotate", "--plot", str(png))
    assert code == 0 and "[results]" in out and "[bets]" in out and "[games]" in out and "seats rotate" in out
    assert png.read_bytes()[:4] == b"\x89PNG"
    code, out, _ = run("tournament", "--profile", PROFILE, "-n", "480", "--format", "json")
    data = json.loads(out)
    assert len(data["results"]) == 4 and data["games"][0]["measure"] == "rounds per game"
    code, out, _ = run("tournament", "--profile", PROFILE, "-n", "480", "--format", "csv")
    assert out.startswith("# results\nentry,strategy,seat")


def test_matrix_table_and_heatmap(tmp_path):
    png = tmp_path / "m.png"
    code, out, _ = run("matrix", "--strategies", "ev:goal, troll:goal", "-n", "240", "--plot", str(png))
    assert code == 0 and "[win share of A" in out and "[pairs]" in out
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_fit_writes_model_and_reliability_plot(tmp_path):
    out_file, png = tmp_path / "m.npz", tmp_path / "cal.png"
    code, out, _ = run("fit", "-n", "4000", "--holdout", "2000", "--on-policy", "1", "--games", "240",
                       "--check-games", "240", "--out", str(out_file), "--plot", str(png), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["saved_to"] == str(out_file) and out_file.exists() and png.exists()
    assert data["held-out by bet type"][-1]["bet_type"] == "all"
    assert [r["bet_type"] for r in data["in-game calibration by bet type"]] == list(load_rules().bets)
    assert len(data["on-policy iterations: gap (pp) of the games played with each iteration's model"]) == 2
    code, out, _ = run("tournament", "--profile", "ev:goal x4", "-n", "240", "--model", str(out_file))
    assert code == 0 and str(out_file) in out


def test_strategy_notation_in_the_help_is_what_the_parser_accepts():
    import re

    from tabletop_mc.errors import UserError
    from sponsio_sim.analysis.game.setup import STRATEGY_HELP, parse_strategy
    from sponsio_sim.rules import load_rules

    r = load_rules("standard-4p")
    examples = re.findall(r"e\.g\. (\w+\d(?:\.\d+)?)", STRATEGY_HELP)
    assert {"random0.2", "ev0.5", "cash4"} <= set(examples)
    assert parse_strategy("random0.2:greedy", r).param == 0.2
    assert parse_strategy("ev0.5:goal:cash4", r).text == "ev0.5:goal:cash4"
    with pytest.raises(UserError, match="random0.2"):
        parse_strategy("random[0.2]:greedy", r)
