"""Does a seat that follows `sponsio advise` win more with inference than without?

Usage: python scripts/advise_strength.py [--games 300] [--seed 1] [--players 4] [--profile "ev0.5:goal:cash3 x4"]
       [-n 200] [--screen 50] [--keep 4] [--proposals 20000] [--mc 100] [--format table|json]

One seat decides every betting action and end-of-betting token by advice
(``analysis.advise.duel``: -n rollouts for the --keep best actions, --screen
for every action, ranked by round gain), the others play --profile; the
advised seat rotates over the seats game by game, and the arms meet the same
deals. Arms: advice with inference, advice without (the same ranking on
uniformly dealt hidden cards), and the engine's own ``mc`` betting policy
(mcR with R = --mc, the rest of its strategy as the profile's) in the same
seat rotation. Prints each arm's win share (95 % Wilson CI) and final coins,
and the paired difference inference - no inference (t interval).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--profile", default=None, help="one strategy per seat (default: REFERENCE_STRATEGY at every seat)")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--screen", type=int, default=50)
    ap.add_argument("--keep", type=int, default=4)
    ap.add_argument("--proposals", type=int, default=20000, help="inference: deals weighed per decision")
    ap.add_argument("--mc", type=int, default=100, help="rollouts of the engine's mc arm (0: leave it out)")
    ap.add_argument("--format", choices=["table", "json"], default="table")
    args = ap.parse_args()
    from tabletop_mc.output import dumps
    from tabletop_mc.stats import mean_ci, wilson
    from sponsio_sim.analysis.advise.duel import duel
    from sponsio_sim.analysis.advise.infer import Reading
    from sponsio_sim.analysis.advise.ranking import Rollouts
    from sponsio_sim.analysis.game.setup import parse_profile, reference_profile
    from sponsio_sim.analysis.game.tournament import tournament
    from sponsio_sim.analysis.settings import Run
    from sponsio_sim.rules import load_rules

    rules = load_rules(None, args.players)
    profile = args.profile or reference_profile(rules)
    rows, shares = [], {}
    for infer in (True, False):
        t = time.perf_counter()
        games = duel(profile, rules, args.games, seed=args.seed, reading=Reading(infer, proposals=args.proposals),
                     rollouts=Rollouts(args.n, screen=args.screen, keep=args.keep))
        took = time.perf_counter() - t
        s = np.array([g.share for g in games])
        shares[infer] = s
        p, lo, hi = wilson(s.sum(), len(s))
        c, clo, chi = mean_ci(sum(g.coins for g in games), sum(g.coins ** 2 for g in games), len(games))
        rows.append(dict(arm=f"advise {'with' if infer else 'without'} inference", games=len(s), win_share=p,
                         win_low=lo, win_high=hi, coins=c, coins_low=clo, coins_high=chi,
                         seconds_per_game=took / len(s)))
    if args.mc:
        mine = parse_profile(profile, rules)[0]
        mc = mine.text.replace(mine.text.split(":")[0], f"mc{args.mc}", 1)
        t = time.perf_counter()
        df = tournament(f"{mc}, {mine.text} x{rules.players - 1}", players=rules.players, n=args.games,
                        rotate=True, run=Run(seed=args.seed)).table
        took = time.perf_counter() - t
        e = df.iloc[0]
        rows.append(dict(arm=f"engine {mc}", games=args.games, win_share=e["win"], win_low=e["win_low"],
                         win_high=e["win_high"], coins=e["coins"], coins_low=e["coins_low"],
                         coins_high=e["coins_high"], seconds_per_game=took / args.games))
    d = shares[True] - shares[False]
    diff = mean_ci(d.sum(), (d * d).sum(), len(d))
    verdict = ("inference wins more" if diff[1] > 0 else "inference wins less" if diff[2] < 0
               else "no evidence of a difference")
    meta = dict(profile=profile, rules=rules.summary(), games=args.games, seed=args.seed, n=args.n,
                screen=args.screen, keep=args.keep, proposals=args.proposals, paired_share_difference=list(diff), verdict=verdict)
    if args.format == "json":
        import pandas as pd
        print(dumps({"arms": pd.DataFrame(rows)}, meta))
        return
    print(f"one advised seat against {profile} (rotated, {args.games} games, seed {args.seed}; "
          f"advice: n {args.n}, screen {args.screen}, keep {args.keep}, {args.proposals:,} proposals)")
    for r in rows:
        print(f"  {r['arm']:<34} win share {r['win_share']:.3f} [{r['win_low']:.3f}, {r['win_high']:.3f}]  "
              f"coins {r['coins']:.1f} [{r['coins_low']:.1f}, {r['coins_high']:.1f}]  "
              f"{r['seconds_per_game']:.2f} s/game")
    print(f"  paired win-share difference, inference - none: {diff[0]:+.3f} [{diff[1]:+.3f}, {diff[2]:+.3f}] "
          f"(95 % t interval): {verdict}")


if __name__ == "__main__":
    main()
