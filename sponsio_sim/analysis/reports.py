"""`reports/sponsio/`: the designer report, regenerated from scratch.

``build_reports(out_dir, seed=1, scale=1.0)`` writes ``index.html``
(findings, contents, tables and embedded plots, the rule set in an
appendix, a stamp) plus CSV and PNG files. ``scale`` multiplies every
sample size (0.05 for a smoke test); each section states the rule set,
strategies, n, seed and CI method.
"""

from __future__ import annotations

import time
from pathlib import Path

from tabletop_mc.htmlreport import HtmlReport, stamp_text
from tabletop_mc.progress import Progress
from tabletop_mc.rulefile import to_toml
from tabletop_mc.stats import CI_METHOD, MIN_MEAN_N
from sponsio_sim.analysis import plots
from sponsio_sim.analysis.balance import plots as balance_plots
from sponsio_sim.analysis.game import plots as game_plots
from sponsio_sim.analysis.balance.choice import balance
from sponsio_sim.analysis.balance.run import run_balance
from sponsio_sim.analysis.balance.sweep import sweep, lever_table
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import REFERENCE_STRATEGY
from sponsio_sim.analysis.game.exploit import exploit
from sponsio_sim.analysis.findings import (RTP_BAND, exploit_findings, length_findings, rtp_findings,
                                           seat_finding, strategy_findings, stronger_play_finding,
                                           strong_seat_finding, verdicts_under_both)
from sponsio_sim.analysis.odds.query import odds
from sponsio_sim.analysis.balance.recommend import recommend, side_by_side, verdict
from sponsio_sim.analysis.studies import cash_in_study, lead_value
from sponsio_sim.analysis.game.tournament import matrix, tournament
from sponsio_sim.rules import load_rules

# Typical hands: (name, players, hand, talon)
TYPICAL_HANDS = [
    ("balanced", 4, "R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7"),
    ("strong", 4, "R9 R8 B9 B7 G9 G5 Y8 Y2", "R1 B3 G2 Y4"),
    ("weak", 4, "R1 R2 R3 B1 B2 G1 G3 Y1", "R9 B9 G9 Y9"),
    ("long red", 4, "R9 R7 R6 R5 R3 B2 G4 Y1", "R1 B8 G9 Y6"),
    ("3 players", 3, "R9 R6 R2 B8 B4 G7 G3 G1", "R1 B9 G5"),
]


def build_reports(out_dir, seed: int = 1, scale: float = 1.0, threads=None, progress=None,
                  command: str | None = None, with_findings: bool = False):
    """Regenerate every Sponsio report under ``out_dir``; returns the index.html path.

    The page opens with findings generated from the numbers (each linking
    to its evidence), then a table of contents; the rule set is printed in
    full once, in the appendix. With ``with_findings`` returns (path, the
    findings' sentences).
    """
    t0 = time.perf_counter()
    doc = HtmlReport(out_dir)
    rules = load_rules()
    _game_sections(doc, Path(out_dir), seed, scale, threads, progress)
    _odds_section(doc, Path(out_dir), seed, scale, threads, progress)
    _grading_section(doc, Path(out_dir), seed, scale, threads)
    doc.appendix(f"rule set {rules.name}", to_toml(rules.as_dict()))
    path = doc.write(
        "Sponsio: designer report",
        f"Built by `sponsio report` (seed {seed}, scale {scale}) in {time.perf_counter() - t0:.0f} s. Every "
        f"probability carries a 95% Wilson interval and its sample size, every mean a 95% Student-t interval "
        f"(none below n = {MIN_MEAN_N}); tables are also CSV files beside this page. Unless a section "
        f"says otherwise, games use the reference profile {BALANCE_PROFILE}.",
        stamp=stamp_text("sponsio-sim", command, out_dir))
    return (path, [f.text for f in doc.findings]) if with_findings else path


def _odds_section(doc: HtmlReport, out: Path, seed: int, scale: float, threads, progress) -> None:
    """Odds of every bet for a few typical hands."""
    target = min(0.05, 0.01 / max(scale, 1e-3) ** 0.5)
    tables = {}
    for name, players, hand, talon in TYPICAL_HANDS:
        df = odds(hand, talon, players=players, seed=seed, target_ci=target, threads=threads,
                  progress=progress, cache=True)
        tables[f"{name}: {hand} | talon {talon}"] = df
        df.attrs["slug"] = "odds_" + name.replace(" ", "_")
    rules4 = load_rules()
    doc.section(
        "Odds of every bet for typical hands",
        f"{rules4.summary()} (3-player hand: standard-3p). Seat 0 leads and plays the goal policy for the "
        f"row's bet; seats without bets play as trolls (goal policy against it). Each row simulated until "
        f"its 95% CI is narrower than {target:.3f}; n per row in the table. Seed {seed}. {CI_METHOD}. "
        "EV = P x multiplier - stake (coins per 1-coin stake); fair multiplier = 1/P; the black mark on each "
        "bar is the break-even chance 1/multiplier.")
    doc.image("odds_typical_hands", lambda p: plots.odds_panels(
        tables, p, title=f"Best bets by EV for typical hands (goal policy, seed {seed})"))
    for label, df in tables.items():
        doc.note(label)
        doc.table(df.head(10), df.attrs["slug"])
        df.to_csv(out / f"{df.attrs['slug']}_all.csv", index=False)


BALANCE_PROFILE = "reference"   # the reference profile (analysis.game.setup.REFERENCE)
MC_PROFILE = "mc:goal:cash4 x4"   # stronger play the balance verdicts are checked under
MC_GAMES = 2_000                  # its games at scale 1 (about 5 games/s/core with four mc seats)
SWEEPS = ("multiplier.last=2..5", "troll_pay=1..3", "round_bonus=0..4:2")
MATRIX = f"{REFERENCE_STRATEGY}, ev:goal:cash4, ev:goal:never, troll:goal, random:random"  # A vs B for every pair


def _game_sections(doc: HtmlReport, out: Path, seed: int, scale: float, threads, progress) -> None:
    """Game length, seat advantage, balance and recommend, trolls, sweeps,
    matrix, cash-in and lead-token studies; their findings."""
    rules = load_rules()
    n = lambda k: max(int(k * scale), 240)  # noqa: E731
    common = dict(seed=seed, threads=threads, progress=progress)
    fair = 1 / rules.players
    fixed = tournament(BALANCE_PROFILE, n=n(50_000), rotate=False, **common)
    games, hist = fixed.attrs["games"], fixed.attrs["rounds"]
    anchor = doc.section("How long games last and how they end",
                         f"{rules.summary()}. Profile {fixed.attrs['profile']} in fixed seats, n={n(50_000)} games, "
                         f"seed {seed}. {CI_METHOD}. A comeback is a game won by a player who was last (fewest "
                         "coins, ties included) after round 1; a lead change is a round after which none of the "
                         "previous round's richest players is still richest (counted from round 2).")
    for text in length_findings(games, hist):
        doc.finding(text, anchor)
    doc.image("game_length", lambda p: game_plots.rounds_histogram(hist, p, f"Rounds per game, {fixed.attrs['profile']}, "
                                                                   f"n={n(50_000)}, seed {seed}"))
    doc.table(games, "game_length")
    doc.table(hist, "rounds_histogram")
    anchor = doc.section("Seat advantage", f"The same {n(50_000)} games: each seat's win share (a k-way shared win "
                         f"counts 1/k) with its 95% interval; fair share {fair:.2f}. The gap between two seats "
                         "carries a conservative interval (the two half-widths added).")
    doc.finding(seat_finding(fixed, fair), anchor)
    doc.image("seat_advantage", lambda p: plots.win_rate_bars(
        fixed.assign(win=fixed["win_share"], win_low=fixed["share_low"], win_high=fixed["share_high"],
                     label="seat " + fixed["seat"]), "label", p, "Win share by seat (95% CI)", fair=fair,
        ylabel="win share (95% CI)"))
    doc.table(fixed[["seat", "strategy", "games", "win_share", "share_low", "share_high", "coins", "coins_low",
                     "coins_high", "troll_share"]], "seat_advantage")

    b = balance(BALANCE_PROFILE, n=n(50_000), **common)
    note = (f"{rules.summary()}. Profile {b.meta['profile']} (rotated over seats), n={b.meta['n']} games, seed "
            f"{seed}, success model {b.meta['model']}. {CI_METHOD}. RTP = mean payout per coin staked (double "
            f"included), EV per coin = RTP - 1, fair multiplier = multiplier / RTP, volatility index = "
            f"{b.meta['volatility']}.")
    bal_anchor = doc.section("Bet balance: every bet as the strategies place it in full games", note)
    doc.image("balance_ev", lambda p: balance_plots.ev_bars(b.kinds, b.bets, p, b.meta))
    doc.table(b.kinds, "balance_types")
    doc.table(b.bets.sort_values("placed", ascending=False).head(25), "balance_bets_top")
    b.bets.to_csv(out / "balance_bets_all.csv", index=False)
    b.by_seat.to_csv(out / "balance_by_seat.csv", index=False)
    doc.link("balance_bets_all.csv", "Every bet")
    doc.link("balance_by_seat.csv", "By seat position")

    mc_n = max(int(MC_GAMES * scale), 40)
    with Progress(mc_n, "sponsio report: balance under mc", enabled=progress) as bar:
        # one strategy in every seat: fixed seats play the same games as rotated ones and keep the seats apart
        bm = run_balance(rules, MC_PROFILE, mc_n, seed=seed, model=find_model(rules), progress=bar, rotate=False)
    both, text = verdicts_under_both(b.kinds, bm.kinds, "the reference profile", MC_PROFILE)
    anchor = doc.section(
        "Do the verdicts hold under stronger play (mc)?",
        f"{rules.summary()}. The bet balance above (reference profile, n={b.meta['n']} games) beside the same "
        f"under {bm.meta['profile']} (every seat the rollout bettor mc, n={mc_n} games, seed {seed}; mc searches "
        f"each betting action by playing the round out, so it places what wins in play, not what the success "
        f"model rates). Verdict: RTP's 95% interval above or below {RTP_BAND[0]:g}-{RTP_BAND[1]:g} (over-, "
        f"under-paid), inside it (in band), or overlapping an edge (no evidence). {CI_METHOD}.")
    doc.finding(text, anchor)
    doc.table(both, "balance_reference_vs_mc")
    doc.note(f"Seat advantage under stronger play: the same {mc_n} games of {bm.meta['profile']} in fixed seats, "
             f"each seat's win share (95% interval) beside the reference profile's above (n={n(50_000)} games); "
             "the gap between the reference's best and worst seat under both, and its change, carry conservative "
             "intervals (half-widths added).")
    seats_mc = bm.entries[["seat", "strategy", "games", "win_share", "share_low", "share_high", "coins",
                           "coins_low", "coins_high", "troll_share"]]
    doc.table(seats_mc, "seat_advantage_mc")
    doc.finding(strong_seat_finding(fixed, seats_mc, "the reference profile", MC_PROFILE), anchor)

    quick = scale < 0.5   # a quick look searches two types' multipliers, not all five
    rec = recommend(BALANCE_PROFILE, n=n(20_000), screen_n=n(2_000), only=("last", "nines") if quick else None,
                    seed=seed, threads=threads, progress=progress)
    doc.section(
        "Recommended multipliers (recommend)",
        f"{rec.meta['rules']}. {rec.meta['tables']:,} tables of integer multipliers searched against the "
        f"choice-balance criterion ({rec.meta['bands']}); players re-decide under each table, the profile "
        f"held; finalists on n={rec.meta['n']} games, seed {seed}. {CI_METHOD}. " + " ".join(verdict(rec)[:1]))
    doc.table(side_by_side(rec), "recommend")
    for text in rtp_findings(b.kinds, None):
        doc.finding(text, bal_anchor)

    doc.section("Troll economics", note + " A troll is a seat holding no bet when betting ends; troll vs bettor: "
                "seat 0 plays a troll with the profile's play and cash-in (or the profile's strategy) against the "
                "same other seats.")
    doc.table(b.trolls, "trolls")
    doc.table(b.troll_pay, "troll_pay_distribution")
    for r in sweep(BALANCE_PROFILE, players=rules.players, levers=SWEEPS, n=n(20_000), seed=seed, threads=threads,
                   progress=progress):
        key = r.lever.key
        slug_ = "sweep_" + key.replace(".", "_")
        doc.section(f"Sweep: {key}", f"{note.split('. Profile')[0]}; {key} set to each value in turn; "
                    f"n={n(20_000)} games per value, the same games as the standard rule set (common random "
                    "numbers); effect = paired difference against the standard value (* = its 95% interval "
                    f"excludes 0). Players refitted: {r.refit}.")
        doc.image(slug_, lambda p, r=r: balance_plots.sweep_panels(r, p, {"profile": r.profile, "n": n(20_000),
                                                                          "seed": seed}))
        doc.table(lever_table(r), slug_)
    ex = exploit(BALANCE_PROFILE, n=n(20_000), seed=seed, threads=threads, progress=progress)
    ex_anchor = doc.section(
        "Is the reference profile an equilibrium? (exploit, restricted play)",
        f"{rules.summary()}. Entry 0 of {ex.attrs['profile']} deviates to each strategy of the default family "
        f"(ev thresholds, troll, every cash-in, restricted play without one bet type) while the others keep the "
        f"profile, seats rotated; every game is played with and without the deviation from the same random "
        f"numbers; n={ex.attrs['n']} games per deviation, seed {seed}; gain = paired difference of win share "
        f"(95% interval). A without=T row is the value of bet type T to a player: the win share lost by never "
        f"placing it. Verdict: {ex.attrs['verdict']}.")
    doc.table(ex, "exploit")
    for text in exploit_findings(ex):
        doc.finding(text, ex_anchor)
    exm = exploit(BALANCE_PROFILE, n=mc_n, seed=seed, family="mc", threads=threads, progress=progress)
    doc.note(f"Against stronger play: entry 0 deviates to the rollout bettor mc (R = 100), the same pairing, "
             f"n={exm.attrs['n']} games. Verdict: {exm.attrs['verdict']}.")
    doc.table(exm, "exploit_mc")
    doc.finding(stronger_play_finding(exm), ex_anchor)
    mx = matrix(MATRIX, n=n(10_000), cache=True, **common)
    mx_anchor = doc.section("Strategy matrix", f"{rules.summary()}. Win rate of one seat playing A (rows) against "
                            f"all other seats playing B (columns), A rotating over the seats; n={mx['games'].iloc[0]} "
                            f"games per pair, seed {seed}; fair share {fair:.2f}. {CI_METHOD}.")
    for text in strategy_findings(mx, REFERENCE_STRATEGY, fair):
        doc.finding(text, mx_anchor)
    doc.image("matrix", lambda p: game_plots.matrix_heatmap(mx, p, fair, f"win rate of A vs B x{rules.players - 1}"))
    doc.table(mx, "matrix")
    cash = cash_in_study(rules, "ev:goal:cash4", n(20_000), seed=seed, progress=progress)
    doc.section("Streak track: when to cash in", f"{rules.summary()}; track values {list(rules.track_value)}. "
                f"Seat 0 plays ev:goal cashing in at position >= K (or never) against ev:goal:cash4 x"
                f"{rules.players - 1}, rotated; n={n(20_000)} games per K, seed {seed}. {CI_METHOD}.")
    doc.image("cash_in", lambda p: plots.win_rate_bars(cash, "strategy", p, "Win rate by cash-in threshold",
                                                       fair=fair))
    doc.table(cash, "cash_in")
    lead = lead_value(rules, max(int(40 * scale), 4), seed=seed, threads=threads)
    doc.section("What leading the first trick is worth (the lead token)",
                f"{rules.summary()}. {len(lead)} random hands (seed {seed}); for each, the best bet by EV when "
                "the hand's seat leads, and the same bet when the next seat leads (goal policy, trolls against; "
                "each rate to a 95% CI narrower than 0.02). Paired differences: mean +/- 1.96 SE.")
    doc.table(lead.attrs["summary"], "lead_value_summary")
    doc.table(lead, "lead_value_hands")


def _grading_section(doc: HtmlReport, out: Path, seed: int, scale: float, threads) -> None:
    """The goal policy graded against PIMC and the DD brackets (its own page under grading/)."""
    from sponsio_sim.analysis.odds.grading import grade, write_report

    hands = grade(max(int(1000 * scale), 20), seed=seed, threads=threads, progress=None)
    res = write_report(hands, out / "grading")
    doc.section("Grading the goal policy against PIMC and the double-dummy brackets",
                f"{hands.attrs.get('rules', '')}. {len(hands)} random hands, seed {seed}: the bet goal would "
                "pick, won by random, goal and pimc play, beside the worst and best double-dummy cases. "
                f"{CI_METHOD}. Details, per-hand outcomes and plot: grading/index.html.")
    doc.table(res["table"], "grading_summary")
    doc.link("grading/index.html", "Full grading report")
