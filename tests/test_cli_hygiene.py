"""CLI hygiene: bad input of every kind is one line, exit 2, before any work.

The table below holds the bad-input probes of both CLIs; every one must fail
before a kernel runs, so the whole table takes a second or two.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from caesar_sim.cli import main as caesar
from sponsio_sim.cli import main as sponsio

HAND = "R9 R7 R2 B8 B5 G6 G1 Y3"
PROFILE = "ev:goal:cash4, troll:goal, ev:goal:never, random:random"
CLIS = {"sponsio": sponsio, "caesar": caesar}


def run(cli, *args):
    result = CliRunner().invoke(CLIS[cli], [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def afile(tmp_path_factory):
    path = tmp_path_factory.mktemp("paths") / "afile"
    path.write_text("not a folder")
    return path


BAD = [
    # 1. seeds: any integer is fine, but it must be an integer
    ("sponsio", ["odds", "--hand", HAND, "--seed", "1.5"], "--seed '1.5': not an integer"),
    ("sponsio", ["tournament", "--profile", PROFILE, "--seed", "٣"], "--seed '٣': not an integer"),
    ("caesar", ["simulate", "--seed", "x"], "--seed 'x': not an integer"),
    # 2. output paths that exist but cannot be written, checked before the simulation
    ("sponsio", ["tournament", "--profile", PROFILE, "--plot", "/proc/x.png"], "cannot write in /proc"),
    ("sponsio", ["matrix", "--strategies", "troll:goal, random:random", "--plot", "{afile}/x.png"],
     "is not a directory"),
    ("sponsio", ["fit", "--out", "{afile}/x.npz"], "is not a directory"),
    ("sponsio", ["fit", "--out", "/proc/x.npz"], "cannot write in /proc"),
    ("sponsio", ["balance", "--out", "{afile}/x"], "is not a directory"),
    ("sponsio", ["balance", "--out", "{afile}"], "is a file"),
    ("sponsio", ["balance", "--out", "/nope/dir/x"], "does not exist (only the last folder is created)"),
    ("caesar", ["bids", "--plot", "/proc/x.png"], "cannot write in /proc"),
    ("caesar", ["simulate", "--plot", "x.jpg"], "name it *.png"),
    # 3. counts beyond what can run, said with the limit
    ("sponsio", ["odds", "--hand", HAND, "-n", "1e20"], "-n '1e20': not an integer"),
    ("sponsio", ["odds", "--hand", HAND, "-n", str(10**20)], "must be at most 1,000,000,000,000"),
    ("sponsio", ["tournament", "--profile", PROFILE, "-n", "0"], "-n 0: must be at least 1"),
    ("caesar", ["simulate", "-n", str(10**8)], "at most 10,000,000 (every game's scores are kept"),
    # 4. player counts
    ("sponsio", ["odds", "--hand", HAND, "--set", "players=5"], "5 hands of 8 need more than the 36-card deck"),
    ("sponsio", ["odds", "--hand", HAND, "--players", "5"], "--set players=5 --set hand_size=7"),
    ("sponsio", ["odds", "--hand", HAND, "--players", "9"], "a rule set may have 2..6"),
    ("caesar", ["simulate", "--players", "6"], "3..5 players"),
    # 5. NaN and inf, thread and worker counts, empty bets, non-ASCII digits
    ("sponsio", ["odds", "--hand", HAND, "--set", "multiplier.last=nan"], "must be a number 0..1,000, got nan"),
    ("sponsio", ["odds", "--hand", HAND, "--set", "multiplier_param.tricks.2=inf"], "got inf"),
    ("sponsio", ["odds", "--hand", HAND, "--set", "multiplier.fail=-inf"], "got -inf"),
    ("caesar", ["simulate", "--set", "favour.gold_coins=nan"], "must be an integer 0..1,000, got nan"),
    ("sponsio", ["odds", "--hand", HAND, "--threads", "0"], "must be at least 1"),
    ("sponsio", ["odds", "--hand", HAND, "--threads", "-3"], "must be at least 1"),
    ("caesar", ["simulate", "--threads", "0"], "must be at least 1"),
    ("sponsio", ["odds", "--hand", HAND, "--workers", "0"], "must be at least 1"),
    ("sponsio", ["odds", "--hand", HAND, "--bets", ""], "names nothing"),
    ("sponsio", ["odds", "--hand", HAND, "--bets", ",,,"], "names nothing"),
    ("sponsio", ["odds", "--hand", HAND, "--others", " ; "], "names nothing"),
    ("sponsio", ["odds", "--hand", HAND, "--bets", "tricks=٣"], "non-ASCII character '٣'"),
    ("sponsio", ["odds", "--hand", "R9 R7 R2 B8 B5 G6 G1 Y٣"], "non-ASCII"),
    ("sponsio", ["odds", "--hand", HAND, "-n", "２０００"], "not an integer"),
    ("sponsio", ["recommend", "--rp-band", "nan..1"], "must be finite numbers"),
    # balance, recommend and sweep: the criterion's bands, the search space, the levers
    ("sponsio", ["balance", "--rp-band", "0.05..0.01"], "LOW must be below HIGH"),
    ("sponsio", ["balance", "--share-band", "sixes=0..1"], "not a bet type"),
    ("sponsio", ["balance", "--profile", "ev:goal x3"], "--profile has 3 strategies for 4 players"),
    ("sponsio", ["recommend", "--range", "7..2"], "LOW <= HIGH"),
    ("sponsio", ["recommend", "--param", "colour N=12"], "multiplier_param.colour.12"),
    ("sponsio", ["recommend", "--param", "last N=1"], "TYPE N=VALUE"),
    ("sponsio", ["recommend", "--only", "sixes"], "not a bet type"),
    ("sponsio", ["recommend", "--troll-band", "0.5..0.1"], "LOW must be below HIGH"),
    ("sponsio", ["recommend", "--screen-n", "0"], "must be at least 1"),
    ("sponsio", ["recommend", "--lever", "hand_size=7"], "changes the deal"),
    ("sponsio", ["sweep", "--lever", "troll_pay=-1..1"], "must be an integer 0..1,000"),
    ("sponsio", ["sweep", "--lever", "nosuch=1..2"], "unknown rule key 'nosuch'"),
    ("sponsio", ["sweep", "--players", "x"], "--players 'x'"),
    ("sponsio", ["sweep", "--players", "5"], "--players 5"),
    ("caesar", ["simulate", "--profile", "value x٤"], "non-ASCII"),
    # sponsio advise: the table state
    ("sponsio", ["advise"], "give --state FILE or --hand"),
    ("sponsio", ["advise", "--state", "/nonexistent/state.txt"], "--state /nonexistent/state.txt: cannot read (No such file or directory)"),
    ("sponsio", ["advise", "--hand", HAND, "--talon", "R1 B9 G4 Y7"], "no dealer"),
    ("sponsio", ["advise", "--hand", HAND, "--talon", "R1 B9 G4", "--dealer", "3"], "the talon has 3 cards"),
    ("sponsio", ["advise", "--hand", HAND, "--talon", "R9 B9 G4 Y7", "--dealer", "3"], "both in seat 0's hand"),
    ("sponsio", ["advise", "--hand", HAND, "--talon", "R1 B9 G4 Y7", "--dealer", "3", "--history",
                 "0: reveal R9, bet tricks=9"], "tricks must be 0..8"),
    ("sponsio", ["advise", "--hand", HAND, "--talon", "R1 B9 G4 Y7", "--dealer", "3", "--history",
                 "0: reveal B1, take lead; 1: pass; 2: reveal Y1, take lead"], "lead token is already taken"),
    ("sponsio", ["advise", "--hand", HAND, "--talon", "R1 B9 G4 Y7", "--dealer", "3", "--seat", "2"],
     "seat 2 does not act now: seat 0 does"),
    ("sponsio", ["advise", "--hand", HAND, "--talon", "R1 B9 G4 Y7", "--dealer", "3", "--assume", "troll"],
     "inference needs a betting policy"),
    ("sponsio", ["advise", "--hand", HAND, "--talon", "R1 B9 G4 Y7", "--dealer", "3", "--tremble", "0"],
     "--tremble 0: must be in (0, 1]"),
    ("sponsio", ["advise", "--hand", HAND, "--talon", "R1 B9 G4 Y7", "--dealer", "3", "--coins", "10,10"],
     "--coins: give 4 values"),
    # 7. rule files and overrides
    ("sponsio", ["rules", "show", "--set", "multiplier.lst=3"], "unknown rule key 'multiplier.lst'"),
    ("sponsio", ["rules", "show", "--set", "track_value.4=7"], "--set track_value.4: 'track_value' is a list, not a "
     "table of keys: set it whole, e.g. --set track_value=[0, 1, 2, 4, 6, 9, 12, 16, 20]"),
    ("sponsio", ["odds", "--set", "bets=[]", "--hand", HAND, "-n", "200"], "'bets' names no bet type: a round "
     "without bets has nothing to play for (name at least one of tricks, colour, last, nines, fail, first)"),
    ("sponsio", ["odds", "--set", "bets=[]", "--hand", HAND, "-n", "200", "--policy", "dd"], "'bets' names no bet "
     "type"),
    ("sponsio", ["sweep", "--players", "4", "--lever", "track_value.scale=nan", "-n", "200", "--profile",
                 "ev:goal:cash4 x4"], "--lever 'track_value.scale=nan': values must be finite numbers"),
    ("sponsio", ["sweep", "--players", "4", "--lever", "track_value.scale=inf", "-n", "200", "--profile",
                 "ev:goal:cash4 x4"], "--lever 'track_value.scale=inf': values must be finite numbers"),
    ("sponsio", ["tournament", "--profile", "field:{caesarfield}", "-n", "10"], "a caesar field, not a sponsio one"),
    ("caesar", ["rules", "show", "--rules", "nosuch"], "unknown rule set 'nosuch'"),
]


@pytest.mark.parametrize("cli,args,needle", BAD, ids=[" ".join(map(str, a))[:60] for _, a, _ in BAD])
def test_bad_input_is_one_line_exit_2_before_any_work(cli, args, needle, afile, monkeypatch):
    # A kernel run would be "work": make any simulation fail loudly instead.
    # (class attributes: every module's reference sees the patch, and it is undone after)
    import tabletop_mc.backend
    for backend in (tabletop_mc.backend.LocalBackend, tabletop_mc.backend.DaskBackend):
        monkeypatch.setattr(backend, "run_batch", lambda *a, **k: pytest.fail("work started"))
    from importlib import resources
    caesar_field = resources.files("caesar_sim.fields").joinpath("reference-4p.json")
    args = [a.replace("{afile}", str(afile)).replace("{caesarfield}", str(caesar_field)) for a in args]
    code, out, err = run(cli, *args)
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert needle in lines[0], lines[0]


def test_balance_out_creates_no_parents(tmp_path):
    code, _, err = run("sponsio", "balance", "--out", tmp_path / "a" / "b", "-n", "0")
    assert code == 2 and not (tmp_path / "a").exists()


@pytest.mark.parametrize("cli,args", [
    ("sponsio", ["odds", "--hand", HAND, "--bets", "tricks=2", "-n", "500", "--format", "json"]),
    ("caesar", ["simulate", "-n", "50", "--no-favour-value", "--format", "json"]),
])
def test_any_integer_is_a_seed(cli, args):
    """Negative and beyond-64-bit seeds run, and different seeds give different streams."""
    outputs = {}
    for seed in (-1, 2**64, 2**64 - 1, 1):
        code, out, err = run(cli, *args, "--seed", seed)
        assert code == 0, err
        outputs[seed] = _without_meta(out)
    assert len(set(outputs.values())) == 4
    code, again, _ = run(cli, *args, "--seed", -1)
    assert _without_meta(again) == outputs[-1]


def _without_meta(out: str) -> str:
    data = json.loads(out)
    return json.dumps({k: v for k, v in data.items() if k != "meta"} if isinstance(data, dict) else data)


def test_seed_key_maps_every_integer():
    from tabletop_mc.rng import seed_key
    assert seed_key(5) == 5 and seed_key(2**64 - 1) == 2**64 - 1
    keys = {int(seed_key(s)) for s in (-1, -2, 2**64, 2**64 + 1, 10**40, -(10**40))}
    assert len(keys) == 6 and all(0 <= k < 2**64 for k in keys)


def test_run_chunked_allocates_per_batch_not_per_round():
    from tabletop_mc.runner import run_chunked
    seen = []

    def batch(first, counts):
        seen.append(len(counts))
        return counts[:, None].astype(float)

    res = run_chunked(batch, 10**11, chunk_size=512, stop=lambda totals, done: done >= 4096)
    assert res.rounds == 4096 and max(seen) <= 8


def test_set_players_is_not_blamed_on_players_option():
    code, _, err = run("sponsio", "odds", "--hand", HAND, "--set", "players=5")
    assert code == 2 and "--players" not in err
    code, out, err = run("sponsio", "rules", "show", "--set", "players=5", "--set", "hand_size=7")
    assert code == 0 and "players = 5" in out and "hand_size = 7" in out


def test_nan_in_a_rule_file_and_every_problem_at_once(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "standard-4p"\ntroll_pay = -1\nplayers = 9\n[multiplier]\nlast = nan\n')
    code, out, err = run("sponsio", "rules", "show", "--rules", bad)
    assert code == 2 and out == ""
    line = err.strip()
    assert "3 problems" in line and "'troll_pay' must be an integer 0..1,000, got -1" in line
    assert "'players' must be an integer 2..6, got 9" in line and "got nan" in line
    cbad = tmp_path / "cbad.toml"
    cbad.write_text('extends = "standard"\ndays = 0\n[favour]\ngold = -1\nlucky = 2\n')
    code, _, err = run("caesar", "rules", "show", "--rules", cbad)
    assert code == 2 and "3 problems" in err and "favour.lucky" in err and "'days'" in err


def test_partial_rule_file_extends_a_shipped_set(tmp_path):
    from sponsio_sim.rules import load_rules
    part = tmp_path / "cheap-last.toml"
    part.write_text('extends = "standard-4p"\ntroll_pay = 3\n[multiplier]\nlast = 5\n')
    rs = load_rules(str(part))
    base = load_rules("standard-4p")
    assert rs.multiplier["last"] == 5 and rs.troll_pay == 3 and rs.multiplier["tricks"] == base.multiplier["tricks"]
    assert rs.name == "cheap-last (extends standard-4p)"
    # rules show prints the effective set as TOML that loads back to the same rule set
    code, out, err = run("sponsio", "rules", "show", "--rules", part, "--set", "round_bonus=4")
    assert code == 0, err
    assert "changed by --set: round_bonus" in out
    full = tmp_path / "full.toml"
    full.write_text(out)
    again = load_rules(str(full))
    assert again.as_dict() == dict(rs.as_dict(), round_bonus=4)
    from caesar_sim.rules import load_rules as caesar_rules
    cpart = tmp_path / "gold.toml"
    cpart.write_text('extends = "standard"\n[favour]\ngold_coins = 3\n')
    assert caesar_rules(str(cpart)).gold_coins == 3


def test_rules_list_names_the_shipped_sets():
    code, out, _ = run("sponsio", "rules", "list")
    assert code == 0 and "rules standard-3p:" in out and "rules standard-4p:" in out
    code, out, _ = run("caesar", "rules", "list")
    assert code == 0 and out.startswith("rules standard")
    code, out, _ = run("caesar", "rules", "show", "--set", "favour.gold=4")
    assert code == 0 and "gold = 4" in out and "changed by --set: favour.gold" in out


def test_set_help_is_per_game():
    _, caesar_help, _ = run("caesar", "simulate", "--help")
    _, sweep_help, _ = run("caesar", "sweep", "--help")
    _, sponsio_help, _ = run("sponsio", "odds", "hand", "--help")
    assert "multiplier.last" not in caesar_help and "favour.gold_coins=3" in caesar_help
    assert "multiplier.last=3" in sponsio_help
    assert '--set "favour.gold_coins=1;3"' in sweep_help


def test_late_write_failure_keeps_the_result(tmp_path, monkeypatch):
    """The path was fine up front but writing fails at the end: the table is printed, exit 1."""
    import tabletop_mc.plotfile
    monkeypatch.setattr(tabletop_mc.plotfile.os, "replace", lambda *a: (_ for _ in ()).throw(OSError(28, "No space")))
    code, out, err = run("caesar", "simulate", "-n", "40", "--no-favour-value", "--plot", tmp_path / "s.png")
    assert code == 1 and "[wins]" in out
    assert err.strip().count("\n") == 0 and "results above are complete" in err
    assert list(tmp_path.iterdir()) == []


def test_plots_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        code, _, err = run("caesar", "simulate", "-n", "40", "--no-favour-value", "--plot", tmp_path / "s.png")
    finally:
        os.umask(old)
    assert code == 0, err
    assert (tmp_path / "s.png").stat().st_mode & 0o777 == 0o644


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT")
def test_ctrl_c_under_dask_is_one_line(tmp_path):
    """Ctrl-C once the run is under way on the Dask worker (its first finished batch is on disk: a
    state, not a moment in time), to the whole process group as a terminal sends it."""
    pytest.importorskip("distributed")
    cmd = [sys.executable, "-m", "sponsio_sim", "balance", "--profile", PROFILE, "-n", "50000000", "--workers", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path)),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 900
    while proc.poll() is None and time.time() < deadline and not list(tmp_path.rglob("*.batch")):
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()[1][-2000:]
    deadline = time.time() + 300
    while proc.poll() is None and time.time() < deadline:
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
        time.sleep(2)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert out == b"" and err.decode().strip() == "aborted (interrupted)"


@pytest.mark.parametrize("module,prog", [("sponsio_sim", "sponsio"), ("caesar_sim", "caesar")])
def test_version_and_python_m(module, prog):
    from importlib.metadata import version
    code, out, _ = run(prog, "--version")
    assert code == 0 and out.strip() == f"{prog} {version('sponsio-sim')}"
    proc = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == out.strip()
    proc = subprocess.run([sys.executable, "-m", module, "rules", "list"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("rules standard")


@pytest.mark.parametrize("module", ["sponsio_sim.cli", "caesar_sim.cli"])
def test_cli_start_up_imports_no_numerics(module):
    """`--help` and `--version` must start quickly: the CLI modules
    import click alone; numpy, pandas, numba and matplotlib come with the command that runs."""
    code = (f"import sys\nimport {module} as m\ntry:\n    m.main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(k for k in ('numpy', 'pandas', 'numba', 'matplotlib') if k in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("cli", [sponsio, caesar], ids=["sponsio", "caesar"])
def test_lazy_commands_list_the_help_their_docstrings_give(cli):
    """The group's --help reads each lazy command's short help from its
    module's source; loaded, the command says the same."""
    import inspect

    import click
    from tabletop_mc.clitools import source_help
    for name, module in cli.lazy.items():
        listed = click.Command(name, help=source_help(module, name)).get_short_help_str(60)
        cmd = cli.get_command(None, name)   # imports the module
        assert inspect.cleandoc(cmd.help) == source_help(module, name) and cmd.get_short_help_str(60) == listed, name
    assert set(cli.list_commands(None)) == set(cli.commands)


def test_caesar_cli_horizons_are_the_profiles():
    from caesar_sim.cli.options import HORIZONS
    from caesar_sim.profile import HORIZONS as PROFILE_HORIZONS
    assert HORIZONS == PROFILE_HORIZONS


# ---- standard output that cannot take the output: one line, exit 1, never a traceback -----------------------

def _stdout_to(target: str, *cmd: str) -> tuple[int, str]:
    """Run ``cmd`` with its standard output on ``target``: full (/dev/full), closed (>&-) or a pipe whose
    reader has gone; (exit status, stderr)."""
    if target == "full":
        with open("/dev/full", "w") as full:
            proc = subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE, text=True)
        return proc.returncode, proc.stderr
    if target == "closed":
        proc = subprocess.run(cmd, stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1))
        return proc.returncode, proc.stderr
    r, w = os.pipe()
    os.close(r)   # the reader has gone before anything is written
    proc = subprocess.run(cmd, stdout=w, stderr=subprocess.PIPE, text=True)
    os.close(w)
    return proc.returncode, proc.stderr


FULL = "error: cannot write to standard output (No space left on device): the output is incomplete"
GONE = "error: cannot write to standard output (its reader closed the pipe): the output is incomplete"
CLOSED = "error: standard output is closed: there is nowhere to print the results (give it a file or a pipe)"


@pytest.mark.parametrize("target,cmd,expected", [
    ("full", ["sponsio", "--help"], FULL),
    ("full", ["caesar", "rules", "show", "--help"], FULL),
    ("full", ["sponsio", "odds", "--hand", HAND, "-n", "200"], FULL),
    ("full", ["caesar", "simulate", "-n", "100"], FULL),
    ("closed", ["sponsio", "odds", "--hand", HAND, "-n", "200"], CLOSED),
    ("closed", ["caesar", "rules", "list"], CLOSED),
    ("gone", ["sponsio", "rules", "show"], GONE),
    ("gone", ["sponsio", "--help"], GONE),
], ids=lambda v: v if isinstance(v, str) and len(v) < 10 else None)
def test_stdout_that_cannot_take_the_output_is_one_line_and_exit_1(target, cmd, expected):
    code, err = _stdout_to(target, *cmd)
    assert code == 1 and err.strip() == expected, (code, err[-2000:])


@pytest.mark.parametrize("cli", ["sponsio", "caesar"])
def test_rules_commands_take_format(cli):
    code, out, _ = run(cli, "rules", "show", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["meta"]["command"] == f"{cli} rules show" and data["rules"]["name"] == data["name"]
    code, out, _ = run(cli, "rules", "show", "--format", "csv")
    assert code == 0 and out.splitlines()[0] == "field,value" and out.splitlines()[1].startswith("name,")
    code, out, _ = run(cli, "rules", "list", "--format", "json")
    assert code == 0 and [r["name"] for r in json.loads(out)["rows"]]
    code, out, _ = run(cli, "rules", "show")
    assert code == 0 and out.startswith("# effective rule set")
