"""What `sponsio advise` answers, and the intervals it puts on it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from tabletop_mc.stats import mean_ci, wilson

BATCH = 100     # rollouts per kernel call (the progress bar's step)


@dataclass
class Advice:
    table: pd.DataFrame       # one row per legal action, best first
    reveals: pd.DataFrame     # the best action with each card it could reveal (empty if it reveals none)
    text: str                 # the advice in words
    notes: list[str]
    meta: dict
    choice: tuple = ()        # the best action as the kernels take it: (act, x, y, rv), or (-1, x, y, -1) at a token


def mean_eff(x: np.ndarray, eff: float, **bounds):
    """Mean of ``x`` and its 95 % interval as if from ``eff * len(x)`` values
    (worlds resampled from weighted proposals repeat: ``eff`` = effective
    sample / worlds, at most 1, so the intervals widen accordingly)."""
    return mean_ci(eff * x.sum(), eff * (x * x).sum(), eff * len(x), **bounds)


def bet_chances(won: np.ndarray, final: np.ndarray, bets: list[int], eff: float) -> list[tuple]:
    """Per bet of seat's ``bets`` (catalogue rows, in placing order, as the
    action leaves them): (chance, low, high, replaced). The chance is the
    bet's as placed, over the rollouts in which it still stands when scored
    (Wilson on the effective sample; NaN if it never does); ``replaced`` is
    the share of rollouts in which the seat's own later rebet changed it.
    ``won``: bitmasks of the bets won; ``final``: the rows scored."""
    out = []
    for b, row in enumerate(bets):
        wins, k = standing_wins(won, final, b, row)
        if k == 0:
            out.append((np.nan, np.nan, np.nan, 1.0))
            continue
        out.append((*wilson(eff * wins, eff * k), 1.0 - k / len(won)))
    return out


def standing_wins(won: np.ndarray, final: np.ndarray, b: int, row: int) -> tuple[int, int]:
    """(rollouts in which bet #b, placed as catalogue ``row``, won as placed; rollouts in which it
    still stood when scored)."""
    stands = final[:, b] == row
    return int((((won >> b) & 1).astype(bool) & stands).sum()), int(stands.sum())


def next_best(df: pd.DataFrame, head: str, *, label: str = "action", unit: str = "coins", fmt: str = "{:+.2f}",
              gap: str = "vs_best", only: str = "the only legal action") -> str:
    """The top line: ``head`` (the best row in words), then how the second
    row compares by its paired interval ``gap`` (``vs_best``: on the measure
    the rows are ranked by, in ``unit``): an interval wholly below 0 makes
    the best clearly better; no interval, below ``stats.MIN_MEAN_N``
    samples, says so rather than calling the two equal."""
    if len(df) == 1:
        return head + "; " + only
    second = df.iloc[1]
    f = fmt.format
    d, lo, hi = second[gap], second[f"{gap}_low"], second[f"{gap}_high"]
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return head + (f"; the next best, {second[label]}, differs by {f(d)} {unit}, "
                       f"too few samples for a 95 % CI to say whether that is real")
    words = f"{f(d)} [{f(lo)}, {f(hi)}] {unit}"
    if hi < 0:
        return head + f"; clearly better than the next best, {second[label]} ({words})"
    return head + f"; the next best, {second[label]}, is as good within the CI ({words})"
