#!/usr/bin/env python
"""How fast a warm `sponsio table` session answers.

    python scripts/bench_table.py [--games 3] [--seed 3] [--profile reference] [--seat 0] [--threads N]

Starts one `sponsio table --format json` process and drives it through a
pipe with round 1 of `sponsio game --profile P --seed S --verbose` for
--games seeds from --seed on: at every betting step of --seat it asks
`advise`, at every card it is to play `advise` (the card advice), and after
every card played `odds`, all at their default precision. Each question is
timed from the line written to its answer read (wall clock) and by the CPU
time the session process spent on it (all its threads; /proc, 10 ms ticks);
the first question (kernels loading or compiling) is reported apart. The
machine's load average is printed beside: on a shared machine the wall
times grow with it. Targets: odds <= 0.3 s to +/-0.02, a betting or card
advice <= 1.5 s (warm, 2 cores). The odds' precision is the widest 95 %
interval's half-width among the bets not yet settled.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET = {"odds": 0.3, "betting advice": 1.5, "card advice": 1.5}


class Table:
    """A `sponsio table` process, one line in and one line out."""

    def __init__(self, args: list[str]):
        exe = Path(sys.executable).parent / "sponsio"
        self.proc = subprocess.Popen([str(exe), "table", "--format", "json", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.proc.stdout.readline()   # where the session stands

    def cpu(self) -> float:
        """CPU seconds the session process has used (user + system, all threads)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def send(self, line: str) -> tuple[str, float, float]:
        c = self.cpu()
        t = time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        return out.rstrip("\n"), time.perf_counter() - t, self.cpu() - c

    def close(self) -> None:
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def rounds(profile: str, players: int, seeds, seat: int):
    """Per game: its round 1 as session lines, marking where --seat decides (betting, card)."""
    from sponsio_sim.analysis.game.narrate import narrate_game
    from sponsio_sim.rules import load_rules
    rules = load_rules(None, players)
    for seed in seeds:
        g = narrate_game(profile, seed=seed, rules=rules)
        lines = g.text.split("Round 2:")[0].splitlines()
        start = next(i for i, ln in enumerate(lines) if ln.startswith("Round 1:"))
        out = [("line", ln.strip()) for ln in lines[start:] if ln.strip().startswith(("Round 1", f"seat {seat} (",
                                                                                      "talon:"))]
        for ln in lines:
            ln = ln.strip()
            if ln.startswith("turn ") and ln.split(":")[0].endswith(f"seat {seat}"):
                out.append(("betting advice", "advise"))
            if ln.startswith(f"end of betting: seat {seat} ("):
                out.append(("betting advice", "advise"))
            if ln.startswith(("turn ", "end of betting")):
                out.append(("line", ln))
        for e in g.events:
            if e["round"] == 1 and e["event"] == "trick":
                for c in e["cards"]:
                    if c["seat"] == seat:
                        out.append(("card advice", "advise"))
                    out.append(("line", f"trick: {c['card']}"))
                    out.append(("odds", "odds"))
        yield seed, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--profile", default="reference")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--slowest", type=int, default=0, help="also list this many slowest questions, with where they came")
    args = ap.parse_args()
    extra = ["--seat", str(args.seat), "--players", str(args.players)]
    if args.threads:
        extra += ["--threads", str(args.threads)]
    table = Table(extra)
    times: dict[str, list[float]] = {k: [] for k in TARGET}
    cpus: dict[str, list[float]] = {k: [] for k in TARGET}
    load0 = os.getloadavg()[0]
    widths: list[float] = []
    first = None
    errors = []
    slow = []
    for seed, script in rounds(args.profile, args.players, range(args.seed, args.seed + args.games), args.seat):
        for kind, line in script:
            out, took, cpu = table.send(line)
            if out.startswith("error"):
                errors.append(f"seed {seed}: {line!r}: {out}")
                continue
            if kind == "line":
                last = line
                continue
            if first is None:
                first = (kind, took)
                continue
            times[kind].append(took)
            cpus[kind].append(cpu)
            slow.append((took, cpu, kind, seed, last))
            if kind == "odds":
                rows = [r for r in json.loads(out)["rows"] if not r["exact"]]
                widths += [(r["ci_high"] - r["ci_low"]) / 2 for r in rows]
    table.close()
    print(f"sponsio table, warm: round 1 of {args.games} games ({args.profile}, seeds {args.seed}.."
          f"{args.seed + args.games - 1}), seat {args.seat}; {os.cpu_count()} cores"
          + (f", {args.threads} threads" if args.threads else "")
          + f"; load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    print(f"  first question ({first[0]}, kernels loading): {first[1]:.2f} s")
    for kind, ts in times.items():
        if not ts:
            continue
        ts.sort()
        met = sum(t <= TARGET[kind] for t in ts)
        cs = sorted(cpus[kind])
        print(f"  {kind:<15} n {len(ts):3d}  wall median {statistics.median(ts):.3f} s, p90 "
              f"{ts[int(0.9 * (len(ts) - 1))]:.3f} s, max {ts[-1]:.3f} s, within {TARGET[kind]} s: {met}/{len(ts)}; "
              f"CPU median {statistics.median(cs):.2f} s, max {cs[-1]:.2f} s")
    if widths:
        widths.sort()
        print(f"  odds precision: half-width of the 95 % CI, median {statistics.median(widths):.4f}, max "
              f"{widths[-1]:.4f}; within 0.02: {sum(w <= 0.02 for w in widths)}/{len(widths)} bets")
    for took, cpu, kind, seed, where in sorted(slow, reverse=True)[:args.slowest]:
        print(f"  slow: {took:.3f} s wall, {cpu:.2f} s CPU, {kind}, seed {seed}, after {where!r}")
    for e in errors:
        print("  " + e)


if __name__ == "__main__":
    main()
