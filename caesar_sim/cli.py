"""`caesar` command line: parse, call the analysis layer, print (results on stdout only)."""

from __future__ import annotations


import click

from mcsim.clitools import OneLineErrorGroup, common_options, emit
from mcsim.plotfile import plot_target, save_plot
from mcsim.output import render, render_tables
from mcsim.stats import CI_METHOD
from caesar_sim import analysis as A
from caesar_sim.analysis import plots
from caesar_sim.analysis.bids import NET_NOTE
from caesar_sim.profile import HORIZONS, game_profile
from caesar_sim.rules import check_players

PLAYERS = click.option("--players", type=int, default=4, show_default=True, help="Players (3..5).")
PROFILE = click.option("--profile", default="value x4", show_default=True,
                       help="One policy per seat: random, greedy, value, mc[:K] (e.g. 'value,greedy,mc:16,random' "
                            "or 'value x4').")
N = click.option("-n", "n", type=int, default=10000, show_default=True, help="Games to play.")
MC_HORIZON = click.option("--mc-horizon", type=click.Choice(HORIZONS), default="day", show_default=True,
                          help="How far `mc` rolls out each candidate action: the day's end or the game's end.")
PLOT = lambda what: click.option("--plot", default=None, metavar="PNG", help=f"Save {what} as a PNG.")  # noqa: E731
ROTATE = click.option("--rotate/--no-rotate", default=False, show_default=True,
                      help="Rotate the profile over the seats game by game (removes seat-order bias).")


def _check_early(players: int, plot: str | None) -> None:
    """Fail on a bad player count or plot path before any simulation runs."""
    check_players(players)
    if plot:
        plot_target(plot)


@click.group(cls=OneLineErrorGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Circus Maximus Monte Carlo analyser: strategies, win rates and venue-bid values.

    \b
    Example:
      caesar simulate --players 4 --profile "value,value,greedy,mc" -n 20000 --rotate
    """


@main.command()
@PLAYERS
@click.option("--profile", default=None,
              help="One policy per seat: random, greedy, value, mc[:K] (default: value for all but the last "
                   "two seats, then greedy, mc; e.g. 'value,value,greedy,mc' with 4 players).")
@click.option("--verbose", is_flag=True, help="Also show every pass.")
@MC_HORIZON
@common_options
def game(players, profile, verbose, mc_horizon, seed, fmt, rules, overrides, threads):
    """Play one narrated game: set-up, every bid, resolution and scoring.

    \b
    Example:
      caesar game --players 4 --profile "value,value,greedy,mc" --seed 2 --verbose
    The game is the first one `caesar simulate` plays with the same seed (no --rotate).
    """
    check_players(players)
    profile = profile or game_profile(players)
    text, table, summary = A.narrated_game(players, profile, seed=seed, rules=rules, overrides=overrides,
                                           verbose=verbose, mc_horizon=mc_horizon)
    if fmt == "table":
        emit(f"{summary}\nseed {seed}, profile {profile}\n\n{text}\n\n{render(table, 'table', title='[result]')}")
    else:
        emit(render(table, fmt))


@main.command()
@PLAYERS
@PROFILE
@N
@ROTATE
@click.option("--favour-value/--no-favour-value", default=True, show_default=True,
              help="Measure what one extra favour of each type is worth (3 more runs with the same seed).")
@PLOT("the score distributions")
@MC_HORIZON
@common_options
def simulate(players, profile, n, rotate, favour_value, plot, mc_horizon, seed, fmt, rules, overrides, threads):
    """Win rates (Wilson CI), score distributions, seat order, favours, unclaimed items, short decks.

    \b
    Example:
      caesar simulate --players 4 --profile "value,value,greedy,random" -n 100000 --rotate
    """
    _check_early(players, plot)
    sim = A.simulate(players, profile, n, seed=seed, rules=rules, overrides=overrides, rotate=rotate,
                     threads=threads, favour_value=favour_value, mc_horizon=mc_horizon)
    if plot:
        b = sim.batch
        save_plot(plot, lambda p: plots.score_histogram(b.entry_scores(), b.profile.labels, p,
                                                         f"final coins, {b.players} players, n={b.n}, seed {b.seed}"))
    emit(render_tables(sim.tables, fmt, sim.header()))


@main.command()
@PLAYERS
@PROFILE
@click.option("-n", "n", type=int, default=50000, show_default=True, help="Games to play.")
@ROTATE
@click.option("--by-seat/--pooled", default=True, show_default=True,
              help="Split the table by seat order (0 = the phase's start player).")
@PLOT("a heatmap (location x merchant value)")
@MC_HORIZON
@common_options
def bids(players, profile, n, rotate, by_seat, plot, mc_horizon, seed, fmt, rules, overrides, threads):
    """The venue-bid value table: net coins per merchant value, phase and venue.

    \b
    Example:
      caesar bids --players 4 --profile "value x4" -n 200000 --plot bids.png
    """
    _check_early(players, plot)
    b, table = A.bids(players, profile, n, seed=seed, rules=rules, overrides=overrides, rotate=rotate,
                      threads=threads, by_seat=by_seat, mc_horizon=mc_horizon)
    if plot:
        save_plot(plot, lambda p: plots.bid_heatmap(table, p, f"venue-bid values: {b.profile.text()}, "
                                                     f"{players} players, n={b.n} games, seed {b.seed}"))
    header = (f"{b.rules.summary()}\nprofile {b.profile.text()}, n={b.n} games, seed {b.seed}; {CI_METHOD}\n"
              f"{NET_NOTE}")
    emit(render(table, fmt, title=header) if fmt == "table" else render(table, fmt))


@main.command()
@PLAYERS
@PROFILE
@click.option("-n", "n", type=int, default=20000, show_default=True, help="Games per variant.")
@click.option("--rotate/--no-rotate", default=True, show_default=True, help="Rotate the profile over seats.")
@PLOT("win rates per variant")
@MC_HORIZON
@common_options
def sweep(players, profile, n, rotate, plot, mc_horizon, seed, fmt, rules, overrides, threads):
    """Rerun the same games under alternative rule numbers; report what moves.

    Each --set KEY=VALUE is one alternative to the base rule set (KEY=V1;V2 gives several);
    every variant replays the same seeds, and changes are paired differences with 95% CIs.

    \b
    Example:
      caesar sweep --players 4 --profile "value,greedy,value,greedy" -n 20000 \\
        --set "merchant.coins=[0,0,1,1,2,2,3,3];[0,1,1,2,2,3,3,4]" --set favour.gold_coins=1;3
    """
    _check_early(players, plot)
    table, summary = A.sweep(players, profile, n, overrides, seed=seed, rules=rules, rotate=rotate,
                             threads=threads, mc_horizon=mc_horizon)
    if plot:
        save_plot(plot, lambda p: plots.sweep_plot(table, p, f"{profile}, {players} players, n={n} per variant"))
    header = (f"base {summary}\nprofile {profile}, n={n} games per variant, seed {seed} (same games in every "
              f"variant); {CI_METHOD}; moved = a 95% CI of d_win or d_score excludes 0")
    emit(render(table, fmt, title=header) if fmt == "table" else render(table, fmt))
