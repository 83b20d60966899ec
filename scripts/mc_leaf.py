#!/usr/bin/env python
"""`mc` with `horizon=net` (rollouts cut where the round ends, valued by `net`'s value head) against the
full `mc`: speed, the decisions it makes, and its gain against the reference field.

- ``speed``: games/s/core of every seat `mc` (cash-in of the field's heaviest member), full and leaf,
  one thread, process CPU time with the compile excluded (one game played first).
- ``match``: the focal seat's decisions in ``--games`` games of the reference field labelled three times
  on the same states (``analysis.game.netlabels``: every action `net` weighs, R rollouts each): full `mc`
  (salt 0), full `mc` again (salt 1: the lookahead's own noise) and the leaf. The leaf's choice (its
  best action) and the second full labelling's are scored against the first: regret in coins (full
  `mc`'s value of its best action less that of the one chosen) and agreement; labelled decisions per
  CPU second for each.
- ``gain``: one seat (rotating) playing each variant against the field, paired with the field's own
  games (``meta.focal_gain``), same seed for both.
- ``rung``: the robustness ladder's every-seat-`mc` rung (``analysis.ladder``: the profile's games and
  the deviating seat's restricted-play and troll plays, ``balance.choice.measure_choice``) for each
  variant at ``-n`` games, one thread, CPU time and its cost scaled to ``--target`` games.

    python scripts/mc_leaf.py speed --players 4 --games 12 --leaf-games 60
    python scripts/mc_leaf.py match --players 4 --games 24
    python scripts/mc_leaf.py gain --players 4 -n 200
    python scripts/mc_leaf.py rung --players 4 -n 40
"""

from __future__ import annotations

import argparse
import time


def _setup(players: int):
    import numpy as np
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.setup import parse_profile
    from sponsio_sim.rules import load_rules

    rules = load_rules(None, players)
    field = parse_profile("reference", rules)
    heaviest = field[int(np.argmax(field.weights))]
    cash = heaviest.cash_text if heaviest.cash is not None else "cash5"
    return rules, field, cash, find_model(rules, variant="reference")


def speed(args) -> None:
    from tabletop_mc.runner import set_threads
    from sponsio_sim.analysis.game.runs import run_games
    from sponsio_sim.analysis.game.setup import parse_profile

    set_threads(1)
    rules, field, cash, model = _setup(args.players)
    for name, extra, games in (("full mc", "", args.games), ("leaf mc", ":horizon=net", args.leaf_games)):
        prof = parse_profile(f"mc:goal:{cash}{extra} x{rules.players}", rules)
        run_games(rules, prof, 1, rotate=True, seed=args.seed + 99, model=model)   # compile
        c0 = time.process_time()
        run_games(rules, prof, games, rotate=True, seed=args.seed, model=model)
        cpu = time.process_time() - c0
        print(f"{args.players}p {name:8s} {prof[0].text}: {games} games in {cpu:.1f} s CPU = "
              f"{games / cpu:.2f} games/s/core ({cpu / games:.3f} s/game)")


def match(args) -> None:
    import numpy as np
    from tabletop_mc.runner import set_threads
    from sponsio_sim.analysis.game.net import find_net
    from sponsio_sim.analysis.game.netlabels import Labelling, betting_rows, choices, match_table, net_picks
    from sponsio_sim.analysis.game.netlabels import label
    from sponsio_sim.kernels.betting.netlayout import N_ACTIONS, NET_INPUTS, NET_RECORD

    set_threads(1)
    rules, field, cash, model = _setup(args.players)
    net = find_net(rules)
    label(rules, field, model, net, Labelling(1, 4, seed=args.seed + 99))                   # compile
    label(rules, field, model, net, Labelling(1, 4, seed=args.seed + 99, horizon="net"))
    rows = {}
    for name, how in (("full", Labelling(args.games, args.rollouts, seed=args.seed)),
                      ("full, salt 1", Labelling(args.games, args.rollouts, seed=args.seed, salt=1)),
                      ("leaf", Labelling(args.games, args.rollouts, seed=args.seed, horizon="net"))):
        c0 = time.process_time()
        r = betting_rows(label(rules, field, model, net, how))
        cpu = time.process_time() - c0
        rows[name] = r
        print(f"{args.players}p {name:12s}: {len(r)} decisions labelled in {cpu:.1f} s CPU = {len(r) / cpu:.2f} "
              f"labels/s/core (R = {args.rollouts}, {args.games} games)")
    x = slice(NET_RECORD.x, NET_RECORD.x + NET_INPUTS.size)
    for name in ("full, salt 1", "leaf"):
        assert rows[name].shape == rows["full"].shape and np.array_equal(rows[name][:, x], rows["full"][:, x]), name
    mask = rows["full"][:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS] > 0
    picks = {name: choices(rows[name][:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS].astype(np.float64), mask)
             for name in ("leaf", "full, salt 1")}
    picks["net"] = net_picks(net, rows["full"])
    table = match_table(rows["full"], {"leaf mc (horizon=net)": picks["leaf"],
                                       "full mc, another salt (noise ceiling)": picks["full, salt 1"],
                                       "net (shipped)": picks["net"]})
    with_choice = (mask.sum(axis=1) > 1).sum()
    print(f"against full mc's values (salt 0), {len(mask)} decisions ({with_choice} with more than one action):")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))


def gain(args) -> None:
    from tabletop_mc.runner import set_threads
    from sponsio_sim.analysis.game.meta import focal_gain
    from sponsio_sim.analysis.game.setup import parse_strategy

    set_threads(args.threads)
    rules, field, cash, model = _setup(args.players)
    for extra in ("", ":horizon=net"):
        st = parse_strategy(f"mc:goal:{cash}{extra}", rules)
        t0 = time.perf_counter()
        g, lo, hi = focal_gain(rules, field, st, args.n, seed=args.seed, model=model)
        print(f"{args.players}p {st.text}: gain {g:+.3f} [{lo:+.3f}, {hi:+.3f}] of win share against the reference "
              f"field (n = {args.n} paired games, seed {args.seed}; {time.perf_counter() - t0:.0f} s)")


def rung(args) -> None:
    from tabletop_mc.runner import set_threads
    from sponsio_sim.analysis.balance.choice import choice_plays, measure_choice
    from sponsio_sim.analysis.game.setup import parse_profile

    set_threads(1)
    rules, field, cash, model = _setup(args.players)
    for extra in ("", ":horizon=net"):
        prof = parse_profile(f"mc:goal:{cash}{extra} x{rules.players}", rules)
        measure_choice(rules, prof, 1, seed=args.seed + 99, model=model, cache=False)   # compile
        c0 = time.process_time()
        measure_choice(rules, prof, args.n, seed=args.seed, model=model, cache=False)
        cpu = time.process_time() - c0
        plays = len(choice_plays(rules, prof).plays)
        print(f"{args.players}p rung {prof[0].text} x{rules.players}: {plays} plays x {args.n} games in {cpu:.1f} s "
              f"CPU; {args.target:,} games: {cpu * args.target / args.n / 60:.0f} CPU-minutes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("speed", "match", "gain", "rung"))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--leaf-games", type=int, default=60)
    ap.add_argument("--rollouts", type=int, default=48)
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--target", type=int, default=5_000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    {"speed": speed, "match": match, "gain": gain, "rung": rung}[args.what](args)


if __name__ == "__main__":
    main()
