"""`reports/caesar/`: a self-contained HTML report with tables, PNG plots and CSVs.

``build_reports(out_dir, seed=1, scale=1.0)`` regenerates everything; ``scale``
multiplies every sample size (0.05 for a smoke test).
"""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from tabletop_mc.htmlreport import HtmlReport, stamp_text
from tabletop_mc.rulefile import to_toml
from caesar_sim.analysis.findings import (bid_findings, exploit_finding, favour_findings, seat_finding,
                                          short_finding, strong_seat_finding)
from tabletop_mc.stats import CI_METHOD
from caesar_sim import weights as WT
from caesar_sim.analysis import plots
from caesar_sim.analysis.bids import NET_NOTE, bid_table
from caesar_sim.analysis.compare import changed_summary, compare
from caesar_sim.analysis.exploit import WEIGHT_STEP, exploit
from caesar_sim.analysis.run import run_games
from caesar_sim.analysis.sweep import sweep
from caesar_sim.analysis.tables import seat_table, win_table
from caesar_sim.profile import reference_profile
from caesar_sim.rules import load_rules

SWEEP = ["merchant.coins=[0,0,0,1,1,2,2,3];[0,1,1,2,2,3,3,4]", "favour.gold_coins=1;3", "favour.boost_value=2;5",
         "tickets.coins=[1,1,1,2,2,3]", "tickets_per_day=3;5"]
# strength matches, 4 players rotated: one seat of the first policy against three of the second
# the lookahead profile every seat plays in the start-player check (fewer games: it is ~1,000x slower)
STRONG, STRONG_GAMES = "mc:8", 3000
MATCHES = (("tuned", "mc:8"), ("value", "mc:8"), ("mc:8", "tuned"), ("mc:8:value", "value"), ("tuned", "value"),
           ("mc:8", "mc:8:value"))


def _weights_note() -> str:
    lines = []
    for players in (3, 4, 5):
        meta = WT.shipped(players)["meta"]
        lines.append(f"{players} players: `{meta['command']}` ({meta['field']}; {meta['seconds']} s)")
    return "Shipped tuned weights: " + "; ".join(lines) + "."


def build_reports(out_dir, seed: int = 1, scale: float = 1.0, threads=None, progress=None,
                  command: str | None = None, with_findings: bool = False):
    """Regenerate every Circus Maximus report under ``out_dir``; returns the index.html path
    (with ``with_findings``: the path and the findings' sentences). The page opens with findings
    generated from the numbers, each linking to its evidence."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    n = lambda k: max(int(k * scale), 20)  # noqa: E731
    rules = load_rules()
    t0 = time.perf_counter()
    doc = HtmlReport(out)
    common = dict(seed=seed, threads=threads, progress=progress)
    ref = reference_profile(4)

    cmp, sim, _ = compare(4, ref, "value x4", n(20000), **common)
    doc.section("Reference profile: win rates and scores (4 players)",
                f"The reference profile is `tuned` in every seat ({ref}); `simulate`, `bids`, `sweep` and this "
                f"report use it unless told otherwise. {_weights_note()} {sim.header()}. Not rotated: entry i "
                "sits in seat i (seat 0 starts day 1). Win shares split ties.")
    doc.table(sim.tables["wins"], "wins_4p")
    doc.image("scores_4p", lambda p: plots.score_histogram([(lb, x) for lb, x, _ in sim.batch.by_label()], p,
                                                           f"final coins, {ref}, n={sim.batch.n}, seed {seed}"))
    fav_anchor = doc.section("Favours, start card, unclaimed items, short decks, score parts (same games)",
                "value_per_day = paired mean change of seat 0's coins per day when seat 0 gets one extra favour "
                "of the type every morning (same seed, common random numbers); win_rate_change likewise. "
                "Unclaimed = items left on a display after its phase. Short decks = days on which a deck ran out.")
    for key in ("favours", "start_card", "unclaimed", "short_decks", "score_parts"):
        doc.table(sim.tables[key], f"{key}_4p")
    for text in favour_findings(sim.tables["favours"]):
        doc.finding(text, fav_anchor)
    doc.finding(short_finding(sim.tables["short_decks"]), fav_anchor)

    cmp_anchor = doc.section("`value` x4 against the reference profile: which verdicts change?",
                f"Both profiles play the same n={n(20000)} games (seed {seed}, not rotated) and the favour-gift "
                f"runs. changed = the two 95% intervals do not overlap. {changed_summary(cmp)}.")
    doc.table(cmp[cmp["measure"] != "venue-bid value (net coins)"], "value_vs_reference")
    bids_cmp = cmp[cmp["measure"] == "venue-bid value (net coins)"]
    doc.table(bids_cmp, "value_vs_reference_bids")
    doc.finding(f"Comparing `value` x4 with the reference profile on the same games: {changed_summary(cmp)}.",
                cmp_anchor)

    frames = []
    for players in (3, 4, 5):
        for prof, games in ((reference_profile(players), n(20000)), (f"value x{players}", n(20000)),
                            (f"{STRONG} x{players}", n(STRONG_GAMES))):
            b = run_games(players, prof, games, **common)
            frames.append(seat_table(b).assign(players=players, profile=prof))
    seat_anchor = doc.section("Start-player advantage by player count",
                f"{rules.summary()}; the reference profile, `value` and `{STRONG}` (lookahead: flat Monte Carlo "
                f"over tuned rollouts) in every seat; seat {rules.first_start_seat} starts day 1; n={n(20000)} "
                f"games per player count for the first two, n={n(STRONG_GAMES)} for `{STRONG}`, seed {seed}; "
                f"{CI_METHOD}. Does the start seat's verdict survive stronger play?")
    seats = pd.concat(frames)

    def rows(players, prof):
        return seats[(seats["players"] == players) & (seats["profile"] == prof)]
    for players in (3, 4, 5):
        ref_p = reference_profile(players)
        doc.finding(seat_finding(rows(players, ref_p), ref_p), seat_anchor)
        doc.finding(strong_seat_finding(rows(players, ref_p), rows(players, f"{STRONG} x{players}"), ref_p,
                                        f"{STRONG} x{players}"), seat_anchor)
    doc.table(seats[["players", "profile", *[c for c in seats.columns if c not in ("players", "profile")]]],
              "seats_by_players")

    rows = []
    for one, three in MATCHES:
        match = f"{one},{three} x3"
        b = run_games(4, match, n(1000), rotate=True, **common)
        rows.append(win_table(b).assign(match=match))
    doc.section("Strength: one seat against three (mc = flat Monte Carlo, 8 rollouts to the day's end)",
                f"`mc:8` rolls out with `tuned` play, `mc:8:value` with `value` play. {rules.summary()}; 4 players, "
                f"rotated; n={n(1000)} games per match, seed {seed}; {CI_METHOD}. Fair share 0.25.")
    mc = pd.concat(rows)
    doc.table(mc[["match", *[c for c in mc.columns if c != "match"]]], "mc_matches")

    table, line, _ = exploit(4, ref, n(20000), **common)
    ex_anchor = doc.section("Exploitability of the reference profile",
                f"Entry 0 of {ref} deviates (another policy, each tunable weight pushed up and down by "
                f"{WEIGHT_STEP:g} of its tuning range, restricted players); every deviation replays the same "
                f"n={n(20000)} games, seats rotated, seed {seed}; gain = paired win-share difference per game, "
                f"mean +/- 1.96 SE. {line}.")
    doc.table(table, "exploit_4p")
    doc.finding(exploit_finding(line), ex_anchor)

    b = sim.batch
    if b.n < n(100000):
        b = run_games(4, ref, n(100000), **common)
    bt = bid_table(b, by_seat=True)
    pooled = bid_table(b, by_seat=False)
    bid_anchor = doc.section("Venue-bid values (reference profile)",
                f"{rules.summary()}; {ref}; n={b.n} games, seed {seed}; {CI_METHOD}. {NET_NOTE}. Seat order 0 = "
                "the phase's start player. Heatmap pooled over seat order.")
    doc.image("bids_heatmap", lambda p: plots.bid_heatmap(pooled, p, f"venue-bid values, {ref}, n={b.n}"))
    doc.table(pooled, "bids_pooled")
    for text in bid_findings(pooled):
        doc.finding(text, bid_anchor)
    bt.to_csv(out / "bids_by_seat.csv", index=False)
    doc.link("bids_by_seat.csv", "By seat order")

    table, summary = sweep(4, ref, n(20000), SWEEP, rotate=False, **common)
    doc.section("Sweep over [D] numbers (seat balance and score level, reference profile)",
                f"base {summary}; {ref}, not rotated, so each entry is a seat (seat 0 starts day 1); "
                f"n={n(20000)} games per variant, same seed {seed} in "
                f"every variant (paired differences); {CI_METHOD}; moved = a 95% CI of d_win or d_score excludes 0.")
    doc.image("sweep", lambda p: plots.sweep_plot(table, p, f"win rate by seat and rule variant, {ref}"))
    doc.table(table, "sweep")

    doc.appendix(f"rule set {rules.name}", to_toml(rules.as_dict()))
    path = doc.write("Circus Maximus: strategy and rule analysis",
              f"Built by `caesar report` (seed {seed}, scale {scale}) in "
              f"{time.perf_counter() - t0:.0f} s. Rule set: {rules.summary()}. Policies: random (uniform legal "
              "action), greedy (cheapest card that wins a wanted item), value (expected coins vs. card coins and "
              "later needs, hand-set weights), tuned (value's features, weights tuned by `caesar tune`), mc (flat "
              "Monte Carlo over tuned rollouts; mc:K:value over value rollouts). Games always last "
              f"{rules.days} days. CI method: " + CI_METHOD + ".",
              stamp=stamp_text("sponsio-sim", command, out))
    return (path, [f.text for f in doc.findings]) if with_findings else path
