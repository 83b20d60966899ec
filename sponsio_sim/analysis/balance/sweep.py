"""`sponsio sweep`: lever-to-effect tables, one per rule-set number a designer can turn.

For each lever (a rule-set number, or ``track_value.scale``: every track value
times a factor, rounded) and each value, the profile plays the same games under
the changed rule set and under the unchanged one (``plays.run_plays``: the same
seed, so the same deals in every round both reach and, in a field, the same
members drawn), and the effect of the value on each measure (``measures``) is
the paired difference, with a 95 % interval from the per-game differences;
``moved`` is true only when that interval excludes 0. A lever that changes the
deal (``hand_size``) cannot pair games: its values play their own games on the
same seed, each with a success model for its deal (shipped, cached or fitted
now), and the interval adds the two runs' variances (``paired`` false).

The players: with ``adapt`` (a field), the field re-solved for every value's
rule set, the standard's included (``balance.adapt``: the same members, their
weights the equilibrium of the near members' payoff table under those rules,
on common random numbers), so an effect compares adapted players with adapted
players; without it the same strategies (a field: the same members and
weights) under every value. Either way they re-decide where their betting reads the changed number
(``adapts``: ``ev`` and ``distilled`` score bets by their multipliers and weigh
the troll pay a bet forgoes, ``distilled`` the track position at risk; no
betting decision reads the round bonus, the coins that end a game or the last
round); the success model is not refitted where the deal is unchanged (it
predicts who wins a bet, which none of these numbers changes); cash-in
thresholds are track positions and stay put.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from tabletop_mc.backend import use_backend
from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.runner import set_threads
from tabletop_mc.stats import t975
from sponsio_sim.analysis.balance.adapt import adapted, field_adapter
from sponsio_sim.analysis.balance.measures import effect, game_measures, level, value_grad
from sponsio_sim.analysis.balance.plays import Play, run_plays
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.analysis.game.model import fingerprint
from sponsio_sim.analysis.game.runs import check_n
from sponsio_sim.analysis.game.setup import parse_profile
from sponsio_sim.analysis.settings import Run
from sponsio_sim.rules import RuleSet, load_rules

TRACK_SCALE = "track_value.scale"
PLAYER_COUNTS = (3, 4)
MAX_VALUES = 12


@dataclass(frozen=True)
class Lever:
    key: str
    values: tuple

    def overrides(self, base: RuleSet, value) -> dict:
        if self.key == TRACK_SCALE:
            return {"track_value": [int(round(v * value)) for v in base.track_value]}
        return {self.key: value}

    def standard(self, base: RuleSet):
        """The unchanged rule set's value of the lever."""
        if self.key == TRACK_SCALE:
            return 1
        node = base.as_dict()
        for part in self.key.split("."):
            node = node[part]
        return node


def adapts(key: str) -> str:
    """How the players adapt to a lever that keeps the deal (what their betting reads: ``net`` reads
    every lever's rule number among its inputs, ``kernels.betting.net``)."""
    if key.startswith("multiplier"):
        return "ev, distilled and net re-decide (they score every bet by its multiplier)"
    if key in ("troll_pay", "stake", "token_cost"):
        return f"ev, distilled and net re-decide (they weigh the {key.replace('_', ' ')} in every bet)"
    if key in (TRACK_SCALE, "track_value"):
        return ("distilled and net re-decide (they weigh the track values, net's cash-in too); ev does not read "
                "track values, and cashN thresholds are positions, unchanged")
    if key in ("round_bonus", "coins_to_end", "max_rounds"):
        return (f"net re-decides (it reads the {key.replace('_', ' ')} among its inputs); ev and distilled "
                "decide as before")
    return "no betting decision reads it (only mc's rollouts would): the players decide as before"


def default_levers(rules: RuleSet) -> list[Lever]:
    """Each multiplier over the printed 2..5, troll pay, round bonus, the track values' scale,
    the coins that end a game and the last round: each around its standard value."""
    out = [Lever(f"multiplier.{k}", (2, 3, 4, 5)) for k in rules.bets]
    out += [Lever("troll_pay", (0, 1, 2, 3, 4)), Lever("round_bonus", (0, 1, 2, 3, 4, 5)),
            Lever(TRACK_SCALE, (0.5, 0.75, 1, 1.5, 2)), Lever("coins_to_end", (20, 25, 30, 35, 40)),
            Lever("max_rounds", (3, 4, 5, 6, 7))]
    return out


def parse_lever(text: str, rules: RuleSet) -> Lever:
    """``KEY=A..B`` (step 1), ``KEY=A..B:STEP`` or ``KEY=v1,v2,...``; KEY a rule-set number or
    ``track_value.scale``; every value checked against the rules now (one line if bad)."""
    if "=" not in text:
        raise UserError(f"--lever {text!r}: expected KEY=A..B or KEY=v1,v2")
    key, spec = (p.strip() for p in text.split("=", 1))
    if key == "players":
        raise UserError(f"--lever {text!r}: the player count is not a lever here; use --players 3,4")
    span = None
    try:
        if ".." in spec:
            rng, _, step = spec.partition(":")
            a, b = (float(x) for x in rng.split(".."))
            step = float(step) if step else 1.0
            if not all(math.isfinite(x) for x in (a, b, step)) or step <= 0 or b < a:
                raise ValueError
            span = (a, b, step)
        else:
            values = [float(v) for v in spec.split(",") if v.strip()]
            if not all(math.isfinite(v) for v in values):
                raise ValueError
    except ValueError:
        raise UserError(f"--lever {text!r}: values must be finite numbers, as A..B, A..B:STEP or v1,v2") from None
    if span is not None:
        a, b, step = span
        if (b - a) / step + 1 > MAX_VALUES:   # counted before any is made
            raise UserError(f"--lever {text!r}: give 1 to {MAX_VALUES} values")
        values = list(np.arange(a, b + step / 2, step))
    if not values or len(values) > MAX_VALUES:
        raise UserError(f"--lever {text!r}: give 1 to {MAX_VALUES} values")
    values = [int(v) if float(v).is_integer() else float(v) for v in values]
    lever = Lever(key, tuple(dict.fromkeys(values)))
    if key == TRACK_SCALE and any(v < 0 for v in values):
        raise UserError(f"--lever {text!r}: a scale must not be negative")
    for v in lever.values:
        load_rules(rules, overrides=lever.overrides(rules, v))   # unknown key or invalid value: one line now
    return lever


@dataclass
class LeverResult:
    players: int
    lever: Lever
    standard: object
    rows: pd.DataFrame     # one row per value and measure
    paired: bool
    refit: str
    runs: dict             # value -> (run, play): where each value was measured
    profile: str = ""      # who played
    rules: str = ""        # the unchanged rule set
    fields: dict = None    # adapt: value -> the re-solved mixture (``tabletop_mc.adaptive.Adapted``)


def change(r: LeverResult, v1, v0, name: str) -> dict:
    """The measure at value ``v1`` less at ``v0``: paired within one run, else between two
    independent runs on the same seed (variances add); ``moved``: the interval excludes 0."""
    (run1, j1), (run0, j0) = r.runs[v1], r.runs[v0]
    if run1 is run0:
        return effect(run1, j1, j0, name)
    x1, g1, _ = value_grad(run1, j1, name)
    x0, g0, _ = value_grad(run0, j0, name)
    var = (g1 @ run1.moments.cov @ g1) / run1.moments.n + (g0 @ run0.moments.cov @ g0) / run0.moments.n
    half = float(t975(min(run1.moments.n, run0.moments.n) - 1.0)) * float(np.sqrt(max(var, 0.0)))
    e = x1 - x0
    return {"effect": e, "effect_low": e - half, "effect_high": e + half, "moved": bool(e - half > 0 or e + half < 0)}


def sweep_lever(base: RuleSet, profile, lever: Lever, n: int, *, seed: int, model, bar=None,
                cache: bool = True, adapt=None) -> LeverResult:
    """One lever's table (module docstring); ``adapt``: the field's re-solver (``balance.adapt``)."""
    standard = lever.standard(base)
    values = [v for v in lever.values if v != standard]
    variants = [load_rules(base, overrides=lever.overrides(base, v)) for v in values]
    paired = all(fingerprint(r) == fingerprint(base) for r in variants)
    if bar is not None:
        bar.set_label(f"sweep {base.players}p {lever.key}")
    played = {standard: profile, **{v: profile for v in values}}
    if adapt is not None:
        played = {standard: adapted(adapt, base, profile),
                  **{v: adapted(adapt, r, profile) for v, r in zip(values, variants)}}
    if paired:
        run = run_plays([Play(base, played[standard])] + [Play(r, played[v]) for v, r in zip(values, variants)], n,
                        seed=seed, model=model, progress=bar, cache=cache)
        runs = {standard: (run, 0), **{v: (run, j + 1) for j, v in enumerate(values)}}
        refit = f"no (the deal is unchanged: the base rule set's success model); {adapts(lever.key)}"
    else:
        runs = {standard: (run_plays([Play(base, played[standard])], n, seed=seed, model=model, progress=bar,
                                     cache=cache), 0)}
        sources = []
        for v, r in zip(values, variants):
            m = resolve(profile, r).model
            runs[v] = (run_plays([Play(r, parse_profile(played[v], r))], n, seed=seed, model=m, progress=bar,
                                 cache=cache), 0)
            sources.append(f"{v:g}: {m.source}")
        refit = "yes, a success model per deal (" + "; ".join(sources) + "); games not paired: variances add"
    if adapt is not None:
        refit += ("; the field re-solved for every value (its near members' payoff table under that value's rules, "
                  f"{adapt.games:,} games per profile, common random numbers)")
    result = LeverResult(base.players, lever, standard, pd.DataFrame(), paired, refit, runs,
                         profile.text() if hasattr(profile, "text") else str(profile), base.summary(),
                         {v: adapt(base if v == standard else variants[values.index(v)]) for v in runs}
                         if adapt is not None else None)
    rows = []
    for v in sorted(runs):
        run, j = runs[v]
        for name in game_measures(base):
            rows.append({"value": v, "standard": v == standard, "measure": name, **level(run, j, name),
                         **(change(result, v, standard, name) if v != standard else _zero())})
    result.rows = pd.DataFrame(rows)
    return result


def _zero() -> dict:
    return {"effect": 0.0, "effect_low": 0.0, "effect_high": 0.0, "moved": False}


def sweep(profile="reference", *, players=None, levers=None, n: int = 20_000, rules=None, overrides=None, model=None,
          run: Run = Run(cache=True), adapt_games: int = 0) -> list[LeverResult]:
    """Every lever's table for each player count (``players``: a count, a list, or None: 3 and 4 unless
    ``rules`` names a rule set); ``levers``: texts for ``parse_lever`` (default ``default_levers``);
    ``run``: seed, threads, progress, Dask and the batch cache (``analysis.settings.Run``);
    ``adapt_games`` > 0 (a field): the field re-solved for every value, that many games per profile."""
    seed, progress, cache = run.seed, run.progress, run.cache
    counts = [None] if rules is not None and players is None else (
        list(PLAYER_COUNTS) if players is None else [players] if isinstance(players, int) else list(players))
    check_n(n)
    setups = []
    for p in counts:
        base = load_rules(rules, p, overrides)
        prof = parse_profile(profile, base)
        chosen = [parse_lever(t, base) for t in levers] if levers else default_levers(base)
        if adapt_games > 0 and prof.field is None:
            raise UserError("--adapt re-solves a field's weights: give a field profile (reference, field:FILE)")
        setups.append((base, prof, chosen))
    set_threads(run.threads)
    work = sum(n * len(lv.values) + n for _, _, chosen in setups for lv in chosen)
    out = []
    with Progress(work, "sponsio sweep", enabled=progress) as bar, use_backend(run.scheduler, run.workers):
        for base, prof, chosen in setups:
            success = resolve(prof, base, model, progress=progress).model
            resolver = None
            if adapt_games > 0:
                resolver = field_adapter(base, prof, games=adapt_games, seed=seed, model=success, cache=cache)
            for lever in chosen:
                out.append(sweep_lever(base, prof, lever, n, seed=seed, model=success, bar=bar, cache=cache,
                                       adapt=resolver))
    return out


def effects_table(results: list[LeverResult]) -> pd.DataFrame:
    """Every lever's rows in one tidy table (JSON, CSV)."""
    frames = [r.rows.assign(players=r.players, lever=r.lever.key, paired=r.paired) for r in results]
    df = pd.concat(frames, ignore_index=True)
    first = ["players", "lever", "value", "standard", "measure", "detail"]
    return df[first + [c for c in df.columns if c not in first]]


def lever_table(r: LeverResult) -> pd.DataFrame:
    """One lever for reading: a row per measure, a column per value: the standard value's level, and
    for every other value its effect [95% CI] ('*': moved)."""
    out = []
    for name, d in r.rows.groupby("measure", sort=False):
        row = {"measure": name}
        for x in d.itertuples():
            col = f"{x.value:g}" + (" (standard)" if x.standard else "")
            if x.standard:
                row[col] = f"{x.level:.3f}"
            elif x.effect == x.effect:
                row[col] = (f"{x.effect:+.3f} [{x.effect_low:+.3f}, {x.effect_high:+.3f}]"
                            + ("*" if x.moved else " "))
            else:
                row[col] = ""
        out.append(row)
    return pd.DataFrame(out)


HEADLINE = ("seat 0 - fair share", "largest seat gap", "rounds per game", "troll share", "lead changes per game",
            "comeback rate")


def headline(results: list[LeverResult]) -> pd.DataFrame:
    """Per lever, the core measures (``HEADLINE``, and a multiplier's own type's share of the bets) that
    some value moved: the level at the lowest and at the highest value tried, and the change between
    them with its 95 % interval (paired where the games are)."""
    rows = []
    for r in results:
        lo_v, hi_v = min(r.runs), max(r.runs)
        own = (f"{r.lever.key.split('.', 1)[1]} share of bets",) if r.lever.key.startswith("multiplier.") else ()
        for name, m in r.rows.groupby("measure", sort=False):
            if name not in HEADLINE + own or not m["moved"].any():
                continue
            a, b = m[m["value"] == lo_v].iloc[0], m[m["value"] == hi_v].iloc[0]
            c = change(r, hi_v, lo_v, name)
            rows.append({"players": r.players, "lever": r.lever.key, "measure": name, "low": f"{lo_v:g}",
                         "level_at_low": a["level"], "high": f"{hi_v:g}", "level_at_high": b["level"],
                         "change": c["effect"], "change_low": c["effect_low"], "change_high": c["effect_high"],
                         "moved": c["moved"]})
    return pd.DataFrame(rows)
