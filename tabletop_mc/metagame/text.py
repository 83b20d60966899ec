"""Wording of mixtures and estimates for the meta-game's output lines."""

from __future__ import annotations

import math

import numpy as np


def describe_mixture(x, names, decimals: int = 2) -> str:
    """'0.62 a + 0.38 b': weights that round to nonzero, largest first."""
    x = np.asarray(x, dtype=float)
    order = sorted(range(len(x)), key=lambda j: (-x[j], j))
    terms = [f"{x[j]:.{decimals}f} {names[j]}" for j in order if round(float(x[j]), decimals) > 0]
    return " + ".join(terms) if terms else "(no weight)"


def decimals_for(half_width: float, lowest: int = 2, highest: int = 6) -> int:
    """Decimals that keep two significant digits of a 95 % CI's half-width (as
    ``tabletop_mc.output`` rounds estimates), at least ``lowest``, at most ``highest``."""
    if not math.isfinite(half_width) or half_width <= 0:
        return lowest
    return int(min(max(1 - math.floor(math.log10(half_width)), lowest), highest))
