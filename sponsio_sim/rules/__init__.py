"""Sponsio rule sets: TOML data shipped with the package, validated into a RuleSet.

``load_rules(rules=None, players=None, overrides=())`` is the one entry point:
``rules`` is a shipped name (``standard-4p``), a TOML path, or None (the
standard set for ``players``); ``overrides`` are ``key=value`` strings or a
mapping. Every problem is a one-line ``UserError`` naming the file and key.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.rulefile import Problems, apply_overrides, load_file, load_packaged, packaged_names
from sponsio_sim.bet_kinds import BET_TYPES, BY_NAME, KINDS, RANKS

COLOUR_LETTERS = "RBGY"
TOKENS = ("lead", "double", "rebet", "swap")
_INT_FIELDS = ("players", "hand_size", "start_coins", "betting_turns", "stake", "token_cost",
               "troll_pay", "round_bonus", "track_win", "coins_to_end", "max_rounds")
# Every rule number's range: wide for any table a designer may try, narrow enough that
# payouts, coins and their sums of squares over 10^12 games stay finite in float64.
MAX_COINS = 1_000_000
MAX_MULTIPLIER = 1_000
INT_RANGES = {"players": (2, 6), "hand_size": (1, len(COLOUR_LETTERS) * RANKS), "start_coins": (0, MAX_COINS),
              "betting_turns": (1, 64), "stake": (0, 1_000), "token_cost": (0, 1_000), "troll_pay": (0, 1_000),
              "round_bonus": (0, MAX_COINS), "track_win": (1, 31), "coins_to_end": (0, MAX_COINS),
              "max_rounds": (1, (1 << 16) - 1)}
# Readings the seed leaves open (docs/rules-sponsio.md sections 4, 6.3, 6.4): field -> choices, default first.
OPTIONS = {
    "nines_scope": ("all", "own"),
    "fail_target": ("seat", "any"),
    "round_bonus_basis": ("gross", "net"),
    "track_top": ("wins", "ends"),
}
NINES_OWN_FLAG = 1   # kernel rule flag (``RuleSet.kernel_flags``)
_KNOWN = set(_INT_FIELDS) | set(OPTIONS) | {"name", "colours", "bets", "tokens", "track_value",
                                            "multiplier", "multiplier_param"}
_OPTIONAL = {"multiplier_param", *OPTIONS}


@dataclass(frozen=True)
class RuleSet:
    """A validated Sponsio rule set (the rules: docs/rules-sponsio.md)."""

    name: str
    players: int
    colours: tuple[str, ...]
    hand_size: int
    start_coins: int
    betting_turns: int
    stake: int
    bets: tuple[str, ...]
    tokens: tuple[str, ...]
    token_cost: int
    troll_pay: int
    round_bonus: int
    track_value: tuple[int, ...]
    track_win: int
    coins_to_end: int
    max_rounds: int
    multiplier: Mapping[str, float]
    multiplier_param: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    nines_scope: str = "all"
    fail_target: str = "seat"
    round_bonus_basis: str = "gross"
    track_top: str = "wins"
    source: str = ""

    @property
    def n_colours(self) -> int:
        return len(self.colours)

    @property
    def deck_size(self) -> int:
        return self.n_colours * RANKS

    @property
    def talon_size(self) -> int:
        return self.deck_size - self.players * self.hand_size

    @property
    def deck_mask(self) -> int:
        return (1 << self.deck_size) - 1

    @property
    def kernel_flags(self) -> int:
        """The rule flags trick-phase kernels read (``kernels.layout``: ``TRICK_RULES.flags``, the head of the rulebook)."""
        return NINES_OWN_FLAG if self.nines_scope == "own" else 0

    def options_changed(self) -> dict[str, str]:
        """The open readings (``OPTIONS``) this rule set sets away from the default."""
        return {k: getattr(self, k) for k, choices in OPTIONS.items() if getattr(self, k) != choices[0]}

    def multiplier_for(self, bet) -> float:
        """Payout multiplier of a bet (per-parameter value if the rule set has one)."""
        table = self.multiplier_param.get(bet.kind, {})
        for key in _param_keys(BY_NAME[bet.kind], bet, self.colours):
            if key in table:
                return float(table[key])
        return float(self.multiplier[bet.kind])

    def stated_multipliers(self) -> dict[str, float]:
        """The multipliers a rule file states: a kind the catalogue leaves
        out keeps its registry default (``bet_kinds``) unsaid."""
        return {k: v for k, v in self.multiplier.items()
                if k in self.bets or BY_NAME[k].multiplier is None or v != BY_NAME[k].multiplier}

    def as_dict(self) -> dict[str, Any]:
        """Plain data, as written in a rule file (for reports and JSON)."""
        out = {k: getattr(self, k) for k in ("name", *_INT_FIELDS[:1], "colours", *_INT_FIELDS[1:],
                                             "bets", "tokens", "track_value")}
        out["colours"], out["bets"], out["tokens"] = list(self.colours), list(self.bets), list(self.tokens)
        out["track_value"] = list(self.track_value)
        out["multiplier"] = self.stated_multipliers()
        out["multiplier_param"] = {k: dict(v) for k, v in self.multiplier_param.items()}
        out.update({k: getattr(self, k) for k in OPTIONS})
        return out

    def summary(self) -> str:
        """One line naming the rule set and its main numbers (for reports)."""
        mult = ", ".join(f"{k} x{v:g}" for k, v in self.stated_multipliers().items())
        extra = {k: dict(v) for k, v in self.multiplier_param.items() if v}
        return (f"rules {self.name}: {self.players} players, colours {''.join(self.colours)}, "
                f"hand {self.hand_size}, talon {self.talon_size}; multipliers {mult}"
                + (f" {json.dumps(extra)}" if extra else "")
                + f"; troll pay {self.troll_pay}, round bonus {self.round_bonus}"
                + "".join(f"; {k} {v}" for k, v in self.options_changed().items()))


def changes_from_shipped(ruleset: RuleSet) -> dict[str, Any]:
    """Every field whose value differs from the shipped set the rule set is
    based on (its own name if shipped, else the standard set for its players)."""
    names = packaged_names("sponsio_sim.rules")
    base_name = ruleset.name if ruleset.name in names else f"standard-{ruleset.players}p"
    if base_name not in names:
        return {}
    base = validate(load_packaged("sponsio_sim.rules", base_name), base_name).as_dict()
    return {key: value for key, value in _flat(ruleset.as_dict()).items()
            if key != "name" and _flat(base).get(key) != value}


def _flat(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def load_rules(rules: str | Path | None = None, players: int | None = None,
               overrides=None) -> RuleSet:
    """Load, override and validate a rule set (see module docstring)."""
    if isinstance(rules, RuleSet):
        if overrides:
            return validate(apply_overrides(_with_defaults(rules.as_dict()), overrides, allow_new=_FREE_TABLES),
                            rules.source)
        return rules
    asked = players
    if rules is None:
        if players is None:
            players = 4
        if players not in (3, 4):
            raise UserError(f"--players {players}: standard rule sets exist for 3 and 4 players"
                            + _other_counts_hint(players))
        rules = f"standard-{players}p"
    text = str(rules)
    if text.endswith(".toml") or Path(text).exists():
        data, source = load_file(text, "sponsio_sim.rules"), text
    else:
        data, source = load_packaged("sponsio_sim.rules", text), f"shipped:{text}"
    data = apply_overrides(_with_defaults(data), overrides, allow_new=_FREE_TABLES)
    ruleset = validate(data, source)
    if asked is not None and ruleset.players != asked:
        raise UserError(f"--players {asked} contradicts rule set {ruleset.name} "
                        f"({ruleset.players} players)")
    return ruleset


def _other_counts_hint(players) -> str:
    """How to play with another player count: a working --set pair (the standard deck)."""
    if not isinstance(players, int) or not 2 <= players <= 6:
        return " (a rule set may have 2..6)"
    hand = min(8, len(COLOUR_LETTERS) * RANKS // players)
    return (f" (for {players}: --set players={players} --set hand_size={hand}, "
            f"or --rules FILE with extends = \"standard-4p\")")


_FREE_TABLES = tuple(f"multiplier_param.{k.name}" for k in KINDS if k.params)


def validate(data: Mapping[str, Any], source: str = "") -> RuleSet:
    """Check every field of a rule mapping; return the frozen RuleSet.

    Every problem is reported at once, in one ``UserError``."""
    bad = Problems(f"rule set {data.get('name', source) or source}")
    for key in sorted(set(data) - _KNOWN):
        bad(f"unknown key '{key}'")
    for key in sorted((_KNOWN - _OPTIONAL) - set(data)):
        bad(f"missing key '{key}'")
    bad.check()
    ints = {}
    for key in _INT_FIELDS:
        value = data[key]
        lo, hi = INT_RANGES[key]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            bad(f"'{key}' must be an integer {lo:,}..{hi:,}, got {value!r}")
        else:
            ints[key] = value
    colours = data["colours"]
    if (not isinstance(colours, list) or not colours
            or any(not isinstance(c, str) or c.upper() not in COLOUR_LETTERS for c in colours)):
        bad(f"'colours' must be a list of letters from {COLOUR_LETTERS}, got {colours!r}")
        colours = ()
    colours = tuple(c.upper() for c in colours)
    if len(set(colours)) != len(colours):
        bad(f"'colours' repeats a colour: {colours!r}")
    for key, allowed in (("bets", BET_TYPES), ("tokens", TOKENS)):
        values = data[key]
        if not isinstance(values, list) or any(v not in allowed for v in values) or len(set(values)) != len(values):
            bad(f"'{key}' must be a list of distinct names from {', '.join(allowed)}, got {values!r}")
    if data["bets"] == []:
        bad("'bets' names no bet type: a round without bets has nothing to play for (name at least one of "
            f"{', '.join(BET_TYPES)})")
    track = data["track_value"]
    if (not isinstance(track, list)
            or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_COINS for v in track)):
        bad(f"'track_value' must be a list of integers 0..{MAX_COINS:,}, got {_short(track)}")
    options = {}
    for key, choices in OPTIONS.items():
        value = data.get(key, choices[0])
        if value not in choices:
            bad(f"'{key}' must be one of {', '.join(repr(c) for c in choices)}, got {value!r}")
        options[key] = value
    mult = _with_defaults(data)["multiplier"]
    if not isinstance(mult, dict):
        bad("'multiplier' must be a table")
        mult = {k: 1 for k in BET_TYPES}
    for key in mult:
        if key not in BET_TYPES:
            bad(f"unknown key 'multiplier.{key}'")
    for key in BET_TYPES:
        if key not in mult:
            bad(f"missing key 'multiplier.{key}'")
        else:
            _check_mult(bad, f"multiplier.{key}", mult[key])
    params = data.get("multiplier_param", {}) or {}
    if not isinstance(params, dict):
        bad("'multiplier_param' must be a table")
        params = {}
    # Relations between fields: checked where the fields themselves are sound.
    players, hand = ints.get("players"), ints.get("hand_size")
    deck = len(colours) * RANKS
    if players is not None and hand is not None and colours and players * hand > deck:
        bad(f"{players} hands of {hand} need more than the {deck}-card deck")
    if isinstance(track, list) and "track_win" in ints and len(track) != ints["track_win"]:
        bad(f"'track_value' needs one value per position 0..{ints['track_win'] - 1} "
            f"({ints['track_win']}), got {len(track)}")
    clean_params = {}
    for kind, table in params.items():
        if kind not in BY_NAME or not BY_NAME[kind].params or not isinstance(table, dict):
            bad(f"unknown key 'multiplier_param.{kind}'")
            continue
        for key, value in table.items():
            if players is not None and hand is not None and not _param_key_ok(kind, key, colours, ints):
                bad(f"unknown key 'multiplier_param.{kind}.{key}'")
            _check_mult(bad, f"multiplier_param.{kind}.{key}", value)
        clean_params[kind] = {str(k): v for k, v in table.items()}
    bad.check()
    clean_params = {kind: {k: float(v) for k, v in table.items()} for kind, table in clean_params.items()}
    return RuleSet(
        name=str(data["name"]), colours=colours, bets=tuple(data["bets"]), tokens=tuple(data["tokens"]),
        track_value=tuple(track), multiplier={k: float(mult[k]) for k in BET_TYPES},
        multiplier_param=clean_params, source=source, **options, **ints,
    )


def _check_mult(bad, key, value):
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not 0 <= value <= MAX_MULTIPLIER):
        bad(f"'{key}' must be a number 0..{MAX_MULTIPLIER:,}, got {_short(value)}")


def _short(value) -> str:
    """``repr(value)``, cut to a readable length (a rule value may be huge)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _param_key_ok(kind, key, colours, ints):
    """Is ``key`` a parameter value of ``kind`` (``multiplier_param.KIND.KEY``)?
    Keys are the count or seat, a colour bet's optionally after its colour (``R0``)."""
    params = BY_NAME[kind].params
    key = str(key).upper()
    if "colour" in params and key[:1] in colours:
        key = key[1:]
    if not key.isdigit():
        return False
    limit = {"tricks": ints["hand_size"], "cards": RANKS, "seat": ints["players"] - 1}[params[-1]]
    return int(key) <= limit


def _param_keys(kind, bet, colours) -> list[str]:
    """The ``multiplier_param`` keys that name ``bet``, most specific first."""
    if kind.params == ("colour", "cards"):
        return [f"{colours[bet.a]}{bet.b}", str(bet.b)]
    if kind.params and bet.a >= 0:
        return [str(bet.a)]
    return []


def _with_defaults(data: Mapping[str, Any]) -> dict:
    """``data`` with the multiplier of every kind that has a default (``bet_kinds``) filled in."""
    out = dict(data)
    mult = out.get("multiplier")
    if isinstance(mult, dict):
        out["multiplier"] = {**{k.name: k.multiplier for k in KINDS if k.multiplier is not None}, **mult}
    return out


def kernel_multipliers(rules: RuleSet, catalogue) -> np.ndarray:
    """Multiplier per catalogue row, as a float array for kernels and tables."""
    return np.array([rules.multiplier_for(b) for b in catalogue], dtype=np.float64)
