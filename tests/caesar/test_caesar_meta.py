"""`caesar meta` (payoff table, equilibrium, field files), `reference` in every command, bad input."""

import json
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from caesar_sim.analysis.game.meta import payoff_adapter
from caesar_sim.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_payoff_adapter_shares_sum_to_one_per_game():
    play = payoff_adapter(4, ["tuned", "value", "greedy"])
    for counts in ((2, 1, 1), (0, 3, 1), (4, 0, 0)):
        total, sq, n = play(counts, 60, 3)
        assert list(n) == [60 if c else 0 for c in counts]
        assert sum(c * t for c, t in zip(counts, total)) == pytest.approx(60)   # every game hands out one win
        assert all(t * t <= s * m + 1e-9 for t, s, m in zip(total, sq, n))
    again = play((2, 1, 1), 60, 3)
    assert np.array_equal(again[0], play((2, 1, 1), 60, 3)[0])


def test_meta_writes_a_field_that_simulate_plays(tmp_path):
    pop = tmp_path / "pop.toml"
    pop.write_text('name = "two"\nmembers = ["tuned", "greedy"]\n')
    out = tmp_path / "m"
    out.mkdir()
    (tmp_path / "theirs.csv").write_text("theirs")
    (out / "payoffs.csv").symlink_to(tmp_path / "theirs.csv")   # replaced, not written through
    res = run("meta", "--players", 3, "--population", pop, "-n", 40, "--seed", 2, "--out", out, "--format", "json")
    assert res.exit_code == 0, res.output
    assert not (out / "payoffs.csv").is_symlink() and (tmp_path / "theirs.csv").read_text() == "theirs"
    data = json.loads(res.output)
    assert {r["member"] for r in data["mixture"]} == {"tuned", "greedy"}
    assert sum(r["weight"] for r in data["mixture"]) == pytest.approx(1)
    field = json.loads((out / "field.json").read_text())
    assert field["members"] == ["tuned", "greedy"] and field["command"].startswith("caesar meta ")
    assert (out / "payoffs.csv").exists()
    res = run("simulate", "--players", 3, "--profile", f"field:{out / 'field.json'}", "-n", 30, "--no-favour-value")
    assert res.exit_code == 0 and "each seat's strategy drawn per game" in res.output


@pytest.mark.parametrize("members,msg", [('["tuned", "nope"]', "unknown policy 'nope'"),
                                         ('["tuned"]', "at least 2 strategies"),
                                         ('["tuned", "tuned:temp=0"]', "bad temperature")])
def test_bad_populations_are_one_line_exit_2(tmp_path, members, msg):
    pop = tmp_path / "pop.toml"
    pop.write_text(f"members = {members}\n")
    proc = subprocess.run([sys.executable, "-c", "from caesar_sim.cli import main; main()", "meta", "--population",
                           str(pop), "--players", "3", "-n", "10", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and msg in lines[0] and str(pop) in lines[0], proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_player_count_without_a_shipped_field_is_one_line(monkeypatch):
    import caesar_sim.strategy as game_state
    monkeypatch.setattr(game_state, "shipped_field", lambda package, players: None)
    res = run("simulate", "--players", 4, "--profile", "reference", "-n", 10)
    assert res.exit_code == 2 and "no shipped reference field for 4 players" in res.output
    res = run("simulate", "--players", 6, "--profile", "reference", "-n", 10)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_shipped_fields_record_how_they_were_made(players):
    from caesar_sim.fieldplay import field_play
    play = field_play("reference", players)
    f = play.field
    assert f.game == "caesar" and f.players == players and abs(sum(f.weights) - 1) < 1e-9
    assert f.command.startswith("python scripts/make_caesar_fields.py") and f.payoffs == f"payoffs-{players}p.csv"
    assert len(f.members) >= 2 and len(f.regret) == len(f.members)


@pytest.mark.parametrize("args", [
    ("simulate", "-n", 30, "--no-favour-value"), ("bids", "-n", 30, "--pooled"),
    ("sweep", "-n", 30, "--set", "favour.gold_coins=3"),
    ("exploit", "-n", 30, "--policies", "greedy", "--no-weights", "--no-restricted"),
    ("game",), ("tune", "-n", 6, "--generations", 1, "--lam", 4, "--start", "tuned", "--out", "{tmp}/t.json"),
    ("distill", "--games", 2, "--holdout", 1, "--iterations", 1, "--rollouts", 1, "--out", "{tmp}/d.json"),
])
def test_reference_in_every_command_that_takes_a_profile(args, tmp_path):
    args = [str(a).replace("{tmp}", str(tmp_path)) for a in args]
    flag = {"tune": ["--against", "reference"], "distill": ["--against", "reference"]}.get(args[0],
                                                                                       ["--profile", "reference"])
    res = run(args[0], "--players", 3, *flag, *args[1:])
    assert res.exit_code == 0, res.output
    if args[0] in ("simulate", "bids", "sweep", "exploit"):
        assert "reference field (" in res.output
    default = run(args[0], "--players", 3, *args[1:]) if args[0] in ("simulate", "bids", "sweep", "exploit") else None
    if default is not None:
        assert default.exit_code == 0 and "used when --profile is not given" in default.output
