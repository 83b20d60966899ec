#!/usr/bin/env python
"""How fast the `mc` lookahead labels decisions for `sponsio train`, with and without its race.

Labels the focal seat's decisions in ``--games`` games of the 4-player reference field (the taught
policy: the shipped `net`, else `distilled`) at R rollouts per action, one thread, twice: every action
valued by all R rollouts, and with the race (an action ``--race`` paired SEs behind the best stops
early). Prints labelled decisions per second per core (process CPU time, compile excluded), the
actions valued per decision, their mean standard error, and how often the two labellings' best actions
agree (the race must not change what the lookahead prefers more than its own noise does).

    python scripts/bench_labels.py                       # 60 games, R = 48
    python scripts/bench_labels.py --games 20 --rollouts 32 --players 3
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--rollouts", type=int, default=48)
    ap.add_argument("--race", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()

    import numpy as np
    from tabletop_mc.errors import UserError
    from tabletop_mc.runner import set_threads
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.net import find_net
    from sponsio_sim.analysis.game.netlabels import Labelling, betting_rows, choices, label
    from sponsio_sim.analysis.game.setup import parse_profile
    from sponsio_sim.kernels.betting.netlayout import N_ACTIONS, NET_RECORD
    from sponsio_sim.rules import load_rules

    rules = load_rules(None, args.players)
    field = parse_profile("reference", rules)
    model = find_model(rules, variant="reference")
    try:
        net, taught, cash = find_net(rules), "net", "net"
    except UserError:
        heaviest = field[int(np.argmax(field.weights))]
        net, taught, cash = None, "distilled", heaviest.cash_text
    set_threads(1)
    out = {}
    for race in (0.0, args.race):
        how = Labelling(games=args.games, rollouts=args.rollouts, seed=args.seed, mc_self=taught, cash=cash,
                        race=race, threads=1)
        label(rules, field, model, net, Labelling(games=1, rollouts=2, seed=1, mc_self=taught, cash=cash,
                                                   race=race, threads=1))   # compile
        c0 = time.process_time()
        rows = betting_rows(label(rules, field, model, net, how))
        dt = time.process_time() - c0
        mask = rows[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS] > 0
        se = rows[:, NET_RECORD.q_se:NET_RECORD.q_se + N_ACTIONS][mask & (np.arange(N_ACTIONS) > 0)]
        out[race] = rows
        print(f"race {'off' if race == 0 else f'z={race:g}'}: {len(rows) / dt:,.1f} labelled decisions/s/core "
              f"({len(rows)} decisions, {mask.sum(1).mean():.1f} actions each, mean SE {se.mean():.3f} coins, "
              f"taught {taught}, R = {args.rollouts})", flush=True)
    a, b = out[0.0], out[args.race]
    if len(a) == len(b):
        m = a[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS] > 0
        same = choices(a[:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS], m) == choices(
            b[:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS], m)
        print(f"best action the same with and without the race: {same.mean():.3f} of {len(a)} decisions")


if __name__ == "__main__":
    main()
