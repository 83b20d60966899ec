"""`sponsio recommend`: the multiplier tables that best meet the choice-balance criterion.

The search space: one integer multiplier per bet type in ``--range`` (default
2..5, the range the game prints), plus any per-parameter multipliers asked
for (``colour N=0``: the multiplier of every "none of colour C" bet). Every
candidate table is played by the same players: the profile's strategies
re-decide under it, since ``ev``, ``distilled`` and ``net`` score every bet by
its multiplier; the success model is the base rule set's (it predicts who wins
a bet, which multipliers do not change). A field's mixture is held in the
screen and the shortlist; with ``Stages.adapt`` it is re-solved for each
finalist's rules and for the rule set's own table (``balance.adapt``: the
field's near members' payoff table under that table, that many games per
profile), so the finalists are judged by players who adapt to them. Re-solving
every screened table would cost a payoff table per table (35 profiles at 4
seats), hundreds of times the screen. The objective is ``objective``'s.

A staged search (every stage on the same seed: common random numbers):

1. screen: every table, ``screen_n`` games of the profile alone: each type's
   share of the bets, the troll share and the rounds per game; rank by their
   violation of the bands;
2. shortlist: the ``shortlist`` best (default an eighth of the tables, at least
   ``SHORTLIST``: the screen cannot see restricted play, so the net is wide),
   ``n // 8`` games with the restricted-play plays: every measure; rank by the
   whole objective;
3. finalists: twice the ``top`` best and the rule set's own table, ``n`` games
   (with ``Stages.adapt``: by the field re-solved for each table's rules), and in
   a field each member at the focal seat (does any member gain against the
   field under the new table?); the ``top`` best of them, the rule set's own
   table competing (the search never recommends a table that does worse than it), are shown.

Finished batches are cached, so a killed search resumes where it stopped.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

import pandas as pd

from tabletop_mc.backend import use_backend
from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.runner import set_threads
from sponsio_sim.analysis.balance.choice import Choice, measure_choice, type_table
from sponsio_sim.analysis.balance.adapt import adapted, field_adapter
from sponsio_sim.analysis.balance.criteria import Bands
from sponsio_sim.analysis.balance.measures import level
from sponsio_sim.analysis.balance.objective import (Judged, attainable, axis_text, constraint_name, is_multiplier,
                                                     judge, measures_of, table_text)
from sponsio_sim.analysis.balance.plays import choice_plays
from sponsio_sim.analysis.balance.sweep import Lever, parse_lever
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.analysis.game.model import fingerprint
from sponsio_sim.analysis.game.runs import check_n
from sponsio_sim.analysis.game.setup import parse_profile
from sponsio_sim.analysis.settings import Run
from sponsio_sim.bet_kinds import BY_NAME
from sponsio_sim.rules import RuleSet, load_rules

DEFAULT_RANGE = "2..5"     # the seed: the game prints multipliers "between twice and five times"
SCREEN_N = 2_000           # games per table in the screen
FINAL_N = 20_000           # games per finalist
SHORTLIST = 48             # tables measured fully after the screen, at least (default: an eighth of them)
SHORTLIST_SHARE = 8
TOP = 5                    # finalists printed side by side
MAX_TABLES = 50_000
_PARAM = re.compile(r"^([a-z]+)\s*(?::|\s)\s*(?:[ns]\s*=\s*)?([a-z]?\d+)$")


@dataclass(frozen=True)
class Axis:
    """One number the search sets: a type's multiplier (``multiplier.T``), a parameter's, or
    (``lever``) any other rule-set number, as `sponsio sweep` turns it."""

    name: str
    key: str
    values: tuple
    lever: Lever | None = None

    def overrides(self, base: RuleSet, value) -> dict:
        return self.lever.overrides(base, value) if self.lever is not None else {self.key: value}


def parse_range(text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(x) for x in str(text).split(".."))
    except ValueError:
        raise UserError(f"--range {text!r}: expected LOW..HIGH, e.g. 2..5") from None
    if not 1 <= lo <= hi:
        raise UserError(f"--range {text!r}: need 1 <= LOW <= HIGH")
    return lo, hi


def parse_param(text: str, rules: RuleSet) -> tuple[str, str]:
    """``colour N=0`` / ``colour:0`` / ``colour:R0`` / ``fail S=1``: (name, rule key)."""
    m = _PARAM.match(str(text).strip().lower())
    if not m or m.group(1) not in BY_NAME or not BY_NAME[m.group(1)].params:
        raise UserError(f"--param {text!r}: expected TYPE N=VALUE (e.g. 'colour N=0', 'tricks N=1', "
                        "'fail S=1') of a type with a parameter")
    kind, value = m.group(1), m.group(2).upper()
    if kind not in rules.bets:
        raise UserError(f"--param {text!r}: '{kind}' is not a bet type of rule set {rules.name}")
    key = f"multiplier_param.{kind}.{value}"
    load_rules(rules, overrides={key: 2})   # a value the kind does not take: one line now
    what = "S" if BY_NAME[kind].params == ("seat",) else "N"
    return f"{kind} {what}={value}", key


def axes_of(rules: RuleSet, mult_range: str = DEFAULT_RANGE, params=(), only=None, levers=()) -> list[Axis]:
    """The search's axes: ``only`` the listed types (default every type), each ``params`` entry, then
    each of ``levers`` (``sweep.parse_lever`` texts: other rule-set numbers searched with them)."""
    lo, hi = parse_range(mult_range)
    values = tuple(range(lo, hi + 1))
    kinds = list(rules.bets) if not only else [k.strip() for k in only]
    for k in kinds:
        if k not in rules.bets:
            raise UserError(f"--only {k!r}: not a bet type of rule set {rules.name} ({', '.join(rules.bets)})")
    axes = [Axis(k, f"multiplier.{k}", values) for k in kinds]
    for p in params:
        name, key = parse_param(p, rules)
        if key not in {a.key for a in axes}:
            axes.append(Axis(name, key, values))
    for text in levers:
        lever = parse_lever(text, rules)
        if lever.key in {a.key for a in axes}:
            raise UserError(f"--lever {text!r}: {lever.key} is searched already")
        if any(fingerprint(load_rules(rules, overrides=lever.overrides(rules, v))) != fingerprint(rules)
               for v in lever.values):
            raise UserError(f"--lever {text!r}: {lever.key} changes the deal; recommend keeps it (see sweep)")
        axes.append(Axis(lever.key, lever.key, lever.values, lever))
    if not axes:
        raise UserError("--only: name at least one bet type to search")
    total = 1
    for a in axes:
        total *= len(a.values)
    if total > MAX_TABLES:
        raise UserError(f"the search has {total:,} tables (more than {MAX_TABLES:,}): narrow --range, --only, "
                        "--param or --lever")
    return axes


def table_rules(base: RuleSet, axes: list[Axis], table: dict) -> RuleSet:
    overrides = {}
    for a in axes:
        overrides.update(a.overrides(base, table[a.name]))
    return load_rules(base, overrides=overrides)


def current_table(base: RuleSet, axes: list[Axis]) -> dict:
    """The rule set's own values on the axes (a parameter without its own value: its type's)."""
    out = {}
    for a in axes:
        if a.lever is not None:
            out[a.name] = a.lever.standard(base)
        elif a.key.startswith("multiplier_param."):
            _, kind, value = a.key.split(".", 2)
            out[a.name] = base.multiplier_param.get(kind, {}).get(value, base.multiplier[kind])
        else:
            out[a.name] = base.multiplier[a.name]
    return {k: int(v) if float(v).is_integer() else v for k, v in out.items()}


@dataclass
class Candidate:
    """A table and what the search measured of it (the last stage that reached it)."""

    table: dict
    stage: int
    choice: Choice
    judged: Judged
    measures: dict = field(default_factory=dict)
    adapted: bool = False        # played by the field re-solved for the table's rules


@dataclass
class Recommendation:
    finalists: list[Candidate]          # ranked, best first
    current: Candidate                  # the rule set's own table, measured as the finalists
    screened: pd.DataFrame              # every table's screening measures and violation
    attainable: pd.DataFrame            # per constraint: which tables meet it, and why none does
    meta: dict


@dataclass(frozen=True)
class SearchSpace:
    """The tables searched (``axes_of``): multipliers over ``mult_range`` for ``only`` the listed bet
    types (None: every type), each ``params`` entry, and each of ``levers`` (other rule-set numbers)."""
    mult_range: str = DEFAULT_RANGE
    params: tuple = ()
    only: list[str] | None = None
    levers: tuple = ()


@dataclass(frozen=True)
class Stages:
    """How hard each stage looks (module docstring): ``screen_n`` games per table in the screen, the
    ``shortlist`` measured next (None: an eighth of the tables, at least ``SHORTLIST``), then ``n``
    games per finalist and the ``top`` finalists reported; ``adapt`` > 0 (a field): the finalists and
    the current table played by the field re-solved for their rules, ``adapt`` games per profile."""
    screen_n: int = SCREEN_N
    shortlist: int | None = None
    n: int = FINAL_N
    top: int = TOP
    adapt: int | None = None


@dataclass(frozen=True)
class _Search:
    """What every measurement of one search shares: the base rules and the axes, the profile, its
    success model, the bands judged by, the seed, the batch cache and the progress bar."""
    base: RuleSet
    axes: list
    profile: object
    model: object
    bands: Bands
    seed: int
    cache: bool
    bar: Progress
    resolver: object = None     # the field's re-solver for the finalists (``balance.adapt``), or None


def _measure(search: _Search, table: dict, n: int, stage: int) -> Candidate:
    """``table`` measured on ``n`` games at ``stage`` (1: screen; 2: with deviations; 3: with a field's
    members, played by the field re-solved for the table's rules where ``search.resolver`` is set)."""
    rules = table_rules(search.base, search.axes, table)
    profile = search.profile
    adapt = stage > 2 and search.resolver is not None
    if adapt:
        search.bar.set_label(f"recommend: the field re-solved for {table_text(table)}")
        profile = adapted(search.resolver, rules, profile)
    search.bar.set_label(f"recommend stage {stage}: {table_text(table)}")
    ch = measure_choice(rules, profile, n, seed=search.seed, model=search.model, progress=search.bar,
                        cache=search.cache, bands=search.bands, deviations=stage > 1, members=stage > 2)
    m = measures_of(ch, search.base.bets, rp=stage > 1)
    return Candidate(table, stage, ch, judge(m, search.bands), m, adapt)


def recommend(profile="reference", *, players: int | None = None, rules=None, overrides=None,
              space: SearchSpace = SearchSpace(), stages: Stages = Stages(), bands: Bands | None = None,
              model=None, run: Run = Run(cache=True)) -> Recommendation:
    """The staged search of the module docstring over ``space``; ``run``: seed, threads, progress,
    Dask and the batch cache (``analysis.settings.Run``)."""
    n, screen_n, shortlist, top, adapt_games = stages.n, stages.screen_n, stages.shortlist, stages.top, stages.adapt or 0
    seed, progress = run.seed, run.progress
    base = load_rules(rules, players, overrides)
    prof = parse_profile(profile, base)
    axes = axes_of(base, space.mult_range, space.params, space.only, space.levers)
    check_n(n)
    check_n(screen_n)
    if (shortlist is not None and shortlist < 1) or top < 1:
        raise UserError("--shortlist and --top must be at least 1")
    bands = (bands or Bands()).for_rules(base)
    if adapt_games > 0 and prof.field is None:
        raise UserError("--adapt re-solves a field's weights: give a field profile (reference, field:FILE)")
    success = resolve(prof, base, model, progress=progress).model
    resolver = (field_adapter(base, prof, games=adapt_games, seed=seed, model=success, cache=run.cache)
                if adapt_games > 0 else None)
    set_threads(run.threads)
    tables = [dict(zip((a.name for a in axes), combo)) for combo in itertools.product(*(a.values for a in axes))]
    mid_n = max(screen_n, n // 8)
    if shortlist is None:
        shortlist = max(SHORTLIST, -(-len(tables) // SHORTLIST_SHARE))
    shortlisted = min(shortlist, len(tables))
    reported = min(top, shortlisted)
    finalists_measured = min(2 * top, shortlisted)
    full = len(choice_plays(base, prof).plays)
    final = len(choice_plays(base, prof, members=True).plays)
    work = screen_n * len(tables) + mid_n * shortlisted * full + n * (finalists_measured + 1) * final
    with Progress(work, "sponsio recommend", enabled=progress) as bar, use_backend(run.scheduler, run.workers):
        search = _Search(base, axes, prof, success, bands, seed, run.cache, bar, resolver)
        screen = [_measure(search, t, screen_n, 1) for t in tables]
        screen.sort(key=lambda c: c.judged.key())
        mid = [_measure(search, c.table, mid_n, 2) for c in screen[:shortlisted]]
        mid.sort(key=lambda c: c.judged.key())
        finalists = [_measure(search, c.table, n, 3) for c in mid[:finalists_measured]]
        current = _measure(search, current_table(base, axes), n, 3)
        # the current table competes with the finalists on the same games: the search never recommends
        # a table that does worse than the one the rules already have
        if all(c.table != current.table for c in finalists):
            finalists.append(current)
        finalists.sort(key=lambda c: c.judged.key())
    screened = pd.DataFrame([{**c.table, **{constraint_name(w, k): v[0] for (w, k), v in c.measures.items()},
                              "violation": c.judged.violation, "feasible": c.judged.feasible,
                              "binding": c.judged.binding} for c in screen])
    latest = {tuple(c.table.items()): c for c in [*screen, *mid, *finalists]}   # each table's fullest measures
    reach = attainable([(c.table, c.measures) for c in latest.values()], bands)
    meta = {"rules": base.summary(), "profile": prof.text(), "field": prof.field is not None,
            "axes": [{"name": a.name, "key": a.key, "values": list(a.values)} for a in axes],
            "tables": len(tables), "screen_n": screen_n, "shortlist": shortlisted, "shortlist_n": mid_n,
            "top": reported,
            "finalists_measured": finalists_measured, "n": n,
            "seed": seed, "model": success.source, "bands": bands.text(base.bets),
            "work_games": work, "adapt_games": adapt_games,
            "adapted": {table_text(c.table): resolver(table_rules(base, axes, c.table)).text()
                        for c in [current, *finalists[:reported]]} if resolver is not None else {},
            "adapt_cost": resolver.cost() if resolver is not None else None}
    return Recommendation(finalists[:reported], current, screened, reach, meta)


def seat_measures(c: Candidate) -> dict:
    """The seat gap of a measured table: seat 0 against the fair share, the largest gap."""
    out = {}
    for name in ("seat 0 - fair share", "largest seat gap"):
        lv = level(c.choice.run, 0, name)
        out[name] = (lv["level"], lv["level_low"], lv["level_high"])
    return out


def _ci(v: tuple[float, float, float], digits: int = 3) -> str:
    val, lo, hi = v
    if val != val:
        return ""
    if lo != lo:
        return f"{val:.{digits}f}"
    return f"{val:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def table_measures(c: Candidate) -> list[tuple[str, tuple[float, float, float], str]]:
    """Every measure of a finalist: (name, (value, low, high), its band or '' when not a constraint)."""
    bands = c.judged.rows.set_index("constraint")["band"]
    rows = [(constraint_name(w, k), v, bands[constraint_name(w, k)]) for (w, k), v in c.measures.items()]
    rows += [(name, v, "") for name, v in seat_measures(c).items()]
    tt = type_table(c.choice).set_index("type")
    rows += [(f"{k} RTP", (tt.loc[k, "rtp"], 1 + tt.loc[k, "ev_low"], 1 + tt.loc[k, "ev_high"]), "")
             for k in c.choice.rules.bets]
    gains = c.choice.member_gains()
    if len(gains):
        top = gains.loc[gains["gain"].idxmax()]
        held = "re-solved" if c.adapted else "held"
        rows.append((f"largest member gain against the {held} field ({top['member']})",
                     (top["gain"], top["gain_low"], top["gain_high"]), ""))
    return rows


def side_by_side(rec: Recommendation) -> pd.DataFrame:
    """Rows: the multipliers, every measure (value [95% CI]) and the verdict; columns: the rule set's
    own table, then the finalists best first (text cells, for reading)."""
    cols = {"current": rec.current, **{f"#{i + 1}": c for i, c in enumerate(rec.finalists)}}
    names = [a["name"] for a in rec.meta["axes"]]
    out = [{"measure": f"multiplier {a}" if is_multiplier(a) else a, "band": "",
            **{k: axis_text(a, c.table[a]).rsplit(" ", 1)[1] if is_multiplier(a) else f"{c.table[a]:g}"
               for k, c in cols.items()}} for a in names]
    measured = {k: table_measures(c) for k, c in cols.items()}
    for i, (name, _, band) in enumerate(measured["current"]):
        out.append({"measure": name, "band": band, **{k: _ci(m[i][1]) for k, m in measured.items()}})
    out.append({"measure": "total violation (band widths)", "band": "",
                **{k: f"{c.judged.violation:.3f}" for k, c in cols.items()}})
    out.append({"measure": "binding constraint", "band": "", **{k: c.judged.binding for k, c in cols.items()}})
    out.append({"measure": "meets every constraint", "band": "",
                **{k: "yes" if c.judged.feasible else "no" for k, c in cols.items()}})
    return pd.DataFrame(out)


def long_table(rec: Recommendation) -> pd.DataFrame:
    """The same as tidy rows (for JSON and CSV): one row per table and measure."""
    rows = []
    for rank, c in [(0, rec.current), *((i + 1, c) for i, c in enumerate(rec.finalists))]:
        for name, (v, lo, hi), band in table_measures(c):
            rows.append({"rank": rank, "table": table_text(c.table), "measure": name, "band": band,
                         "value": v, "ci_low": lo, "ci_high": hi, "n": int(c.choice.run.n),
                         "binding": c.judged.binding, "feasible": c.judged.feasible})
    return pd.DataFrame(rows)


def verdict(rec: Recommendation) -> list[str]:
    """The search's conclusion: the best table and its binding constraint, or why no table meets them all."""
    best = rec.finalists[0]
    lines = []
    if best.table == rec.current.table:
        lines.append(f"no table searched does better than the current one, {table_text(best.table)}: it "
                     f"{best.judged.status()}")
    elif best.judged.feasible:
        lines.append(f"recommended: {table_text(best.table)}; it {best.judged.status()}")
    else:
        lines.append(f"no table of the {rec.meta['tables']:,} searched meets every constraint; the best, "
                     f"{table_text(best.table)}, {best.judged.status()}")
    never = rec.attainable[rec.attainable["meeting"] == 0]
    for r in never.itertuples():
        lines.append(f"  no table meets {r.constraint} (band {r.band}): {r.reason}")
    if not best.judged.feasible and not len(never):
        lines.append("  every constraint is met by some table, but not all by one: they conflict")
    for i, c in enumerate(rec.finalists):
        lines.append(f"  #{i + 1} {table_text(c.table)}: {c.judged.status()}")
    lines.append(f"  current {table_text(rec.current.table)}: {rec.current.judged.status()}")
    return lines
