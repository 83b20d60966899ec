"""`caesar sweep`: lever-to-effect tables, one per rule number a designer can turn.

For each lever (a rule-set key) and each value, the players play the same games under the
changed rule set and under the unchanged one (the same seed: in a field the same deals and the
same members drawn in game g; a fixed profile the same random streams), and the effect of the
value on each measure is the paired difference, with a 95 % interval from the per-game values
(``tabletop_mc.moments``: t intervals for means and differences of means, the delta method for
the largest seat gap). ``moved`` is true only when that interval excludes 0.

Measures (``MEASURES``), per game and averaged: the start seat's win share against the fair
share; the largest gap between two seats' win shares (the seats as estimated in each run); days
per game (fixed by ``days``); mean final coins; the score spread (SD of the seats' final coins
within a game); the winner's lead over the runner-up; close games (a lead of ``CLOSE`` coins or
fewer); lead changes per game (day ends at which no seat leading before still leads); the
comeback rate (games won by a seat that was last, strictly behind the leader, after day 1).

With ``adapt_games`` (a field) the field's weights are re-solved for every value's rule set, the
unchanged rules' included (``analysis.balance.adapt``: the near members' payoff table under those rules,
common random numbers), so an effect compares adapted players with adapted players. The members'
policies are not refitted per variant: ``tuned`` and ``distilled`` keep their weights (a refit
is a `caesar tune` or `caesar distill` run of minutes per variant), but every scoring policy
reads the rule numbers (an item's worth in coins, a merchant card's coins) and re-decides.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from tabletop_mc.moments import Moments
from tabletop_mc.errors import UserError
from caesar_sim.analysis.balance.adapt import adapted, field_adapter
from caesar_sim.analysis.game.runs import Batch, RunSettings, run_games
from caesar_sim.fieldplay import FieldPlay, field_play
from caesar_sim.profile import is_field
from caesar_sim.analysis.balance.sweep import variants
from caesar_sim.rules import load_rules

CLOSE = 2   # coins: a game is close when the winner leads the runner-up by at most this
# the levers the report turns (``KEY=V1;V2``, the standard value left out); `caesar train` plays them too
REPORT_LEVERS = ("merchant.coins=[0,0,0,1,1,2,2,3];[0,1,1,2,2,3,3,4]", "favour.gold_coins=1;3",
                 "favour.boost_value=2;5", "tickets.coins=[1,1,1,2,2,3]", "tickets_per_day=3;5")
MEASURES = ("start seat - fair share", "largest seat gap", "days per game", "mean final coins",
            "score spread (SD of final coins)", "winner's lead (coins)", f"close games (lead <= {CLOSE})",
            "lead changes per game", "comeback rate")
REFIT = ("no: tuned and distilled keep their weights (a refit takes minutes per variant); every scoring policy "
         "reads the changed numbers and re-decides")
ADAPTED = ("; the field re-solved for every value (its near members' payoff table under that value's rules, "
           "{games:,} games per profile, common random numbers)")
_PER_GAME = MEASURES[2:]   # one column each after the seats' win shares


def game_vectors(b: Batch) -> np.ndarray:
    """(n, players + 7) per game: each seat's win share, then ``_PER_GAME`` in order."""
    if b.day_totals is None:
        raise ValueError("lever measures need the day-end totals (run_games(..., day_totals=True))")
    sc = b.scores.astype(float)
    top = np.sort(sc, axis=1)
    lead = top[:, -1] - top[:, -2]
    d = b.day_totals
    leading = d == d.max(axis=2, keepdims=True)
    changes = (~(leading[:, 1:] & leading[:, :-1]).any(axis=2)).sum(axis=1)
    first = d[:, 0]
    last = (first == first.min(axis=1, keepdims=True)) & (first < first.max(axis=1, keepdims=True))
    comeback = ((sc == sc.max(axis=1, keepdims=True)) & last).any(axis=1)
    cols = [np.full(b.n, float(d.shape[1])), sc.mean(axis=1), sc.std(axis=1), lead, (lead <= CLOSE).astype(float),
            changes.astype(float), comeback.astype(float)]
    return np.column_stack([b.win_shares(by_entry=False), *cols])


def moments_of(x: np.ndarray) -> Moments:
    """Moments of the rows of ``x`` (one per game)."""
    x = np.asarray(x, dtype=np.float64)
    return Moments(np.concatenate([[len(x)], x.sum(axis=0), (x.T @ x).ravel()]), x.shape[1])


def _measure(mo: Moments, off: int, players: int, first: int, name: str) -> tuple[np.ndarray, float]:
    """(coefficients, shift) of ``name`` in the block of columns starting at ``off``: its value is
    coef . means + shift (the largest gap: between the seats with the highest and lowest mean there)."""
    if name == MEASURES[0]:
        return mo.coef(off + first), -1.0 / players
    if name == MEASURES[1]:
        w = mo.mean[off:off + players]
        return mo.coef(off + int(np.argmax(w)), (off + int(np.argmin(w)), -1.0)), 0.0
    return mo.coef(off + players + _PER_GAME.index(name)), 0.0


def levels(b: Batch) -> dict[str, tuple[float, float, float]]:
    """Every measure's level in one batch (played with ``day_totals``): (value, 95 % low, high)."""
    mo = moments_of(game_vectors(b))
    return {name: mo.linear(*_measure(mo, 0, b.players, b.rules.first_start_seat, name)) for name in MEASURES}


@dataclass
class LeverResult:
    """One lever at one player count: a row per value and measure (``rows``)."""

    players: int
    key: str
    standard: str
    rows: pd.DataFrame
    profile: str
    refit: str = REFIT
    fields: dict | None = None   # adapt: value -> the re-solved mixture (``tabletop_mc.adaptive.Adapted``)


def _standard(rules, key: str) -> str:
    node = rules.as_dict()
    for part in key.split("."):
        node = node[part]
    return str(node).replace(" ", "")


def lever_effects(players: int, profile, n: int, alternatives, settings: RunSettings = RunSettings(), *,
                  rotate: bool = True, adapt_games: int = 0) -> list[LeverResult]:
    """One ``LeverResult`` per rule key of ``alternatives`` (``KEY=V1;V2`` texts, ``sweep.variants``): the
    unchanged rules (``settings.rules``) and every value on the same seed (module docstring);
    ``adapt_games`` > 0 (a field): the field re-solved per value, that many games per profile."""
    alts = variants(alternatives)
    base_rules = load_rules(settings.rules)
    for key, value in alts:   # every variant checked before anything runs
        load_rules(base_rules, [f"{key}={value}"])
    kw = dict(rotate=rotate, day_totals=True)
    resolver, who = None, lambda rules: profile   # noqa: E731
    if adapt_games > 0:
        fp = profile if isinstance(profile, FieldPlay) else field_play(str(profile), players) if (
            isinstance(profile, str) and is_field(profile)) else None
        if fp is None:
            raise UserError("--adapt re-solves a field's weights: give a field profile (reference, field:FILE)")
        resolver = field_adapter(players, fp, settings.but(rules=base_rules), games=adapt_games)
        who = lambda rules: adapted(resolver, rules, fp)   # noqa: E731
    base = run_games(players, who(base_rules), n, settings.but(rules=base_rules), label="unchanged rules", **kw)
    xb = game_vectors(base)
    first = base_rules.first_start_seat
    out = []
    for key in dict.fromkeys(k for k, _ in alts):
        unchanged = _standard(base_rules, key)   # the lever's value in the unchanged rules
        mo = moments_of(np.column_stack([xb, xb]))
        rows = [_row(mo, xb.shape[1], players, first, unchanged, True)]
        for k, value in alts:
            if k != key:
                continue
            alt_rules = load_rules(base_rules, [f"{key}={value}"])
            alt = run_games(players, base.profile if resolver is None else who(alt_rules), n,
                            settings.but(rules=alt_rules), label=f"{key}={value}", **kw)
            mo = moments_of(np.column_stack([xb, game_vectors(alt)]))
            rows.append(_row(mo, xb.shape[1], players, first, value.replace(" ", ""), False))
        fields = None if resolver is None else {unchanged: resolver(base_rules), **{
            v.replace(" ", ""): resolver(load_rules(base_rules, [f"{k}={v}"])) for k, v in alts if k == key}}
        out.append(LeverResult(players, key, unchanged, pd.DataFrame([r for rs in rows for r in rs]),
                               base.profile.text(), REFIT if resolver is None else REFIT + ADAPTED.format(
                                   games=adapt_games), fields))
    return out


def _row(mo: Moments, m: int, players: int, first: int, value: str, standard: bool) -> list[dict]:
    """A row per measure: its level under ``value`` (columns m..2m-1) and the paired effect against the
    unchanged rules (columns 0..m-1)."""
    rows = []
    for name in MEASURES:
        c1, s1 = _measure(mo, m, players, first, name)
        c0, s0 = _measure(mo, 0, players, first, name)
        level = mo.linear(c1, s1)
        eff = (0.0, 0.0, 0.0) if standard else mo.linear(c1 - c0, s1 - s0)
        moved = bool(eff[1] > 0 or eff[2] < 0)
        rows.append({"value": value, "standard": standard, "measure": name, "level": level[0],
                     "level_low": level[1], "level_high": level[2], "effect": eff[0], "effect_low": eff[1],
                     "effect_high": eff[2], "moved": moved})
    return rows


def effects_table(results: list[LeverResult]) -> pd.DataFrame:
    """Every lever's rows in one tidy table (JSON, CSV)."""
    frames = [r.rows.assign(players=r.players, lever=r.key, refitted=False) for r in results]
    df = pd.concat(frames, ignore_index=True)
    first = ["players", "lever", "value", "standard", "measure"]
    return df[first + [c for c in df.columns if c not in first]]


def reading_table(r: LeverResult) -> pd.DataFrame:
    """One lever for reading: a row per measure, a column per value: the unchanged rules' level, and for
    every other value its effect [95% CI], '*' when moved."""
    out = []
    for name, d in r.rows.groupby("measure", sort=False):
        row = {"measure": name}
        for x in d.itertuples():
            if x.standard:
                row[f"{x.value} (standard)"] = f"{x.level:.3f}"
            else:
                row[x.value] = f"{x.effect:+.3f} [{x.effect_low:+.3f}, {x.effect_high:+.3f}]{'*' if x.moved else ''}"
        out.append(row)
    return pd.DataFrame(out)


def headline(results: list[LeverResult]) -> pd.DataFrame:
    """The effects that moved, largest first within each player count: lever, value, measure, effect, CI."""
    rows = []
    for r in results:
        d = r.rows[r.rows["moved"] & (r.rows["measure"] != "mean final coins")]
        for x in d.itertuples():
            rows.append({"players": r.players, "lever": r.key, "value": x.value, "measure": x.measure,
                         "level": x.level, "effect": x.effect, "effect_low": x.effect_low,
                         "effect_high": x.effect_high})
    df = pd.DataFrame(rows, columns=["players", "lever", "value", "measure", "level", "effect", "effect_low",
                                     "effect_high"])
    return df.assign(size=df["effect"].abs()).sort_values(["players", "size"], ascending=[True, False]).drop(
        columns="size").reset_index(drop=True)
