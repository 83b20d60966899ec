"""Circus Maximus's first screen per player count (``tabletop_mc.firstscreen``): the verdict against
the bands, the changes from the lever tables (the field re-solved for every value), each replayed on
fresh seeds with the field re-solved for the changed rules and with `mc` at every seat (the ladder's
rung, ``n_mc`` games), and mc's gain against the field (``mc_gain``).

Bands (``BANDS``, shown on the page): the start seat within 1 point of the fair share (the same
as Sponsio's seat band); close games (a lead of 2 coins or fewer) 0.30..0.70 of games, so a third
or more stay tense to the end without most being a coin toss; the comeback rate (won by a seat
last after day 1) 0.10..0.40: a poor first day can be recovered, but not as a rule. Days per game
is fixed by the rules (no band: an identity), mean final coins has no healthy level.
"""

from __future__ import annotations

import pandas as pd

from tabletop_mc.firstscreen import Screen, check_bands, search, strength_sentence
from caesar_sim.analysis.balance.adapt import adapted, field_adapter
from caesar_sim.analysis.balance.levers import CLOSE, levels
from caesar_sim.analysis.game.meta import paired_gain
from caesar_sim.analysis.robust import MC
from caesar_sim.analysis.game.runs import RunSettings, run_games
from caesar_sim.analysis.game.nettrain import Plan, auditor
from caesar_sim.fieldplay import field_play
from caesar_sim.rules import load_rules

BANDS = {"start seat - fair share": (-0.01, 0.01), f"close games (lead <= {CLOSE})": (0.30, 0.70),
         "comeback rate": (0.10, 0.40)}
CONFIRM_SEED = 7_777     # fresh seeds for the confirmation runs: seed + this


def lever_rows(results, players: int) -> pd.DataFrame:
    return pd.concat([r.rows.assign(lever=r.key) for r in results if r.players == players], ignore_index=True)


def mc_gain(players: int, n: int, settings: RunSettings) -> tuple[float, float, float]:
    """mc's paired gain in win share at one seat against the reference field, `mc` rolling out with the
    field (``game.nettrain.auditor``: the others drawn from the field, the mover as its heaviest member): the
    lookahead that models these players, as training measures it. A lookahead rolling out with another
    policy (``robust.MC``) measures how far that policy is from the field, not how beatable the field is."""
    play = field_play("reference", players)
    g = paired_gain(players, play, auditor(play, Plan()), n, settings)
    return g["gain"], g["gain_low"], g["gain_high"]


def bands_for(chosen: dict | None = None) -> dict:
    """``BANDS`` with ``chosen`` replacing some (an unknown measure or a band that cannot be met: one line)."""
    check_bands(chosen or {}, list(BANDS))
    return {**BANDS, **(chosen or {})}


def changed_settings(base, setting: dict, settings: RunSettings) -> RunSettings:
    """``settings`` under ``base`` with ``setting`` (lever -> value), on the fresh seeds (``CONFIRM_SEED``)."""
    rules = load_rules(base, [f"{k}={v}" for k, v in setting.items()])
    return settings.but(rules=rules, overrides=(), seed=settings.seed + CONFIRM_SEED)


def confirm_run(players: int, resolver, base, setting: dict, n: int, settings: RunSettings) -> dict:
    """Every measure's (level, 95 % low, high, n) under ``base`` with ``setting`` (lever -> value), the
    field re-solved for those rules, on fresh seeds (``CONFIRM_SEED``)."""
    fresh = changed_settings(base, setting, settings)
    b = run_games(players, adapted(resolver, fresh.rules, field_play("reference", players)), n, fresh,
                  day_totals=True)
    return {name: (*got, b.n) for name, got in levels(b).items()}


def mc_run(players: int, base, setting: dict, n: int, settings: RunSettings) -> dict:
    """Every measure's (level, 95 % low, high, n) under ``base`` with ``setting``, `mc` (``robust.MC``, the
    ladder's every-seat rung) at every seat, on fresh seeds."""
    b = run_games(players, f"{MC} x{players}", n, changed_settings(base, setting, settings), day_totals=True)
    return {name: (*got, b.n) for name, got in levels(b).items()}


def screen(results, players: int, *, n: int, adapt_games: int, settings: RunSettings, gain, n_mc: int,
           bands: dict | None = None) -> Screen:
    """The first screen for ``players`` (module docstring); ``bands`` replace some of ``BANDS``."""
    bands = bands_for(bands)
    base = load_rules(settings.rules, settings.overrides)
    play = field_play("reference", players)
    resolver = field_adapter(players, play, settings.but(rules=base, overrides=()), games=adapt_games)

    def confirm(setting: dict) -> dict:
        return confirm_run(players, resolver, base, setting, n, settings)

    def under_mc(setting: dict) -> dict:
        return mc_run(players, base, setting, n_mc, settings)

    df = lever_rows(results, players).assign(n=n)
    judged, changes = search(df, bands, confirm, under_mc=under_mc)
    g, lo, hi = gain
    return Screen(f"Circus Maximus, {players} players", judged, changes,
                  strength_sentence(g, lo, hi, n_mc, 1 / players), (g, lo, hi, n_mc, 1 / players))
