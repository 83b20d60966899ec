#!/usr/bin/env python
"""Regenerate every committed report from scratch (seeded) and print the runtime.

    python scripts/make_reports.py                  # reports/sponsio and reports/caesar
    python scripts/make_reports.py --only sponsio --scale 0.1 --out /tmp/reports
    python scripts/make_reports.py --only sponsio --scale 0.2 --mc-scale 1   # reports/sponsio as committed

Finished simulation batches are cached on disk (keyed by configuration), so
a killed run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "reports"), help="reports folder (default: reports/)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every sample size (0.05: smoke test)")
    ap.add_argument("--mc-scale", type=float, default=None,
                    help="the strong-play rung's scale (every seat mc), when not --scale")
    ap.add_argument("--only", choices=["sponsio", "caesar"], default=None)
    args = ap.parse_args()
    builders = {}
    if args.only in (None, "sponsio"):
        from sponsio_sim.analysis.reports import build_reports as sponsio_reports
        builders["sponsio"] = sponsio_reports
    if args.only in (None, "caesar"):
        from caesar_sim.analysis.reports import build_reports as caesar_reports
        builders["caesar"] = caesar_reports
    start = time.perf_counter()
    for name, build in builders.items():
        t = time.perf_counter()
        index = build(Path(args.out) / name, seed=args.seed, scale=args.scale, progress=None,
                      mc_scale=args.mc_scale)
        print(f"{name}: {index} ({time.perf_counter() - t:.0f} s)")
    print(f"all reports in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
