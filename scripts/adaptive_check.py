#!/usr/bin/env python
"""Players who adapt, checked against mc: at each lever's two extreme values, a measure (Sponsio: the
troll share; Circus: close games) under the reference field as shipped, under the field re-solved for
that rule set, and under every-seat mc.

    python scripts/adaptive_check.py                               # Sponsio, 4 and 3 players, every lever
    python scripts/adaptive_check.py --players 4 --lever troll_pay=0..4 --mc-games 40 --games 500
    python scripts/adaptive_check.py --game caesar                 # 3, 4, 5 players, the report's levers
    python scripts/adaptive_check.py --game caesar --players 4 --lever "favour.gold_coins=1;3"
"""

from __future__ import annotations

import argparse
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=["sponsio", "caesar"], default="sponsio")
    ap.add_argument("--players", type=int, nargs="*", default=None, help="default: 4 3 (Sponsio), 3 4 5 (Circus)")
    ap.add_argument("--lever", action="append", default=[],
                    help="Sponsio: KEY=A..B or KEY=v1,v2 (default: every lever); Circus: KEY=V1;V2 (default: the "
                         "report's levers)")
    ap.add_argument("-n", type=int, default=2_000, help="games of each field per value")
    ap.add_argument("--mc-games", type=int, default=200, help="games of every-seat mc per value")
    ap.add_argument("--games", type=int, default=500, help="games per profile of a re-solved payoff table")
    ap.add_argument("--keep", type=int, default=4, help="members in the re-solved table")
    ap.add_argument("--measure", default=None, help="default: troll share (Sponsio), close games (Circus)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--csv", help="also write the table here")
    args = ap.parse_args()

    from tabletop_mc.errors import UserError

    import pandas as pd

    t0 = time.perf_counter()
    frames, costs = [], []
    try:
        for p in args.players or ([4, 3] if args.game == "sponsio" else [3, 4, 5]):
            df, cost = (sponsio_check if args.game == "sponsio" else caesar_check)(p, args)
            frames.append(df)
            costs.append((p, cost))
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    df = pd.concat(frames, ignore_index=True)
    ci = lambda r, k: f"{r[k]:.2f} [{r[k + '_low']:.2f}, {r[k + '_high']:.2f}]"  # noqa: E731
    show = pd.DataFrame({"players": df["players"], "lever": df["lever"], "value": df["value"],
                         "fixed field": [ci(r, "fixed") for _, r in df.iterrows()],
                         "re-solved field": [ci(r, "adapted") for _, r in df.iterrows()],
                         "every-seat mc": [ci(r, "mc") for _, r in df.iterrows()],
                         "within": df["within"], "closer": df["closer"]})
    print(f"{df['measure'].iloc[0]}: fixed field, field re-solved for the rule set, every-seat mc "
          f"(n = {args.n:,} games per field, {args.mc_games:,} mc games; seed {args.seed}; re-solve over "
          f"{args.keep} members, {args.games:,} games per profile)")
    print(show.to_string(index=False))
    print("\nre-solved mixtures:")
    for _, r in df.iterrows():
        value = f"{r['value']:g}" if isinstance(r["value"], float) else r["value"]
        print(f"  {r['players']}p {r['lever']}={value}: {r['mixture']}")
    for p, c in costs:
        print(f"re-solve cost {p}p: {c['rule_sets']} rule sets, {c['profiles']} profiles, {c['games']:,} games, "
              f"{c['seconds']:.0f} s")
    print(f"within: {int(df['within'].sum())} of {len(df)}; closer to mc than the fixed field: "
          f"{int(df['closer'].sum())} of {len(df)}; {time.perf_counter() - t0:.0f} s in all")
    if args.csv:
        df.to_csv(args.csv, index=False)
    return 0


def sponsio_check(players: int, args):
    from tabletop_mc.errors import UserError
    from sponsio_sim.analysis.balance.adapt import mc_check
    from sponsio_sim.analysis.balance.measures import game_measures
    from sponsio_sim.analysis.balance.sweep import default_levers, parse_lever
    from sponsio_sim.rules import load_rules

    base = load_rules(None, players)
    measure = args.measure or "troll share"
    if measure not in game_measures(base):
        raise UserError(f"--measure {measure!r}: one of {', '.join(game_measures(base))}")
    levers = [parse_lever(t, base) for t in args.lever] or default_levers(base)
    return mc_check(base, levers, n=args.n, n_mc=args.mc_games, games=args.games, seed=args.seed, keep=args.keep,
                    measure=measure)


def caesar_check(players: int, args):
    from caesar_sim.analysis.balance.check import mc_check
    from caesar_sim.analysis.balance.levers import REPORT_LEVERS
    from caesar_sim.analysis.game.runs import RunSettings

    return mc_check(players, args.lever or REPORT_LEVERS, RunSettings(seed=args.seed), n=args.n, n_mc=args.mc_games,
                    games=args.games, keep=args.keep, measure=args.measure)


if __name__ == "__main__":
    sys.exit(main())
