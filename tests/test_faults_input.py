"""Fault injection, part 2: hostile rule, weights and state files, repeat counts,
scheduler addresses, rule numbers out of range, and the reference profile's success model.
Every bad input is one line and exit status 2, before any work.
"""

from __future__ import annotations

import json
import os
import socket
import threading

import pytest
from click.testing import CliRunner

from caesar_sim.cli import main as caesar
from sponsio_sim.cli import main as sponsio

CLIS = {"sponsio": sponsio, "caesar": caesar}
PROFILE = "ev:goal:cash4, troll:goal, ev:goal:never, random:random"
WEIGHTS = json.loads(open(os.path.join(os.path.dirname(__import__("caesar_sim.weights").weights.__file__),
                                       "tuned-3p.json")).read())


def run(cli, *args):
    r = CliRunner().invoke(CLIS[cli], [str(a) for a in args])
    return r.exit_code, r.stdout, r.stderr


def one_line(code, out, err, *expected):
    assert code == 2 and out == "", err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and len(lines[0]) < 600, err[:300]
    for text in expected:
        assert text in lines[0], lines[0]


# -- hostile rule files (both games read them with tabletop_mc.rulefile) ---------------------------

def _rule_file(tmp_path, kind):
    p = tmp_path / f"{kind}.toml"
    base = 'extends = "standard-4p"\n'
    if kind == "binary":
        p.write_bytes(bytes(range(256)) * 8)
    elif kind == "deep arrays":
        p.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    elif kind == "deep tables":
        p.write_text(base + "x = " + "{a=" * 5000 + "1" + "}" * 5000 + "\n")
    elif kind == "dotted key":
        p.write_text(base + ".".join(["k"] * 50_000) + " = 1\n")
    elif kind == "many bad keys":
        p.write_text(base + "".join(f"bad{i} = 1\n" for i in range(40_000)))
    elif kind == "too large":
        p.write_text(base + "# " + "x" * (2 << 20) + "\n")
    elif kind == "fifo":
        os.mkfifo(p)
    return p


@pytest.mark.parametrize("kind,expected", [
    ("binary", "not UTF-8 text"), ("deep arrays", "nested more than 32 levels"),
    ("deep tables", "nested more than 32 levels"), ("dotted key", "nested more than 32 levels"),
    ("many bad keys", "40000 problems: unknown key 'bad0'"), ("too large", "too large"),
    ("fifo", "not a regular file"), ("/dev/zero", "not a regular file"), ("folder", "a folder"),
])
@pytest.mark.parametrize("cli", ["sponsio", "caesar"])
def test_hostile_rule_file(tmp_path, cli, kind, expected):
    path = {"/dev/zero": "/dev/zero", "folder": str(tmp_path)}.get(kind) or _rule_file(tmp_path, kind)
    if cli == "caesar" and kind in ("deep tables", "dotted key", "many bad keys", "too large"):
        text = path.read_text().replace('"standard-4p"', '"standard"')
        path.write_text(text)
    code, out, err = run(cli, "rules", "show", "--rules", path)
    one_line(code, out, err, expected)
    if kind == "many bad keys":
        assert "and 39995 more" in err


# -- hostile weights files ----------------------------------------------------------------------

def _weights(tmp_path, kind):
    p = tmp_path / "w.json"
    data = json.loads(json.dumps(WEIGHTS))
    text = None
    if kind == "1e400":
        text = json.dumps(data).replace('"greedy_tickets": 2.0', '"greedy_tickets": 1e400')
    elif kind == "5000 digits":
        text = json.dumps(data).replace('"greedy_tickets": 2.0', '"greedy_tickets": ' + "9" * 5000)
    elif kind == "nesting":
        text = '{"format": ' + "[" * 5000 + "]" * 5000 + "}"
    elif kind == "NaN":
        text = json.dumps(data).replace('"risk": 0.6207', '"risk": NaN')
    elif kind == "binary":
        p.write_bytes(bytes(range(256)) * 4)
        return p
    elif kind in ("ban_rows", "ban_items", "mc_horizon", "mc_epsilon", "boost"):
        data["weights"][kind] = {"ban_rows": 1e18, "ban_items": 16, "mc_horizon": 0.5, "mc_epsilon": 2,
                                 "boost": 1e300}[kind]
    elif kind == "players":
        data["players"] = 5
    p.write_text(text if text is not None else json.dumps(data))
    return p


@pytest.mark.parametrize("kind,expected", [
    ("1e400", "out of range"), ("5000 digits", "more than 30 digits"), ("nesting", "nested more than 32"),
    ("NaN", "NaN is not a number JSON allows"), ("binary", "not UTF-8 text"),
    ("ban_rows", "'ban_rows' must be a whole number 0..31"), ("ban_items", "'ban_items' must be a whole number 0..15"),
    ("mc_horizon", "'mc_horizon' must be a whole number 0..2"), ("mc_epsilon", "'mc_epsilon' must be a number 0..1"),
    ("boost", "'boost' must be a number -1000..1000"), ("players", "tuned for 5 players, this game has 3"),
    ("/dev/zero", "not a regular file"),
])
def test_hostile_weights_file(tmp_path, kind, expected):
    path = "/dev/zero" if kind == "/dev/zero" else _weights(tmp_path, kind)
    one_line(*run("caesar", "simulate", "--players", 3, "--profile", f"tuned@{path},value,value", "-n", 30),
             expected)


# -- hostile game states (sponsio advise --state) -------------------------------------------------

STATE = """Round 1: dealer seat 3, seat 0 acts first
  seat 0 (ev:goal:never; 10 coins, track 0): R9 R5 R2 B6 G6 Y8 Y3 Y1
  seat 1 (ev:goal:never; 10 coins, track 0): R8 R6 R4 B8 B7 B4 G4 Y6
  seat 2 (ev:goal:never; 10 coins, track 0): R7 B5 B3 B2 B1 G9 G1 Y2
  seat 3 (ev:goal:never; 10 coins, track 0): R1 G8 G3 G2 Y9 Y7 Y5 Y4
  talon: R3 B9 G7 G5
  betting:
    turn 1, seat 0: reveals Y1, bets colour:G=0 (1 coin stake)
"""


@pytest.mark.parametrize("kind,expected", [
    ("/dev/zero", "not a regular file"), ("round 99", "line 1: round 99: rounds are 1..5"),
    ("round 6", "round 6: rounds are 1..5"), ("0 coin stake", "a 0 coin stake, but rule set standard-4p stakes 1"),
    ("binary", "not UTF-8 text"), ("too large", "too large"),
])
def test_hostile_state_file(tmp_path, kind, expected):
    p = tmp_path / "state.txt"
    if kind == "/dev/zero":
        p = "/dev/zero"
    elif kind == "binary":
        p.write_bytes(bytes(range(256)))
    elif kind == "too large":
        p.write_text(STATE * 5000)
    else:
        p.write_text(STATE.replace("Round 1:", "Round 99:" if kind == "round 99" else "Round 6:")
                     if kind.startswith("round") else STATE.replace("(1 coin stake)", "(0 coin stake)"))
    one_line(*run("sponsio", "advise", "--state", p, "-n", 100), expected)


# -- repeat counts and scheduler addresses --------------------------------------------------------

@pytest.mark.parametrize("cli,args,expected", [
    ("sponsio", ["tournament", "--profile", "ev:goal x99999999999999999999"], "x999999999999... must be 1..16"),
    ("sponsio", ["tournament", "--profile", "ev:goal x1000000000"], "repeat count x1000000000 must be 1..16"),
    ("sponsio", ["tournament", "--profile", "ev:goal x7"], "7 strategies for 4 players"),
    ("sponsio", ["matrix", "--strategies", "ev:goal x17"], "repeat count x17 must be 1..16"),
    ("caesar", ["simulate", "--profile", "value x99999999999999999999"], "more times than a table has seats"),
    ("caesar", ["simulate", "--profile", "value x1000000000"], "more times than a table has seats"),
])
def test_repeat_counts(cli, args, expected):
    one_line(*run(cli, *args, "-n", 30), expected)


def _drain(conn):
    try:
        conn.recv(1 << 16)
    except OSError:
        pass
    conn.close()


def _server(kind):
    """A local socket that is not a Dask scheduler: an HTTP-like or silent peer, or garbage."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)

    def serve():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            if kind == "garbage":
                conn.sendall(b"\xff" * 64 + os.urandom(4096))
            elif kind == "http":   # an HTTP server waits for a request: says nothing first
                pass
            threading.Thread(target=_drain, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return srv


@pytest.mark.parametrize("address,expected", [
    ("foo:bar", "expected tcp://HOST:PORT"), ("tcp://127.0.0.1:99999", "port 99999 is not 1..65535"),
    ("refused", "cannot connect"), ("http", "no Dask scheduler answered within 1 s"),
    ("garbage", "does not speak Dask's protocol"),
])
def test_scheduler_addresses_fail_before_any_work(tmp_path, monkeypatch, address, expected):
    pytest.importorskip("distributed")
    monkeypatch.setattr("tabletop_mc.backend.CONNECT_TIMEOUT", 1.0)
    monkeypatch.setenv("SPONSIO_MODEL_DIR", str(tmp_path / "models"))
    srv = None
    if address == "refused":
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
        s.close()
    elif address in ("http", "garbage"):
        srv = _server(address)
        address = f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    try:   # a deal without a model: no auto-fit may run before the address is checked
        one_line(*run("sponsio", "tournament", "--profile", "ev:goal x4", "--set", "hand_size=6", "-n", 240,
                      "--scheduler", address), expected)
    finally:
        if srv is not None:
            srv.close()
    assert not (tmp_path / "models").exists()


def test_lost_cluster_is_one_error_and_warm_up_skips_lost_workers():
    import numpy as np
    from tabletop_mc.backend import DaskBackend
    from tabletop_mc.errors import RunError

    class Client:
        runs = []

        def run(self, *args, **kw):
            self.runs.append(kw)

        def scheduler_info(self):
            return {"workers": {"a": {}}}

        def submit(self, *args, **kw):
            return None

        def gather(self, futures):
            from distributed.comm.core import CommClosedError
            raise CommClosedError("Stream is closed")

    backend = DaskBackend(Client(), address="tcp://10.0.0.1:8786")
    with pytest.raises(RunError, match="lost the Dask cluster at tcp://10.0.0.1:8786 mid-run"):
        backend.run_batch(lambda first, counts: np.zeros(2), 0, np.ones(4, dtype=np.int64))
    assert Client.runs == [{"on_error": "ignore"}]


# -- rule numbers out of range; caesar removals per player count ----------------------------------

@pytest.mark.parametrize("cli,override,expected", [
    ("sponsio", "multiplier.last=1e308", "'multiplier.last' must be a number 0..1,000, got 1e+308"),
    ("sponsio", "start_coins=9223372036854775807", "'start_coins' must be an integer 0..1,000,000"),
    ("sponsio", "betting_turns=100000", "'betting_turns' must be an integer 1..64"),
    ("sponsio", "track_win=0", "'track_win' must be an integer 1..31"),
    ("sponsio", "track_value=[0,1,2,4,6,9,12,16,10000000]", "'track_value' must be a list of integers 0..1,000,000"),
    ("caesar", "coin_cards.value=100000000000000000000000", "'coin_cards.value' must be an integer 0..1,000"),
    ("caesar", "coin_cards.count=100000000", "'coin_cards.count' must be an integer 0..10,000"),
    ("caesar", "first_start_seat=7", "'first_start_seat' must be an integer 0..4"),
])
def test_rule_numbers_are_ranged(cli, override, expected):
    one_line(*run(cli, "rules", "show", "--set", override), expected)


def test_caesar_removal_and_start_seat_are_checked_for_the_players_who_play():
    from caesar_sim.rules import kernel_rules, load_rules
    from tabletop_mc.errors import UserError
    rules = load_rules(overrides=["favour.boost=0"])
    assert kernel_rules(rules, 4)[0] == 4 and kernel_rules(rules, 5)[0] == 5
    with pytest.raises(UserError, match=r"'remove.3.favours.boost' must be 0..0 \(the deck's boost favours\)"):
        kernel_rules(rules, 3)
    seat = load_rules(overrides=["first_start_seat=4"])
    assert kernel_rules(seat, 5)[0] == 5
    with pytest.raises(UserError, match="'first_start_seat' must be a seat 0..3 with 4 players, got 4"):
        kernel_rules(seat, 4)


# -- the reference profile: adapted to the rule set, one success model in every command -------------

@pytest.mark.parametrize("track", [2, 3])
def test_short_track_reference_adapts(track):
    from sponsio_sim.analysis.balance.choice import balance
    from sponsio_sim.analysis.game.setup import parse_profile
    from sponsio_sim.analysis.game.tournament import tournament
    from sponsio_sim.analysis.settings import Run
    from sponsio_sim.rules import load_rules
    sets = [f"track_win={track}", f"track_value={list(range(track))}"]
    assert tournament("ev:goal x4", n=240, overrides=sets).games is not None
    assert balance("ev:goal x4", n=240, overrides=sets, run=Run(cache=False)).meta["model"]
    for players in (4, 3):   # a numbered cash-in is clamped to the track; `net`'s value head reads the track
        ref = parse_profile("reference", load_rules(None, players, sets))
        numbered = [st.cash for st in ref if isinstance(st.cash, int)]
        assert all(c < track for c in numbered)
        if players == 3:         # troll:goal:cash5 in the 3-player field
            assert track - 1 in numbered
    b = balance(players=3, n=240, overrides=sets, run=Run(cache=False))
    assert f"goal:cash{track - 1}" in b.meta["profile"]


def test_no_track_position_to_cash_in():
    one_line(*run("sponsio", "tournament", "--profile", "ev:goal:cash2 x4", "--set", "track_win=1",
                  "--set", "track_value=[0]", "-n", 240), "no position to cash in at (track_win 1); use never")


@pytest.mark.parametrize("args,strategy", [
    (["tournament", "--profile", "ev:goal:never, ev:goal:cash2, troll:goal, ev:greedy:cash4", "-n", 240],
     "ev:greedy:cash4"),
    (["game", "--profile", "distilled:random, ev:goal x3"], "distilled:random:never"),
    (["matrix", "--strategies", "ev:goal, ev:random", "-n", 240], "ev:random:never"),
    (["exploit", "--profile", "ev:goal x4", "--deviation", "ev:greedy", "-n", 240], "ev:greedy:never"),
])
def test_model_betting_with_another_play_than_the_model_is_refused(args, strategy):
    one_line(*run("sponsio", *args), f"strategy '{strategy}'", "fitted for goal play", "sponsio fit --policy")


def test_tournament_flags_gaps_between_predicted_and_won():
    import pandas as pd
    from sponsio_sim.analysis.game.setup import parse_profile
    from sponsio_sim.analysis.game.tournament import calibration_flags
    from sponsio_sim.rules import load_rules
    rules = load_rules(overrides=["bets=[\"last\"]"])
    strategies = parse_profile("random:random, ev:goal, ev:goal:cash4, ev:goal:cash4", rules)
    row = {"entry": 3, "strategy": "ev:goal:cash4", "last_placed": 900, "last_won": 0.103, "last_predicted": 0.594,
           "last_won_low": 0.08, "last_won_high": 0.12}
    flags = calibration_flags(pd.DataFrame([row, {**row, "entry": 1, "last_placed": 499}, {
        **row, "entry": 2, "last_predicted": 0.15}, {**row, "entry": 0}]), strategies, rules)
    assert flags == ["entry 3 (ev:goal:cash4): last predicted 0.594, won 0.103 [0.080, 0.120] on 900 bets"]


def test_tournament_does_not_flag_net_seats():
    """net reads the model's chances as inputs but did not learn to bet on them: a gap is no calibration fault."""
    import pandas as pd
    from sponsio_sim.analysis.game.setup import parse_profile
    from sponsio_sim.analysis.game.tournament import calibration_flags
    from sponsio_sim.rules import load_rules
    rules = load_rules(overrides=["bets=[\"last\"]"])
    strategies = parse_profile("net:goal:net, ev:goal:cash4, net:goal, net:goal", rules)
    row = {"entry": 0, "strategy": "net:goal:net", "last_placed": 900, "last_won": 0.103, "last_predicted": 0.594,
           "last_won_low": 0.08, "last_won_high": 0.12}
    flags = calibration_flags(pd.DataFrame([row, {**row, "entry": 1, "strategy": "ev:goal:cash4"}]), strategies, rules)
    assert flags == ["entry 1 (ev:goal:cash4): last predicted 0.594, won 0.103 [0.080, 0.120] on 900 bets"]


def test_every_command_plays_the_reference_with_the_tournaments_model(tmp_path, monkeypatch):
    from sponsio_sim.analysis.advise.odds import history_odds
    from sponsio_sim.analysis.advise.infer import Reading
    from sponsio_sim.analysis.advise.ranking import Rollouts, advise
    from sponsio_sim.analysis.advise.state import RoundFacts, table_state
    from sponsio_sim.analysis.balance.recommend import SearchSpace, Stages, recommend
    from sponsio_sim.analysis.balance.choice import balance
    from sponsio_sim.analysis.game.exploit import Deviations, exploit
    from sponsio_sim.analysis.game.narrate import narrate_game
    from sponsio_sim.analysis.game.tournament import tournament
    from sponsio_sim.analysis.settings import Run
    from sponsio_sim.rules import load_rules
    want = tournament("reference", n=240).model
    assert want.endswith("-reference.npz")
    assert f"ev model {want}" in narrate_game("reference").text
    assert exploit("reference", n=240, deviating=Deviations(family="troll")).model == want
    assert balance("reference", n=240, run=Run(cache=False)).meta["model"] == want
    assert recommend("reference", space=SearchSpace(only=["last"], mult_range="2..2"),
                     stages=Stages(n=240, screen_n=240, shortlist=1, top=1), run=Run(cache=False)).meta["model"] == want
    rules = load_rules()
    st = table_state(rules, STATE, RoundFacts(seat=1))
    # advice reads each seat as one member of the reference field, with the field's model
    advice = advise(st, reading=Reading(proposals=200), rollouts=Rollouts(100, screen=4, keep=2))
    assert advice.meta["model"] == want
    hist = history_odds(RoundFacts(hand="R8 R6 R4 B8 B7 B4 G4 Y6", talon="R3 B9 G7 G5", dealer=3,
                                   history="0: reveal Y1, bet colour:G=0"), n=20)
    assert hist.model == want
    # fit --profile reference keeps its model where the reference looks for it (a rule set without a shipped one)
    monkeypatch.setenv("SPONSIO_MODEL_DIR", str(tmp_path))
    sets = ("multiplier.last=3",)
    code, out, err = run("sponsio", "fit", "--profile", "reference", "-n", 20000, "--on-policy", 0,
                         "--check-games", 240, "-q", *[x for s in sets for x in ("--set", s)])
    assert code == 0, err
    saved = next(tmp_path.glob("*-reference.npz"))
    assert tournament("reference", n=240, overrides=sets).model == f"cache:{saved}"


@pytest.mark.parametrize("cmd", [["tournament", "-n", 240], ["exploit", "-n", 240, "--family", "troll"]])
def test_tournament_and_exploit_play_the_reference_field_by_default(cmd):
    """The README says so; `sponsio tournament` stopped with "Missing option '--profile'"."""
    code, out, err = run("sponsio", *cmd)
    assert code == 0, err
    default = out.split("\n")[1]
    code, out, err = run("sponsio", *cmd, "--profile", "reference")
    assert code == 0 and out.split("\n")[1] == default and "reference field" in default, default
