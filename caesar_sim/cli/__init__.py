"""`caesar` command line: parse, call the analysis layer, print (results on stdout only)."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt, count_type
from tabletop_mc.clitools import OneLineErrorGroup, common_options, emit
from tabletop_mc.cachecli import cache_group
from tabletop_mc.cachedir import kernel_cache_root
from tabletop_mc.reportcli import report_command
from tabletop_mc.rulecli import rules_group, rules_meta
from tabletop_mc.plotfile import plot_target, save_plot

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
STRATEGIES = ("random, greedy, value, tuned, tuned@FILE, distilled, distilled@FILE (the last five with :temp=T: "
              "softmax play at temperature T coins), mc[:K][:ROLLOUT][:reference|:field:FILE]")
PROFILE = click.option("--profile", default=None, type=ASCII,
                       help=f"One strategy per seat: {STRATEGIES} (e.g. 'tuned,value,mc:16,random' or 'value x4'); "
                            "or reference (the reference field: every seat's strategy drawn per game from the shipped "
                            "equilibrium mixture) or field:FILE (a `caesar meta` field). Default: reference.")
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


def _profile(profile: str | None, players: int) -> tuple[str, str]:
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


def _profile_text(profile: str, players: int) -> str:
    """A profile as the header shows it (a field with its mixture)."""
    from caesar_sim.profile import is_field
    if not is_field(profile):
        return profile
    from caesar_sim.fieldplay import field_play
    return field_play(profile, players).text()


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
    """Win rates (Wilson CI), score distributions, seat order, favours, unclaimed items, short decks.

    \b
    Example:
      caesar simulate --players 4 --profile "value,value,greedy,random" -n 100000 --rotate
    """
    _check_early(players, plot)
    profile, note = _profile(profile, players)
    A, _, render_tables = _analysis()
    sim = A.simulate(players, profile, n, seed=seed, rules=rules, overrides=overrides, rotate=rotate,
                     threads=threads, favour_value=favour_value, mc_horizon=mc_horizon)
    emit(render_tables(sim.tables, fmt, note + sim.header()))
    if plot:
        b = sim.batch
        save_plot(plot, lambda p: _plots().score_histogram([(lb, x) for lb, x, _ in b.by_label()], p,
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
    from tabletop_mc.stats import CI_METHOD
    profile, note = _profile(profile, players)
    b, table = A.bids(players, profile, n, seed=seed, rules=rules, overrides=overrides, rotate=rotate,
                      threads=threads, by_seat=by_seat, mc_horizon=mc_horizon)
    header = (f"{note}{b.rules.summary()}\nprofile {b.profile.text()}, n={b.n} games, seed {b.seed}; {CI_METHOD}\n"
              f"{NET_NOTE}")
    emit(render(table, fmt, title=header) if fmt == "table" else render(table, fmt))
    if plot:
        save_plot(plot, lambda p: _plots().bid_heatmap(table, p, f"venue-bid values: {b.profile.text()}, "
                                                        f"{players} players, n={b.n} games, seed {b.seed}"))


@main.command()
@click.option("--players", "players", default="4", show_default=True, type=ASCII, metavar="P[,P...]",
              help="Player count(s), e.g. 3,4,5: one table per lever and count.")
@PROFILE
@click.option("-n", "n", type=count_type(MAX_GAMES, GAMES_WHY), default=20000, show_default=True, help="Games per variant.")
@click.option("--rotate/--no-rotate", default=True, show_default=True, help="Rotate the profile over seats.")
@click.option("--by-seat", is_flag=True, help="Instead: each seat's win rate and coins per variant (one count).")
@PLOT("the effects per lever (with --by-seat: the win rates)")
@MC_HORIZON
@COMMON
def sweep(players, profile, n, rotate, by_seat, plot, mc_horizon, seed, fmt, rules, overrides, threads):
    """Lever-to-effect tables: the same games under alternative rule numbers.

    Each --set KEY=V1;V2 is one lever and its values. Every value replays the games of the
    unchanged rules (the same seed: common random numbers); the effect on each measure (the
    start seat against the fair share, the largest seat gap, days per game, mean coins, the
    score spread, the winner's lead, close games, lead changes, comebacks) is the paired
    difference with a 95% CI, and moved = that CI excludes 0. The players are not refitted.

    \b
    Example:
      caesar sweep --players 3,4,5 -n 20000 --set "favour.gold_coins=1;3" \\
        --set "merchant.coins=[0,0,1,1,2,2,3,3];[0,1,1,2,2,3,3,4]"
    """
    from tabletop_mc.errors import UserError
    try:
        counts = [int(x) for x in players.split(",")]
    except ValueError:
        raise UserError(f"--players {players!r}: a player count or a list such as 3,4,5") from None
    for p in counts:
        _check_early(p, plot)
    if by_seat and len(counts) > 1:
        raise UserError("--by-seat: one player count at a time")
    A, render, render_tables = _analysis()
    from tabletop_mc.stats import CI_METHOD
    if by_seat:
        profile, note = _profile(profile, counts[0])
        table, summary = A.sweep(counts[0], profile, n, overrides, seed=seed, rules=rules, rotate=rotate,
                                 threads=threads, mc_horizon=mc_horizon)
        header = (f"{note}base {summary}\nprofile {_profile_text(profile, counts[0])}, n={n} games per variant, "
                  f"seed {seed} (same games in every variant); {CI_METHOD}; moved = a 95% CI of d_win or d_score "
                  "excludes 0")
        emit(render(table, fmt, title=header) if fmt == "table" else render(table, fmt))
        if plot:
            save_plot(plot, lambda p: _plots().sweep_plot(table, p, f"Win rate by seat and variant, {counts[0]} "
                                                                    f"players (n={n} per variant)"))
        return
    from caesar_sim.analysis import levers as LV
    from caesar_sim.rules import load_rules
    results, notes = [], []
    for p in counts:
        prof, note = _profile(profile, p)
        notes.append(note.strip() and f"{p} players: {note.strip()}")
        results += LV.lever_effects(p, prof, n, overrides, seed=seed, rules=rules, rotate=rotate, threads=threads,
                                    mc_horizon=mc_horizon)
    effects = LV.effects_table(results)
    who = [x for x in notes if x] or [f"{p} players: {w}" for p, w in {r.players: r.profile for r in results}.items()]
    header = ("\n".join(who) + f"\nunchanged {load_rules(rules).summary()}\n"
              f"n={n} games per value, seed {seed} (the same games under every value: paired); {CI_METHOD}\n"
              "each value: the effect against the unchanged rules [95% CI], * = moved (the CI excludes 0); the "
              f"standard column is the unchanged rules' level\nplayers refitted per value: {LV.REFIT}")
    if fmt == "table":
        named = {f"{r.players} players: {r.key}": LV.reading_table(r) for r in results}
        named["moved effects, largest first"] = LV.headline(results)
        emit(render_tables(named, fmt, header))
    elif fmt == "json":
        emit(render_tables({"effects": effects, "headline": LV.headline(results)}, fmt,
                           meta={"refitted": LV.REFIT, "n": n, "seed": seed, "players": counts}))
    else:
        emit(render(effects, "csv"))
    if plot:
        save_plot(plot, lambda p: _plots().lever_plot(effects, p, f"Effects of each rule value against the "
                                                                  f"unchanged rules (n={n} paired games each)"))


@main.command()
@PLAYERS
@click.option("-n", "n", type=count_type(MAX_GAMES, GAMES_WHY), default=8000, show_default=True,
              help="Games per candidate and field table (rounded up to a multiple of --players).")
@click.option("--generations", type=StrictInt(), default=60, show_default=True, help="CMA-ES generations.")
@click.option("--lam", type=StrictInt(), default=12, show_default=True, help="Candidates per generation.")
@click.option("--start", default="value", show_default=True, type=ASCII,
              help="Start point: value, tuned or tuned@FILE.")
@click.option("--mc-games", type=StrictInt(), default=0, show_default=True,
              help="Games per candidate against (n-1) x mc:2 seats (slow; 0 = leave mc out of the field).")
@click.option("--against", default=None, type=ASCII,
              help="Tune against a field instead: reference, field:FILE or one strategy in every other seat; "
                   "each candidate plays one seat (rotating) of n field games per generation.")
@click.option("--out", "out", required=True, metavar="JSON", help="Weights file to write (load with tuned@FILE).")
@COMMON
def tune(players, n, generations, lam, start, mc_games, against, out, seed, fmt, rules, overrides, threads):
    """Tune `value`'s weights by simulation (CMA-ES, common random numbers, seats rotated).

    Each candidate plays n games against (n-1) x value and n games against (n-1) x the
    current search mean (the previous tuned version); its fitness is its mean win share.
    With --against, it plays one seat of n games against that field instead (the same draws
    and deals for every candidate of a generation). The weights file records the command and
    seed that produced it.

    \b
    Example:
      caesar tune --players 4 -n 8000 --generations 60 --seed 1 --out tuned-4p.json
      caesar tune --players 4 -n 8000 --generations 30 --start tuned --against reference --seed 2 --out br-4p.json
      caesar simulate --players 4 --profile "tuned@tuned-4p.json,value x3" --rotate
    """
    import shlex

    import pandas as pd

    from caesar_sim import weights as WT
    from caesar_sim.analysis.tune import tune as run_tune
    from caesar_sim.rules import check_players

    check_players(players)
    out_path = WT.check_writable(out)
    A, render, _ = _analysis()
    args = ["--players", players, "-n", n, "--generations", generations, "--lam", lam, "--start", start,
            "--mc-games", mc_games] + (["--against", against] if against else []) + ["--seed", seed]
    args += (["--rules", rules] if rules else []) + [x for o in overrides for x in ("--set", o)]
    args += (["--threads", threads] if threads else []) + ["--out", out]
    command = "caesar tune " + " ".join(shlex.quote(str(a)) for a in args)
    play = None
    if against:
        from caesar_sim.fieldplay import against as against_play
        play = against_play(against, players)
    res = run_tune(players, n, generations, seed=seed, start=start, lam=lam, mc_games=mc_games, rules=rules,
                   overrides=overrides, threads=threads, command=command, against=play)
    table = pd.DataFrame([{"weight": k, "value": WT.DEFAULTS[k], "tuned": v}
                          for k, v in res.weights.items() if k in WT.TUNABLE])
    save_weights(out_path, out, res, players, "tuned", lambda where: emit(
        render(table, fmt, title=f"{where}: {res.meta['field']}; {res.meta['seconds']} s")
        if fmt == "table" else render(table, fmt)), "the tuned weights are printed above (the others keep "
        "value's defaults)")


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


POLICY_DEVIATIONS = ("random", "greedy", "value", "tuned", "mc:8")  # caesar_sim.analysis.exploit (a test checks)


@main.command()
@PLAYERS
@PROFILE
@click.option("-n", "n", type=count_type(MAX_GAMES, GAMES_WHY), default=20000, show_default=True,
              help="Games per deviation (same games each).")
@click.option("--seat", "entry", type=StrictInt(), default=0, show_default=True,
              help="Profile entry that deviates (seats are rotated, so it plays every seat).")
@click.option("--policies", default=",".join(POLICY_DEVIATIONS), show_default=True, type=ASCII,
              help="Other policies to try in its place (comma-separated; empty for none).")
@click.option("--weights/--no-weights", default=True, show_default=True,
              help="Push each tunable weight up and down (value/tuned entries).")
@click.option("--restricted/--no-restricted", default=True, show_default=True,
              help="Try restricted players: never takes an item type, never bids at a location.")
@click.option("--threshold", type=float, default=0.01, show_default=True,
              help="Win-share gain (CI lower bound) above which the profile counts as exploitable.")
@MC_HORIZON
@COMMON
def exploit(players, profile, n, entry, policies, weights, restricted, threshold, mc_horizon, seed, fmt, rules,
            overrides, threads):
    """Deviations of one seat from a profile, paired against the undeviated seat on the same games.

    Gain = the deviating entry's win share minus the undeviated entry's, game by game (same seed,
    seats rotated), mean with a 95% interval; the verdict line says whether any deviation gains more
    than --threshold (CI lower bound).

    \b
    Example:
      caesar exploit --players 4 -n 20000 --seed 1
      caesar exploit --players 4 --profile "value x4" -n 4000 --policies "tuned,mc:8" --no-restricted
    """
    from caesar_sim.rules import check_players

    check_players(players)
    profile, note = _profile(profile, players)
    A, render, render_tables = _analysis()
    pols = tuple(x.strip() for x in policies.split(",") if x.strip())
    table, line, base = A.exploit(players, profile, n, entry=entry, seed=seed, rules=rules, overrides=overrides,
                                  threads=threads, policies=pols, weights=weights, restricted=restricted,
                                  threshold=threshold, mc_horizon=mc_horizon)
    who = ("seat g % players of game g deviates, the others drawn from the field as in the undeviated games"
           if base.is_field else f"entry {entry} ({base.profile.entries[entry]}) deviates, seats rotated")
    header = (f"{note}{base.rules.summary()}\nprofile {base.profile.text()}; {who}; {players} players, n={n} games "
              f"per deviation, seed {seed}; gain = paired mean win-share difference per game, 95% interval")
    if fmt == "json":
        emit(render_tables({"verdict": line, "deviations": table}, "json", header))
    else:
        emit(render(table, fmt, title=header) + ("\n" + line if fmt == "table" else ""))


def _analysis():
    """The analysis layer and the renderers, imported when a command runs."""
    from caesar_sim import analysis
    from tabletop_mc.output import render, render_tables
    return analysis, render, render_tables


def _plots():
    """The plotting module, imported only when a plot is drawn (matplotlib is slow to import)."""
    from caesar_sim.analysis import plots
    return plots


def _load_rules(rules, overrides):
    from caesar_sim.rules import load_rules
    return load_rules(rules, overrides)


def _build_reports():
    from caesar_sim.analysis.reports import build_reports
    return build_reports


report_command(main, "caesar", _build_reports, "caesar report --out reports/caesar --scale 0.05")
rules_group(main, "caesar", "caesar_sim.rules", _load_rules, lambda ruleset, rules: _load_rules(rules, ()),
            SET_EXAMPLE)
main.rules_meta = lambda params: rules_meta(_load_rules, params)
cache_group(main, "caesar", lambda: [("compiled kernels", kernel_cache_root(), "caesar_sim-*"),
                                     ("compiled shared kernels", kernel_cache_root(), "tabletop_mc-*")],
            "compiled kernels")

from caesar_sim.cli import meta as _meta  # noqa: E402,F401  (registers `distill` and `meta` on main)
