#!/usr/bin/env python
"""How fast `sponsio serve` answers its page, warm.

    python scripts/bench_serve.py [--hands 5] [--games 3] [--seed 38] [--target-ci 0.01] [--threads N]

Starts one `sponsio serve` process (kernels warmed before it listens) and
asks what the page asks, over HTTP, each question timed from the request
sent to the line read (wall clock), after one unmeasured question of each
kind:

- odds for a hand (every catalogue bet, as they sharpen): the first numbers
  (the first table, every bet after its first chunk) and the table at the
  target CI, for --hands random deals;
- at the table, round 1 of `sponsio game --profile reference --seed S
  --verbose` for --games seeds from --seed on where seat 0 holds an
  end-of-betting token, recorded as the page records it (seat 0's view):
  advice at seat 0's first betting step, at its token decision and at its
  first card of trick 2, and the odds at that betting step and that card,
  all at the commands' default precision.

The machine's load average is printed beside: on a shared machine the wall
times grow with it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "sponsio"))
from serve_helpers import Server  # noqa: E402  (the tests' server process)

RANKS = "987654321"


def timed_stream(server: Server, path: str, body: dict) -> dict:
    """Seconds to the first partial answer and to the answer, and the answer."""
    conn = server.connect(timeout=600)
    t0 = time.perf_counter()
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    first = None
    for raw in r:
        item = json.loads(raw)
        if item["kind"] == "partial" and first is None:
            first = time.perf_counter() - t0
        if item["kind"] in ("answer", "error"):
            conn.close()
            if item["kind"] == "error":
                raise RuntimeError(f"{path}: {item['error']}")
            return {"first": first, "all": time.perf_counter() - t0, "answer": item}
    raise RuntimeError(f"{path}: the stream ended without an answer")


def deal(rng: random.Random) -> tuple[str, str]:
    cards = [c + r for c in "RBGY" for r in RANKS]
    rng.shuffle(cards)
    return " ".join(cards[:8]), " ".join(cards[8:12])


def round_lines(seed: int) -> tuple[list[str], list[str], list[str], list[str]] | None:
    """Round 1 of the reference game of ``seed`` as seat 0 records it: (deal, betting, end, cards);
    None unless seat 0 decides on an end-of-betting token."""
    from sponsio_sim.analysis.game.narrate import narrate_game
    from sponsio_sim.rules import load_rules
    g = narrate_game("reference", seed=seed, rules=load_rules(None, 4))
    lines = [ln.strip() for ln in g.text.split("Round 2:")[0].splitlines()]
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Round 1:"))
    setup = [ln for ln in lines[start:] if ln.startswith(("Round 1", "seat 0 (", "talon:"))]
    betting = [ln for ln in lines if ln.startswith("turn ")]
    ends = [ln for ln in lines if ln.startswith("end of betting")]
    if not ends or not ends[0].startswith("end of betting: seat 0"):   # seat 0 decides first
        return None
    cards = [c["card"] for e in g.events if e["round"] == 1 and e["event"] == "trick" for c in e["cards"]]
    return setup, betting, ends, cards


def summary(values: list[float]) -> str:
    return (f"median {statistics.median(values):.2f} s, max {max(values):.2f} s (n {len(values)})"
            if values else "-")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=5)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("--target-ci", type=float, default=0.01)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    t = time.perf_counter()
    server = Server(*(["--threads", str(args.threads)] if args.threads else []))
    started = time.perf_counter() - t
    times: dict[str, list[float]] = {}
    note = lambda key, v: times.setdefault(key, []).append(v)   # noqa: E731
    try:
        rng = random.Random(1)
        hand, talon = deal(rng)
        timed_stream(server, "/api/odds", {"hand": hand, "talon": talon, "target_ci": 0.05})   # unmeasured
        for _ in range(args.hands):
            hand, talon = deal(rng)
            out = timed_stream(server, "/api/odds", {"hand": hand, "talon": talon, "target_ci": args.target_ci})
            note("odds for a hand: first numbers", out["first"])
            note(f"odds for a hand: all at CI {args.target_ci:g}", out["all"])
        seed, found = args.seed, 0
        while found < args.games:
            got = round_lines(seed)
            seed += 1
            if got is None:
                continue
            setup, betting, ends, cards = got
            found += 1
            spec = {"players": 4, "seat": 0, "lines": setup}

            def ask(kind, lines, label, measured=True):
                body = {"table": {**spec, "lines": lines}, "kind": kind, "options": {}}
                out = timed_stream(server, "/api/ask", body)
                if measured:
                    note(label, out["all"])
            if found == 1:
                ask("advise", setup, "", measured=False)
                ask("odds", setup, "", measured=False)
            step = next(k for k, ln in enumerate(betting) if ln.startswith("turn 2, seat 0"))
            ask("advise", setup + betting[:step], "advice: betting step")
            ask("odds", setup + betting[:step], "odds at the table: betting step")
            ask("advise", setup + betting, "advice: end-of-betting token")
            before = setup + betting + ends
            now = before + [f"trick: {c}" for c in cards[:_seat0_card(before, cards, server)]]
            ask("advise", now, "advice: card")
            ask("odds", now, "odds at the table: card")
    finally:
        server.stop()
    load = os.getloadavg()
    print(f"sponsio serve, warm (started and warmed in {started:.1f} s); load average {load[0]:.1f} "
          f"(1 min), {os.cpu_count()} cores")
    for key, values in times.items():
        print(f"  {key:<40} {summary(values)}")


def _seat0_card(lines: list[str], cards: list[str], server: Server) -> int:
    """How many cards are played before seat 0's card of trick 2 (the page's view says who plays)."""
    for n in range(4, 8):
        status, data = server.post("/api/table", {"table": {"players": 4, "seat": 0,
                                                            "lines": lines + [f"trick: {c}" for c in cards[:n]]}})
        if status == 200 and data["view"]["actor"] == 0:
            return n
    raise RuntimeError("seat 0 does not play in trick 2")


if __name__ == "__main__":
    main()
