"""`sponsio exploit`: the gain of one seat's deviations from a profile."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt, count_type
from tabletop_mc.clitools import common_options, emit, scale_options
from tabletop_mc.output import render_tables
from sponsio_sim.analysis.game.exploit import FAMILIES, Deviations, exploit
from sponsio_sim.analysis.game.setup import STRATEGY_HELP
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cli.root import main
from sponsio_sim.cli.game import MODEL, PLAYERS

COLUMNS = ["deviation", "strategy", "games", "win_share", "win_share_low", "win_share_high", "gain", "gain_low",
           "gain_high", "coins_per_round", "coins_per_round_low", "coins_per_round_high", "coins_gain",
           "coins_gain_low", "coins_gain_high"]


@main.command("exploit")
@click.option("--profile", default="reference", show_default=True, type=ASCII,
              help=f"One strategy per seat, comma-separated: {STRATEGY_HELP}; or 'reference' (the reference "
                   "field: every seat draws its strategy per game from the shipped equilibrium mixture), or "
                   "field:FILE.")
@PLAYERS
@click.option("-n", "n", type=count_type(), default=20_000, show_default=True, help="Games per deviation.")
@click.option("--family", default="default", show_default=True,
              help=f"Deviations to try, comma-separated: {', '.join(FAMILIES)} (default: all but mc, "
                   "the slow rollout policy).")
@click.option("--entry", type=StrictInt(), default=None,
              help="Which profile entry deviates: 0 (default) = the first strategy of --profile; in a field, the "
                   "member whose deviations are tried (default: the heaviest), at the focal seat.")
@click.option("--deviation", "extra", multiple=True, metavar="STRATEGY",
              help="Also try this strategy as a deviation (repeatable).")
@MODEL
@common_options
@scale_options
def exploit_cmd(profile, players, n, family, entry, extra, model, seed, fmt, rules, overrides, threads, scheduler,
                workers):
    """How much one seat gains by deviating from a profile (is it close to equilibrium?).

    One entry deviates while the others keep the profile; seats rotate game
    by game; each game is played with and without the deviation from the same
    random numbers, and the gain is the mean paired difference of the entry's
    win share (a k-way shared win counts 1/k). without=T rows are restricted
    play: the value of bet type T to a player is minus their gain.

    \b
    Example:
      sponsio exploit --profile "ev:goal:cash4 x4" -n 20000 --seed 1
      sponsio exploit --profile reference --players 3 -n 20000     # the reference profile
      sponsio exploit --profile "ev:goal:cash4 x4" --family without,cash --deviation "troll:goal" --format json
      sponsio exploit --profile reference --family mc -n 2000      # the rollout policy mc (slow)
    """
    res = exploit(profile, Deviations(family, entry, list(extra) or None), players=players, n=n, rules=rules,
                  overrides=overrides, model=model,
                  run=Run(seed=seed, threads=threads, progress=None, scheduler=scheduler, workers=workers))
    who = ("one seat (rotating) deviates, the others draw from the field" if res.field
           else f"entry {res.entry} deviates, seats rotate")
    header = (f"{res.rules}\nprofile: {res.profile}; {who}; n {n} games per "
              f"deviation (paired: same random numbers); seed {seed}; fair win share {res.fair:.3f}; ev model "
              f"{res.model}\n{res.ci}; gain = paired difference of win share, coins_gain of coins per round\n"
              f"verdict: {res.verdict}")
    table = res.table[COLUMNS]
    fmts = {c: "{:+.4f}" for c in COLUMNS if c.startswith("gain")}
    fmts.update({c: "{:.4f}" for c in COLUMNS if c.startswith("win_share")})
    fmts.update({c: "{:.2f}" for c in COLUMNS if c.startswith("coins_per_round")})
    fmts.update({c: "{:+.2f}" for c in COLUMNS if c.startswith("coins_gain")})
    named = {"deviations": table}
    if fmt == "json":
        named["verdict"] = res.verdict
        named["meta"] = {"rules": res.rules, "profile": res.profile, "entry": res.entry, "family": family, "n": n,
                         "seed": seed, "model": res.model, "ci": res.ci}
    emit(render_tables(named, fmt, header, fmts))
