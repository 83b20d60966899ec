"""Circus Maximus rule sets: TOML shipped with the package, validated into a RuleSet.

``load_rules(rules=None, overrides=())`` is the one entry point: ``rules`` is
a shipped name (``standard``), a TOML path, a RuleSet, or None (standard);
``overrides`` are ``key=value`` strings or a mapping. The player count is not
part of the rule set (``--players``), but the cards removed before the game
are listed per player count (``remove.3`` ...); ``kernel_rules`` turns a
RuleSet and a player count into the int64 vector the kernels read. Every
problem is a one-line ``UserError`` naming the rule set and key.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.rulefile import Problems, apply_overrides, load_file, load_packaged

from caesar_sim.kernels import layout

FAVOUR_TYPES = ("boost", "double", "gold")
VENUES = ("Circus Maximus", "Pompeius Theater", "Colosseum")
MIN_PLAYERS, MAX_PLAYERS = 3, layout.MAX_PLAYERS

MAX_COINS = 1_000   # coins on one card: wide, and every score stays an exact small integer
_SCHEMA = {  # key -> (kind, minimum, maximum)
    "days": ("int", 1, layout.MAX_DAYS), "first_start_seat": ("int", 0, MAX_PLAYERS - 1),
    "tickets_per_day": ("int", 0, layout.MAX_DISPLAY_ITEMS), "special_tickets": ("ints", 0, layout.MAX_DISPLAY_ITEMS),
    "caesar": ("bool", None, None),
    "merchant.coins": ("ints", 0, MAX_COINS),
    "favour.boost": ("int", 0, layout.MAX_FAVOUR_CARDS), "favour.double": ("int", 0, layout.MAX_FAVOUR_CARDS),
    "favour.gold": ("int", 0, layout.MAX_FAVOUR_CARDS),
    "favour.boost_value": ("int", 0, layout.MERCHANT_VALUES + 7),
    "favour.double_items": ("int", 1, layout.MAX_DISPLAY_ITEMS),
    "favour.gold_coins": ("int", 0, MAX_COINS),
    "tickets.coins": ("ints", 0, MAX_COINS), "visitors.coins": ("ints", 0, MAX_COINS),
    "coin_cards.count": ("int", 0, 10_000), "coin_cards.value": ("int", 0, MAX_COINS),
    "caesar_card.extra_visitors": ("int", 0, layout.MAX_VISITOR_CARDS),
    "caesar_card.favour_tickets": ("int", 0, layout.MAX_DISPLAY_ITEMS),
}
_TABLES = {k.split(".")[0] for k in _SCHEMA if "." in k}
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))


@dataclass(frozen=True)
class Removal:
    """Cards taken out before a game (one player count): favours by type, tickets by venue, visitors."""

    favours: tuple[int, ...] = (0,) * len(FAVOUR_TYPES)        # count per favour type
    tickets: tuple[tuple[int, ...], ...] = ((),) * len(VENUES)  # per venue: coins of each removed ticket
    visitors: tuple[int, ...] = ()                              # coins of each removed visitor

    def empty(self) -> bool:
        return not (any(self.favours) or any(self.tickets) or self.visitors)

    def as_dict(self) -> dict[str, Any]:
        return {"favours": dict(zip(FAVOUR_TYPES, self.favours)), "tickets": [list(t) for t in self.tickets],
                "visitors": list(self.visitors)}

    def describe(self) -> str:
        """E.g. 'favours boost x1, gold x1; tickets Colosseum [1]; visitors [1, 2, 3]' ('nothing' if empty)."""
        parts = []
        if any(self.favours):
            parts.append("favours " + ", ".join(f"{t} x{c}" for t, c in zip(FAVOUR_TYPES, self.favours) if c))
        if any(self.tickets):
            parts.append("tickets " + ", ".join(f"{v} {list(t)}" for v, t in zip(VENUES, self.tickets) if t))
        if self.visitors:
            parts.append(f"visitors {list(self.visitors)}")
        return "; ".join(parts) or "nothing"


@dataclass(frozen=True)
class RuleSet:
    """A validated Circus Maximus rule set (the rules: docs/rules-circus.md)."""

    name: str
    days: int
    first_start_seat: int
    tickets_per_day: int
    special_tickets: tuple[int, ...]
    caesar: bool
    merchant_coins: tuple[int, ...]
    favour_counts: tuple[int, int, int]
    boost_value: int
    double_items: int
    gold_coins: int
    ticket_coins: tuple[int, ...]
    visitor_coins: tuple[int, ...]
    coin_cards: int
    coin_card_value: int
    caesar_extra_visitors: int
    caesar_favour_tickets: int
    remove: tuple[Removal, ...] = (Removal(),) * len(PLAYER_COUNTS)  # per player count 3, 4, 5
    unfit: tuple[str, ...] = ("",) * len(PLAYER_COUNTS)   # per player count: what does not fit the decks
    source: str = ""

    def removal(self, players: int) -> Removal:
        """The cards removed before a game of ``players``; a UserError if the rule set
        cannot be played by that many (its removal does not fit the decks, or its
        first start seat is not one of their seats)."""
        i = check_players(players) - MIN_PLAYERS
        where = f"rule set {self.name}"
        if self.first_start_seat >= players:
            raise UserError(f"{where}: 'first_start_seat' must be a seat 0..{players - 1} with {players} players, "
                            f"got {self.first_start_seat}")
        if self.unfit[i]:
            raise UserError(f"{where}: {self.unfit[i]}")
        return self.remove[i]

    def as_dict(self) -> dict[str, Any]:
        """Plain data in rule-file form (for reports, JSON and re-validation)."""
        return {
            "name": self.name, "days": self.days, "first_start_seat": self.first_start_seat,
            "tickets_per_day": self.tickets_per_day, "special_tickets": list(self.special_tickets),
            "caesar": self.caesar,
            "merchant": {"coins": list(self.merchant_coins)},
            "favour": {**dict(zip(FAVOUR_TYPES, self.favour_counts)), "boost_value": self.boost_value,
                       "double_items": self.double_items, "gold_coins": self.gold_coins},
            "tickets": {"coins": list(self.ticket_coins)},
            "visitors": {"coins": list(self.visitor_coins)},
            "coin_cards": {"count": self.coin_cards, "value": self.coin_card_value},
            "caesar_card": {"extra_visitors": self.caesar_extra_visitors,
                            "favour_tickets": self.caesar_favour_tickets},
            "remove": {str(n): r.as_dict() for n, r in zip(PLAYER_COUNTS, self.remove)},
        }

    def summary(self) -> str:
        """One line naming the rule set and its main numbers (for reports)."""
        fav = ", ".join(f"{t} x{c}" for t, c in zip(FAVOUR_TYPES, self.favour_counts))
        return (f"rules {self.name}{' + Caesar card' if self.caesar else ''}: {self.days} days, "
                f"merchant coins {list(self.merchant_coins)}, favours {fav} (boost +{self.boost_value}, "
                f"double {self.double_items} items, gold {self.gold_coins} coins), "
                f"tickets/venue {list(self.ticket_coins)}, visitors {list(self.visitor_coins)}, "
                f"tickets/day {self.tickets_per_day or 'players'}, specials {list(self.special_tickets)}, "
                f"coin cards {self.coin_cards} x{self.coin_card_value}"
                + "".join(f"; removed with {n} players: {r.describe()}"
                          for n, r in zip(PLAYER_COUNTS, self.remove) if not r.empty()))

    def to_json(self) -> str:
        return json.dumps(self.as_dict())


def load_rules(rules: str | Path | RuleSet | None = None, overrides=None) -> RuleSet:
    """Load, override and validate a rule set (see module docstring)."""
    if isinstance(rules, RuleSet):
        return validate(apply_overrides(rules.as_dict(), overrides), rules.source) if overrides else rules
    text = "standard" if rules is None else str(rules)
    if text.endswith(".toml") or Path(text).exists():
        data, source = load_file(text, "caesar_sim.rules"), text
    else:
        data, source = load_packaged("caesar_sim.rules", text), f"shipped:{text}"
    return validate(apply_overrides(data, overrides), source)


def _get(data, key):
    node = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None, False
        node = node[part]
    return node, True


def validate(data: Mapping[str, Any], source: str = "") -> RuleSet:
    """Check every field of a rule mapping; return the frozen RuleSet.

    Every problem is reported at once, in one ``UserError``."""
    bad = Problems(f"rule set {data.get('name', '') or source}")
    for key, value in data.items():
        if key not in ("name", "remove") and key not in _SCHEMA and key not in _TABLES:
            bad(f"unknown key '{key}'")
        if key in _TABLES:
            if not isinstance(value, dict):
                bad(f"'{key}' must be a table")
                continue
            for sub in value:
                if f"{key}.{sub}" not in _SCHEMA:
                    bad(f"unknown key '{key}.{sub}'")
    vals = {}
    for key, (kind, low, high) in _SCHEMA.items():
        value, found = _get(data, key)
        if not found:
            bad(f"missing key '{key}'")
        elif kind == "bool":
            if not isinstance(value, bool):
                bad(f"'{key}' must be true or false, got {value!r}")
            else:
                vals[key] = value
        elif kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                bad(f"'{key}' must be an integer {low:,}..{high:,}, got {_short(value)}")
            else:
                vals[key] = value
        else:
            if (not isinstance(value, list)
                    or any(isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high for v in value)):
                bad(f"'{key}' must be a list of integers {low:,}..{high:,}, got {_short(value)}")
            else:
                vals[key] = tuple(value)

    def have(*keys):
        return all(k in vals for k in keys)

    # Relations between fields: checked where the fields themselves are sound.
    if have("days") and not 1 <= vals["days"] <= layout.MAX_DAYS:
        bad(f"'days' must be 1..{layout.MAX_DAYS}, got {vals['days']}")
    if have("days", "special_tickets") and len(vals["special_tickets"]) != vals["days"]:
        bad(f"'special_tickets' needs one entry per day ({vals['days']}), got {len(vals['special_tickets'])}")
    if have("merchant.coins") and len(vals["merchant.coins"]) != layout.MERCHANT_VALUES:
        bad(f"'merchant.coins' needs {layout.MERCHANT_VALUES} entries (values 1..{layout.MERCHANT_VALUES}), "
            f"got {len(vals['merchant.coins'])}")
    if have("tickets.coins") and not 1 <= len(vals["tickets.coins"]) <= layout.MAX_TICKETS_PER_VENUE:
        bad(f"'tickets.coins' needs 1..{layout.MAX_TICKETS_PER_VENUE} entries (tickets per venue), "
            f"got {len(vals['tickets.coins'])}")
    if have("visitors.coins") and not 1 <= len(vals["visitors.coins"]) < layout.MAX_VISITOR_CARDS:
        bad(f"'visitors.coins' needs 1..{layout.MAX_VISITOR_CARDS - 1} entries, got {len(vals['visitors.coins'])}")
    if (have(*(f"favour.{t}" for t in FAVOUR_TYPES))
            and sum(vals[f"favour.{t}"] for t in FAVOUR_TYPES) > layout.MAX_FAVOUR_CARDS):
        bad(f"the favour deck holds at most {layout.MAX_FAVOUR_CARDS} cards, "
            f"got {sum(vals[f'favour.{t}'] for t in FAVOUR_TYPES)}")
    if have("favour.boost_value") and vals["favour.boost_value"] > layout.MERCHANT_VALUES + 7:
        bad(f"'favour.boost_value' must be at most {layout.MERCHANT_VALUES + 7}, got {vals['favour.boost_value']}")
    if have("favour.double_items") and vals["favour.double_items"] > layout.MAX_DISPLAY_ITEMS:
        bad(f"'favour.double_items' must be at most {layout.MAX_DISPLAY_ITEMS}, got {vals['favour.double_items']}")
    if (have("tickets_per_day", "special_tickets") and vals["special_tickets"]
            and vals["tickets_per_day"] + max(vals["special_tickets"]) > layout.MAX_DISPLAY_ITEMS):
        bad(f"at most {layout.MAX_DISPLAY_ITEMS} tickets can be on display in a day")
    bad.check()
    counts = tuple(vals[f"favour.{t}"] for t in FAVOUR_TYPES)
    remove, unfit = _removals(data, vals, counts, _stop_at_first(bad.where))
    return RuleSet(
        name=str(data.get("name", "custom")), days=vals["days"], first_start_seat=vals["first_start_seat"],
        tickets_per_day=vals["tickets_per_day"], special_tickets=vals["special_tickets"],
        caesar=vals["caesar"], merchant_coins=vals["merchant.coins"], favour_counts=counts,
        boost_value=vals["favour.boost_value"], double_items=vals["favour.double_items"],
        gold_coins=vals["favour.gold_coins"], ticket_coins=vals["tickets.coins"],
        visitor_coins=vals["visitors.coins"], coin_cards=vals["coin_cards.count"],
        coin_card_value=vals["coin_cards.value"], caesar_extra_visitors=vals["caesar_card.extra_visitors"],
        caesar_favour_tickets=vals["caesar_card.favour_tickets"], remove=remove, unfit=unfit, source=source,
    )


def _short(value) -> str:
    """``repr(value)``, cut to a readable length (a rule value may be huge)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _int_list(value, low=0) -> bool:
    return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) and v >= low
                                           for v in value)


def _stop_at_first(where: str):
    """A problem reporter that stops at once (the ``remove`` checks build on each other)."""
    def bad(message: str):
        raise UserError(f"{where}: {message}")
    return bad


def _removals(data, vals, counts, bad) -> tuple[tuple[Removal, ...], tuple[str, ...]]:
    """The ``remove`` table: per player count (missing = nothing removed), its form checked
    here; with it, per player count, what does not fit the decks ('' if all does): a
    problem only for games of that many players (``RuleSet.removal``)."""
    table, found = _get(data, "remove")
    if not found:
        bad("missing key 'remove' (cards taken out before the game per player count; may be empty)")
    if not isinstance(table, dict):
        bad("'remove' must be a table keyed by player count")
    out, unfit = [], []
    for key in table:
        if key not in {str(n) for n in PLAYER_COUNTS}:
            bad(f"'remove.{key}': player counts are {', '.join(map(str, PLAYER_COUNTS))}")
    for n in PLAYER_COUNTS:
        entry = table.get(str(n), {})
        where = f"remove.{n}"
        if not isinstance(entry, dict):
            bad(f"'{where}' must be a table (favours, tickets, visitors)")
        for sub in entry:
            if sub not in ("favours", "tickets", "visitors"):
                bad(f"unknown key '{where}.{sub}'")
        fav = entry.get("favours", {})
        if not isinstance(fav, dict) or any(t not in FAVOUR_TYPES for t in fav):
            bad(f"'{where}.favours' must be a table of {', '.join(FAVOUR_TYPES)} counts, got {fav!r}")
        favours, problems = [], []
        for t, have in zip(FAVOUR_TYPES, counts):
            c = fav.get(t, 0)
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= layout.MAX_FAVOUR_CARDS:
                bad(f"'{where}.favours.{t}' must be an integer 0..{layout.MAX_FAVOUR_CARDS}, got {_short(c)}")
            if c > have:
                problems.append(f"'{where}.favours.{t}' must be 0..{have} (the deck's {t} favours), got {c}")
            favours.append(c)
        tix = entry.get("tickets", [[]] * len(VENUES))
        if not isinstance(tix, list) or len(tix) != len(VENUES) or not all(_int_list(t) for t in tix):
            bad(f"'{where}.tickets' must be {len(VENUES)} lists of ticket coins (one per venue: "
                f"{', '.join(VENUES)}), got {_short(tix)}")
        for venue, t in zip(VENUES, tix):
            if Counter(t) - Counter(vals["tickets.coins"]):
                problems.append(f"'{where}.tickets': {venue} has no tickets {t} to remove (its tickets: "
                                f"{list(vals['tickets.coins'])})")
        vis = entry.get("visitors", [])
        if not _int_list(vis):
            bad(f"'{where}.visitors' must list coins of visitor cards, got {_short(vis)}")
        if Counter(vis) - Counter(vals["visitors.coins"]):
            problems.append(f"'{where}.visitors' must list coins of visitor cards in the deck "
                            f"({list(vals['visitors.coins'])}), got {vis!r}")
        out.append(Removal(tuple(favours), tuple(tuple(t) for t in tix), tuple(vis)))
        unfit.append("; ".join(problems))
    return tuple(out), tuple(unfit)


def _pick(deck: tuple[int, ...], coins: tuple[int, ...]) -> list[int]:
    """Indices in ``deck`` of cards with these ``coins`` (the first unused match each; equal cards are alike)."""
    used: list[int] = []
    for c in coins:
        used.append(next(i for i, d in enumerate(deck) if d == c and i not in used))
    return used


def check_players(players: int) -> int:
    """The player count, or a UserError if it is outside 3..5."""
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise UserError(f"--players {players}: Circus Maximus is for {MIN_PLAYERS}..{MAX_PLAYERS} players")
    return players


def kernel_rules(rules: RuleSet, players: int, gift_type: int = -1, gift_seat: int = 0) -> np.ndarray:
    """The int64 rule vector ``rulebook`` for ``players`` seats (layout in kernels.layout)."""
    check_players(players)
    rulebook = np.zeros(layout.RULES.size, dtype=np.int64)
    r = layout.RULES.named(rulebook)
    for name in ("days", "first_start_seat", "boost_value", "double_items", "gold_coins", "coin_cards",
                 "coin_card_value", "caesar", "caesar_extra_visitors", "caesar_favour_tickets"):
        r[name] = getattr(rules, name)
    r["players"] = players
    r["tickets_per_day"] = rules.tickets_per_day or players
    r["tickets_per_venue"] = len(rules.ticket_coins)
    r["visitor_cards"] = len(rules.visitor_coins)
    r["gift_type"] = gift_type
    r["gift_seat"] = gift_seat
    rm = rules.removal(players)
    r["removed_favours"] = rm.favours
    tpv = len(rules.ticket_coins)
    r["removed_tickets"] = sum(1 << (x * tpv + k) for x, t in enumerate(rm.tickets) for k in _pick(rules.ticket_coins, t))
    r["removed_visitors"] = sum(1 << i for i in _pick(rules.visitor_coins, rm.visitors))
    r["special_tickets"][:rules.days] = rules.special_tickets
    r["merchant_coins"] = rules.merchant_coins
    r["favour_counts"] = rules.favour_counts
    r["ticket_coins"][:len(rules.ticket_coins)] = rules.ticket_coins
    r["visitor_coins"][:len(rules.visitor_coins)] = rules.visitor_coins
    return rulebook


__all__ = ["RuleSet", "Removal", "load_rules", "validate", "kernel_rules", "check_players", "FAVOUR_TYPES", "VENUES"]
