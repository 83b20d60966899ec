"""Designer views of Sponsio under the reference field: the PAR sheet, money by round and the
end reasons, drama and margins, seat advantage, the coin economy as a flow by round.

Two seeded samples per player count. The PAR sheet and the seat advantage read the summed
statistics of ``n`` field games (``game.runs.run_games``: the same numbers `sponsio balance`
prints for that seed). The views by round read the event log of ``games`` field games
(game 0 of chunks 0, 1, 2, ... of the same seed, played by the tournament's kernel with its
log on, as `sponsio game` narrates one): each seat's coins and ledger after every round, the
end reason and the winners. Every table is tidy (value, 95 % interval, n) and is the CSV
beside the page; every figure is drawn from its table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from tabletop_mc import views
from tabletop_mc.rng import seed_key
from tabletop_mc.stats import CI_METHOD
from sponsio_sim.analysis.balance.plots import SWEEP_PANELS
from sponsio_sim.analysis.balance.run import bet_rows
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.analysis.game.runs import run_games, seat_table
from sponsio_sim.analysis.game.setup import build_state, rulebook
from sponsio_sim.kernels.game.engine import game_chunk, switches
from sponsio_sim.kernels.layout import EV_END, EV_SCORE, EV_TRACK, LOG_FIELDS, RULES, stats_size

VIEW_GAMES = 10_000        # logged games per player count for the views by round (the report scales it)
LOG_ROWS = 20_000          # events of one game, far above any game's
END_REASONS = ("track", "coins", "rounds")   # kernels' END_TRACK, END_COINS, END_ROUNDS
# the round's ledger: (name, direction); EV_SCORE carries payout, troll pay, bonus, cash-in; EV_TRACK stakes, fees
COIN_MEASURES = ("leader's coins", "a seat's coins")
SOURCES = (("bet payouts", "in"), ("troll pay", "in"), ("round bonus", "in"), ("cash-ins", "in"),
           ("stakes", "out"), ("token fees", "out"))


@dataclass
class Played:
    """The per-round record of a sample of games (``played``)."""

    players: int
    start: float                # coins every seat starts with
    coins_to_end: float
    coins: np.ndarray           # (games, rounds, seats) coins after each round (held after the game ends)
    ledger: np.ndarray          # (games, rounds, SOURCES) coins per seat by source in each round (0 after the end)
    rounds: np.ndarray          # (games,) rounds played
    reason: np.ndarray          # (games,) index into END_REASONS
    winners: np.ndarray         # (games, seats) bool


def played(rules, strategies, model, games: int, seed: int) -> Played:
    """Play ``games`` games of ``strategies`` (a profile, with its success ``model``) with the event
    log on (module docstring) and keep the rounds."""
    board, game_state, money = build_state(rules, strategies, model)
    p = rules.players
    log = np.zeros((LOG_ROWS, LOG_FIELDS), dtype=np.float64)
    row = np.zeros(stats_size(p, rulebook(game_state)[0][RULES.entries]), dtype=np.float64)
    key, (scored, switch) = seed_key(seed), switches(game_state)
    per_game = []
    for g in range(games):
        log[0, 0] = 0.0
        game_chunk(key, np.int64(g), np.int64(1), board, game_state, money, row, log, scored, switch)
        per_game.append(log[1:int(log[0, 0]) + 1].copy())
    last = max(int(ev[ev[:, 1] == EV_END, 0][0]) for ev in per_game)
    coins = np.zeros((games, last, p))
    ledger = np.zeros((games, last, len(SOURCES)))
    rounds = np.zeros(games, dtype=np.int64)
    reason = np.zeros(games, dtype=np.int64)
    winners = np.zeros((games, p), dtype=bool)
    for g, ev in enumerate(per_game):
        score, track = ev[ev[:, 1] == EV_SCORE], ev[ev[:, 1] == EV_TRACK]
        r, s = score[:, 0].astype(np.int64) - 1, score[:, 2].astype(np.int64)
        coins[g, r, s] = score[:, 7]
        np.add.at(ledger[g], (r, 0), score[:, 3])
        np.add.at(ledger[g], (r, 1), score[:, 4])
        np.add.at(ledger[g], (r, 2), score[:, 5])
        np.add.at(ledger[g], (r, 3), score[:, 6])
        tr = track[:, 0].astype(np.int64) - 1
        np.add.at(ledger[g], (tr, 4), -track[:, 5])
        np.add.at(ledger[g], (tr, 5), -track[:, 6])
        end = ev[ev[:, 1] == EV_END][0]
        rounds[g] = int(end[0])
        reason[g] = int(end[3]) - 1
        winners[g] = [(int(end[4]) >> k) & 1 == 1 for k in range(p)]
        coins[g, rounds[g]:] = coins[g, rounds[g] - 1]
    return Played(p, float(rules.start_coins), float(rules.coins_to_end), coins, ledger / p, rounds, reason, winners)


def par_sheet(totals: np.ndarray, rules) -> pd.DataFrame:
    """Per catalogue bet placed (kind and parameter): bets placed and their share, hit rate (Wilson),
    the printed multiplier and the fair one, the share of all stakes and of all bet payouts, the
    contribution to the return (the bet's net payout per coin staked on every bet: the rows sum to the
    table's EV per coin) and the volatility index; shares of bets pool bets across games (Wilson
    over bets, as a slot PAR sheet counts them)."""
    b = bet_rows(totals, rules)
    b = b[b["placed"] > 0].reset_index(drop=True)
    stake = float(rules.stake)
    placed = b["placed"].to_numpy(dtype=float)
    pay = b["rtp"].to_numpy(dtype=float) * placed * stake
    total_stake, total_pay = placed.sum() * stake, pay.sum()
    share = [views.share_row(k, placed.sum()) for k in placed]
    out = pd.DataFrame({
        "bet": b["bet"], "kind": b["type"], "placed": b["placed"],
        "share_of_bets": [s["value"] for s in share], "share_low": [s["ci_low"] for s in share],
        "share_high": [s["ci_high"] for s in share],
        "hit": b["hit"], "hit_low": b["hit_low"], "hit_high": b["hit_high"],
        "multiplier": b["multiplier"].round().astype(int), "break_even": 1.0 / b["multiplier"],
        "fair_multiplier": b["fair_multiplier"], "ev_per_coin": b["ev_per_coin"], "ev_low": b["ev_low"],
        "ev_high": b["ev_high"], "share_of_stakes": placed * stake / total_stake,
        "share_of_payouts": pay / total_pay if total_pay > 0 else np.nan,
        "contribution_to_return": (pay - placed * stake) / total_stake,
        "contribution_low": b["ev_low"] * placed * stake / total_stake,
        "contribution_high": b["ev_high"] * placed * stake / total_stake,
        "volatility_index": b["volatility_index"]})
    return out.sort_values("placed", ascending=False, kind="stable").reset_index(drop=True)


def seat_view(totals: np.ndarray, players: int) -> tuple[pd.DataFrame, str]:
    """Per seat: win share (t interval) and final coins; the best and the worst seat named."""
    seats = seat_table(totals, players).assign(players=players)
    seats["seat"] = [f"seat {s}" + (" (acts first)" if s == 0 else "") for s in seats["seat"]]
    return views.seat_advantage(seats, "seat", "win_share", "share_low", "share_high")


def money_by_round(pl: Played) -> pd.DataFrame:
    """Per round: the leader's and the average seat's coins after it (games that played it, t) and
    the share of all games over by then, by end reason (Wilson)."""
    rows = []
    games = len(pl.rounds)
    for r in range(pl.coins.shape[1]):
        live = pl.rounds > r
        c = pl.coins[live, r]
        base = {"players": pl.players, "round": r + 1}
        rows.append({**base, "measure": COIN_MEASURES[0], **views.mean_row(c.max(axis=1))})
        rows.append({**base, "measure": COIN_MEASURES[1], **views.mean_row(c.mean(axis=1))})
        for i, why in enumerate(END_REASONS):
            over = int(((pl.rounds <= r + 1) & (pl.reason == i)).sum())
            rows.append({**base, "measure": f"share of games over, ended by {why}", **views.share_row(over, games)})
    return pd.DataFrame(rows)


def end_reasons(pl: Played) -> pd.DataFrame:
    """Share of games by end reason (Wilson) and the rounds they lasted (t)."""
    rows = []
    for i, why in enumerate(END_REASONS):
        rows.append({"players": pl.players, "measure": f"ended by {why}",
                     **views.share_row(int((pl.reason == i).sum()), len(pl.reason))})
    rows.append({"players": pl.players, "measure": "rounds per game", **views.mean_row(pl.rounds)})
    return pd.DataFrame(rows)


def drama(pl: Played) -> pd.DataFrame:
    """Per round, of the games that went on past it: the share where an eventual winner led
    (ties for the lead count); then the final margin (leader less runner-up, coins)."""
    running = pl.rounds[:, None] > np.arange(1, pl.coins.shape[1] + 1)[None, :]
    lead = views.leader_drama(pl.coins, pl.winners, running, players=pl.players).rename(columns={"step": "round"})
    final = pl.coins[np.arange(len(pl.rounds)), pl.rounds - 1]
    return pd.concat([lead.assign(measure="eventual winner leads after the round"),
                      views.margin_table(final, players=pl.players)], ignore_index=True)


def flow_by_round(pl: Played) -> pd.DataFrame:
    """Coins per seat by source in each round (games that played it, t), sinks negative, and the net."""
    rows = []
    for r in range(pl.ledger.shape[1]):
        live = pl.rounds > r
        if live.sum() == 0:
            continue
        led = pl.ledger[live, r]
        for i, (name, way) in enumerate(SOURCES):
            rows.append({"players": pl.players, "round": r + 1, "source": name, "direction": way,
                         **views.mean_row(led[:, i])})
        rows.append({"players": pl.players, "round": r + 1, "source": "net", "direction": "net",
                     **views.mean_row(led.sum(axis=1))})
    return pd.DataFrame(rows)


def _upto(df: pd.DataFrame, col: str, floor: int) -> pd.DataFrame:
    """Rows whose step was reached by at least ``floor`` games (a mean's interval needs 30)."""
    return df[df["n"] >= floor]


def add_views(doc, rules_of, n: int, games: int, seed: int, progress=None) -> None:
    """The designer views' sections for 4 and 3 players (``rules_of(players)``): ``n`` games for the
    PAR sheet and seats, ``games`` logged games for the views by round."""
    par, seats, money, ends, dram, flow, said = [], [], [], [], [], [], []
    for p in (4, 3):
        rules = rules_of(p)
        lineup = resolve("reference", rules)
        totals = run_games(rules, lineup.strategies, n, rotate=False, seed=seed, model=lineup.model, cache=True)
        par.append(par_sheet(totals, rules).assign(players=p))
        s, line = seat_view(totals, p)
        seats.append(s)
        said.append(f"{p} players: {line}")
        pl = played(rules, lineup.strategies, lineup.model, games, seed)
        money.append(money_by_round(pl))
        ends.append(end_reasons(pl))
        dram.append(drama(pl))
        flow.append(flow_by_round(pl))
    par, seats = pd.concat(par, ignore_index=True), pd.concat(seats, ignore_index=True)
    money, ends = pd.concat(money, ignore_index=True), pd.concat(ends, ignore_index=True)
    dram, flow = pd.concat(dram, ignore_index=True), pd.concat(flow, ignore_index=True)
    where = f"the reference field, seed {seed}; {CI_METHOD}"
    _par_section(doc, par, n, where)
    doc.section("Money by round and how games end",
                f"{games:,} logged games per player count ({where}). The leader's and the average seat's coins "
                f"after each round (games that played the round); the share of all games already over after each "
                f"round, by end reason (coins: a player reached {rules_of(4).coins_to_end} coins; track: the end of "
                f"the streak track; rounds: the last round). Rounds reached by fewer than 30 games are left out.")
    doc.image("view_money_by_round", lambda path: views.curves(
        [{"data": _upto(money[(money["players"] == p) & money["measure"].isin(COIN_MEASURES)], "n", 30),
          "x": "round", "series": "measure", "xlabel": "round", "ylabel": "coins (mean, 95% CI)",
          "title": f"{p} players: coins after the round", "hline": rules_of(p).coins_to_end} for p in (4, 3)]
        + [{"data": money[(money["players"] == p) & money["measure"].str.startswith("share")], "x": "round",
            "series": "measure", "xlabel": "round", "ylabel": "share of games (Wilson 95% CI)",
            "title": f"{p} players: games over by the round, by end reason"} for p in (4, 3)],
        path, f"Money by round and end reasons, reference field ({games:,} games per player count, seed {seed})"))
    doc.table(ends, "view_end_reasons", key=True)
    doc.csv(money, "view_money_by_round")
    doc.link("view_money_by_round.csv", "Every plotted number (round, measure, value, CI, n)")
    lead = dram[dram["measure"] == "eventual winner leads after the round"]
    marg = dram[dram["statistic"] == "share of games"]
    doc.section("Drama and margins",
                f"{games:,} logged games per player count ({where}). Left: of the games that went on past a "
                "round, the share in which an eventual winner already led after it (a shared lead counts); lower "
                "means more comebacks. Right: the final margin, the richest player's coins less the next one's (0: "
                "a shared lead; a track win can go to a poorer player).")
    doc.image("view_drama", lambda path: views.curves(
        [{"data": _upto(lead, "n", 30), "x": "round", "series": "players", "xlabel": "round",
          "ylabel": "share of games (Wilson 95% CI)", "title": "the eventual winner leads after the round"},
         {"data": marg, "x": "margin", "series": "players", "xlabel": "final margin (coins, winner - runner-up)",
          "ylabel": "share of games (Wilson 95% CI)", "title": "final margins"}],
        path, f"Drama and margins, reference field ({games:,} games per player count, seed {seed})"))
    doc.table(dram[dram["statistic"] == "mean margin"][["players", "statistic", "n", "value", "ci_low", "ci_high"]],
              "view_margin_mean", key=True)
    doc.csv(dram, "view_drama")
    doc.link("view_drama.csv", "Every plotted number (lead by round, margins)")
    doc.section("Seat advantage by player count",
                f"{n:,} games per player count ({where}); win share per seat (ties split), seat 0 acts first in "
                "round 1. " + " ".join(said) + ".")
    doc.image("view_seats", lambda path: views.bars(
        [{"data": seats[seats["players"] == p].rename(columns={"win_share": "value", "share_low": "ci_low",
                                                                "share_high": "ci_high"}).assign(fair=1 / p),
          "label": "seat", "xlabel": "win share (95% CI)", "marks": "fair", "marks_label": "fair share", "points": True,
          "title": f"{p} players"} for p in (4, 3)],
        path, f"Seat advantage, reference field (n = {n:,} games per player count, seed {seed})"))
    doc.table(seats[["players", "seat", "rank", "games", "win_share", "share_low", "share_high", "coins", "coins_low",
                     "coins_high"]], "view_seats", key=True)
    doc.section("The coin economy as a flow, by round",
                f"{games:,} logged games per player count ({where}). Coins per seat entering (bet payouts, troll "
                "pay, the round bonus, cash-ins) and leaving (stakes, token fees, negative) in each round, and the "
                "net, over the games that played the round (rounds reached by fewer than 30 games left out).")
    doc.image("view_coin_flow", lambda path: views.curves(
        [{"data": _upto(flow[flow["players"] == p], "n", 30), "x": "round", "series": "source", "xlabel": "round",
          "ylabel": "coins per seat (mean, 95% CI)", "title": f"{p} players: sources and sinks", "hline": 0.0}
         for p in (4, 3)], path, f"Coin flow by round, reference field ({games:,} games, seed {seed})"))
    doc.csv(flow, "view_coin_flow")
    doc.link("view_coin_flow.csv", "Every plotted number (round, source, value, CI, n)")


def _par_section(doc, par: pd.DataFrame, n: int, where: str, top: int = 16) -> None:
    """The PAR sheet: the figure shows the most placed bets per player count, the tables every bet."""
    doc.section("PAR sheet: every bet as the field places it",
                f"{n:,} games per player count ({where}). Per bet (kind and parameter): bets placed and their share, "
                "hit rate, printed multiplier against the break-even hit rate 1/multiplier and the fair multiplier "
                "(printed / return per coin), EV per coin staked, the share of all stakes and of all bet payouts, "
                "the contribution to the return (the bet's net payout per coin staked over all bets: the rows sum "
                "to the table's EV per coin) and the volatility index (1.96 x SD of payout per stake).")
    shown = par.groupby("players", sort=False).head(top)

    def draw(path, p):
        d = shown[shown["players"] == p].assign(label=lambda x: x["bet"] + " x" + x["multiplier"].astype(str))
        panels = [{"data": d.rename(columns={"hit": "value", "hit_low": "ci_low", "hit_high": "ci_high"}),
                   "label": "label", "xlabel": "hit rate (Wilson 95% CI)", "marks": "break_even",
                   "marks_label": "break-even 1/multiplier", "title": "hit rate", "ylabel": "bet, printed multiplier"},
                  {"data": d.rename(columns={"share_of_bets": "value", "share_low": "ci_low", "share_high": "ci_high"}),
                   "label": "label", "xlabel": "share of all bets placed (Wilson 95% CI)", "colour": "tab:orange",
                   "title": "share of bets"},
                  {"data": d.rename(columns={"contribution_to_return": "value", "contribution_low": "ci_low",
                                             "contribution_high": "ci_high"}), "label": "label",
                   "xlabel": "coins per coin staked on all bets (95% CI)", "colour": "tab:green",
                   "title": "contribution to the return"}]
        views.bars(panels, path, f"PAR sheet, {p} players, reference field: the {top} most placed bets "
                   f"(n = {n:,} games)")
    for p in (4, 3):
        doc.image(f"view_par_sheet_{p}p", lambda path, p=p: draw(path, p))
    cols = ["players", "bet", "placed", "share_of_bets", "hit", "hit_low", "hit_high", "multiplier",
            "fair_multiplier", "ev_per_coin", "share_of_stakes", "share_of_payouts", "contribution_to_return",
            "volatility_index"]
    doc.table(par[cols], "view_par_sheet", key=True, fold=20)


def add_lever_curves(doc, sweeps, n: int, seed: int) -> None:
    """Every swept lever's levels (not only its changes) as curves with 95 % bands: one figure per
    group of measures (``balance.plots.SWEEP_PANELS``), a panel per player count and lever."""
    levels = pd.concat([r.rows.assign(players=r.players, lever=r.lever.key) for r in sweeps], ignore_index=True)
    levels = levels[["players", "lever", "value", "standard", "measure", "n", "level", "level_low", "level_high"]]
    groups = [(label, (lambda m, names=names: m in names) if names else (lambda m: m.endswith(" share of bets")))
              for label, names in SWEEP_PANELS]
    views.lever_section(doc, levels, groups, n, seed, "the reference field re-solved per value")
