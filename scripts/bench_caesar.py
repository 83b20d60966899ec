"""Benchmark the Circus Maximus engine: full games per second on one core.

Usage: python scripts/bench_caesar.py [--games N] [--players 4] [--repeat 3]
Runs with 1 numba thread; JIT compile (or cache load) time is measured
separately and excluded. Rate = games per second of this process's CPU time
(on a shared machine wall time also counts other programs' turns; it is
printed too). Prints the best of ``--repeat`` timed runs.
"""

from __future__ import annotations

import argparse
import time

from tabletop_mc.runner import set_threads

TARGETS = {"greedy": 100_000, "value": 50_000, "tuned": 50_000}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--policies", default="greedy,value,tuned")
    args = ap.parse_args()
    set_threads(1)
    t0 = time.perf_counter()
    from caesar_sim.analysis.run import run_games  # numba modules load (and compile) here
    run_games(args.players, "greedy x%d" % args.players, 64, progress=False, threads=1)
    compile_s = time.perf_counter() - t0
    print(f"JIT compile / cache load + first tiny batch: {compile_s:.1f} s (excluded below)")
    for pol in args.policies.split(","):
        profile = f"{pol} x{args.players}"
        run_games(args.players, profile, 64, progress=False, threads=1)
        best = best_wall = 0.0
        for r in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            run_games(args.players, profile, args.games, seed=r + 1, progress=False, threads=1)
            best = max(best, args.games / (time.process_time() - c))
            best_wall = max(best_wall, args.games / (time.perf_counter() - t))
        target = TARGETS.get(pol)
        verdict = "" if target is None else f"  (target >= {target:,}: {'met' if best >= target else 'NOT met'})"
        print(f"{args.players}p all-{pol}: {best:,.0f} games/s/core (CPU time; wall {best_wall:,.0f}; "
              f"best of {args.repeat} x {args.games:,}){verdict}")


if __name__ == "__main__":
    main()
