"""`caesar distill` and `caesar meta`: the strategy field's commands."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt
from tabletop_mc.clitools import emit
from caesar_sim.cli.root import main
from caesar_sim.cli.options import COMMON, PLAYERS, load_analysis, save_weights


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
@click.option("--start", default="tuned", show_default=True, type=ASCII,
              help="Start from tuned (its own score as distilled weights), distilled or distilled@FILE (mc's first "
                   "rollouts play it).")
@click.option("--out", "out", required=True, metavar="JSON", help="Weights file to write (load with distilled@FILE).")
@COMMON
def distill(players, against, games, holdout, iterations, rollouts, start, out, seed, fmt, rules, overrides,
            threads):
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
    from caesar_sim.analysis.game.distill import Schedule, distill as run_distill
    from caesar_sim.analysis.game.runs import RunSettings
    from caesar_sim.fieldplay import against as against_play
    from tabletop_mc.errors import UserError
    from caesar_sim.kernels import layout
    from caesar_sim.rules import check_players
    from caesar_sim.strategy import parse_strategy

    check_players(players)
    first = parse_strategy(start, players)
    if first.code not in (layout.TUNED, layout.DISTILLED) or first.row[layout.WEIGHTS.temperature] > 0:   # as the best
        raise UserError(f"--start {start}: use tuned, tuned@FILE, distilled or distilled@FILE")
    if overrides:
        raise click.UsageError("--set: distill fits against the rule set's own games; pass --rules FILE instead")
    out_path = WT.check_writable(out)
    play = against_play(against, players)
    _, render, _ = load_analysis()
    args = ["--players", players, "--against", against, "--games", games, "--holdout", holdout, "--iterations",
            iterations, "--rollouts", rollouts] + (["--start", start] if start != "tuned" else []) + ["--seed", seed]
    args += (["--rules", rules] if rules else [])
    args += (["--threads", threads] if threads else []) + ["--out", out]
    res = run_distill(players, play, first, Schedule(games, holdout, iterations, rollouts),
                      RunSettings(seed=seed, rules=rules, threads=threads, command=command_line("distill", args)))
    table = pd.DataFrame(res.history)

    def show(where: str) -> None:
        emit(render(table, fmt, title=f"{where}: mc:{rollouts} against the {play.text()}; {res.meta['seconds']} s")
             if fmt == "table" else render(table, fmt))
        if where.startswith("NOT"):   # the fitted weights themselves, so the work is not lost
            weights = pd.DataFrame({"weight": list(res.weights), "distilled": list(res.weights.values())})
            emit(render(weights, fmt, title="the distilled weights") if fmt == "table" else render(weights, fmt))

    save_weights(out_path, out, res, players, "distilled", show,
                 "the fit's history and the distilled weights are printed above")



@main.command()
@click.option("--population", default="default", show_default=True, type=ASCII,
              help="default (caesar_sim/fields/population.toml) or a TOML file: members = [\"tuned\", ...].")
@PLAYERS
@click.option("-n", "n", type=StrictInt(1, 10_000_000), default=20000, show_default=True,
              help="Games per profile of the payoff table (every profile is played).")
@click.option("--oracle-rounds", type=StrictInt(0, 10), default=0, show_default=True,
              help="PSRO rounds: best responses to the mixture (tune and distill against it, mc with field "
                   "rollouts as the auditor); a fast one gaining > 0.01 (CI lower bound) joins; re-solve.")
@click.option("--oracle-games", type=StrictInt(20), default=2000, show_default=True,
              help="Games per candidate when judging its gain against the field (a seed of its own).")
@click.option("--out", "out", default=None, metavar="DIR",
              help="Write payoffs.csv, mixture.csv, equilibria.csv, oracle.csv and field.json (load it with "
                   "--profile field:DIR/field.json); the oracle's weights files go there too.")
@COMMON
def meta(population, players, n, oracle_rounds, oracle_games, out, seed, fmt, rules, overrides, threads):
    """The meta-game over a population: payoff table, equilibrium mixture, regrets, PSRO.

    Every profile (multiset of strategies over the seats) plays n games, seats rotated, game g
    the same deal in every profile (common random numbers); the symmetric game is solved by
    replicator dynamics from several starts; each member's regret (its gain over the mixture's
    value) and each weight carry a bootstrap 95% interval from the table's sampling error.

    \b
    Example:
      caesar meta --players 4 -n 20000 --seed 1 --out meta-4p
      caesar exploit --players 4 --profile field:meta-4p/field.json -n 20000 --seed 2
    """
    from tabletop_mc.clitools import package_version
    from tabletop_mc.errors import UserError
    from tabletop_mc.metarun import frames, to_field, write_outputs
    from tabletop_mc.plotfile import dir_target, write_atomic
    from caesar_sim.analysis.game.meta import Oracle, run_meta
    from caesar_sim.analysis.game.runs import RunSettings
    from caesar_sim.fieldplay import population as load_population
    from caesar_sim.rules import check_players, load_rules

    check_players(players)
    if overrides:
        raise click.UsageError("--set: a field is solved for a rule file; pass --rules FILE instead")
    if oracle_rounds and out is None:
        raise UserError("--oracle-rounds needs --out DIR (the best responses' weights files are written there)")
    pop = load_population(population, players)
    rs = load_rules(rules)
    outdir = dir_target(out)
    _, render, render_tables = load_analysis()
    args = ["--population", population, "--players", players, "-n", n, "--oracle-rounds", oracle_rounds,
            "--oracle-games", oracle_games, "--seed", seed] + (["--rules", rules] if rules else [])
    args += (["--out", out] if out else [])
    run = run_meta(players, pop.members, n, RunSettings(seed=seed, rules=rs, threads=threads),
                   oracle=Oracle(rounds=oracle_rounds, games=oracle_games), out=outdir,
                   log=lambda text: click.echo(text, err=True))
    res = run.result
    tables = frames(res)
    if not run.oracle.empty:
        tables["oracle"] = run.oracle
    field = to_field(res, game="caesar", rules=rs.name, command=command_line("meta", args), seed=seed, games=n,
                     version=package_version(), notes={"oracle": run.oracle.to_dict("records")})
    if outdir is not None:
        write_outputs(res, outdir, field)
        if not run.oracle.empty:
            write_atomic(outdir / "oracle.csv", lambda tmp: run.oracle.to_csv(tmp, index=False), "--out")
    header = (f"{rs.summary()}\npopulation {pop.name}: {', '.join(pop.members)}; {players} players; every profile "
              f"n={n} games, seed {seed}, seats rotated, common random numbers; 95% bootstrap intervals\n"
              f"{res.verdict}")
    emit(render_tables({k: tables[k] for k in ("mixture", "equilibria", "oracle") if k in tables}, fmt, header)
         if fmt != "csv" else render(tables["payoffs"], "csv"))
