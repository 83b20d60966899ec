"""Matplotlib figures (Agg backend), saved as PNG."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from caesar_sim.analysis.game.bids import LOCATIONS  # noqa: E402
from caesar_sim.kernels.layout import MERCHANT_VALUES  # noqa: E402


def _finish(fig, ax, path, title: str, legend: bool = False) -> None:
    ax.set_title(title, fontsize=9)
    if legend:
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)


def bid_heatmap(table: pd.DataFrame, path, title: str) -> None:
    """Mean net coins by location (rows) and merchant value (columns), pooled over policy and seat order."""
    grid = np.full((len(LOCATIONS), MERCHANT_VALUES), np.nan)
    count = np.zeros_like(grid)
    for (loc, v), g in table.groupby(["location", "value"]):
        i = LOCATIONS.index(loc)
        count[i, v - 1] = g["n"].sum()
        grid[i, v - 1] = (g["net_coins"] * g["n"]).sum() / g["n"].sum()
    fig, ax = plt.subplots(figsize=(8, 3.8))
    lim = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
    im = ax.imshow(grid, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:+.2f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(MERCHANT_VALUES), [str(v) for v in range(1, MERCHANT_VALUES + 1)])
    ax.set_yticks(range(len(LOCATIONS)), [f"{loc} (ph. {1 if i == 0 else 2 if i == 1 else 3})"
                                          for i, loc in enumerate(LOCATIONS)])
    ax.set_xlabel("merchant card value")
    ax.set_ylabel("where it was played")
    fig.colorbar(im, ax=ax, label="mean net coins per card played (coins)")
    _finish(fig, ax, path, title)


def score_histogram(groups: list[tuple[str, np.ndarray]], path, title: str) -> None:
    """Distribution of final coins per profile entry (or field member): ``(label, coins)`` pairs."""
    fig, ax = plt.subplots(figsize=(7, 3.8))
    lo = int(min(x.min() for _, x in groups))
    hi = int(max(x.max() for _, x in groups))
    bins = np.arange(lo, hi + 2) - 0.5
    for label, x in groups:
        ax.hist(x, bins=bins, histtype="step", density=True, label=label)
    ax.set_xlabel("final coins (coins)")
    ax.set_ylabel("share of games")
    _finish(fig, ax, path, title, legend=True)


def sweep_plot(table: pd.DataFrame, path, title: str) -> None:
    """Win rate (with 95% CI) per variant and profile entry."""
    variants = list(dict.fromkeys(table["variant"]))
    entries = list(dict.fromkeys(table["entry"]))
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(variants) + 2))
    h = 0.8 / max(len(entries), 1)
    for k, e in enumerate(entries):
        g = table[table["entry"] == e].set_index("variant").loc[variants]
        y = np.arange(len(variants)) + k * h
        ax.errorbar(g["win_rate"], y, xerr=[g["win_rate"] - g["ci_low"], g["ci_high"] - g["win_rate"]],
                    fmt="o", label=e, capsize=2)
    ax.set_yticks(np.arange(len(variants)) + 0.4 - h / 2, variants, fontsize=7)
    ax.set_xlabel("win rate (share of games, 95% Wilson CI)")
    ax.set_ylabel("rule variant")
    _finish(fig, ax, path, title, legend=True)


LEVER_PANELS = ("start seat - fair share", "largest seat gap", "score spread (SD of final coins)",
                "winner's lead (coins)", "lead changes per game", "comeback rate")


def lever_plot(effects: pd.DataFrame, path, title: str) -> None:
    """One panel per measure (``LEVER_PANELS``): each rule variant's paired effect against the unchanged
    rules with its 95% CI (filled: moved), a row per lever=value, a colour per player count."""
    # a value that is the standard rules at this player count (an effect without width) is no point: drawn
    # hollow, it would make the hollow marker mean a second thing
    d = effects[~effects["standard"] & ~(effects["effect_low"] == effects["effect_high"])]
    labels = list(dict.fromkeys(f"{k}={v}" for k, v in zip(d["lever"], d["value"])))
    counts = sorted(d["players"].unique())
    fig, axes = plt.subplots(2, 3, figsize=(11, 1.6 + 0.32 * len(labels) * 2), sharey=True)
    h = 0.8 / max(len(counts), 1)
    for ax, measure in zip(axes.ravel(), LEVER_PANELS):
        for k, p in enumerate(counts):
            g = d[(d["measure"] == measure) & (d["players"] == p)]
            y = [labels.index(f"{a}={b}") + k * h for a, b in zip(g["lever"], g["value"])]
            err = [g["effect"] - g["effect_low"], g["effect_high"] - g["effect"]]
            ax.errorbar(g["effect"], y, xerr=err, fmt="none", ecolor=f"C{k}", capsize=2)
            ax.scatter(g["effect"], y, s=16, color=[f"C{k}" if m else "white" for m in g["moved"]],
                       edgecolors=f"C{k}", zorder=3)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(measure, fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0, 0].set_yticks(np.arange(len(labels)) + 0.4 - h / 2, labels, fontsize=7)
    axes[1, 0].set_yticks(np.arange(len(labels)) + 0.4 - h / 2, labels, fontsize=7)
    axes[0, 0].invert_yaxis()
    # the legend's own markers (a scatter's handle takes its first point's fill, which is data): colour =
    # player count, filled, and one hollow marker that means only "not moved"
    handles = [Line2D([], [], marker="o", ls="", color=f"C{k}", label=f"{p} players") for k, p in enumerate(counts)]
    handles.append(Line2D([], [], marker="o", ls="", markerfacecolor="white", markeredgecolor="0.3",
                          label="hollow: not moved"))
    axes[0, 0].legend(handles=handles, fontsize=7, loc="best")
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)
