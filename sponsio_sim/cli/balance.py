"""`sponsio balance` and `sponsio recommend`: payout-table balance for designers."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt, count_type, positive_int

from tabletop_mc.clitools import common_options, emit, gather, scale_options
from tabletop_mc.output import render_tables
from tabletop_mc.plotfile import dir_target, write_all
from sponsio_sim.analysis.balance.choice import balance
from sponsio_sim.analysis.balance.criteria import RP_BAND, ROUNDS_BAND, SHARE_BAND, TROLL_BAND, bands_from
from sponsio_sim.analysis.balance.recommend import (DEFAULT_RANGE, FINAL_N, SCREEN_N, SHORTLIST, TOP, SearchSpace,
                                                     Stages, long_table, recommend, side_by_side, verdict)
from sponsio_sim.analysis.balance.sweep import adapts
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cli.root import main

FORMATS = {"multiplier": "{:g}", "placed": "{:.0f}"}


PROFILE_HELP = ("'reference' (default): the reference field, every seat drawing its strategy per game from the "
                "shipped equilibrium mixture (where none is shipped, the reference profile); field:FILE, another "
                "field; or one strategy per seat (BETTING:PLAY[:CASH]; 'S xN' repeats one).")


def band_options(func):
    """The choice-balance criterion's bands (``analysis.balance.criteria``), as they reach the command:
    ``band_texts``, the four options' texts by ``bands_from``'s names (``_bands`` reads them)."""
    options = [
        click.option("--rp-band", "rp_band", multiple=True, type=ASCII, metavar="[TYPE=]LO..HI",
                     help=f"Band of every type's restricted-play value (win share), or of one type's "
                          f"(repeatable; default {RP_BAND[0]:g}..{RP_BAND[1]:g})."),
        click.option("--share-band", "share_band", multiple=True, type=ASCII, metavar="[TYPE=]LO..HI",
                     help=f"Band of every type's share of the bets placed, or of one type's (repeatable; "
                          f"default {SHARE_BAND[0]:g}..{SHARE_BAND[1]:g})."),
        click.option("--troll-band", type=ASCII, default=None, metavar="LO..HI",
                     help=f"Band of the troll share of seat-rounds (default {TROLL_BAND[0]:g}..{TROLL_BAND[1]:g})."),
        click.option("--rounds-band", type=ASCII, default=None, metavar="LO..HI",
                     help=f"Band of the mean rounds per game (default {ROUNDS_BAND[0]:g}..{ROUNDS_BAND[1]:g} x the "
                          "rule set's max_rounds: 2.5..5 for the standard rules)."),
    ]
    func = gather("band_texts", lambda rp_band, share_band, troll_band, rounds_band: dict(
        rp=rp_band, share=share_band, troll=troll_band, rounds=rounds_band), "rp_band", "share_band", "troll_band",
        "rounds_band")(func)
    for opt in reversed(options):
        func = opt(func)
    return func


def _bands(rules, players, overrides, band_texts: dict):
    from sponsio_sim.rules import load_rules
    ruleset = load_rules(rules, players, overrides)
    return bands_from(ruleset.bets, **band_texts).for_rules(ruleset)


def _run(*, no_cache, **options) -> Run:
    """The ``Run`` of the options (--seed, --threads, --scheduler, --workers, --no-cache)."""
    return Run(progress=None, cache=not no_cache, **options)


def _space(*, only, **options) -> SearchSpace:
    """The ``SearchSpace`` of the options (--range, --param, --only, --lever)."""
    return SearchSpace(only=only.split(",") if only else None, **options)


RUN = ("seed", "threads", "scheduler", "workers", "no_cache")


@main.command("balance")
@click.option("--profile", default="reference", show_default=True, type=ASCII, help=PROFILE_HELP)
@click.option("--players", type=StrictInt(), default=None, help="3 or 4 (default from --rules, else 4).")
@click.option("-n", "n", type=count_type(), default=50_000, show_default=True,
              help="Games (each played once per restricted-play deviation too).")
@band_options
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Also write every table as CSV and the plots (EV by bet, coin flow) as PNG into this folder.")
@click.option("--no-cache", is_flag=True, help="Do not keep finished batches on disk (no resume).")
@common_options
@scale_options
@gather("run", _run, *RUN)
def balance_cmd(profile, players, n, band_texts, out_dir, run, fmt, rules, overrides):
    """Choice balance of the bets under strong play: per bet type its share of the bets placed,
    restricted-play value, hit rate, EV per coin and RTP; trolling; game length; seats; coin flow.

    A type's restricted-play value is the win share one player loses when it
    may never place the type: in a field the focal seat plays the heaviest
    betting member with and without the type while the other seats draw from
    the field, every game played both ways from the same random numbers. The
    verdicts hold the values against the criterion's bands (dead / dominant,
    rare / crowding). Finished batches are kept on disk, so a killed run
    resumes (--no-cache: off).

    \b
    Example:
      sponsio balance --players 4 -n 50000                 # the reference field
      sponsio balance --set multiplier.colour=9 -n 20000   # one type made dominant
      sponsio balance --profile "ev:goal:cash4 x4" --share-band nines=0.01..0.4 --out balance/
    """
    out = dir_target(out_dir)
    bands = _bands(rules, players, overrides, band_texts)
    b = balance(profile, players=players, n=n, rules=rules, overrides=overrides, bands=bands, run=run)
    named = dict(b.tables)
    header = (f"{b.meta['rules']}\nprofile: {b.meta['profile']}; n={n} games, seed {run.seed}; success model "
              f"{b.meta['model']}\n{b.meta['header']}")
    emit(render_tables(named, fmt, header, formats=FORMATS))
    if out is not None:
        files = [(out / f"{name.replace(' ', '_')}.csv", lambda p, df=df: df.to_csv(p, index=False))
                 for name, df in [*named.items(), ("by seat", b.by_seat)]]
        files.append((out / "bet_ev.png", lambda p: _plots().ev_bars(b.kinds, b.bets, p, b.meta)))
        files.append((out / "coin_flow.png", lambda p: _plots().coin_flow_chart(named["coin flow"], p, b.meta)))
        write_all(files, "--out")


@main.command("recommend")
@click.option("--profile", default="reference", show_default=True, type=ASCII, help=PROFILE_HELP)
@click.option("--players", type=StrictInt(), default=None, help="3 or 4 (default from --rules, else 4).")
@click.option("-n", "n", type=count_type(), default=FINAL_N, show_default=True,
              help="Games per finalist table (the shortlist gets an eighth of them).")
@click.option("--screen-n", type=count_type(), default=SCREEN_N, show_default=True,
              help="Games per table in the screen of every table.")
@click.option("--range", "mult_range", default=DEFAULT_RANGE, type=ASCII, show_default=True,
              help="Integer multipliers searched per type (the game prints 2x to 5x).")
@click.option("--only", default=None, type=ASCII, metavar="TYPES",
              help="Search only these types' multipliers (comma-separated); the others keep the rule set's.")
@click.option("--param", "params", multiple=True, type=ASCII, metavar="'TYPE N=V'",
              help="Also search the multiplier of one parameter, e.g. 'colour N=0' (every 'none of colour C' "
                   "bet), 'tricks N=1', 'fail S=1' (repeatable).")
@click.option("--lever", "levers", multiple=True, type=ASCII, metavar="KEY=VALUES",
              help="Also search another rule-set number, as sweep turns it: KEY=A..B, KEY=A..B:STEP or KEY=v1,v2 "
                   "(e.g. troll_pay=1..3; repeatable).")
@band_options
@click.option("--shortlist", type=positive_int(), default=None,
              help=f"Tables measured with restricted play after the screen (default: an eighth of the tables, at "
                   f"least {SHORTLIST}).")
@click.option("--top", type=positive_int(), default=TOP, show_default=True, help="Finalists shown side by side.")
@click.option("--adapt", type=count_type(), default=None, metavar="GAMES",
              help="Play the finalists and the current table by the field re-solved for each table's rules (its "
                   "near members' payoff table, GAMES games per profile; a field profile only). Default: the "
                   "field's weights held under every table.")
@click.option("--no-cache", is_flag=True, help="Do not keep finished batches on disk (no resume).")
@common_options
@scale_options
@gather("run", _run, *RUN)
@gather("space", _space, "mult_range", "params", "only", "levers")
@gather("stages", Stages, "screen_n", "shortlist", "n", "top", "adapt")
def recommend_cmd(profile, players, space, stages, band_texts, run, fmt, rules, overrides):
    """Multiplier tables ranked by the choice-balance criterion: every type's restricted-play
    value and share of bets, the troll share and the game length inside their bands.

    Searches every table of integer multipliers in --range (4^5 = 1,024 by
    default) in stages on the same seed: a screen of every table (shares, troll
    share, rounds), a shortlist with restricted play, then the finalists and the
    rule set's own table with every measure, side by side. The players re-decide
    under each table (ev, distilled and net score bets by their multipliers); a
    field's mixture is held, or with --adapt re-solved for each finalist's rules,
    and the last row says whether any member would gain against it. Finished
    batches are kept on disk, so a killed search resumes.
    scripts/bench_recommend.py times the default search.

    Default bands and why (analysis/balance/criteria.py): restricted-play value
    0.01..0.05 (below 1 point a type is dead weight, above 5 the game is about
    it); share of bets 0.05..0.40 (fewer than 1 bet in 20: players rarely meet
    the type; more than 2 in 5: it crowds the others out); troll share
    0.15..0.40 (trolling a real choice, betting the rule); rounds per game
    0.5..1 x max_rounds (games get past their middle round).

    \b
    Example:
      sponsio recommend --players 4                          # the reference field, 2..5 per type
      sponsio recommend --param "colour N=0" --range 2..4 --top 3
      sponsio recommend --only last,nines --share-band nines=0.01..0.4 -n 5000
      sponsio recommend --players 3 --only last --lever troll_pay=0..2 --adapt 300 -n 2000
    """
    bands = _bands(rules, players, overrides, band_texts)
    rec = recommend(profile, players=players, rules=rules, overrides=overrides, space=space, stages=stages,
                    bands=bands, run=run)
    m = rec.meta
    axes = ", ".join(f"{a['name']} {a['values'][0]:g}..{a['values'][-1]:g}" for a in m["axes"])
    header = "\n".join([
        m["rules"],
        f"profile: {m['profile']}; seed {run.seed}; success model {m['model']} (the base rule set's, not refitted)",
        "players re-decide under each table (ev, distilled and net score every bet by its multiplier); "
        + (f"the field's weights are held in the screen and shortlist, re-solved for each finalist's rules "
           f"({m['adapt_games']:,} games per profile)" if m["adapt_games"] else
           "the field's weights are held, not re-solved" if m["field"] else "the profile is held")
        + "".join(f"; {a['name']}: {adapts(a['key'])}" for a in m["axes"] if not a["key"].startswith("multiplier")),
        f"search: {axes} = {m['tables']:,} tables; screen {m['screen_n']:,} games each; shortlist {m['shortlist']} "
        f"x {m['shortlist_n']:,} games with restricted play; the best {m['finalists_measured']} and the current "
        f"table x {m['n']:,} games, {m['top']} shown (same seed throughout: common random numbers)",
        f"objective: {m['bands']}; rank by total violation (band widths), then by the smallest margin",
        *(f"field re-solved for {t}: {w}" for t, w in m["adapted"].items()),
        *verdict(rec)])
    if fmt == "table":
        named = {"tables side by side": side_by_side(rec), "constraints over the search": rec.attainable}
    else:
        named = {"finalists": long_table(rec), "constraints over the search": rec.attainable,
                 "screened": rec.screened, "search": {**m, "verdict": verdict(rec)}}
    emit(render_tables(named, fmt, header, formats=FORMATS))


def _plots():
    """The plotting module, imported only when a plot is drawn (matplotlib is slow to import)."""
    from sponsio_sim.analysis.balance import plots as balance_plots
    return balance_plots
