#!/usr/bin/env python
"""Make the shipped reference fields of Sponsio (``sponsio_sim/fields``) and what they play with.

For each player count:

1. the default population without ``distilled`` is solved (`sponsio meta`) -> field F0;
2. the ev members' success model is refitted on-policy in F0's games;
3. ``distilled`` is fitted to ``mc``'s decisions against F0 (expert iteration,
   ``analysis.game.distill``) -> ``models/distilled-<P>p.json``;
4. the whole population is solved, with PSRO steps -> field F1;
5. the success model is refitted in F1's games -> ``models/standard-<P>p-reference.npz``;
6. solved again with it -> the shipped field ``fields/reference-<P>p.json`` and its payoff table.

Every step is seeded from ``--seed``; the field file records this command. The audit
(`scripts/audit_fields.py`) then measures, on seeds of its own, what gains against the field.

    python scripts/make_fields.py                    # 3 and 4 players (about an hour on 2 cores)
    python scripts/make_fields.py --players 4 --quick   # a smoke run into a temporary folder
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4])
    ap.add_argument("-n", type=int, default=10_000, help="games per profile")
    ap.add_argument("--psro", type=int, default=3)
    ap.add_argument("--distill-games", type=int, default=2_000, help="mc games per expert-iteration step")
    ap.add_argument("--distill-iterations", type=int, default=3)
    ap.add_argument("--fit-games", type=int, default=60_000, help="games per on-policy refit iteration")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--quick", action="store_true", help="small numbers, written to a temporary folder")
    args = ap.parse_args()
    if args.quick:
        args.n, args.psro, args.distill_games, args.distill_iterations, args.fit_games = 200, 1, 40, 1, 2_000

    from tabletop_mc.clitools import package_version
    from tabletop_mc.field import field_to_json
    from tabletop_mc.metarun import frames, to_field
    from sponsio_sim.analysis.game.calibrate import refit_on_policy
    from sponsio_sim.analysis.game.distill import distill
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.meta import meta_game, population
    from sponsio_sim.analysis.game.model import shipped
    from sponsio_sim.analysis.game.setup import mixture_profile, parse_strategy
    from sponsio_sim.rules import load_rules

    package = Path(resources.files("sponsio_sim"))
    fields_dir = package / "fields" if not args.quick else Path(tempfile.mkdtemp(prefix="fields-"))
    models_dir = package / "models" if not args.quick else fields_dir
    command = "python scripts/make_fields.py " + " ".join(sys.argv[1:])
    for players in args.players:
        t0 = time.perf_counter()
        rules = load_rules(None, players)
        members = [parse_strategy(t, rules) for t in population("default", rules).members]
        base = [m for m in members if m.betting != "distilled"]
        model = find_model(rules, variant="reference")

        def solve(pop, model, psro, tag):
            print(f"[{players}p] {tag}: {len(pop)} members", flush=True)
            result, steps = meta_game(rules, pop, model, n=args.n, seed=args.seed, psro=psro)
            print(f"[{players}p] {tag}: {result.verdict}", flush=True)
            if len(steps):
                print(steps.to_string(index=False), flush=True)
            return result

        def refit(result, pop, model, tag):
            field = mixture_profile(pop, result.equilibrium.mixture, tag, rules)
            off = shipped(rules) or model
            refit_model, hist = refit_on_policy(rules, off, profile=field, iterations=4, games=args.fit_games,
                                                seed=args.seed)
            refit_model.meta.update(variant="reference", economy=model.meta.get("economy"),
                                    made_by=command, field=field.text())
            print(f"[{players}p] model refitted in {tag}'s games: largest gap "
                  f"{hist['max_gap_pp'].min():.2f} pp", flush=True)
            return refit_model

        f0 = solve(base, model, 0, "F0")
        model = refit(f0, base, model, "F0")
        field0 = mixture_profile(base, f0.equilibrium.mixture, "F0", rules)
        weights, table = distill(rules, field0, model, iterations=args.distill_iterations,
                                 games=args.distill_games, holdout=max(args.distill_games // 4, 20),
                                 seed=args.seed, mc="mc:goal:cash3")
        print(table.to_string(index=False), flush=True)
        weights.meta.update(made_by=command, version=package_version())
        # the distilled members read the shipped weights from here on (a quick run keeps the package's)
        (models_dir / f"distilled-{players}p.json").write_text(weights.to_json())
        f1 = solve(members, model, args.psro, "F1")
        members = [parse_strategy(t, rules) for t in f1.names]
        model = refit(f1, members, model, "F1")
        f2 = solve(members, model, 0, "F2")
        model.save(models_dir / f"standard-{players}p-reference.npz")
        payoffs = f"reference-{players}p-payoffs.csv"
        f2.table.to_csv(fields_dir / payoffs)
        field = to_field(f2, game="sponsio", rules=rules.name, command=command, seed=args.seed, games=args.n,
                         version=package_version(), payoffs=payoffs,
                         notes={"verdict": f2.verdict, "equilibria": frames(f2)["equilibria"].to_dict("records"),
                                "distilled_agreement": weights.meta.get("agreement")})
        (fields_dir / f"reference-{players}p.json").write_text(field_to_json(field))
        print(f"[{players}p] wrote {fields_dir / f'reference-{players}p.json'} in "
              f"{time.perf_counter() - t0:.0f} s: {field.text()}", flush=True)
    if args.quick:
        print(f"(quick run: files in {fields_dir})")
        shutil.rmtree(fields_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
