"""Seeded batches of whole games and the tables read from their statistics.

``run_games`` plays ``n`` games of a line-up on the current backend (local
threads or Dask) and returns the summed kernel statistics; ``entry_table``,
``game_table`` and ``rounds_histogram`` read them per profile entry, per
game and per game length. Every proportion carries its 95% Wilson interval
and n, every mean its t interval (``tabletop_mc.stats``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.backend import KernelBatch
from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.resultcache import ResultCache
from tabletop_mc.runner import run_chunked
from tabletop_mc.stats import mean_ci, wilson
from sponsio_sim.kernels.game.engine import switches
from sponsio_sim.analysis.game.model import KINDS
from sponsio_sim.analysis.game.setup import Strategy, build_state, game_arrays
from sponsio_sim.kernels.layout import RULES, named_stats, stats_size
from sponsio_sim.kernels import CACHE_DIR
from sponsio_sim.rules import TOKENS

GAME_CHUNK = 240        # games per chunk: a multiple of 3, 4, 5 and 6 keeps rotation balanced
END_REASONS = ("track", "coins", "rounds")


def run_games(rules, strategies: list[Strategy], n: int, *, rotate: bool, seed: int, model,
              progress: Progress | None = None, cache: bool = False) -> np.ndarray:
    """Summed kernel statistics of ``n`` games (read by name: ``kernels.layout.named_stats``).

    Batches run on the current backend (local threads or Dask); with
    ``cache`` finished batches are kept on disk, keyed by the whole
    configuration, so a killed run resumes.
    """
    board, game_state, money = build_state(rules, strategies, model, rotate=rotate)
    start = game_arrays(board, game_state, money)
    size = np.int64(stats_size(rules.players, start.rules[RULES.entries]))
    batch = KernelBatch("sponsio_sim.kernels.game.engine", "game_chunks", seed, start, size, *switches(game_state))
    store = None
    if cache:
        store = ResultCache(batch.cache_key(CACHE_DIR.name, GAME_CHUNK), expect=((int(size),), np.float64))
    return run_chunked(batch, n, chunk_size=GAME_CHUNK, progress=progress, cache=store).totals


def check_n(n: int) -> None:
    if n < 1:
        raise UserError(f"-n {n}: the number of games must be at least 1")


def entry_table(totals: np.ndarray, strategies: list[Strategy], rotate: bool, rules) -> pd.DataFrame:
    """One row per profile entry from summed statistics (see module docstring); in a field,
    per member over the seat-games that drew it (``games``), its ``money`` beside."""
    stats = named_stats(totals, rules.players)
    field = getattr(strategies, "field", None)
    rows = []
    for e, st in enumerate(strategies):
        b = stats["entry"][e]
        games = b["games"]
        rounds = b["rounds"]
        win, win_lo, win_hi = wilson(b["win"], games)
        share, share_lo, share_hi = mean_ci(b["share"], b["share_sq"], games, lower=0.0, upper=1.0)
        coins, coins_lo, coins_hi = mean_ci(b["coins"], b["coins_sq"], games, lower=0.0)
        troll, troll_lo, troll_hi = wilson(b["troll_rounds"], rounds)
        tpay, tpay_lo, tpay_hi = mean_ci(b["troll_pay"], b["troll_pay_sq"], b["troll_rounds"], lower=0.0)
        seat = "any" if field is not None else "all" if rotate else str(e)
        row = {"entry": e, "strategy": st.text, "seat": seat, "games": int(games),
               "win": win, "win_low": win_lo, "win_high": win_hi,
               "win_share": share, "share_low": share_lo, "share_high": share_hi,
               "coins": coins, "coins_low": coins_lo, "coins_high": coins_hi,
               "rounds": int(rounds), "troll_share": troll, "troll_low": troll_lo, "troll_high": troll_hi,
               "troll_pay": tpay, "troll_pay_low": tpay_lo, "troll_pay_high": tpay_hi,
               "payout_per_round": b["payout"] / max(rounds, 1),
               "stakes_per_round": b["stakes"] / max(rounds, 1),
               "track_wins": int(b["track_wins"]), "cash_ins": int(b["cash_ins"]),
               "cash_coins_per_round": b["cash"] / max(rounds, 1),
               "bonus_share": b["bonus_rounds"] / max(rounds, 1),
               "swaps_per_round": b["swaps"] / max(rounds, 1)}
        for k, kind in enumerate(KINDS):
            if kind not in rules.bets:
                continue
            placed, won = b["bets"][k], b["won"][k]
            p, lo, hi = wilson(won, placed)
            row[f"{kind}_bets_per_round"] = placed / max(rounds, 1)
            row[f"{kind}_won"] = p if placed else np.nan
            # the success model's mean P for the same bets, judged on the hands as betting ended
            row[f"{kind}_predicted"] = b["predicted"][k] / placed if placed else np.nan
            row[f"{kind}_won_low"] = lo if placed else np.nan
            row[f"{kind}_won_high"] = hi if placed else np.nan
            row[f"{kind}_placed"] = int(placed)
        for t, token in enumerate(TOKENS):
            row[f"{token}_tokens_per_round"] = b["tokens"][t] / max(rounds, 1)
        if field is not None:
            row["weight"] = field.weights[e]
        rows.append(row)
    return pd.DataFrame(rows)


def focal_share(totals: np.ndarray, players: int) -> float:
    """A field's mean win share at its focal seat (``kernels.field``): the field's own
    value when every seat draws, or the focal strategy's."""
    stats = named_stats(totals, players)
    return float(stats["focal_share"] / max(stats["games"], 1))


def seat_table(totals: np.ndarray, players: int) -> pd.DataFrame:
    """Per seat, whatever strategy sat there: games, win rate (Wilson), win share and
    final coins (t intervals); seat 0 acts first in round 1."""
    stats = named_stats(totals, players)
    games = stats["games"]
    rows = []
    for s in range(players):
        b = stats["seat"][s]
        win, win_lo, win_hi = wilson(b["win"], games)
        share, share_lo, share_hi = mean_ci(b["share"], b["share_sq"], games, lower=0.0, upper=1.0)
        coins, coins_lo, coins_hi = mean_ci(b["coins"], b["coins_sq"], games, lower=0.0)
        rows.append({"seat": s, "games": int(games), "win": win, "win_low": win_lo, "win_high": win_hi,
                     "win_share": share, "share_low": share_lo, "share_high": share_hi,
                     "coins": coins, "coins_low": coins_lo, "coins_high": coins_hi})
    return pd.DataFrame(rows)


def game_table(totals: np.ndarray, players: int) -> pd.DataFrame:
    """Game length, end reasons, comebacks (a winner was last after round 1)
    and lead changes per game (shares: Wilson intervals; means: 1.96 SE)."""
    stats = named_stats(totals, players)
    games = stats["games"]
    mean, lo, hi = mean_ci(stats["rounds"], stats["rounds_sq"], games, lower=1.0)
    rows = [{"measure": "rounds per game", "n": int(games), "value": mean, "ci_low": lo, "ci_high": hi}]
    for i, reason in enumerate(END_REASONS):
        p, lo, hi = wilson(stats["ended"][i], games)
        rows.append({"measure": f"ended by {reason}", "n": int(games), "value": p, "ci_low": lo, "ci_high": hi})
    p, lo, hi = wilson(stats["comebacks"], games)
    rows.append({"measure": "won by a player last after round 1", "n": int(games), "value": p, "ci_low": lo,
                 "ci_high": hi})
    mean, lo, hi = mean_ci(stats["lead_changes"], stats["lead_changes_sq"], games, lower=0.0)
    rows.append({"measure": "lead changes per game", "n": int(games), "value": mean, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def rounds_histogram(totals: np.ndarray, players: int) -> pd.DataFrame:
    """Games by number of rounds played (share with Wilson interval); the last
    bin (``kernels.layout.MAX_ROUNDS_HIST``) also holds longer games."""
    stats = named_stats(totals, players)
    games = stats["games"]
    counts = stats["rounds_hist"]
    last = int(np.max(np.nonzero(counts)[0])) + 1 if counts.any() else 1
    p, lo, hi = wilson(counts[:last], np.full(last, games))
    return pd.DataFrame({"rounds": np.arange(1, last + 1), "games": counts[:last].astype(np.int64),
                         "share": p, "ci_low": lo, "ci_high": hi})
