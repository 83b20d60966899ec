"""The Circus Maximus report's robustness ladder (``tabletop_mc.ladder``): each headline finding
measured under three player models.

Rungs: the **reference field** (every seat's strategy drawn per game from the shipped
equilibrium mixture); **every seat mc** (``mc:8``, flat Monte Carlo over `tuned` rollouts, at
least 5,000 games so a 4-point seat gap is resolved); the **best fast single profile** (the
deterministic member of the population with the largest payoff against the field, in every seat,
leaving out the field's own support so that the rung is another player model). The
findings (``findings``; ``ranked`` orders them by size): the start seat's win rate against the fair
share at 3, 4 and 5 players; at 4 players: how often the winner leads by 2 coins or fewer, the
share of a day's coins that merchant cards left unplayed score, the win rate one extra favour of
each type every morning is worth (paired runs), restricted play (the paired win share a seat gains
or loses when it never takes an item type or never bids at a location: ``exploit``'s restricted
deviations) and the best and the worst venue bid under the reference field. Each names the rule
lever that would change it. (Days short of tickets or visitors are fixed by the rule set's decks,
whatever the players do: not a ladder finding.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from tabletop_mc.ladder import Estimate, Finding
from tabletop_mc.stats import wilson
from caesar_sim.analysis.game.bids import bid_table
from caesar_sim.analysis.game.exploit import exploit
from caesar_sim.analysis.game.runs import RunSettings
from caesar_sim.analysis.game.simulation import Simulation, seat_table, simulate
from caesar_sim.fieldplay import field_play
from caesar_sim.rules import FAVOUR_TYPES

MC = "mc:8"
MIN_MC_GAMES = 5000
PLAYER_COUNTS = (3, 4, 5)


def best_fast(players: int) -> str:
    """The population's deterministic member outside the field's support with the largest payoff against the
    field (its regret); a member's weights file named relative to the field's folder is named from there."""
    play = field_play("reference", players)
    f = play.field
    det = [(r, m) for m, r, w in zip(f.members, f.regret, f.weights)
           if "temp=" not in m and not m.startswith("mc") and w == 0]
    if not det:
        return play.members[0].label
    best = max(det)[1]
    head, at, path = best.partition("@")
    return f"{head}@{play.base / path}" if at and play.base is not None and not Path(path).is_absolute() else best


_CHECKOUT = Path(__file__).resolve().parents[2]


def shown(profile: str) -> str:
    """A rung's profile as a page shows it: a weights file inside the package named from the package's
    folder (``caesar_sim/fields/...``), not by the absolute path of the machine that built the page."""
    return profile.replace(f"{_CHECKOUT}/", "")


def rungs(players: int) -> dict[str, str]:
    """Rung name -> profile text, for ``players``."""
    return {"reference field": "reference", f"{MC} in every seat": f"{MC} x{players}",
            "best fast profile": f"{best_fast(players)} x{players}"}


@dataclass
class LadderRuns:
    """The runs behind the ladder: per player count and rung, a Simulation (4 players: with the
    favour-gift runs); per rung at 4 players, ``exploit``'s table and verdict line (the reference
    field: every deviation; the other rungs: the restricted players only)."""

    sims: dict[tuple[int, str], Simulation]
    names: dict[int, dict[str, str]]
    exploits: dict[str, tuple[pd.DataFrame, str]]


def run_ladder(n: int, mc_n: int, settings: RunSettings) -> LadderRuns:
    """Every rung at 3, 4 and 5 players: ``n`` games (``mc_n`` for mc; the report asks MIN_MC_GAMES)."""
    sims, names, exploits = {}, {}, {}
    for players in PLAYER_COUNTS:
        names[players] = rungs(players)
        for rung, prof in names[players].items():
            games = mc_n if rung.startswith(MC) else n
            sims[(players, rung)] = simulate(players, prof, games, settings, favour_value=players == 4)
            if players == 4:
                full = rung == "reference field"
                table, line, _ = exploit(players, prof, games, settings,
                                         **({} if full else {"policies": (), "weights": False}))
                exploits[rung] = (table, line)
    return LadderRuns(sims, names, exploits)


def _est(value, low, high, n) -> Estimate:
    return Estimate(float(value), float(low), float(high), int(n))


LEVERS = {"start": "who holds the start card (the Villa's bidding: merchant.coins, favour counts)",
          "boost": "favour.boost_value", "double": "favour.double_items", "gold": "favour.gold_coins",
          "start card": "the start card's rule (it goes to the leftmost merchant when nobody takes it)",
          "Caesars Villa": "what favours are worth (favour.*)", "Forum Romanum": "tickets.coins, special_tickets",
          "venue": "visitors.coins, tickets.coins", "merchants": "merchant.coins (coins on unplayed cards)",
          "close": "merchant.coins, favour.gold_coins (the size of the coin steps)"}
CLOSE = 2   # coins: a game is close when the winner leads the runner-up by at most this (one gold favour)


def _close_games(b) -> tuple[int, int]:
    """(games the winner leads the runner-up by at most CLOSE coins, games)."""
    top = np.sort(b.scores, axis=1)
    return int((top[:, -1] - top[:, -2] <= CLOSE).sum()), b.n


def findings(runs: LadderRuns) -> list[Finding]:
    """The headline findings (module docstring), each with every rung's estimate and its lever."""
    out = []
    for players in PLAYER_COUNTS:
        fair = 1 / players
        f = Finding(f"{players} players: the start seat's win rate", "win share", (fair, fair),
                    lever=LEVERS["start"], players=players)
        for rung in runs.names[players]:
            st = seat_table(runs.sims[(players, rung)].batch)
            r = st[st["starts_day1"]].iloc[0]
            f.estimates[rung] = _est(r["win_rate"], r["ci_low"], r["ci_high"], r["n"])
        out.append(f)
    four = runs.names[4]
    f = Finding(f"4 players: games the winner takes by {CLOSE} coins or fewer", "share of games", (0.5, 0.5),
                lever=LEVERS["close"], players=4)
    m = Finding("4 players: the share of a day's coins scored by merchant cards left unplayed", "share of coins",
                (0.5, 0.5), lever=LEVERS["merchants"], players=4)
    for rung in four:
        b = runs.sims[(4, rung)].batch
        k, n = _close_games(b)
        f.estimates[rung] = _est(k / n, *wilson(k, n)[1:], n)
        parts = runs.sims[(4, rung)].tables["score_parts"]
        merch = parts[parts["part"] == "merchants"]
        total = b.scores.mean() / b.rules.days   # known to < 0.1 % (its relative SE), so the share's CI is M's
        m.estimates[rung] = _est(merch["coins_per_day"].mean() / total, merch["mean_low"].mean() / total,
                                 merch["mean_high"].mean() / total, int(merch["n_days"].iloc[0]))
    out += [f, m]
    for t, name in enumerate(FAVOUR_TYPES):
        f = Finding(f"4 players: one extra {name} favour every morning (seat 0)", "win share", (0.0, 0.0),
                    lever=LEVERS[name], players=4)
        for rung in four:
            r = runs.sims[(4, rung)].tables["favours"].iloc[t]
            f.estimates[rung] = _est(r["win_rate_change"], r["change_low"], r["change_high"], r["n_games"])
        out.append(f)
    restricted = {rung: t[t["kind"] == "restricted"].set_index("deviation") for rung, (t, _) in runs.exploits.items()}
    for label in restricted.get("reference field", pd.DataFrame()).index:
        what = label.replace("never takes ", "").replace("never bids at ", "")
        f = Finding(f"4 players: a seat that {label}", "win share", (0.0, 0.0),
                    lever=LEVERS.get(what, LEVERS["venue"]), players=4)
        for rung in four:
            if label in restricted.get(rung, pd.DataFrame()).index:
                r = restricted[rung].loc[label]
                f.estimates[rung] = _est(r["gain"], r["gain_low"], r["gain_high"], r["n"])
        out.append(f)
    pooled = {rung: bid_table(runs.sims[(4, rung)].batch, by_seat=False, by_policy=False) for rung in four}
    cells = pooled[next(iter(four))]
    cells = cells[(cells["n"] >= 1000) & (cells["phase"] == 3) & (cells["net_high"] > cells["net_low"])]
    if not cells.empty:
        for label, row in (("best", cells.loc[cells["net_coins"].idxmax()]),
                           ("worst", cells.loc[cells["net_coins"].idxmin()])):
            f = Finding(f"4 players: the {label} venue bid under the reference field, a {int(row['value'])} at "
                        f"{row['location']}", "net coins", (0.0, 0.0), lever=LEVERS["venue"], players=4)
            for rung in four:
                t = pooled[rung]
                c = t[(t["location"] == row["location"]) & (t["value"] == row["value"])]
                if not c.empty:
                    c = c.iloc[0]
                    f.estimates[rung] = _est(c["net_coins"], c["net_low"], c["net_high"], c["n"])
            out.append(f)
    return out


def ranked(found: list[Finding], rung: str = "reference field") -> list[Finding]:
    """Findings by how much they matter: win-share effects first, largest first (distance of ``rung``'s
    estimate from the neutral band), then the others likewise."""
    def size(f):
        e = f.estimates.get(rung)
        return 0.0 if e is None else abs(e.value - sum(f.band) / 2)
    return sorted(found, key=lambda f: (f.unit != "win share", -size(f)))
