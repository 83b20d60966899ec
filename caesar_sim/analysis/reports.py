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

from tabletop_mc import firstscreen
from tabletop_mc.htmlreport import HtmlReport, stamp_text, write_pages
from tabletop_mc.verdicts import GLOSSARY
from tabletop_mc.ladder import publish, table as ladder_table
from tabletop_mc.stats import CI_METHOD
from caesar_sim.analysis import firstpage, plots, views
from caesar_sim.analysis.game.bids import NET_NOTE, bid_table
from caesar_sim.analysis.game.compare import changed_summary, verdict_table
from caesar_sim.analysis.game.exploit import WEIGHT_STEP
from caesar_sim.analysis.balance.levers import REPORT_LEVERS, effects_table, headline, lever_effects, reading_table
from caesar_sim.analysis.report_parts import (field_section, field_sentence, named_seats, seat_name, summary, weights_note)
from caesar_sim.analysis.robust import MC, MIN_MC_GAMES, findings as ladder_findings, ranked, run_ladder, shown
from caesar_sim.analysis.game.runs import RunSettings, run_games
from caesar_sim.analysis.game.simulation import seat_table, simulate, win_table
from caesar_sim.fieldplay import field_play
from caesar_sim.profile import REFERENCE
from caesar_sim.rules import load_rules

SWEEP = list(REPORT_LEVERS)
# strength matches, 4 players rotated: one seat of the first policy against three of the second
MATCHES = (("tuned", "mc:8"), ("value", "mc:8"), ("mc:8", "tuned"), ("mc:8:value", "value"), ("tuned", "value"),
           ("mc:8", "mc:8:value"), ("distilled", "tuned"), ("mc:8", "distilled"))
FORMER = "tuned x4"
ADAPT_GAMES = 1_000   # games per profile of each re-solved field (the players who adapt to a lever value)   # the reference profile before the field (issue 34)


def build_reports(out_dir, seed: int = 1, scale: float = 1.0, threads=None, progress=None,
                  command: str | None = None, with_findings: bool = False, bands: dict | None = None,
                  mc_scale: float | None = None):
    """Regenerate every Circus Maximus report under ``out_dir``; returns the index.html path
    (with ``with_findings``: the path and the findings' sentences). The page opens with a summary in
    plain words, then the findings that hold under every player model of the robustness ladder,
    largest first, each linking to its evidence; ``mc_scale``: the every-seat-mc rung's scale when it
    is not ``scale`` (``MIN_MC_GAMES`` at 1)."""
    firstpage.bands_for(bands)   # every band checked before any work
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    n = lambda k, at=scale: max(int(k * at), 20)  # noqa: E731
    rules = load_rules()
    first = rules.first_start_seat
    t0 = time.perf_counter()
    doc = HtmlReport(out)
    settings = RunSettings(seed=seed, threads=threads, progress=progress)
    ref = REFERENCE
    play4 = field_play(ref, 4)

    n_rung = n(MIN_MC_GAMES, scale if mc_scale is None else mc_scale)
    runs = run_ladder(n(20000), n_rung, settings)
    sim = runs.sims[(4, "reference field")]
    b = sim.batch
    doc.section("The reference field: win rates and scores (4 players)",
                f"The players are the reference field: every seat's strategy drawn per game from {play4.mixture()}; "
                f"`simulate`, `bids`, `sweep`, `exploit` and this report use it unless a heading says otherwise. "
                f"n={b.n} games, seed {seed}, {CI_METHOD}. Win rates per member over the seat-games it was drawn "
                f"for; win shares split ties. {weights_note()}")
    doc.table(sim.tables["wins"], "wins_4p", key=True)
    sc = [(seat_name(s, first), b.scores[:, s]) for s in range(b.players)]
    doc.image("scores_4p", lambda p: plots.score_histogram(sc, p, f"Final coins by seat, reference field (n={b.n})"))
    field_section(doc)
    doc.section("Favours, start card, unclaimed items, short decks, score parts (same games)",
                "Coins a day (extra favour) = paired mean change of seat 0's coins per day when seat 0 gets one "
                "extra favour of the type every morning (same seed, common random numbers); the win rate change "
                "likewise: what the favour is worth in play. Unclaimed = items left on a display after its phase. "
                "Short decks = days on which a deck ran out (fixed by the decks, whatever the players do).")
    doc.table(sim.tables["favours"], "favours_4p", key=True)
    for key in ("start_card", "unclaimed", "short_decks"):
        doc.table(sim.tables[key], f"{key}_4p")
    doc.table(named_seats(sim.tables["score_parts"], first), "score_parts_4p")

    engine = HtmlReport(out, page="engine.html")
    former = simulate(4, FORMER, n(20000), settings, favour_value=True)
    cmp = verdict_table(former, FORMER, sim, ref)
    engine.section(f"Other players: the former reference profile ({FORMER}) against the reference field",
                f"Both play n={n(20000)} games (seed {seed}; the profile not rotated, the field's seats drawn) and "
                f"the favour-gift runs. changed = the two 95% intervals do not overlap. {changed_summary(cmp)}.")
    engine.table(cmp[cmp["measure"] != "venue-bid value (net coins)"], "former_vs_field", key=True)
    engine.table(cmp[cmp["measure"] == "venue-bid value (net coins)"], "former_vs_field_bids")

    frames = []
    for (players, rung), s in runs.sims.items():
        frames.append(named_seats(seat_table(s.batch), first).assign(players=players, model=rung,
                                                                    profile=shown(runs.names[players][rung])))
    seats = pd.concat(frames)
    doc.section("Start-player advantage by player count, under three player models",
                f"Seat {first} starts day 1; the reference field and the best fast profile n={n(20000)} games, "
                f"`{MC}` in every seat n={n_rung}, seed {seed}; {CI_METHOD}.")
    doc.table(seats[["players", "model", "profile", *[c for c in seats.columns if c not in ("players", "model", "profile")]]],
              "seats_by_players")

    rows = []
    for one, three in MATCHES:
        match = f"{one},{three} x3"
        rows.append(win_table(run_games(4, match, n(1000), settings, rotate=True)).assign(match=match))
    engine.section("Other players: strength, one seat against three",
                f"mc = flat Monte Carlo, 8 rollouts to the day's end; `mc:8` rolls out with `tuned` play, "
                f"`mc:8:value` with `value` play. 4 players, rotated; n={n(1000)} games per match, seed {seed}; "
                f"{CI_METHOD}. Fair share 0.25.")
    mc = pd.concat(rows)
    engine.table(mc[["match", *[c for c in mc.columns if c != "match"]]], "mc_matches")

    ex, line = runs.exploits["reference field"]
    ex_anchor = doc.section("Exploitability of the reference field",
                            f"One seat (seat g % 4 of game g) deviates, the others drawn from the field as in the "
                            f"undeviated games: other policies, `mc:8` rolling out against the field (the oracle), "
                            f"every member, restricted players (the field's heaviest member that never takes an item "
                            f"type or never bids at a location) and, for a value/tuned member, each tunable weight "
                            f"pushed by {WEIGHT_STEP:g} of its range; n={n(20000)} paired games each, seed {seed}; "
                            f"gain = paired win-share difference per game, mean +/- 1.96 SE. {line}.")
    doc.table(ex, "exploit_4p")

    bt = bid_table(b, by_seat=True)
    pooled = bid_table(b, by_seat=False)
    doc.section("Venue-bid values (reference field)",
                f"4 players; n={b.n} games, seed {seed}; {CI_METHOD}. {NET_NOTE}. Favours and the start card count "
                "0 coins here: their worth in play is in the favours table (paired extra-favour runs) and the "
                "restricted players of the exploit table. Seat order 0 = the phase's start player. Heatmap pooled "
                "over seat order and members.")
    doc.image("bids_heatmap", lambda p: plots.bid_heatmap(bid_table(b, by_seat=False, by_policy=False), p,
                                                          f"Venue-bid values, reference field (n={b.n})"))
    doc.table(pooled, "bids_pooled")
    doc.csv(bt, "bids_by_seat")
    doc.link("bids_by_seat.csv", "By seat order")

    adapt_games = n(ADAPT_GAMES)
    results = [r for p in (3, 4, 5) for r in lever_effects(p, ref, n(20000), SWEEP, settings, rotate=False,
                                                            adapt_games=adapt_games)]
    screens = [firstpage.screen(results, p, n=n(20000), adapt_games=adapt_games, settings=settings, n_mc=n(MIN_MC_GAMES),
                                gain=firstpage.mc_gain(p, n(MIN_MC_GAMES), settings), bands=bands) for p in (4, 3, 5)]
    doc.first_screen(firstscreen.page(screens))
    doc.csv(firstscreen.frame(screens), "first_screen")
    effects = effects_table(results)
    doc.section(
        "What each rule number changes: lever-to-effect tables (reference field, 3, 4 and 5 players)",
        f"Each lever's values against the unchanged rules on the same games (the same deals and the same members "
        f"drawn: paired); n={n(20000)} games per value, seed {seed}; an effect is the paired difference with its 95% "
        f"interval, * = moved (the interval excludes 0); the standard column is the unchanged rules' level. "
        f"Players refitted per value: {results[0].refit}. Lead changes = day ends at which no seat leading before still leads; "
        f"comeback = the winner was last after day 1.")
    doc.image("levers", lambda p: plots.lever_plot(effects, p, "Effect of each rule value (filled: moved)"))
    doc.table(headline(results), "lever_headline", key=True)
    for r in results:   # each lever table under its title, as Sponsio's are
        doc.note(f"{r.players} players, {r.key} (standard {r.standard}; refitted: {r.refit})")
        doc.table(reading_table(r), f"lever_{r.players}p_{r.key.replace('.', '_')}", fold=20)
    doc.csv(effects, "levers")
    doc.link("levers.csv", "Every lever, value and measure (tidy)")
    views.add_lever_curves(doc, results, n(20000), seed, f"the reference field; refitted: {results[0].refit}")
    views.add_views(doc, rules, n(views.VIEW_GAMES), settings, seats, sim.tables["favours"], ex, ref)

    found = ranked(ladder_findings(runs))
    rung_names = list(runs.names[4])
    ladder_anchor = doc.section("Robustness ladder: do the findings hold under other strong play?",
                                "Each headline finding under three player models: " + "; ".join(
                                    f"{p} players: " + ", ".join(f"{r} = {shown(prof)}" for r, prof in runs.names[p].items())
                                    for p in (3, 4, 5)) + ". A finding holds when every model puts its 95% interval "
                                "on the same side of its band (a point band: the neutral value); the findings list those out of their band "
                                "and those that depend on the players (two models decided differently), largest first; "
                                "the healthy ones and those not decided are listed by name under them.")
    doc.table(ladder_table(found, rung_names), "ladder", key=True)
    doc.finding(field_sentence(4, ex), ex_anchor, weight=100.0, group="The players")
    order = {f.name: len(found) - i for i, f in enumerate(found)}   # ``ranked``: largest first
    for p in (4, 3, 5):
        publish(doc, [f for f in found if f.players == p], list(runs.names[p]), ladder_anchor, f"{p} players",
                weight=lambda f: float(order[f.name]))

    path = write_pages(
        doc, engine, game="Circus Maximus", rules=rules, glossary=GLOSSARY, stamp=stamp_text("sponsio-sim", command, out),
        engine_about="the former reference profile against the field, and the strength matches between policies",
        engine_note=f"Seed {seed}, scale {scale}; CI method: {CI_METHOD}.",
        title="Circus Maximus: strategy and rule analysis",
        intro=f"Built by `caesar report` (seed {seed}, scale {scale}) in "
              f"{time.perf_counter() - t0:.0f} s. Rule set: {rules.name} (in full in the appendix; "
              "each section names only what differs). Players: the reference field (strategies drawn per game "
              "from the meta-game's equilibrium mixture) unless a heading says otherwise. Policies: random "
              "(uniform legal action), greedy (cheapest card that wins a wanted item), value (expected coins "
              "vs. card coins and later needs, hand-set weights), tuned (value's features, weights tuned by "
              "`caesar tune`), distilled (a linear score fitted to mc's choices by `caesar distill`), net (a small "
              "network trained on mc's action values by `caesar train`), :temp=T "
              "(softmax play at temperature T coins), mc (flat Monte Carlo over tuned rollouts; mc:K:value "
              f"over value rollouts). Games always last {rules.days} days. CI method: " + CI_METHOD + ".",
        summary=summary(4, sim.tables["wins"], found, ex, headline(results)))
    return (path, [f.text for f in doc.findings]) if with_findings else path
