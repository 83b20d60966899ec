"""Bets: notation, validation, the catalogue, and the integer encoding kernels use.

Notation (docs/rules-sponsio.md section 4): ``tricks=N``, ``colour:C=N``, ``last``, ``nines``,
``fail:S`` (``fail`` under ``fail_target = any``). Kernels see a bet as four
integers ``(kind, a, b, placed)``: tricks (0, N, 0), colour (1, colour index,
N), last (2, 0, 0), nines (3, 0, 0), fail (4, S, 0) with S = -1 for ``fail``;
``placed`` ranks the bets in placement order (``kernels.bets``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from tabletop_mc.errors import UserError
from sponsio_sim.bet_kinds import BY_NAME, KIND_CODE, KINDS, MAX_BETS, Kind
import sponsio_sim.standing as standing
from sponsio_sim.rules import RANKS, RuleSet

from sponsio_sim.kernels.bets import ANY_SEAT, BET_FIELDS


@dataclass(frozen=True, order=True)
class Bet:
    kind: str
    a: int = 0
    b: int = 0

    def notation(self, rules: RuleSet) -> str:
        """The bet as written in the rules (``bet_kinds`` notation, parameters filled in)."""
        kind = BY_NAME[self.kind]
        if kind.params == ("seat",) and self.a == ANY_SEAT:
            return self.kind
        out = kind.notation
        for param, value in zip(kind.params, (self.a, self.b)):
            token = {"tricks": "N", "cards": "N", "colour": "C", "seat": "S"}[param]
            out = out.replace(token, rules.colours[value] if param == "colour" else str(value), 1)
        return out

    def code(self) -> tuple[int, int, int]:
        return KIND_CODE[self.kind], self.a, self.b


def _pattern(kind: Kind) -> re.Pattern:
    """A kind's notation as a regular expression: N and S read digits, C a
    letter; blanks allowed around ``=`` and ``:``; ``colour`` may be spelt ``color``."""
    out = ""
    for ch in kind.notation:
        out += {"N": r"(\d+)", "S": r"(\d+)", "C": r"([a-z])", "=": r"\s*=\s*", ":": r"\s*:\s*"}.get(ch, re.escape(ch))
    return re.compile("^" + out.replace("colour", "colou?r") + "$")


_PATTERNS = [(kind, _pattern(kind)) for kind in KINDS]


def _syntax(rules: RuleSet) -> str:
    fail = "fail" if rules.fail_target == "any" else "fail:S"
    return ", ".join(fail if k.params == ("seat",) else k.notation for k in KINDS if k.name in rules.bets)


def parse_bet(text: str, rules: RuleSet, seat: int) -> Bet:
    """One bet in spec notation, checked against the rules and the bettor's seat."""
    t = text.strip().lower()
    for kind, pattern in _PATTERNS:
        if m := pattern.match(t):
            values = [_param(text, kind, p, v, rules, seat) for p, v in zip(kind.params, m.groups())]
            bet = Bet(kind.name, *values)
            break
        if kind.params == ("seat",) and t == kind.name:   # fail under fail_target = any
            if rules.fail_target != "any":
                raise UserError(f"bet {text!r}: name the seat, {kind.notation} (rule set {rules.name} has "
                                "fail_target = seat)")
            bet = Bet(kind.name, ANY_SEAT)
            break
    else:
        raise UserError(f"unknown bet {text!r} (bets: {_syntax(rules)})")
    if bet.kind not in rules.bets:
        raise UserError(f"bet {text!r}: type '{bet.kind}' is not in rule set {rules.name}")
    return bet


def _param(text: str, kind: Kind, param: str, value: str, rules: RuleSet, seat: int) -> int:
    """A parameter of a bet in notation, checked against the rules."""
    if param == "colour":
        c = value.upper()
        if c not in rules.colours:
            raise UserError(f"bet {text!r}: unknown colour {c} (colours {''.join(rules.colours)})")
        return rules.colours.index(c)
    n = int(value)
    if param == "tricks" and n > rules.hand_size:
        raise UserError(f"bet {text!r}: tricks must be 0..{rules.hand_size}")
    if param == "cards" and n > RANKS:
        raise UserError(f"bet {text!r}: a colour count must be 0..{RANKS}")
    if param == "seat":
        if rules.fail_target == "any":
            raise UserError(f"bet {text!r}: write '{kind.name}' "
                            f"(rule set {rules.name} has fail_target = any)")
        if n >= rules.players:
            raise UserError(f"bet {text!r}: seat {n} out of range 0..{rules.players - 1}")
        if n == seat:
            raise UserError(f"bet {text!r}: seat {seat} cannot bet on its own failure")
    return n


def parse_bet_set(text: str | None, rules: RuleSet, seat: int) -> list[Bet]:
    """Comma-separated bets of one seat; at most one bet per type (docs/rules-sponsio.md section 2.2)."""
    if text is None or not text.strip():
        return []
    bets = [parse_bet(part, rules, seat) for part in text.split(",") if part.strip()]
    kinds = [b.kind for b in bets]
    for k in set(kinds):
        if kinds.count(k) > 1:
            raise UserError(f"bets {text!r}: seat {seat} holds two '{k}' bets (one per type)")
    return bets


def parse_others(text: str | None, rules: RuleSet, asking_seat: int) -> dict[int, list[Bet]]:
    """``"1:tricks=3; 2:colour:R=0"`` -> {seat: bets}."""
    out: dict[int, list[Bet]] = {}
    if not text or not text.strip():
        return out
    for part in text.split(";"):
        if not part.strip():
            continue
        if ":" not in part:
            raise UserError(f"--others {part.strip()!r}: expected SEAT:BETS, e.g. 1:tricks=3")
        seat_text, bets_text = part.split(":", 1)
        seat = standing.seat(seat_text, rules, "--others")
        if seat == asking_seat:
            raise UserError(f"--others: seat {seat} is the asking seat (use --bets for its bets)")
        if seat in out:
            raise UserError(f"--others: seat {seat} is listed twice")
        out[seat] = parse_bet_set(bets_text, rules, seat)
    return out


def catalogue(rules: RuleSet, seat: int) -> list[Bet]:
    """Every bet the seat could take, every parameter value, in catalogue order
    (kinds in ``bet_kinds`` order)."""
    out: list[Bet] = []
    for kind in KINDS:
        if kind.name in rules.bets:
            out += [Bet(kind.name, *values) for values in _values(kind.params, rules, seat)]
    return out


def _values(params: tuple[str, ...], rules: RuleSet, seat: int) -> list[tuple[int, ...]]:
    if not params:
        return [()]
    head, rest = params[0], _values(params[1:], rules, seat)
    if head == "seat":
        first = [ANY_SEAT] if rules.fail_target == "any" else [s for s in range(rules.players) if s != seat]
    else:
        first = range({"tricks": rules.hand_size + 1, "colour": rules.n_colours, "cards": RANKS + 1}[head])
    return [(v, *r) for v in first for r in rest]


def encode_table(bets_by_seat: dict[int, list[Bet]], players: int) -> tuple[np.ndarray, np.ndarray]:
    """Kernel form: ``codes[seat, i] = (kind, a, b, placed)`` and ``counts[seat]``.

    Where the order bets were placed in is not known (an odds query), they
    count as placed seat by seat from seat 0, each seat's in the order given:
    it decides only fail bets that wait on each other (docs/rules-sponsio.md section 4).
    """
    codes = np.zeros((players, MAX_BETS, BET_FIELDS), dtype=np.int64)
    counts = np.zeros(players, dtype=np.int64)
    for seat, bets in bets_by_seat.items():
        for i, bet in enumerate(bets):
            codes[seat, i, :3] = bet.code()
            codes[seat, i, 3] = seat * MAX_BETS + i
        counts[seat] = len(bets)
    return codes, counts

