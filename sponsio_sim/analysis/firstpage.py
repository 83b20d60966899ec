"""Sponsio's first screen per player count (``tabletop_mc.firstscreen``): the verdict against the
bands, the changes from the lever sweeps (the field re-solved for every value), each replayed on
fresh seeds with the field re-solved for the changed rules and with `mc` at every seat (the ladder's
every-seat-mc rung, ``n_mc`` games), and mc's gain against the field.

Bands (``bands_for``): seat 0 within 1 point of the fair share (``ladder.SEAT_BAND``), rounds per
game, troll share and every bet type's share of the bets (``balance.criteria.Bands``). The largest
seat gap is left out: the largest of several noisy gaps is biased upwards by construction.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.firstscreen import Screen, check_bands, search, strength_sentence
from sponsio_sim.analysis import ladder
from sponsio_sim.analysis.balance.adapt import adapted, field_adapter
from sponsio_sim.analysis.balance.criteria import Bands
from sponsio_sim.analysis.balance.measures import level
from sponsio_sim.analysis.balance.plays import Play, run_plays
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.meta import focal_gain
from sponsio_sim.analysis.game.setup import parse_profile, parse_strategy
from sponsio_sim.rules import load_rules

CONFIRM_SEED = 7_777     # fresh seeds for the confirmation runs: seed + this


def bands_for(rules, chosen: dict | None = None, bands: Bands = Bands()) -> dict:
    """Every first-screen measure's band (``chosen`` replaces some; an unknown measure or a band that
    cannot be met is one ``UserError`` line)."""
    b = bands.for_rules(rules)
    out = {"seat 0 - fair share": ladder.SEAT_BAND, "rounds per game": (b.rounds.lo, b.rounds.hi),
           "troll share": (b.troll.lo, b.troll.hi)}
    out.update({f"{k} share of bets": (b.of("share", k).lo, b.of("share", k).hi) for k in rules.bets})
    check_bands(chosen or {}, list(out))
    return {**out, **(chosen or {})}


def levels(sweeps, players: int) -> pd.DataFrame:
    """Every lever's rows for ``players`` in one tidy table (a ``lever`` column added)."""
    return pd.concat([r.rows.assign(lever=r.lever.key) for r in sweeps if r.players == players], ignore_index=True)


def mc_gain(rules, n: int, seed: int) -> tuple[float, float, float]:
    """mc's paired gain in win share at one seat against the reference field (its cash-in the heaviest
    member's)."""
    field = parse_profile("reference", rules)
    heaviest = field[int(np.argmax(field.weights))]
    mc = parse_strategy(f"mc:goal:{heaviest.cash_text if heaviest.cash is not None else 'cash5'}", rules)
    return focal_gain(rules, field, mc, n, seed=seed, model=find_model(rules, variant="reference"))


def screen(sweeps, players: int, *, n: int, adapt_games: int, seed: int, gain, n_mc: int,
           bands: dict | None = None) -> Screen:
    """The first screen for ``players`` (module docstring); ``bands`` replace some of ``bands_for``'s."""
    base = load_rules(None, players)
    bands = bands_for(base, bands)
    field = parse_profile("reference", base)
    model = find_model(base, variant="reference")
    resolver = field_adapter(base, field, games=adapt_games, seed=seed, model=model)
    lever_of = {r.lever.key: r.lever for r in sweeps if r.players == players}

    def changed(setting: dict):
        over = {}
        for key, value in setting.items():
            value = int(value) if float(value).is_integer() else float(value)
            over.update(lever_of[key].overrides(base, value))
        return load_rules(base, overrides=over)

    def levels_of(play: Play, games: int) -> dict:
        run = run_plays([play], games, seed=seed + CONFIRM_SEED, model=model)
        return {name: (g["level"], g["level_low"], g["level_high"], g["n"])
                for name, g in ((name, level(run, 0, name)) for name in bands)}

    def confirm(setting: dict) -> dict:
        rules = changed(setting)
        return levels_of(Play(rules, adapted(resolver, rules, field)), n)

    def under_mc(setting: dict) -> dict:
        rules = changed(setting)
        return levels_of(Play(rules, ladder.rungs(rules)[ladder.MC]), n_mc)

    judged, changes = search(levels(sweeps, players), bands, confirm, under_mc=under_mc)
    g, lo, hi = gain
    return Screen(f"Sponsio, {players} players", judged, changes,
                  strength_sentence(g, lo, hi, n_mc, 1 / players), (g, lo, hi, n_mc, 1 / players))
