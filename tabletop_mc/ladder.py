"""A robustness ladder: is a finding a property of the game, or of the simulated players?

A finding is measured under several player models (rungs: the reference
field, every seat ``mc``, the best fast single profile, ...). Each rung's
estimate with its 95 % interval gets its word from ``tabletop_mc.verdicts``
against the finding's band (``word``: healthy, too high, too low,
underpowered or unclear; a point band, the neutral value, is never
"healthy": an interval that reaches it is too wide to tell). The finding
**holds** when every rung (at least two) gives the same decided word;
otherwise its word is ``verdicts.combine``'s: **depends on the players**
only when two rungs give different decided words (they disagree beyond
their intervals), **underpowered** when a rung's interval is wider than the
band, else **unclear**. ``publish`` puts a ladder's findings on a page: the
ones that hold out of band, and the ones that depend on the players, as
findings; the healthy ones in one list; the rest in one list of measures not
decided. The same for both games.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from tabletop_mc.verdicts import (DECIDED, DEPENDS, HEALTHY, UNCLEAR, UNDERPOWERED, combine, fmt, fmt_ci,
                                  identity, verdict)

HOLDS = "holds under all"
TAGS = (HOLDS, DEPENDS, UNDERPOWERED, UNCLEAR)


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    n: int


@dataclass
class Finding:
    """One measure under every rung. ``band`` = (lo, hi): the healthy band (the neutral value when
    lo == hi); ``players``: the player count it is measured at (0: not one)."""

    name: str
    unit: str
    band: tuple[float, float]
    estimates: dict[str, Estimate] = field(default_factory=dict)
    lever: str = ""
    players: int = 0

    def category(self, rung: str) -> str:
        """The rung's word (``verdicts.verdict`` of its interval against the band)."""
        e = self.estimates[rung]
        return verdict(e.low, e.high, *self.band)

    @property
    def word(self) -> str:
        """The finding's word under every rung together (``verdicts.combine``)."""
        return combine(self.category(r) for r in self.estimates) if self.estimates else UNDERPOWERED

    @property
    def holds(self) -> bool:
        """The same decided word under every rung (at least two)."""
        found = {self.category(r) for r in self.estimates}
        return len(self.estimates) >= 2 and len(found) == 1 and found.pop() in DECIDED

    @property
    def identity(self) -> bool:
        """Some rung's interval has no width: a result by construction (a type never placed, a fixed
        number), no finding (``verdicts.identity``)."""
        return any(identity(e.value, e.low, e.high) for e in self.estimates.values())

    def wide(self, rung: str) -> bool:
        """The rung's interval is wider than the band and reaches it: that rung cannot tell."""
        return self.category(rung) == UNDERPOWERED

    @property
    def tag(self) -> str:
        return f"{HOLDS} {len(self.estimates)}" if self.holds else self.word


def _band(f: Finding) -> str:
    lo, hi = f.band
    d = max((digits_for_band(lo), digits_for_band(hi)))
    return f"band {fmt(lo, d)}" if lo == hi else f"band [{fmt(lo, d)}, {fmt(hi, d)}]"


def digits_for_band(x: float) -> int:
    """Decimals that show a band edge as a designer wrote it (0.15 -> 2, 0.25 -> 2, 3 -> 0)."""
    for d in range(0, 4):
        if abs(round(x, d) - x) < 1e-9:
            return d
    return 3


def cell(e: Estimate, sign: bool = False) -> str:
    """``0.46 [0.44, 0.48] (n = 1,500)``: to the interval's precision."""
    return f"{fmt_ci(e.value, e.low, e.high, sign=sign)} (n = {e.n:,})"


def table(findings: list[Finding], rungs: list[str]) -> pd.DataFrame:
    """One row per finding: its estimate [CI] and word under each rung, the band and the finding's word."""
    rows = []
    for f in findings:
        row = {"finding": f.name}
        for r in rungs:
            e = f.estimates.get(r)
            row[r] = "" if e is None else f"{cell(e, sign=f.band[0] <= 0 <= f.band[1])}: {f.category(r)}"
        row["band"] = _band(f)
        row["tag"] = f.tag
        row["lever"] = f.lever
        rows.append(row)
    return pd.DataFrame(rows)


def sentence(f: Finding, rungs: list[str]) -> str:
    """The finding in words: its word, every rung's number (and word, where they differ), the band."""
    parts = []
    for r in rungs:
        e = f.estimates.get(r)
        if e is not None:
            parts.append(f"{r} {fmt_ci(e.value, e.low, e.high, sign=f.band[0] <= 0 <= f.band[1])} (n = {e.n:,})"
                         + ("" if f.holds else f" {f.category(r)}"))
    unit = f" {f.unit}" if f.unit else ""
    head = f"{f.word} under all {len(f.estimates)} player models" if f.holds else f.word
    return f"{f.name}: {head} ({'; '.join(parts)}{unit}; {_band(f)})."


def publish(doc, found: list[Finding], rungs: list[str], anchor: str, group: str, weight=None, lever=None) -> None:
    """Put a ladder's findings on a page (``tabletop_mc.htmlreport.HtmlReport``) under ``group``: each one
    that holds out of its band or depends on the players as a finding (``weight(f)`` orders them,
    ``lever(f)`` names what would change it), the healthy ones in one list, the others (underpowered or
    unclear) in one list of measures not decided; a result by construction (``identity``) is none of these."""
    healthy, undecided = [], []
    for f in found:
        if not f.estimates or f.identity:
            continue
        if f.word == HEALTHY:
            healthy.append(f.name)
        elif f.word in (UNDERPOWERED, UNCLEAR):
            undecided.append(f"{f.name} ({f.word})")
        else:
            evidence = [{"rung": r, "value": e.value, "low": e.low, "high": e.high, "n": e.n,
                         "band_low": f.band[0], "band_high": f.band[1]} for r, e in f.estimates.items()]
            doc.finding(sentence(f, rungs), anchor, weight=0.0 if weight is None else weight(f),
                        lever=(lever(f) if lever is not None else f.lever), group=group, word=f.word,
                        evidence=evidence)
    doc.verdict_lists(group, healthy, undecided)
