"""Two profiles side by side (e.g. `value` x n against the reference profile): which verdicts change?

Both profiles play ``n`` games with the same seed (plus the favour-gift runs of `simulate`). A
verdict "changes" when the two 95% intervals of the same measure do not overlap.
"""

from __future__ import annotations

import pandas as pd

from caesar_sim.analysis.game.bids import bid_table
from caesar_sim.analysis.game.runs import RunSettings
from caesar_sim.analysis.game.simulation import Simulation, simulate


def _measure(kind: str, what: str, label_a: str, a: tuple, label_b: str, b: tuple) -> dict:
    (ea, la, ha), (eb, lb, hb) = a, b
    return {"measure": kind, "what": what, label_a: ea, f"{label_a}_low": la, f"{label_a}_high": ha,
            label_b: eb, f"{label_b}_low": lb, f"{label_b}_high": hb, "difference": eb - ea,
            "changed": bool(hb < la or lb > ha)}


def verdict_table(sa: Simulation, la: str, sb: Simulation, lb: str) -> pd.DataFrame:
    """Seat win rates, favour values, score spread and venue-bid values of two simulations, row by row."""
    rows = []
    for (_, ra), (_, rb) in zip(sa.tables["seats"].iterrows(), sb.tables["seats"].iterrows()):
        rows.append(_measure("seat win rate", f"seat {ra['seat']}" + (" (starts day 1)" if ra["starts_day1"] else ""),
                             la, (ra["win_rate"], ra["ci_low"], ra["ci_high"]),
                             lb, (rb["win_rate"], rb["ci_low"], rb["ci_high"])))
    fa, fb = sa.tables["favours"], sb.tables["favours"]
    if "value_per_day" in fa and "value_per_day" in fb:
        for (_, ra), (_, rb) in zip(fa.iterrows(), fb.iterrows()):
            rows.append(_measure("favour value (coins/day)", ra["favour"],
                                 la, (ra["value_per_day"], ra["value_low"], ra["value_high"]),
                                 lb, (rb["value_per_day"], rb["value_low"], rb["value_high"])))
    wa, wb = sa.tables["wins"], sb.tables["wins"]
    for col in ("score_sd", "p10", "p90"):
        a, b = float(wa[col].mean()), float(wb[col].mean())
        rows.append({"measure": "score spread", "what": f"{col} (mean over entries)", la: a, lb: b,
                     "difference": b - a, "changed": None})
    ba = bid_table(sa.batch, by_seat=False)
    bb = bid_table(sb.batch, by_seat=False)
    key = ["phase", "location", "value"]
    m = ba.merge(bb, on=key, suffixes=("_a", "_b"))
    for _, r in m.iterrows():
        rows.append(_measure("venue-bid value (net coins)", f"{r['location']} {int(r['value'])}",
                             la, (r["net_coins_a"], r["net_low_a"], r["net_high_a"]),
                             lb, (r["net_coins_b"], r["net_low_b"], r["net_high_b"])))
    return pd.DataFrame(rows)


def compare(players: int, profile_a: str, profile_b: str, n: int,
            settings: RunSettings = RunSettings()) -> tuple[pd.DataFrame, Simulation, Simulation]:
    """Simulate both profiles (unrotated: seat = table position) and build the verdict table."""
    sa = simulate(players, profile_a, n, settings, favour_value=True)
    sb = simulate(players, profile_b, n, settings, favour_value=True)
    return verdict_table(sa, profile_a, sb, profile_b), sa, sb


def changed_summary(table: pd.DataFrame) -> str:
    """One sentence per measure: how many rows changed (CIs disjoint) out of how many compared."""
    parts = []
    for kind, g in table.groupby("measure", sort=False):
        if g["changed"].isna().all():
            continue
        parts.append(f"{kind}: {int(g['changed'].sum())} of {len(g)} changed")
    return "; ".join(parts)
