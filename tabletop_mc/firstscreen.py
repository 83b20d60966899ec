"""The first screen of a designer report, per player count: a one-line verdict, the changes
that fix what is out of band, and how strong the simulated players are (both games).

The change search (``search``) reads one player count's lever levels: a tidy
table with a row per lever value and measure (``lever``, ``value``,
``standard``, ``measure``, ``level``, ``level_low``, ``level_high``, ``n``),
the standard value's rows the unchanged rules. For every measure whose
standard level is out of its band (``verdicts``: too high or too low) it
takes, among the single lever values whose level lies inside the band, the
one with the fewest side effects (other banded measures it pushes out of
their bands), then the largest margin inside the band; a measure no single
value fixes gets the best pair of two levers' values, its level predicted as
the standard level plus both effects (their interval half-widths added, so it
never overstates). ``confirm`` replays a change on fresh seeds (the game
supplies it) and each change keeps what it found; ``under_mc`` plays the changed
rules with `mc` at every seat (the game supplies it too), so the page says
whether the change still fixes the measure when every player looks ahead, not
only for the simulated field.

``Screen`` is what a page shows: ``html()`` (the verdict in ``p.verdict``, the
changes in ``ol.changes``, the strength sentence and the bands) and ``rows()``
(every number shown, as shown, for the CSV beside the page).
"""

from __future__ import annotations

import html as _html
import itertools
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.verdicts import DECIDED, HEALTHY, TOO_HIGH, TOO_LOW, UNDERPOWERED, Judged, digits_for, fmt, fmt_ci

MAX_CHANGES = 5


def _num(v) -> str:
    """A lever value as a designer writes it (whole numbers without decimals)."""
    try:
        x = float(v)
    except (TypeError, ValueError):
        return str(v)
    return f"{int(x)}" if x.is_integer() else f"{x:g}"


@dataclass
class Change:
    """Set ``levers`` (lever -> (from, to)); ``before``/``after``: the fixed measure's level at the
    standard and predicted at the change; ``confirmed``: its level replayed on fresh seeds;
    ``under_mc``: its level with the change and `mc` at every seat."""

    measure: str
    levers: dict
    before: Judged
    after: Judged
    side_effects: list[str] = field(default_factory=list)
    confirmed: Judged | None = None
    predicted: bool = False      # a pair: the level is predicted from the two single effects
    under_mc: Judged | None = None

    def holds_under_mc(self) -> str:
        """'does not hold' (every-seat `mc`'s whole interval outside the band), 'holds' (its estimate
        inside the band, as a confirmation reads) or 'unclear' (the estimate outside, the interval
        reaching into the band); '' when not played."""
        if self.under_mc is None:
            return ""
        m = self.under_mc
        if m.word in (TOO_HIGH, TOO_LOW):
            return "does not hold"
        return "holds" if m.inside else "unclear"

    def setting(self) -> str:
        return " and ".join(f"{k} from {_num(a)} to {_num(b)}" for k, (a, b) in self.levers.items())

    def text(self) -> str:
        b, a = self.before, self.after
        d = digits_for(a.low, a.high)
        out = (f"set {self.setting()}: {self.measure} moves from {fmt_ci(b.value, b.low, b.high)} to "
               f"{fmt_ci(a.value, a.low, a.high)}{' (predicted)' if self.predicted else ''} "
               f"(band [{fmt(b.lo, 2)}, {fmt(b.hi, 2)}])")
        if a.word == UNDERPOWERED:
            out += "; underpowered: its interval is wider than the band"
        if self.confirmed is not None:
            c = self.confirmed
            out += (f"; on fresh seeds {fmt_ci(c.value, c.low, c.high, digits=d)}, "
                    + ("confirmed" if c.inside else "not confirmed"))
        if self.under_mc is not None:
            m = self.under_mc
            out += (f"; with mc at every seat {fmt_ci(m.value, m.low, m.high, digits=digits_for(m.low, m.high))}"
                    f" (n = {m.n:,}): {self.holds_under_mc()}")
        if self.side_effects:
            out += "; side effects: " + ", ".join(self.side_effects)
        return out


def _judged(row, band) -> Judged:
    return Judged(row["measure"], float(row["level"]), float(row["level_low"]), float(row["level_high"]),
                  int(row.get("n", 0) or 0), band[0], band[1])


def parse_band(text: str) -> tuple[str, tuple[float, float]]:
    """``MEASURE=LO..HI`` (a report's ``--band``): one ``UserError`` line if it is not that or cannot be met."""
    name, _, spec = str(text).rpartition("=")
    try:
        lo, hi = (float(x) for x in spec.split(".."))
    except ValueError:
        raise UserError(f"--band {text!r}: expected MEASURE=LOW..HIGH, e.g. 'troll share=0.15..0.4'") from None
    if not name.strip():
        raise UserError(f"--band {text!r}: name the measure, e.g. 'troll share=0.15..0.4'")
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise UserError(f"--band {text!r}: cannot be met (LOW must be below HIGH, both finite)")
    return name.strip(), (lo, hi)


def check_bands(bands: dict, known) -> None:
    """Every band names a known measure and can be met (LOW below HIGH): one ``UserError`` line if not."""
    for name, (lo, hi) in bands.items():
        if name not in known:
            raise UserError(f"--band {name!r}: no such measure (one of: {', '.join(sorted(known))})")
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise UserError(f"--band {name}={lo:g}..{hi:g}: cannot be met (LOW must be below HIGH)")


def search(levels: pd.DataFrame, bands: dict, confirm: Callable | None = None,
           max_changes: int = MAX_CHANGES, under_mc: Callable | None = None) -> tuple[list[Judged], list[Change]]:
    """The standard rules' judged measures and the ranked changes (module docstring)."""
    std = levels[levels["standard"]].drop_duplicates("measure").set_index("measure")
    judged = [_judged(std.loc[m].to_dict() | {"measure": m}, b) for m, b in bands.items() if m in std.index]
    by_name = {j.measure: j for j in judged}
    cells = {}
    for lever, d in levels[~levels["standard"]].groupby("lever", sort=False):
        std_value = levels[(levels["lever"] == lever) & levels["standard"]]["value"].iloc[0]
        for value, dv in d.groupby("value", sort=False):
            cells[(lever, value)] = (std_value, {r["measure"]: r for r in dv.to_dict("records")})
    changes = []
    for j in sorted((j for j in judged if j.word in (TOO_HIGH, TOO_LOW)), key=lambda j: -_badness(j)):
        best = _best_single(j, cells, bands, by_name) or _best_pair(j, cells, bands, by_name)
        if best is not None:
            changes.append(best)
    changes = changes[:max_changes]
    if confirm is not None:
        for c in changes:
            got = confirm({k: b for k, (_, b) in c.levers.items()}).get(c.measure)
            if got is not None:
                c.confirmed = Judged(c.measure, *got, c.before.lo, c.before.hi)
    if under_mc is not None:
        for c in changes:
            got = under_mc({k: b for k, (_, b) in c.levers.items()}).get(c.measure)
            if got is not None:
                c.under_mc = Judged(c.measure, *got, c.before.lo, c.before.hi)
    return judged, changes


def _badness(j: Judged) -> float:
    return max(j.lo - j.value, j.value - j.hi, 0.0) / (j.hi - j.lo)


def _side(rows: dict, bands: dict, by_name: dict, skip: str) -> list[str]:
    out = []
    for m, r in rows.items():
        if m == skip or m not in bands or m not in by_name:
            continue
        now = _judged(r, bands[m]).word
        if now in (TOO_HIGH, TOO_LOW) and by_name[m].word not in (TOO_HIGH, TOO_LOW):
            out.append(f"{m} {now}")
    return out


def _margin(j: Judged) -> float:
    return min(j.value - j.lo, j.hi - j.value) / (j.hi - j.lo)


def _best_single(j: Judged, cells: dict, bands: dict, by_name: dict) -> Change | None:
    cands = []
    for (lever, value), (std_value, rows) in cells.items():
        r = rows.get(j.measure)
        if r is None or not np.isfinite(r["level"]):
            continue
        after = _judged(r, bands[j.measure])
        if after.inside:
            side = _side(rows, bands, by_name, j.measure)
            cands.append((len(side), -_margin(after), Change(j.measure, {lever: (std_value, value)}, j, after, side)))
    return min(cands, key=lambda c: c[:2])[2] if cands else None


def _best_pair(j: Judged, cells: dict, bands: dict, by_name: dict) -> Change | None:
    cands = []
    for (a, ra), (b, rb) in itertools.combinations(cells.items(), 2):
        if a[0] == b[0] or j.measure not in ra[1] or j.measure not in rb[1]:
            continue
        ea, eb = ra[1][j.measure], rb[1][j.measure]
        value = float(ea["level"]) + float(eb["level"]) - j.value
        half = sum((float(e["level_high"]) - float(e["level_low"])) / 2 for e in (ea, eb))
        after = Judged(j.measure, value, value - half, value + half, 0, j.lo, j.hi)
        if after.inside:
            side = sorted(set(_side(ra[1], bands, by_name, j.measure) + _side(rb[1], bands, by_name, j.measure)))
            cands.append((len(side), -_margin(after),
                          Change(j.measure, {a[0]: (ra[0], a[1]), b[0]: (rb[0], b[1])}, j, after, side,
                                 predicted=True)))
    return min(cands, key=lambda c: c[:2])[2] if cands else None


@dataclass
class Screen:
    """One player count's first screen (module docstring)."""

    title: str                  # e.g. "Sponsio, 4 players"
    judged: list[Judged]
    changes: list[Change]
    strength: str               # one sentence on the players' strength
    strength_numbers: tuple = ()   # (gain, low, high, n, fair share) of mc against the players

    def counts(self) -> dict:
        """How many measures, healthy, underpowered, out of band; of the out-of-band ones, how many have a
        change below, how many of those changes were confirmed on fresh seeds and how many hold with mc at
        every seat (a change predicted from the lever tables fixes nothing until a run confirms it)."""
        out = {j.measure for j in self.judged if j.word in (TOO_HIGH, TOO_LOW)}
        mine = [c for c in self.changes if c.measure in out]
        return {"measures": len(self.judged), "healthy": sum(1 for j in self.judged if j.word == HEALTHY),
                "underpowered": sum(1 for j in self.judged if j.word == UNDERPOWERED), "out_of_band": len(out),
                "with_change": len({c.measure for c in mine}),
                "confirmed": len({c.measure for c in mine if c.confirmed is not None and c.confirmed.inside}),
                "holds_under_mc": len({c.measure for c in mine if c.holds_under_mc() == "holds"})}

    def verdict(self) -> str:
        out = [j for j in self.judged if j.word in (TOO_HIGH, TOO_LOW)]
        k = self.counts()
        if not out:
            return (f"{self.title}: no measure is clearly out of its band: {k['healthy']} of {k['measures']} "
                    f"healthy, {k['underpowered']} underpowered (more games needed), the rest unclear.")
        text = (f"{self.title}: not balanced: " + ", ".join(f"{j.measure} {j.word}" for j in out)
                + f"; a change below for {k['with_change']} of {len(out)}")
        played = [c for c in self.changes if c.confirmed is not None or c.under_mc is not None]
        if played:
            text += (f": {k['confirmed']} confirmed on fresh seeds"
                     + (f", {k['holds_under_mc']} holding with mc at every seat"
                        if any(c.under_mc is not None for c in played) else ""))
        return text + "."

    def html(self) -> str:
        none = ("no lever value tried brings an out-of-band measure into its band" if self.counts()["out_of_band"]
                else "no change needed: no measure is out of its band")
        items = "".join(f"<li>{_html.escape(c.text())}</li>" for c in self.changes) or f"<li>{none}</li>"
        bands = "; ".join(f"{j.measure} [{fmt(j.lo, 2)}, {fmt(j.hi, 2)}]" for j in self.judged)
        healthy = ", ".join(j.measure for j in self.judged if j.word == HEALTHY) or "none"
        return (f"<div class='first'><p class='verdict'>{_html.escape(self.verdict())}</p>"
                f"<ol class='changes'>{items}</ol><p class='strength'>{_html.escape(self.strength)}</p>"
                f"<p class='note healthy'>Healthy: {_html.escape(healthy)}.</p>"
                f"<p class='note'>Bands: {_html.escape(bands)}.</p></div>")

    def rows(self) -> list[dict]:
        """Every number the screen shows, as shown (and each measure's interval unrounded)."""
        out = [{"screen": self.title, "item": "verdict", **{k: str(v) for k, v in self.counts().items()}}]
        for j in self.judged:
            d = digits_for(j.low, j.high)
            out.append({"screen": self.title, "item": "measure", "measure": j.measure, "word": j.word,
                        "value": fmt(j.value, d), "low": fmt(j.low, d), "high": fmt(j.high, d),
                        "band_low": fmt(j.lo, 2), "band_high": fmt(j.hi, 2), "n": j.n,
                        # the interval the word was judged on, unrounded (a bound next to a band's edge
                        # rounds onto it)
                        "low_exact": repr(float(j.low)), "high_exact": repr(float(j.high))})
        for c in self.changes:
            b, a = c.before, c.after
            d, e = digits_for(a.low, a.high), digits_for(b.low, b.high)
            for k, (x, y) in c.levers.items():
                out.append({"screen": self.title, "item": "change", "measure": c.measure, "lever": k,
                            "from": _num(x), "to": _num(y), "value": fmt(b.value, e), "low": fmt(b.low, e),
                            "high": fmt(b.high, e), "after": fmt(a.value, d), "after_low": fmt(a.low, d),
                            "after_high": fmt(a.high, d), "band_low": fmt(b.lo, 2), "band_high": fmt(b.hi, 2),
                            **({"confirmed": fmt(c.confirmed.value, d), "confirmed_low": fmt(c.confirmed.low, d),
                                "confirmed_high": fmt(c.confirmed.high, d)} if c.confirmed else {}),
                            **(self._mc_cells(c.under_mc) if c.under_mc else {})})
        if self.strength_numbers:
            v, lo, hi, n, fair = self.strength_numbers
            d = digits_for(lo, hi) if np.isfinite(lo) and np.isfinite(hi) else 2
            out.append({"screen": self.title, "item": "mc gain", "value": fmt(v, d, True), "low": fmt(lo, d, True),
                        "high": fmt(hi, d, True), "n": f"{n:,}", "fair_share": f"{fair:.2f}"})
        return out


    @staticmethod
    def _mc_cells(m: Judged) -> dict:
        d = digits_for(m.low, m.high)
        return {"mc_level": fmt(m.value, d), "mc_low": fmt(m.low, d), "mc_high": fmt(m.high, d), "mc_n": f"{m.n:,}"}


def strength_sentence(gain: float, low: float, high: float, n: int, fair: float) -> str:
    """How strong the simulated players are: mc's gain in win share against them, and what it means."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return (f"Players' strength: mc gains {gain:+.2f} win share against them (fair share {fair:.2f}; n = {n:,}, "
                "too few games for an interval): build at a larger scale to tell how beatable the players are.")
    text = fmt_ci(gain, low, high, sign=True)
    if low > 0.02:
        what = "the simulated players are beatable by a careful player, so treat the verdicts as about these players"
    elif high < 0.02:
        what = "mc gains little, so the verdicts describe strong play"
    else:
        what = "too few mc games to tell how beatable the players are"
    return f"Players' strength: mc gains {text} win share against them (fair share {fair:.2f}; n = {n:,}): {what}."


def page(screens: list[Screen]) -> str:
    """The first screens of every player count, one block."""
    return "<section id='first-screen'>" + "".join(s.html() for s in screens) + "</section>"


def frame(screens: list[Screen]) -> pd.DataFrame:
    return pd.DataFrame([r for s in screens for r in s.rows()])


__all__ = ["Change", "DECIDED", "Screen", "check_bands", "frame", "page", "search", "strength_sentence"]
