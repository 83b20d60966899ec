"""`caesar tune` and `exploit`: the tuned policy's weights, and deviations from a profile."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt
from tabletop_mc.clitools import emit
from caesar_sim.cli.root import main
from caesar_sim.cli.options import (COMMON, MC_HORIZON, PLAYERS, PROFILE, games_option, load_analysis,
                                    profile_or_reference, save_weights)


@main.command()
@PLAYERS
@games_option(8000, "Games per candidate and field table (rounded up to a multiple of --players).")
@click.option("--generations", type=StrictInt(), default=60, show_default=True, help="CMA-ES generations.")
@click.option("--lam", type=StrictInt(), default=12, show_default=True, help="Candidates per generation.")
@click.option("--start", default="value", show_default=True, type=ASCII,
              help="Start point: value, tuned or tuned@FILE.")
@click.option("--mc-games", type=StrictInt(), default=0, show_default=True,
              help="Games per candidate against (n-1) x mc:2 seats (slow; 0 = leave mc out of the field).")
@click.option("--against", default=None, type=ASCII,
              help="Tune against a field instead: reference, field:FILE or one strategy in every other seat; "
                   "each candidate plays one seat (rotating) of n field games per generation.")
@click.option("--out", "out", required=True, metavar="JSON", help="Weights file to write (load with tuned@FILE).")
@COMMON
def tune(players, n, generations, lam, start, mc_games, against, out, seed, fmt, rules, overrides, threads):
    """Tune `value`'s weights by simulation (CMA-ES, common random numbers, seats rotated).

    Each candidate plays n games against (n-1) x value and n games against (n-1) x the
    current search mean (the previous tuned version); its fitness is its mean win share.
    With --against, it plays one seat of n games against that field instead (the same draws
    and deals for every candidate of a generation). The weights file records the command and
    seed that produced it.

    \b
    Example:
      caesar tune --players 4 -n 8000 --generations 60 --seed 1 --out tuned-4p.json
      caesar tune --players 4 -n 8000 --generations 30 --start tuned --against reference --seed 2 --out br-4p.json
      caesar simulate --players 4 --profile "tuned@tuned-4p.json,value x3" --rotate
    """
    import shlex

    import pandas as pd

    from caesar_sim import weights as WT
    from caesar_sim.analysis.game.tune import Search, tune as run_tune
    from caesar_sim.rules import check_players

    check_players(players)
    out_path = WT.check_writable(out)
    analysis, render, _ = load_analysis()
    args = ["--players", players, "-n", n, "--generations", generations, "--lam", lam, "--start", start,
            "--mc-games", mc_games] + (["--against", against] if against else []) + ["--seed", seed]
    args += (["--rules", rules] if rules else []) + [x for o in overrides for x in ("--set", o)]
    args += (["--threads", threads] if threads else []) + ["--out", out]
    command = "caesar tune " + " ".join(shlex.quote(str(a)) for a in args)
    play = None
    if against:
        from caesar_sim.fieldplay import against as against_play
        play = against_play(against, players)
    settings = analysis.RunSettings(seed=seed, rules=rules, overrides=overrides, threads=threads, command=command)
    res = run_tune(players, n, Search(generations, lam=lam, start=start), settings, mc_games=mc_games, against=play)
    table = pd.DataFrame([{"weight": k, "value": WT.DEFAULTS[k], "tuned": v}
                          for k, v in res.weights.items() if k in WT.TUNABLE])
    save_weights(out_path, out, res, players, "tuned", lambda where: emit(
        render(table, fmt, title=f"{where}: {res.meta['field']}; {res.meta['seconds']} s")
        if fmt == "table" else render(table, fmt)), "the tuned weights are printed above (the others keep "
        "value's defaults)")


POLICY_DEVIATIONS = ("random", "greedy", "value", "tuned", "mc:8")  # caesar_sim.analysis.game.exploit (a test checks)


@main.command()
@PLAYERS
@PROFILE
@games_option(20000, "Games per deviation (same games each).")
@click.option("--seat", "entry", type=StrictInt(), default=0, show_default=True,
              help="Profile entry that deviates (seats are rotated, so it plays every seat).")
@click.option("--policies", default=",".join(POLICY_DEVIATIONS), show_default=True, type=ASCII,
              help="Other policies to try in its place (comma-separated; empty for none).")
@click.option("--weights/--no-weights", default=True, show_default=True,
              help="Push each tunable weight up and down (value/tuned entries).")
@click.option("--restricted/--no-restricted", default=True, show_default=True,
              help="Try restricted players: never takes an item type, never bids at a location.")
@click.option("--threshold", type=float, default=0.01, show_default=True,
              help="Win-share gain (CI lower bound) above which the profile counts as exploitable.")
@MC_HORIZON
@COMMON
def exploit(players, profile, n, entry, policies, weights, restricted, threshold, mc_horizon, seed, fmt, rules,
            overrides, threads):
    """Deviations of one seat from a profile, paired against the undeviated seat on the same games.

    Gain = the deviating entry's win share minus the undeviated entry's, game by game (same seed,
    seats rotated), mean with a 95% interval; the verdict line says whether any deviation gains more
    than --threshold (CI lower bound).

    \b
    Example:
      caesar exploit --players 4 -n 20000 --seed 1
      caesar exploit --players 4 --profile "value x4" -n 4000 --policies "tuned,mc:8" --no-restricted
    """
    from caesar_sim.rules import check_players

    check_players(players)
    profile, note = profile_or_reference(profile, players)
    analysis, render, render_tables = load_analysis()
    pols = tuple(x.strip() for x in policies.split(",") if x.strip())
    settings = analysis.RunSettings(seed=seed, rules=rules, overrides=overrides, threads=threads, mc_horizon=mc_horizon)
    table, line, base = analysis.exploit(players, profile, n, settings, entry=entry, policies=pols, weights=weights,
                                  restricted=restricted, threshold=threshold)
    who = ("seat g % players of game g deviates, the others drawn from the field as in the undeviated games"
           if base.is_field else f"entry {entry} ({base.profile.entries[entry]}) deviates, seats rotated")
    header = (f"{note}{base.rules.summary()}\nprofile {base.profile.text()}; {who}; {players} players, n={n} games "
              f"per deviation, seed {seed}; gain = paired mean win-share difference per game, 95% interval")
    if fmt == "json":
        emit(render_tables({"verdict": line, "deviations": table}, "json", header))
    else:
        emit(render(table, fmt, title=header) + ("\n" + line if fmt == "table" else ""))
