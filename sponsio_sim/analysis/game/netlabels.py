"""Labelled decisions for the ``net`` policy: recording, targets, and how well a policy matches them.

- **Record** (``label``): games of a field where the focal seat (rotating
  over the seats) is an ``mc`` entry playing as the taught policy
  (``mc_self``: the current ``net``, or ``distilled`` before there is one) and
  the others draw their members from the field; at every decision of the
  focal seat the lookahead values each action ``net`` weighs
  (``kernels.betting.netlabel``); at every round's end it records the
  position with its value (the cash-in options by game rollouts, the kept
  position by the game's outcome).
- **Targets** (``train_set``): each valued action's mean gain over passing is
  a soft target weighted by the inverse of its squared standard error (plus
  a floor, so a value the rollouts happen to pin exactly does not dominate);
  the positions' values train the value head the same way.
- **Match** (``decision_match``): on decisions of another seed, the regret of
  a policy's choice (the lookahead's value of its best action minus that of
  the one chosen) and how often it chooses the lookahead's best; with
  another labelling of the same states, the lookahead's own noise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from tabletop_mc.net import NetWeights
from tabletop_mc.net.train import TrainSet
from tabletop_mc.progress import Progress
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import chunk_counts, set_threads
from tabletop_mc.stats import mean_ci, wilson
from sponsio_sim.analysis.game.net import append_net
from sponsio_sim.analysis.game.setup import Profile, build_state, parse_strategy, rulebook
from sponsio_sim.kernels.betting.netlayout import N_ACTIONS, NET_INPUTS, NET_RECORD, ROW_BETTING
from sponsio_sim.kernels.layout import RULES, stats_size
from sponsio_sim.kernels.game.netrecord import label_chunks

LABEL_CHUNK = 4           # games per chunk
CAPACITY = 512            # rows per chunk: a seat's decisions and round ends in 4 games, with room
Q_FLOOR = 0.25            # coins: the smallest standard error a valued action's weight assumes
V_FLOOR = 0.05            # win share: the same for a position's value


@dataclass(frozen=True)
class Labelling:
    """How decisions are labelled: games, rollouts per action, seed, and the salt of the rollouts'
    streams (another salt: the same games and states, independent labels)."""

    games: int
    rollouts: int = 48
    seed: int = 1
    salt: int = 0
    mc_self: str = "net"          # the taught policy (``net``, ``distilled``, ``ev``)
    cash: str = "net"             # the taught policy's cash-in (``net`` or ``cashK``)
    race: float = 3.0             # an action this many paired SEs behind the best stops early (0: never)
    threads: int | None = None
    horizon: str | None = None    # "net": the lookahead's rollouts stop where the round ends, valued by the
    #                               value head (win share, ``mc``'s ``horizon=net``), not by the round's coins


def label(rules, field: Profile, model, net: NetWeights | None, how: Labelling,
          progress: Progress | None = None) -> np.ndarray:
    """Labelled rows (``NET_RECORD``, float32) of the focal seat of ``how.games`` games of ``field``."""
    st = parse_strategy(f"mc{how.rollouts}:goal:{how.cash}" + (f":horizon={how.horizon}" if how.horizon else ""),
                        rules)
    lineup = field.with_member(st)
    board, game_state, money = build_state(rules, lineup, model, focal=len(field), mc_self=how.mc_self, net=net)
    book, _ = rulebook(game_state)
    if book[RULES.net_scratch] < 0:   # no network plays: the encoder's scratch alone
        money, _ = append_net(rules, book, money, None, None)
    book[RULES.net_label_salt] = how.salt
    book[RULES.net_label_race] = int(round(10 * how.race))
    size = np.int64(stats_size(rules.players, book[RULES.entries]))
    counts = chunk_counts(how.games, LABEL_CHUNK)
    key = seed_key(how.seed)
    step = max(1, 2 * set_threads(how.threads))
    rows = []
    for lo in range(0, len(counts), step):
        part = counts[lo:lo + step]
        recs, _ = label_chunks(key, np.int64(lo), part, board, game_state, money, size, np.int64(CAPACITY))
        for i, rec in enumerate(recs):
            block = rec[1:1 + int(rec[0, 0])].astype(np.float32)
            block[:, NET_RECORD.game] += (lo + i) * LABEL_CHUNK   # games numbered over the run
            rows.append(block)
        if progress is not None:
            progress.advance(int(part.sum()))
    return np.concatenate(rows) if rows else np.zeros((0, NET_RECORD.size), np.float32)


def betting_rows(rows: np.ndarray) -> np.ndarray:
    return rows[rows[:, NET_RECORD.kind] == ROW_BETTING]


def train_set(rows: np.ndarray) -> TrainSet:
    """Soft targets for both heads from labelled rows (module docstring)."""
    x = rows[:, NET_RECORD.x:NET_RECORD.x + NET_INPUTS.size].astype(np.float32)
    mask = rows[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS] > 0
    q = np.where(mask, rows[:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS], 0.0)
    se = rows[:, NET_RECORD.q_se:NET_RECORD.q_se + N_ACTIONS]
    q_weight = np.where(mask, 1.0 / (se.astype(np.float64) ** 2 + Q_FLOOR ** 2), 0.0)
    betting = rows[:, NET_RECORD.kind] == ROW_BETTING
    v = np.where(betting, 0.0, rows[:, NET_RECORD.v])
    v_weight = np.where(betting, 0.0, 1.0 / (rows[:, NET_RECORD.v_se].astype(np.float64) ** 2 + V_FLOOR ** 2))
    return TrainSet(x, q, q_weight, v, v_weight)


def choices(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per row, the action with the highest value among the masked ones (ties: the first, pass first)."""
    return np.where(mask, values, -np.inf).argmax(axis=1)


def decision_match(rows: np.ndarray, picks: np.ndarray) -> dict:
    """Regret (coins, mean with its 95 % interval) and agreement (Wilson) of the actions ``picks``
    (one per betting row) against the rows' labels."""
    b = rows
    mask = b[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS] > 0
    q = b[:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS].astype(np.float64)
    best = choices(q, mask)
    idx = np.arange(len(b))
    regret = q[idx, best] - q[idx, picks]
    n = len(b)
    mean, lo, hi = mean_ci(regret.sum(), (regret ** 2).sum(), n) if n else (np.nan,) * 3
    k = int((picks == best).sum())
    p, plo, phi = wilson(k, n) if n else (np.nan,) * 3
    return {"decisions": n, "regret": mean, "regret_low": lo, "regret_high": hi, "agree": p, "agree_low": plo,
            "agree_high": phi}


def net_picks(net: NetWeights, rows: np.ndarray) -> np.ndarray:
    """``net``'s choice in each betting row (its values over the actions the row weighed)."""
    q, _ = net.forward(rows[:, NET_RECORD.x:NET_RECORD.x + NET_INPUTS.size])
    return choices(q, rows[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS] > 0)


def match_table(rows: np.ndarray, policies: dict[str, np.ndarray]) -> pd.DataFrame:
    """One row per policy (name -> its picks in ``rows``): regret and agreement (``decision_match``)."""
    return pd.DataFrame([{"policy": name, **decision_match(rows, picks)} for name, picks in policies.items()])

