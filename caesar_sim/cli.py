"""`caesar` command line: parse, call the analysis layer, print (results on stdout only)."""

from __future__ import annotations


import click

from mcsim.cliparams import ASCII, StrictInt, count_type
from mcsim.clitools import OneLineErrorGroup, common_options, emit
from mcsim.cachecli import cache_group
from mcsim.cachedir import kernel_cache_root
from mcsim.rulecli import rules_group, rules_meta
from mcsim.plotfile import plot_target, save_plot

# Kept light: `caesar --help` imports click alone; numpy, numba, pandas and the
# analysis layer are imported by the command that runs (see _analysis()).
HORIZONS = ("day", "game")  # caesar_sim.profile.HORIZONS (a test keeps them equal)

# Every game's final coins are kept (the paired and per-game tables need them):
# 48 bytes a game, so 10 million games hold about half a gigabyte.
MAX_GAMES = 10_000_000
GAMES_WHY = "every game's scores are kept in memory"
SET_EXAMPLE = "favour.gold_coins=3"
COMMON = common_options(set_example=SET_EXAMPLE, rules_default="standard")
PLAYERS = click.option("--players", type=StrictInt(), default=4, show_default=True, help="Players (3..5).")
PROFILE = click.option("--profile", default="value x4", show_default=True, type=ASCII,
                       help="One policy per seat: random, greedy, value, mc[:K] (e.g. 'value,greedy,mc:16,random' "
                            "or 'value x4').")
N = click.option("-n", "n", type=count_type(MAX_GAMES, GAMES_WHY), default=10000, show_default=True, help="Games to play.")
MC_HORIZON = click.option("--mc-horizon", type=click.Choice(HORIZONS), default="day", show_default=True,
                          help="How far `mc` rolls out each candidate action: the day's end or the game's end.")
PLOT = lambda what: click.option("--plot", default=None, metavar="PNG", help=f"Save {what} as a PNG.")  # noqa: E731
ROTATE = click.option("--rotate/--no-rotate", default=False, show_default=True,
                      help="Rotate the profile over the seats game by game (removes seat-order bias).")


def _check_early(players: int, plot: str | None) -> None:
    """Fail on a bad player count or plot path before any simulation runs."""
    from caesar_sim.rules import check_players
    check_players(players)
    if plot:
        plot_target(plot)


@click.group("caesar", cls=OneLineErrorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sponsio-sim", prog_name="caesar", message="%(prog)s %(version)s")
def main():
    """Circus Maximus Monte Carlo analyser: strategies, win rates and venue-bid values.

    \b
    Example:
      caesar simulate --players 4 --profile "value,value,greedy,mc" -n 20000 --rotate
    """


@main.command()
@PLAYERS
@click.option("--profile", default="value,value,greedy,mc", show_default=True, type=ASCII,
              help="One policy per seat: random, greedy, value, mc[:K].")
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
    A, render, _ = _analysis()
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
@COMMON
def simulate(players, profile, n, rotate, favour_value, plot, mc_horizon, seed, fmt, rules, overrides, threads):
    """Win rates (Wilson CI), score distributions, seat order, favours, unclaimed items.

    \b
    Example:
      caesar simulate --players 4 --profile "value,value,greedy,random" -n 100000 --rotate
    """
    _check_early(players, plot)
    A, _, render_tables = _analysis()
    sim = A.simulate(players, profile, n, seed=seed, rules=rules, overrides=overrides, rotate=rotate,
                     threads=threads, favour_value=favour_value, mc_horizon=mc_horizon)
    emit(render_tables(sim.tables, fmt, sim.header()))
    if plot:
        b = sim.batch
        save_plot(plot, lambda p: _plots().score_histogram(b.entry_scores(), b.profile.labels, p,
                                                            f"final coins, {b.players} players, n={b.n}, "
                                                            f"seed {b.seed}"))


@main.command()
@PLAYERS
@PROFILE
@click.option("-n", "n", type=count_type(MAX_GAMES, GAMES_WHY), default=50000, show_default=True, help="Games to play.")
@ROTATE
@click.option("--by-seat/--pooled", default=True, show_default=True,
              help="Split the table by seat order (0 = the phase's start player).")
@PLOT("a heatmap (location x merchant value)")
@MC_HORIZON
@COMMON
def bids(players, profile, n, rotate, by_seat, plot, mc_horizon, seed, fmt, rules, overrides, threads):
    """The venue-bid value table: net coins per merchant value, phase and venue.

    \b
    Example:
      caesar bids --players 4 --profile "value x4" -n 200000 --plot bids.png
    """
    _check_early(players, plot)
    A, render, _ = _analysis()
    from caesar_sim.analysis.bids import NET_NOTE
    from mcsim.stats import CI_METHOD
    b, table = A.bids(players, profile, n, seed=seed, rules=rules, overrides=overrides, rotate=rotate,
                      threads=threads, by_seat=by_seat, mc_horizon=mc_horizon)
    header = (f"{b.rules.summary()}\nprofile {b.profile.text()}, n={b.n} games, seed {b.seed}; {CI_METHOD}\n"
              f"{NET_NOTE}")
    emit(render(table, fmt, title=header) if fmt == "table" else render(table, fmt))
    if plot:
        save_plot(plot, lambda p: _plots().bid_heatmap(table, p, f"venue-bid values: {b.profile.text()}, "
                                                        f"{players} players, n={b.n} games, seed {b.seed}"))


@main.command()
@PLAYERS
@PROFILE
@click.option("-n", "n", type=count_type(MAX_GAMES, GAMES_WHY), default=20000, show_default=True, help="Games per variant.")
@click.option("--rotate/--no-rotate", default=True, show_default=True, help="Rotate the profile over seats.")
@PLOT("win rates per variant")
@MC_HORIZON
@COMMON
def sweep(players, profile, n, rotate, plot, mc_horizon, seed, fmt, rules, overrides, threads):
    """Rerun the same games under alternative rule numbers; report what moves.

    Each --set KEY=VALUE is one alternative to the base rule set (KEY=V1;V2 gives several);
    every variant replays the same seeds, and changes are paired differences with 95% CIs.

    \b
    Example:
      caesar sweep --players 4 --profile "value,greedy,value,greedy" -n 20000 \\
        --set "merchant.coins=[0,0,1,1,2,2,3,3];[0,1,1,2,2,3,3,4]" --set "favour.gold_coins=1;3"
    """
    _check_early(players, plot)
    A, render, _ = _analysis()
    from mcsim.stats import CI_METHOD
    table, summary = A.sweep(players, profile, n, overrides, seed=seed, rules=rules, rotate=rotate,
                             threads=threads, mc_horizon=mc_horizon)
    header = (f"base {summary}\nprofile {profile}, n={n} games per variant, seed {seed} (same games in every "
              f"variant); {CI_METHOD}; moved = a 95% CI of d_win or d_score excludes 0")
    emit(render(table, fmt, title=header) if fmt == "table" else render(table, fmt))
    if plot:
        save_plot(plot, lambda p: _plots().sweep_plot(table, p, f"{profile}, {players} players, n={n} per variant"))


def _analysis():
    """The analysis layer and the renderers, imported when a command runs."""
    from caesar_sim import analysis
    from mcsim.output import render, render_tables
    return analysis, render, render_tables


def _plots():
    """The plotting module, imported only when a plot is drawn (matplotlib is slow to import)."""
    from caesar_sim.analysis import plots
    return plots


def _load_rules(rules, overrides):
    from caesar_sim.rules import load_rules
    return load_rules(rules, overrides)


rules_group(main, "caesar", "caesar_sim.rules", _load_rules, lambda ruleset, rules: _load_rules(rules, ()),
            SET_EXAMPLE)
main.rules_meta = lambda params: rules_meta(_load_rules, params)
cache_group(main, "caesar", lambda: [("compiled kernels", kernel_cache_root(), "caesar_sim-*")], "compiled kernels")
