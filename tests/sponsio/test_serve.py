"""`sponsio serve`: the page in a real browser (headless Chromium) gives the one-shot
commands' answers on the same state and seed, through one whole narrated round;
the server refuses what it must (no token, too large, not JSON, a foreign Host),
stops the work of an abandoned question, and stops with one line on Ctrl-C."""

from __future__ import annotations

import json
import shlex
import signal
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from sponsio_sim.cli import main

from serve_helpers import Page, Server, browser_missing, chromium, quit_browser

# Round 1 of `sponsio game --profile reference --seed 38 --verbose`, as a player records it:
# seat 0's deal, the betting (seat 0 bets, takes the double token, bets again, swaps; the others
# pass), seat 0's double at the end of the betting, and the 32 cards in play order.
HAND, TALON = "R9 B1 G7 G5 Y5 Y4 Y3 Y2", "B7 B3 B2 G9"
CARDS = ("B1 B6 B4 B5 Y6 Y7 Y1 Y2 G3 G1 G5 G4 B2 Y8 B9 B8 R6 R2 R9 R1 Y3 Y9 R7 G2 R4 R8 R3 Y4 "
         "G8 R5 Y5 G6").split()


def need_extra() -> None:
    for name in ("starlette", "uvicorn"):
        pytest.importorskip(name, reason="the serve extra is not installed (pip install -e \".[serve]\")")


def oneshot(args: list[str]) -> dict:
    r = CliRunner().invoke(main, [*args, "--format", "json"])
    assert r.exit_code == 0, (args, r.output)
    return json.loads(r.stdout)


def same(page: dict, cli: dict) -> None:
    """The page's answer is the command's: every table row, and the advice's words."""
    for key in ("rows", "actions", "reveal"):
        assert page.get(key) == cli.get(key), key
    assert page["meta"].get("advice") == cli["meta"].get("advice")


@pytest.fixture(scope="module")
def server():
    need_extra()
    s = Server("--seed", "1")
    yield s
    code, err = s.stop()
    assert code == 0 and err.strip().splitlines()[-1] == "sponsio serve: stopped", err[-2000:]


@pytest.fixture(scope="module")
def driver():
    why = browser_missing()
    if why:
        pytest.skip(why)
    d = chromium()
    yield d
    quit_browser(d)


def test_tap_a_hand_and_read_the_odds(server, driver):
    page = Page(driver, server.url)
    page.tap(HAND.split(), "hand")
    page.tap(TALON.split(), "talon")
    assert page.by_id("hand-count").text == "8/8" and page.by_id("talon-count").text == "4/4"
    page.tap(["R8"], "hand")   # a ninth card is refused with the reason, and nothing changes
    assert "the hand has 8 cards" in page.by_id("deal-msg").text
    odds = page.hand_odds("0.05")
    rows = page.js("return [...document.querySelectorAll('#odds-table tbody tr')].map("
                   "r => [...r.cells].map(c => c.textContent))")
    assert len(rows) == 12 < len(odds["answer"]["rows"])   # the best 12 first, then "show all"
    page.by_id("odds-table-more").click()
    rows = page.js("return [...document.querySelectorAll('#odds-table tbody tr')].map("
                   "r => [...r.cells].map(c => c.textContent))")
    assert len(rows) == len(odds["answer"]["rows"]) > 20
    assert odds["within"] == len(rows)   # every bet's interval reached the target
    cli = oneshot(shlex.split(odds["answer"]["meta"]["same_as"])[1:])
    assert odds["answer"]["rows"] == cli["rows"]
    best = cli["rows"][0]
    assert rows[0][0] == best["bet"] and rows[0][2] == f"{best['p']:.3f} [{best['ci_low']:.3f}, {best['ci_high']:.3f}]"
    marked = page.js("return [...document.querySelectorAll('#odds-table tr.best')].map(r => r.cells[0].textContent)")
    stake = 1   # standard-4p
    assert marked == [r["bet"] for r in cli["rows"] if r["ci_low"] * r["multiplier"] - stake > 0] != []
    # sorted by a column on a tap: P ascending after two taps
    for _ in range(2):
        page.js("document.querySelector('#odds-table th[data-key=p]').click()")
    shown = page.js("return [...document.querySelectorAll('#odds-table tbody tr')].map(r => r.cells[0].textContent)")
    assert shown == [r["bet"] for r in sorted(cli["rows"], key=lambda r: r["p"])]


def _advise(narration: str, tmp_path, *args: str) -> dict:
    path = tmp_path / f"state-{time.monotonic_ns()}.txt"
    path.write_text(narration)
    return oneshot(["advise", "--state", str(path), "--seat", "0", *args])


def _odds(narration: str, tmp_path, *args: str) -> dict:
    path = tmp_path / f"state-{time.monotonic_ns()}.txt"
    path.write_text(narration)
    return oneshot(["odds", "state", "--state", str(path), "--seat", "0", *args])


def test_one_whole_round_through_the_page(server, driver, tmp_path):
    page = Page(driver, server.url)
    page.by_id("reset").click()
    page.wait(lambda d: page.table()["lines"] == [])
    page.by_id("clear").click()
    page.choose("dealer", "3")
    page.tap(HAND.split(), "hand")
    page.tap(TALON.split(), "talon")
    page.recorded(lambda: page.by_id("deal-btn").click())
    assert page.view()["phase"] == "betting" and page.by_id("where").text == "betting step 1 of 16: seat 0 acts"

    # betting, seat 0 to act: advice and odds, as `sponsio advise --state` / `sponsio odds state --state` give them
    a = page.ask("advise", n=100, seed=5)
    state = page.narration()
    same(a["answer"], _advise(state, tmp_path, "-n", "100", "--seed", "5"))
    assert a["title"].startswith("Advice for seat 0") and any("read as" in x for x in a["notes"])

    def act(reveal, kind, **fields):
        page.choose("act-reveal", reveal)
        page.choose("act-kind", kind)
        for key, value in fields.items():
            page.choose(f"act-{key}", value)
        page.recorded(lambda: page.by_id("act-record").click())

    def passes(k):
        for _ in range(k):
            page.recorded(lambda: page.by_id("act-pass").click())

    act("B1", "bet", bet="colour:Y=0")
    passes(3)
    act("Y2", "take", token="double", pay="reveal Y3")
    passes(3)
    o = page.ask("odds", n=60, seed=2)
    same(o["answer"], _odds(page.narration(), tmp_path, "-n", "60", "--seed", "2"))
    page.line("0: reveal Y4, bet tricks=1")   # typed, as `sponsio table` reads it
    passes(3)
    act("G7", "swap", give="G7", take="B2")
    passes(3)

    # the end of the betting: seat 0 decides on its double token
    assert page.view()["phase"] == "token" and page.view()["pending"] == {"token": "double", "seat": 0}
    a = page.ask("advise", n=100, seed=1)
    same(a["answer"], _advise(page.narration(), tmp_path, "-n", "100", "--seed", "1"))
    page.choose("end-bet", "#1 colour:Y=0")
    page.recorded(lambda: page.by_id("end-record").click())

    # the tricks: a card that does not fit is one message and changes nothing; undo takes one back
    for k, card in enumerate(CARDS):
        if k == 7:   # seat 0 plays the last card of trick 2
            assert page.view()["actor"] == 0
            a = page.ask("advise", n=40, seed=3)
            state = page.narration()
            same(a["answer"], _advise(state, tmp_path, "-n", "40", "--seed", "3"))
            o = page.ask("odds", n=40, seed=3)
            same(o["answer"], _odds(state, tmp_path, "-n", "40", "--seed", "3"))
            before = page.table()
            page.by_id("line").send_keys("trick: R9")
            page.by_id("line-btn").click()
            page.wait(lambda d: "R9" in page.by_id("round-msg").text)
            assert "bad" in page.by_id("round-msg").get_attribute("class") and page.table() == before
        page.play(card)
        if k == 12:
            page.by_id("undo").click()
            page.wait(lambda d: len(page.view()["played"]) == 12)
            page.play(card)
    assert page.view()["phase"] == "played" and page.by_id("where").text.startswith("every trick played")

    # the narration round-trips: pasted into a new table, it is the same table
    state = page.narration()
    where = page.by_id("where").text
    page.by_id("reset").click()
    page.wait(lambda d: page.table()["lines"] == [])
    page.by_id("import").click()
    page.by_id("narration").send_keys(state)
    page.by_id("use-narration").click()
    page.wait(lambda d: page.table()["narration"])
    assert page.by_id("where").text == where and page.narration() == state
    page.recorded(lambda: page.by_id("next").click())
    assert page.view()["phase"] == "deal" and page.view()["round"] == 2 and page.view()["dealer"] == 0



def test_a_question_the_browser_abandons_stops_its_work(server):
    table = {"players": 4, "seat": 0, "lines": ["dealer 3", f"hand {HAND}", f"talon {TALON}"]}
    before = server.status()
    conn = server.connect()
    conn.request("POST", "/api/ask", body=json.dumps({"table": table, "kind": "advise", "options": {"n": 20000}}),
                 headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    assert r.status == 200 and json.loads(r.readline())["kind"] in ("progress", "tick")
    assert server.status()["running"] == 1
    conn.close()   # the browser goes away
    end = time.monotonic() + 30
    while (s := server.status())["running"] or s["abandoned"] == before["abandoned"]:
        assert time.monotonic() < end, s
        time.sleep(0.1)
    assert s["abandoned"] == before["abandoned"] + 1 and s["answered"] == before["answered"]


def test_a_busy_server_refuses_with_a_message(server):
    """Two questions run, four wait; the next is refused at once, with a message."""
    body = json.dumps({"hand": HAND, "talon": TALON, "target_ci": 0.01})   # seconds each
    held = []
    try:
        for _ in range(6):
            conn = server.connect()
            conn.request("POST", "/api/odds", body=body, headers={"Content-Type": "application/json"})
            held.append((conn, conn.getresponse()))
            assert held[-1][1].status == 200
        s = server.status()
        assert s["running"] + s["waiting"] == 6 and s["running"] <= 2
        status, _, raw = server.request("POST", "/api/odds", body.encode())
        assert status == 503 and "ask again in a moment" in json.loads(raw)["error"]
    finally:
        for conn, _ in held:
            conn.close()
    end = time.monotonic() + 60
    while (s := server.status())["running"] or s["waiting"]:
        assert time.monotonic() < end, s
        time.sleep(0.1)


def test_bad_requests_are_one_message_and_change_nothing(server):
    table = {"players": 4, "seat": 0, "lines": ["dealer 3", f"hand {HAND}", f"talon {TALON}"]}
    big = {"table": {**table, "narration": "x" * 70_000}}
    status, headers, body = server.request("POST", "/api/table", big)
    assert status == 413 and "larger than this server takes" in json.loads(body)["error"]
    status, _, body = server.request("POST", "/api/table", b'{"table": {}}', {"Content-Type": "text/plain"})
    assert status == 415
    status, _, body = server.request("GET", "/", headers={"Host": "evil.example:80"})
    assert status == 403 and "only on this machine" in json.loads(body)["error"]
    status, _, body = server.request("GET", "/static/..%2f..%2fpyproject.toml")
    assert status == 404
    for bad, needle in [({"table": table, "add": ["0: reveal R8, bet tricks=2"]}, "R8"),
                        ({"table": table, "add": ["hand R9 R9"]}, "listed twice"),
                        ({"table": table, "add": ["advise"]}, "not something that happened"),
                        ({"table": {**table, "lines": 5}}, "lines must be a list"),
                        ({"table": {**table, "players": "four"}}, "players must be"),
                        ({"table": table, "add": ["x" * 400]}, "at most 300 characters")]:
        status, data = server.post("/api/table", bad)
        assert status == 400 and needle in data["error"] and "Traceback" not in data["error"], (bad, data)
    status, data = server.post("/api/table", {"table": table})
    assert status == 200 and data["table"]["lines"] == table["lines"]
    for body, needle in [({"players": 4, "hand": "R9 R8"}, "2 cards"), ({"players": 4, "hand": HAND,
                                                                          "target_ci": float("nan")}, "target_ci"),
                         ({"table": table, "kind": "advise", "options": {"n": 10 ** 9}}, "n: a whole number")]:
        path = "/api/ask" if "table" in body else "/api/odds"
        status, _, raw = server.request("POST", path, json.dumps(body).encode())
        assert status == 400 and needle in json.loads(raw)["error"], raw


def test_another_address_needs_the_token_and_ctrl_c_stops_with_one_line():
    need_extra()
    s = Server("--host", "0.0.0.0", "--no-warm")
    try:
        assert s.token and s.url.endswith(f"/?token={s.token}")
        for path in ("/", "/api/status", "/static/app.js"):
            status, _, body = s.request("GET", path)
            assert status == 403 and "access token" in json.loads(body)["error"]
        assert s.request("GET", "/?token=wrong")[0] == 403
        status, headers, _ = s.request("GET", f"/?token={s.token}")
        assert status == 200 and f"access_token={s.token}" in headers["set-cookie"]
        assert s.request("GET", "/api/status", headers={"Cookie": f"access_token={s.token}"})[0] == 200
        assert s.request("GET", "/api/status", headers={"X-Access-Token": s.token})[0] == 200
        assert s.request("POST", "/api/table", {"table": {"players": 4, "seat": 0}})[0] == 403
    finally:
        code, err = s.stop(signal.SIGINT)
    assert code == 0 and err.strip().splitlines()[-1] == "sponsio serve: stopped"
    assert "Traceback" not in err and "aborted" not in err


def test_without_the_serve_extra_one_line_names_it():
    code = ("import sys\nsys.modules['starlette'] = None\nfrom sponsio_sim.cli import main\n"
            "main(['serve', '--port', '0'])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == ['error: sponsio serve needs the serve extra: pip install -e '
                                                '".[serve]" (in the project\'s folder)']


def test_a_port_in_use_is_one_line():
    need_extra()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "sponsio_sim", "serve", "--port", str(port), "--no-warm"],
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.strip() == f"error: cannot listen on 127.0.0.1:{port}: in use: " \
                                                             "give another --port"
