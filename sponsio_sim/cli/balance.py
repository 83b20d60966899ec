"""`sponsio balance` and `sponsio recommend`: payout-table balance for designers."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, FiniteFloat, StrictInt, count_type, positive_int

from tabletop_mc.clitools import common_options, emit, scale_options
from tabletop_mc.output import render_tables
from tabletop_mc.plotfile import dir_target, save_plot, write_atomic
from sponsio_sim.analysis.balance.run import balance
from sponsio_sim.analysis.balance.recommend import TOLERANCE, recommend
from sponsio_sim.cli import main

FORMATS = {"multiplier": "{:g}", "placed": "{:.0f}"}


PROFILE_HELP = ("One strategy per seat (BETTING:PLAY[:CASH]); 'S xN' repeats a strategy; 'reference' is the "
                "reference profile for balance work (calibrated ev with the threshold and cash-in `sponsio exploit` "
                "found best, every seat).")


def _profile_label(profile: str, text: str) -> str:
    return f"reference profile ({text})" if str(profile).strip().lower() == "reference" else f"profile {text}"


@main.command("balance")
@click.option("--profile", default="reference", show_default=True, type=ASCII, help=PROFILE_HELP)
@click.option("--players", type=StrictInt(), default=None, help="3 or 4 (default from --rules, else 4).")
@click.option("-n", "n", type=count_type(), default=200_000, show_default=True, help="Games per run.")
@click.option("--sweep", "sweep_spec", default=None, type=ASCII, metavar="KEY=A..B",
              help="Rerun per value of a rule-set number: KEY=A..B, KEY=A..B:STEP or KEY=v1,v2.")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Also write every table as CSV and the plots as PNG into this folder.")
@click.option("--no-cache", is_flag=True, help="Do not keep finished batches on disk (no resume).")
@common_options
@scale_options
def balance_cmd(profile, players, n, sweep_spec, out_dir, no_cache, seed, fmt, rules, overrides, threads,
                scheduler, workers):
    """Hit rate, EV per coin, fair multiplier, RTP and volatility of every bet
    as the strategies place them in full games; by seat; troll economics.

    Finished batches are kept on disk, so a killed run resumes (--no-cache:
    off). Volatility index = 1.96 x SD of the payout per stake.

    \b
    Example:
      sponsio balance --players 4 -n 200000          # the reference profile
      sponsio balance --players 4 --profile "ev:goal:cash4 x4" -n 200000
      sponsio balance -n 50000 --sweep "multiplier.last=2..5" --out balance/
    """
    out = dir_target(out_dir)
    b = balance(profile, players=players, n=n, seed=seed, rules=rules, overrides=overrides,
                sweep_spec=sweep_spec, threads=threads, progress=None, scheduler=scheduler, workers=workers,
                cache=not no_cache)
    named = {"bet types": b.kinds, "bets": b.bets, "by seat": b.by_seat, "trolls": b.trolls,
             "troll pay distribution": b.troll_pay, "troll vs bettor": b.meta["troll_vs_bettor"],
             "strategies": b.entries[["entry", "strategy", "games", "win", "win_low", "win_high", "coins",
                                      "troll_share", "troll_pay"]],
             "games": b.games}
    if "sweep" in b.meta:
        named["sweep"] = b.meta["sweep"]
    header = (f"{b.meta['rules']}\n{_profile_label(profile, b.meta['profile'])} (rotated over seats), "
              f"n={n} games per run, "
              f"seed {seed}; {b.meta['ci']}; volatility index = {b.meta['volatility']}; "
              f"success model {b.meta['model']}")
    emit(render_tables(named, fmt, header, formats=FORMATS))
    if out is not None:
        for name, df in named.items():
            write_atomic(out / f"{name.replace(' ', '_')}.csv", lambda p, df=df: df.to_csv(p, index=False), "--out")
        save_plot(out / "bet_ev.png", lambda p: _plots().ev_bars(b.kinds, b.bets, p, b.meta), "--out")
        if "sweep" in b.meta:
            save_plot(out / "sweep.png", lambda p: _plots().sweep_plot(b.meta["sweep"], p, b.meta), "--out")


@main.command("recommend")
@click.option("--profile", default="reference", show_default=True, type=ASCII, help=PROFILE_HELP)
@click.option("--players", type=StrictInt(), default=None, help="3 or 4 (default from --rules, else 4).")
@click.option("-n", "n", type=count_type(), default=50_000, show_default=True, help="Games per iteration.")
@click.option("--target-rtp", type=FiniteFloat(0.0, 100.0), default=1.0, show_default=True,
              help="Return to player per coin staked to aim at (1.0 = fair).")
@click.option("--tolerance", type=FiniteFloat(0.0, 100.0), default=TOLERANCE, show_default=True,
              help="A type is in range when |RTP - target| is at most this.")
@click.option("--range", "mult_range", default="2..6", type=ASCII, show_default=True,
              help="Integer multipliers allowed.")
@click.option("--max-iter", type=positive_int(), default=6, show_default=True, help="Replays with a new table at most.")
@click.option("--check/--no-check", default=True, show_default=True,
              help="Check the chosen table with restricted play (no bet type dominant).")
@click.option("--no-cache", is_flag=True, help="Do not keep finished batches on disk.")
@common_options
@scale_options
def recommend_cmd(profile, players, n, target_rtp, tolerance, mult_range, max_iter, check, no_cache, seed, fmt,
                  rules, overrides, threads, scheduler, workers):
    """Integer multipliers per bet type bringing every type's RTP near a target,
    the ev policy re-adapting to each new table.

    Says "converged" only when every type placed ends within the tolerance,
    and otherwise why each other type does not; then checks the chosen table
    with restricted play: a type whose removal costs one seat more than 0.05
    win share (95% interval) dominates the game under that table.

    \b
    Example:
      sponsio recommend --target-rtp 0.95 --range 2..6 -n 50000
      sponsio recommend --profile "ev:goal:cash4 x4" --tolerance 0.05 --no-check -n 20000
    """
    df = recommend(profile, players=players, n=n, seed=seed, rules=rules, overrides=overrides,
                   target_rtp=target_rtp, mult_range=mult_range, max_iter=max_iter, tolerance=tolerance,
                   check=check, threads=threads, progress=None, scheduler=scheduler, workers=workers,
                   cache=not no_cache)
    a = df.attrs
    off = df[df["why_not"] != ""]
    verdict = (f"converged: every type's RTP within {a['tolerance']:g} of {a['target_rtp']:g}" if a["converged"]
               else f"NOT converged: {', '.join(off['type'])} not within {a['tolerance']:g} of the target")
    lines = [f"{a['rules']}", f"{_profile_label(profile, a['profile'])}, n={a['n']} games per iteration, seed "
             f"{a['seed']}, target RTP {a['target_rtp']:g} +/- {a['tolerance']:g}, multipliers "
             f"{a['range'][0]}..{a['range'][1]}; ev model {a['model']}",
             f"{verdict} (runs: {a['iterations']}, tables tried: {a['history']}; chosen run {a['chosen_iteration']}"
             f"{', a fixed point' if a['fixed_point'] else ''}); largest |RTP - target| {a['spread_before']:.3f} "
             f"before -> {a['spread_after']:.3f} after"]
    lines += [f"  {r.type}: {r.why_not}" for r in off.itertuples()]
    named = {"recommendation": df}
    if "restricted_play" in a:
        dom = a["dominant"]
        lines.append("restricted play under the chosen table (value of a type = win share one seat loses without "
                     f"it, paired): {'dominant: ' + ', '.join(dom) if dom else 'no type dominant'} "
                     f"(dominant = loss above {a['dominance']:g} with 95% confidence)"
                     + ("; do not print this table as it is" if dom else ""))
        named["restricted play"] = a["restricted_play"]
    meta = {"converged": a["converged"], "fixed_point": a["fixed_point"], "iterations": a["iterations"],
            "spread_before": a["spread_before"], "spread_after": a["spread_after"], "tables_tried": a["history"],
            "tolerance": a["tolerance"], "dominant": a.get("dominant"), "profile": a["profile"]}
    named["search"] = meta
    emit(render_tables(named, fmt, "\n".join(lines), formats=FORMATS))


def _plots():
    """The plotting module, imported only when a plot is drawn (matplotlib is slow to import)."""
    from sponsio_sim.analysis.balance import plots as balance_plots
    return balance_plots
