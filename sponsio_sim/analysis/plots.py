"""Matplotlib figures for Sponsio tables (PNG, labelled axes, CIs as bars)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


POSITIVE, NEGATIVE = "#0072B2", "#D55E00"   # Okabe-Ito blue and vermillion: safe for colour-blind readers
MIN_N = 100                                  # rows from fewer samples get no bar


def odds_panels(tables: dict, path, top: int = 15, title: str = "") -> None:
    """One panel per hand: P(success) of its ``top`` bets by EV, with 95% CI
    bars, the break-even chance 1/multiplier marked on each bar, colour by
    the sign of EV; rows with fewer than ``MIN_N`` samples are left out."""
    n = len(tables)
    cols = 2
    rows = (n + 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(12, 4.2 * rows), squeeze=False)
    for ax, (name, df) in zip(axes.flat, tables.items()):
        d = df[df["n"] >= MIN_N].head(top).iloc[::-1]
        y = np.arange(len(d))
        err = np.vstack([d["p"] - d["ci_low"], d["ci_high"] - d["p"]])
        colours = [POSITIVE if ev > 0 else NEGATIVE for ev in d["ev"]]
        ax.barh(y, d["p"], xerr=err, color=colours, alpha=0.8, capsize=2)
        ax.scatter(1.0 / d["multiplier"], y, marker="|", s=160, color="k", zorder=3)
        ax.set_yticks(y, [f"{b} (n={n:,})" for b, n in zip(d["bet"], d["n"])], fontsize=8)
        ax.set_xlim(0, 1)
        ax.set_xlabel("P(bet succeeds), 95% Wilson CI; | = break-even 1/multiplier")
        ax.set_title(name, fontsize=10)
        for yi, (p, ev) in enumerate(zip(d["p"], d["ev"])):
            ax.text(min(p + 0.03, 0.85), yi, f"EV {ev:+.2f}", va="center", fontsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.suptitle((title or "Best bets by EV") + " (blue: EV > 0, vermillion: EV <= 0)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
