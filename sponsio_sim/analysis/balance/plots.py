"""Plots for the balance tables (PNG, labelled axes, CIs as bars and bands)."""

from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


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
    fig.suptitle(title(f"Bet balance: {meta['profile']}, n={meta['n']} games, seed {meta['seed']}"), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


IN, OUT = "#0072B2", "#D55E00"   # Okabe-Ito blue and vermillion
TITLE_WIDTH = 90                 # characters per title line: a long profile wraps, never clips


def title(text: str, width: int = TITLE_WIDTH) -> str:
    """``text`` wrapped to ``width`` characters a line (a figure about 8 inches wide: 90)."""
    return "\n".join(textwrap.wrap(text, width))


def coin_flow_chart(flow, path, meta) -> None:
    """Coins per seat and round by source, inflows right of 0 and stakes and fees left,
    the net as the last bar; 95% intervals as error bars."""
    d = flow.iloc[::-1].reset_index(drop=True)
    y = np.arange(len(d))
    v = d["coins_per_seat_round"].to_numpy(dtype=float)
    err = np.vstack([v - d["ci_low"], d["ci_high"] - v])
    colours = ["0.35" if r == "net" else IN if r == "in" else OUT for r in d["direction"]]
    fig, ax = plt.subplots(figsize=(8, 4.2))
    ax.barh(y, v, xerr=err, color=colours, capsize=3)
    for yi, vi, e in zip(y, v, err.T):
        end = vi + e[1] if vi >= 0 else vi - e[0]
        ax.text(end, yi, f"  {vi:+.2f}  ", va="center", ha="left" if vi >= 0 else "right", fontsize=8)
    ax.set_yticks(y, d["source"])
    ax.axvline(0, color="k", lw=0.8)
    ax.set_xlabel("coins per seat and round (mean over games, 95% CI)")
    ax.set_ylabel("source")
    lo, hi = float(np.nanmin(np.minimum(v, 0))), float(np.nanmax(np.maximum(v, 0)))
    ax.set_xlim(lo - 0.25 * (hi - lo) - 0.1, hi + 0.25 * (hi - lo) + 0.1)
    ax.set_title(title(f"Coin flow by source: {meta['profile']}; n={meta['n']:,} games, seed {meta['seed']}"),
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


SWEEP_PANELS = (("seat gap (win share)", ("seat 0 - fair share", "largest seat gap")),
                ("rounds per game", ("rounds per game",)),
                ("troll share of seat-rounds", ("troll share",)),
                ("share of bets placed", None),   # every type's share of bets
                ("lead changes per game", ("lead changes per game",)),
                ("comeback rate (share of games)", ("comeback rate",)))


def sweep_panels(result, path, meta) -> None:
    """One lever: each measure's level (95% CI bars) against the lever's value, the standard value
    dashed and marked by a diamond; a filled circle where the value moved the measure (its paired effect's
    interval excludes 0), a hollow one where it did not (hollow means only that)."""
    rows = result.rows
    fig, axes = plt.subplots(2, 3, figsize=(14, 7.5))
    for ax, (label, names) in zip(axes.flat, SWEEP_PANELS):
        if names is None:
            names = tuple(m for m in rows["measure"].unique() if m.endswith(" share of bets"))
        for name in names:
            d = rows[rows["measure"] == name].sort_values("value")
            x = d["value"].astype(float).to_numpy()
            y = d["level"].to_numpy(dtype=float)
            err = np.vstack([y - d["level_low"], d["level_high"] - y])
            line = ax.errorbar(x, y, yerr=err, capsize=3, marker=None, label=name.replace(" share of bets", ""))
            colour = line[0].get_color()
            standard = d["standard"].to_numpy(dtype=bool)
            moved = d["moved"].to_numpy(dtype=bool) & ~standard
            ax.scatter(x[moved], y[moved], color=colour, zorder=3, s=28)
            ax.scatter(x[~moved & ~standard], y[~moved & ~standard], facecolors="white", edgecolors=colour,
                       zorder=3, s=28)
            ax.scatter(x[standard], y[standard], color=colour, marker="D", zorder=3, s=24)
        ax.axvline(float(result.standard), color="0.5", ls="--", lw=0.8)
        if label.startswith("seat gap"):
            ax.axhline(0.0, color="k", lw=0.6)
        ax.set_xlabel(result.lever.key)
        ax.set_ylabel(label)
        if len(names) > 1:
            ax.legend(fontsize=7, ncol=min(len(names), 3), loc="best")
    fig.suptitle(title(f"{result.lever.key}, {result.players} players: levels with 95% CIs; dashed: the standard "
                       f"value (diamond); filled circle: moved against it (paired, CI excludes 0), hollow: not moved. {meta['profile']}; "
                       f"n={meta['n']:,} games per value, seed {meta['seed']}", 170), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
