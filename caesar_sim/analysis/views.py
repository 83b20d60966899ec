"""Designer views of Circus Maximus under the reference field: score by day, drama and margins,
seat advantage, the exchange rates of the items, and the levers' levels as curves.

The views by day read each seat's total after every day of ``games`` seeded field games per
player count (``game.runs.run_field`` with ``day_totals``). The seat advantage, the exchange rates and
the lever curves read what the report has already measured (the robustness ladder's seat table,
the favour-gift runs, the exploit table's restricted players, the lever sweeps): nothing is played
twice. Every table is tidy (value, 95 % interval, n) and is the CSV beside the page; every figure
is drawn from its table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc import views
from tabletop_mc.stats import CI_METHOD
from caesar_sim.analysis.game.bids import LOCATIONS
from caesar_sim.analysis.game.runs import run_field
from caesar_sim.fieldplay import field_play
from caesar_sim.rules import FAVOUR_TYPES, VENUES

VIEW_GAMES = 20_000   # games per player count for the views by day (the report scales it)
# what the player that never bids at a location gives up
LOCATION_ITEMS = {LOCATIONS[0]: "favours (all types)", LOCATIONS[1]: "tickets",
                  **{v: f"visitors at {v}" for v in VENUES}}
# the lever measures drawn together (days per game is fixed by the rules)
LEVER_GROUPS = (("seat gap (win share)", ("start seat - fair share", "largest seat gap")),
                ("mean final coins", ("mean final coins",)),
                ("spread and lead (coins)", ("score spread (SD of final coins)", "winner's lead (coins)")),
                ("closeness (share of games)", None),
                ("lead changes per game", ("lead changes per game",)))


def day_views(day_totals: np.ndarray, scores: np.ndarray, players: int) -> pd.DataFrame:
    """Per day: the leader's and the average seat's total (t); per day before the last, the share of
    games in which an eventual winner already led (Wilson); the final margin (``views.margin_table``)."""
    rows = []
    for d in range(day_totals.shape[1]):
        t = day_totals[:, d].astype(float)
        rows.append({"players": players, "day": d + 1, "measure": "leader's total", **views.mean_row(t.max(axis=1))})
        rows.append({"players": players, "day": d + 1, "measure": "a seat's total", **views.mean_row(t.mean(axis=1))})
    winners = scores == scores.max(axis=1, keepdims=True)
    days = day_totals.shape[1]
    running = np.tile(np.arange(days) < days - 1, (len(scores), 1))
    lead = views.leader_drama(day_totals[:, :days - 1].astype(float), winners, running[:, :days - 1],
                              players=players).rename(columns={"step": "day"})
    return pd.concat([pd.DataFrame(rows), lead.assign(measure="eventual winner leads after the day"),
                      views.margin_table(scores, players=players)], ignore_index=True)


def exchange_rates(favours: pd.DataFrame, exploits: pd.DataFrame, days: int) -> pd.DataFrame:
    """Every item in coins and in win share. Favour types: one extra favour each day (paired runs),
    per favour (the game's change over ``days``); every item: what the player that never takes it
    (never bids where it is won) gives up per game (the exploit table's restricted players, paired)."""
    rows = []
    for r in favours.itertuples():
        if not hasattr(r, "value_per_day"):
            continue
        rows.append({"item": r.favour, "how": "one more each day, per favour", "n": int(r.n_games),
                     "coins": r.value_per_day, "coins_low": r.value_low, "coins_high": r.value_high,
                     "win": r.win_rate_change / days, "win_low": r.change_low / days, "win_high": r.change_high / days})
    names = {f"never takes {t}": t for t in (*FAVOUR_TYPES, "start card")}
    names.update({f"never bids at {loc}": item for loc, item in LOCATION_ITEMS.items()})
    for r in exploits[exploits["kind"] == "restricted"].itertuples():
        item = names.get(r.deviation)
        if item is None:
            continue
        rows.append({"item": item, "how": f"{r.deviation}: what it gives up, per game", "n": int(r.n),
                     "coins": -r.coins_gain, "coins_low": -r.coins_high, "coins_high": -r.coins_low,
                     "win": -r.gain, "win_low": -r.gain_high, "win_high": -r.gain_low})
    return pd.DataFrame(rows, columns=["item", "how", "n", "coins", "coins_low", "coins_high", "win", "win_low",
                                       "win_high"])


def seat_views(seats: pd.DataFrame, model: str) -> tuple[pd.DataFrame, list[str]]:
    """The ladder's seat table under ``model``, per player count with the best and the worst seat named."""
    frames, said = [], []
    for p, d in seats[seats["model"] == model].groupby("players", sort=True):
        marked, line = views.seat_advantage(d.reset_index(drop=True), "seat", "win_rate", "ci_low", "ci_high")
        frames.append(marked)
        said.append(f"{p} players: {line}")
    return pd.concat(frames, ignore_index=True), said


def add_views(doc, rules, n_games: int, settings, seats: pd.DataFrame, favours: pd.DataFrame,
              exploits: pd.DataFrame, reference) -> None:
    """The designer views' sections (module docstring); ``n_games`` logged games per player count."""
    seed = settings.seed
    per_day = []
    for p in (3, 4, 5):
        b = run_field(p, field_play(reference, p), n_games, settings, day_totals=True, label="views by day")
        per_day.append(day_views(b.day_totals, b.scores, p))
    daily = pd.concat(per_day, ignore_index=True)
    where = f"the reference field, seed {seed}; {CI_METHOD}"
    doc.section("Score by day, drama and margins",
                f"{n_games:,} games per player count ({where}). Left: the leader's and the average seat's total "
                "after each day. Middle: the share of games in which an eventual winner already led after the day "
                "(a shared lead counts; lower means more comebacks). Right: the final margin, the winner's coins "
                "less the runner-up's (0: a shared win).")
    totals = daily[daily["measure"].isin(["leader's total", "a seat's total"])].assign(
        series=lambda d: d["players"].astype(str) + " players, " + d["measure"])
    lead = daily[daily["measure"] == "eventual winner leads after the day"]
    marg = daily[daily["statistic"] == "share of games"]
    doc.image("view_days", lambda path: views.curves(
        [{"data": totals, "x": "day", "series": "series", "xlabel": "day", "ylabel": "coins (mean, 95% CI)",
          "title": "totals after the day"},
         {"data": lead, "x": "day", "series": "players", "xlabel": "day", "ylabel": "share of games (Wilson 95% CI)",
          "title": "the eventual winner leads after the day"},
         {"data": marg, "x": "margin", "series": "players", "xlabel": "final margin (coins, winner - runner-up)",
          "ylabel": "share of games (Wilson 95% CI)", "title": "final margins"}],
        path, f"Score by day, drama and margins, reference field ({n_games:,} games per player count, seed {seed})",
        ncols=3))
    doc.table(daily[daily["statistic"] == "mean margin"][["players", "statistic", "n", "value", "ci_low", "ci_high"]],
              "view_margin_mean", key=True)
    doc.csv(daily, "view_days")
    doc.link("view_days.csv", "Every plotted number (day, measure, value, CI, n)")

    marked, said = seat_views(seats, "reference field")
    doc.section("Seat advantage by player count",
                f"The robustness ladder's reference-field games ({where}); win rate per seat (ties split), seat "
                f"{rules.first_start_seat} starts day 1. " + " ".join(said) + ".")
    doc.image("view_seats", lambda path: views.bars(
        [{"data": marked[marked["players"] == p].rename(columns={"win_rate": "value"}).assign(fair=1 / p),
          "label": "seat", "xlabel": "win rate (95% CI)", "marks": "fair", "marks_label": "fair share", "points": True,
          "title": f"{p} players"} for p in sorted(marked["players"].unique())],
        path, "Seat advantage, reference field"))
    doc.table(marked[["players", "seat", "rank", "n", "win_rate", "ci_low", "ci_high", "score_mean", "score_mean_low",
                      "score_mean_high"]], "view_seats", key=True)

    rates = exchange_rates(favours, exploits, rules.days)
    doc.section("Exchange rates of the items (4 players)",
                f"Every item in coins and in win share ({where}). A favour type: one extra favour of the type every "
                "morning for seat 0 (paired runs), per favour. Every item: what the field's heaviest member loses "
                "per game when it never takes the item (never bids where the item is won: tickets at the Forum "
                "Romanum, visitors at each venue), the exploit table's restricted players, paired.")
    shown = rates.assign(label=lambda d: d["item"] + ": " + d["how"].str.replace(": what it gives up", ""))
    doc.image("view_exchange_rates", lambda path: views.bars(
        [{"data": shown.rename(columns={"coins": "value", "coins_low": "ci_low", "coins_high": "ci_high"}),
          "label": "label", "xlabel": "coins (95% CI)", "title": "in coins", "ylabel": "item: how measured"},
         {"data": shown.rename(columns={"win": "value", "win_low": "ci_low", "win_high": "ci_high"}),
          "label": "label", "xlabel": "win share (95% CI)", "colour": "tab:green", "title": "in win share"}],
        path, f"Exchange rates of the items, 4 players, reference field (seed {seed})"))
    doc.table(rates, "view_exchange_rates", key=True)


def add_lever_curves(doc, results, n: int, seed: int, who: str) -> None:
    """Every swept lever's levels (not only its changes) as curves with 95 % bands: one figure per
    group of measures (``LEVER_GROUPS``), a panel per player count and lever."""
    levels = pd.concat([r.rows.assign(players=r.players, lever=r.key) for r in results], ignore_index=True)
    levels = levels.assign(n=n)[["players", "lever", "value", "standard", "measure", "n", "level", "level_low",
                                 "level_high"]]
    groups = [(label, (lambda m, names=names: m in names) if names else (lambda m: m.startswith(("close", "comeback"))))
              for label, names in LEVER_GROUPS]
    views.lever_section(doc, levels, groups, n, seed, who)
