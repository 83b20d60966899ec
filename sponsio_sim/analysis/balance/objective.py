"""The objective `sponsio recommend` ranks multiplier tables by (``criteria`` bands).

Constraints: every bet type's restricted-play value and share of the bets
placed inside their bands, the troll share and the mean rounds per game
inside theirs. A constraint is met when its estimate lies in its band; a
table is feasible when all are. Tables rank by their total violation (each
constraint's distance outside its band in band widths, summed), then, among
feasible ones, by their smallest margin (the distance of the estimate nearest
an edge, in band widths): the table that meets every constraint with the
most room first. The binding constraint of a table is its largest violation,
or, when it is feasible, the constraint with the smallest margin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sponsio_sim.analysis.balance.criteria import Bands
from sponsio_sim.bet_kinds import BY_NAME

KINDS_OF = {"rp": "restricted-play value", "share": "share of bets"}


def constraint_name(which: str, kind: str | None) -> str:
    if which == "troll":
        return "troll share"
    if which == "rounds":
        return "rounds per game"
    return f"{kind} {KINDS_OF[which]}"


def measures_of(choice, kinds, rp: bool = True) -> dict[tuple[str, str | None], tuple[float, float, float]]:
    """The objective's measures of a ``choice.Choice``: (value, low, high) per constraint key
    (``rp`` False: the restricted-play values are left out, as in a screening run)."""
    out = {}
    for kind in kinds:
        if rp:
            out[("rp", kind)] = choice.rp_value(kind)
        out[("share", kind)] = choice.share(kind)
    out[("troll", None)] = choice.game("troll share")
    out[("rounds", None)] = choice.game("rounds per game")
    return out


def band_of(bands: Bands, which: str, kind: str | None):
    return bands.of(which, kind) if kind is not None else getattr(bands, which)


@dataclass
class Judged:
    """A table's constraints judged: rows (constraint, band, value, interval, violation, margin, met)."""

    rows: pd.DataFrame

    @property
    def violation(self) -> float:
        return float(self.rows["violation"].sum())

    @property
    def feasible(self) -> bool:
        return bool(self.rows["met"].all())

    @property
    def margin(self) -> float:
        return float(self.rows["margin"].min())

    @property
    def binding(self) -> str:
        r = self.rows
        return str(r.loc[r["violation"].idxmax() if not self.feasible else r["margin"].idxmin(), "constraint"])

    def key(self) -> tuple[float, float]:
        """Sort key: smaller is better (module docstring)."""
        return (self.violation, -self.margin)

    def status(self) -> str:
        b = self.rows.set_index("constraint").loc[self.binding]
        if self.feasible:
            return f"meets every constraint; closest to its edge: {self.binding} {b['value']:.3f} (band {b['band']})"
        broken = int((~self.rows["met"]).sum())
        return (f"violates {broken} constraint{'s' if broken > 1 else ''}; binding: {self.binding} "
                f"{b['value']:.3f} (band {b['band']})")


def judge(measures: dict, bands: Bands) -> Judged:
    rows = []
    for (which, kind), (v, lo, hi) in measures.items():
        band = band_of(bands, which, kind)
        rows.append({"constraint": constraint_name(which, kind), "band": band.text(), "value": v,
                     "ci_low": lo, "ci_high": hi, "violation": band.violation(v), "margin": band.margin(v),
                     "met": bool(np.isfinite(v) and band.lo <= v <= band.hi)})
    return Judged(pd.DataFrame(rows))


def attainable(screened: list[tuple[dict, dict]], bands: Bands) -> pd.DataFrame:
    """Per constraint, over the tables measured (``(table, measures)`` pairs): how many meet it and the
    table that comes closest; ``reason`` says why none does (the whole search stays on one side)."""
    keys = list(dict.fromkeys(k for _, m in screened for k in m))
    rows = []
    for key in keys:
        band = band_of(bands, *key)
        pts = [(t, m[key][0]) for t, m in screened if key in m and np.isfinite(m[key][0])]
        met = [t for t, v in pts if band.lo <= v <= band.hi]
        if not pts:
            continue
        best_t, best_v = min(pts, key=lambda p: band.violation(p[1]))
        lo_v, hi_v = min(v for _, v in pts), max(v for _, v in pts)
        reason = ""
        if not met:
            where = ("every table measured lies below the band" if hi_v < band.lo else
                     "every table measured lies above the band" if lo_v > band.hi else
                     "the tables measured lie on both sides of the band, none inside it")
            reason = f"{where} ({lo_v:.3f} to {hi_v:.3f}); closest {best_v:.3f} at {table_text(best_t)}"
        rows.append({"constraint": constraint_name(*key), "band": band.text(), "tables": len(pts),
                     "meeting": len(met), "lowest": lo_v, "highest": hi_v, "closest": best_v,
                     "closest_table": table_text(best_t), "reason": reason})
    return pd.DataFrame(rows)


def is_multiplier(name: str) -> bool:
    """Is a search axis a multiplier (a bet type, or ``colour N=0``), not another rule number?"""
    return name.split(" ", 1)[0] in BY_NAME


def axis_text(name: str, value) -> str:
    """``colour x4``, ``colour N=0 x5``, ``troll_pay=1``."""
    return f"{name} x{value:g}" if is_multiplier(name) else f"{name}={value:g}"


def table_text(table: dict) -> str:
    return ", ".join(axis_text(k, v) for k, v in table.items())
