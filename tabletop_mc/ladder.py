"""A robustness ladder: is a finding a property of the game, or of the simulated players?

A finding is measured under several player models (rungs: the reference
field, every seat ``mc``, the best fast single profile, ...). Each rung's
estimate with its 95 % interval falls into a category (``classify``:
above, below or within a band around the neutral value, or "no evidence"
when the interval straddles an edge); the finding **holds** when every rung
gives the same category. Otherwise the tag says why, in the words of
``tabletop_mc.verdicts``: it **depends on the players** only when two rungs
give different decided categories (they disagree beyond their intervals);
it is **underpowered** when a rung's interval reaches across the band and is
wider than it (a point band: any interval that reaches it), so that rung
cannot tell; else it is **unclear**. Only holding findings belong in a
report's summary; the others keep their tag and the numbers of every rung.
The same for both games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from tabletop_mc.verdicts import DEPENDS, UNCLEAR, UNDERPOWERED, identity

HOLDS = "holds under all"
TAGS = (HOLDS, DEPENDS, UNDERPOWERED, UNCLEAR)
_NONE = "no evidence"   # how every category without evidence starts (``classify``)


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    n: int


@dataclass
class Finding:
    """One measure under every rung. ``band`` = (lo, hi): the neutral band (a point when
    lo == hi); ``words`` = (above, within, below) phrases for the categories."""

    name: str
    unit: str
    band: tuple[float, float]
    words: tuple[str, str, str]
    estimates: dict[str, Estimate] = field(default_factory=dict)
    lever: str = ""

    def category(self, rung: str) -> str:
        e = self.estimates[rung]
        return classify(e.low, e.high, *self.band, *self.words)

    @property
    def holds(self) -> bool:
        """The same category, one with evidence, under every rung (at least two)."""
        found = {self.category(r) for r in self.estimates}
        return len(self.estimates) >= 2 and len(found) == 1 and not found.pop().startswith(_NONE)

    @property
    def identity(self) -> bool:
        """Some rung's interval has no width: a result by construction (a type never placed, a fixed
        number), no finding (``verdicts.identity``)."""
        return any(identity(e.value, e.low, e.high) for e in self.estimates.values())

    def wide(self, rung: str) -> bool:
        """The rung's interval reaches across the band and is wider than it: that rung cannot tell."""
        e = self.estimates[rung]
        return self.category(rung).startswith("no evidence") and (
            not (math.isfinite(e.low) and math.isfinite(e.high)) or e.high - e.low > self.band[1] - self.band[0])

    @property
    def tag(self) -> str:
        if self.holds:
            return f"{HOLDS} {len(self.estimates)}"
        decided = {self.category(r) for r in self.estimates} - {c for c in (self.category(r) for r in self.estimates)
                                                                  if c.startswith("no evidence")}
        if len(decided) > 1:
            return DEPENDS
        return UNDERPOWERED if any(self.wide(r) for r in self.estimates) else UNCLEAR


def classify(low: float, high: float, band_lo: float, band_hi: float, above: str, within: str, below: str) -> str:
    """``above`` when the interval lies above the band, ``below`` under it, ``within`` inside it
    (a point band: never), else "no evidence (...)" naming the edges it straddles."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{_NONE} (no interval)"
    if low > band_hi:
        return above
    if high < band_lo:
        return below
    if band_lo < band_hi and band_lo <= low and high <= band_hi:
        return within
    return f"{_NONE} (the interval reaches the neutral band)"


def table(findings: list[Finding], rungs: list[str], digits: int = 3) -> pd.DataFrame:
    """One row per finding: its estimate [CI] and category under each rung, and the tag."""
    rows = []
    for f in findings:
        row = {"finding": f.name}
        for r in rungs:
            e = f.estimates.get(r)
            row[r] = "" if e is None else (f"{e.value:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}] "
                                           f"(n = {e.n:,}): {f.category(r)}")
        row["tag"] = f.tag
        row["lever"] = f.lever
        rows.append(row)
    return pd.DataFrame(rows)


def sentence(f: Finding, rungs: list[str], digits: int = 3) -> str:
    """The finding in words with every rung's number, its tag and (if set) the lever that changes it."""
    parts = []
    for r in rungs:
        e = f.estimates.get(r)
        if e is not None:
            parts.append(f"{r} {e.value:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]")
    what = f.category(rungs[0]) if f.estimates else ""
    lever = f" Lever: {f.lever}." if f.lever else ""
    return f"{f.name}: {what} ({'; '.join(parts)}{' ' + f.unit if f.unit else ''}). {f.tag.capitalize()}.{lever}"
