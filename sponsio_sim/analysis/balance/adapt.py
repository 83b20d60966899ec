"""The reference field re-solved for each rule set a lever plays (``tabletop_mc.adaptive``).

``field_adapter(base, profile, ...)`` gives the re-solver of a field profile:
for a rule set it plays the payoff table of the field's near members under
those rules (``game.meta.adapter``: seats rotated, the game's batch cache)
with the base rule set's success model where the deal is unchanged, else the
model for that deal, and solves the weights. ``adapted(resolver, rules,
profile)`` is the field with those weights: the same members, so every lever
value's games stay paired with the standard value's.
"""

from __future__ import annotations

import json

from tabletop_mc.adaptive import KEEP, Adapter, mc_check_row
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.analysis.game.meta import adapter
from sponsio_sim.analysis.game.model import fingerprint
from sponsio_sim.analysis.game.setup import Profile, mixture_profile, parse_strategy
from sponsio_sim.rules import RuleSet

ADAPT_GAMES = 2_000    # games per profile of a re-solved table (scaled by the report)


def rules_key(rules: RuleSet) -> str:
    return json.dumps(rules.as_dict(), sort_keys=True, default=str)


def field_adapter(base: RuleSet, profile: Profile, *, games: int, seed: int, model, keep: int = KEEP,
                  cache: bool = True) -> Adapter:
    """The re-solver of ``profile`` (a field) for rule sets like ``base`` (module docstring)."""
    if profile.field is None:
        raise ValueError("only a field's weights can be re-solved")
    fld = profile.field
    texts = [st.text for st in profile]

    def make(rules: RuleSet, near: list[int]):
        success = model if fingerprint(rules) == fingerprint(base) else resolve(
            mixture_profile(list(profile), fld.weights, profile.name, rules), rules).model
        members = [parse_strategy(texts[j], rules, clamp_cash=True) for j in near]
        return adapter(rules, members, success, cache=cache)

    return Adapter(texts, fld.weights, fld.regret, base.players, make, rules_key, games, seed, keep)


def adapted(resolver: Adapter, rules: RuleSet, profile: Profile) -> Profile:
    """``profile``'s members with the weights re-solved under ``rules``."""
    a = resolver(rules)
    members = [parse_strategy(st.text, rules, clamp_cash=True) for st in profile]
    return mixture_profile(members, a.weights, f"field re-solved for {rules.name}", rules)


def every_seat_mc(field, rules: RuleSet):
    """``mc`` at every seat, cashing in as the field's heaviest member does
    (``never``, ``cashK`` or the network's ``net``): the lookahead the
    re-solved field is checked against."""
    import numpy as np

    from sponsio_sim.analysis.game.setup import parse_profile

    heaviest = field[int(np.argmax(field.weights))]
    return parse_profile(f"mc:goal:{heaviest.cash_text} x{rules.players}", rules)


def mc_check(base: RuleSet, levers, *, n: int, n_mc: int, games: int, seed: int, keep: int = KEEP,
             measure: str = "troll share", cache: bool = True, progress=None):
    """At each lever's lowest and highest value: ``measure`` under the reference field as shipped
    (fixed weights), under the field re-solved for that rule set (``n`` games each, paired) and under
    every-seat ``mc`` (``n_mc`` games), with 95 % intervals, ``within`` and ``closer``
    (``tabletop_mc.adaptive.mc_check_row``). Returns (table, the re-solver's cost)."""
    import numpy as np
    import pandas as pd

    from sponsio_sim.analysis.balance.measures import level
    from sponsio_sim.analysis.balance.plays import Play, run_plays
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.setup import parse_profile

    field = parse_profile("reference", base)
    model = find_model(base, variant="reference")
    resolver = field_adapter(base, field, games=games, seed=seed, model=model, keep=keep, cache=cache)
    rows = []
    for lever in levers:
        for value in sorted({min(lever.values), max(lever.values)}):
            rules = load_rules_for(base, lever, value)
            fixed = parse_profile("reference", rules)
            run = run_plays([Play(rules, fixed), Play(rules, adapted(resolver, rules, field))], n, seed=seed,
                            model=model, progress=progress, cache=cache)
            mc = every_seat_mc(field, rules)
            mrun = run_plays([Play(rules, mc)], n_mc, seed=seed, model=model, progress=progress, cache=cache)
            f, a, m = (level(r, j, measure) for r, j in ((run, 0), (run, 1), (mrun, 0)))
            rows.append({"players": base.players, "lever": lever.key, "value": value, "measure": measure,
                         **mc_check_row(*((x["level"], x["level_low"], x["level_high"]) for x in (f, a, m))),
                         "n": n, "n_mc": n_mc, "mixture": resolver(rules).text()})
    return pd.DataFrame(rows), resolver.cost()


def load_rules_for(base: RuleSet, lever, value) -> RuleSet:
    from sponsio_sim.rules import load_rules
    return load_rules(base, overrides=lever.overrides(base, value))
