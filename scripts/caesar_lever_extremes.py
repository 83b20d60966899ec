#!/usr/bin/env python
"""Players that follow the rules: at each Circus lever's extreme values, does every-seat `net` play the game
as every-seat `mc` does, more closely than today's field?

For every lever the report turns (``analysis.balance.levers.REPORT_LEVERS``: each value listed, and the
standard rules), three player models play the same seeded games under that rule set: ``net`` in
every seat, ``mc:8`` in every seat (flat Monte Carlo, `tuned` rollouts, as in the report's
robustness ladder) and the former field (``--former``, by default the previous reference
fields' single member, `distilled@br1-<P>p-distilled.json`, in every seat). For each headline
measure (``analysis.balance.levers.MEASURES``: the start seat's gap to the fair share, the largest seat
gap, the score spread, the winner's lead, close games, lead changes, the comeback rate) it prints
each model's level with its 95 % CI and whether `net` is closer to `mc` than the former field is;
the summary line counts the cells and compares the mean absolute distances to `mc`.

    python scripts/caesar_lever_extremes.py                  # 4 players, 4,000 games (mc: 1,000) per cell
    python scripts/caesar_lever_extremes.py --games 400 --mc-games 100 --threads 1   # a quick look
"""

from __future__ import annotations

import argparse


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4000, help="games per cell for net and the former field")
    ap.add_argument("--mc-games", type=int, default=1000, help="games per cell for every-seat mc:8")
    ap.add_argument("--net", default="net", help="the net strategy (net or net@FILE)")
    ap.add_argument("--former", default=None, help="the former field's strategy (default: its distilled member)")
    ap.add_argument("--seed", type=int, default=61)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--csv", default=None, help="also write the table to this CSV file")
    args = ap.parse_args()

    import numpy as np
    import pandas as pd

    from caesar_sim.analysis.balance.levers import MEASURES, REPORT_LEVERS, levels
    from caesar_sim.analysis.game.runs import RunSettings, run_games
    from caesar_sim.analysis.balance.sweep import variants

    players = args.players
    former = args.former or f"distilled@caesar_sim/fields/br1-{players}p-distilled.json"
    models = {"net": (f"{args.net} x{players}", args.games), "mc:8": (f"mc:8 x{players}", args.mc_games),
              "former field": (f"{former} x{players}", args.games)}
    measures = [m for m in MEASURES if m not in ("days per game", "mean final coins")]
    cells = [("standard", [])] + [(f"{k}={v}", [f"{k}={v}"]) for k, v in variants(REPORT_LEVERS)]
    rows = []
    for name, overrides in cells:
        level = {}
        for model, (profile, n) in models.items():
            b = run_games(players, profile, n, RunSettings(seed=args.seed, overrides=overrides, threads=args.threads,
                                                           progress=False), rotate=True, day_totals=True)
            level[model] = levels(b)
        for m in measures:
            row = {"rules": name, "measure": m}
            for model in models:
                v, lo, hi = level[model][m]
                row[model] = f"{v:.3f} [{lo:.3f}, {hi:.3f}]"
                row[f"{model}_value"] = v
            row["net_closer"] = abs(row["net_value"] - row["mc:8_value"]) < abs(row["former field_value"] -
                                                                                 row["mc:8_value"])
            rows.append(row)
        print(f"{name}: done", flush=True)
    table = pd.DataFrame(rows)
    show = table[["rules", "measure", *models, "net_closer"]]
    print(show.to_string(index=False))
    d_net = np.abs(table["net_value"] - table["mc:8_value"]).mean()
    d_former = np.abs(table["former field_value"] - table["mc:8_value"]).mean()
    print(f"net closer to mc in {int(table['net_closer'].sum())} of {len(table)} cells; mean |net - mc| "
          f"{d_net:.4f}, mean |former field - mc| {d_former:.4f} ({players} players, seed {args.seed}; net/former "
          f"{args.games:,} games, mc {args.mc_games:,} per cell)")
    if args.csv:
        table.to_csv(args.csv, index=False)


if __name__ == "__main__":
    main()
