#!/usr/bin/env python
"""Benchmark the Sponsio kernels, the default `sponsio odds` query and the full game.

Prints rounds/s/core for each play policy (one thread, JIT compile excluded
and reported separately, whole bet catalogue evaluated every round), the
random-play kernel against a C version of the same loop (scripts/c_odds.py,
built by scripts/c/build.sh: same deals, same counts, checked equal; rounds/s
of each and their ratio from the same run; the C picks a random card with
pdep where the CPU has BMI2, and is also timed picking it by a loop), and the wall time of the default odds query cold (empty numba cache) and warm.
Full game: games/s/core with `ev:goal` at every seat (one thread, best of 5
by process CPU time, JIT compile reported separately), and the warm wall time
of `sponsio tournament -n 100000` for 4 players on 2 threads.

    python scripts/bench_sponsio.py            # everything (~2-3 minutes)
    python scripts/bench_sponsio.py --quick    # kernels only, smaller n
    python scripts/bench_sponsio.py --c        # the random-play kernel against C only
    python scripts/bench_sponsio.py --game     # the full game only
    python scripts/bench_sponsio.py --game --profile reference --profile "distilled:goal:cash3 x4"
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
GAME_PROFILE = "ev:goal x4"
GAME_TARGETS = {"games": 20_000, "tournament": 15.0}
C_TARGET = 0.8   # numba's random-play rounds/s over C's


def kernel_rates(n: int, repeats: int) -> list[tuple[str, float, float]]:
    """(policy, best rounds/s/core, first-call seconds) per policy, one thread."""
    import numba

    from sponsio_sim.analysis.odds.query import simulate
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


def c_section(n: int, repeats: int) -> None:
    """The numba odds kernel with every seat on ``random`` against the C loop, one thread each, on the
    same chunks (the default query's, ``-n`` rounds): best rounds/s of each by process CPU time, the
    runs alternating so that both see the same load, and whether their counts agree."""
    import numba
    import numpy as np

    from c_odds import NoCompiler, build, random_args, random_chunks
    from sponsio_sim.analysis.odds.job import SIMULATED
    from sponsio_sim.kernels.odds.simulate import odds_chunks
    from tabletop_mc.runner import chunk_counts

    try:
        libs = {"C": build(), "C, select by loop": build(cflags="-O3 -march=native -DSELECT_LOOP")}
    except NoCompiler as e:
        print(f"\nrandom-play kernel against C: not run ({e})")
        return
    numba.set_num_threads(1)
    args = random_args(HAND, TALON, "tricks=2")
    conditions, query, _, slots, n_stats, _ = args
    counts = chunk_counts(n, SIMULATED.chunk)
    odds_chunks(np.uint64(0), np.int64(0), counts[:1], *args)   # compiled outside the timing
    best = {"numba": 0.0, **{name: 0.0 for name in libs}}
    same = True
    for rep in range(repeats):
        c0 = time.process_time()
        want = odds_chunks(np.uint64(rep), np.int64(0), counts, *args)
        best["numba"] = max(best["numba"], n / (time.process_time() - c0))
        for name, lib in libs.items():
            c0 = time.process_time()
            got = random_chunks(lib, rep, 0, counts, conditions, query, slots, n_stats)
            best[name] = max(best[name], n / (time.process_time() - c0))
            same = same and np.array_equal(want, got)
    ratio = best["numba"] / best["C"]
    print(f"\nrandom-play odds kernel against C (scripts/c/odds_random.c, {n:,} rounds, 1 thread, best of {repeats}):")
    for name, rate in best.items():
        print(f"  {name:<18} {rate:>12,.0f} rounds/s/core")
    print(f"  numba / C = {ratio:.2f}   target >= {C_TARGET}  {'yes' if ratio >= C_TARGET else 'NO'}   "
          f"(against C selecting by loop: {best['numba'] / best['C, select by loop']:.2f})   "
          f"counts identical: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit("the C loop's counts differ from the kernel's")


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


def game_rates(games: int, repeats: int, profile: str = GAME_PROFILE) -> tuple[float, float, float]:
    """(best games/s/core, rounds per game, first-call seconds) of ``profile`` (4 players), one thread."""
    import numba
    import numpy as np

    from sponsio_sim.analysis.game.lineup import resolve
    from sponsio_sim.analysis.game.setup import build_state, game_arrays
    from sponsio_sim.analysis.game.runs import GAME_CHUNK
    from sponsio_sim.kernels.game.engine import game_chunks, switches
    from sponsio_sim.kernels.layout import RULES, STATS_HEAD, stats_size
    from sponsio_sim.rules import load_rules

    numba.set_num_threads(1)
    rules = load_rules("standard-4p")
    lineup = resolve(profile, rules, None)   # the strategies and success model every command plays
    board, game_state, money = build_state(rules, lineup.strategies, lineup.model)
    start = game_arrays(board, game_state, money)
    size = np.int64(stats_size(rules.players, start.rules[RULES.entries]))   # a field keeps statistics per member
    compile_switches = switches(game_state)
    t = time.perf_counter()
    game_chunks(np.uint64(0), np.int64(0), np.array([10], dtype=np.int64), start, size, *compile_switches)
    first = time.perf_counter() - t
    counts = np.full(games // GAME_CHUNK, GAME_CHUNK, dtype=np.int64)
    best, per_game = 0.0, 0.0
    for rep in range(repeats):
        c0 = time.process_time()
        out = game_chunks(np.uint64(rep + 1), np.int64(0), counts, start, size, *compile_switches).sum(axis=0)
        best = max(best, out[STATS_HEAD.games] / (time.process_time() - c0))
        per_game = out[STATS_HEAD.rounds] / out[STATS_HEAD.games]
    return best, per_game, first


def tournament_wall(cache_dir: str) -> float:
    """Wall seconds of `sponsio tournament -n 100000` (4 players, ev:goal x4) on 2 threads."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "sponsio_sim.cli", "tournament", "--players", "4", "--profile",
                           GAME_PROFILE, "-n", "100000", "--threads", "2", "--format", "csv"],
                          capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if proc.returncode:
        raise SystemExit(proc.stderr)
    return wall


def profile_rates(games: int, profiles) -> None:
    """games/s/core of other profiles (``--profile``): the distilled policy's target is 10,000, a
    field's (``reference``) 5,000."""
    for profile in profiles:
        rate, per_game, _ = game_rates(games, 3, profile)
        target = 10_000 if "distilled" in profile else 5_000 if profile == "reference" else None
        ok = "" if target is None else f"   target >= {target:,}  {'yes' if rate >= target else 'NO'}"
        print(f"  {profile}: {rate:,.0f} games/s/core ({per_game:.2f} rounds/game){ok}")


def game_section(games: int, cache_dir: str) -> None:
    rate, per_game, first = game_rates(games, 5)
    ok = "yes" if rate >= GAME_TARGETS["games"] else "NO"
    print(f"\nfull game, {GAME_PROFILE} (standard-4p), 1 thread, best of 5 by process CPU time:")
    print(f"  {rate:,.0f} games/s/core ({rate * per_game:,.0f} rounds/s, {per_game:.2f} rounds/game)   "
          f"target >= {GAME_TARGETS['games']:,}  {ok}")
    print(f"  JIT compile of the game kernels (first call, this cache): {first:.1f} s")
    tournament_wall(cache_dir)  # fills the numba cache
    warm = min(tournament_wall(cache_dir) for _ in range(2))
    ok = "yes" if warm <= GAME_TARGETS["tournament"] else "NO"
    print(f"  `sponsio tournament -n 100000` warm, 2 threads: {warm:.1f} s wall (best of 2)   "
          f"target <= {GAME_TARGETS['tournament']:.0f} s  {ok}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="kernels only, fewer rounds")
    ap.add_argument("--game", action="store_true", help="the full-game section only")
    ap.add_argument("--c", action="store_true", help="the random-play kernel against C only")
    ap.add_argument("--games", type=int, default=48_000, help="games per full-game timing")
    ap.add_argument("-n", type=int, default=None, help="rounds per timing (default 400k random / 100k others)")
    ap.add_argument("--profile", action="append", default=[],
                    help="also time the full game of this profile (repeatable; e.g. reference, "
                         "'distilled:goal:cash3 x4'), 1 thread, best of 3")
    args = ap.parse_args()
    n = args.n or (100_000 if args.quick else 400_000)
    print(f"machine: {os.cpu_count()} cores; rates on 1 thread, best of 5 by process CPU time (the machine is shared; best-of filters out its noise)")
    compile_dir = tempfile.mkdtemp(prefix="sponsio-bench-jit-")
    os.environ["NUMBA_CACHE_DIR"] = compile_dir  # cold: the first call compiles
    t = time.perf_counter()
    if args.profile:
        print(f"\nfull game, 4 players, 1 thread, best of 3 by process CPU time:")
        profile_rates(args.games, args.profile)
    if args.game:
        game_section(args.games, compile_dir)
        print(f"\nbench wall time {time.perf_counter() - t:.0f} s")
        return
    if args.c:
        c_section(args.n or 400_000, 5)
        return
    rows = kernel_rates(n, 5)
    print(f"\n{'policy':<10}{'rounds/s/core':>16}{'target':>12}  ok")
    for policy, rate, _ in rows[:3]:
        target = TARGETS.get(policy)
        ok = "" if target is None else ("yes" if rate >= target else "NO")
        print(f"{policy:<10}{rate:>16,.0f}{(f'{target:,}' if target else '-'):>12}  {ok}")
    print(f"\nJIT compile (first call, empty cache): {rows[0][2]:.1f} s")
    c_section(args.n or 400_000, 5)
    if args.quick:
        return
    cold_dir = tempfile.mkdtemp(prefix="sponsio-bench-cold-")
    cold, rounds = odds_wall(cold_dir)
    warm, _ = odds_wall(cold_dir)
    print("\ndefault `sponsio odds` (whole catalogue, goal vs goal, CI width <= 0.01, all cores):")
    print(f"  cold (empty numba cache): {cold:6.1f} s   target <= {ODDS_TARGETS['cold']:.0f} s  "
          f"{'yes' if cold <= ODDS_TARGETS['cold'] else 'NO'}")
    print(f"  warm (cached kernels):    {warm:6.1f} s   target <= {ODDS_TARGETS['warm']:.0f} s  "
          f"{'yes' if warm <= ODDS_TARGETS['warm'] else 'NO'}")
    print(f"  rounds simulated: {rounds:,} over all rows")
    game_section(args.games, cold_dir)
    print(f"\nbench wall time {time.perf_counter() - t:.0f} s")


if __name__ == "__main__":
    main()
