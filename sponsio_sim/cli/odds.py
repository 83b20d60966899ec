"""`sponsio odds`: the odds of every bet for a hand."""

import click

from tabletop_mc.cliparams import ASCII, ASCII_NONEMPTY, StrictInt, count_type, positive_int
from tabletop_mc.clitools import common_options, current_meta, emit, scale_options
from tabletop_mc.output import render
from tabletop_mc.stats import CI_METHOD
from sponsio_sim.analysis.odds.query import odds
from sponsio_sim.cli import main

TABLE_FORMATS = {"multiplier": "{:g}", "ev": "{:+.3f}", "fair_multiplier": "{:.2f}"}


@main.command("odds")
@click.option("--hand", required=True, type=ASCII, help='Your cards, e.g. "R9 R7 R2 B8 B5 G6 G1 Y3".')
@click.option("--talon", default=None, type=ASCII, help="The talon's cards; omit if unknown (dealt at random).")
@click.option("--players", type=StrictInt(), default=None, help="Number of players (3 or 4; default from --rules, else 4).")
@click.option("--seat", type=StrictInt(), default=0, show_default=True, help="Your seat (0..players-1).")
@click.option("--lead", type=StrictInt(), default=0, show_default=True, help="Seat that leads the first trick.")
@click.option("--revealed", default=None, type=ASCII, help='Other seats\' revealed cards, e.g. "1:G9 Y1; 2:B2".')
@click.option("--bets", default=None, type=ASCII_NONEMPTY, help='Your bets, e.g. "tricks=2,last" (default: every catalogue bet, one row each).')
@click.option("--others", default=None, type=ASCII_NONEMPTY, help='Other seats\' bets, e.g. "1:tricks=3; 2:colour:R=0" (seats without bets play as trolls).')
@click.option("--policy", default="goal", show_default=True, type=ASCII,
              help="Your play policy: random, greedy, goal or pimc; or dd (double-dummy worst/best-case "
                   "brackets); or POLICY,dd for both side by side.")
@click.option("--worlds", type=positive_int(), default=20, show_default=True,
              help="pimc: sampled layouts of the hidden cards per decision.")
@click.option("--opponents", default="goal", show_default=True, type=ASCII, help="The other seats' play policy.")
@click.option("-n", "n", type=count_type(), default=None, help="Rounds per simulation (a cap when --target-ci is given).")
@click.option("--target-ci", type=float, default=None,
              help="Stop when every 95 % CI is narrower than this (default 0.01 when -n is not given).")
@common_options
@scale_options
def odds_cmd(hand, talon, players, seat, lead, revealed, bets, others, policy, worlds, opponents, n,
             target_ci, seed, fmt, rules, overrides, threads, scheduler, workers):
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
    """
    df = odds(hand, talon, players=players, seat=seat, lead=lead, revealed=revealed, bets=bets,
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
    emit(render(df, fmt, title=title, formats=TABLE_FORMATS, meta=meta))
