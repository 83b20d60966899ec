"""Plots for the balance tables (PNG, labelled axes, CIs as bars and bands)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from tabletop_mc.stats import wilson  # noqa: E402


def ev_bars(kinds, bets, path, meta) -> None:
    """EV per coin staked by bet type and by bet (most placed), with 95% CIs."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(13, 5), gridspec_kw={"width_ratios": [1, 2.2]})
    k = kinds[kinds["placed"] > 0]
    x = np.arange(len(k))
    a.bar(x, k["ev_per_coin"], yerr=np.vstack([k["ev_per_coin"] - k["ev_low"], k["ev_high"] - k["ev_per_coin"]]),
          color=["tab:green" if v > 0 else "tab:red" for v in k["ev_per_coin"]], capsize=3)
    a.set_xticks(x, [f"{t}\n(n={int(p):,})" for t, p in zip(k["type"], k["placed"])])
    a.axhline(0, color="k", lw=0.8)
    a.set_ylabel("EV per coin staked (coins), 95% CI")
    a.set_title("by bet type")
    top = bets.sort_values("placed", ascending=False).head(20)
    y = np.arange(len(top))
    b.barh(y, top["ev_per_coin"], xerr=np.vstack([top["ev_per_coin"] - top["ev_low"],
                                                   top["ev_high"] - top["ev_per_coin"]]),
           color=["tab:green" if v > 0 else "tab:red" for v in top["ev_per_coin"]], capsize=2)
    b.set_yticks(y, [f"{t} (x{m:g}, n={p})" for t, m, p in zip(top["bet"], top["multiplier"], top["placed"])],
                 fontsize=8)
    b.axvline(0, color="k", lw=0.8)
    b.invert_yaxis()
    b.set_xlabel("EV per coin staked (coins), 95% CI")
    b.set_title("the 20 most placed bets")
    fig.suptitle(f"Bet balance: {meta['profile']}, n={meta['n']} games, seed {meta['seed']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def sweep_plot(table, path, meta, fair: float | None = None) -> None:
    """Win rate (95% CI band), rounds per game and bet mix against the swept value.

    A profile of one strategy in every seat is pooled: its seats' wins are one
    sample (n = games x seats), drawn against the fair share; otherwise one
    line per entry."""
    key = table["key"].iloc[0]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    if table["strategy"].nunique() == 1:
        pooled = table.groupby("value", sort=True).agg(wins=("win", "sum"), seats=("win", "size"),
                                                       games=("games", "first")).reset_index()
        n = pooled["games"] * pooled["seats"]
        p, lo, hi = wilson((pooled["wins"] * pooled["games"]).to_numpy(), n.to_numpy())
        axes[0].plot(pooled["value"], p, marker="o", label=f"{table['strategy'].iloc[0]}, pooled over seats")
        axes[0].fill_between(pooled["value"], lo, hi, alpha=0.25)
    else:
        for entry, d in table.groupby("entry"):
            axes[0].plot(d["value"], d["win"], marker="o", label=f"entry {entry}: {d['strategy'].iloc[0]}")
            axes[0].fill_between(d["value"], d["win_low"], d["win_high"], alpha=0.2)
    if fair is not None:
        axes[0].axhline(fair, color="k", ls="--", lw=0.8, label=f"fair share {fair:.2f}")
    axes[0].set_ylabel("win rate (95% Wilson CI band)")
    axes[0].legend(fontsize=7)
    g = table.drop_duplicates("value")
    axes[1].plot(g["value"], g["rounds_per_game"], marker="o")
    axes[1].fill_between(g["value"], g["rounds_low"], g["rounds_high"], alpha=0.2)
    axes[1].set_ylabel("rounds per game (mean, 95% CI band)")
    for col in [c for c in g.columns if c.endswith("_per_round")]:
        axes[2].plot(g["value"], g[col], marker="o", label=col.replace("_per_round", ""))
    axes[2].set_ylabel("bets placed per seat and round")
    axes[2].legend(fontsize=7)
    for ax in axes:
        ax.set_xlabel(key)
    fig.suptitle(f"Sweep of {key}: {meta['profile']}, n={meta['n']} games per value, seed {meta['seed']}",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
