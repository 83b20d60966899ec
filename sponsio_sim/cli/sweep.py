"""`sponsio sweep`: the effect of each rule-set lever on the game's balance measures."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, count_type
from tabletop_mc.clitools import common_options, emit, scale_options
from tabletop_mc.errors import UserError
from tabletop_mc.output import render_tables
from tabletop_mc.plotfile import dir_target, write_all
from sponsio_sim.analysis.balance.sweep import adapts, effects_table, headline, lever_table, sweep
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cli.root import main
from sponsio_sim.cli.balance import PROFILE_HELP


def _players(text):
    if text is None:
        return None
    try:
        counts = [int(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--players {text!r}: expected a count or counts, e.g. 4 or 3,4") from None
    if not counts:
        raise UserError(f"--players {text!r}: expected a count or counts, e.g. 4 or 3,4")
    return counts


def _refits(results) -> list[str]:
    """Whether the players were refitted, and how they adapt, grouped by lever."""
    paired = list(dict.fromkeys(r.lever.key for r in results if r.paired))
    lines = [f"{r.lever.key}: players refitted: {r.refit}" for r in results if not r.paired]
    if paired:
        lines.insert(0, "players refitted: no for " + ("every lever" if not lines else ", ".join(paired))
                     + " (the deal is unchanged: the base rule set's success model)")
        groups: dict[str, list[str]] = {}
        for key in paired:
            groups.setdefault(adapts(key), []).append(key)
        lines[1:1] = [f"  {', '.join(keys)}: {text}" for text, keys in groups.items()]
    return lines


def _adapted(results) -> list[str]:
    """With --adapt: each value's re-solved mixture."""
    return [f"{r.players}p {r.lever.key}={v:g}: field re-solved {a.text()} (Nash gap {a.gap:.4f})"
            for r in results if r.fields for v, a in sorted(r.fields.items())]


@main.command("sweep")
@click.option("--profile", default="reference", show_default=True, type=ASCII, help=PROFILE_HELP)
@click.option("--players", default=None, type=ASCII, metavar="N[,N]",
              help="Player counts, e.g. 4 or 3,4 (default: 3,4; with --rules, its own).")
@click.option("--lever", "levers", multiple=True, type=ASCII, metavar="KEY=VALUES",
              help="A lever and its values: KEY=A..B, KEY=A..B:STEP or KEY=v1,v2; KEY a rule-set number or "
                   "track_value.scale (repeatable; default: every multiplier 2..5, troll_pay 0..4, round_bonus "
                   "0..5, track_value.scale 0.5..2, coins_to_end 20..40, max_rounds 3..7).")
@click.option("-n", "n", type=count_type(), default=20_000, show_default=True, help="Games per lever value.")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Also write the tables as CSV and one PNG per lever and player count into this folder.")
@click.option("--no-cache", is_flag=True, help="Do not keep finished batches on disk (no resume).")
@click.option("--adapt", "adapt_games", type=count_type(), default=None, metavar="GAMES",
              help="Re-solve the field's weights for every value's rules (its near members' payoff table, GAMES "
                   "games per profile; a field profile only). Default: the same weights under every value.")
@common_options
@scale_options
def sweep_cmd(profile, players, levers, n, out_dir, no_cache, adapt_games, seed, fmt, rules, overrides, threads, scheduler,
              workers):
    """Lever-to-effect tables: what each rule-set number does to the seat gap, game length,
    troll share, bet mix, lead changes and comebacks, against the unchanged rule set.

    Every value plays the same games as the unchanged rule set (same seed), so
    each effect is a paired difference with a 95% interval; '*' (moved) marks an
    interval that excludes 0. The players re-decide where their betting reads
    the lever (multipliers, troll pay; distilled also the track values); the
    success model is refitted only for a lever that changes the deal (its games
    then cannot pair: the header says so).

    \b
    Example:
      sponsio sweep -n 20000                                # every default lever, 3 and 4 players
      sponsio sweep --players 4 --lever round_bonus=0..5 --lever troll_pay=1,3 --out sweep/
      sponsio sweep --players 3 --lever track_value.scale=0.5,2 --format csv
      sponsio sweep --players 4 --lever troll_pay=0..4 --adapt 500   # the field re-solved per value
    """
    out = dir_target(out_dir)
    results = sweep(profile, players=_players(players), levers=list(levers) or None, n=n, rules=rules,
                    overrides=overrides, run=Run(seed=seed, threads=threads, progress=None, scheduler=scheduler,
                                                 workers=workers, cache=not no_cache), adapt_games=adapt_games or 0)
    header = "\n".join([
        *dict.fromkeys(f"{r.players} players: {r.rules}; profile {r.profile}" for r in results),
        f"n={n} games per value, seed {seed}; every value plays the games of the unchanged rule set (same seed: "
        "common random numbers); effect = the value's level less the standard's, paired per game, mean +/- "
        "t(0.975, n-1) SE (ratios: delta method); * = moved (the interval excludes 0)",
        *_refits(results), *_adapted(results)])
    named = {"headline": headline(results)}
    if fmt == "table":
        named.update({f"{r.players} players: {r.lever.key} (standard {r.standard:g})": lever_table(r)
                      for r in results})
    else:
        named["effects"] = effects_table(results)
    emit(render_tables(named, fmt, header))
    if out is not None:
        from sponsio_sim.analysis.balance import plots
        files = [(out / "effects.csv", lambda p: effects_table(results).to_csv(p, index=False)),
                 (out / "headline.csv", lambda p: headline(results).to_csv(p, index=False))]
        for r in results:
            meta = {"profile": r.profile, "n": n, "seed": seed}
            files.append((out / f"sweep_{r.players}p_{r.lever.key.replace('.', '_')}.png",
                          lambda p, r=r, meta=meta: plots.sweep_panels(r, p, meta)))
        write_all(files, "--out")
