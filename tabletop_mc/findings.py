"""Wording for generated findings: an estimate with its interval, and a verdict
that claims an effect only when the interval excludes the neutral value."""

from __future__ import annotations

import math


def ci_text(value: float, low: float, high: float, digits: int = 2, pct: bool = False) -> str:
    """``0.53 [0.52, 0.54]`` (or ``53% [52%, 54%]`` with ``pct``)."""
    if pct:
        return f"{value * 100:.{digits}f}% [{low * 100:.{digits}f}%, {high * 100:.{digits}f}%]"
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def side(low: float, high: float, neutral_low: float, neutral_high: float | None = None) -> str:
    """Where an interval lies against a neutral value (or band): "above",
    "below", or "overlaps" (no evidence of a difference)."""
    top = neutral_low if neutral_high is None else neutral_high
    if not (math.isfinite(low) and math.isfinite(high)):
        return "overlaps"
    if low > top:
        return "above"
    if high < neutral_low:
        return "below"
    return "overlaps"


def diff_ci(a: float, a_low: float, a_high: float, b: float, b_low: float, b_high: float) -> tuple[float, float, float]:
    """Difference a - b with a conservative 95% interval: half-widths add
    (exact when the two estimates are perfectly negatively correlated, wider
    than needed otherwise), so it never overstates an effect."""
    return a - b, (a - b) - ((a - a_low) + (b_high - b)), (a - b) + ((a_high - a) + (b - b_low))
