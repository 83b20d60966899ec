#!/usr/bin/env python
"""Labels per second of `caesar train`'s `mc` labeller, before and after its speed-ups, and what they cost.

The same reference-field decisions (one labelled game is the same game whatever labels it: the
sampled decisions and the play do not depend on `mc`'s rollouts) are labelled by:

- ``before``: `mc:16` to the day's end, the mover rolling out as the field's `distilled` member (what
  `caesar distill` labels with);
- ``net rollouts``: the mover rolling out as the shipped `net` (what `caesar train` labels with);
- ``+ pruning``: after 8 rollouts, the actions more than ``--prune`` coins below the best get no more;
- ``net horizon``: rollouts only to the end of the phase, where the network's value head values the
  position (a win share; pruning at ``--prune-share``);

and once by `mc:64` to the day's end (the reference). Per labeller: labels per second of one core
(CPU time, compile excluded), the agreement of its best action with the reference's (Wilson 95 %
CI) and the regret of its choice in the reference's gains (coins). Every run plays the same
deals (common random numbers, ``kernels.play.mc``: the rollouts of one decision share a stream).

    python scripts/bench_caesar_labels.py                       # 4 players, 200 games
    python scripts/bench_caesar_labels.py --games 20            # a quick look
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rate", type=float, default=0.25)
    ap.add_argument("--prune", type=float, default=2.0, help="pruning margin in coins (day horizon)")
    ap.add_argument("--prune-share", type=float, default=0.1, help="pruning margin in win share (net horizon)")
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()

    import pandas as pd

    from tabletop_mc.runner import set_threads
    from caesar_sim.analysis.game import netlabels as L
    from caesar_sim.analysis.game.meta import distill_start
    from caesar_sim.analysis.game.runs import RunSettings
    from caesar_sim.analysis.game.nettrain import Plan, valuer
    from caesar_sim.fieldplay import field_play
    from caesar_sim.strategy import parse_strategy

    set_threads(1)
    players = args.players
    play = field_play("reference", players)
    net, distilled = parse_strategy("net", players), distill_start(play)
    configs = {"before (mc:16, distilled rollouts)": (distilled, Plan(rollouts=16), "day"),
               "net rollouts": (net, Plan(rollouts=16), "day"),
               "net rollouts + pruning": (net, Plan(rollouts=16, prune=args.prune), "day"),
               "net horizon (value head) + pruning": (net, Plan(rollouts=16, prune=args.prune_share), "net")}
    one = RunSettings(seed=args.seed, threads=1, progress=False)
    reference = L.label(players, play, args.games, L.Labelling(valuer(play, distilled, Plan(rollouts=64)),
                                                               args.rate), one)
    rows = []
    for name, (rollout, plan, horizon) in configs.items():
        how = L.Labelling(valuer(play, rollout, plan), args.rate, mc_stream=1)
        settings = one.but(mc_horizon=horizon)
        L.label(players, play, 2, how, settings)      # compile
        t = time.process_time()
        lab = L.label(players, play, args.games, how, settings)
        seconds = time.process_time() - t
        row = L.decision_row(name, lab, L.choices(lab, lab.gains()[0]), reference)
        rows.append({"labeller": name, "labels": lab.n, "labels_per_s": lab.n / seconds, **{
            k: row[k] for k in ("agreement", "agreement_low", "agreement_high", "regret", "regret_low", "regret_high")}})
        print(f"{name}: {lab.n / seconds:,.0f} labels/s", flush=True)
    print(pd.DataFrame(rows).to_string(index=False))
    print(f"{players} players, {args.games} reference-field games, seed {args.seed}; agreement and regret against "
          f"mc:64 (distilled rollouts, day horizon) on the same decisions; one thread, CPU time")


if __name__ == "__main__":
    main()
