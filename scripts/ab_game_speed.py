#!/usr/bin/env python
"""Compare the full-game kernel's speed of two checkouts on a noisy machine.

    python scripts/ab_game_speed.py BEFORE_DIR AFTER_DIR [--seconds 60] [--profile "ev:goal x4"]

Each checkout plays batches of 1,500 games of the profile (one thread) in its
own process; the two processes run at the same time, pinned to cores 0 and
1, then again with the cores swapped, so both see the same load from the
rest of the machine. Batch k of both uses seed k: the figure is the median
over batches of the per-seed rate ratio (after / before), for each core
assignment. Each checkout keeps its own compiled kernels
(``DIR/.cache_bench``); a first short run compiles them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKER = r"""
import json, sys, time
import numba, numpy as np
numba.set_num_threads(1)
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import build_state, parse_profile
from sponsio_sim.analysis.game.runs import GAME_CHUNK
from sponsio_sim.kernels.game import engine
try:
    from sponsio_sim.kernels import layout           # the vocabulary at the kernels' root
except ImportError:
    from sponsio_sim.kernels.game import layout      # an older checkout: under kernels/game
stats_size = layout.stats_size
GAMES = layout.STATS_HEAD.games if hasattr(layout, "STATS_HEAD") else layout.S_GAMES   # either checkout's layout
from sponsio_sim.rules import load_rules
rules = load_rules("standard-4p")
tab, ints, weight = build_state(rules, parse_profile(sys.argv[2], rules), find_model(rules))
size = np.int64(stats_size(rules.players))
if hasattr(engine, "scored_switch"):          # either checkout's compile switches
    extra = (engine.scored_switch(ints), engine.mc_switch(ints))
else:
    extra = (engine.mc_switch(ints),) if hasattr(engine, "mc_switch") else ()
try:
    from sponsio_sim.analysis.game.setup import game_arrays   # a checkout with the rulebook apart: one GameArrays
    start = (game_arrays(tab, ints, weight),)
except ImportError:
    start = (tab, ints, weight)
engine.game_chunks(np.uint64(0), np.int64(0), np.array([10], dtype=np.int64), *start, size, *extra)
counts = np.full(1500 // GAME_CHUNK, GAME_CHUNK, dtype=np.int64)
rates, rep, end = [], 0, time.time() + float(sys.argv[1])
while time.time() < end:
    rep += 1
    c0 = time.process_time()
    out = engine.game_chunks(np.uint64(rep), np.int64(0), counts, *start, size, *extra).sum(axis=0)
    rates.append(out[GAMES] / (time.process_time() - c0))
print(json.dumps(rates))
"""


def start(repo: str, core: int, seconds: float, profile: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=repo, NUMBA_CACHE_DIR=os.path.join(repo, ".cache_bench"))
    cmd = ["taskset", "-c", str(core), sys.executable, "-c", WORKER, str(seconds), profile]
    return subprocess.Popen(cmd, cwd=repo, env=env, stdout=subprocess.PIPE, text=True)


def pair(before: str, after: str, cores: tuple[int, int], seconds: float, profile: str) -> list[float]:
    a, b = start(before, cores[0], seconds, profile), start(after, cores[1], seconds, profile)
    ra, rb = json.loads(a.communicate()[0]), json.loads(b.communicate()[0])
    n = min(len(ra), len(rb))
    return [rb[i] / ra[i] for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--profile", default="ev:goal x4", help="the profile both checkouts play (no mc seat)")
    opts = ap.parse_args()
    pair(opts.before, opts.after, (0, 1), 1.0, opts.profile)          # compile both (not timed)
    for cores in ((0, 1), (1, 0)):
        ratios = pair(opts.before, opts.after, cores, opts.seconds, opts.profile)
        print(f"before on core {cores[0]}, after on core {cores[1]}: {len(ratios)} batches, "
              f"after/before median {statistics.median(ratios):.3f}", flush=True)


if __name__ == "__main__":
    main()
