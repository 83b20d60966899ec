#!/usr/bin/env python
"""Benchmark the Sponsio kernels and the default `sponsio odds` query.

Prints rounds/s/core for each play policy (one thread, JIT compile excluded
and reported separately, whole bet catalogue evaluated every round), and the
wall time of the default odds query cold (empty numba cache) and warm.

    python scripts/bench_sponsio.py            # everything (~1-2 minutes)
    python scripts/bench_sponsio.py --quick    # kernels only, smaller n
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

HAND = "R9 R7 R2 B8 B5 G6 G1 Y3"
TALON = "R1 B9 G4 Y7"
TARGETS = {"random": 1_500_000, "goal": 300_000}
ODDS_TARGETS = {"warm": 5.0, "cold": 30.0}


def kernel_rates(n: int, repeats: int) -> list[tuple[str, float, float]]:
    """(policy, best rounds/s/core, first-call seconds) per policy, one thread."""
    import numba

    from sponsio_sim.analysis.odds import simulate
    from sponsio_sim.rules import load_rules
    from sponsio_sim.situation import build_situation

    numba.set_num_threads(1)
    sit = build_situation(load_rules(), HAND, TALON, bets="tricks=2")
    first = None
    rows = []
    for policy in ("random", "greedy", "goal"):
        t = time.perf_counter()
        simulate(sit, policy, policy, n=1000, target_ci=None, seed=1, watch=[0])
        if first is None:
            first = time.perf_counter() - t
        best = 0.0
        for rep in range(repeats):
            c0 = time.process_time()
            counts, rounds = simulate(sit, policy, policy, n=n, target_ci=None, seed=rep, watch=[0])
            best = max(best, rounds / (time.process_time() - c0))
        rows.append((policy, best, first))
    return rows


def odds_wall(cache_dir: str) -> tuple[float, int]:
    """Wall seconds of the default `sponsio odds` query (whole catalogue, goal, CI <= 1%)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "sponsio_sim.cli", "odds", "--hand", HAND, "--talon", TALON,
                           "--format", "csv"], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if proc.returncode:
        raise SystemExit(proc.stderr)
    rows = proc.stdout.strip().splitlines()[1:]
    return wall, sum(int(r.split(",")[1]) for r in rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="kernels only, fewer rounds")
    ap.add_argument("-n", type=int, default=None, help="rounds per timing (default 400k random / 100k others)")
    args = ap.parse_args()
    n = args.n or (100_000 if args.quick else 400_000)
    print(f"machine: {os.cpu_count()} cores; rates on 1 thread, best of 3 by process CPU time")
    compile_dir = tempfile.mkdtemp(prefix="sponsio-bench-jit-")
    os.environ["NUMBA_CACHE_DIR"] = compile_dir  # cold: the first call compiles
    t = time.perf_counter()
    rows = kernel_rates(n, 3)
    print(f"\n{'policy':<10}{'rounds/s/core':>16}{'target':>12}  ok")
    for policy, rate, _ in rows[:3]:
        target = TARGETS.get(policy)
        ok = "" if target is None else ("yes" if rate >= target else "NO")
        print(f"{policy:<10}{rate:>16,.0f}{(f'{target:,}' if target else '-'):>12}  {ok}")
    print(f"\nJIT compile (first call, empty cache): {rows[0][2]:.1f} s")
    if args.quick:
        return
    cold_dir = tempfile.mkdtemp(prefix="sponsio-bench-cold-")
    cold, rounds = odds_wall(cold_dir)
    warm, _ = odds_wall(cold_dir)
    print(f"\ndefault `sponsio odds` (whole catalogue, goal vs goal, CI width <= 0.01, all cores):")
    print(f"  cold (empty numba cache): {cold:6.1f} s   target <= {ODDS_TARGETS['cold']:.0f} s  "
          f"{'yes' if cold <= ODDS_TARGETS['cold'] else 'NO'}")
    print(f"  warm (cached kernels):    {warm:6.1f} s   target <= {ODDS_TARGETS['warm']:.0f} s  "
          f"{'yes' if warm <= ODDS_TARGETS['warm'] else 'NO'}")
    print(f"  rounds simulated: {rounds:,} over all rows")
    print(f"\nbench wall time {time.perf_counter() - t:.0f} s")


if __name__ == "__main__":
    main()
