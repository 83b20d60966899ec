#!/usr/bin/env python
"""Check that seeded outputs stay byte-identical across a refactor.

Runs a fixed set of seeded commands of both CLIs (odds under goal, dd and
pimc play, a narrated game, tournaments with ev, troll, random and mc seats,
balance, exploit, dd node counts, caesar simulate, bids, game and exploit)
and records each one's SHA-256. Save the figures before a change, compare
after it:

    python scripts/check_numbers.py --save /tmp/before.json
    python scripts/check_numbers.py --against /tmp/before.json   # exit 1 if any output moved
    python scripts/check_numbers.py --against /tmp/before.json --only caesar

Every run starts from an empty result cache (a fresh ``XDG_CACHE_HOME``), so
the numbers are computed, not read back. Wall times are printed too (warm
numba cache only are comparable).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
HAND = "R9 R7 R2 B8 B5 G6 G1 Y3"
TALON = "R1 B9 G4 Y7"
DEAL = "R9 R7 R2 B8 B5 G6 G1 Y3 | R8 R6 B9 B7 G9 G5 Y9 Y1 | R5 R4 B6 B4 G8 G4 Y8 Y6 | R3 R1 B3 B2 G7 G3 Y5 Y4"
MIXED = "ev:goal:cash4, troll:goal, ev:goal:never, random:random"
CASES = {
    "sponsio odds goal": ["odds", "--hand", HAND, "--talon", TALON, "-n", "20000", "--seed", "3"],
    "sponsio odds 3p others": ["odds", "--players", "3", "--hand", "R9 R7 R2 B8 B5 G6 G1 G3",
                               "--others", "1:tricks=3", "-n", "10000", "--seed", "4"],
    "sponsio odds dd": ["odds", "--hand", HAND, "--talon", TALON, "--policy", "goal,dd", "-n", "100",
                        "--bets", "tricks=2,colour:B=4,last", "--seed", "5"],
    "sponsio odds pimc": ["odds", "--hand", HAND, "--policy", "pimc", "-n", "100", "--bets", "tricks=2,last",
                          "--seed", "6"],
    "sponsio game": ["game", "--players", "4", "--profile", MIXED, "--seed", "2", "--verbose", "--format", "json"],
    "sponsio game mc": ["game", "--players", "4", "--profile", "mc:goal:cash4, ev:goal:cash4 x3", "--seed", "3",
                        "--verbose"],
    "sponsio tournament": ["tournament", "--players", "4", "--profile", MIXED, "-n", "20000", "--seed", "9",
                           "--format", "json"],
    "sponsio tournament 3p": ["tournament", "--players", "3", "--profile", "ev:goal:cash4 x3", "-n", "5000", "--seed", "7", "--rotate",
                              "--format", "json"],
    "sponsio tournament mc": ["tournament", "--players", "4", "--profile", "mc:goal:cash4, ev:goal:cash4 x3",
                              "-n", "20", "--seed", "1", "--format", "json"],
    "sponsio balance": ["balance", "--players", "4", "-n", "20000", "--seed", "5", "--format", "json"],
    "sponsio exploit": ["exploit", "--players", "4", "--profile", "ev:goal:cash4 x4", "-n", "2000", "--seed", "1", "--format", "json"],
    "sponsio odds options": ["odds", "--hand", HAND, "--talon", TALON, "--set", "nines_scope=own", "--set",
                             "fail_target=any", "--others", "1:nines,fail; 2:tricks=2", "-n", "20000", "--seed", "8"],
    "sponsio odds dd options": ["odds", "--hand", HAND, "--talon", TALON, "--policy", "goal,dd", "-n", "60",
                                "--set", "nines_scope=own", "--others", "1:tricks=2; 2:fail:0",
                                "--bets", "nines,last,tricks=3", "--seed", "9"],
    "sponsio tournament options": ["tournament", "--players", "4", "--profile", MIXED, "-n", "5000", "--seed", "4",
                                   "--set", "nines_scope=own", "--set", "fail_target=any", "--format", "json"],
    "sponsio dd": ["dd", "--deal", DEAL, "--lead", "0", "--coalition", "0,2", "--seat", "0",
                   "--bets", "tricks=2,last,colour:B=0", "--format", "json"],
    "caesar simulate": ["simulate", "--players", "4", "-n", "20000", "--seed", "1", "--format", "json"],
    "caesar simulate 3p value": ["simulate", "--players", "3", "--profile", "value,greedy,random", "-n", "5000",
                                 "--seed", "2", "--format", "json"],
    "caesar bids": ["bids", "--players", "4", "-n", "20000", "--seed", "1", "--pooled", "--format", "json"],
    "caesar game": ["game", "--players", "4", "--profile", "value,value,greedy,mc", "--seed", "2", "--verbose"],
    "caesar exploit": ["exploit", "--players", "4", "-n", "2000", "--seed", "1", "--format", "json"],
}

TIMED = {"sponsio dd": {"ms"}}


def run(name: str, args: list[str], env: dict) -> tuple[str, float]:
    exe = str(BIN / name.split()[0])
    start = time.perf_counter()
    proc = subprocess.run([exe, *args, "--threads", "2"], capture_output=True, env=env)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{name}: exit {proc.returncode}: {proc.stderr.decode().strip()[-400:]}")
    out = proc.stdout
    if name in TIMED:   # solve times are wall clock: leave them out of the digest
        out = json.dumps(without(json.loads(out), TIMED[name]), sort_keys=True).encode()
    return hashlib.sha256(out).hexdigest(), took


def without(obj, keys: set):
    """``obj`` with every dict entry named in ``keys`` removed, at any depth."""
    if isinstance(obj, dict):
        return {k: without(v, keys) for k, v in obj.items() if k not in keys}
    if isinstance(obj, list):
        return [without(v, keys) for v in obj]
    return obj


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--save", type=Path, help="write the digests to this file")
    ap.add_argument("--against", type=Path, help="compare with digests saved earlier; exit 1 on a change")
    ap.add_argument("--only", default="", help="run only the cases whose name contains this")
    opts = ap.parse_args()
    before = json.loads(opts.against.read_text()) if opts.against else {}
    now, moved = {}, []
    scratch = tempfile.TemporaryDirectory(prefix="check_numbers_")
    env = {**os.environ, "XDG_CACHE_HOME": scratch.name}
    for name, args in CASES.items():
        if opts.only not in name:
            continue
        digest, took = run(name, args, env)
        now[name] = digest
        status = "" if name not in before else ("same" if before[name] == digest else "CHANGED")
        if status == "CHANGED":
            moved.append(name)
        print(f"{name:28s} {took:7.1f} s  {digest[:16]}  {status}", flush=True)
    if opts.save:
        opts.save.write_text(json.dumps(now, indent=1) + "\n")
    if moved:
        raise SystemExit(f"changed: {', '.join(moved)}")


if __name__ == "__main__":
    main()
