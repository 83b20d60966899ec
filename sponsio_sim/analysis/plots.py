"""Matplotlib figures for Sponsio tables (PNG, labelled axes, CIs as bars)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from tabletop_mc.verdicts import fmt_ci  # noqa: E402


POSITIVE, NEGATIVE = "#0072B2", "#D55E00"   # Okabe-Ito blue and vermillion: safe for colour-blind readers
MIN_N = 100                                  # rows from fewer samples get no bar


def odds_panels(tables: dict, path, top: int = 15, title: str = "") -> None:
    """One panel per hand: its ``top`` bets by EV, each bar that bet's EV per 1-coin stake (P x multiplier
    - 1) with the 95% interval its P's Wilson interval gives, the order and the bars the same measure;
    0 (break-even) marked, colour by the sign of EV, P [CI] written beside each bar; rows with fewer than
    ``MIN_N`` samples are left out."""
    n = len(tables)
    cols = 2
    rows = (n + 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(12, 4.2 * rows), squeeze=False)
    for ax, (name, df) in zip(axes.flat, tables.items()):
        d = df[df["n"] >= MIN_N].sort_values("ev", ascending=False, kind="stable").head(top).iloc[::-1]
        y = np.arange(len(d))
        ev_low, ev_high = d["ci_low"] * d["multiplier"] - 1, d["ci_high"] * d["multiplier"] - 1
        err = np.vstack([d["ev"] - ev_low, ev_high - d["ev"]])
        colours = [POSITIVE if ev > 0 else NEGATIVE for ev in d["ev"]]
        ax.barh(y, d["ev"], xerr=err, color=colours, alpha=0.8, capsize=2)
        ax.axvline(0.0, color="k", lw=0.8)
        ax.set_yticks(y, [f"{b} (n={n:,})" for b, n in zip(d["bet"], d["n"])], fontsize=8)
        span = max(1.0, float(np.nanmax(np.abs(np.concatenate([ev_low, ev_high])))) if len(d) else 1.0)
        ax.set_xlim(-1.0, span * 1.35)
        ax.set_xlabel("EV per 1-coin stake (P x multiplier - 1), 95% CI; 0 = break-even")
        ax.set_title(name, fontsize=10)
        for yi, (p, lo, hi, top_ev) in enumerate(zip(d["p"], d["ci_low"], d["ci_high"], ev_high)):
            ax.text(max(top_ev, 0.0) + 0.03 * span, yi, f"P {fmt_ci(p, lo, hi)}", va="center", fontsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.suptitle((title or "Best bets by EV") + " (bars: EV; blue: EV > 0, vermillion: EV <= 0)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
