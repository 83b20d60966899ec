"""Players who adapt, checked against `mc` (``scripts/adaptive_check.py --game caesar``).

At each lever value the report turns, a lever measure under the reference field as shipped, under
the field re-solved for that rule set (``balance.adapt``) and under every-seat `mc` (the ladder's
strong-play rung): where re-solving the weights brings the field to what a lookahead at every seat
plays, and where it cannot.
"""

from __future__ import annotations

import pandas as pd

from tabletop_mc.adaptive import KEEP, mc_check_row
from tabletop_mc.errors import UserError
from caesar_sim.analysis.balance.adapt import adapted, field_adapter
from caesar_sim.analysis.balance.levers import CLOSE, MEASURES, levels
from caesar_sim.analysis.balance.sweep import variants
from caesar_sim.analysis.game.runs import RunSettings, run_games
from caesar_sim.analysis.robust import MC
from caesar_sim.fieldplay import field_play
from caesar_sim.rules import load_rules


def mc_check(players: int, alternatives, settings: RunSettings, *, n: int, n_mc: int, games: int,
             keep: int = KEEP, measure: str | None = None):
    """For each lever value of ``alternatives`` (``KEY=V1;V2`` texts, ``sweep.variants``: a lever's ends
    around the standard value): ``measure`` (default: close games) under the reference field as shipped,
    under the field re-solved for that rule set (``n`` games each, the same seed) and under every-seat
    `mc` (``robust.MC``, the ladder's strong-play rung, ``n_mc`` games), with 95 % intervals, ``within``
    and ``closer`` (``tabletop_mc.adaptive.mc_check_row``). Returns (table, the re-solver's cost)."""
    measure = measure or f"close games (lead <= {CLOSE})"
    if measure not in MEASURES:
        raise UserError(f"--measure {measure!r}: one of {', '.join(MEASURES)}")
    base = load_rules(settings.rules, settings.overrides)
    alts = variants(alternatives)
    for key, value in alts:   # every value checked before anything runs
        load_rules(base, [f"{key}={value}"])
    play = field_play("reference", players)
    resolver = field_adapter(players, play, settings.but(rules=base, overrides=()), games=games, keep=keep)
    rows = []
    for key, value in alts:
        rules = load_rules(base, [f"{key}={value}"])
        s = settings.but(rules=rules, overrides=())
        got = [levels(run_games(players, who, k, s, day_totals=True))[measure]
               for who, k in ((play, n), (adapted(resolver, rules, play), n), (f"{MC} x{players}", n_mc))]
        rows.append({"players": players, "lever": key, "value": value.replace(" ", ""), "measure": measure,
                     **mc_check_row(*got), "n": n, "n_mc": n_mc, "mixture": resolver(rules).text()})
    return pd.DataFrame(rows), resolver.cost()
