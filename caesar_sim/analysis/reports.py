"""`reports/caesar/`: a self-contained HTML report with tables, PNG plots and CSVs.

``build_reports(out_dir, seed=1, scale=1.0)`` regenerates everything; ``scale``
multiplies every sample size (0.05 for a smoke test). The players are the reference
field (``caesar_sim/fields/reference-<P>p.json``); every headline finding is checked under
two more player models (``analysis.robust``) and only the findings that hold under all
three open the page.
"""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from tabletop_mc.htmlreport import HtmlReport, stamp_text
from tabletop_mc.ladder import sentence, table as ladder_table
from tabletop_mc.rulefile import to_toml
from tabletop_mc.stats import CI_METHOD
from caesar_sim import weights as WT
from caesar_sim.analysis import plots
from caesar_sim.analysis.bids import NET_NOTE, bid_table
from caesar_sim.analysis.compare import changed_summary, compare
from caesar_sim.analysis.exploit import WEIGHT_STEP
from caesar_sim.analysis.robust import MC, MIN_MC_GAMES, findings as ladder_findings, run_ladder
from caesar_sim.analysis.run import run_games
from caesar_sim.analysis.sweep import sweep
from caesar_sim.analysis.tables import seat_table, win_table
from caesar_sim.fieldplay import field_play
from caesar_sim.profile import REFERENCE
from caesar_sim.rules import load_rules

SWEEP = ["merchant.coins=[0,0,0,1,1,2,2,3];[0,1,1,2,2,3,3,4]", "favour.gold_coins=1;3", "favour.boost_value=2;5",
         "tickets.coins=[1,1,1,2,2,3]", "tickets_per_day=3;5"]
# strength matches, 4 players rotated: one seat of the first policy against three of the second
MATCHES = (("tuned", "mc:8"), ("value", "mc:8"), ("mc:8", "tuned"), ("mc:8:value", "value"), ("tuned", "value"),
           ("mc:8", "mc:8:value"), ("distilled", "tuned"), ("mc:8", "distilled"))
FORMER = "tuned x4"   # the reference profile before the field (issue 34)


def _weights_note() -> str:
    lines = []
    for players in (3, 4, 5):
        t, d = WT.shipped(players)["meta"], WT.shipped(players, "distilled")["meta"]
        lines.append(f"{players} players: tuned by `{t['command']}`, distilled by `{d['command']}`")
    return "Shipped weights: " + "; ".join(lines) + "."


def field_sentence(players: int, ex: pd.DataFrame) -> str:
    """What the reference field is, and how far its best known exploit gains (from ``exploit``'s table)."""
    play = field_play(REFERENCE, players)
    key = "gain" if ex["gain_low"].isna().all() else "gain_low"   # tiny runs (n < 30) have no intervals
    best = ex.loc[ex[key].idxmax()]
    return (f"The reference field ({players} players) draws every seat's strategy per game from the equilibrium "
            f"mixture {play.mixture()} of the meta-game over {', '.join(play.field.members)} (`caesar meta`); "
            f"its best known exploit, '{best['deviation']}', gains {best['gain']:+.3f} "
            f"[{best['gain_low']:+.3f}, {best['gain_high']:+.3f}] win share (n = {int(best['n']):,} paired games).")


def _field_section(doc: HtmlReport, out: Path) -> str:
    """The meta-game behind each shipped field: members, weights and regrets with CIs, the oracle's record."""
    rows, oracle = [], []
    for players in (3, 4, 5):
        f = field_play(REFERENCE, players).field
        for i, m in enumerate(f.members):
            rows.append({"players": players, "member": m, "weight": f.weights[i], "weight_low": f.weights_low[i],
                         "weight_high": f.weights_high[i], "regret": f.regret[i], "regret_high": f.regret_high[i]})
        for r in f.notes.get("oracle", []):
            oracle.append({"players": players, **{k: v for k, v in r.items() if k != "seed"}})
    f4 = field_play(REFERENCE, 4).field
    anchor = doc.section("The reference field: the meta-game's equilibrium",
                         "Each player count's shipped field (caesar_sim/fields/reference-<P>p.json) is the symmetric "
                         "equilibrium of the meta-game over its population: every profile played "
                         f"{f4.games_per_profile:,} games (seats rotated, common random numbers), replicator dynamics "
                         "from several starts, weights and regrets (a member's gain over the mixture's value) with "
                         "bootstrap 95% intervals; PSRO rounds added the best responses that gained more than 0.01. "
                         f"Made by `{f4.command}`. mc is the auditor, not a member (one mc seat plays a few hundred "
                         "games/s/core; the field must play 5,000).")
    doc.table(pd.DataFrame(rows), "field_members")
    if oracle:
        doc.table(pd.DataFrame(oracle), "field_oracle")
    return anchor


def build_reports(out_dir, seed: int = 1, scale: float = 1.0, threads=None, progress=None,
                  command: str | None = None, with_findings: bool = False):
    """Regenerate every Circus Maximus report under ``out_dir``; returns the index.html path
    (with ``with_findings``: the path and the findings' sentences). The page opens with the findings
    that hold under every player model of the robustness ladder, each linking to its evidence."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    n = lambda k: max(int(k * scale), 20)  # noqa: E731
    rules = load_rules()
    t0 = time.perf_counter()
    doc = HtmlReport(out)
    common = dict(seed=seed, threads=threads, progress=progress)
    ref = REFERENCE
    play4 = field_play(ref, 4)

    runs = run_ladder(n(20000), n(MIN_MC_GAMES), **common)
    sim = runs.sims[(4, "reference field")]
    doc.section("The reference field: win rates and scores (4 players)",
                f"The players are the reference field: every seat's strategy drawn per game from {play4.mixture()}; "
                f"`simulate`, `bids`, `sweep`, `exploit` and this report use it unless told otherwise. "
                f"{_weights_note()} {sim.header()}. Win rates per member over the seat-games it was drawn for; "
                "win shares split ties.")
    doc.table(sim.tables["wins"], "wins_4p")
    doc.image("scores_4p", lambda p: plots.score_histogram([(lb, x) for lb, x, _ in sim.batch.by_label()], p,
                                                           f"final coins, reference field, n={sim.batch.n}, "
                                                           f"seed {seed}"))
    _field_section(doc, out)
    doc.section("Favours, start card, unclaimed items, short decks, score parts (same games)",
                "value_per_day = paired mean change of seat 0's coins per day when seat 0 gets one extra favour "
                "of the type every morning (same seed, common random numbers); win_rate_change likewise. "
                "Unclaimed = items left on a display after its phase. Short decks = days on which a deck ran out "
                "(fixed by the decks, whatever the players do).")
    for key in ("favours", "start_card", "unclaimed", "short_decks", "score_parts"):
        doc.table(sim.tables[key], f"{key}_4p")

    cmp, _, _ = compare(4, FORMER, ref, n(20000), **common)
    doc.section(f"The former reference profile ({FORMER}) against the reference field: which verdicts change?",
                f"Both play n={n(20000)} games (seed {seed}; the profile not rotated, the field's seats drawn) and "
                f"the favour-gift runs. changed = the two 95% intervals do not overlap. {changed_summary(cmp)}.")
    doc.table(cmp[cmp["measure"] != "venue-bid value (net coins)"], "former_vs_field")
    doc.table(cmp[cmp["measure"] == "venue-bid value (net coins)"], "former_vs_field_bids")

    frames = []
    for (players, rung), s in runs.sims.items():
        frames.append(seat_table(s.batch).assign(players=players, model=rung, profile=runs.names[players][rung]))
    seats = pd.concat(frames)
    doc.section("Start-player advantage by player count, under three player models",
                f"{rules.summary()}; seat {rules.first_start_seat} starts day 1; the reference field and the best "
                f"fast profile n={n(20000)} games, `{MC}` in every seat n={n(MIN_MC_GAMES)}, seed {seed}; "
                f"{CI_METHOD}.")
    doc.table(seats[["players", "model", "profile", *[c for c in seats.columns if c not in
                                                      ("players", "model", "profile")]]], "seats_by_players")

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

    ex, line = runs.exploits["reference field"]
    ex_anchor = doc.section("Exploitability of the reference field",
                            f"One seat (seat g % 4 of game g) deviates, the others drawn from the field as in the "
                            f"undeviated games: other policies, `mc:8` rolling out against the field (the oracle), "
                            f"every member, restricted players (the field's heaviest member that never takes an item "
                            f"type or never bids at a location) and, for a value/tuned member, each tunable weight "
                            f"pushed by {WEIGHT_STEP:g} of its range; n={n(20000)} paired games each, "
                            f"seed {seed}; gain = paired win-share difference per game, mean +/- 1.96 SE. {line}.")
    doc.table(ex, "exploit_4p")

    b = sim.batch
    bt = bid_table(b, by_seat=True)
    pooled = bid_table(b, by_seat=False)
    doc.section("Venue-bid values (reference field)",
                f"{rules.summary()}; reference field, 4 players; n={b.n} games, seed {seed}; {CI_METHOD}. "
                f"{NET_NOTE}. Seat order 0 = the phase's start player. Heatmap pooled over seat order and members.")
    doc.image("bids_heatmap", lambda p: plots.bid_heatmap(bid_table(b, by_seat=False, by_policy=False), p,
                                                          f"venue-bid values, reference field, n={b.n}"))
    doc.table(pooled, "bids_pooled")
    bt.to_csv(out / "bids_by_seat.csv", index=False)
    doc.link("bids_by_seat.csv", "By seat order")

    table, summary = sweep(4, ref, n(20000), SWEEP, rotate=False, **common)
    doc.section("Sweep over [D] numbers (seat balance and score level, reference field)",
                f"base {summary}; reference field, each row a seat (seat 0 starts day 1; the strategies drawn per "
                f"game, the same draws and deals in every variant); n={n(20000)} games per variant, seed {seed}; "
                f"{CI_METHOD}; moved = a 95% CI of d_win or d_score excludes 0.")
    doc.image("sweep", lambda p: plots.sweep_plot(table, p, "win rate by seat and rule variant, reference field"))
    doc.table(table, "sweep")

    found = ladder_findings(runs)
    rung_names = list(runs.names[4])
    ladder_anchor = doc.section("Robustness ladder: do the findings hold under other strong play?",
                                "Each headline finding under three player models: " + "; ".join(
                                    f"{p} players: " + ", ".join(f"{r} = {prof}" for r, prof in runs.names[p].items())
                                    for p in (3, 4, 5)) + ". A finding holds when every model puts its 95% interval "
                                "on the same side of the neutral value; only those open this page.")
    doc.table(ladder_table(found, rung_names), "ladder")
    doc.finding(field_sentence(4, ex), ex_anchor)
    for f in found:
        if f.holds:
            doc.finding(sentence(f, rung_names), ladder_anchor)

    doc.appendix(f"rule set {rules.name}", to_toml(rules.as_dict()))
    path = doc.write("Circus Maximus: strategy and rule analysis",
                     f"Built by `caesar report` (seed {seed}, scale {scale}) in "
                     f"{time.perf_counter() - t0:.0f} s. Rule set: {rules.summary()}. Players: the reference field "
                     "(strategies drawn per game from the meta-game's equilibrium mixture). Policies: random (uniform "
                     "legal action), greedy (cheapest card that wins a wanted item), value (expected coins vs. card "
                     "coins and later needs, hand-set weights), tuned (value's features, weights tuned by `caesar "
                     "tune`), distilled (a linear score fitted to mc's choices by `caesar distill`), :temp=T (softmax "
                     "play at temperature T coins), mc (flat Monte Carlo over tuned rollouts; mc:K:value over value "
                     f"rollouts). Games always last {rules.days} days. CI method: " + CI_METHOD + ".",
                     stamp=stamp_text("sponsio-sim", command, out))
    return (path, [f.text for f in doc.findings]) if with_findings else path
