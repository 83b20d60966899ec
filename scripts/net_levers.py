#!/usr/bin/env python
"""Do the players follow the rules? Every seat `net`, every seat `mc` and the reference field at each
lever's two extreme values (Sponsio).

For each lever of `sponsio sweep` (``sweep.default_levers``) and each of its two extreme values, the same
seeds are played three ways: every seat ``net:goal:net``, every seat ``mc`` (field-free rollouts, its own
later decisions and cash-in by the network: ``mcR:goal:net``) and the shipped reference field. The
headline measures: the troll share (troll seat-rounds / seat-rounds), each bet type's share of the bets,
the largest gap between two seats' win shares (seats fixed) and the rounds per game. Per rule set it
prints each model's measures and how far `net` and the field are from `mc` (sum over the measures of the
absolute differences, the bet shares counted once as their total variation); `net` follows the rules as
the lookahead does when its distance is the smaller.

    python scripts/net_levers.py --players 4 -n 3000 --mc-games 300
    python scripts/net_levers.py --players 3 --levers troll_pay,round_bonus
"""

from __future__ import annotations

import argparse
import time


def measures(totals, rules) -> dict:
    import numpy as np
    from sponsio_sim.bet_kinds import KINDS
    from sponsio_sim.kernels.layout import named_stats
    s = named_stats(totals, rules.players)
    entries = s["entry"]
    rounds = float(entries["rounds"].sum())
    bets = entries["bets"].sum(axis=0)
    out = {"troll_share": float(entries["troll_rounds"].sum()) / max(rounds, 1.0),
           "rounds_per_game": float(s["rounds"]) / max(float(s["games"]), 1.0)}
    shares = s["seat"]["share"] / max(float(s["games"]), 1.0)
    out["seat_gap"] = float(np.max(shares) - np.min(shares))
    for k, kind in enumerate(KINDS):
        if kind.name in rules.bets:
            out[f"{kind.name}_share"] = float(bets[k]) / max(float(bets.sum()), 1.0)
    return out


def distance(a: dict, b: dict) -> float:
    share = [k for k in a if k.endswith("_share") and k != "troll_share"]
    tv = 0.5 * sum(abs(a[k] - b[k]) for k in share)
    return (abs(a["troll_share"] - b["troll_share"]) + tv + abs(a["seat_gap"] - b["seat_gap"])
            + abs(a["rounds_per_game"] - b["rounds_per_game"]) / 5.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("-n", type=int, default=3000, help="games of net and of the field per rule set")
    ap.add_argument("--mc-games", type=int, default=300, help="games of every-seat mc per rule set")
    ap.add_argument("--rollouts", type=int, default=50, help="mc's rollouts per candidate")
    ap.add_argument("--levers", default="", help="comma-separated lever keys (default: every sweep lever)")
    ap.add_argument("--field", default="reference", help="the field compared (a --profile: reference, field:FILE)")
    ap.add_argument("--seed", type=int, default=41)
    args = ap.parse_args()

    import pandas as pd
    from sponsio_sim.analysis.balance.sweep import default_levers
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.runs import run_games
    from sponsio_sim.analysis.game.setup import parse_profile
    from sponsio_sim.rules import load_rules

    base = load_rules(None, args.players)
    model = find_model(base, variant="reference")
    chosen = {k.strip() for k in args.levers.split(",") if k.strip()}
    rows = []
    for lever in default_levers(base):
        if chosen and lever.key not in chosen:
            continue
        for value in (min(lever.values), max(lever.values)):
            rules = load_rules(base, overrides=lever.overrides(base, value))
            t = time.perf_counter()
            got = {}
            for name, text, n in (("net", f"net:goal:net x{rules.players}", args.n),
                                  ("mc", f"mc{args.rollouts}:goal:net x{rules.players}", args.mc_games),
                                  ("field", args.field, args.n)):
                profile = parse_profile(text, rules)
                got[name] = measures(run_games(rules, profile, n, rotate=False, seed=args.seed, model=model), rules)
            row = {"lever": lever.key, "value": value}
            for name, m in got.items():
                row.update({f"{name}:{k}": v for k, v in m.items()})
            row["net_to_mc"] = distance(got["net"], got["mc"])
            row["field_to_mc"] = distance(got["field"], got["mc"])
            rows.append(row)
            print(f"{lever.key}={value}: net {row['net_to_mc']:.3f} field {row['field_to_mc']:.3f} from mc "
                  f"(troll share net {got['net']['troll_share']:.3f} mc {got['mc']['troll_share']:.3f} field "
                  f"{got['field']['troll_share']:.3f}; {time.perf_counter() - t:.0f} s)", flush=True)
    table = pd.DataFrame(rows)
    pd.set_option("display.width", 250)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    closer = int((table["net_to_mc"] < table["field_to_mc"]).sum())
    print(f"net closer to mc than the field in {closer} of {len(table)} rule sets; mean distance net "
          f"{table['net_to_mc'].mean():.3f}, field {table['field_to_mc'].mean():.3f}")


if __name__ == "__main__":
    main()
