#!/usr/bin/env python
"""Record the compile plans the packages ship (``tabletop_mc.warmup``, ``tabletop_mc.compileplan``).

Each command below runs once in a fresh process on an empty kernel cache
(with no helper), its compiles recorded. Plans are made from the
recording (``compileplan.choose``): one where the helper waits for (or
compiles) what a subtree calls that the command compiles earlier, one that
takes those as already in the cache; and each again choosing among smaller
subtrees too (``compileplan.subtree_sizes``), where that changes the plan.
Each, and the plan the package ships now, is then timed: the command run
cold with that plan's helper (``--repeat`` rounds, each candidate once a
round, the median), and the fastest is written to
``<package>/plans/<name>.plan`` (the shipped one stays where none beats
it). Rerun it after a change to the kernels a command compiles (a stale
plan costs only speed: the command compiles what the helper did not). It prints, per plan, the
recorded compile time, each plan's predicted and timed first run;
``scripts/bench_startup.py --cold`` measures the first runs as a user runs
them.

    python scripts/make_compile_plans.py            # every plan
    python scripts/make_compile_plans.py --only game
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabletop_mc.atomic import write_bytes_atomic  # noqa: E402
from tabletop_mc.compileplan import choose, subtree_sizes, write_plan  # noqa: E402
from tabletop_mc.warmup import ENV, load_plan, plan_path  # noqa: E402

HAND = "R9 R7 R2 B8 B5 G6 G1 Y3"
TALON = "R1 B9 G4 Y7"
# (package, plan name, click entry point, arguments): the commands whose first run the issue on
# start-up times (scripts/bench_startup.py --cold); `sponsio_sim.cli` chooses the plan by command.
PLANS = [
    ("sponsio_sim", "odds", "sponsio_sim.cli:main", ["odds", "--hand", HAND, "--talon", TALON]),
    ("sponsio_sim", "game", "sponsio_sim.cli:main", ["game", "--profile", "net:goal:net x4", "--seed", "1"]),
    ("sponsio_sim", "game-mc", "sponsio_sim.cli:main",
     ["game", "--profile", "mc:goal:cash5, net:goal:net, net:goal:net, net:goal:net", "--seed", "1"]),
    ("sponsio_sim", "advise", "sponsio_sim.cli:main",
     ["advise", "--hand", "R1 G8 G3 G2 Y9 Y7 Y5 Y4", "--talon", "R3 B9 G7 G5", "--dealer", "3", "--history",
      "0: reveal Y1, bet colour:R=4; 1: pass; 2: reveal B1, bet colour:B=0"]),
]


CUT = (float("inf"),)   # a cut in time alone (``compileplan.choose``'s default)


def timed(target: str, argv: list[str]) -> float:
    """Wall seconds of ``target argv`` in a fresh process on an empty kernel cache, with its helper."""
    cache = tempfile.mkdtemp(prefix="plan-cache-")
    module, func = target.split(":")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, **{ENV: "1"}, PYTHONPATH=str(ROOT))
    try:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"from {module} import {func}; {func}()", *argv], env=env, cwd=cache,
                       check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - start
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def record(target: str, argv: list[str]) -> list:
    """The compiles of ``target argv`` run in a fresh process on an empty kernel cache."""
    cache = tempfile.mkdtemp(prefix="plan-cache-")
    out = Path(cache) / "compiles.pkl"
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, **{ENV: "0"}, PYTHONPATH=str(ROOT))
    try:
        subprocess.run([sys.executable, "-m", "tabletop_mc.compileplan", str(out), target, *argv], env=env,
                       check=True, stdout=subprocess.DEVNULL)
        with open(out, "rb") as f:
            return pickle.load(f)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[], choices=[p[1] for p in PLANS])
    ap.add_argument("--repeat", type=int, default=1, help="cold runs per candidate plan (the median counts)")
    args = ap.parse_args()
    import numba
    for package, name, target, argv in PLANS:
        if args.only and name not in args.only:
            continue
        compiles = record(target, argv)
        path = plan_path(package, name)
        path.parent.mkdir(exist_ok=True)
        meta = {"command": [target, *argv], "numba": numba.__version__}
        alone = max(c.end for c in compiles)
        candidates = []   # (label, choice or None for the plan shipped now, its bytes)
        shipped = path.read_bytes() if load_plan(path) is not None else None
        if shipped is not None:
            candidates.append(("shipped", None, shipped))
        for label, deps, sizes in (("waits", True, CUT), ("takes", False, CUT),
                                   ("waits, sized", True, subtree_sizes(compiles)),
                                   ("takes, sized", False, subtree_sizes(compiles))):
            choice = choose(compiles, deps=deps, sizes=sizes)
            if any(c is not None and (c.taken, c.waits) == (choice.taken, choice.waits) for _, c, _ in candidates):
                continue   # the sizes changed nothing: that plan is timed already
            write_plan(path, compiles, choice, meta)
            candidates.append((label, choice, path.read_bytes()))
        times = {label: [] for label, _, _ in candidates}
        for _ in range(args.repeat):   # round by round, so a machine that speeds up or slows down favours none
            for label, _, blob in candidates:
                write_bytes_atomic(path, blob)
                times[label].append(timed(target, argv))
        best = None
        for label, choice, blob in candidates:
            took = statistics.median(times[label])
            what = (f"{len(choice.taken)} subtrees: {', '.join(compiles[i].qualname for i in choice.taken)}"
                    if choice is not None else "as in the package now")
            predicted = f"predicted {choice.with_helper:5.1f} s, " if choice is not None else ""
            print(f"{name:<8} {label}: {len(compiles)} compiles, {alone:5.1f} s alone, {predicted}timed {took:5.1f} s "
                  f"({what})", flush=True)
            if best is None or took < best[0]:
                best = (took, choice, label, blob)
        if best[1] is None:
            plan = pickle.loads(best[3])
            write_bytes_atomic(path, pickle.dumps({**plan, "timed_s": round(best[0], 1)}, protocol=4))
        else:
            write_plan(path, compiles, best[1], {**meta, "chosen": best[2], "timed_s": round(best[0], 1)})
        print(f"{name:<8} kept: {best[2]}", flush=True)


if __name__ == "__main__":
    main()
