"""Figures of the full game (matplotlib, Agg backend, PNG): tournament win
rates, the strategy matrix heatmap and the success model's reliability."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
import pandas as pd  # noqa: E402


def _save(fig, ax, path, title: str) -> None:
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)


def tournament_plot(df: pd.DataFrame, path, fair: float, title: str) -> None:
    """Win rate per profile entry with its 95% Wilson interval; the fair share dashed."""
    labels = [f"{r.strategy}\n(seat {r.seat})" for r in df.itertuples()]
    x = np.arange(len(df))
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(df)), 3.8))
    err = np.vstack([df["win"] - df["win_low"], df["win_high"] - df["win"]])
    ax.bar(x, df["win"] * 100, color="tab:blue", alpha=0.8)
    ax.errorbar(x, df["win"] * 100, yerr=err * 100, fmt="none", ecolor="black", capsize=4, label="95% Wilson CI")
    ax.axhline(fair * 100, color="grey", ls="--", lw=1, label=f"fair share {fair:.0%}")
    ax.set_xticks(x, labels, fontsize=7)
    ax.set_ylabel("win rate (% of games, shared wins count)")
    ax.set_xlabel("profile entry")
    ax.legend(fontsize=7)
    _save(fig, ax, path, title)


def matrix_heatmap(df: pd.DataFrame, path, fair: float, title: str) -> None:
    """Win share (%) of one seat playing A (rows) against all others playing B
    (columns), with its 95% interval's half width; a k-way shared win counts 1/k."""
    names = list(dict.fromkeys(df["a"]))
    grid = np.full((len(names), len(names)), np.nan)
    half = np.full_like(grid, np.nan)
    for r in df.itertuples():
        i, j = names.index(r.a), names.index(r.b)
        grid[i, j] = r.win_share * 100
        half[i, j] = (r.share_high - r.share_low) * 50
    fig, ax = plt.subplots(figsize=(2.2 + 1.5 * len(names), 1.6 + 1.1 * len(names)))
    im = ax.imshow(grid, cmap="RdBu", norm=TwoSlopeNorm(vcenter=fair * 100, vmin=0.0, vmax=100.0))
    for i in range(len(names)):
        for j in range(len(names)):
            ax.text(j, i, f"{grid[i, j]:.1f}\n±{half[i, j]:.1f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(names)), names, fontsize=7, rotation=20)
    ax.set_yticks(range(len(names)), names, fontsize=7)
    ax.set_xlabel("strategy B (all other seats)")
    ax.set_ylabel("strategy A (one seat)")
    fig.colorbar(im, ax=ax, label=f"win share of A, % (fair {fair:.0%})")
    _save(fig, ax, path, title)


def reliability_plot(deciles: pd.DataFrame, path, title: str) -> None:
    """Observed success (95% Wilson interval) against predicted, by decile of the prediction."""
    fig, ax = plt.subplots(figsize=(4.6, 4.4))
    ax.plot([0, 100], [0, 100], color="grey", ls="--", lw=1, label="perfect calibration")
    err = np.vstack([deciles["observed"] - deciles["ci_low"], deciles["ci_high"] - deciles["observed"]]) * 100
    ax.errorbar(deciles["predicted"] * 100, deciles["observed"] * 100, yerr=err, fmt="o", ms=4, capsize=3,
                label="held-out bets by decile (95% CI)")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_xlabel("predicted success (%)")
    ax.set_ylabel("simulated success (%)")
    ax.legend(fontsize=7, loc="upper left")
    _save(fig, ax, path, title)


def rounds_histogram(hist: pd.DataFrame, path, title: str) -> None:
    """Share of games by rounds played, 95% Wilson CI bars, n of games per bar."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = hist["rounds"].to_numpy()
    ax.bar(x, hist["share"] * 100, color="#0072B2", alpha=0.85)
    ax.errorbar(x, hist["share"] * 100, yerr=np.vstack([hist["share"] - hist["ci_low"],
                                                        hist["ci_high"] - hist["share"]]) * 100,
                fmt="none", ecolor="black", capsize=3)
    for xi, (top, g) in enumerate(zip(hist["ci_high"], hist["games"])):
        ax.text(x[xi], top * 100 + 1, f"n={int(g):,}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x)
    ax.set_xlabel("rounds played in the game")
    ax.set_ylabel("share of games (%), 95% Wilson CI")
    _save(fig, ax, path, title)
