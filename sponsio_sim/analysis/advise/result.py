"""What `sponsio advise` answers, and the intervals it puts on it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from tabletop_mc.stats import mean_ci

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
