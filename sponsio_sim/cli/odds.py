"""`sponsio odds`: the odds of every bet for a hand."""

import click

from tabletop_mc.cliparams import ASCII, ASCII_NONEMPTY, StrictInt, count_type, positive_int
from tabletop_mc.clitools import common_options, current_meta, emit, scale_options
from tabletop_mc.errors import UserError
from tabletop_mc.output import render
from tabletop_mc.stats import CI_METHOD
from sponsio_sim.analysis.odds.query import odds
from sponsio_sim.cli import main

TABLE_FORMATS = {"multiplier": "{:g}", "ev": "{:+.3f}", "fair_multiplier": "{:.2f}"}


@main.command("odds")
@click.option("--hand", required=True, type=ASCII, help='Your cards, e.g. "R9 R7 R2 B8 B5 G6 G1 Y3".')
@click.option("--talon", default=None, type=ASCII, help="The talon's cards; omit if unknown (dealt at random).")
@click.option("--players", type=StrictInt(), default=None, help="Number of players (3 or 4; default from --rules, else 4).")
@click.option("--seat", type=StrictInt(), default=None, help="Your seat (0..players-1; default 0, with --history the "
              "seat about to act).")
@click.option("--lead", type=StrictInt(), default=None, help="Seat that leads the first trick (default 0).")
@click.option("--revealed", default=None, type=ASCII, help='Other seats\' revealed cards, e.g. "1:G9 Y1; 2:B2".')
@click.option("--bets", default=None, type=ASCII_NONEMPTY, help='Your bets, e.g. "tricks=2,last" (default: every catalogue bet, one row each).')
@click.option("--others", default=None, type=ASCII_NONEMPTY, help='Other seats\' bets, e.g. "1:tricks=3; 2:colour:R=0" (seats without bets play as trolls).')
@click.option("--policy", default="goal", show_default=True, type=ASCII,
              help="Your play policy: random, greedy, goal or pimc; or dd (double-dummy worst/best-case "
                   "brackets); or POLICY,dd for both side by side.")
@click.option("--worlds", type=positive_int(), default=20, show_default=True,
              help="pimc: sampled layouts of the hidden cards per decision.")
@click.option("--history", default=None, type=ASCII,
              help='The betting so far this round, as `sponsio advise --history` reads it, e.g. "0: reveal Y1, bet '
                   'colour:R=4; 1: pass": odds of each bet you place now, the hidden cards weighted by what the '
                   'others did (needs --dealer and --talon).')
@click.option("--dealer", type=StrictInt(0), default=None, help="With --history: the dealer's seat this round.")
@click.option("--infer/--no-infer", default=True, show_default=True,
              help="With --history: weight the hidden cards by the others' actions.")
@click.option("--opponents", default="goal", show_default=True, type=ASCII, help="The other seats' play policy.")
@click.option("-n", "n", type=count_type(), default=None, help="Rounds per simulation (a cap when --target-ci is given).")
@click.option("--target-ci", type=float, default=None,
              help="Stop when every 95 % CI is narrower than this (default 0.01 when -n is not given).")
@common_options
@scale_options
def odds_cmd(hand, talon, players, seat, lead, revealed, bets, others, policy, worlds, history, dealer, infer,
             opponents, n, target_ci, seed, fmt, rules, overrides, threads, scheduler, workers):
    """Odds, EV and fair multiplier of each bet for your hand.

    Without --bets: one row per catalogue bet, your seat playing for that bet
    (under the goal policy), sorted by EV = P x multiplier - stake. With
    --bets: your seat plays for that set; each bet's odds and the joint odds
    that all succeed (row "all:...").

    \b
    Example:
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7" \\
          --others "1:tricks=3" --seed 1
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --bets "tricks=2,last" --format json
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7" --policy goal,dd -n 2000
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7" --bets tricks=2 \\
          --policy pimc --worlds 20 -n 1000
      sponsio odds --hand "R1 G8 G3 G2 Y9 Y7 Y5 Y4" --talon "R3 B9 G7 G5" --dealer 3 \\
          --history "0: reveal Y1, bet colour:R=4; 1: pass; 2: reveal B1, bet colour:B=0"
    """
    if history is not None or dealer is not None:
        df = _history_odds(hand, talon, players, seat, lead, revealed, bets, others, policy, history, dealer, infer,
                           opponents, n, target_ci, seed, rules, overrides, threads, scheduler, workers)
    else:
        df = odds(hand, talon, players=players, seat=seat or 0, lead=lead or 0, revealed=revealed, bets=bets,
                  others=others, policy=policy, opponents=opponents, n=n, target_ci=target_ci, seed=seed,
                  rules=rules, overrides=overrides, threads=threads, progress=None, worlds=worlds,
                  scheduler=scheduler, workers=workers)
    title = None
    if fmt == "table":
        meta = df.attrs
        title = (f"{meta['situation']}\n{meta['rules']}\n"
                 f"play: seat {meta['seat']} {meta.get('policy', policy)}, others {meta.get('opponents', opponents)}; "
                 f"seed {seed}; {CI_METHOD.split(';')[0]}"
                 + ("; EV in coins per 1-coin stake" if "ev" in df.columns else ""))
        if df.attrs.get("left_out"):
            title += "\n" + df.attrs["left_out"]
        if df.attrs.get("inference"):
            title += "\n" + df.attrs["inference"]
        if "p_worst" in df.columns:
            title += ("\ndd: worst = makeable against all other seats, best = possible with all seats "
                      "cooperating (every card known)")
        if df.attrs.get("outside"):
            title += "\noutside the dd brackets: " + "; ".join(df.attrs["outside"])
    meta = None
    if fmt == "json":
        meta = current_meta()
        if "fair_multiplier" in df.columns:
            meta["nulls"] = "fair_multiplier is null where p = 0 (no finite fair multiplier)"
        if df.attrs.get("left_out"):
            meta["left_out"] = df.attrs["left_out"]
        if df.attrs.get("inference"):
            meta.update(inference=df.attrs["inference"], situation=df.attrs["situation"])
    emit(render(df, fmt, title=title, formats=TABLE_FORMATS, meta=meta))


def _history_odds(hand, talon, players, seat, lead, revealed, bets, others, policy, history, dealer, infer, opponents,
                  n, target_ci, seed, rules, overrides, threads, scheduler, workers):
    """``--history``: the advise evaluation of each bet placed now (``analysis.advise.odds``)."""
    from sponsio_sim.analysis.advise.odds import history_odds
    if history is None or dealer is None:
        raise UserError("--history and --dealer go together (the round so far and who dealt it)")
    clash = [name for name, value, default in (("--lead", lead, None), ("--revealed", revealed, None),
                                               ("--others", others, None), ("--policy", policy, "goal"),
                                               ("--opponents", opponents, "goal"), ("--target-ci", target_ci, None),
                                               ("--scheduler", scheduler, None), ("--workers", workers, None))
             if value != default]
    if clash:
        raise UserError(f"{clash[0]} does not go with --history (the history says who revealed, bet and leads; "
                        "everyone plays by the reference profile)")
    return history_odds(hand, talon, history, dealer=dealer, players=players, seat=seat, bets=bets, infer=infer,
                        n=n, seed=seed, rules=rules, overrides=overrides, threads=threads, progress=None)
