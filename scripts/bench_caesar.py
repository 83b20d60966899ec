"""Benchmark the Circus Maximus engine: full games per second on one core.

Usage: python scripts/bench_caesar.py [--games N] [--players 4] [--repeat 3] [--policies greedy,value,tuned,distilled,net]
                                      [--field] [--mc mc:8:reference] [--mc-games 400]
Runs with 1 numba thread; JIT compile (or cache load) time is measured
separately and excluded. Rate = games per second of this process's CPU time
(on a shared machine wall time also counts other programs' turns; it is
printed too). Prints the best of ``--repeat`` timed runs: every seat playing
each policy; with ``--field``, games of the reference field (every seat's
strategy drawn per game; target 5,000); with ``--mc``, games in which one
seat (rotating) plays that mc strategy against the reference field and the
others draw from it (the oracle's speed; no target).
"""

from __future__ import annotations

import argparse
import time

from tabletop_mc.runner import set_threads

TARGETS = {"greedy": 100_000, "value": 50_000, "tuned": 50_000, "distilled": 30_000, "net": 15_000, "reference": 5_000}


def rate(run, games: int, repeat: int) -> tuple[float, float]:
    """(best games per CPU second, best games per wall second) over ``repeat`` runs of ``run(games, seed)``."""
    best = best_wall = 0.0
    for r in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        run(games, r + 1)
        best = max(best, games / (time.process_time() - c))
        best_wall = max(best_wall, games / (time.perf_counter() - t))
    return best, best_wall


def show(name: str, target_key: str, best: float, best_wall: float, repeat: int, games: int) -> None:
    target = TARGETS.get(target_key)
    verdict = "" if target is None else f"  (target >= {target:,}: {'met' if best >= target else 'NOT met'})"
    print(f"{name}: {best:,.0f} games/s/core (CPU time; wall {best_wall:,.0f}; best of {repeat} x {games:,})"
          f"{verdict}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--policies", default="greedy,value,tuned,distilled,net")
    ap.add_argument("--field", action="store_true", help="also time the reference field")
    ap.add_argument("--mc", default="", help="also time one seat of this mc strategy against the reference field")
    ap.add_argument("--mc-games", type=int, default=400)
    args = ap.parse_args()
    set_threads(1)
    t0 = time.perf_counter()
    from caesar_sim.analysis.game.runs import RunSettings, run_games  # numba modules load (and compile) here
    one = RunSettings(progress=False, threads=1)
    run_games(args.players, "greedy x%d" % args.players, 64, one)
    compile_s = time.perf_counter() - t0
    print(f"JIT compile / cache load + first tiny batch: {compile_s:.1f} s (excluded below)")
    for pol in [p for p in args.policies.split(",") if p]:
        profile = f"{pol} x{args.players}"
        run_games(args.players, profile, 64, one)
        best, wall = rate(lambda g, s: run_games(args.players, profile, g, one.but(seed=s)),
                          args.games, args.repeat)
        show(f"{args.players}p all-{pol}", pol, best, wall, args.repeat, args.games)
    if args.field or args.mc:
        from caesar_sim.analysis.game.runs import run_field
        from caesar_sim.fieldplay import field_play
        play = field_play("reference", args.players)
        if args.field:
            run_field(args.players, play, 64, one)
            best, wall = rate(lambda g, s: run_field(args.players, play, g, one.but(seed=s)),
                              args.games, args.repeat)
            show(f"{args.players}p reference field ({play.mixture()})", "reference", best, wall, args.repeat, args.games)
        if args.mc:
            dev = play.with_focal(args.mc)
            run_field(args.players, dev, 4, one)
            best, wall = rate(lambda g, s: run_field(args.players, dev, g, one.but(seed=s)),
                              args.mc_games, args.repeat)
            show(f"{args.players}p one {args.mc} seat against the reference field", "", best, wall, args.repeat,
                 args.mc_games)


if __name__ == "__main__":
    main()
