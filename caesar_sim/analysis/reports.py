"""`reports/caesar/`: a self-contained HTML report with tables, PNG plots and CSVs.

``build_reports(out_dir, seed=1, scale=1.0)`` regenerates everything; ``scale``
multiplies every sample size (0.05 for a smoke test).
"""

from __future__ import annotations

import base64
import html
import time
from pathlib import Path

import pandas as pd

from mcsim.stats import CI_METHOD
from caesar_sim.analysis import plots
from caesar_sim.analysis.bids import NET_NOTE, bid_table
from caesar_sim.analysis.run import run_games
from caesar_sim.analysis.sweep import sweep
from caesar_sim.analysis.tables import seat_table, simulate, win_table
from caesar_sim.rules import load_rules

SWEEP = ["merchant.coins=[0,0,0,1,1,2,2,3];[0,1,1,2,2,3,3,4]", "favour.gold_coins=1;3", "favour.boost_value=2;5",
         "tickets.coins=[1,1,1,2,2,3]", "tickets_per_day=3;5"]
MC_MATCHES = ("mc,random,random,random", "mc,greedy,greedy,greedy", "mc,value,value,value")


class _Doc:
    def __init__(self, out: Path):
        self.out, self.parts = out, []

    def section(self, title: str, note: str):
        self.parts.append(f"<h2>{html.escape(title)}</h2><p class='note'>{html.escape(note)}</p>")

    def table(self, df: pd.DataFrame, name: str):
        df.to_csv(self.out / f"{name}.csv", index=False)
        self.parts.append(df.to_html(index=False, float_format=lambda v: f"{v:.4f}", border=0, classes="t")
                          + f"<p class='csv'>CSV: <a href='{name}.csv'>{name}.csv</a></p>")

    def image(self, name: str, draw):
        path = self.out / f"{name}.png"
        draw(path)
        data = base64.b64encode(path.read_bytes()).decode()
        self.parts.append(f"<img alt='{name}' src='data:image/png;base64,{data}'>")

    def write(self, title: str, intro: str):
        css = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
               "table.t{border-collapse:collapse;font-size:12px;margin:.5em 0}"
               "table.t td,table.t th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right}"
               ".note{color:#555;font-size:13px}.csv{font-size:11px}img{max-width:100%}")
        body = "".join(self.parts)
        (self.out / "index.html").write_text(
            f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title><style>{css}</style></head>"
            f"<body><h1>{html.escape(title)}</h1><p class='note'>{html.escape(intro)}</p>{body}</body></html>",
            encoding="utf-8")


def build_reports(out_dir, seed: int = 1, scale: float = 1.0, threads=None, progress=None) -> Path:
    """Regenerate every Circus Maximus report under ``out_dir``; returns the index.html path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    n = lambda k: max(int(k * scale), 20)  # noqa: E731
    rules = load_rules()
    t0 = time.perf_counter()
    doc = _Doc(out)
    common = dict(seed=seed, threads=threads, progress=progress)

    prof = "value,value,greedy,random"
    sim = simulate(4, prof, n(20000), rotate=True, **common)
    doc.section("Win rates and scores (4 players)",
                f"{sim.header()}. Profile rotated over the seats game by game. Win shares split ties.")
    doc.table(sim.tables["wins"], "wins_4p")
    doc.image("scores_4p", lambda p: plots.score_histogram(sim.batch.entry_scores(), sim.batch.profile.labels, p,
                                                           f"final coins, {prof}, n={sim.batch.n}, seed {seed}"))
    doc.section("Favours, start card, unclaimed items, score parts (same games)",
                "value_per_day = paired mean change of seat 0's coins per day when seat 0 gets one extra favour "
                "of the type every morning (same seed, common random numbers); win_rate_change likewise. "
                "Unclaimed = items left on a display after its phase.")
    for key in ("favours", "start_card", "unclaimed", "score_parts"):
        doc.table(sim.tables[key], f"{key}_4p")

    frames = []
    for players in (3, 4, 5):
        b = run_games(players, f"value x{players}", n(20000), **common)
        frames.append(seat_table(b).assign(players=players))
    doc.section("Start-player advantage by player count",
                f"{rules.summary()}; all seats `value`; seat {rules.first_start_seat} starts day 1; "
                f"n={n(20000)} games per player count, seed {seed}; {CI_METHOD}.")
    seats = pd.concat(frames)
    doc.table(seats[["players", *[c for c in seats.columns if c != "players"]]], "seats_by_players")

    rows = []
    for match in MC_MATCHES:
        b = run_games(4, match, n(1000), rotate=True, **common)
        rows.append(win_table(b).assign(match=match))
    doc.section("Flat Monte Carlo (mc, 8 rollouts to the day's end) against each policy",
                f"{rules.summary()}; 4 players, rotated; n={n(1000)} games per match, seed {seed}; {CI_METHOD}.")
    mc = pd.concat(rows)
    doc.table(mc[["match", *[c for c in mc.columns if c != "match"]]], "mc_matches")

    b = run_games(4, "value x4", n(100000), **common)
    bt = bid_table(b, by_seat=True)
    pooled = bid_table(b, by_seat=False)
    doc.section("Venue-bid values (all seats `value`)",
                f"{rules.summary()}; n={b.n} games, seed {seed}; {CI_METHOD}. {NET_NOTE}. Seat order 0 = the "
                "phase's start player. Heatmap pooled over seat order.")
    doc.image("bids_heatmap", lambda p: plots.bid_heatmap(pooled, p, f"venue-bid values, value x4, n={b.n}"))
    doc.table(pooled, "bids_pooled")
    bt.to_csv(out / "bids_by_seat.csv", index=False)
    doc.parts.append("<p class='csv'>By seat order: <a href='bids_by_seat.csv'>bids_by_seat.csv</a></p>")

    sprof = "value x4"
    table, summary = sweep(4, sprof, n(20000), SWEEP, rotate=False, **common)
    doc.section("Sweep over [D] numbers (seat balance and score level)",
                f"base {summary}; all seats `value`, not rotated, so each entry is a seat (seat 0 starts day 1); "
                f"n={n(20000)} games per variant, same seed {seed} in "
                f"every variant (paired differences); {CI_METHOD}; moved = a 95% CI of d_win or d_score excludes 0.")
    doc.image("sweep", lambda p: plots.sweep_plot(table, p, f"win rate by seat and rule variant, {sprof}"))
    doc.table(table, "sweep")

    doc.write("Circus Maximus: strategy and rule analysis",
              f"Generated by caesar_sim.analysis.reports.build_reports(seed={seed}, scale={scale}) in "
              f"{time.perf_counter() - t0:.0f} s. Rule set: {rules.summary()}. Policies: random (uniform legal "
              "action), greedy (cheapest card that wins a wanted item), value (expected coins vs. card coins and "
              "later needs), mc (flat Monte Carlo over value rollouts). CI method: " + CI_METHOD + ".")
    return out / "index.html"
