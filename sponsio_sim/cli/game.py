"""`sponsio game`, `tournament`, `matrix` and `fit`: whole games of Sponsio."""

from __future__ import annotations

import click

from tabletop_mc.cliparams import ASCII, StrictInt, count_type
from tabletop_mc.clitools import common_options, emit, scale_options
from tabletop_mc.output import dumps, render, render_tables
from tabletop_mc.errors import OutputError
from tabletop_mc.plotfile import file_target, plot_target, save_plot
from tabletop_mc.stats import CI_METHOD
from sponsio_sim.analysis.game.calibrate import DEFAULT_GAMES, DEFAULT_ITERATIONS, MIN_PLACED, TOLERANCE_PP
from sponsio_sim.analysis.game.fit import CHECK_GAMES, DEFAULT_ROUNDS, Training, fit
from sponsio_sim.analysis.game.narrate import narrate_game
from sponsio_sim.analysis.game.model import cache_path
from sponsio_sim.analysis.game.setup import STRATEGY_HELP, model_variant
from sponsio_sim.analysis.game.tournament import FLAG_BETS, FLAG_PP, matrix, tournament
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cli.root import main
from sponsio_sim.rules import load_rules

PLAYERS = click.option("--players", type=StrictInt(), default=None,
                       help="Number of players (3 or 4; default from --rules, else 4).")
MODEL = click.option("--model", default=None, metavar="NPZ",
                     help="Success model of the ev policy (default: the shipped one for the rule set).")
PLOT = click.option("--plot", default=None, metavar="PNG", help="Also save a figure as a PNG.")
PCT = {c: "{:.3f}" for c in ("win", "win_low", "win_high", "win_share", "troll_share", "value", "ci_low",
                              "ci_high")}
PCT.update({c: "{:.2f}" for c in ("coins", "coins_low", "coins_high", "troll_pay", "troll_pay_low",
                                   "troll_pay_high")})


@main.command("game")
@click.option("--profile", required=True, type=ASCII, help=f"One strategy per seat, comma-separated: {STRATEGY_HELP}.")
@PLAYERS
@click.option("--verbose", "-v", is_flag=True, help="Narrate every hand, action, trick and settlement.")
@MODEL
@common_options
def game_cmd(profile, players, verbose, model, seed, fmt, rules, overrides, threads):
    """Play one whole game and print it round by round.

    The game is the first game a tournament with the same seed plays, so a
    player can check the rules on it.

    \b
    Example:
      sponsio game --profile "ev:goal:cash4, troll:goal, ev:goal:never, random:random" --seed 3 --verbose
    """
    g = narrate_game(profile, players=players, seed=seed, rules=rules, overrides=overrides, model=model)
    end = {"reason": g.reason, "winners": g.winners, "final_coins": g.final_coins, "final_track": g.final_track}
    if fmt == "json":
        emit(dumps({"rounds": g.rounds, "events": g.events, **end,
                    "changed_rules": g.changed_rules}))
        return
    if fmt == "csv":
        emit(render(g.rounds, "csv"))
        return
    text = g.text if verbose else g.text.split("\n\n", 1)[0] + "\n\n" + g.text.splitlines()[-1]
    emit(text + "\n\n" + render(g.rounds, "table", formats={c: "{:g}" for c in g.rounds.columns}))


@main.command("tournament")
@click.option("--profile", default="reference", show_default=True, type=ASCII,
              help=f"One strategy per seat, comma-separated: {STRATEGY_HELP}; or 'reference' (the reference "
                   "field: every seat draws its strategy per game from the shipped equilibrium mixture), or "
                   "field:FILE (a field file of `sponsio meta`).")
@PLAYERS
@click.option("-n", "n", type=count_type(), default=10_000, show_default=True, help="Games to play.")
@click.option("--rotate/--no-rotate", default=False, show_default=True,
              help="Rotate the profile over the seats game by game so seat effects cancel "
                   "(without it, each entry keeps its seat and results are per seat).")
@PLOT
@MODEL
@common_options
@scale_options
def tournament_cmd(profile, players, n, rotate, plot, model, seed, fmt, rules, overrides, threads, scheduler,
                   workers):
    """Many games of one profile: win rates, coins, trolls and bets per entry.

    \b
    Example:
      sponsio tournament --players 4 --profile "ev:goal:cash4, troll:goal, ev:goal:never, random:random" \\
          -n 100000 --rotate --seed 1 --plot tournament.png
    """
    target = plot_target(plot)
    res = tournament(profile, players=players, n=n, rotate=rotate, rules=rules, overrides=overrides, model=model,
                     run=Run(seed=seed, threads=threads, progress=None, scheduler=scheduler, workers=workers))
    df, games = res.table, res.games
    main_cols = ["entry", "strategy", "seat", "games", "win", "win_low", "win_high", "win_share", "coins",
                 "coins_low", "coins_high", "troll_share", "troll_pay", "track_wins", "cash_ins"]
    bets = df[["entry", "strategy"]
              + [c for c in df.columns if c.endswith(("_bets_per_round", "_won", "_predicted"))]]
    seating = ("every seat draws its strategy per game (results per member, over the seat-games that drew it)"
               if res.field else "seats rotate" if rotate else "fixed seats")
    header = (f"{res.rules}\nprofile: {res.profile}; {seating}; "
              f"n {n} games; seed {seed}; ev model {res.model}\n{CI_METHOD}; troll pay is per troll round")
    if res.field:
        main_cols.insert(3, "weight")
    flags = res.flags
    if flags:
        header += (f"\ncalibration flags (an entry that bets on the model's chances; its predicted and won rates differ by "
                   f"more than {FLAG_PP:g} points on >= {FLAG_BETS} bets):" + "".join(f"\n  {f}" for f in flags))
    named = {"results": df[main_cols] if fmt == "table" else df, "bets": bets, "games": games}
    if res.seats is not None:
        named["seats"] = res.seats
    if fmt != "table":
        named.pop("bets")
    if fmt == "json":
        named["calibration_flags"] = flags
    emit(render_tables(named, fmt, header, PCT | {c: "{:.3f}" for c in bets.columns}))
    save_plot(target, lambda p: _plots().tournament_plot(
        df, p, 1.0 / len(df), f"Sponsio tournament, {n} games, seed {seed}"))


@main.command("matrix")
@click.option("--strategies", required=True, type=ASCII, help=f"Strategies to pit against each other: {STRATEGY_HELP}.")
@PLAYERS
@click.option("-n", "n", type=count_type(), default=10_000, show_default=True, help="Games per pair.")
@PLOT
@MODEL
@common_options
@scale_options
def matrix_cmd(strategies, players, n, plot, model, seed, fmt, rules, overrides, threads, scheduler, workers):
    """Win rate of one seat playing A against every other seat playing B.

    One row per (A, B); the A seat rotates over the seats.

    \b
    Example:
      sponsio matrix --strategies "ev:goal:cash4, troll:goal, random:random" -n 50000 --plot matrix.png
    """
    target = plot_target(plot)
    res = matrix(strategies, players=players, n=n, rules=rules, overrides=overrides, model=model,
                 run=Run(seed=seed, threads=threads, progress=None, scheduler=scheduler, workers=workers))
    df = res.table
    pivot = df.pivot(index="a", columns="b", values="win_share").reindex(index=list(dict.fromkeys(df["a"])),
                                                                    columns=list(dict.fromkeys(df["b"])))
    pivot = pivot.reset_index().rename(columns={"a": "A \\ B"})
    header = (f"{res.rules}\none seat A vs {res.players - 1} seats B, A rotating over the seats; "
              f"n {n} games per pair; seed {seed}; fair win rate {res.fair:.3f}; ev model "
              f"{res.model}\n{CI_METHOD}")
    named = {"win share of A (a k-way shared win counts 1/k)": pivot, "pairs": df} if fmt == "table" else {"pairs": df}
    emit(render_tables(named, fmt, header, PCT | {c: "{:.3f}" for c in pivot.columns[1:]}))
    save_plot(target, lambda p: _plots().matrix_heatmap(
        df, p, res.fair, f"Sponsio: one seat A vs the others B, {n} games per pair"))


@main.command("fit")
@PLAYERS
@click.option("-n", "n", type=count_type(), default=DEFAULT_ROUNDS, show_default=True, help="Training rounds.")
@click.option("--holdout", type=count_type(), default=None, help="Held-out rounds for the calibration check (default n/4).")
@click.option("--policy", default="goal", show_default=True, type=ASCII, help="Play policy of the simulated rounds.")
@click.option("--on-policy", "on_policy", type=StrictInt(), default=DEFAULT_ITERATIONS, show_default=True,
              help="Iterations of the on-policy refit (play whole games, refit on the bets placed); 0: none.")
@click.option("--games", type=count_type(), default=DEFAULT_GAMES, show_default=True,
              help="Games per on-policy iteration.")
@click.option("--profile", default=None, type=ASCII,
              help="Profile of the on-policy games and the in-game check (default: ev:goal:cash4 for every seat); "
                   "several separated by ';' share the games and are checked one by one.")
@click.option("--check-games", "check_games", type=count_type(), default=CHECK_GAMES, show_default=True,
              help="Games of the in-game calibration check.")
@click.option("--out", default=None, metavar="NPZ",
              help="Where to save the model (default: the user cache, used for rule sets without a shipped model).")
@PLOT
@common_options
def fit_cmd(players, n, holdout, policy, on_policy, games, profile, check_games, out, plot, seed, fmt, rules,
            overrides, threads):
    """Fit the ev policy's success model by simulation and print its calibration.

    Off-policy fit on random bets in random rounds, then an on-policy refit
    on the bets the profile really places in whole games. Prints predicted
    vs simulated success of held-out random bets by decile of the prediction
    and the mean absolute error per bet type, beside the in-game calibration:
    per bet type, the mean predicted chance of the bets placed in further
    games and their observed success.

    \b
    Example:
      sponsio fit --rules standard-3p -n 1000000 --out my-3p.npz --plot calibration.png
      sponsio tournament --rules standard-3p --model my-3p.npz --profile "ev:goal x3" -n 10000
      sponsio fit --set multiplier.colour=2 --out colour2.npz   # calibrated in games under that table
    """
    target = plot_target(plot)
    ruleset = load_rules(rules, players, overrides)
    out_path = (file_target(out, "--out", ".npz", "model") if out is not None
                else cache_path(ruleset, model_variant(profile, ruleset)))
    fitted = fit(ruleset, Training(n, holdout, policy, on_policy, games, profile, check_games),
                 run=Run(seed=seed, threads=threads, progress=None))
    model, deciles, summary, ingame, history = (fitted.model, fitted.deciles, fitted.summary, fitted.ingame,
                                                fitted.history)
    model.meta["command"] = "sponsio fit " + " ".join(_argv())
    try:
        if out is None:
            out_path.parent.mkdir(parents=True, exist_ok=True)
        model.save(out_path)
        failed = None
    except OSError as exc:
        failed = exc.strerror or str(exc)
    mae = summary["mae"].iloc[-1]
    worst = model.meta["ingame"]["max_abs_gap_pp"]
    worst_seat = model.meta["ingame"]["max_abs_seat_gap_pp"]
    header = (f"{ruleset.summary()}\nsuccess model for deal {fitted.fingerprint}: {n} training rounds, "
              f"{on_policy} on-policy iterations of {games} games of {fitted.profile}, "
              f"{fitted.holdout} held-out rounds, {check_games} check games, play {policy}, seed {seed}; "
              f"{'NOT saved (see the error below)' if failed else f'saved to {out_path}'}\n"
              f"held-out (random bets, random rounds): mean absolute calibration error {mae * 100:.2f} "
              f"percentage points\nin-game (bets placed in games): largest |predicted - won| "
              f"{'n/a' if worst is None else f'{worst:.2f}'} percentage points over the types placed "
              f">= {MIN_PLACED} times, {'n/a' if worst_seat is None else f'{worst_seat:.2f}'} at one seat "
              f"(seats fixed; target {TOLERANCE_PP:g}); {CI_METHOD.split(';')[0]}")
    named = {"in-game calibration by bet type": ingame, "held-out calibration by decile": deciles,
             "held-out by bet type": summary}
    if len(history):
        named["on-policy iterations: gap (pp) of the games played with each iteration's model"] = history
    if fmt == "json":
        named["saved_to"] = None if failed else str(out_path)
    emit(render_tables(named, fmt, header))
    if failed and out is not None:
        raise OutputError(f"--out {out_path}: cannot write the model ({failed}); the calibration above is "
                          "complete, only the model file is missing")
    if failed:
        raise OutputError(f"cannot keep the model in the model cache {out_path.parent} ({failed}); the "
                          "calibration above is complete; rerun with --out FILE to save the model elsewhere")
    save_plot(target, lambda p: _plots().reliability_plot(
        deciles, p, f"Sponsio success model {fitted.fingerprint}: MAE {mae * 100:.2f} pp"))


def _plots():
    """The plotting module, imported only when a plot is drawn (matplotlib is slow to import)."""
    from sponsio_sim.analysis.game import plots as game_plots
    return game_plots


def _argv() -> list[str]:
    """The command's arguments as typed (recorded in the model's metadata)."""
    import shlex
    import sys
    args = sys.argv[1:]
    if args and args[0] == "fit":
        args = args[1:]
    return [shlex.quote(a) for a in args]
