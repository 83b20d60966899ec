"""`simulate`: win rates, score distributions, seat order, favours and unclaimed items."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from tabletop_mc.stats import CI_METHOD, mean_ci, wilson
from caesar_sim.analysis.game.runs import Batch, RunSettings, run_games
from caesar_sim.kernels import layout
from caesar_sim.rules import FAVOUR_TYPES

ITEMS = ("favour", "start card", "ticket", "visitor")
PARTS = ("merchants", "visitors", "tickets", "coin cards", "gold")


def _mean_row(x: np.ndarray) -> dict:
    x = np.asarray(x, dtype=float)
    m, lo, hi = mean_ci(x.sum(), (x * x).sum(), len(x))
    return {"mean": m, "mean_low": lo, "mean_high": hi}


def _win_row(shares: np.ndarray) -> dict:
    p, lo, hi = wilson(shares.sum(), len(shares))
    return {"win_rate": p, "ci_low": lo, "ci_high": hi}


def win_table(b: Batch) -> pd.DataFrame:
    """Per profile entry (a field: per member, over the seats it was drawn for; n = those seat-games):
    win rate (Wilson CI), mean coins (mean +/- 1.96 SE) and score quantiles."""
    rows = []
    for label, x, share in b.by_label():
        rows.append({"entry": label, "n": len(x), **_win_row(share),
                     **{f"score_{k}": v for k, v in _mean_row(x).items()},
                     "score_sd": float(x.std(ddof=1)) if len(x) > 1 else np.nan,
                     "p10": float(np.percentile(x, 10)), "p50": float(np.percentile(x, 50)),
                     "p90": float(np.percentile(x, 90))})
    return pd.DataFrame(rows)


def seat_table(b: Batch) -> pd.DataFrame:
    """Per seat (seat `first_start_seat` starts day 1): win rate and mean coins, all entries pooled."""
    sh = b.win_shares(by_entry=False)
    rows = []
    for s in range(b.players):
        rows.append({"seat": s, "starts_day1": s == b.rules.first_start_seat, "n": b.n,
                     **_win_row(sh[:, s]), **{f"score_{k}": v for k, v in _mean_row(b.scores[:, s]).items()}})
    return pd.DataFrame(rows)


def favour_table(b: Batch, gifted: dict[str, Batch] | None = None) -> pd.DataFrame:
    """Per favour type: how often taken/used; with ``gifted`` runs, the coins one extra favour is worth.

    A gifted run gives seat 0 one more favour of the type at the start of every day, with the
    same seed (common random numbers); its value is the paired mean change of seat 0's coins
    per day and of its win rate.
    """
    favours = layout.STATS.named(b.stats)["favours"]
    rows = []
    for t, name in enumerate(FAVOUR_TYPES):
        taken, used, ticket, unused = favours[t]
        row = {"favour": name, "n_games": b.n, "taken_per_game": taken / b.n,
               "used_in_play": used / b.n, "caesar_ticket": ticket / b.n,
               "unused_at_day_end": unused / b.n}
        if gifted and name in gifted:
            g = gifted[name]
            d = (g.scores[:, 0] - b.scores[:, 0]) / b.rules.days
            m = _mean_row(d)
            row.update({"value_per_day": m["mean"], "value_low": m["mean_low"], "value_high": m["mean_high"]})
            dw = g.win_shares(by_entry=False)[:, 0] - b.win_shares(by_entry=False)[:, 0]
            m = _mean_row(dw)
            row.update({"win_rate_change": m["mean"], "change_low": m["mean_low"], "change_high": m["mean_high"]})
        rows.append(row)
    return pd.DataFrame(rows)


def _day_shares(b: Batch, field: str, column: str, labels) -> pd.DataFrame:
    """Share of days counted in the statistic ``field``'s slot i for each label i (Wilson CI over days)."""
    days = b.n * b.rules.days
    counts = layout.STATS.named(b.stats)[field]
    rows = []
    for i, label in enumerate(labels):
        p, lo, hi = wilson(counts[i], days)
        rows.append({column: label, "n_days": days, "share": p, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def start_card_table(b: Batch) -> pd.DataFrame:
    """How the start-player card changed hands per day (Wilson CI over days)."""
    return _day_shares(b, "start_card", "start_card", ("taken as an item", "to the leftmost merchant",
                                                   "stayed (no merchant)"))


def unclaimed_table(b: Batch) -> pd.DataFrame:
    """Items left on the displays per day (mean and its 95% CI)."""
    st = layout.STATS.named(b.stats)
    days = st["days"]
    rows = []
    for i, item in enumerate(ITEMS):
        m, lo, hi = mean_ci(*st["unclaimed"][i], days, lower=0.0)
        rows.append({"item": item, "n_days": int(days), "unclaimed_per_day": m, "mean_low": lo, "mean_high": hi})
    return pd.DataFrame(rows)


def short_table(b: Batch) -> pd.DataFrame:
    """Share of days on which a deck ran out at set-up, so fewer tickets or visitors were laid than the
    rules ask for (Wilson CI over days)."""
    return _day_shares(b, "short", "short_of", ("tickets", "visitors", "tickets or visitors"))


def parts_table(b: Batch) -> pd.DataFrame:
    """Where the coins come from: mean coins per day by score part and seat."""
    st = layout.STATS.named(b.stats)
    days = st["days"]
    rows = []
    for s in range(b.players):
        for j, part in enumerate(PARTS):
            m, lo, hi = mean_ci(*st["score_parts"][s, j], days, lower=0.0)
            rows.append({"seat": s, "part": part, "n_days": int(days), "coins_per_day": m,
                         "mean_low": lo, "mean_high": hi})
    return pd.DataFrame(rows)


@dataclass
class Simulation:
    """All `simulate` tables, plus what produced them."""

    batch: Batch
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)

    def header(self) -> str:
        b = self.batch
        mc = f", mc rolls out to the end of the {b.mc_horizon}" if (b.profile.policies == 3).any() else ""
        rot = ", each seat's strategy drawn per game" if b.is_field else (", rotated over seats" if b.rotate else "")
        return (f"{b.rules.summary()}\nprofile {b.profile.text()} ({b.players} players{mc}{rot}), n={b.n} games, "
                f"seed {b.seed}; {CI_METHOD}")


def simulate(players: int, profile: str, n: int, settings: RunSettings = RunSettings(), *, rotate: bool = False,
             favour_value: bool = True) -> Simulation:
    """Play ``n`` games and build every `simulate` table (favour values cost 3 more runs)."""
    b = run_games(players, profile, n, settings, rotate=rotate)
    gifted = None
    if favour_value:
        gifted = {name: run_games(players, b.profile, n, settings.but(rules=b.rules, overrides=None), rotate=rotate,
                                  gift=(t, 0), label=f"extra {name}")
                  for t, name in enumerate(FAVOUR_TYPES)}
    sim = Simulation(b)
    sim.tables = {"wins": win_table(b), "seats": seat_table(b), "favours": favour_table(b, gifted),
                  "start_card": start_card_table(b), "unclaimed": unclaimed_table(b),
                  "short_decks": short_table(b), "score_parts": parts_table(b)}
    return sim
