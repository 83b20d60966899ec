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

