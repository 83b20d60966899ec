"""`caesar train`: the learned `net` policy (expert iteration with self-play) and the field it plays in."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt
from tabletop_mc.clitools import emit
from caesar_sim.cli.root import main
from caesar_sim.cli.meta import command_line
from caesar_sim.cli.options import COMMON, PLAYERS, load_analysis


def _widths(text: str) -> tuple[int, ...]:
    from tabletop_mc.errors import UserError
    from caesar_sim.kernels.play.net import MAX_HIDDEN
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        widths = ()
    if not widths or any(not 1 <= w <= MAX_HIDDEN for w in widths):
        raise UserError(f"--hidden {text}: comma-separated hidden layer widths, each 1..{MAX_HIDDEN} (e.g. 24 or 32,16)")
    return widths


def _temps(text: str) -> tuple[float, ...]:
    import math

    from tabletop_mc.errors import UserError
    from caesar_sim.strategy import MAX_TEMP
    try:
        temps = tuple(float(t) for t in text.split(",") if t.strip())
    except ValueError:
        temps = (math.nan,)
    if any(not (math.isfinite(t) and 0 < t <= MAX_TEMP) for t in temps):
        raise UserError(f"--temps {text}: comma-separated softmax temperatures, each 0 < T <= {MAX_TEMP:g} coins, or ''")
    return temps


@main.command()
@PLAYERS
@click.option("--against", default="reference", show_default=True, type=ASCII,
              help="The field the first iteration plays and labels in: reference or field:FILE.")
@click.option("--population", default="default", show_default=True, type=ASCII,
              help="The population the fields are solved over (with each new net added): default or a TOML file.")
@click.option("--iterations", type=StrictInt(1, 20), default=5, show_default=True,
              help="Expert iterations (fewer if mc's gain against the field stops falling).")
@click.option("--games", type=StrictInt(1), default=3000, show_default=True,
              help="Labelled field games per iteration (half of them under a lever's value).")
@click.option("--holdout", type=StrictInt(1), default=300, show_default=True,
              help="Labelled games on other seeds per iteration, for the held-out decision table.")
@click.option("--rate", type=click.FloatRange(0.01, 1.0), default=0.25, show_default=True,
              help="Chance that a decision is labelled.")
@click.option("--rollouts", type=StrictInt(1, 64), default=16, show_default=True, help="mc's rollouts per action.")
@click.option("--prune", type=click.FloatRange(0.0, 1000.0), default=0.0, show_default=True,
              help="After half its rollouts, mc drops the actions this far below the best (outcome units; 0 = never).")
@click.option("--hidden", default="24", show_default=True, type=ASCII, help="Hidden layer widths (e.g. 24 or 32,16).")
@click.option("--epochs", type=StrictInt(1, 1000), default=60, show_default=True, help="Training epochs per fit.")
@click.option("--policy-loss", "policy_loss", type=click.FloatRange(0.0, 100.0), default=0.0, show_default=True,
              help="Share of a listwise term in the fit's loss: the cross entropy between the softmax of mc's "
                   "values and of the network's over each decision's actions (0 = the values' squared error alone).")
@click.option("--policy-temp", "policy_temp", type=click.FloatRange(0.01, 100.0), default=0.5, show_default=True,
              help="The listwise term's softmax temperature, in coins.")
@click.option("--exploit-share", "exploit_share", type=click.FloatRange(0.0, 1.0), default=0.0, show_default=True,
              help="Share of the labelled games in which one seat plays the lookahead mc's gain is measured with, "
                   "so that the labels cover the states it steers the field into.")
@click.option("--keep", type=StrictInt(1, 10), default=2, show_default=True,
              help="Iterations of labels each fit uses (this one and the last ones).")
@click.option("--patience", type=StrictInt(1, 10), default=2, show_default=True,
              help="Stop after this many iterations without mc's gain falling.")
@click.option("--meta-games", type=StrictInt(1), default=2000, show_default=True,
              help="Games per profile of the payoff table the field is solved from.")
@click.option("--gain-games", type=StrictInt(1), default=3000, show_default=True,
              help="Games measuring mc's gain against each new field (paired, a seed of its own).")
@click.option("--temps", default="0.25", show_default=True, type=ASCII,
              help="Softmax temperatures of the net@FILE:temp=T members added beside each new net ('' = none).")
@click.option("--out", "out", required=True, metavar="DIR",
              help="Folder for the networks (net-itK-<P>p.npz, numbered on from the start field's own), the field "
                   "(field.json, payoffs.csv, ...), history.csv and decisions.csv.")
@COMMON
def train(players, against, population, iterations, games, holdout, rate, rollouts, prune, hidden, epochs,
          policy_loss, policy_temp, exploit_share, keep, patience, meta_games, gain_games, temps, out, seed, fmt,
          rules, overrides, threads):
    """Train the `net` policy by expert iteration with self-play, and re-solve the field with it.

    Each iteration plays field games, labels sampled decisions with mc's value of every legal action
    (the mover rolling out as the current net, the others as the field), fits the network to those
    values (soft targets weighted by their errors; JAX and optax, the [train] extra), adds it to the
    population and re-solves the field (PSRO), then measures what mc with field rollouts gains
    against the new field. Prints every iteration's figures and the held-out decision table.

    \b
    Example:
      caesar train --players 4 --iterations 4 --games 1500 --seed 1 --out train-4p
      caesar simulate --players 4 --profile field:train-4p/field.json
    """
    import pandas as pd

    from tabletop_mc.clitools import package_version
    from tabletop_mc.errors import UserError
    from tabletop_mc.metarun import frames, to_field, write_outputs
    from tabletop_mc.net.train import require_training
    from tabletop_mc.plotfile import dir_target, write_all
    from caesar_sim.analysis.game.runs import RunSettings
    from caesar_sim.analysis.game.nettrain import Plan, train as run_train
    from caesar_sim.fieldplay import field_play, population as load_population
    from caesar_sim.profile import is_field
    from caesar_sim.rules import check_players, load_rules

    require_training()
    check_players(players)
    if overrides:
        raise click.UsageError("--set: training samples the levers itself; pass --rules FILE for other base rules")
    if not is_field(against):
        raise UserError(f"--against {against}: use reference or field:FILE")
    plan = Plan(iterations=iterations, games=games, holdout=holdout, rate=rate, rollouts=rollouts, prune=prune,
                hidden=_widths(hidden), epochs=epochs, meta_games=meta_games, gain_games=gain_games,
                temps=_temps(temps), keep=keep, patience=patience, policy_share=policy_loss,
                policy_temperature=policy_temp, exploit_share=exploit_share)
    start = field_play(against, players)
    pop = load_population(population, players)
    rs = load_rules(rules)
    outdir = dir_target(out)
    _, render, render_tables = load_analysis()
    args = ["--players", players, "--against", against, "--population", population, "--iterations", iterations,
            "--games", games, "--holdout", holdout, "--rate", rate, "--rollouts", rollouts, "--prune", prune,
            "--hidden", hidden, "--epochs", epochs]
    if policy_loss:
        args += ["--policy-loss", policy_loss, "--policy-temp", policy_temp]
    if exploit_share:
        args += ["--exploit-share", exploit_share]
    args += ["--keep", keep, "--patience", patience, "--meta-games", meta_games,
            "--gain-games", gain_games,
            "--temps", temps, "--seed", seed] + (["--rules", rules] if rules else [])
    args += (["--threads", threads] if threads else []) + ["--out", out]
    command = command_line("train", args)
    res = run_train(players, start, list(pop.members), plan, outdir,
                    RunSettings(seed=seed, rules=rs, threads=threads, command=command),
                    log=lambda text: click.echo(text, err=True))
    history = pd.DataFrame(res.history)
    field = to_field(res.meta, game="caesar", rules=rs.name, command=command, seed=seed, games=meta_games,
                     version=package_version(), notes={"training": res.history})
    write_outputs(res.meta, outdir, field)
    write_all([(outdir / "history.csv", lambda tmp: history.to_csv(tmp, index=False)),
               (outdir / "decisions.csv", lambda tmp: res.decisions.to_csv(tmp, index=False))])
    header = (f"{rs.summary()}\ncaesar train, {players} players: {len(res.history)} iterations from the "
              f"{start.text()}; the last network {res.path.name}; its field: {res.field.mixture()}\n"
              f"{res.meta.verdict}")
    tables = {"iterations": history, "held-out decisions": res.decisions,
              "mixture": frames(res.meta)["mixture"]}
    # the iterations' figures to their precision: rates and seconds whole, losses and rates of agreement to 3
    # decimals (the gain and its interval: table_formats)
    formats = {"labels_per_s": "{:.0f}", "seconds": "{:.0f}", "holdout_loss": "{:.3f}", "net_agreement": "{:.3f}",
               "net_regret": "{:.3f}"}
    emit(render_tables(tables, fmt, header, formats=formats) if fmt != "csv" else render(history, "csv"))
