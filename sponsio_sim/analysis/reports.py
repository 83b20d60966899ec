"""`reports/sponsio/`: the designer report, regenerated from scratch.

``build_reports(out_dir, seed=1, scale=1.0)`` writes ``index.html`` and CSV
and PNG files beside it. The page opens with a plain-words summary built
from the findings that hold under all three player models of the robustness
ladder (``analysis.ladder``), then every finding ranked by how far it lies
from its band (each with the lever that moves it most, from the sweeps), then
the evidence: the reference field and how far its best known exploit gains,
the ladder, the choice balance under the field, the recommended multiplier
tables, the lever-to-effect tables, the same ladder for 3 players and the odds
of typical hands; the rule set once, in the appendix. The grading of the goal
policy (how good the players are, not the rules) is on ``engine.html`` beside
it, the two pages linked both ways. ``scale`` multiplies every sample size (0.05 for a quick look).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from tabletop_mc import firstscreen
from tabletop_mc.htmlreport import HtmlReport, stamp_text, write_pages
from tabletop_mc.ladder import publish, table as ladder_table
from tabletop_mc.stats import CI_METHOD, MIN_MEAN_N
from tabletop_mc.verdicts import GLOSSARY, HEALTHY, fmt_ci
from sponsio_sim.analysis import firstpage, ladder, plots, views
from sponsio_sim.analysis.balance import plots as balance_plots
from sponsio_sim.analysis.balance.choice import balance_tables
from sponsio_sim.analysis.balance.criteria import Bands
from sponsio_sim.analysis.balance.recommend import Stages, recommend, side_by_side, verdict as rec_verdict
from sponsio_sim.analysis.balance.sweep import change, headline, lever_table, sweep
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.meta import best_responses
from sponsio_sim.analysis.game.setup import parse_profile, parse_strategy
from sponsio_sim.analysis.odds.query import Query, odds
from sponsio_sim.analysis.settings import Run
from sponsio_sim.rules import load_rules

# Typical hands: (name, players, hand, talon)
TYPICAL_HANDS = [
    ("balanced", 4, "R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7"),
    ("strong", 4, "R9 R8 B9 B7 G9 G5 Y8 Y2", "R1 B3 G2 Y4"),
    ("weak", 4, "R1 R2 R3 B1 B2 G1 G3 Y1", "R9 B9 G9 Y9"),
    ("long red", 4, "R9 R7 R6 R5 R3 B2 G4 Y1", "R1 B8 G9 Y6"),
    ("3 players", 3, "R9 R6 R2 B8 B4 G7 G3 G1", "R1 B9 G5"),
]
GAMES = 50_000            # games of the field and of the best single profile (and of each exploit)
SWEEP_GAMES = 20_000      # games per lever value
RECOMMEND_GAMES = 20_000  # recommend's final games per table
GAMES_FLOOR = 100   # the fewest games of any other run (a smoke build: every mean's CI above MIN_MEAN_N)
MC_FLOOR = MIN_MEAN_N   # the fewest games of a run with mc seats (a mean's CI needs MIN_MEAN_N)
ADAPT_GAMES = 2_000   # games per profile of each re-solved field (the players who adapt to a lever value)
ADAPT_FLOOR = 30   # a smoke build's re-solved fields (each profile's mean over at least MIN_MEAN_N games)
# the sweep measure that moves each ladder finding (the restricted-play values move with their multiplier)
SWEEP_MEASURE = {"seat 0 (acts first) against the fair share": "seat 0 - fair share",
                 "the largest gap between two seats": "largest seat gap", "rounds per game": "rounds per game",
                 "troll share of seat-rounds": "troll share"}


def build_reports(out_dir, seed: int = 1, scale: float = 1.0, threads=None, progress=None,
                  command: str | None = None, with_findings: bool = False, bands: dict | None = None,
                  mc_scale: float | None = None):
    """Regenerate the Sponsio report under ``out_dir``; returns the index.html path (with
    ``with_findings`` also the findings' sentences); ``bands``: first-screen bands by measure name;
    ``mc_scale``: the strong-play rung's scale (every seat ``mc``, ``ladder.MC_GAMES`` at 1) when
    it is not ``scale``: that rung is the one the verdicts lean on most, and at 5,000 games it costs
    minutes, not the hours every sample at full scale would."""
    t0 = time.perf_counter()
    for p in (4, 3):   # every band checked before any work
        firstpage.bands_for(load_rules(None, p), bands)
    out = Path(out_dir)
    doc = HtmlReport(out)
    rules = load_rules()
    # sample sizes scale with ``scale``, above a floor (GAMES_FLOOR; the runs with mc seats, a thousand
    # times slower, MC_FLOOR): the floors only shape a smoke build (scale below 0.05; 0.05 and up are above both)
    n = lambda k, floor=GAMES_FLOOR, at=scale: max(int(k * at), floor)  # noqa: E731
    run = Run(seed=seed, threads=threads, progress=progress, cache=True)
    adapt_games = n(ADAPT_GAMES, ADAPT_FLOOR)
    sweeps = sweep("reference", players=[4, 3], n=n(SWEEP_GAMES), run=run, adapt_games=adapt_games)
    field_anchor, exploit_line, gain4 = _field_section(doc, rules, n, seed, progress)
    n_mc = n(ladder.MC_GAMES, MC_FLOOR)
    gains = {4: gain4, 3: firstpage.mc_gain(load_rules(None, 3), n_mc, seed + 2)}
    screens = [firstpage.screen(sweeps, p, n=n(SWEEP_GAMES), adapt_games=adapt_games, seed=seed, gain=gains[p],
                                n_mc=n_mc, bands=bands) for p in (4, 3)]
    doc.first_screen(firstscreen.page(screens))
    doc.csv(firstscreen.frame(screens), "first_screen")
    views.add_views(doc, lambda p: load_rules(None, p), n(GAMES), n(views.VIEW_GAMES), seed, progress)
    summary = []
    n_rung = n(ladder.MC_GAMES, MC_FLOOR, scale if mc_scale is None else mc_scale)
    for players in (4, 3):
        summary += _ladder_sections(doc, out, load_rules(None, players), n, n_rung, seed, progress, sweeps)
    _recommend_section(doc, n, run, adapt_games)
    _sweep_sections(doc, out, sweeps, n, seed)
    views.add_lever_curves(doc, sweeps, n(SWEEP_GAMES), seed)
    _odds_section(doc, seed, scale, threads, progress)
    engine = HtmlReport(out, page="engine.html")
    _grading_section(engine, out, seed, scale, threads)
    field = parse_profile("reference", rules)
    text = (f"Sponsio with the printed multipliers, played by the reference field, the equilibrium of a "
            f"population of strategies ({field.text()}; how beatable it is: the first screen's players' strength): "
            f"{exploit_line} "
            + (" ".join(summary) if summary else "No finding holds under all three player models; each section "
               "gives the numbers.")
            + f" Built in {time.perf_counter() - t0:.0f} s.")
    path = write_pages(
        doc, engine, game="Sponsio", rules=rules, glossary=GLOSSARY, stamp=stamp_text("sponsio-sim", command, out_dir),
        engine_about="the goal policy graded against PIMC and the double-dummy brackets",
        engine_note=f"Seed {seed}, scale {scale}. {CI_METHOD}.",
        title="Sponsio: designer report",
        intro=f"Built by `sponsio report` (seed {seed}, scale {scale}). Every probability carries a 95% Wilson "
              f"interval and its sample size, every mean a 95% Student-t interval (none below n = {MIN_MEAN_N}); "
              f"tables are also CSV files beside this page. Unless a heading says otherwise, the players are the "
              f"reference field and the rules are {rules.name} (appendix).",
        summary=text)
    return (path, [f.text for f in doc.findings]) if with_findings else path


def _field_section(doc: HtmlReport, rules, n, seed: int, progress) -> tuple[str, str]:
    """The reference field: its mixture and regrets, and its best known exploits measured here."""
    field = parse_profile("reference", rules)
    f = field.field
    model = find_model(rules, variant="reference")
    mix = pd.DataFrame({"member": f.members, "weight": f.weights, "weight_low": f.weights_low or np.nan,
                        "weight_high": f.weights_high or np.nan, "regret": f.regret or np.nan,
                        "regret_high": f.regret_high or np.nan})
    rows = []
    br = best_responses(rules, field, model, n=n(GAMES // 2), seed=seed + 1)
    top = br.iloc[0]
    rows.append({"exploit": top["strategy"], "how": f"best of {len(br)} PSRO deviations (ev thresholds, cash-in, "
                 "troll, temperatures)", "games": int(top["games"]), "gain": top["gain"], "gain_low": top["gain_low"],
                 "gain_high": top["gain_high"]})
    heaviest = field[int(np.argmax(f.weights))]
    mc = parse_strategy(f"mc:goal:{heaviest.cash_text if heaviest.cash is not None else 'cash5'}", rules)
    g = firstpage.mc_gain(rules, n(ladder.MC_GAMES, MC_FLOOR), seed + 2)
    rows.append({"exploit": mc.text, "how": "rollout search, opponents drawn from the field in its rollouts",
                 "games": n(ladder.MC_GAMES, MC_FLOOR), "gain": g[0], "gain_low": g[1], "gain_high": g[2]})
    ex = pd.DataFrame(rows)
    best = ex.loc[ex["gain_low"].idxmax()]
    line = (f"its best known exploit, {best['exploit']}, gains {fmt_ci(best['gain'], best['gain_low'], best['gain_high'], sign=True)}"
            f" of win share against it (n = {int(best['games']):,} paired games; fair share {1 / rules.players:.2f}).")
    anchor = doc.section(
        "The players: the reference field",
        f"{rules.summary()}. Each game, every seat draws its strategy from the mixture below, the symmetric "
        f"equilibrium of `sponsio meta` over the population (made by: {f.command}; {f.games_per_profile:,} games "
        f"per profile, seed {f.seed}). Regret = a member's gain over the mixture's value when it plays one seat "
        f"against the field (bootstrap 95 % upper bound); a member of weight 0 gains nothing. Exploits: one seat "
        f"(rotating) plays the deviation, the others draw from the field, paired with the field's own games, "
        f"seed {seed}. {CI_METHOD}.")
    doc.table(mix, "field_mixture", key=True)
    doc.table(ex, "field_exploits", key=True)
    doc.finding(f"The reference field is {field.text()}; {line}", anchor, weight=0.0, group="The players")
    return anchor, line, g


def _lever(finding: str, players: int, sweeps) -> tuple[str, float]:
    """The lever whose swept range moves the finding's measure most (moved only), and by how much."""
    kind = finding.split(":")[0]
    measure = SWEEP_MEASURE.get(finding, f"{kind} share of bets" if "share of the bets" in finding else None)
    if measure is None:
        return (f"the {kind} multiplier (recommend)", 0.0) if "restricted-play" in finding else ("", 0.0)
    best, size = "", 0.0
    for r in sweeps:
        if r.players != players:
            continue
        lo, hi = min(r.runs), max(r.runs)
        c = change(r, hi, lo, measure)
        if c["moved"] and abs(c["effect"]) > size:
            size = abs(c["effect"])
            best = (f"{r.lever.key} {lo:g} -> {hi:g} moves it "
                    f"{fmt_ci(c['effect'], c['effect_low'], c['effect_high'], sign=True)}")
    return best, size


def _ladder_sections(doc: HtmlReport, out: Path, rules, n, n_rung: int, seed: int, progress, sweeps) -> list[str]:
    """The ladder (and, for 4 players, the choice balance under the field), its every-seat-mc rung
    ``n_rung`` games; returns the summary's sentences of the findings that hold."""
    profiles = ladder.rungs(rules)
    choices = ladder.measure(rules, profiles, n(GAMES), n_rung, seed=seed, progress=progress)
    found = ladder.findings(rules, choices)
    p = rules.players
    anchor = doc.section(
        f"Does it hold under other strong play? ({p} players)",
        f"{rules.summary()}. Every headline measure under three player models: {ladder.describe(rules, profiles)}; "
        f"n = {n(GAMES):,} games ({n_rung:,} with every seat mc), seed {seed}, every seat's "
        f"restricted-play and trolling plays paired with its own. A finding holds when all three give the same "
        f"verdict against its band ({Bands().for_rules(rules).text(rules.bets)}; seat 0 within 1 point of the "
        f"fair share; the largest seat gap within 2 points); it depends on the players only when two give "
        f"different decided verdicts, it is underpowered when an interval is wider than the band (glossary). "
        f"{CI_METHOD}.")
    doc.table(ladder_table(found, list(profiles)), f"ladder_{p}p", fold=40)
    levers = {f.name: _lever(f.name, p, sweeps)[0] for f in found}

    def dist(f):
        e = f.estimates.get(ladder.FIELD)
        lo, hi = f.band
        return 0.0 if e is None else max(lo - e.value, e.value - hi, 0.0) / max(hi - lo, 0.01)
    publish(doc, found, list(profiles), anchor, f"{p} players", weight=lambda f: dist(f) + (1.0 if f.holds else 0.0),
            lever=lambda f: levers[f.name])
    said = []
    for f in found:
        e = f.estimates.get(ladder.FIELD)
        if e is not None and f.holds and not f.identity and f.word != HEALTHY:
            said.append(f"With {p} players, {f.name}: {f.word} under every model "
                        f"({fmt_ci(e.value, e.low, e.high)} under the field)"
                        + (f"; {levers[f.name]}" if levers[f.name] else "") + ".")
    if p == 4:
        _balance_section(doc, out, rules, choices[ladder.FIELD], seed)
    return said[:4]


def _balance_section(doc: HtmlReport, out: Path, rules, ch, seed: int) -> None:
    """The choice balance under the reference field (the ladder's field run)."""
    tables = balance_tables(ch)
    doc.section("Choice balance under the reference field",
                f"{rules.summary()}. The field's own {ch.run.n:,} games (seed {seed}) and its heaviest betting "
                f"member's restricted-play and trolling plays at the focal seat. Share of bets: the type's share of "
                "all bets placed; restricted-play value: the win share that player loses when it may never place "
                "the type; RTP stays a column, not a target (players place what they expect to win). "
                f"{CI_METHOD}.")
    doc.table(tables["bet types"], "balance_types", key=True,
              columns=["type", "multiplier", "placed", "share", "share_low", "share_high", "rp_value", "rp_value_low",
                       "rp_value_high", "hit", "ev_per_coin", "rtp", "value_verdict", "share_verdict"])
    doc.table(tables["bet families"], "balance_families")
    doc.table(tables["trolls"], "balance_trolls", key=True)
    doc.table(tables["seats"], "balance_seats", key=True)
    doc.table(tables["games"], "balance_games", key=True)
    flow = tables["coin flow"]
    doc.image("coin_flow", lambda path: balance_plots.coin_flow_chart(flow, path, {"profile": ch.profile.text(),
                                                                                  "n": ch.run.n, "seed": seed}))
    doc.table(flow, "balance_coin_flow")
    doc.table(tables["bets"], "balance_bets")


def _recommend_section(doc: HtmlReport, n, run: Run, adapt_games: int) -> None:
    for players in (4, 3):
        rec = recommend("reference", players=players, run=run,
                        stages=Stages(screen_n=max(n(RECOMMEND_GAMES) // 8, MIN_MEAN_N), n=n(RECOMMEND_GAMES),
                                      adapt=adapt_games))
        adapted = "; ".join(f"{t}: {w}" for t, w in rec.meta["adapted"].items())
        doc.section(
            f"Recommended multiplier tables ({players} players)",
            f"Integer multipliers 2..5 per type (the game prints 2x to 5x), the reference field re-deciding under "
            f"each table (its success model held; its mixture held in the screen and re-solved for each "
            f"finalist's rules and the current table's, {adapt_games:,} games per profile: {adapted}), ranked by "
            f"how far the measures lie outside the choice-balance bands "
            f"({Bands().text(load_rules(None, players).bets)}). " + " ".join(rec_verdict(rec)))
        doc.table(side_by_side(rec), f"recommend_{players}p", key=True, fold=40)


def _sweep_sections(doc: HtmlReport, out: Path, sweeps, n, seed: int) -> None:
    head = headline(sweeps)
    doc.section("Levers and their effects",
                f"Each rule number swept over its range with the reference field (n = {n(SWEEP_GAMES):,} games per "
                f"value, seed {seed}); the change from the lowest to the highest value with its paired 95 % "
                "interval, for the measures some value moved (the interval excludes 0). Per lever, every value in "
                "the folded tables and the CSV; the players' success model is the field's (the deal is unchanged), and the field's weights are re-solved for every value's rules (players who adapt: each lever note says how).")
    doc.table(head, "levers_headline", key=True, fold=30)
    for r in sweeps:
        name = f"lever_{r.players}p_{r.lever.key.replace('.', '_')}"
        doc.note(f"{r.players} players, {r.lever.key} ({'paired' if r.paired else 'unpaired'}; refitted: {r.refit})")
        doc.table(lever_table(r), name, fold=0)


def _odds_section(doc: HtmlReport, seed: int, scale: float, threads, progress) -> None:
    """Odds of every bet for a few typical hands."""
    target = min(0.05, 0.01 / max(scale, 1e-3) ** 0.5)
    tables, slugs = {}, {}
    for name, players, hand, talon in TYPICAL_HANDS:
        label = f"{name}: {hand} | talon {talon}"
        tables[label] = odds(Query(hand, talon), target_ci=target, players=players,
                             run=Run(seed=seed, threads=threads, progress=progress, cache=True)).table
        slugs[label] = "odds_" + name.replace(" ", "_")
    rules4 = load_rules()
    doc.section(
        "Odds of every bet for typical hands",
        f"Rules {rules4.name} (3-player hand: standard-3p). Seat 0 leads and plays the goal policy for the row's "
        f"bet; seats without bets play as trolls against it. Each row simulated until its 95% CI is narrower than "
        f"{target:.3f}; n per row in the table. Seed {seed}. {CI_METHOD}. EV = P x multiplier - stake (coins per "
        "1-coin stake); fair multiplier = 1/P. The plot shows each hand's best bets by EV as bars of EV (the "
        "black line at 0 is break-even), their P with its interval beside each bar.")
    doc.image("odds_typical_hands", lambda p: plots.odds_panels(
        tables, p, title=f"Best bets by EV for typical hands (goal policy, seed {seed})"))
    for label, df in tables.items():
        doc.note(label)
        doc.table(df, slugs[label], fold=8)


def _grading_section(doc: HtmlReport, out: Path, seed: int, scale: float, threads) -> None:
    """The goal policy graded against PIMC and the DD brackets (its own page under grading/)."""
    from sponsio_sim.analysis.odds.grading import grade, write_report

    graded = grade(max(int(1000 * scale), 20), seed=seed, threads=threads, progress=None)
    res = write_report(graded, doc.subfolder("grading"))
    doc.section("Grading the goal policy against PIMC and the double-dummy brackets",
                f"{graded.rules}. {len(graded.hands)} random hands, seed {seed}: the bet goal would "
                "pick, won by random, goal and pimc play, beside the worst and best double-dummy cases. "
                f"{CI_METHOD}. Details, per-hand outcomes and plot: grading/index.html.")
    doc.table(res["table"], "grading_summary")
    doc.link("grading/index.html", "Full grading report")
