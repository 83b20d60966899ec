#!/usr/bin/env python
"""CPU time of the meta-game solver (``tabletop_mc.metagame``) on synthetic tables.

Each table is a random constant-sum win-share game of N seats over K
strategies (a seat's share in a profile grows with its strategy's strength
and a random per-profile term; shares sum to 1), every entry with SE 0.003
(about 20,000 games). Per size it prints the CPU seconds (process time, so
other users of a shared machine do not inflate it) of ``solve_nash``, of
``bootstrap`` with ``--replicates`` replicates re-solved, and of ``alpharank``,
with the equilibria found, the replicates resolved and the verdict line.

    python scripts/bench_metagame.py
    python scripts/bench_metagame.py --sizes 4x8,5x10 --replicates 200
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tabletop_mc.metagame import PayoffTable, alpharank, bootstrap, n_profiles, solve_nash, verdict


def winshare_table(n: int, k: int, seed: int, se: float = 0.003) -> PayoffTable:
    rng = np.random.default_rng(seed)
    table = PayoffTable([f"s{j}" for j in range(k)], n)
    strength = rng.normal(0.0, 0.3, k)
    for i, counts in enumerate(table.profiles):
        seated = counts > 0
        weight = np.exp(strength + rng.normal(0.0, 0.3, k)) * seated
        share = weight / (weight * counts).sum()          # one seat's share; all seats sum to 1
        table.payoff[i] = np.where(seated, share, np.nan)
        table.se[i] = np.where(seated, se, np.nan)
        table.n[i] = np.where(seated, 20_000, 0)
    return table


def cpu(f):
    start = time.process_time()
    out = f()
    return out, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="4x6,4x8,5x8,5x10,4x12", help="NxK list (seats x strategies)")
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for size in args.sizes.split(","):
        n, k = (int(v) for v in size.lower().split("x"))
        game = winshare_table(n, k, args.seed).game()
        eqs, t_solve = cpu(lambda: solve_nash(game))
        boot, t_boot = cpu(lambda: bootstrap(game, eqs[0].mixture, replicates=args.replicates, seed=args.seed + 1))
        _, t_rank = cpu(lambda: alpharank(game))
        print(f"N={n} K={k} ({n_profiles(n, k)} profiles): "
              f"solve_nash {t_solve:.2f} s CPU ({len(eqs)} equilibria), bootstrap x{args.replicates} "
              f"{t_boot:.2f} s ({boot.resolved} resolved), alpharank {t_rank:.3f} s")
        print(f"    {verdict(boot)}")


if __name__ == "__main__":
    main()
