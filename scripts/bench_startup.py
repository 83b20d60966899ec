#!/usr/bin/env python
"""Start-up latency of the CLIs and of the smallest and the default odds query.

Each command runs as a fresh process (as a user types it), warm: the numba
cache is filled by a first run, which is reported separately as "first".
The figure is the median wall time of ``--repeat`` runs ("warm"); "best"
is the fastest of them, the nearest to a quiet machine on a shared host
whose load only ever adds time (as ``timeit`` advises). Both are judged
against the target. Python may write
bytecode caches (``PYTHONDONTWRITEBYTECODE`` is dropped), as it does for a
user: pip compiles an installed package's modules, so a user's CLI never
recompiles them from source at start-up. Targets (quiet machine, 2
cores):

    sponsio --help / caesar --help                               <= 0.3 s
    sponsio odds --hand ... --bets tricks=2 -n 1000              <= 0.8 s
    sponsio odds --hand ... --talon ... (every row to +/-0.005)  <= 2.0 s
    sponsio advise --hand ... --history ... (default precision)  <= 5.0 s

It also prints the import time of each CLI module (python -X importtime),
which does not depend on the machine's load as much as wall time does.

``--cold`` times the first run after an install instead: the default odds
query, a whole game, a game with an ``mc`` seat and the advise query above
(targets 8, 20, 40 and 20 s; ``--cold-only NAME`` for one of them, and
``--cold-cmd`` others) in a fresh, empty NUMBA_CACHE_DIR each
time, so every run compiles its kernels. ``--against DIR`` runs another
checkout's package the same way (``PYTHONPATH=DIR``), alternating with this
one run by run, and prints the ratio of the medians: on a shared machine
only figures from the same run compare.

    python scripts/bench_startup.py
    python scripts/bench_startup.py --repeat 9
    python scripts/bench_startup.py --cold --repeat 3 --against /tmp/before   # a worktree of the commit before
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND = "R9 R7 R2 B8 B5 G6 G1 Y3"
TALON = "R1 B9 G4 Y7"
BIN = Path(sys.executable).parent
CASES = [
    ("sponsio --help", [str(BIN / "sponsio"), "--help"], 0.3),
    ("caesar --help", [str(BIN / "caesar"), "--help"], 0.3),
    ("sponsio --version", [str(BIN / "sponsio"), "--version"], 0.3),
    ("odds --bets tricks=2 -n 1000", [str(BIN / "sponsio"), "odds", "--hand", HAND, "--bets", "tricks=2",
                                      "-n", "1000"], 0.8),
    ("odds (default query)", [str(BIN / "sponsio"), "odds", "--hand", HAND, "--talon", TALON], 2.0),
    ("advise (default precision)", [str(BIN / "sponsio"), "advise", "--hand", "R1 G8 G3 G2 Y9 Y7 Y5 Y4",
                                    "--talon", "R3 B9 G7 G5", "--dealer", "3", "--history",
                                    "0: reveal Y1, bet colour:R=4; 1: pass; 2: reveal B1, bet colour:B=0"], 5.0),
]


def wall(cmd: list[str], env: dict, cwd: str | None = None) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    return took


def import_ms(module: str, env: dict) -> float:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], env=env,
                          capture_output=True, text=True)
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| " + re.escape(module) + "$", line)
        if m:
            return int(m.group(1)) / 1000
    return float("nan")


COLD = {"odds": ["odds", "--hand", HAND, "--talon", TALON],
        "game": ["game", "--profile", "net:goal:net x4", "--seed", "1"],
        "game with an mc seat": ["game", "--profile", "mc:goal:cash5, net:goal:net, net:goal:net, net:goal:net",
                                 "--seed", "1"],
        "advise": CASES[-1][1][1:]}
COLD_TARGETS = {"odds": 8.0, "game": 20.0, "game with an mc seat": 40.0, "advise": 20.0}


def cold_run(cmd: list[str], checkout: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of ``python -m sponsio_sim.cli CMD`` from ``checkout`` with an empty kernel
    cache. The CPU time (user + system, the command's compile helper included: ``tabletop_mc.warmup``)
    says how much work the first run is; the wall time, what the user waits."""
    cache = tempfile.mkdtemp(prefix="sponsio-cold-")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(checkout))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        # run from the empty cache folder: `python -m` puts the working directory first on the path,
        # so run from a checkout it would import that checkout's package whatever PYTHONPATH says
        took = wall([sys.executable, "-m", "sponsio_sim.cli", *cmd], env, cwd=cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold(repeat: int, against: Path | None, extra: list[str], only: list[str] = ()) -> None:
    """The first run after an install (module docstring, ``--cold``)."""
    cmds = {k: v for k, v in COLD.items() if not only or k in only}
    for i, c in enumerate(extra):
        cmds[f"cmd{i + 1}"] = shlex.split(c)
    trees = [("this", ROOT)] + ([("against", against)] if against else [])
    for name, cmd in cmds.items():
        runs = {label: [] for label, _ in trees}
        for _ in range(repeat):
            for label, tree in trees:
                runs[label].append(cold_run(cmd, tree))
        target = COLD_TARGETS.get(name)
        print(f"first `sponsio {shlex.join(cmd)}`, empty kernel cache"
              + (f" (target <= {target:g} s on a quiet machine):" if target else ":"))
        med = {}
        for label, rs in runs.items():
            med[label] = [statistics.median(r[k] for r in rs) for k in (0, 1)]
            print(f"  {label:<8} wall median {med[label][0]:6.1f} s, CPU median {med[label][1]:6.1f} s   "
                  f"(wall/CPU per run: {', '.join(f'{w:.1f}/{c:.1f}' for w, c in rs)})")
        if against:
            print(f"  this / against: wall {med['this'][0] / med['against'][0]:.2f}, "
                  f"CPU {med['this'][1] / med['against'][1]:.2f}   load average now {os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cold", action="store_true", help="time the first run (empty kernel cache) instead")
    ap.add_argument("--cold-cmd", action="append", default=[],
                    help="with --cold: also this sponsio command (its arguments, one string, quoted as a shell would)")
    ap.add_argument("--cold-only", choices=list(COLD), action="append", default=[],
                    help="with --cold: only this standard command (repeatable)")
    ap.add_argument("--against", type=Path, help="with --cold: alternate with this checkout, print the ratio")
    args = ap.parse_args()
    if args.cold:
        load = os.getloadavg()[0]
        print(f"{os.cpu_count()} cores, load average {load:.1f}; {args.repeat} runs each, alternating")
        cold(args.repeat, args.against, args.cold_cmd, args.cold_only)
        return
    env = dict(os.environ)
    env.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".cache" / "numba"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)   # as installed: modules load from bytecode (the first run writes it)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} cores, load average {load:.1f} (targets assume a quiet machine); "
          f"median of {args.repeat} warm runs")
    for module in ("sponsio_sim.cli", "caesar_sim.cli"):
        print(f"import {module}: {import_ms(module, env):.0f} ms")
    print(f"{'command':<32} {'first s':>8} {'warm s':>8} {'best s':>7} {'target':>7}  ok (warm, best)")
    for name, cmd, target in CASES:
        first = wall(cmd, env)
        times = [wall(cmd, env) for _ in range(args.repeat)]
        med, best = statistics.median(times), min(times)
        print(f"{name:<32} {first:8.2f} {med:8.2f} {best:7.2f} {target:7.1f}  "
              f"{'yes' if med <= target else 'NO'}, {'yes' if best <= target else 'NO'}")


if __name__ == "__main__":
    main()
