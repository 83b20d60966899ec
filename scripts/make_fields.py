#!/usr/bin/env python
"""Make the shipped reference fields of Sponsio (``sponsio_sim/fields``) and what they play with.

For each player count:

1. the default population without ``distilled`` is solved (`sponsio meta`) -> field F0;
2. the ev members' success model is refitted on-policy in F0's games;
3. ``distilled`` is fitted to ``mc``'s decisions against F0 (expert iteration,
   ``analysis.game.distill``) -> ``models/distilled-<P>p.json``;
4. the whole population is solved, with PSRO steps -> field F1;
5. the success model is refitted in the games of the average of the fields solved so far
   (fictitious play: damps the chase of model and mixture) and the population solved again with it,
   PSRO steps included (a refit moves the mixture, and a candidate that gained nothing against
   the old mixture may gain against the new one), until the mixture moves at most ``--settle``
   (L1) and no candidate was added -> ``models/standard-<P>p-reference.npz`` and the shipped
   field ``fields/reference-<P>p.json`` with its payoff table.

``--from-shipped`` skips steps 1-3: it starts at step 4 from the shipped field's population (with
the default population's members it lacks), success model and ``distilled`` weights (to settle a
shipped field again after a change to step 5, or with a new member such as ``net``; the field file
then records that command).

Every step is seeded from ``--seed``; the field file records this command. The audit
(`scripts/audit_fields.py`) then measures, on seeds of its own, what gains against the field.

    python scripts/make_fields.py                    # 3 and 4 players (about an hour on 2 cores)
    python scripts/make_fields.py --players 4 --quick   # a smoke run into a temporary folder
    python scripts/make_fields.py --players 3 --from-shipped   # settle the shipped 3-player field again
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

import numpy as np

CHECK_SEED = 7   # the in-field calibration check's games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4])
    ap.add_argument("-n", type=int, default=10_000, help="games per profile")
    ap.add_argument("--psro", type=int, default=3)
    ap.add_argument("--distill-games", type=int, default=2_000, help="mc games per expert-iteration step")
    ap.add_argument("--distill-iterations", type=int, default=3)
    ap.add_argument("--fit-games", type=int, default=60_000, help="games per on-policy refit iteration")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--settle", type=float, default=0.1,
                    help="refit and solve again until the mixture moves at most this much (L1)")
    ap.add_argument("--max-refits", type=int, default=4, help="at most this many refits after PSRO")
    ap.add_argument("--from-shipped", action="store_true",
                    help="start from the shipped field's population, model and distilled weights (step 4 on)")
    ap.add_argument("--check-only", action="store_true",
                    help="only the in-field calibration check of the shipped models, written into their files")
    ap.add_argument("--quick", action="store_true", help="small numbers, written to a temporary folder")
    args = ap.parse_args()
    if args.check_only:
        return check_shipped(args.players)
    if args.quick:
        args.n, args.psro, args.distill_games, args.distill_iterations, args.fit_games = 200, 1, 40, 1, 2_000

    from tabletop_mc.clitools import package_version
    from tabletop_mc.field import field_to_json
    from tabletop_mc.metarun import frames, to_field
    from sponsio_sim.analysis.game.calibrate import refit_on_policy
    from sponsio_sim.analysis.game.distill import distill
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.meta import meta_game, population
    from sponsio_sim.analysis.game.model import economy, shipped
    from sponsio_sim.analysis.game.setup import mixture_profile, parse_profile, parse_strategy
    from sponsio_sim.rules import load_rules

    package = Path(resources.files("sponsio_sim"))
    fields_dir = package / "fields" if not args.quick else Path(tempfile.mkdtemp(prefix="fields-"))
    models_dir = package / "models" if not args.quick else fields_dir
    command = "python scripts/make_fields.py " + " ".join(sys.argv[1:])
    for players in args.players:
        t0 = time.perf_counter()
        rules = load_rules(None, players)
        members = [parse_strategy(t, rules) for t in population("default", rules).members]
        base = [m for m in members if m.betting != "distilled"]   # F0: before distillation
        model = find_model(rules, variant="reference")

        def solve(pop, model, psro, tag):
            print(f"[{players}p] {tag}: {len(pop)} members", flush=True)
            result, steps = meta_game(rules, pop, model, n=args.n, seed=args.seed, psro=psro)
            print(f"[{players}p] {tag}: {result.verdict}", flush=True)
            if len(steps):
                print(steps.to_string(index=False), flush=True)
            return result

        def refit(pop, mixture, model, tag):
            field = mixture_profile(pop, mixture, tag, rules)
            off = shipped(rules) or model
            refit_model, hist = refit_on_policy(rules, off, profile=field, iterations=4, games=args.fit_games,
                                                seed=args.seed)
            refit_model.meta.update(variant="reference", economy=economy(rules), made_by=command, command=command,
                                    field=field.text())
            print(f"[{players}p] model refitted in {tag}'s games: largest gap "
                  f"{hist['max_gap_pp'].min():.2f} pp", flush=True)
            return refit_model

        started_from = None
        if args.from_shipped:
            from sponsio_sim.analysis.game.model import DistilledWeights
            started_from = f"the shipped field, model and distilled weights of commit {git_head()}"
            members = list(parse_profile("reference", rules))
            # members the default population gained since the shipped field was made join it
            known = {m.text for m in members}
            members += [m for m in (parse_strategy(t, rules) for t in population("default", rules).members)
                        if m.text not in known]
            name = f"distilled-{players}p.json"
            weights = DistilledWeights.from_json((package / "models" / name).read_text(encoding="utf-8"), name)
        else:
            f0 = solve(base, model, 0, "F0")
            model = refit(base, f0.equilibrium.mixture, model, "F0")
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
        # a fixed point of field, model and population: refit and solve again, PSRO steps included,
        # until the mixture stays put and no candidate joins (the model moves the members' bets, the
        # bets move the mixture, the mixture moves the best responses). Damped as in fictitious play:
        # the refit plays the AVERAGE of the mixtures solved so far, not the last one alone (without
        # the average, two equilibria swapped places on every refit).
        f2, k = f1, 1
        average = dict(zip(f1.names, f1.equilibrium.mixture))
        while True:
            model = refit(members, [average.get(m.text, 0.0) for m in members], model, f"F{k}")
            before = dict(zip(f2.names, f2.equilibrium.mixture))
            f2, k = solve(members, model, args.psro, f"F{k + 1}"), k + 1
            grew = len(f2.names) > len(members)
            members = [parse_strategy(t, rules) for t in f2.names]
            after = dict(zip(f2.names, f2.equilibrium.mixture))
            moved = float(sum(abs(after[t] - before.get(t, 0.0)) for t in after))
            average = {t: ((k - 1) * average.get(t, 0.0) + after[t]) / k for t in after}
            print(f"[{players}p] the mixture moved {moved:.3f} (L1) after the refit"
                  f"{'; PSRO added a member' if grew else ''}; average field "
                  + " + ".join(f"{w:.2f} {t}" for t, w in average.items() if w >= 0.005), flush=True)
            if (moved <= args.settle and not grew) or k > args.max_refits:
                break
        model = check_in_field(rules, model, mixture_profile(members, f2.equilibrium.mixture, "reference", rules))
        model.save(models_dir / f"standard-{players}p-reference.npz")
        payoffs = f"reference-{players}p-payoffs.csv"
        f2.table.to_csv(fields_dir / payoffs)
        field = to_field(f2, game="sponsio", rules=rules.name, command=command, seed=args.seed, games=args.n,
                         version=package_version(), payoffs=payoffs,
                         notes={"verdict": f2.verdict, "equilibria": frames(f2)["equilibria"].to_dict("records"),
                                "distilled_agreement": weights.meta.get("agreement"),
                                **({"started_from": started_from} if started_from else {})})
        (fields_dir / f"reference-{players}p.json").write_text(field_to_json(field))
        print(f"[{players}p] wrote {fields_dir / f'reference-{players}p.json'} in "
              f"{time.perf_counter() - t0:.0f} s: {field.text()}", flush=True)
    if args.quick:
        print(f"(quick run: files in {fields_dir})")
        shutil.rmtree(fields_dir, ignore_errors=True)


def git_head() -> str:
    """The checkout's commit (short), which ``--from-shipped`` starts from."""
    import subprocess
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          cwd=Path(__file__).parent, check=True).stdout.strip()


def check_in_field(rules, model, field):
    """``model`` with its in-game check replaced by one in ``field``'s own games (the check of the
    fit it was refitted from does not describe it); prints the largest gap."""
    from sponsio_sim.analysis.game.calibrate import CHECK_GAMES, ingame_calibration, ingame_meta
    ingame = ingame_calibration(rules, model, profile=field, n=CHECK_GAMES, seed=CHECK_SEED)
    model.meta["ingame"] = ingame_meta(ingame, f"reference ({field.text()})", CHECK_GAMES)
    print(f"[{rules.players}p] in-field check, {CHECK_GAMES} games: largest gap "
          f"{model.meta['ingame']['max_abs_gap_pp']:.2f} pp", flush=True)
    print(ingame[["bet_type", "placed", "predicted", "won", "gap_pp", "within"]].to_string(index=False), flush=True)
    return model


def check_shipped(player_counts) -> None:
    """The in-field check of each shipped reference model in its shipped field, saved into the model."""
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.setup import parse_profile
    from sponsio_sim.rules import load_rules
    for players in player_counts:
        rules = load_rules(None, players)
        model = check_in_field(rules, find_model(rules, variant="reference"), parse_profile("reference", rules))
        model.save(Path(resources.files("sponsio_sim")) / "models" / f"standard-{players}p-reference.npz")


if __name__ == "__main__":
    main()
