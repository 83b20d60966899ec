"""One vocabulary of verdict words for both games' reports, defined here once.

A measure is judged against its band [lo, hi] (the designer's healthy range)
by its estimate's 95 % interval [low, high]:

- ``HEALTHY``: the whole interval lies inside the band;
- ``TOO_HIGH`` / ``TOO_LOW``: the whole interval lies above / below the band;
- ``UNDERPOWERED``: the interval is wider than the band, so no sample of this
  size could tell (more games are needed, not a different rule);
- ``UNCLEAR``: the interval straddles an edge of the band.

Under several player models (rungs) the words combine (``combine``):
``DEPENDS`` only when two rungs give different decided words (healthy, too
high, too low: they disagree beyond their intervals); else ``UNDERPOWERED``
when a rung is; else the shared word, or ``UNCLEAR``.

``identity`` tells results that hold by construction (a zero-width interval,
or a value equal to one of the rule set's numbers with no spread): they are
no findings. ``fmt``/``fmt_ci`` write a number to the precision of its
interval (2 or 3 significant digits of the half-width's scale).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

HEALTHY, TOO_HIGH, TOO_LOW = "healthy", "too high", "too low"
UNDERPOWERED, UNCLEAR, DEPENDS = "underpowered", "unclear", "depends on the players"
DECIDED = (HEALTHY, TOO_HIGH, TOO_LOW)
WORDS = (HEALTHY, TOO_HIGH, TOO_LOW, UNDERPOWERED, UNCLEAR, DEPENDS)

GLOSSARY = {
    HEALTHY: "the whole 95 % interval lies inside the band",
    TOO_HIGH: "the whole 95 % interval lies above the band",
    TOO_LOW: "the whole 95 % interval lies below the band",
    UNDERPOWERED: "the 95 % interval is wider than the band: more games are needed to tell",
    UNCLEAR: "the 95 % interval reaches across an edge of the band",
    DEPENDS: "two player models give different decided words (their intervals disagree)",
    "band": "the range a designer calls healthy for a measure; stated beside every verdict",
    "95 % interval": "the range that holds the true value in 95 % of repeated runs (Wilson for shares, "
                     "Student t for means, the delta method for ratios)",
    "field": "the simulated players: each seat draws a strategy per game from an equilibrium mixture of a "
             "population of strategies",
    "re-solved field": "the field's mixture solved again under the changed rules (players who adapt)",
    "mc": "a rollout search player, much slower and usually stronger than the field's members; its gain "
          "against the field says how beatable the simulated players are",
    "win share": "the share of games a seat or player wins (ties split)",
}


def verdict(low: float, high: float, lo: float, hi: float) -> str:
    """The word for an interval [low, high] against the band [lo, hi] (module docstring)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return UNDERPOWERED
    if low > hi:
        return TOO_HIGH
    if high < lo:
        return TOO_LOW
    if lo <= low and high <= hi:
        return HEALTHY
    if high - low > hi - lo:
        return UNDERPOWERED
    return UNCLEAR


def combine(words) -> str:
    """The words of several rungs as one (module docstring)."""
    words = list(words)
    decided = {w for w in words if w in DECIDED}
    if len(decided) > 1:
        return DEPENDS
    if UNDERPOWERED in words:
        return UNDERPOWERED
    if decided and all(w in decided for w in words):
        return decided.pop()
    return UNCLEAR


def identity(value: float, low: float, high: float, rule_numbers=()) -> bool:
    """True for a result that holds by construction: no spread at all, or a rule number with no spread."""
    if not (math.isfinite(low) and math.isfinite(high)) or high - low <= 1e-12 * max(1.0, abs(value)):
        return True
    return any(value == r for r in rule_numbers) and high - low <= 1e-9


def rule_numbers(data) -> set[float]:
    """Every number in a rule set's dictionary (nested dicts and lists), for ``identity``."""
    out: set[float] = set()
    if isinstance(data, dict):
        for v in data.values():
            out |= rule_numbers(v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            out |= rule_numbers(v)
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        out.add(float(data))
    return out


def digits_for(low: float, high: float, sig: int = 2) -> int:
    """Decimals that show an interval's half-width to ``sig`` significant digits (0..6)."""
    half = (high - low) / 2
    if not math.isfinite(half) or half <= 0:
        return 3
    return max(0, min(6, sig - 1 - math.floor(math.log10(half))))


def fmt(value: float, digits: int, sign: bool = False) -> str:
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def fmt_ci(value: float, low: float, high: float, sign: bool = False, digits: int | None = None) -> str:
    """``0.46 [0.44, 0.48]``: the estimate and interval to the interval's precision; ``0.725 (no
    interval)`` where there is none (too few values: ``stats.mean_ci``)."""
    d = digits_for(low, high) if digits is None else digits
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{fmt(value, d, sign)} (no interval)"
    return f"{fmt(value, d, sign)} [{fmt(low, d, sign)}, {fmt(high, d, sign)}]"


@dataclass(frozen=True)
class Judged:
    """A measure's estimate, its band and its word (``verdict``)."""

    measure: str
    value: float
    low: float
    high: float
    n: int
    lo: float
    hi: float

    @property
    def word(self) -> str:
        return verdict(self.low, self.high, self.lo, self.hi)

    @property
    def inside(self) -> bool:
        """The estimate (not its whole interval) lies in the band."""
        return self.lo <= self.value <= self.hi

    def text(self) -> str:
        return f"{self.measure} {fmt_ci(self.value, self.low, self.high)}"
