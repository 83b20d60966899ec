"""Designer views shared by both games: tables of shares and means by step with their
intervals, and the figures drawn from them.

A view is a tidy table (one row per plotted point, its 95 % interval and n; the
CSV beside the page) and a figure drawn from exactly that table, so every
plotted number can be looked up. The games build the tables from their own
records (per round in Sponsio, per day in Circus Maximus); the statistics and
the figures are the same for both and live here once.
"""

from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from tabletop_mc.stats import mean_ci, wilson  # noqa: E402


def share_row(hits, trials) -> dict:
    """A share of ``trials`` with its Wilson 95 % interval and n."""
    p, lo, hi = wilson(hits, trials)
    return {"n": int(trials), "value": float(p) if trials else np.nan, "ci_low": float(lo) if trials else np.nan,
            "ci_high": float(hi) if trials else np.nan}


def mean_row(values) -> dict:
    """The mean of ``values`` with its t 95 % interval (NaN below the floor of ``mean_ci``) and n."""
    x = np.asarray(values, dtype=float)
    m, lo, hi = mean_ci(x.sum(), (x * x).sum(), len(x))
    return {"n": int(len(x)), "value": m if len(x) else np.nan, "ci_low": lo, "ci_high": hi}


def margins(final: np.ndarray) -> np.ndarray:
    """Per game, the leader's final score less the runner-up's (0 for a shared lead)."""
    top = np.sort(np.asarray(final, dtype=float), axis=1)
    return top[:, -1] - top[:, -2]


def margin_table(final: np.ndarray, **keys) -> pd.DataFrame:
    """The distribution of the final margin (share of games per margin, Wilson) and its mean (t)."""
    m = margins(final)
    games = len(m)
    rows = [{**keys, "statistic": "mean margin", "margin": np.nan, **mean_row(m)}]
    for v in np.unique(m):
        rows.append({**keys, "statistic": "share of games", "margin": float(v),
                     **share_row(int((m == v).sum()), games)})
    return pd.DataFrame(rows)


def leader_drama(scores: np.ndarray, final_winners: np.ndarray, running: np.ndarray, **keys) -> pd.DataFrame:
    """Per step t: of the games still running after step t (``running[:, t]``), the share in which an
    eventual winner (``final_winners``, games x seats, bool) already held the lead (ties for the lead
    count as leading); ``scores``: games x steps x seats after each step."""
    rows = []
    for t in range(scores.shape[1]):
        live = running[:, t]
        s = scores[live, t]
        leads = s == s.max(axis=1, keepdims=True)
        hit = (leads & final_winners[live]).any(axis=1)
        rows.append({**keys, "step": t + 1, **share_row(int(hit.sum()), int(live.sum()))})
    return pd.DataFrame(rows)


def seat_advantage(df: pd.DataFrame, seat: str, value: str, low: str, high: str) -> tuple[pd.DataFrame, str]:
    """Mark the best and the worst seat of ``df`` (one player count) and say whether their intervals
    overlap: (the table with a ``rank`` column, one sentence)."""
    d = df.copy()
    best, worst = d[value].idxmax(), d[value].idxmin()
    d["rank"] = ""
    d.loc[best, "rank"] = "best"
    d.loc[worst, "rank"] = "worst"
    b, w = d.loc[best], d.loc[worst]
    apart = b[low] > w[high]
    text = (f"best {b[seat]} {b[value]:.3f} [{b[low]:.3f}, {b[high]:.3f}], worst {w[seat]} {w[value]:.3f} "
            f"[{w[low]:.3f}, {w[high]:.3f}]: " + ("the intervals do not overlap" if apart
                                                  else "the intervals overlap (no evidence of a gap)"))
    return d, text


def _title(text: str, width: int = 110) -> str:
    return "\n".join(textwrap.wrap(text, width))


def _finish(fig, axes, used: int, path, title: str, width: int, dpi: int) -> None:
    """Blank the unused panels, title the figure, save it and free it."""
    for ax in list(axes.flat)[used:]:
        ax.axis("off")
    fig.suptitle(_title(title, width), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def _band(ax, d: pd.DataFrame, x: str, label: str | None, **style):
    """One line with its 95 % band from ``d``'s value, ci_low and ci_high."""
    d = d.sort_values(x)
    xs = d[x].to_numpy(dtype=float)
    line, = ax.plot(xs, d["value"].to_numpy(dtype=float), marker="o", ms=3, label=label, **style)
    ax.fill_between(xs, d["ci_low"].to_numpy(dtype=float), d["ci_high"].to_numpy(dtype=float),
                    color=line.get_color(), alpha=0.2, lw=0)
    return line


def curves(panels: list[dict], path, title: str, ncols: int = 2) -> None:
    """Panels of lines with 95 % bands. Each panel: ``data`` (a tidy frame with value, ci_low, ci_high),
    ``x`` (its column), ``series`` (column naming the lines, or None), ``xlabel``, ``ylabel``, ``title``,
    optional ``hline`` (a reference level, drawn dashed) and ``vline``."""
    ncols = min(ncols, len(panels))
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.2 * ncols, 3.6 * nrows), squeeze=False)
    for ax, p in zip(axes.flat, panels):
        d = p["data"]
        if p.get("series"):
            for name, g in d.groupby(p["series"], sort=False):
                _band(ax, g, p["x"], str(name))
            ax.legend(fontsize=7, loc="best")
        else:
            _band(ax, d, p["x"], None)
        if p.get("hline") is not None:
            ax.axhline(p["hline"], color="0.4", ls="--", lw=0.8)
        if p.get("vline") is not None:
            ax.axvline(p["vline"], color="0.4", ls=":", lw=0.8)
        ax.set_xlabel(p["xlabel"])
        ax.set_ylabel(p["ylabel"])
        ax.set_title(_title(p.get("title", ""), 60), fontsize=8)
        if p.get("integer_x", True):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    _finish(fig, axes, len(panels), path, title, 140, 90)


def bars(panels: list[dict], path, title: str) -> None:
    """Side-by-side panels of horizontal bars with 95 % error bars. Each panel: ``data`` (value,
    ci_low, ci_high), ``label`` (the column naming the bars), ``xlabel``, ``title``, optional
    ``marks`` (a column of reference points drawn as black ticks, e.g. break-even), ``zero`` (a line at 0)
    and ``points`` (dots with error bars instead of bars from 0)."""
    rows = max(len(p["data"]) for p in panels)
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels) + 1.3, 1.4 + 0.24 * rows), squeeze=False)
    for i, (ax, p) in enumerate(zip(axes.flat, panels)):
        d = p["data"].iloc[::-1].reset_index(drop=True)
        y = np.arange(len(d))
        v = d["value"].to_numpy(dtype=float)
        err = np.vstack([v - d["ci_low"].to_numpy(dtype=float), d["ci_high"].to_numpy(dtype=float) - v])
        if p.get("points"):   # levels near a reference (e.g. win shares near the fair share): dots, no bars
            ax.errorbar(v, y, xerr=np.nan_to_num(np.abs(err)), fmt="o", color=p.get("colour", "tab:blue"), capsize=3)
            ax.set_ylim(-0.6, len(d) - 0.4)
        else:
            ax.barh(y, v, xerr=np.nan_to_num(np.abs(err)), color=p.get("colour", "tab:blue"), capsize=2, height=0.7)
        if p.get("marks"):
            ax.scatter(d[p["marks"]].to_numpy(dtype=float), y, marker="|", color="k", s=120, zorder=3,
                       label=p.get("marks_label", p["marks"]))
            ax.legend(fontsize=7, loc="best")
        if p.get("zero", not p.get("points")):
            ax.axvline(0, color="k", lw=0.6)
        ax.set_yticks(y, d[p["label"]].astype(str) if i == 0 else [""] * len(d), fontsize=7)
        ax.set_xlabel(p["xlabel"])
        ax.set_title(_title(p.get("title", ""), 50), fontsize=8)
    axes.flat[0].set_ylabel(panels[0].get("ylabel", panels[0]["label"]))
    fig.suptitle(_title(title, 140), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _lever_axis(g: pd.DataFrame) -> pd.DataFrame:
    """A lever's values as x: the numbers themselves, or their order where a value is not a number."""
    x = pd.to_numeric(g["label"], errors="coerce")
    if x.notna().all():
        return g.assign(x=x.astype(float), ordinal=False)
    order = {v: i for i, v in enumerate(dict.fromkeys(g["label"]))}
    return g.assign(x=g["label"].map(order).astype(float), ordinal=True)


def lever_curves(levels: pd.DataFrame, path, title: str, ylabel: str, bands: dict | None = None) -> None:
    """One figure for one group of measures: a panel per (players, lever), each measure's level
    against the lever's value with its 95 % band, the standard value dotted; ``levels`` is tidy
    (players, lever, value, standard, measure, level, level_low, level_high); ``bands``: a
    measure's (low, high) band, shaded grey."""
    d = levels.rename(columns={"level": "value_", "level_low": "ci_low", "level_high": "ci_high"})
    d = d.rename(columns={"value": "label", "value_": "value"})
    panels = []
    for (players, lever), g in d.groupby(["players", "lever"], sort=False):
        g = _lever_axis(g)
        std = g.loc[g["standard"].astype(bool), "x"]
        panels.append({"data": g, "x": "x", "series": "measure" if g["measure"].nunique() > 1 else None,
                       "xlabel": f"{lever} (value)", "ylabel": ylabel, "title": f"{players} players: {lever}",
                       "vline": float(std.iloc[0]) if len(std) else None, "measures": g["measure"].unique()})
    ncols = 4 if len(panels) > 6 else 3 if len(panels) > 2 else len(panels)
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.3 * ncols, 3.0 * nrows), squeeze=False)
    for ax, p in zip(axes.flat, panels):
        for name, g in p["data"].groupby("measure", sort=False):
            _band(ax, g, "x", str(name) if p["series"] else None)
            if bands and name in bands:
                ax.axhspan(*bands[name], color="0.85", zorder=0)
        if p["series"]:
            ax.legend(fontsize=6, loc="best")
        if p["vline"] is not None:
            ax.axvline(p["vline"], color="0.4", ls=":", lw=0.8)
        if p["data"]["ordinal"].iloc[0]:
            ticks = p["data"].drop_duplicates("x")
            ax.set_xticks(ticks["x"], [textwrap.shorten(str(t), 24, placeholder="..") for t in ticks["label"]],
                          fontsize=6, rotation=15)
        ax.set_xlabel(p["xlabel"], fontsize=8)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.set_title(p["title"], fontsize=8)
        ax.tick_params(labelsize=7)
    _finish(fig, axes, len(panels), path, title, 150, 80)


def lever_section(doc, levels: pd.DataFrame, groups, n: int, seed: int, who: str) -> None:
    """The section "Lever effects as curves": ``levels`` tidy (players, lever, value, standard, measure,
    n, level, level_low, level_high), one figure per group of ``groups`` ((label, measure -> bool));
    ``who``: the players, in words."""
    doc.section("Lever effects as curves",
                f"The same sweeps as the lever tables (n = {n:,} games per value, seed {seed}, {who}): each "
                "measure's level at every value of each lever with its 95 % band; the dotted line is the printed "
                "rule's value. One figure per group of measures.")
    for label, wanted in groups:
        d = levels[levels["measure"].map(wanted)]
        if d.empty:
            continue
        name = "view_levers_" + "".join(c if c.isalnum() else "_" for c in label.split(" (")[0])
        doc.image(name, lambda path, d=d, label=label: lever_curves(
            d, path, f"{label}: level against each lever's value (95% CI), {who}, n = {n:,} games per value, "
                     f"seed {seed}", label))
    doc.csv(levels, "view_lever_levels")
    doc.link("view_lever_levels.csv", "Every plotted level (players, lever, value, measure, level, CI, n)")
