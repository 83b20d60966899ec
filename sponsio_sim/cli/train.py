"""`sponsio train`: the learned `net` policy by expert iteration (needs the [train] extra)."""

from __future__ import annotations

import shlex
import sys

import click

from tabletop_mc.cliparams import ASCII, StrictInt, count_type
from tabletop_mc.clitools import common_options, emit
from tabletop_mc.errors import OutputError
from tabletop_mc.output import render_tables
from tabletop_mc.plotfile import dir_target, file_target
from tabletop_mc.runner import set_threads
from sponsio_sim.cli.root import main
from sponsio_sim.cli.game import PLAYERS

FORMATS = {f"{who}_{m}": "{:.3f}" for who in ("fitted", "played", "mc")
           for m in ("regret", "regret_low", "regret_high", "agree", "agree_low", "agree_high")} | {
    "holdout_loss": "{:.3f}", "played_unvalued": "{:.3f}"}


@main.command("train")
@PLAYERS
@click.option("--iterations", type=StrictInt(1, 50), default=3, show_default=True,
              help="Expert-iteration steps: record and label, fit, measure, solve the field again.")
@click.option("--games", type=count_type(), default=1200, show_default=True,
              help="Games per iteration whose focal-seat decisions the lookahead labels.")
@click.option("--holdout", type=count_type(), default=200, show_default=True,
              help="Games per iteration labelled (twice) on a seed of their own for the measures.")
@click.option("--rollouts", type=StrictInt(2, 4096), default=48, show_default=True,
              help="The lookahead's rollouts per action it values.")
@click.option("--variants", type=click.FloatRange(0.0, 1.0), default=0.5, show_default=True,
              help="Share of the labelled games played under a rule set with one sweep lever moved.")
@click.option("--meta-games", "meta_games", type=StrictInt(0), default=2000, show_default=True,
              help="Games per profile when the field is solved again after each iteration (0: keep the field).")
@click.option("--hidden", default="64,64", show_default=True, type=ASCII,
              help="The hidden layers' widths, comma-separated.")
@click.option("--epochs", type=StrictInt(1, 10_000), default=60, show_default=True, help="At most this many epochs per fit.")
@click.option("--init", "init", default=None, type=click.Path(dir_okay=False),
              help="Start from this network (a weights file of this version's feature spec).")
@click.option("--rows", "rows_dir", default=None, type=click.Path(file_okay=False),
              help="Keep each iteration's labelled decisions in this folder (iteration-K.npz).")
@click.option("--out", "out", required=True, metavar="NPZ", help="Where to write the trained network.")
@common_options
def train_cmd(players, iterations, games, holdout, rollouts, variants, meta_games, hidden, epochs, init, rows_dir, out,
              seed, fmt, rules, overrides, threads):
    """Train the `net` betting policy by expert iteration with self-play.

    Each iteration plays the current field with the taught policy at one
    seat, values every action it weighs by the mc lookahead (rollouts by the
    field), fits the network to those values (JAX and optax: the [train]
    extra), measures its regret against the lookahead on decisions of a seed
    of their own, and solves the field again with `net` in the population.

    \b
    Example:
      sponsio train --players 4 --iterations 3 --out net-4p.npz
      sponsio tournament --profile "net:goal:net x4" -n 20000   # the shipped network
    """
    from tabletop_mc.net.train import Schedule as FitSchedule, require_training
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.meta import population
    from sponsio_sim.analysis.game.net import find_net
    from sponsio_sim.analysis.game.nettrain import Schedule, expert_iteration, start_field
    from sponsio_sim.rules import load_rules

    require_training()
    target = file_target(out, "--out", ".npz", "network")
    rows_at = dir_target(rows_dir, "--rows")
    widths = _widths(hidden)
    ruleset = load_rules(rules, players, overrides)
    start = find_net(ruleset, init) if init else None
    model = find_model(ruleset, None, progress=None, variant="reference")
    field = start_field(ruleset)
    set_threads(threads)
    schedule = Schedule(iterations=iterations, games=games, holdout=holdout, rollouts=rollouts, variants=variants,
                        meta_games=meta_games, fit=FitSchedule(hidden=widths, epochs=epochs), seed=seed,
                        threads=threads, rows_dir=None if rows_at is None else str(rows_at))
    command = "sponsio train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    net, figures, last = expert_iteration(ruleset, list(population("default", ruleset).members), field, model,
                                          schedule, init=start, command=command, progress=None,
                                          log=lambda text: click.echo(text, err=True))
    try:
        net.save(target)
    except OSError as exc:
        raise OutputError(f"--out {target}: cannot write the network ({exc.strerror or exc}); the figures "
                          "above are complete, only the weights file is missing") from None
    header = (f"{ruleset.summary()}\nnet trained by {iterations} expert-iteration steps of {games} labelled games "
              f"({rollouts} rollouts per action), seed {seed}; written to {target}\nfield after the last step: "
              f"{last.text()}")
    emit(render_tables({"iterations": figures}, fmt, header, FORMATS))


def _widths(text: str) -> tuple[int, ...]:
    from sponsio_sim.kernels.betting.netlayout import MAX_HIDDEN
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        widths = ()
    if not widths or len(widths) > 6 or not all(1 <= w <= MAX_HIDDEN for w in widths):
        raise click.UsageError(f"--hidden {text}: give 1 to 6 widths of 1..{MAX_HIDDEN}, e.g. 64,64")
    return widths
