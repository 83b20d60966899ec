"""`caesar game`, `simulate`, `bids` and `sweep`: games played and what they show."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, count_type
from tabletop_mc.clitools import ModeGroup, emit, gather
from tabletop_mc.plotfile import save_plot
from caesar_sim.cli.root import main
from caesar_sim.cli.options import (COMMON, MC_HORIZON, PLAYERS, PROFILE, ROTATE, STRATEGIES, load_analysis,
                                    check_early, games_option, plot_option, plots, profile_or_reference, profile_text,
                                    run_settings)


@main.command()
@PLAYERS
@click.option("--profile", default=None, type=ASCII,
              help=f"One strategy per seat: {STRATEGIES}; or reference / field:FILE (the seats drawn from that field "
                   "as `simulate` draws game 0's). Default: tuned for all but the last two seats, then value, mc; e.g. "
                   "'tuned,tuned,value,mc' with 4 players.")
@click.option("--verbose", is_flag=True, help="Also show every pass.")
@MC_HORIZON
@COMMON
def game(players, profile, verbose, mc_horizon, seed, fmt, rules, overrides, threads):
    """Play one narrated game: set-up, every bid, resolution and scoring.

    \b
    Example:
      caesar game --players 4 --profile "value,value,greedy,mc" --seed 2 --verbose
    The game is the first one `caesar simulate` plays with the same seed (no --rotate).
    """
    from caesar_sim.profile import game_profile
    from caesar_sim.rules import check_players
    check_players(players)
    profile = profile or game_profile(players)
    analysis, render, _ = load_analysis()
    text, table, summary = analysis.narrated_game(players, profile, seed=seed, rules=rules, overrides=overrides,
                                           verbose=verbose, mc_horizon=mc_horizon)
    if fmt == "table":
        emit(f"{summary}\nseed {seed}, profile {profile}\n\n{text}\n\n{render(table, 'table', title='[result]')}")
    else:
        emit(render(table, fmt))


@main.command()
@PLAYERS
@PROFILE
@games_option(10000)
@ROTATE
@click.option("--favour-value/--no-favour-value", default=True, show_default=True,
              help="Measure what one extra favour of each type is worth (3 more runs with the same seed).")
@plot_option("the score distributions")
@MC_HORIZON
@COMMON
def simulate(players, profile, n, rotate, favour_value, plot, mc_horizon, seed, fmt, rules, overrides, threads):
    """Win rates (Wilson CI), score distributions, seat order, favours, unclaimed items, short decks.

    \b
    Example:
      caesar simulate --players 4 --profile "value,value,greedy,random" -n 100000 --rotate
    """
    plot = check_early(players, plot)
    profile, note = profile_or_reference(profile, players)
    analysis, _, render_tables = load_analysis()
    settings = analysis.RunSettings(seed=seed, rules=rules, overrides=overrides, threads=threads, mc_horizon=mc_horizon)
    sim = analysis.simulate(players, profile, n, settings, rotate=rotate, favour_value=favour_value)
    emit(render_tables(sim.tables, fmt, note + sim.header()))
    if plot:
        b = sim.batch
        save_plot(plot, lambda p: plots().score_histogram([(lb, x) for lb, x, _ in b.by_label()], p,
                                                            f"final coins, {b.players} players, n={b.n}, "
                                                            f"seed {b.seed}"))


@main.command()
@PLAYERS
@PROFILE
@games_option(50000)
@ROTATE
@click.option("--by-seat/--pooled", default=True, show_default=True,
              help="Split the table by seat order (0 = the phase's start player).")
@plot_option("a heatmap (location x merchant value)")
@MC_HORIZON
@COMMON
def bids(players, profile, n, rotate, by_seat, plot, mc_horizon, seed, fmt, rules, overrides, threads):
    """The venue-bid value table: net coins per merchant value, phase and venue.

    \b
    Example:
      caesar bids --players 4 --profile "value x4" -n 200000 --plot bids.png
    """
    plot = check_early(players, plot)
    analysis, render, _ = load_analysis()
    from caesar_sim.analysis.game.bids import NET_NOTE
    from tabletop_mc.stats import CI_METHOD
    profile, note = profile_or_reference(profile, players)
    settings = analysis.RunSettings(seed=seed, rules=rules, overrides=overrides, threads=threads, mc_horizon=mc_horizon)
    b, table = analysis.bids(players, profile, n, settings, rotate=rotate, by_seat=by_seat)
    header = (f"{note}{b.rules.summary()}\nprofile {b.profile.text()}, n={b.n} games, seed {b.seed}; {CI_METHOD}\n"
              f"{NET_NOTE}")
    emit(render(table, fmt, title=header) if fmt == "table" else render(table, fmt))
    if plot:
        save_plot(plot, lambda p: plots().bid_heatmap(table, p, f"venue-bid values: {b.profile.text()}, "
                                                        f"{players} players, n={b.n} games, seed {b.seed}"))


@main.group("sweep", cls=ModeGroup, default="levers", flags={"--by-seat": "seats"})
def sweep():
    """Lever-to-effect tables: the same games under alternative rule numbers.

    \b
    Two tables, one subcommand each (`caesar sweep levers --help`,
    `caesar sweep seats --help`):
      levers  each lever's effect on the game's measures, per player count
      seats   each seat's win rate and coins per variant (one count)

    Without a subcommand, `caesar sweep --set ...` is `caesar sweep levers`.

    \b
    Example:
      caesar sweep levers --players 3,4,5 -n 20000 --set "favour.gold_coins=1;3"
      caesar sweep seats --players 4 -n 20000 --set "favour.gold_coins=1;3"
    """


@sweep.command("levers")
@click.option("--players", "players", default="4", show_default=True, type=ASCII, metavar="P[,P...]",
              help="Player count(s), e.g. 3,4,5: one table per lever and count.")
@PROFILE
@games_option(20000, "Games per variant.")
@click.option("--rotate/--no-rotate", default=True, show_default=True, help="Rotate the profile over seats.")
@plot_option("the effects per lever")
@click.option("--adapt", "adapt_games", type=count_type(), default=None, metavar="GAMES",
              help="Re-solve the field's weights for every value's rules (its near members' payoff table, GAMES "
                   "games per profile; a field profile only). Default: the same weights under every value.")
@MC_HORIZON
@COMMON
@gather("settings", run_settings, "seed", "rules", "threads", "mc_horizon")
def sweep_levers(players, profile, n, rotate, plot, adapt_games, settings, fmt, overrides):
    """Each lever's effect on the game's measures, with a 95% CI, per player count.

    Each --set KEY=V1;V2 is one lever and its values. Every value replays the games of the
    unchanged rules (the same seed: common random numbers); the effect on each measure (the
    start seat against the fair share, the largest seat gap, days per game, mean coins, the
    score spread, the winner's lead, close games, lead changes, comebacks) is the paired
    difference with a 95% CI, and moved = that CI excludes 0. The players are not refitted.

    \b
    Example:
      caesar sweep levers --players 3,4,5 -n 20000 --set "favour.gold_coins=1;3" \\
        --set "merchant.coins=[0,0,1,1,2,2,3,3];[0,1,1,2,2,3,3,4]"
      caesar sweep levers --players 4 --set "favour.gold_coins=1;3" --adapt 500   # the field re-solved per value
    """
    from tabletop_mc.errors import UserError
    try:
        counts = [int(x) for x in players.split(",")]
    except ValueError:
        raise UserError(f"--players {players!r}: a player count or a list such as 3,4,5") from None
    plot = check_early(counts[0], plot)
    for p in counts[1:]:
        check_early(p)
    _, render, render_tables = load_analysis()
    from tabletop_mc.stats import CI_METHOD
    seed, rules = settings.seed, settings.rules
    from caesar_sim.analysis.balance import levers
    from caesar_sim.rules import load_rules
    results, notes = [], []
    for p in counts:
        prof, note = profile_or_reference(profile, p)
        notes.append(note.strip() and f"{p} players: {note.strip()}")
        results += levers.lever_effects(p, prof, n, overrides, settings, rotate=rotate, adapt_games=adapt_games or 0)
    effects = levers.effects_table(results)
    who = [x for x in notes if x] or [f"{p} players: {w}" for p, w in {r.players: r.profile for r in results}.items()]
    header = ("\n".join(who) + f"\nunchanged {load_rules(rules).summary()}\n"
              f"n={n} games per value, seed {seed} (the same games under every value: paired); {CI_METHOD}\n"
              "each value: the effect against the unchanged rules [95% CI], * = moved (the CI excludes 0); the "
              f"standard column is the unchanged rules' level\nplayers refitted per value: {results[0].refit}"
              + "".join(f"\n{r.players}p {r.key}={v}: field re-solved {a.text()} (Nash gap {a.gap:.4f})"
                        for r in results if r.fields for v, a in r.fields.items()))
    if fmt == "table":
        named = {f"{r.players} players: {r.key}": levers.reading_table(r) for r in results}
        named["moved effects, largest first"] = levers.headline(results)
        emit(render_tables(named, fmt, header))
    elif fmt == "json":
        emit(render_tables({"effects": effects, "headline": levers.headline(results)}, fmt,
                           meta={"refitted": results[0].refit, "n": n, "seed": seed, "players": counts}))
    else:
        emit(render(effects, "csv"))
    if plot:
        save_plot(plot, lambda p: plots().lever_plot(effects, p, f"Effects of each rule value against the "
                                                                 f"unchanged rules (n={n} paired games each)"))


@sweep.command("seats")
@PLAYERS
@PROFILE
@games_option(20000, "Games per variant.")
@click.option("--rotate/--no-rotate", default=True, show_default=True, help="Rotate the profile over seats.")
@plot_option("the win rates")
@MC_HORIZON
@COMMON
@gather("settings", run_settings, "seed", "rules", "threads", "mc_horizon")
def sweep_seats(players, profile, n, rotate, plot, settings, fmt, overrides):
    """Each seat's win rate and coins per variant, one player count.

    Each --set KEY=V1;V2 is one lever and its values; every variant (one value of one lever)
    replays the games of the unchanged rules (the same seed: common random numbers), and each
    seat's win rate and coins are compared with the baseline's (d_win, d_score, moved = a 95%
    CI excludes 0).

    \b
    Example:
      caesar sweep seats --players 4 -n 20000 --set "favour.gold_coins=1;3"
    """
    plot = check_early(players, plot)
    analysis, render, _ = load_analysis()
    from tabletop_mc.stats import CI_METHOD
    profile, note = profile_or_reference(profile, players)
    table, summary = analysis.sweep(players, profile, n, overrides, settings, rotate=rotate)
    header = (f"{note}base {summary}\nprofile {profile_text(profile, players)}, n={n} games per variant, "
              f"seed {settings.seed} (same games in every variant); {CI_METHOD}; moved = a 95% CI of d_win or d_score "
              "excludes 0")
    emit(render(table, fmt, title=header) if fmt == "table" else render(table, fmt))
    if plot:
        save_plot(plot, lambda p: plots().sweep_plot(table, p, f"Win rate by seat and variant, {players} "
                                                               f"players (n={n} per variant)"))
