"""Click parameter types shared by the game CLIs: strict integers and ASCII text.

Python's ``int()`` reads any Unicode digit (``int("٣") == 3``), so click's
own INT type lets ``-n ٣`` through; these types accept ASCII digits only,
report the accepted range in the error, and keep click's shell completion.
"""

from __future__ import annotations

import math
import re

import click

_INT = re.compile(r"^[+-]?[0-9][0-9_]*$")

FORMATS = ("table", "json", "csv")

# The most rounds (or games) one simulation may ask for: about eleven days
# at a million rounds a second. Work is chunked, so no memory is held per
# requested round; the limit only refuses runs that cannot finish.
MAX_ROUNDS = 10**12


def _bad(param, ctx, value, reason: str):
    """One-line usage error naming the option and the value: ``-n 0: must be at least 1``."""
    name = param.opts[0] if param is not None and param.opts else "value"
    raise click.UsageError(f"{name} {value}: {reason}", ctx)


def ascii_int(text: str) -> int | None:
    """``text`` as an int if it is a plain ASCII integer (``_`` separators allowed), else None."""
    text = text.strip()
    if not _INT.match(text) or "__" in text or text.endswith("_"):
        return None
    return int(text)


class StrictInt(click.IntRange):
    """An integer written with ASCII digits, optionally within ``min..max``
    (``why`` explains the limit in the error)."""

    name = "integer"

    def __init__(self, min=None, max=None, why: str = ""):
        super().__init__(min, max)
        self.why = why

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            number = ascii_int(str(value))
            if number is None:
                _bad(param, ctx, repr(value), "not an integer (ASCII digits, e.g. 20000)")
        if self.min is not None and number < self.min:
            _bad(param, ctx, number, f"must be at least {self.min:,}")
        if self.max is not None and number > self.max:
            _bad(param, ctx, number, f"must be at most {self.max:,}" + (f" ({self.why})" if self.why else ""))
        return number

    def _describe_range(self) -> str:
        if self.min is None and self.max is None:
            return ""
        if self.min is not None and self.max is None:
            return f">={self.min}"
        return super()._describe_range()


def seed_type() -> StrictInt:
    """Any integer: negative and huge seeds are mapped into 64 bits by ``tabletop_mc.rng.seed_key``."""
    return StrictInt()


def count_type(limit: int = MAX_ROUNDS, why: str = "longer than a week of computing") -> StrictInt:
    """A number of rounds or games: 1..limit."""
    return StrictInt(1, limit, why)


class FiniteFloat(click.ParamType):
    """A finite float (``nan`` and ``inf`` are refused), optionally within ``min..max``."""

    name = "number"

    def __init__(self, min: float | None = None, max: float | None = None):
        self.min, self.max = min, max

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            number = value
        else:
            text = str(value).strip()
            if not re.match(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$", text):
                _bad(param, ctx, repr(value), "not a finite number")
            number = float(text)
        if not math.isfinite(number):
            _bad(param, ctx, repr(value), "not a finite number")
        if (self.min is not None and number < self.min) or (self.max is not None and number > self.max):
            _bad(param, ctx, value, f"must be {self.min:g}..{self.max:g}")
        return number


def positive_int() -> StrictInt:
    return StrictInt(1)


class AsciiText(click.ParamType):
    """Free text that must be ASCII (cards, bets, profiles): a Unicode digit such as
    ``tricks=٣`` would otherwise be read as a number by the parsers behind it."""

    name = "text"

    def __init__(self, nonempty: bool = False):
        self.nonempty = nonempty

    def convert(self, value, param, ctx):
        text = str(value)
        for ch in text:
            if ord(ch) > 127:
                _bad(param, ctx, repr(text), f"non-ASCII character {ch!r} (use plain letters and digits 0-9)")
        if self.nonempty and not any(part.strip() for part in re.split(r"[,;]", text)):
            _bad(param, ctx, repr(text), "names nothing (leave the option out instead)")
        return text


ASCII = AsciiText()
ASCII_NONEMPTY = AsciiText(nonempty=True)
