"""Bets: notation, validation, the catalogue, and the integer encoding kernels use.

Notation (spec section 4): ``tricks=N``, ``colour:C=N``, ``last``, ``nines``,
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
from sponsio_sim.rules import BET_TYPES, RANKS, RuleSet

from sponsio_sim.kernels.bets import ANY_SEAT, BET_FIELDS

TRICKS, COLOUR, LAST, NINES, FAIL = range(5)
KIND_CODE = {name: i for i, name in enumerate(BET_TYPES)}
MAX_BETS = len(BET_TYPES)  # one bet per type


@dataclass(frozen=True, order=True)
class Bet:
    kind: str
    a: int = 0
    b: int = 0

    def notation(self, rules: RuleSet) -> str:
        if self.kind == "tricks":
            return f"tricks={self.a}"
        if self.kind == "colour":
            return f"colour:{rules.colours[self.a]}={self.b}"
        if self.kind == "fail":
            return "fail" if self.a == ANY_SEAT else f"fail:{self.a}"
        return self.kind

    def code(self) -> tuple[int, int, int]:
        return KIND_CODE[self.kind], self.a, self.b


_TRICKS = re.compile(r"^tricks\s*=\s*(\d+)$")
_COLOUR = re.compile(r"^colou?r\s*:\s*([a-z])\s*=\s*(\d+)$")
_FAIL = re.compile(r"^fail\s*:\s*(\d+)$")


def parse_bet(text: str, rules: RuleSet, seat: int) -> Bet:
    """One bet in spec notation, checked against the rules and the bettor's seat."""
    t = text.strip().lower()
    if m := _TRICKS.match(t):
        n = int(m.group(1))
        if n > rules.hand_size:
            raise UserError(f"bet {text!r}: tricks must be 0..{rules.hand_size}")
        bet = Bet("tricks", n)
    elif m := _COLOUR.match(t):
        c, n = m.group(1).upper(), int(m.group(2))
        if c not in rules.colours:
            raise UserError(f"bet {text!r}: unknown colour {c} (colours {''.join(rules.colours)})")
        if n > RANKS:
            raise UserError(f"bet {text!r}: a colour count must be 0..{RANKS}")
        bet = Bet("colour", rules.colours.index(c), n)
    elif t in ("last", "nines"):
        bet = Bet(t)
    elif t == "fail":
        if rules.fail_target != "any":
            raise UserError(f"bet {text!r}: name the seat, fail:S (rule set {rules.name} has "
                            "fail_target = seat)")
        bet = Bet("fail", ANY_SEAT)
    elif m := _FAIL.match(t):
        if rules.fail_target == "any":
            raise UserError(f"bet {text!r}: write 'fail' (rule set {rules.name} has fail_target = any)")
        s = int(m.group(1))
        if s >= rules.players:
            raise UserError(f"bet {text!r}: seat {s} out of range 0..{rules.players - 1}")
        if s == seat:
            raise UserError(f"bet {text!r}: seat {seat} cannot bet on its own failure")
        bet = Bet("fail", s)
    else:
        fail = "fail" if rules.fail_target == "any" else "fail:S"
        raise UserError(f"unknown bet {text!r} (bets: tricks=N, colour:C=N, last, nines, {fail})")
    if bet.kind not in rules.bets:
        raise UserError(f"bet {text!r}: type '{bet.kind}' is not in rule set {rules.name}")
    return bet


def parse_bet_set(text: str | None, rules: RuleSet, seat: int) -> list[Bet]:
    """Comma-separated bets of one seat; at most one bet per type (spec 2.2)."""
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
        seat = _seat(seat_text, rules, "--others")
        if seat == asking_seat:
            raise UserError(f"--others: seat {seat} is the asking seat (use --bets for its bets)")
        if seat in out:
            raise UserError(f"--others: seat {seat} is listed twice")
        out[seat] = parse_bet_set(bets_text, rules, seat)
    return out


def _seat(text: str, rules: RuleSet, what: str) -> int:
    t = text.strip()
    if not t.isdigit():
        raise UserError(f"{what}: seat {t!r} is not a number")
    s = int(t)
    if s >= rules.players:
        raise UserError(f"{what}: seat {s} out of range 0..{rules.players - 1}")
    return s


def catalogue(rules: RuleSet, seat: int) -> list[Bet]:
    """Every bet the seat could take, every parameter value, in catalogue order."""
    out: list[Bet] = []
    if "tricks" in rules.bets:
        out += [Bet("tricks", n) for n in range(rules.hand_size + 1)]
    if "colour" in rules.bets:
        out += [Bet("colour", c, n) for c in range(rules.n_colours) for n in range(RANKS + 1)]
    for kind in ("last", "nines"):
        if kind in rules.bets:
            out.append(Bet(kind))
    if "fail" in rules.bets:
        if rules.fail_target == "any":
            out.append(Bet("fail", ANY_SEAT))
        else:
            out += [Bet("fail", s) for s in range(rules.players) if s != seat]
    return out


def encode_table(bets_by_seat: dict[int, list[Bet]], players: int) -> tuple[np.ndarray, np.ndarray]:
    """Kernel form: ``codes[seat, i] = (kind, a, b, placed)`` and ``counts[seat]``.

    Where the order bets were placed in is not known (an odds query), they
    count as placed seat by seat from seat 0, each seat's in the order given:
    it decides only fail bets that wait on each other (spec 4).
    """
    codes = np.zeros((players, MAX_BETS, BET_FIELDS), dtype=np.int64)
    counts = np.zeros(players, dtype=np.int64)
    for seat, bets in bets_by_seat.items():
        for i, bet in enumerate(bets):
            codes[seat, i, :3] = bet.code()
            codes[seat, i, 3] = seat * MAX_BETS + i
        counts[seat] = len(bets)
    return codes, counts


def encode_list(bets: list[Bet]) -> np.ndarray:
    """Kernel form of a bet list: an (n, 3) int array."""
    arr = np.zeros((len(bets), BET_FIELDS), dtype=np.int64)
    for i, bet in enumerate(bets):
        arr[i, :3] = bet.code()
        arr[i, 3] = i
    return arr
