#!/usr/bin/env python
"""Scale-out efficiency: one `sponsio tournament` run locally and on local Dask clusters.

Runs the same seeded tournament (a) in this process on all numba threads,
(b) on a local Dask cluster of 1 worker and (c) of 2 workers (each worker
process gets its share of the cores: `tabletop_mc.backend.local_share`), checks
that all three give exactly the same table, and prints wall times, games/s
and the efficiency of each against the local run. Kernel compilation and
cluster start-up are excluded (a small warm-up run in each configuration
first) and the start-up time is printed separately.

    python scripts/bench_scaleout.py                 # 400,000 games of "ev:goal x4"
    python scripts/bench_scaleout.py -n 100000 --workers 1 2 4

The machine is shared in development: compare the figures of one run, not
across runs.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(os.path.dirname(__file__), "..", ".cache", "numba"))


def run(profile: str, n: int, seed: int):
    from sponsio_sim.analysis.game.tournament import tournament
    from sponsio_sim.analysis.settings import Run
    return tournament(profile, n=n, rotate=True, run=Run(seed=seed))


def timed(profile: str, n: int, seed: int, warm_n: int, repeat: int):
    """Best wall time of ``repeat`` runs after a warm-up (the machine may be shared)."""
    run(profile, warm_n, seed)  # compile / load kernels in every process taking part
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        df = run(profile, n, seed)
        best = min(best, time.perf_counter() - start)
    return df, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=400_000, help="games per configuration")
    ap.add_argument("--profile", default="ev:goal x4")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=2, help="timed runs per configuration (best is shown)")
    args = ap.parse_args()

    import numba
    import pandas as pd

    from tabletop_mc.backend import local_share, use_backend

    cores = numba.config.NUMBA_NUM_THREADS
    print(f"sponsio tournament --profile {args.profile!r} -n {args.n} --seed {args.seed} --rotate; "
          f"{cores} cores; compile and cluster start excluded; best of {args.repeat} runs")
    local, t_local = timed(args.profile, args.n, args.seed, 2048, args.repeat)
    rows = [(f"local, {cores} numba threads", cores, t_local)]
    for k in args.workers:
        start = time.perf_counter()
        with use_backend(workers=k):
            started = time.perf_counter() - start
            df, t = timed(args.profile, args.n, args.seed, 2048 * 2 * k, args.repeat)
        for name in ("table", "games", "rounds", "seats"):   # every table of the TournamentResult
            if getattr(local, name) is not None:
                pd.testing.assert_frame_equal(getattr(local, name), getattr(df, name))
        rows.append((f"dask {k} worker{'s' if k > 1 else ''} x {local_share(k)} thread(s)", k, t))
        print(f"  (cluster of {k} started in {started:.1f} s)")
    print(f"{'configuration':<34} {'wall s':>8} {'games/s':>10} {'vs local':>9}")
    for name, _, t in rows:
        print(f"{name:<34} {t:8.2f} {args.n / t:10.0f} {t_local / t:9.2f}")
    print("every configuration uses all cores; 'vs local' is the scale-out efficiency "
          "(1.00 = as fast as numba threads in one process)")
    print("same numbers in every configuration: yes (tables compared exactly)")


if __name__ == "__main__":
    main()
