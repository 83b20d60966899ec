"""`sponsio table`: a session's answers are the one-shot commands' for the
same state and seeds, bad lines change nothing, and a real terminal (tmux)
drives one whole narrated round."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid

import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.advise.session import Question, Session
from sponsio_sim.analysis.game.narrate import narrate_game
from sponsio_sim.cli import main
from sponsio_sim.cli.table import PROMPT, _render, check_option
from sponsio_sim.rules import load_rules

RULES = load_rules(None, 4)


@pytest.fixture(scope="module")
def round1():
    """Round 1 of `sponsio game --profile reference --seed 3 --verbose`: its lines, and its trick cards in order."""
    from importlib import resources
    model = str(resources.files("sponsio_sim.models").joinpath("standard-4p.npz"))
    g = narrate_game("ev0.5:goal:cash3 x4", seed=3, rules=RULES, model=model)   # the game
    lines = g.text.split("Round 2:")[0].splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Round 1:"))
    setup = [ln.strip() for ln in lines[start:] if ln.strip().startswith(("Round 1", "seat 0 (", "talon:"))]
    betting = [ln.strip() for ln in lines if ln.strip().startswith(("turn ", "end of betting"))]
    cards = [c["card"] for e in g.events if e["round"] == 1 and e["event"] == "trick" for c in e["cards"]]
    return setup, betting, cards


def oneshot(command: str) -> dict:
    args = shlex.split(command)[1:] + ["--format", "json"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, (command, r.stderr)
    return json.loads(r.stdout)


def same(a: dict, b: dict) -> None:
    """Two answers agree: every table row, and the advice's words."""
    for key in ("rows", "actions"):
        assert a.get(key) == b.get(key), key
    assert a["meta"].get("advice") == b["meta"].get("advice")


def ask(s: Session, line: str) -> dict:
    q = s.handle(line)
    assert isinstance(q, Question)
    return json.loads(_render(s, s.ask(q), line, "json"))


def test_session_answers_are_the_one_shot_commands(round1):
    setup, betting, cards = round1
    s = Session(RULES, seat=0, check_option=check_option)
    for line in setup + betting:
        s.handle(line)
    for k, card in enumerate(cards[:18]):
        if k in (0, 6, 17):
            a = ask(s, "odds -n 300 --seed 4")
            same(a, oneshot(a["meta"]["same_as"]))
        if k in (4, 16) or s.where().endswith("seat 0 plays") and k < 12:
            a = ask(s, "advise -n 200")
            same(a, oneshot(a["meta"]["same_as"]))
            assert a["meta"]["same_as"].startswith("sponsio advise") and "--seed 1" in a["meta"]["same_as"]
        if k == 16:
            a = ask(s, "advise -n 20 --play dd")
            same(a, oneshot(a["meta"]["same_as"]))
        s.handle(f"trick: {card}")


def test_bad_lines_change_nothing(round1):
    setup, betting, cards = round1
    s = Session(RULES, seat=0, check_option=check_option)
    for line in setup + betting:
        s.handle(line)
    for c in cards[:6]:
        s.handle(f"trick: {c}")
    before = s.show()
    # trick 2 so far: Y1 (seat 0), Y6 (seat 1); seat 2 is to play
    for bad, needle in [("trick: Y1", "Y1 is played twice"),
                        ("trick: R9", "seat 2 plays R9, which is in seat 0's hand"),
                        ("trick: G1 Y4 R4 Y2", "seat 2 plays G1 to trick 2, led Y, but holds Y2 (plays it in trick 3)"),
                        ("trick 3: seat 2 leads R7", "this is trick 2 (its card 3), not trick 3"),
                        ("3: pass", "the history has 17 betting actions"),
                        ("hand R9 R5", "a round is in progress"),
                        ("odds -n many", "-n 'many': not an integer"),
                        ("advise", "you are seat 0 and seat 2 plays now: type its card (trick: CARD) and ask "
                                   "again, or ask with --seat 2 for its view"),
                        ("fold", "cannot read 'fold'")]:
        with pytest.raises(UserError, match=re.escape(needle)):
            out = s.handle(bad)
            if isinstance(out, Question):
                s.ask(out)
        assert s.show() == before
    rest = cards[6:]
    for c in rest:
        s.handle(f"trick: {c}")
    assert s.where().startswith("every trick played")
    with pytest.raises(UserError, match="32 cards played|33 cards played"):
        s.handle("trick: R3")
    assert s.handle("undo").startswith("undone") and s.where().startswith("trick 8")


def _tmux(sock, *args):
    return subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True, check=False)


def _answers(sock):
    """The answers the pane holds whole, and its text. An answer is one JSON line; it counts once
    the session's next prompt follows it (the session prompts only after writing the whole answer),
    so a line still being drawn is never read."""
    pane = _tmux(sock, "capture-pane", "-p", "-J", "-S", "-100000", "-t", "t").stdout
    lines = pane.splitlines()
    last_prompt = max((i for i, ln in enumerate(lines) if ln.startswith(PROMPT)), default=-1)
    answers = [json.loads(ln) for ln in lines[:last_prompt] if ln.startswith("{")]
    return [a for a in answers if "meta" in a], pane


def _wait_for(sock, text, timeout=900):
    """Until ``text`` is in the pane (a whole line the session wrote), or fail with the pane's end."""
    end = time.time() + timeout
    while text not in _answers(sock)[1]:
        assert time.time() < end, _answers(sock)[1][-2000:]
        time.sleep(0.2)


def test_a_terminal_session_through_one_whole_round(round1, tmp_path):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: the terminal session test needs it (.ci/run installs it with apt-get)")
    setup, betting, cards = round1
    sock = f"sponsio-test-{uuid.uuid4().hex[:8]}"
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in os.environ.items()
                   if k in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PATH", "HOME", "SPONSIO_MODEL_DIR"))
    cmd = f"env {env} {shlex.quote(sys.executable)} -m sponsio_sim table --seat 0 --format json"
    conf = tmp_path / "tmux.conf"
    conf.write_text("set -g history-limit 500000\n")   # every answer stays in the pane's history
    _tmux(sock, "-f", str(conf), "new-session", "-d", "-s", "t", "-x", "250", "-y", "50", cmd)
    expected = []

    def send(line, wait_answer=False, timeout=900):
        have = len(_answers(sock)[0])
        _tmux(sock, "send-keys", "-t", "t", "-l", line)
        _tmux(sock, "send-keys", "-t", "t", "Enter")
        if wait_answer:
            end = time.time() + timeout
            while len(_answers(sock)[0]) == have:
                assert time.time() < end, _answers(sock)[1][-2000:]
                time.sleep(0.2)
            expected.append(line)

    try:
        for line in setup + betting:
            send(line)
        for k, card in enumerate(cards):
            if k in (0, 13):
                send("odds -n 200", wait_answer=True)
            if k in (4, 16):
                send("advise -n 200", wait_answer=True)
            if k == 16:   # Ctrl-C abandons a long question, not the session
                send("advise -n 100000")
                _wait_for(sock, "answering advise -n 100000 (Ctrl-C abandons it)")   # it has begun
                _tmux(sock, "send-keys", "-t", "t", "C-c")
                _wait_for(sock, "interrupted: the question was abandoned; the state is as it was")
                send("advise -n 200", wait_answer=True)
            send(f"trick: {card}")
        send("odds -n 100", wait_answer=True)
        answers, pane = _answers(sock)
        errors = [json.loads(ln.lstrip("^C")) for ln in pane.splitlines() if ln.lstrip("^C").startswith('{"error"')]
        assert errors == [{"error": "interrupted: the question was abandoned; the state is as it was"}], pane[-3000:]
        assert len(answers) == len(expected) == 6
        for a in answers:
            same(a, oneshot(a["meta"]["same_as"]))
        assert answers[3] == answers[4]   # the state survived the interrupted question
        assert all(r["exact"] for r in answers[-1]["rows"])
    finally:
        _tmux(sock, "kill-server")


def test_a_piped_json_session_writes_json_lines_only():
    lines = "hand R9 R5 R2 B6 G6 Y8 Y3 Y1\nbogus\nshow\nhelp\ncoins 1,2\ntalon R3 B9 G7 G5\n"
    proc = subprocess.run([sys.executable, "-m", "sponsio_sim", "table", "--format", "json"], input=lines,
                          capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = [json.loads(ln) for ln in proc.stdout.splitlines()]
    assert [list(o) for o in out] == [["reply"], ["reply"], ["error"], ["reply"], ["reply"], ["error"], ["reply"]]
    assert out[0]["reply"] == "you are seat 0; waiting for: hand, talon, dealer"
    assert out[2]["error"] == "cannot read 'bogus' (type help for the lines a session reads)"
    assert out[5]["error"] == "'coins 1,2': give 4 values, one per seat (got 2)"


def test_a_session_whose_reader_has_gone_says_so_in_one_line():
    r, w = os.pipe()
    os.close(r)
    proc = subprocess.run([sys.executable, "-m", "sponsio_sim", "table"], input="show\n", stdout=w,
                          stderr=subprocess.PIPE, text=True)
    os.close(w)
    assert proc.returncode == 1
    assert proc.stderr.strip() == ("error: cannot write to standard output (its reader closed the pipe): the output "
                                   "is incomplete")
