"""How strong is `sponsio advise` at card play? One seat plays its cards by advice, against the goal policy in the same seat.

Usage: python scripts/advise_play_strength.py [--games 200] [--seed 1] [--players 4] [--profile "ev0.5:goal:cash3 x4"]
       [-n 500] [--proposals 20000] [--no-infer-arm] [--format table|json]

Every seat bets and plays by --profile (the reference profile's play policy
is ``goal``), except that in the advice arm one seat plays every card it has
a choice of by trick-phase advice (``analysis.advise.trickduel``: -n worlds
per card, inference from the others' betting, the others playing on by the
profile), the advised seat rotating over the seats game by game; the policy
arm is the same games with that seat playing by its policy (the engine's
own play), so the arms meet the same deals and the same betting until the
advice's cards change the tricks. Prints per arm the advised seat's win
share (95 % Wilson CI) and final coins, its bets' success rate (bets won of
bets held) and the share of rounds in which it won every bet it held, with
the paired win-share difference (t interval); then, over the advice arm's
decisions where the seat held bets and had a choice, how often a card is
double-dummy optimal with every hand known (all its bets made against every
defence, else possible with every seat helping): the card the advice picks
with every hand known (one world), the card it picked seeing only what it
may, and the card the goal policy would have played; also on the decisive
decisions (where the DD solver does not rate every legal card the same).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--profile", default=None, help="one strategy per seat (default: REFERENCE_STRATEGY at every seat)")
    ap.add_argument("-n", type=int, default=500, help="worlds each card is played in, per decision")
    ap.add_argument("--proposals", type=int, default=20000, help="inference: deals weighed per decision")
    ap.add_argument("--no-infer-arm", action="store_true", help="add an arm: advice on uniformly dealt hidden cards")
    ap.add_argument("--format", choices=["table", "json"], default="table")
    args = ap.parse_args()
    import pandas as pd
    from tabletop_mc.output import dumps
    from tabletop_mc.progress import Progress
    from tabletop_mc.stats import mean_ci, wilson
    from sponsio_sim.analysis.advise.duel import play
    from sponsio_sim.analysis.advise.infer import Reading
    from sponsio_sim.analysis.advise.trickduel import Audit, card_tricks
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.lineup import resolve
    from sponsio_sim.analysis.game.setup import model_variant, reference_profile
    from sponsio_sim.rules import load_rules

    rules = load_rules(None, args.players)
    profile = args.profile or reference_profile(rules)
    lineup = resolve(profile, rules, find_model(rules, variant=model_variant(profile, rules)))
    strategies = lineup.strategies
    audit = Audit()
    arms = {"advice": dict(infer=True), "policy": None}
    if args.no_infer_arm:
        arms = {"advice": dict(infer=True), "advice without inference": dict(infer=False), "policy": None}
    games = {a: [] for a in arms}
    took = {a: 0.0 for a in arms}
    with Progress(args.games * len(arms), "games", enabled=None) as prog:
        for g in range(args.games):
            seat = g % rules.players
            for arm, how in arms.items():
                t = time.perf_counter()
                hook = None if how is None else card_tricks(
                    rules, strategies, seat, seed=args.seed, game=g, n=args.n,
                    reading=Reading(how["infer"], proposals=args.proposals), audit=audit if arm == "advice" else None)
                games[arm].append(play(lineup, rules, game=g, seat=seat, seed=args.seed, bet_advice=False, tricks=hook))
                took[arm] += time.perf_counter() - t
                prog.advance(1)
    rows = []
    for arm, gs in games.items():
        s = np.array([x.share for x in gs])
        p, lo, hi = wilson(s.sum(), len(s))
        c, clo, chi = mean_ci(sum(x.coins for x in gs), sum(x.coins ** 2 for x in gs), len(gs))
        bets, won = sum(x.bets for x in gs), sum(x.bets_won for x in gs)
        rb, ra = sum(x.rounds_bet for x in gs), sum(x.rounds_all_won for x in gs)
        d = s - np.array([x.share for x in games["policy"]])
        dm, dlo, dhi = mean_ci(d.sum(), (d * d).sum(), len(d))
        rows.append(dict(arm=arm, games=len(gs), win_share=p, win_low=lo, win_high=hi, vs_policy=dm,
                         vs_policy_low=dlo, vs_policy_high=dhi, coins=c, coins_low=clo, coins_high=chi,
                         bets=bets, bets_won=won / max(bets, 1), bets_won_low=wilson(won, bets)[1],
                         bets_won_high=wilson(won, bets)[2], rounds_with_bets=rb, all_won=ra / max(rb, 1),
                         all_won_low=wilson(ra, rb)[1], all_won_high=wilson(ra, rb)[2],
                         card_decisions=sum(x.decisions for x in gs), seconds_per_game=took[arm] / len(gs)))
    dd = []
    for who in ("open advice", "advice", "policy"):
        for kind in ("all", "decisive"):
            k, m = audit.agree[(who, kind)], audit.decisions[kind]
            p, lo, hi = wilson(k, m)
            dd.append(dict(card=who, decisions=kind, n=m, dd_optimal=p, dd_low=lo, dd_high=hi))
    meta = dict(profile=profile, rules=rules.summary(), games=args.games, seed=args.seed, n=args.n,
                proposals=args.proposals)
    if args.format == "json":
        print(dumps({"arms": pd.DataFrame(rows), "dd_agreement": pd.DataFrame(dd)}, meta))
        return
    print(f"one seat playing its cards by advice against {profile} (rotated, {args.games} games, seed {args.seed}; "
          f"advice: {args.n} worlds per card, {args.proposals:,} proposals; every seat bets by the profile)")
    for r in rows:
        print(f"  {r['arm']:<26} win share {r['win_share']:.3f} [{r['win_low']:.3f}, {r['win_high']:.3f}]"
              + ("" if r["arm"] == "policy" else f" (vs policy {r['vs_policy']:+.3f} [{r['vs_policy_low']:+.3f}, "
                                                 f"{r['vs_policy_high']:+.3f}])")
              + f"  coins {r['coins']:.1f}  bets won {r['bets_won']:.3f} [{r['bets_won_low']:.3f}, "
                f"{r['bets_won_high']:.3f}] of {r['bets']}  all bets won {r['all_won']:.3f} [{r['all_won_low']:.3f}, "
                f"{r['all_won_high']:.3f}] of {r['rounds_with_bets']} rounds  {r['seconds_per_game']:.1f} s/game")
    print("double-dummy optimal cards (every hand known; the seat holds bets and has a choice):")
    for r in dd:
        print(f"  {r['card']:<12} {r['decisions']:<9} {r['dd_optimal']:.3f} [{r['dd_low']:.3f}, {r['dd_high']:.3f}] "
              f"of {r['n']} decisions")


if __name__ == "__main__":
    main()
