"""The numbers of a table state, checked one way whichever way they come in.

A seat, a dealer, a round, a seat's coins and its streak-track position reach
the tools three ways: command-line options (``--seat``, ``--coins 10,10,9,12``
...), a `sponsio game --verbose` excerpt (``--state``) and the lines of a
`sponsio table` session. Each way reads its values with these functions, so
the same bad value is refused with the same words (after the name of where it
came from): numbers are plain ASCII decimals (no ``nan``, ``inf`` or digits
of other scripts), seats are 0..players-1, rounds 1..max_rounds, coins
0 <= c < coins_to_end and track positions 0..track_win-1 while the game goes
on (at either end it is over).
"""

from __future__ import annotations

import math
import re

from tabletop_mc.errors import UserError
from sponsio_sim.rules import RuleSet

_INTEGER = re.compile(r"^[+-]?[0-9]{1,100}$")
_DECIMAL = re.compile(r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?$")
SHOWN = 80   # characters of a bad value or line quoted in a message


def cut(text: str) -> str:
    """``text`` cut to ``SHOWN`` characters for a message (a pasted file stays one short line)."""
    text = " ".join(str(text).split())
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(text):,} characters)"


def shown(text: str) -> str:
    """``text`` quoted for a message (``cut``)."""
    return repr(cut(text))


def integer(text, what: str) -> int:
    """A whole number written with ASCII digits."""
    text = str(text).strip()
    if not _INTEGER.match(text):
        raise UserError(f"{what}: {shown(text)} is not a whole number (ASCII digits)")
    return int(text)


def decimal(text, what: str) -> float:
    """A finite number written with ASCII digits (``10``, ``9.5``, ``1e2``)."""
    text = str(text).strip()
    value = float(text) if _DECIMAL.match(text) else math.nan
    if not math.isfinite(value):
        raise UserError(f"{what}: {shown(text)} is not a finite number (ASCII digits, e.g. 10 or 9.5)")
    return value


def seat(text, rules: RuleSet, what: str) -> int:
    """A seat of the table, 0..players-1."""
    s = integer(text, what)
    if not 0 <= s < rules.players:
        raise UserError(f"{what}: seat {cut(s)} out of range 0..{rules.players - 1}")
    return s


def round_no(text, rules: RuleSet, what: str) -> int:
    """A round of the game, 1..max_rounds."""
    n = integer(text, what)
    if not 1 <= n <= rules.max_rounds:
        raise UserError(f"{what}: round {cut(n)}: rounds are 1..{rules.max_rounds} (rule set {rules.name})")
    return n


def coins(value: float, s: int, rules: RuleSet, what: str) -> float:
    """Seat ``s``'s coins at the start of a round: the game goes on while every seat has fewer
    than ``coins_to_end``."""
    if not (math.isfinite(value) and 0 <= value < rules.coins_to_end):
        raise UserError(f"{what}: seat {s} has {value:g} coins (0 to under {rules.coins_to_end:g} while the game "
                        "goes on)")
    return float(value)


def track(value: int, s: int, rules: RuleSet, what: str) -> int:
    """Seat ``s``'s streak-track position: 0..track_win-1 while the game goes on."""
    if not 0 <= value < rules.track_win:
        raise UserError(f"{what}: seat {s} at track position {value} (0..{rules.track_win - 1} while the game "
                        "goes on)")
    return int(value)


def per_seat(text: str, rules: RuleSet, what: str, kind: str) -> list:
    """Every seat's ``coins`` or ``track`` (``kind``), e.g. ``10,10,9,12``."""
    parts = [p for p in re.split(r"[,\s]+", str(text).strip()) if p]
    if len(parts) != rules.players:
        raise UserError(f"{what}: give {rules.players} values, one per seat (got {len(parts)})")
    if kind == "coins":
        return [coins(decimal(p, what), s, rules, what) for s, p in enumerate(parts)]
    return [track(integer(p, what), s, rules, what) for s, p in enumerate(parts)]
