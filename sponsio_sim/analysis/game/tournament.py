"""Whole games, many of them: `sponsio tournament` and `sponsio matrix`.

``tournament`` plays ``n`` games of one profile and returns one row per
profile entry (per seat without ``rotate``; with it the profile turns one
seat per game, so each entry plays every seat equally and seat effects
cancel). ``matrix`` plays, for every ordered pair (A, B) of strategies, one
seat A against the other seats all B, with A rotating over the seats.

Every proportion carries its 95% Wilson interval and n, every mean its
mean +/- 1.96 SE interval (``tabletop_mc.stats``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from tabletop_mc.backend import use_backend
from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.runner import set_threads
from tabletop_mc.stats import CI_METHOD
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.analysis.game.model import check_play
from sponsio_sim.analysis.game.runs import (check_n, entry_table, game_table, rounds_histogram, run_games,
                                            seat_table)
from sponsio_sim.analysis.game.setup import parse_strategies
from sponsio_sim.analysis.settings import Run
from sponsio_sim.betting_policies import CALIBRATED_BETTING
from sponsio_sim.rules import load_rules

FLAG_PP = 5.0      # tournament flag: |predicted - won| above this many percentage points ...
FLAG_BETS = 500    # ... on at least this many bets of one type by one entry


@dataclass(frozen=True)
class TournamentResult:
    """What ``tournament`` returns: ``table``, one row per profile entry; the per-game ``games`` table, the
    ``rounds`` histogram and, in a field, the per-seat ``seats`` table (None otherwise); and what the games were
    played under, which the CLI header prints: the ``rules`` summary, ``seed``, ``rotate``, whether the profile is a
    ``field``, its ``profile`` text, the success ``model``'s source, the ``ci`` method and the calibration ``flags``
    (``calibration_flags``). Typed fields rather than pandas' experimental ``attrs``: the signature says what the
    job returns, and no pandas operation on the table drops them."""
    table: pd.DataFrame
    games: pd.DataFrame
    rounds: pd.DataFrame
    seats: pd.DataFrame | None
    rules: str
    seed: int
    rotate: bool
    field: bool
    profile: str
    model: str
    ci: str
    flags: list[str]


@dataclass(frozen=True)
class MatrixResult:
    """What ``matrix`` returns: ``table``, one row per ordered pair (A, B), and what the games were
    played under: the ``rules`` summary, ``seed``, number of ``players``, the success ``model``'s
    source, the ``ci`` method and the ``fair`` win rate 1/players (typed, as ``TournamentResult``)."""
    table: pd.DataFrame
    rules: str
    seed: int
    players: int
    model: str
    ci: str
    fair: float


def tournament(profile, *, players: int | None = None, n: int = 10_000, rotate: bool = False, rules=None,
               overrides=None, model=None, run: Run = Run()) -> TournamentResult:
    """Play ``n`` games of ``profile``; one row per entry, with the game table (``TournamentResult``).

    ``run``: seed, threads, progress and Dask (the same numbers) (``analysis.settings.Run``)."""
    seed, progress = run.seed, run.progress
    ruleset = load_rules(rules, players, overrides)
    check_n(n)
    lineup = resolve(profile, ruleset, model, progress=progress)
    strategies, success = lineup.strategies, lineup.model
    set_threads(run.threads)
    with Progress(n, "sponsio tournament", enabled=progress) as bar, use_backend(run.scheduler, run.workers):
        totals = run_games(ruleset, strategies, n, rotate=rotate, seed=seed, model=success, progress=bar)
    df = entry_table(totals, strategies, rotate, ruleset)
    return TournamentResult(
        df, games=game_table(totals, ruleset.players), rounds=rounds_histogram(totals, ruleset.players),
        seats=seat_table(totals, ruleset.players) if strategies.field is not None else None,
        rules=ruleset.summary(), seed=seed, rotate=rotate, field=strategies.field is not None,
        profile=strategies.text(), model=success.source, ci=CI_METHOD, flags=calibration_flags(df, strategies, ruleset))


def calibration_flags(df: pd.DataFrame, strategies, rules) -> list[str]:
    """Entries that bet on the model's chances (``betting_policies.CALIBRATED_BETTING``; not ``net``)
    whose predicted and won rates of a bet type differ by more than ``FLAG_PP`` percentage points on at
    least ``FLAG_BETS`` bets: they bet on chances the games do not bear out (another economy, opponents or play
    than the model was fitted in)."""
    out = []
    for row in df.itertuples(index=False):
        r = row._asdict()
        if strategies[int(r["entry"])].betting not in CALIBRATED_BETTING:
            continue
        for kind in rules.bets:
            placed, won, pred = r.get(f"{kind}_placed", 0), r.get(f"{kind}_won"), r.get(f"{kind}_predicted")
            if placed >= FLAG_BETS and pred == pred and won == won and abs(pred - won) * 100 > FLAG_PP:
                out.append(f"entry {r['entry']} ({r['strategy']}): {kind} predicted {pred:.3f}, won {won:.3f} "
                           f"[{r[f'{kind}_won_low']:.3f}, {r[f'{kind}_won_high']:.3f}] on {placed:,} bets")
    return out


def matrix(strategies, *, players: int | None = None, n: int = 10_000, rules=None, overrides=None, model=None,
           run: Run = Run()) -> MatrixResult:
    """Win rate of one seat playing A against all other seats playing B, every (A, B) (``run``: seed,
    threads, progress, Dask and the batch cache, ``analysis.settings.Run``).

    Row per pair: ``a``, ``b``, games, win (any share of a win; Wilson CI),
    win share (a shared win counts 1/k; mean CI), mean coins; the A seat
    rotates over the seats game by game.
    """
    seed, progress = run.seed, run.progress
    ruleset = load_rules(rules, players, overrides)
    strats = parse_strategies(strategies, ruleset, "--strategies")
    uniq = list(dict.fromkeys(strats))
    if len(uniq) < 1:
        raise UserError("--strategies: give at least one strategy")
    check_n(n)
    success = find_model(ruleset, model, progress=progress)
    check_play(uniq, success.play_policy, success.source, ruleset)
    set_threads(run.threads)
    rows = []
    with (Progress(n * len(uniq) ** 2, "sponsio matrix", enabled=progress) as bar,
          use_backend(run.scheduler, run.workers)):
        for a in uniq:
            for b in uniq:
                bar.set_label(f"matrix {a.text} vs {b.text}")
                lineup = [a] + [b] * (ruleset.players - 1)
                totals = run_games(ruleset, lineup, n, rotate=True, seed=seed, model=success, progress=bar,
                                   cache=run.cache)
                t = entry_table(totals, lineup, True, ruleset).iloc[0]
                rows.append({"a": a.text, "b": b.text, "games": t["games"], "win": t["win"],
                             "win_low": t["win_low"], "win_high": t["win_high"], "win_share": t["win_share"],
                             "share_low": t["share_low"], "share_high": t["share_high"],
                             "coins": t["coins"], "coins_low": t["coins_low"], "coins_high": t["coins_high"]})
    return MatrixResult(pd.DataFrame(rows), rules=ruleset.summary(), seed=seed, players=ruleset.players,
                        model=success.source, ci=CI_METHOD, fair=1.0 / ruleset.players)
