"""`sponsio odds` from the command line: output formats and one-line errors."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from sponsio_sim.cli import main

HAND = "R9 R7 R2 B8 B5 G6 G1 Y3"
TALON = "R1 B9 G4 Y7"


def run(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("args,needle", [
    (["--hand", "R9 R7 R2 B8 B5 G6 G1 X3"], "unknown card 'X3'"),
    (["--hand", "R9 R7 R2 B8 B5 G6 G1 R9"], "listed twice"),
    (["--hand", "R9 R7 R2 B8 B5 G6 G1"], "has 7 cards"),
    (["--hand", HAND, "--talon", "R1 B9 G4"], "talon of 4"),
    (["--hand", HAND, "--talon", "R9 B9 G4 Y7"], "R9 is both in --hand and --talon"),
    (["--hand", HAND, "--revealed", "1:R7"], "R7 of seat 1 is also in --hand"),
    (["--hand", HAND, "--talon", TALON, "--revealed", "1:B9"], "also in --talon"),
    (["--hand", HAND, "--revealed", "1:G9; 2:G9"], "G9 of seat 2 is also in --revealed seat 1"),
    (["--hand", HAND, "--revealed", "1:G9 G8 G7 G5 G4 G3 G2 B1 B2"], "shows 9 cards but holds only 8"),
    (["--hand", HAND, "--revealed", "0:G9"], "asking seat"),
    (["--hand", HAND, "--bets", "trix=2"], "unknown bet 'trix=2'"),
    (["--hand", HAND, "--bets", "tricks=9"], "tricks must be 0..8"),
    (["--hand", HAND, "--bets", "tricks=2,tricks=3"], "two 'tricks' bets"),
    (["--hand", HAND, "--bets", "colour:P=2"], "unknown colour P"),
    (["--hand", HAND, "--bets", "fail:0"], "cannot bet on its own failure"),
    (["--hand", HAND, "--seat", "4"], "--seat: seat 4 out of range 0..3"),
    (["--hand", HAND, "--lead", "-1"], "--lead: seat -1 out of range"),
    (["--hand", HAND, "--others", "0:tricks=1"], "asking seat"),
    (["--hand", HAND, "--others", "5:tricks=1"], "seat 5 out of range"),
    (["--hand", HAND, "--policy", "clever"], "unknown play policy 'clever'"),
    (["--hand", HAND, "--players", "3"], "card 'Y3' does not exist with colours RBG"),
    (["--hand", HAND, "--players", "5"], "standard rule sets exist for 3 and 4 players"),
    (["--hand", HAND, "--set", "multiplier.lst=3"], "unknown rule key 'multiplier.lst'"),
    (["--hand", HAND, "--set", "hand_size=20"], "need more than the 36-card deck"),
    (["--hand", HAND, "--rules", "nosuch"], "unknown rule set 'nosuch'"),
    (["--hand", HAND, "-n", "0"], "at least 1"),
    (["--hand", HAND, "--target-ci", "2"], "between 0 and 1"),
    (["--hand", HAND, "--format", "xml"], "xml"),
    (["--talon", TALON], "--hand"),
])
def test_bad_input_is_one_line_exit_2(args, needle):
    code, out, err = run("odds", *args)
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert needle in lines[0]


def test_broken_rule_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("players = [\n")
    code, out, err = run("odds", "--hand", HAND, "--rules", str(bad))
    assert code == 2 and out == "" and "not valid TOML" in err and len(err.strip().splitlines()) == 1
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(open(__import__("sponsio_sim.rules", fromlist=["x"]).__path__[0] + "/standard-4p.toml")
                     .read().replace("troll_pay = 2", "troll_pay = -2"))
    code, out, err = run("odds", "--hand", HAND, "--rules", str(wrong))
    assert code == 2 and "'troll_pay' must be an integer 0..1,000, got -2" in err


def test_json_output_keys_and_values():
    code, out, err = run("odds", "--hand", HAND, "--talon", TALON, "--bets", "tricks=2,last",
                         "-n", "3000", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [r["bet"] for r in rows] == ["tricks=2", "last", "all:tricks=2,last"]
    for r in rows[:2]:
        assert set(r) == {"bet", "n", "p", "ci_low", "ci_high", "multiplier", "ev", "fair_multiplier"}
        assert r["n"] == 3000 and r["ci_low"] <= r["p"] <= r["ci_high"]


def test_csv_and_table_output():
    code, out, _ = run("odds", "--hand", HAND, "--talon", TALON, "--bets", "nines", "-n", "1000",
                       "--format", "csv")
    assert code == 0
    assert out.splitlines()[0] == "bet,n,p,ci_low,ci_high,multiplier,ev,fair_multiplier"
    code, out, _ = run("odds", "--hand", HAND, "--bets", "nines", "-n", "1000", "--seed", "3")
    assert code == 0 and "talon unknown" in out and "95% Wilson" in out and "nines" in out


def test_help_has_example():
    code, out, _ = run("odds", "--help")
    assert code == 0 and "Example:" in out and "sponsio odds hand --hand" in out and "sponsio odds state" in out
    for job in ("hand", "state"):
        code, out, _ = run("odds", job, "--help")
        assert code == 0 and "Example:" in out and f"sponsio odds {job} --" in out and "--seed" in out, job


def test_odds_splits_into_one_job_per_subcommand():
    """`odds hand` takes the hand's options and `odds state` the table state's: neither takes the other's
    own options, so no combination needs a check of its own."""
    import inspect
    from sponsio_sim.cli.advise import advise_cmd
    from sponsio_sim.cli.odds import odds_cmd
    hand, state = (odds_cmd.commands[job] for job in ("hand", "state"))
    opts = {cmd: {o for p in cmd.params for o in p.opts + p.secondary_opts} for cmd in (hand, state)}
    assert {"--lead", "--revealed", "--others", "--policy", "--opponents", "--target-ci", "--workers"} <= opts[hand]
    assert {"--state", "--dealer", "--history", "--tricks", "--play", "--open", "--no-infer"} <= opts[state]
    assert not ({"--lead", "--revealed", "--others", "--policy", "--opponents", "--target-ci", "--workers"}
                & opts[state])
    assert not ({"--state", "--dealer", "--history", "--tricks", "--play", "--open", "--no-infer"} & opts[hand])
    for cmd in (hand, state, advise_cmd):   # the options reach the function as a few objects
        assert len(inspect.signature(cmd.callback).parameters) < 10, cmd.name


def test_odds_without_a_subcommand_is_odds_hand():
    args = ["--hand", HAND, "--talon", TALON, "--bets", "nines", "-n", "300", "--seed", "3"]
    code, out, err = run("odds", *args)
    assert code == 0, err
    assert (code, out) == run("odds", "hand", *args)[:2]
    code, out, err = run("odds", *args, "--format", "json")
    meta = json.loads(out)["meta"]
    assert meta["command"] == "sponsio odds hand"
    assert {"hand", "talon", "seat", "lead", "bets", "policy", "opponents", "worlds", "seed"} <= set(meta["options"])


@pytest.mark.parametrize("args,option", [
    (["--state", "tricks.txt", "--seat", "0"], "--state"),
    (["--hand", HAND, "--talon", TALON, "--dealer", "3", "--history", "0: pass"], "--dealer"),
    (["--hand", HAND, "--history", "0: pass", "--dealer", "3"], "--history"),
    (["--hand", HAND, "--tricks", "trick 1: seat 0 leads B6"], "--tricks"),
    (["--hand", HAND, "--play", "dd"], "--play"),
    (["--hand", HAND, "--no-infer"], "--no-infer"),
])
def test_the_old_state_forms_are_one_line_naming_the_new_form(args, option):
    import shlex
    code, out, err = run("odds", *args)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: `sponsio odds {option} ...` is now `sponsio odds state {option} ...`"), err
    assert err.strip().endswith(": sponsio odds state " + shlex.join(args)), err


def test_the_new_form_an_old_state_form_names_runs():
    import shlex
    args = ["--hand", HAND, "--talon", TALON, "--dealer", "3", "--history", "0: pass", "--bets", "tricks=2",
            "-n", "50", "--format", "csv"]
    code, _, err = run("odds", *args)
    assert code == 2
    new = shlex.split(err.strip().split("the same options: ", 1)[1])
    assert new[:3] == ["sponsio", "odds", "state"]
    code, out, err = run(*new[1:])
    assert code == 0 and out.startswith("bet,n,n_eff,p,"), err


def test_console_script_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "sponsio_sim.cli", "odds", "--hand", "R0"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().startswith("error: ") and "Traceback" not in proc.stderr


def test_a_fail_bet_waiting_on_a_cycle_wins_when_its_target_fails():
    """Seat 0's fail:1, placed first, waits on the cycle of seats 1 and 2 without being on it:
    the cycle breaks at its own earliest bet (seat 1's), so seat 1 fails and the bet always wins
    (it lost every time when the engine broke seat 0's bet first). The same bet placed after the
    cycle's bets: tests/sponsio/test_trick_advise.py."""
    code, out, err = run("odds", "--hand", "R9 R7 R2 B8 B5 G6 G1 Y3", "--others", "1:fail:2; 2:fail:1",
                         "--bets", "fail:1", "-n", "400", "--format", "json")
    assert code == 0, err
    row, = json.loads(out)["rows"]
    assert (row["bet"], row["n"], row["p"]) == ("fail:1", 400, 1.0)
