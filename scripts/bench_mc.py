#!/usr/bin/env python
"""The `mc` betting policy: speed, search effort and what its pruning costs.

One `mcR:goal:cash4` seat against three `ev:goal:cash4` seats, seats rotated,
one thread. For each R it prints games/s/core (process CPU time, best of
--repeat, JIT compile excluded and reported separately; target >= 20 at
R = 100), the searches per game and the rollouts per search (the race stops
clear decisions early). With --audit it also searches every candidate at
each decision and prints how often that picks another action than searching
the kept ones (pass and the best ``MC_KEEP - 1`` by estimated gain), and the
round gain the pruned choices lose, measured on fresh deals: the cost of the
pruning.

    python scripts/bench_mc.py                      # R = 100 and 400
    python scripts/bench_mc.py --audit --games 300  # and the pruning check
    python scripts/bench_mc.py --keep 6 --audit     # another number of candidates kept
"""

from __future__ import annotations

import argparse
import time

PROFILE = "mc{r}:goal:cash4, ev:goal:cash4 x3"
TARGET = 20.0   # games/s/core at R = 100 (issue 12)


def run(r: int, games: int, keep: int, audit: bool, seed: int):
    """(counts, CPU seconds) of ``games`` rotated games, one thread."""
    import numba

    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.setup import build_state, parse_profile
    from sponsio_sim.kernels.layout import stats_size
    from sponsio_sim.kernels.game.audit import audit_chunk
    from sponsio_sim.rules import load_rules

    numba.set_num_threads(1)
    rules = load_rules("standard-4p")
    board, game_state, money = build_state(rules, parse_profile(PROFILE.format(r=r), rules), find_model(rules),
                                    rotate=True)
    c0 = time.process_time()
    out = audit_chunk(seed, 0, games, keep, 1 if audit else 0, board, game_state, money, stats_size(rules.players))
    return out, time.process_time() - c0


def main() -> None:
    from sponsio_sim.analysis.game.setup import MC_KEEP
    from sponsio_sim.kernels.layout import AUDIT_COUNTS
    from tabletop_mc.stats import wilson

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rollouts", default="100,400", help="values of R, comma-separated (default 100,400)")
    ap.add_argument("--games", type=int, default=200, help="games per timing run (default 200)")
    ap.add_argument("--repeat", type=int, default=3, help="timing runs, best counts (default 3)")
    ap.add_argument("--keep", type=int, default=MC_KEEP, help=f"candidates searched (default {MC_KEEP})")
    ap.add_argument("--audit", action="store_true", help="also search every candidate and compare")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    t = time.perf_counter()
    run(1, 1, a.keep, False, a.seed)
    print(f"JIT compile and first game: {time.perf_counter() - t:.1f} s")
    print(f"profile {PROFILE.format(r='R')}, seats rotated, 1 thread, {a.keep} candidates kept")
    print(f"{'R':>5} {'games/s/core':>13} {'searches/game':>14} {'rollouts/search':>16}")
    for r in (int(x) for x in a.rollouts.split(",")):
        best = 0.0
        for rep in range(a.repeat):
            out, secs = run(r, a.games, a.keep, False, a.seed + rep)
            best = max(best, a.games / secs)
        counts = AUDIT_COUNTS.named(out)
        flag = "" if r != 100 else ("  (target >= 20: met)" if best >= TARGET else "  (target >= 20: NOT met)")
        print(f"{r:>5} {best:>13.1f} {counts['searches'] / a.games:>14.1f} "
              f"{counts['rollouts'] / max(counts['searches'], 1):>16.0f}{flag}")
        if a.audit:
            counts = AUDIT_COUNTS.named(run(r, a.games, a.keep, True, a.seed)[0])
            n, k = int(counts['decisions']), int(counts['pruned'])
            _, lo, hi = wilson(k, n)
            print(f"      pruning: searching every candidate picks another action at {k} of {n} decisions "
                  f"= {k / max(n, 1):.3f} [{lo:.3f}, {hi:.3f}] (95% Wilson), losing "
                  f"{counts['regret'] / max(n, 1):.3f} coins of round gain per decision (on fresh deals)")


if __name__ == "__main__":
    main()
