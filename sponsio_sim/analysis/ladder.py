"""Sponsio's robustness ladder: the headline findings under three player models.

Rungs (``rungs``):

- **reference field**: the shipped equilibrium field (``--profile reference``);
- **every seat mc**: the rollout bettor at every seat, its cash-in matched to
  the field's heaviest member (``MC_GAMES`` games or more, so a 4-point seat
  gap is resolved);
- **best single profile**: the population member that, played at every seat,
  leaves the smallest gain to any other member (its pure-profile Nash gap in
  the field's own payoff table).

Each rung is one balance measurement (``balance.choice.measure_choice``: the
profile's games plus the deviating player's restricted-play and troll plays,
paired). The findings (``findings``) are the seat gap, game length, troll
share, trolling against betting, and per bet type its share of the bets and
its restricted-play value, each classified against the choice-balance bands
(``balance.criteria``) and tagged by ``tabletop_mc.ladder``.
"""

from __future__ import annotations

import io
from importlib import resources

import numpy as np
import pandas as pd

from tabletop_mc.ladder import Estimate, Finding
from tabletop_mc.metagame import PayoffTable
from sponsio_sim.analysis.balance.choice import Choice, measure_choice
from sponsio_sim.analysis.balance.criteria import Bands
from sponsio_sim.analysis.balance.measures import focal_value, level
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import Profile, parse_profile

MC_GAMES = 5_000
FIELD, MC, SINGLE = "reference field", "every seat mc", "best single profile"
RUNGS = (FIELD, MC, SINGLE)
SEAT_BAND = (-0.01, 0.01)    # seat 0 within 1 point of the fair share: no seat advantage worth a rule
GAP_BAND = (0.0, 0.02)       # the largest gap between two seats: within 2 points


def best_single(rules, field: Profile) -> str:
    """The member of ``field``'s population that, at every seat, leaves the smallest gain to another
    member (from the field's payoff table; module docstring)."""
    name = field.field.payoffs
    text = resources.files("sponsio_sim").joinpath("fields", name).read_text(encoding="utf-8") if name else ""
    if not text:
        return field[int(np.argmax(field.weights))].text
    table = PayoffTable.from_frame(pd.read_csv(io.StringIO(text)), f"payoff table {name}")
    game = table.game()
    gaps = [float(game.regrets(np.eye(len(table.names))[j]).max()) for j in range(len(table.names))]
    return table.names[int(np.argmin(gaps))]


def rungs(rules) -> dict[str, Profile]:
    """The three player models for ``rules`` (module docstring)."""
    field = parse_profile("reference", rules)
    heaviest = field[int(np.argmax(field.weights))]
    mc = parse_profile(f"mc:goal:{heaviest.cash_text} x{rules.players}", rules)
    single = parse_profile(f"{best_single(rules, field)} x{rules.players}", rules)
    return {FIELD: field, MC: mc, SINGLE: single}


def measure(rules, profiles: dict[str, Profile], n: int, n_mc: int, *, seed: int, progress=None) -> dict[str, Choice]:
    """One balance measurement per rung (the field's model for the field and the single profile)."""
    model = find_model(rules, variant="reference")
    return {name: measure_choice(rules, prof, n_mc if name == MC else n, seed=seed, model=model, progress=progress)
            for name, prof in profiles.items()}


def _est(v, lo, hi, n) -> Estimate:
    return Estimate(float(v), float(lo), float(hi), int(n))


def findings(rules, choices: dict[str, Choice]) -> list[Finding]:
    """The headline findings under every rung (module docstring), in report order."""
    bands = Bands().for_rules(rules)
    out = []

    def add(name, unit, band, get, lever=""):
        f = Finding(name, unit, band, lever=lever, players=rules.players)
        for rung, ch in choices.items():
            est = get(ch)
            if est is not None:
                f.estimates[rung] = est
        out.append(f)

    def lv(name):
        def get(ch):
            x = level(ch.run, 0, name)
            return _est(x["level"], x["level_low"], x["level_high"], x["n"])
        return get

    add("seat 0 (acts first) against the fair share", "win share", SEAT_BAND, lv("seat 0 - fair share"))
    add("the largest gap between two seats", "win share", GAP_BAND, lv("largest seat gap"))
    add("rounds per game", "rounds", (bands.rounds.lo, bands.rounds.hi), lv("rounds per game"))
    add("troll share of seat-rounds", "", (bands.troll.lo, bands.troll.hi), lv("troll share"))

    def trolling(ch):
        cp = ch.plays
        if cp.troll is None:
            return None
        return _est(*focal_value(ch.run, cp.troll, cp.base), ch.run.n)
    add("trolling every round less betting (paired)", "win share", (0.0, 0.0), trolling)
    for kind in rules.bets:
        b = bands.of("share", kind)
        add(f"{kind}: share of the bets placed", "", (b.lo, b.hi), lambda ch, k=kind: _est(*ch.share(k), ch.run.n))
        b = bands.of("rp", kind)
        add(f"{kind}: restricted-play value", "win share", (b.lo, b.hi),
            lambda ch, k=kind: _est(*ch.rp_value(k), ch.run.n) if k in ch.plays.without else None)
    return out


def describe(rules, profiles: dict[str, Profile]) -> str:
    """One line naming the three rungs."""
    return "; ".join(f"{name}: {prof.text()}" for name, prof in profiles.items())

