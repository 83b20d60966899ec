"""What a seat knows at the start of the trick phase, validated.

A ``Situation`` holds the asking seat's hand, the talon (or that it is
unknown), other seats' revealed cards, everyone's bets and the leader, and
turns them into the plain arrays the kernels take. Every contradiction is a
one-line ``UserError``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tabletop_mc.errors import UserError
import sponsio_sim.standing as standing
from sponsio_sim.bets import Bet, encode_table, parse_bet_set, parse_others
from sponsio_sim.cards import card_name, format_cards, mask_of, parse_cards
from sponsio_sim.rules import RuleSet


@dataclass(frozen=True)
class Situation:
    rules: RuleSet
    seat: int
    lead: int
    hand: int                       # mask
    talon: int | None               # mask, or None when unknown
    revealed: dict = field(default_factory=dict)   # seat -> mask
    bets: tuple = ()                # asking seat's bets
    others: dict = field(default_factory=dict)     # seat -> tuple of bets

    def with_bets(self, bets) -> "Situation":
        return Situation(self.rules, self.seat, self.lead, self.hand, self.talon, self.revealed,
                         tuple(bets), self.others)

    def bets_by_seat(self) -> dict[int, list[Bet]]:
        table = {s: list(b) for s, b in self.others.items()}
        table[self.seat] = list(self.bets)
        return table

    def kernel_arrays(self) -> dict:
        """Deal constraints and bets as kernel arrays."""
        r = self.rules
        players = r.players
        fixed = np.zeros(players, dtype=np.uint64)
        need = np.zeros(players, dtype=np.int64)
        known = self.hand | (self.talon or 0)
        revealed_all = 0
        for s in range(players):
            if s == self.seat:
                fixed[s] = np.uint64(self.hand)
                continue
            rv = self.revealed.get(s, 0)
            fixed[s] = np.uint64(rv)
            need[s] = r.hand_size - bin(rv).count("1")
            known |= rv
            revealed_all |= rv
        pool = np.array([c for c in range(r.deck_size) if not (known >> c) & 1], dtype=np.int64)
        talon_need = 0 if self.talon is not None else r.talon_size
        assert len(pool) == need.sum() + talon_need
        codes, counts = encode_table(self.bets_by_seat(), players)
        return dict(pool=pool, fixed=fixed, need=need, talon_fixed=np.uint64(self.talon or 0),
                    talon_need=talon_need, revealed=np.uint64(revealed_all), codes=codes, bcounts=counts)

    def describe(self) -> str:
        r = self.rules
        talon = format_cards(self.talon, r) if self.talon is not None else "unknown"
        parts = [f"seat {self.seat} hand {format_cards(self.hand, r)}", f"talon {talon}",
                 f"lead {self.lead}"]
        if self.revealed:
            parts.append("revealed " + "; ".join(f"{s}:{format_cards(m, r)}" for s, m in sorted(self.revealed.items())))
        if self.others:
            parts.append("others " + "; ".join(
                f"{s}:{','.join(b.notation(r) for b in bs)}" for s, bs in sorted(self.others.items())))
        return ", ".join(parts)


def _seat_arg(value, rules: RuleSet, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise UserError(f"{what}: {value!r} is not a seat number")
    return standing.seat(int(value), rules, what)


def _card_list(value, rules, what):
    if value is None:
        return None
    if isinstance(value, str):
        return parse_cards(value, rules, what)
    return parse_cards(" ".join(value), rules, what)


def parse_revealed(value, rules: RuleSet) -> dict[int, list[int]]:
    """``"1:G9 Y1; 2:B2"`` (or a {seat: cards} mapping) -> {seat: card ids}."""
    if not value:
        return {}
    items = value.items() if isinstance(value, dict) else None
    if items is None:
        items = []
        for part in str(value).split(";"):
            if not part.strip():
                continue
            if ":" not in part:
                raise UserError(f"--revealed {part.strip()!r}: expected SEAT:CARDS, e.g. 1:G9 Y1")
            s, cards = part.split(":", 1)
            if not s.strip().isdigit():
                raise UserError(f"--revealed: seat {s.strip()!r} is not a number")
            items.append((int(s), cards))
    out: dict[int, list[int]] = {}
    for s, cards in items:
        s = _seat_arg(int(s), rules, "--revealed")
        if s in out:
            raise UserError(f"--revealed: seat {s} is listed twice")
        out[s] = _card_list(cards, rules, f"--revealed seat {s}")
    return out


def build_situation(rules: RuleSet, hand, talon=None, *, seat: int = 0, lead: int = 0,
                    revealed=None, bets=None, others=None) -> Situation:
    """Validate a query's inputs into a Situation (see module docstring)."""
    seat = _seat_arg(seat, rules, "--seat")
    lead = _seat_arg(lead, rules, "--lead")
    hand_ids = _card_list(hand, rules, "--hand")
    if hand_ids is None:
        raise UserError("--hand is required (e.g. --hand \"R9 R7 R2 B8 B5 G6 G1 Y3\")")
    if len(hand_ids) != rules.hand_size:
        raise UserError(f"--hand has {len(hand_ids)} cards; rule set {rules.name} deals {rules.hand_size}")
    talon_ids = _card_list(talon, rules, "--talon")
    if talon_ids is None and rules.talon_size == 0:
        talon_ids = []
    if talon_ids is not None:
        if len(talon_ids) != rules.talon_size:
            raise UserError(f"--talon has {len(talon_ids)} cards; rule set {rules.name} has a talon of {rules.talon_size}")
        both = set(hand_ids) & set(talon_ids)
        if both:
            raise UserError(f"card {card_name(min(both), rules)} is both in --hand and --talon")
    rev = parse_revealed(revealed, rules)
    seen = {c: "--hand" for c in hand_ids}
    seen.update({c: "--talon" for c in talon_ids or []})
    for s, ids in rev.items():
        if s == seat:
            raise UserError(f"--revealed: seat {s} is the asking seat (its cards are in --hand)")
        if len(ids) > rules.hand_size:
            raise UserError(f"--revealed: seat {s} shows {len(ids)} cards but holds only {rules.hand_size}")
        for c in ids:
            if c in seen:
                raise UserError(f"--revealed: card {card_name(c, rules)} of seat {s} is also in {seen[c]}")
            seen[c] = f"--revealed seat {s}"
    hidden_cards = rules.deck_size - len(seen)
    hidden_slots = sum(rules.hand_size - len(rev.get(s, [])) for s in range(rules.players) if s != seat)
    if talon_ids is None:
        hidden_slots += rules.talon_size
    if hidden_cards != hidden_slots:  # pragma: no cover - the checks above make this impossible
        raise UserError(f"contradictory constraints: {hidden_cards} unknown cards for {hidden_slots} hidden places")
    bet_list = bets if isinstance(bets, (list, tuple)) else None
    if bet_list is not None and all(isinstance(b, Bet) for b in bet_list):
        my_bets = list(bet_list)
    else:
        text = ",".join(bet_list) if bet_list is not None else bets
        my_bets = parse_bet_set(text, rules, seat)
    if isinstance(others, dict):
        others_text = "; ".join(f"{s}:{b if isinstance(b, str) else ','.join(b)}" for s, b in others.items())
    else:
        others_text = others
    other_bets = parse_others(others_text, rules, seat)
    return Situation(rules=rules, seat=seat, lead=lead, hand=mask_of(hand_ids),
                     talon=None if talon_ids is None else mask_of(talon_ids),
                     revealed={s: mask_of(ids) for s, ids in rev.items() if ids},
                     bets=tuple(my_bets), others={s: tuple(b) for s, b in other_bets.items() if b})
