"""`sponsio meta`: the equilibrium of a strategy population (empirical game theory, PSRO)."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt, count_type
from tabletop_mc.clitools import common_options, emit, package_version
from tabletop_mc.metagame import n_profiles
from tabletop_mc.metarun import MARGIN, frames, to_field, write_outputs
from tabletop_mc.output import render_tables
from tabletop_mc.plotfile import dir_target
from tabletop_mc.progress import Progress
from tabletop_mc.runner import set_threads
from tabletop_mc.stats import CI_METHOD
from sponsio_sim.cli.root import main
from sponsio_sim.cli.game import PLAYERS

FORMATS = {"weight": "{:.3f}", "weight_low": "{:.3f}", "weight_high": "{:.3f}", "regret": "{:+.4f}",
           "regret_low": "{:+.4f}", "regret_high": "{:+.4f}", "alpha_rank": "{:.3f}", "value": "{:.4f}",
           "gap": "{:.1e}", "gain": "{:+.4f}", "gain_low": "{:+.4f}", "gain_high": "{:+.4f}"}


@main.command("meta")
@click.option("--population", default="default", show_default=True, type=ASCII,
              help="The strategies: 'default' (the shipped population) or a TOML file "
                   "(members = [\"ev0.5:goal:cash3\", \"troll:goal\", ...]).")
@PLAYERS
@click.option("-n", "n", type=count_type(), default=10_000, show_default=True,
              help="Games per profile (every multiset of strategies over the seats).")
@click.option("--psro", type=StrictInt(0, 12), default=0, show_default=True,
              help="PSRO steps: add the best deviation against the equilibrium while it gains more than the "
                   "margin (95 % lower bound), then solve again.")
@click.option("--margin", type=click.FloatRange(0.0, 0.5), default=MARGIN, show_default=True,
              help="Win share a member must gain (CI lower bound) to count as gaining.")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Write payoffs.csv, mixture.csv, equilibria.csv and field.json (usable as "
                   "--profile field:DIR/field.json) into this folder.")
@click.option("--model", default=None, type=click.Path(dir_okay=False),
              help="Success model file for the ev members (default: the reference model for the rules).")
@common_options
def meta_cmd(population, players, n, psro, margin, out_dir, model, seed, fmt, rules, overrides, threads):
    """The equilibrium of a strategy population: its payoff table, mixture and every member's regret.

    Every profile (a multiset of members over the seats) is played for -n
    games, seats rotated, every profile from the same seed; the symmetric
    game of win shares is solved by replicator dynamics from several starts,
    and each member's regret (its gain over the mixture's value) and weight
    get 95 % bootstrap intervals from the table's sampling error.

    \b
    Example:
      sponsio meta -n 10000 --seed 7
      sponsio meta --population pop.toml --players 3 -n 4000 --psro 2 --out meta3/
    """
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.model import check_play
    from sponsio_sim.analysis.game.meta import meta_game, population as load_population
    from sponsio_sim.analysis.game.setup import parse_strategy
    from sponsio_sim.rules import load_rules

    out = dir_target(out_dir)
    ruleset = load_rules(rules, players, overrides)
    pop = load_population(population, ruleset)
    members = [parse_strategy(t, ruleset) for t in pop.members]
    success = find_model(ruleset, model, progress=None, variant="reference")
    check_play(members, success.play_policy, success.source, ruleset)
    set_threads(threads)
    total = n_profiles(ruleset.players, len(members)) * n
    with Progress(total, "sponsio meta", enabled=None) as bar:
        result, steps = meta_game(ruleset, members, success, n=n, seed=seed, psro=psro, margin=margin, bar=bar)
    tables = frames(result)
    k = len(result.names)
    header = (f"{ruleset.summary()}\npopulation {pop.name}: {k} members, {ruleset.players} seats, "
              f"{n_profiles(ruleset.players, k)} profiles x {n} games (seats rotated, common random numbers); "
              f"seed {seed}; ev model {success.source}\n{CI_METHOD}; regret = a member's gain over the "
              f"mixture's value (win share), 95 % parametric bootstrap intervals from the table's SEs\n"
              f"verdict: {result.verdict}")
    named = {"mixture": tables["mixture"], "equilibria": tables["equilibria"]}
    if len(steps):
        named["psro"] = steps
    if fmt == "json":
        named["verdict"] = result.verdict
        named["payoffs"] = tables["payoffs"]
    emit(render_tables(named, fmt, header, FORMATS))
    if out is not None:
        command = " ".join(["sponsio meta", f"--population {population}", f"--players {ruleset.players}",
                            f"-n {n}", f"--psro {psro}", f"--seed {seed}"]
                           + [f"--set {o}" for o in overrides] + ([f"--rules {rules}"] if rules else []))
        field = to_field(result, game="sponsio", rules=ruleset.name, command=command, seed=seed, games=n,
                         version=package_version(), notes={"verdict": result.verdict, "model": success.source})
        write_outputs(result, out, field)
