"""Does `sponsio advise` place the hidden cards better with inference than without?

Usage: python scripts/advise_calibration.py [--games 60] [--seed 1] [--players 4]
       [--profile "ev0.5:goal:cash3 x4"] [--proposals 4000] [--tremble 0.05] [--format table|json]

Plays --games narrated self-play games of --profile (seeds --seed ..), cuts
each at every betting decision where another seat has acted, and for every
card hidden from the deciding seat compares the predicted chance that it
sits with each other seat against where it really was: log-loss per hidden
card (95 % CI; paired difference inference - uniform), Brier score, and a
reliability table for each method (read it over 2,000 states or more).
"""

from __future__ import annotations

import argparse
import time

import pandas as pd


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--profile", default=None, help="one strategy per seat (default: REFERENCE_STRATEGY at every seat)")
    ap.add_argument("--proposals", type=int, default=4000)
    ap.add_argument("--tremble", type=float, default=None)
    ap.add_argument("--format", choices=["table", "json"], default="table")
    args = ap.parse_args()
    from tabletop_mc.output import dumps
    from sponsio_sim.analysis.advise.calibrate import reliability, score_states, summary
    from sponsio_sim.analysis.advise.infer import DEFAULT_TREMBLE
    from sponsio_sim.analysis.game.setup import reference_profile
    from sponsio_sim.rules import load_rules

    rules = load_rules(None, args.players)
    profile = args.profile or reference_profile(rules)
    tremble = DEFAULT_TREMBLE if args.tremble is None else args.tremble
    t = time.perf_counter()
    df, states = score_states(profile, rules, range(args.seed, args.seed + args.games), proposals=args.proposals,
                              tremble=tremble, progress=None)
    took = time.perf_counter() - t
    tables = {"summary": summary(df), "reliability_inference": reliability(df, "p_infer"),
              "reliability_uniform": reliability(df, "p_uniform")}
    meta = dict(profile=profile, rules=rules.summary(), games=args.games, seed=args.seed, states=states,
                proposals=args.proposals, tremble=tremble, seconds=round(took, 1))
    if args.format == "json":
        print(dumps(tables, meta))
        return
    pd.set_option("display.width", 200)
    print(f"{states} betting states from {args.games} games of {profile} (seeds {args.seed}..), "
          f"{args.proposals} proposals, tremble {tremble:g}; {took:.0f} s")
    for name, frame in tables.items():
        print(f"\n[{name}]\n{frame.to_string(index=False, float_format=lambda v: f'{v:.4f}')}")


if __name__ == "__main__":
    main()
