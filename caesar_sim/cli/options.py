"""Options and helpers the `caesar` commands share (kept light: click alone at import; numpy, numba,
pandas and the analysis layer are imported by the command that runs, see ``load_analysis()``)."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt, count_type
from tabletop_mc.clitools import common_options
from tabletop_mc.plotfile import plot_target

HORIZONS = ("day", "game", "net")  # caesar_sim.profile.HORIZONS (a test keeps them equal)

# Every game's final coins are kept (the paired and per-game tables need them):
# 48 bytes a game, so 10 million games hold about half a gigabyte.
MAX_GAMES = 10_000_000
GAMES_WHY = "every game's scores are kept in memory"
SET_EXAMPLE = "favour.gold_coins=3"
COMMON = common_options(set_example=SET_EXAMPLE, rules_default="standard")
PLAYERS = click.option("--players", type=StrictInt(), default=4, show_default=True, help="Players (3..5).")
STRATEGIES = ("random, greedy, value, tuned, tuned@FILE, distilled, distilled@FILE (the last five with :temp=T: "
              "softmax play at temperature T coins), mc[:K][:ROLLOUT][:reference|:field:FILE]")
PROFILE = click.option("--profile", default=None, type=ASCII,
                       help=f"One strategy per seat: {STRATEGIES} (e.g. 'tuned,value,mc:16,random' or 'value x4'); "
                            "or reference (the reference field: every seat's strategy drawn per game from the shipped "
                            "equilibrium mixture) or field:FILE (a `caesar meta` field). Default: reference.")
MC_HORIZON = click.option("--mc-horizon", type=click.Choice(HORIZONS), default="day", show_default=True,
                          help="How far `mc` rolls out each candidate action: the day's end, the game's end, or the "
                               "phase's end where its network's value head takes over (net: mc:K:net only).")
ROTATE = click.option("--rotate/--no-rotate", default=False, show_default=True,
                      help="Rotate the profile over the seats game by game (removes seat-order bias).")


def check_early(players: int, plot: str | None = None):
    """Fail on a bad player count or plot path before any simulation runs; returns the
    plot's path to write (a link to a file resolved), None without ``--plot``."""
    from caesar_sim.rules import check_players
    check_players(players)
    return plot_target(plot)


def profile_or_reference(profile: str | None, players: int) -> tuple[str, str]:
    """(profile text, a header note): the reference field when none is given."""
    if profile:
        return profile, ""
    from caesar_sim.profile import is_field, reference_profile
    ref = reference_profile(players)
    if not is_field(ref):
        return ref, f"reference profile ({ref}: used when --profile is not given)\n"
    from caesar_sim.fieldplay import field_play
    play = field_play(ref, players)
    return ref, (f"reference field ({play.mixture()}, every seat's strategy drawn per game; used when --profile is "
                 f"not given; `{play.field.command}`)\n")


def profile_text(profile: str, players: int) -> str:
    """A profile as the header shows it (a field with its mixture)."""
    from caesar_sim.profile import is_field
    if not is_field(profile):
        return profile
    from caesar_sim.fieldplay import field_play
    return field_play(profile, players).text()


def games_option(default: int, help: str = "Games to play."):
    """``-n``: games (every game's scores are kept: at most ``MAX_GAMES``)."""
    return click.option("-n", "n", type=count_type(MAX_GAMES, GAMES_WHY), default=default, show_default=True,
                        help=help)


def plot_option(what: str):
    """``--plot PNG``: save ``what`` as a PNG."""
    return click.option("--plot", default=None, metavar="PNG", help=f"Save {what} as a PNG.")


def load_analysis():
    """The analysis layer and the renderers, imported when a command runs."""
    from caesar_sim import analysis
    from tabletop_mc.output import render, render_tables
    return analysis, render, render_tables


def run_settings(**options):
    """``analysis.RunSettings`` of the options (``tabletop_mc.clitools.gather``; the analysis layer is
    imported when the command runs)."""
    return load_analysis()[0].RunSettings(**options)


def plots():
    """The plotting module, imported only when a plot is drawn (matplotlib is slow to import)."""
    from caesar_sim.analysis import plots
    return plots


def load_rules(rules, overrides):
    from caesar_sim.rules import load_rules as load
    return load(rules, overrides)


def save_weights(path, out: str, res, players: int, policy: str, show, printed: str) -> None:
    """Write ``res``'s weights file at ``path`` (checked up front), then ``show(where)`` the result,
    ``where`` saying whether the file was written; a write that failed is then one
    ``OutputError`` line (exit 1) saying what ``printed`` above holds."""
    from caesar_sim import weights as WT
    from tabletop_mc.errors import OutputError

    try:
        WT.save(path, res.weights, players, res.meta, policy=policy)
        failed = None
    except OSError as exc:
        failed = exc.strerror or str(exc)
    show(f"NOT written to {out} (see the error below)" if failed else f"wrote {out}")
    if failed:
        raise OutputError(f"--out {out}: cannot write the weights file ({failed}); {printed}")
