"""Findings for the Circus Maximus report, generated from its tables.

Each returns sentences with figures, 95% intervals and sample sizes; an
effect is claimed only when its interval excludes the neutral value.
"""

from __future__ import annotations

import pandas as pd

from tabletop_mc.findings import ci_text, diff_ci, side


def seat_finding(seats: pd.DataFrame, profile: str) -> str:
    """The largest gap in win rate between two seats (seat order fixed), and the start seat's rate."""
    fair = 1 / len(seats)
    best = seats.loc[seats["win_rate"].idxmax()]
    worst = seats.loc[seats["win_rate"].idxmin()]
    d, lo, hi = diff_ci(best["win_rate"], best["ci_low"], best["ci_high"],
                        worst["win_rate"], worst["ci_low"], worst["ci_high"])
    start = seats[seats["starts_day1"]].iloc[0]
    where = side(start["ci_low"], start["ci_high"], fair)
    verdict = {"above": "more than", "below": "less than", "overlaps": "no evidence of a difference from"}[where]
    text = (f"Under {profile}, the start seat wins {ci_text(start['win_rate'], start['ci_low'], start['ci_high'], 3)}"
            f" of games, {verdict} the fair share {fair:.2f}; ")
    if side(lo, hi, 0.0) == "overlaps":
        return text + f"no evidence of a gap between seats ({ci_text(d, lo, hi, 3)}, n = {int(best['n']):,} games)."
    return (text + f"the largest gap, seat {int(best['seat'])} over seat {int(worst['seat'])}, is "
            f"{ci_text(d, lo, hi, 3)} (n = {int(best['n']):,} games).")


def strong_seat_finding(ref: pd.DataFrame, strong: pd.DataFrame, ref_profile: str, strong_profile: str) -> str:
    """Whether the reference profile's start-seat verdict (above, below or at the fair share) holds when
    every seat plays the stronger profile."""
    fair = 1 / len(ref)
    words = {"above": "more than the fair share", "below": "less than the fair share",
             "overlaps": "no evidence of a difference from the fair share"}
    a = ref[ref["starts_day1"]].iloc[0]
    b = strong[strong["starts_day1"]].iloc[0]
    was, now = side(a["ci_low"], a["ci_high"], fair), side(b["ci_low"], b["ci_high"], fair)
    d, lo, hi = diff_ci(b["win_rate"], b["ci_low"], b["ci_high"], a["win_rate"], a["ci_low"], a["ci_high"])
    if was == now:
        verdict = f"the verdict under {ref_profile} holds"
    elif side(lo, hi, 0.0) == "overlaps":
        verdict = (f"no evidence either way on the verdict under {ref_profile} ({words[was]}): the two start-seat "
                   f"rates differ by {ci_text(d, lo, hi, 3)}")
    else:
        verdict = (f"the verdict changes: under {ref_profile} it is {words[was]}, and the start seat's rate moves "
                   f"by {ci_text(d, lo, hi, 3)}")
    return (f"{len(ref)} players, every seat on {strong_profile}: the start seat wins "
            f"{ci_text(b['win_rate'], b['ci_low'], b['ci_high'], 3)} ({words[now]} {fair:.2f}, "
            f"n = {int(b['n']):,} games); {verdict}.")


def favour_findings(favours: pd.DataFrame) -> list[str]:
    """Most and least valuable favour type (coins per day one extra favour is worth)."""
    f = favours.dropna(subset=["value_per_day"])
    if f.empty:
        return []
    most = f.loc[f["value_per_day"].idxmax()]
    least = f.loc[f["value_per_day"].idxmin()]
    d, lo, hi = diff_ci(most["value_per_day"], most["value_low"], most["value_high"],
                        least["value_per_day"], least["value_low"], least["value_high"])
    gap = ("a clear gap" if side(lo, hi, 0.0) != "overlaps" else "no evidence that they differ")
    return [f"The most valuable favour is {most['favour']}, worth "
            f"{ci_text(most['value_per_day'], most['value_low'], most['value_high'])} coins a day to the seat "
            f"that gets one more each morning; the least valuable is {least['favour']} at "
            f"{ci_text(least['value_per_day'], least['value_low'], least['value_high'])} ({gap}: "
            f"{ci_text(d, lo, hi)}; n = {int(most['n_games']):,} paired games)."]


def bid_findings(pooled: pd.DataFrame, top: int = 2) -> list[str]:
    """The venue-bid values that stand out: the best and worst (phase, location, merchant value) cells."""
    cells = pooled[pooled["n"] >= 1000].sort_values("net_coins")
    if cells.empty:
        return []

    def cell(r):
        return (f"a {int(r['value'])} at {r['location']} (phase {int(r['phase'])}): "
                f"{ci_text(r['net_coins'], r['net_low'], r['net_high'])} net coins (n = {int(r['n']):,})")
    best = "; ".join(cell(r) for _, r in cells.iloc[::-1].head(top).iterrows())
    worst = "; ".join(cell(r) for _, r in cells.head(top).iterrows())
    return [f"The best bids pay {best}. The worst lose {worst} (net of the coins the card scores unplayed)."]


def short_finding(short: pd.DataFrame) -> str:
    r = short.set_index("short_of").loc["tickets or visitors"]
    if r["share"] == 0:
        return (f"No day ran short of tickets or visitors (0 of {int(r['n_days']):,} days; 95% upper bound "
                f"{r['ci_high'] * 100:.2f}%).")
    return (f"Days short of tickets or visitors: {ci_text(r['share'], r['ci_low'], r['ci_high'], 1, pct=True)} "
            f"(n = {int(r['n_days']):,} days).")


def exploit_finding(line: str) -> str:
    """The exploit verdict line, as a sentence."""
    return line.rstrip(".") + "."
