"""The Circus field re-solved for each rule set a lever plays (``tabletop_mc.adaptive``).

``field_adapter(players, play, settings, ...)`` gives the re-solver of a field
(``FieldPlay``): for a rule set it plays the payoff table of the field's near
members under those rules (``game.meta.payoff_adapter``) and solves the weights;
``adapted(resolver, rules, play)`` is the field with those weights (members of
weight 0 left out: a Circus field draws by its weights, so the games of every
value still share their deals and random streams).
"""

from __future__ import annotations

import json

from tabletop_mc.adaptive import KEEP, Adapter, mc_check_row
from caesar_sim.analysis.game.meta import payoff_adapter
from caesar_sim.analysis.game.runs import RunSettings
from caesar_sim.fieldplay import FieldPlay, mixture_play

ADAPT_GAMES = 1_000    # games per profile of a re-solved table (scaled by the report)


def rules_key(rules) -> str:
    return json.dumps(rules.as_dict(), sort_keys=True, default=str)


def field_adapter(players: int, play: FieldPlay, settings: RunSettings, *, games: int, keep: int = KEEP) -> Adapter:
    """The re-solver of ``play`` for rule sets (``RuleSet`` objects) under ``settings``' threads and seed."""
    f = play.field
    members = list(play.members)
    weights = f.weights if f is not None else play.weights
    regret = f.regret if f is not None and f.regret else ()
    if f is not None:   # the field file's full member list (a FieldPlay keeps only those of weight > 0)
        from caesar_sim.strategy import parse_strategy
        members = [parse_strategy(m, players, play.base) for m in f.members]

    def make(rules, near):
        return payoff_adapter(players, [members[j] for j in near], settings.but(rules=rules, overrides=()),
                              base=play.base)

    return Adapter([m.label for m in members], tuple(weights), tuple(regret), players, make, rules_key, games,
                   settings.seed, keep)


def adapted(resolver: Adapter, rules, play: FieldPlay) -> FieldPlay:
    """``play``'s members with the weights re-solved under ``rules``."""
    a = resolver(rules)
    f = play.field
    texts = list(f.members) if f is not None else [m.label for m in play.members]
    keep = [j for j, w in enumerate(a.weights) if w > 0]
    return mixture_play(f"{play.name} re-solved", play.players, [texts[j] for j in keep],
                        [float(a.weights[j]) for j in keep], play.base)


def mc_check(players: int, alternatives, settings: RunSettings, *, n: int, n_mc: int, games: int,
             keep: int = KEEP, measure: str | None = None):
    """For each lever value of ``alternatives`` (``KEY=V1;V2`` texts, ``sweep.variants``: a lever's ends
    around the standard value): ``measure`` (default: close games) under the reference field as shipped,
    under the field re-solved for that rule set (``n`` games each, the same seed) and under every-seat
    `mc` (``robust.MC``, the ladder's strong-play rung, ``n_mc`` games), with 95 % intervals, ``within``
    and ``closer`` (``tabletop_mc.adaptive.mc_check_row``). Returns (table, the re-solver's cost)."""
    import pandas as pd

    from caesar_sim.analysis.balance.levers import CLOSE, MEASURES, levels
    from caesar_sim.analysis.balance.sweep import variants
    from caesar_sim.analysis.game.runs import run_games
    from caesar_sim.analysis.robust import MC
    from caesar_sim.fieldplay import field_play
    from caesar_sim.rules import load_rules

    measure = measure or f"close games (lead <= {CLOSE})"
    if measure not in MEASURES:
        from tabletop_mc.errors import UserError
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
