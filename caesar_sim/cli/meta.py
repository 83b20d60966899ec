"""`caesar distill`: the fast policy fitted to mc against a field (issue 34)."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt
from tabletop_mc.clitools import emit
from caesar_sim.cli import COMMON, PLAYERS, _analysis, main, save_weights


def command_line(name: str, args: list) -> str:
    """The command as typed (recorded in the files it writes)."""
    import shlex
    return f"caesar {name} " + " ".join(shlex.quote(str(a)) for a in args)


@main.command()
@PLAYERS
@click.option("--against", default="reference", show_default=True, type=ASCII,
              help="The field mc plays against and rolls out with: reference, field:FILE, or one strategy in "
                   "every other seat (e.g. tuned).")
@click.option("--games", type=StrictInt(1), default=2000, show_default=True,
              help="Games recorded per iteration (one mc seat, rotating).")
@click.option("--holdout", type=StrictInt(1), default=500, show_default=True,
              help="Games recorded on another seed per iteration, to measure agreement with mc.")
@click.option("--iterations", type=StrictInt(1, 10), default=2, show_default=True,
              help="Expert iterations: record, fit; then mc rolls out with the fit and records again.")
@click.option("--rollouts", type=StrictInt(1, 256), default=16, show_default=True, help="mc's rollouts per action.")
@click.option("--out", "out", required=True, metavar="JSON", help="Weights file to write (load with distilled@FILE).")
@COMMON
def distill(players, against, games, holdout, iterations, rollouts, out, seed, fmt, rules, overrides, threads):
    """Fit the fast `distilled` policy to mc's choices against a field (expert iteration).

    mc (K rollouts per action, the others drawn from the field in every rollout) plays one seat
    of field games; every legal action's features and mean rollout outcome are recorded; the
    linear policy is fitted to rank actions as mc's rollouts value them; then mc rolls out with
    the fit and records again. Prints each iteration's agreement with mc's choices on held-out
    decisions (Wilson CI) and mean coins lost per decision against mc's choice.

    \b
    Example:
      caesar distill --players 4 --against reference --games 2000 --iterations 2 --seed 1 --out distilled-4p.json
      caesar simulate --players 4 --profile "distilled@distilled-4p.json,tuned x3" --rotate
    """
    import pandas as pd

    from caesar_sim import weights as WT
    from caesar_sim.analysis.distill import distill as run_distill
    from caesar_sim.fieldplay import against as against_play
    from caesar_sim.rules import check_players
    from caesar_sim.strategy import weights_row

    check_players(players)
    if overrides:
        raise click.UsageError("--set: distill fits against the rule set's own games; pass --rules FILE instead")
    out_path = WT.check_writable(out)
    play = against_play(against, players)
    _, render, _ = _analysis()
    args = ["--players", players, "--against", against, "--games", games, "--holdout", holdout, "--iterations",
            iterations, "--rollouts", rollouts, "--seed", seed] + (["--rules", rules] if rules else [])
    args += (["--threads", threads] if threads else []) + ["--out", out]
    res = run_distill(players, play, weights_row("tuned", players), games=games, holdout=holdout,
                      iterations=iterations, rollouts=rollouts, seed=seed, rules=rules, threads=threads,
                      command=command_line("distill", args))
    table = pd.DataFrame(res.history)

    def show(where: str) -> None:
        emit(render(table, fmt, title=f"{where}: mc:{rollouts} against the {play.text()}; {res.meta['seconds']} s")
             if fmt == "table" else render(table, fmt))
        if where.startswith("NOT"):   # the fitted weights themselves, so the work is not lost
            weights = pd.DataFrame({"weight": list(res.weights), "distilled": list(res.weights.values())})
            emit(render(weights, fmt, title="the distilled weights") if fmt == "table" else render(weights, fmt))

    save_weights(out_path, out, res, players, "distilled", show,
                 "the fit's history and the distilled weights are printed above")

