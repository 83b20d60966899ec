"""Grade the goal policy: the bet it would pick on random hands, won by
random, goal and pimc play, beside the double-dummy worst and best cases.

    python scripts/grade_goal.py [-n 1000] [--seed 1] [--worlds 20] [--pick-rounds 128]
                                 [--threads N] [--out reports/sponsio/grading]

Prints the table (95% Wilson CIs), the checks and the runtime; writes CSV
tables, the per-hand outcomes, a PNG and index.html under ``--out``.
See ``sponsio_sim.analysis.odds.grading`` for the definitions.
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from sponsio_sim.analysis.odds.grading import grade, write_report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="random hands")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=20, help="pimc: sampled layouts per decision")
    ap.add_argument("--pick-rounds", type=int, default=128, help="goal-policy rounds per candidate bet")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", default="reports/sponsio/grading")
    args = ap.parse_args()
    t0 = time.perf_counter()
    graded = grade(args.n, seed=args.seed, worlds=args.worlds, pick_rounds=args.pick_rounds,
                   players=args.players, threads=args.threads, progress=None)
    res = write_report(graded, args.out)
    pd.set_option("display.width", 160)
    print(f"{graded.rules}; n = {args.n} hands, seed {args.seed}, worlds {args.worlds}, "
          f"pick rounds {args.pick_rounds}; 95% Wilson CIs")
    print(res["table"].to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print("\nby kind of the picked bet:")
    print(res["by_kind"].to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print("\nbets picked (top 10):")
    print(res["picked"].head(10).to_string(index=False))
    print("\nchecks:")
    for k, v in res["checks"].items():
        print(f"  {k}: {v}")
    print(f"\nwrote {args.out}/index.html")
    print(f"runtime: {time.perf_counter() - t0:.1f} s wall ({graded.seconds:.1f} s in the "
          f"kernels, incl. compile on a cold cache; {graded.threads} thread(s))")


if __name__ == "__main__":
    main()
