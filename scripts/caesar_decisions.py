#!/usr/bin/env python
"""Held-out decisions: how far `net` and `distilled` are from `mc`'s action values (the decision table).

Decisions of reference-field games on a seed no network was fitted on are labelled by `mc` as
`caesar train` labels them (``--rollouts`` per action; the mover rolls out as the field's heaviest
`net` member, or `distilled` in a field without one, every other seat as a member drawn from the
field), twice, on other random numbers. For each policy: the agreement with `mc`'s best action (Wilson
95 % CI) and the regret (`mc`'s best gain minus the gain of the policy's choice, coins, 95 % CI); and
`mc` itself, its choices on the second labelling judged by the first (its noise ceiling). The
policies: the shipped `net` (or ``--net FILE``), the shipped `distilled` and every `distilled` member
of the reference field (they share value's item weights with the label row, so their features are
exact).

    python scripts/caesar_decisions.py                       # 3, 4 and 5 players, 300 games each
    python scripts/caesar_decisions.py --players 4 --games 60 --threads 1
"""

from __future__ import annotations

import argparse


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--games", type=int, default=300, help="labelled games per player count")
    ap.add_argument("--rate", type=float, default=0.25, help="chance a decision is labelled")
    ap.add_argument("--rollouts", type=int, default=16)
    ap.add_argument("--net", default=None, help="a net weights file for --players' single count (default: shipped)")
    ap.add_argument("--seed", type=int, default=91)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--csv", default=None, help="also write the table to this CSV file")
    args = ap.parse_args()

    import pandas as pd

    from dataclasses import replace

    from caesar_sim import nets
    from caesar_sim.analysis.game import netlabels as L
    from caesar_sim.analysis.game.runs import RunSettings
    from caesar_sim.analysis.game.nettrain import Plan, rollout_member, valuer
    from caesar_sim.fieldplay import field_play
    from caesar_sim.kernels import layout
    from caesar_sim.strategy import parse_strategy

    frames = []
    for players in args.players:
        play = field_play("reference", players)
        how = L.Labelling(valuer(play, rollout_member(play), Plan(rollouts=args.rollouts)), args.rate)
        settings = RunSettings(seed=args.seed, threads=args.threads)
        lab = L.label(players, play, args.games, how, settings)
        again = L.label(players, play, args.games, replace(how, mc_stream=1), settings)
        net = nets.load(args.net, players) if args.net else nets.shipped(players)
        lin = parse_strategy(f"net@{args.net}" if args.net else "net", players).row
        policies = {"net" if not args.net else f"net@{args.net}":
                    L.net_scores(lab, net, lin[layout.WEIGHTS.features:layout.WEIGHTS.features + layout.N_FEATURES])}
        distilled = [parse_strategy("distilled", players)] + [m for m in play.members if m.code == layout.DISTILLED]
        for d in distilled:
            policies.setdefault(d.label, lab.features() @ d.row[layout.WEIGHTS.features:
                                                               layout.WEIGHTS.features + layout.N_FEATURES])
        table = L.decision_table(lab, again, policies)
        table.insert(0, "players", players)
        table["labelled_by"] = how.valuer.label
        print(table.to_string(index=False), flush=True)
        frames.append(table)
    if args.csv:
        pd.concat(frames).to_csv(args.csv, index=False)


if __name__ == "__main__":
    main()
