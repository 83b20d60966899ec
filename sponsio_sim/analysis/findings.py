"""Findings for the Sponsio designer report, generated from the tables.

Each function returns sentences (with figures, CIs and sample sizes); a
claim is made only when its 95% interval excludes the neutral value,
otherwise the sentence says there is no evidence of it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.findings import ci_text, diff_ci, side
from tabletop_mc.stats import MIN_MEAN_N

RTP_BAND = (0.9, 1.1)


def rtp_findings(kinds: pd.DataFrame, rec: pd.DataFrame | None, band=RTP_BAND) -> list[str]:
    """Bet types whose RTP lies outside ``band``, and what ``recommend`` proposes for them."""
    out = []
    rec_by = rec.set_index("type") if rec is not None else None
    for _, k in kinds[kinds["placed"] > 0].iterrows():
        rtp, lo, hi = k["rtp"], 1 + k["ev_low"], 1 + k["ev_high"]
        if not (np.isfinite(lo) and np.isfinite(hi)):
            if not band[0] <= rtp <= band[1]:
                out.append(f"Too few {k['type']} bets to judge their RTP (n = {int(k['placed']):,} bets; RTP "
                           f"{rtp:.2f}, no interval below n = {MIN_MEAN_N}).")
            continue
        where = side(lo, hi, *band)
        if where == "overlaps":
            if not band[0] <= rtp <= band[1]:
                out.append(f"No evidence that {k['type']} bets pay outside RTP {band[0]:g}-{band[1]:g}: "
                           f"RTP {ci_text(rtp, lo, hi)} (n = {int(k['placed']):,} bets).")
            continue
        verdict = "over-paid" if where == "above" else "under-paid"
        text = (f"{k['type'].capitalize()} bets are {verdict}: RTP {ci_text(rtp, lo, hi)} per coin staked "
                f"(n = {int(k['placed']):,} bets, multiplier x{k['multiplier']:g}).")
        if rec_by is not None and k["type"] in rec_by.index:
            r = rec_by.loc[k["type"]]
            state = "converged" if rec.attrs.get("converged") else "did not converge"
            inside = band[0] <= r["rtp_after"] <= band[1]
            text += (f" recommend proposes x{r['multiplier_after']:g}: RTP then {r['rtp_after']:.2f}, "
                     f"{'inside' if inside else 'still outside'} the band (the search {state})"
                     + (f": {r['why_not']}." if not inside and isinstance(r.get("why_not"), str)
                        and r["why_not"] else "."))
        out.append(text)
    return out


def seat_finding(entries: pd.DataFrame, fair: float) -> str:
    """The largest gap in win share between two seats of a fixed-seat run."""
    best = entries.loc[entries["win_share"].idxmax()]
    worst = entries.loc[entries["win_share"].idxmin()]
    d, lo, hi = diff_ci(best["win_share"], best["share_low"], best["share_high"],
                        worst["win_share"], worst["share_low"], worst["share_high"])
    games = int(best["games"])
    if side(lo, hi, 0.0) == "overlaps":
        return (f"No evidence of a seat advantage: the largest gap in win share, seat {best['seat']} over seat "
                f"{worst['seat']}, is {ci_text(d, lo, hi, 3)} (n = {games:,} games; fair share {fair:.2f}).")
    return (f"Seat {best['seat']} wins {ci_text(best['win_share'], best['share_low'], best['share_high'], 3)} of "
            f"games and seat {worst['seat']} {ci_text(worst['win_share'], worst['share_low'], worst['share_high'], 3)}"
            f": a gap of {ci_text(d, lo, hi, 3)} (n = {games:,} games; fair share {fair:.2f}).")


def strong_seat_finding(ref: pd.DataFrame, strong: pd.DataFrame, ref_profile: str, strong_profile: str) -> str:
    """Whether the reference profile's seat advantage (its best seat over its worst, fixed seats) holds
    when every seat plays the stronger profile: the same two seats' gap under both, and its change."""
    fair = 1 / len(ref)
    seat = lambda df, s: df[df["seat"].astype(str) == str(s)].iloc[0]  # noqa: E731
    best = ref.loc[ref["win_share"].idxmax(), "seat"]
    worst = ref.loc[ref["win_share"].idxmin(), "seat"]

    def gap(df):
        a, b = seat(df, best), seat(df, worst)
        return diff_ci(a["win_share"], a["share_low"], a["share_high"], b["win_share"], b["share_low"],
                       b["share_high"])

    g0, g1 = gap(ref), gap(strong)
    was, now = side(g0[1], g0[2], 0.0), side(g1[1], g1[2], 0.0)
    d, lo, hi = diff_ci(*g1, *g0)
    change = f"the gap moves by {ci_text(d, lo, hi, 3)}"
    if now == "overlaps":
        verdict = f"no evidence of that seat advantage under stronger play ({change})"
    elif now != was:
        verdict = f"the advantage reverses ({change})"
    elif side(lo, hi, 0.0) == "overlaps":
        verdict = f"the advantage holds, with no evidence that its size changes ({change})"
    else:
        verdict = f"the advantage holds but {'grows' if d > 0 else 'shrinks'} ({change})"
    a, b = seat(strong, best), seat(strong, worst)
    return (f"Every seat on {strong_profile}: seat {best} wins "
            f"{ci_text(a['win_share'], a['share_low'], a['share_high'], 3)} and seat {worst} "
            f"{ci_text(b['win_share'], b['share_low'], b['share_high'], 3)} (n = {int(a['games']):,} games; fair "
            f"share {fair:.2f}), a gap of {ci_text(*g1, 3)} against {ci_text(*g0, 3)} under {ref_profile}: "
            f"{verdict}.")


def strategy_findings(mx: pd.DataFrame, field: str, fair: float) -> list[str]:
    """Strongest and weakest single-seat strategy against a field of ``field`` seats."""
    rows = mx[(mx["b"] == field) & (mx["a"] != field)]
    if rows.empty:
        return []
    out = []
    for label, row in (("strongest", rows.loc[rows["win_share"].idxmax()]),
                       ("weakest", rows.loc[rows["win_share"].idxmin()])):
        est = ci_text(row["win_share"], row["share_low"], row["share_high"], 3)
        where = side(row["share_low"], row["share_high"], fair)
        verdict = {"above": "more than", "below": "less than", "overlaps": "no evidence of a difference from"}[where]
        out.append(f"Against {field} in every other seat, the {label} strategy tried is {row['a']}: win share "
                   f"{est}, {verdict} the fair share {fair:.2f} (n = {int(row['games']):,} games).")
    return out


def length_findings(games: pd.DataFrame, hist: pd.DataFrame) -> list[str]:
    """How long games last, how they end, comebacks and lead changes."""
    g = games.set_index("measure")
    n = int(g.loc["rounds per game", "n"])
    r = g.loc["rounds per game"]
    mode = hist.loc[hist["games"].idxmax()]
    ends = ", ".join(f"{g.loc[f'ended by {k}', 'value'] * 100:.1f}% by {name}"
                     for k, name in (("coins", "a player's coins"), ("track", "the streak track"),
                                     ("rounds", "the last round")))
    out = [f"Games last {ci_text(r['value'], r['ci_low'], r['ci_high'])} rounds on average, most often "
           f"{int(mode['rounds'])} ({mode['share'] * 100:.1f}% of games); they end {ends} (n = {n:,} games)."]
    c = g.loc["won by a player last after round 1"]
    out.append(f"A player last after round 1 wins {ci_text(c['value'], c['ci_low'], c['ci_high'], 1, pct=True)} of "
               f"games; the lead changes hands {ci_text(*g.loc['lead changes per game', ['value', 'ci_low', 'ci_high']])}"
               f" times per game (n = {n:,}).")
    return out


def exploit_findings(ex: pd.DataFrame, margin: float = 0.01) -> list[str]:
    """Whether any deviation from the profile pays, and the value of each bet type (restricted play)."""
    devs = ex[ex["deviation"] != ex["deviation"].iloc[0]]
    best = devs.loc[devs["gain"].idxmax()]
    est = ci_text(best["gain"], best["gain_low"], best["gain_high"], 4)
    n = int(best["games"])
    if best["gain_low"] > margin:
        first = (f"The profile {ex.attrs['profile'].split(',')[0]} x{ex.attrs['profile'].count(',') + 1} is "
                 f"exploitable: one seat deviating to {best['deviation']} gains {est} win share (n = {n:,} "
                 f"paired games).")
    else:
        first = (f"No deviation of the {ex.attrs.get('family', 'default')} family gains more than {margin:g} win "
                 f"share with 95% confidence against the profile: the best, {best['deviation']}, gains {est} "
                 f"(n = {n:,} paired games).")
    out = [first]
    rest = devs[devs["deviation"].str.startswith("without=")]
    if len(rest):
        parts = []
        for _, r in rest.sort_values("gain").iterrows():
            loss, lo, hi = 0.0 - r["gain"], 0.0 - r["gain_high"], 0.0 - r["gain_low"]   # no "-0.0000"
            where = side(lo, hi, 0.0)
            parts.append(f"{r['deviation'][8:]} {ci_text(loss, lo, hi, 4)}"
                         + ("" if where == "above" else " (no evidence it is worth anything)"))
        out.append("Value of each bet type to a player (win share lost by never placing it): "
                   + "; ".join(parts) + f" (n = {n:,} paired games).")
    return out


def rtp_verdict(k, band=RTP_BAND) -> str:
    """One bet type's RTP verdict: over-paid, under-paid, in band, no evidence, too few bets or not placed."""
    if k["placed"] <= 0:
        return "not placed"
    lo, hi = 1 + k["ev_low"], 1 + k["ev_high"]
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "too few bets"
    where = side(lo, hi, *band)
    if where == "overlaps":
        return "in band" if band[0] <= lo and hi <= band[1] else "no evidence"
    return "over-paid" if where == "above" else "under-paid"


def verdicts_under_both(ref: pd.DataFrame, other: pd.DataFrame, ref_name: str, other_name: str,
                        band=RTP_BAND) -> tuple[pd.DataFrame, str]:
    """Bet types' RTP and verdict under two profiles side by side, and a sentence on which verdicts hold."""
    rows = []
    o = other.set_index("type")
    for _, k in ref.iterrows():
        m = o.loc[k["type"]] if k["type"] in o.index else None
        rows.append({"type": k["type"], "multiplier": k["multiplier"],
                     "placed_ref": int(k["placed"]), "rtp_ref": k["rtp"], "rtp_ref_low": 1 + k["ev_low"],
                     "rtp_ref_high": 1 + k["ev_high"], "verdict_ref": rtp_verdict(k, band),
                     "placed_other": 0 if m is None else int(m["placed"]),
                     "rtp_other": np.nan if m is None else m["rtp"],
                     "rtp_other_low": np.nan if m is None else 1 + m["ev_low"],
                     "rtp_other_high": np.nan if m is None else 1 + m["ev_high"],
                     "verdict_other": "not placed" if m is None else rtp_verdict(m, band)})
    df = pd.DataFrame(rows)
    judged = df[df["verdict_ref"].isin(["over-paid", "under-paid", "in band"])]
    held = judged[judged["verdict_ref"] == judged["verdict_other"]]
    moved = judged[judged["verdict_ref"] != judged["verdict_other"]]

    def rtps(r):
        other_ci = (ci_text(r.rtp_other, r.rtp_other_low, r.rtp_other_high)
                    if np.isfinite(r.rtp_other_low) and np.isfinite(r.rtp_other_high) else "no interval")
        return f"RTP {ci_text(r.rtp_ref, r.rtp_ref_low, r.rtp_ref_high)}, then {other_ci}"

    parts = [f"{r.type} stays {r.verdict_ref} ({rtps(r)})" for r in held.itertuples()]
    parts += [f"{r.type} goes from {r.verdict_ref} to {r.verdict_other} ({rtps(r)})" for r in moved.itertuples()]
    text = (f"Of the {len(judged)} bet types with a clear RTP verdict under {ref_name}, {len(held)} keep it under "
            f"{other_name}" + (": " + "; ".join(parts) if parts else "")
            + f" (RTP band {band[0]:g}-{band[1]:g}; n = {int(df['placed_ref'].sum()):,} and "
              f"{int(df['placed_other'].sum()):,} bets).")
    return df, text


def stronger_play_finding(ex: pd.DataFrame, margin: float = 0.01) -> str:
    """Whether one seat switching to the rollout bettor ``mc`` beats the profile."""
    r = ex[ex["deviation"] == "mc"].iloc[0]
    est = ci_text(r["gain"], r["gain_low"], r["gain_high"], 3)
    n = int(r["games"])
    if r["gain_low"] > margin:
        return (f"The profile is not an equilibrium against stronger play: one seat switching to the rollout "
                f"bettor mc gains {est} win share (n = {n:,} paired games), so verdicts from these players may "
                f"shift under stronger ones (compare the balance under mc).")
    if r["gain_high"] < -margin:
        return f"The rollout bettor mc does worse than the profile: {est} win share (n = {n:,} paired games)."
    return (f"No evidence that one seat gains by switching to the rollout bettor mc: {est} win share "
            f"(n = {n:,} paired games).")
