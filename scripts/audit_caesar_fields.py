#!/usr/bin/env python
"""Audit the shipped Circus Maximus reference fields against their targets.

On seeds the fields were not made with (``--seed``), per player count:

- every member's paired gain against the field (one seat, rotating, plays the member, the others
  draw from the field): none may gain more than 0.01 win share (95 % lower bound);
- the oracle's best responses, made afresh against the field on this seed: `tune --against
  reference` (CMA-ES) and `distill --against reference`; target: gain <= 0.03 (lower bound);
- ``mc`` with field rollouts (``--mc``; by default ``mc:8:<D>:reference`` with D the field's heaviest
  deterministic `net` member, else its heaviest `distilled` one: the mover rolls out as D, every other
  seat as a member drawn per rollout; slow); target: at most half of its gain against the fields
  before `net` (lower bound <= 0.33 / 0.36 / 0.37 at 3 / 4 / 5 players; the aim stays 0.03);
- the field's speed in games/s/core (one thread, compile excluded): target >= 5,000.

    python scripts/audit_caesar_fields.py                      # 3, 4 and 5 players, 20,000 games each (mc 4,000)
    python scripts/audit_caesar_fields.py --players 4 -n 2000 --mc-games 200 --quick   # a quick look
    python scripts/audit_caesar_fields.py -n 10000 --mc-games 3000 --skip-oracle       # members and mc only
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


MC_TARGETS = {3: 0.33, 4: 0.36, 5: 0.37}   # half of mc:8's gain against the fields before `net` (issue 46)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("-n", type=int, default=20_000, help="games per member and per best response")
    ap.add_argument("--mc-games", type=int, default=4_000)
    ap.add_argument("--mc", default="auto", help="the mc strategy audited (auto: mc:8:<the field's heaviest "
                                                  "deterministic net, else distilled, member>:reference)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--skip-mc", action="store_true")
    ap.add_argument("--skip-oracle", action="store_true", help="leave out the oracle's tune and distill searches")
    ap.add_argument("--quick", action="store_true", help="small oracle searches (smoke run)")
    ap.add_argument("--csv", default=None, help="also write the table to this CSV file")
    args = ap.parse_args()

    import pandas as pd

    from tabletop_mc.runner import set_threads
    from caesar_sim import weights as WT
    from caesar_sim.analysis.game.distill import Schedule, distill
    from caesar_sim.analysis.game.meta import MARGIN, distill_start, paired_gain
    from caesar_sim.analysis.game.nettrain import rollout_member
    from caesar_sim.analysis.game.runs import RunSettings, run_field
    from caesar_sim.analysis.game.tune import Search, tune
    from caesar_sim.fieldplay import field_play

    rows = []
    tmp = Path(tempfile.mkdtemp(prefix="caesar-audit-"))
    for players in args.players:
        play = field_play("reference", players)
        print(f"== {players} players: reference field {play.mixture()}", flush=True)
        set_threads(1)
        one = RunSettings(seed=args.seed, progress=False, threads=1)
        run_field(players, play, 64, one)
        t = time.process_time()
        run_field(players, play, 20_000, one, stats=False)
        speed = 20_000 / (time.process_time() - t)
        rows.append({"players": players, "kind": "speed", "strategy": "reference field", "n": 20_000,
                     "value": speed, "target": ">= 5,000 games/s/core", "met": speed >= 5000})
        print(f"field speed: {speed:,.0f} games/s/core (one thread)", flush=True)
        set_threads(None)

        bases = {}

        def gain(kind, strategy, n, target, limit):
            if n not in bases:
                bases[n] = run_field(players, play, n, RunSettings(seed=args.seed), stats=False)
            g = paired_gain(players, play, strategy, n, RunSettings(seed=args.seed), base=bases[n])
            rows.append({"players": players, "kind": kind, "strategy": g["strategy"], "n": n, "value": g["gain"],
                         "low": g["gain_low"], "high": g["gain_high"], "target": target,
                         "met": g["gain_low"] <= limit})
            print(f"{kind:8s} {g['strategy']}: gain {g['gain']:+.4f} [{g['gain_low']:+.4f}, {g['gain_high']:+.4f}] "
                  f"(n={n:,})", flush=True)

        for m in play.field.members:
            gain("member", m, args.n, f"<= {MARGIN} (CI lower bound)", MARGIN)
        if not args.skip_oracle:
            gens, tune_n, dgames, iters = (2, 200, 40, 1) if args.quick else (30, 8000, 2000, 2)
            res = tune(players, tune_n, Search(gens, lam=8, start="tuned"),
                       RunSettings(seed=args.seed, command=f"audit_caesar_fields.py --seed {args.seed}"), against=play)
            path = tmp / f"tune-{players}p.json"
            WT.save(path, res.weights, players, res.meta)
            gain("oracle", f"tuned@{path}", args.n, "<= 0.03 (CI lower bound)", 0.03)
            dres = distill(players, play, distill_start(play), Schedule(dgames, max(dgames // 4, 20), iters),
                           RunSettings(seed=args.seed))
            path = tmp / f"distilled-{players}p.json"
            WT.save(path, dres.weights, players, dres.meta, policy="distilled")
            gain("oracle", f"distilled@{path}", args.n, "<= 0.03 (CI lower bound)", 0.03)
        if not args.skip_mc:
            mc = args.mc if args.mc != "auto" else f"mc:8:{rollout_member(play).label}:reference"
            limit = MC_TARGETS[players]
            gain("mc", mc, args.mc_games, f"<= {limit} (CI lower bound; aim 0.03)", limit)
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    if args.csv:
        table.to_csv(args.csv, index=False)


if __name__ == "__main__":
    main()
