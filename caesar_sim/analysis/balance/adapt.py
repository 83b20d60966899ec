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

from tabletop_mc.adaptive import KEEP, Adapter
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

