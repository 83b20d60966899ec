"""Reading the files users hand the tools (rule files, weights files, game states,
populations), bounded so that no file can hang a command, exhaust memory or
overflow the stack.

- ``read_text``: regular files only (a FIFO, ``/dev/zero`` or a folder is
  refused, never read), at most ``limit`` bytes, UTF-8 text without NUL.
- ``check_nesting``: one linear pass over TOML or JSON text that refuses
  nesting deeper than ``MAX_DEPTH`` (arrays, tables, dotted keys) before a
  recursive parser sees it; ``check_depth`` does the same for parsed data.
- ``parse_json``: strict JSON (no NaN or Infinity, finite floats, integers
  of at most ``MAX_DIGITS`` digits).

Every problem is one ``UserError`` line starting with ``what`` (``rule file
X``, ``--state X``).
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys

from tabletop_mc.errors import UserError

MAX_BYTES = 1 << 20     # a rule file is ~2 KB, a narration excerpt ~2 KB a round
MAX_DEPTH = 32          # the shipped files nest 3 levels
MAX_DIGITS = 30         # any rule number or weight fits in far fewer


def read_text(path, what: str, *, limit: int = MAX_BYTES) -> str:
    """The text of the regular file ``path`` (module docstring); ``-`` reads stdin."""
    if str(path) == "-":
        return _decode(sys.stdin.buffer.read(limit + 1) if hasattr(sys.stdin, "buffer")
                       else sys.stdin.read(limit + 1).encode("utf-8", "surrogateescape"), what, limit)
    return _decode(read_bytes(path, what, limit=limit), what, limit)


def read_bytes(path, what: str, *, limit: int = MAX_BYTES) -> bytes:
    """The content of the regular file ``path`` of at most ``limit`` bytes; anything else
    (a folder, a device, a file too large or that cannot be read) is one ``UserError`` line."""
    regular_file(path, what, limit=limit)
    try:
        # non-blocking: a FIFO put in the file's place since the check cannot hang the open
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise UserError(f"{what}: not a regular file (a device, FIFO or socket); give a file")
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(limit + 1)   # one more: a file that grew since the check is refused
        finally:
            os.close(fd)
    except OSError as exc:
        raise UserError(f"{what}: cannot read ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise UserError(f"{what}: too large (more than {limit:,} bytes)")
    return data


def regular_file(path, what: str, *, limit: int = MAX_BYTES) -> int:
    """The size of ``path`` if it is a regular file of at most ``limit`` bytes, else a ``UserError``."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise UserError(f"{what}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a device, FIFO or socket)"
        raise UserError(f"{what}: {kind}; give a file")
    if st.st_size > limit:
        raise UserError(f"{what}: too large ({st.st_size:,} bytes; at most {limit:,})")
    return st.st_size


def _decode(data: bytes, what: str, limit: int) -> str:
    if len(data) > limit:
        raise UserError(f"{what}: too large (more than {limit:,} bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{what}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
                        "is it a binary file?") from None
    if "\x00" in text:
        raise UserError(f"{what}: contains NUL bytes; is it a binary file?")
    return text


def check_nesting(text: str, what: str, syntax: str = "toml", *, limit: int = MAX_DEPTH) -> None:
    """Refuse ``text`` nesting deeper than ``limit``: brackets and braces outside
    strings and comments, plus (TOML) the dots of a dotted key. One linear pass."""
    depth = dots = 0
    line = 1
    i, n = 0, len(text)
    toml = syntax == "toml"
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            dots = 0
        elif c == '"' or (toml and c == "'"):
            j = _skip_string(text, i, toml)
            line += text.count("\n", i, j)
            i = j
            continue
        elif toml and c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif c in "[{":
            depth += 1
            dots = 0
        elif c in "]}":
            depth = max(0, depth - 1)
            dots = 0
        elif c in "=,":
            dots = 0
        elif toml and c == ".":
            dots += 1
        if depth + dots > limit:
            raise UserError(f"{what}: nested more than {limit} levels deep (line {line})")
        i += 1


def _skip_string(text: str, i: int, toml: bool) -> int:
    """Index just past the string starting at ``text[i]`` (TOML or JSON quoting)."""
    q = text[i]
    triple = toml and text.startswith(q * 3, i)
    if triple:
        j = text.find(q * 3, i + 3)
        if j < 0:
            return len(text)
        j += 3
        while j < len(text) and text[j] == q:   # up to two quotes may close a multi-line string
            j += 1
        return j
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\" and q == '"':
            j += 2
            continue
        if c == q or c == "\n":
            return j + 1
        j += 1
    return j


def check_depth(data, what: str, *, limit: int = MAX_DEPTH) -> None:
    """Refuse parsed data (dicts and lists) nested deeper than ``limit`` (no recursion)."""
    stack = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            raise UserError(f"{what}: nested more than {limit} levels deep")
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend((v, depth + 1) for v in node)


def parse_json(text: str, what: str) -> object:
    """Strict JSON (module docstring); one ``UserError`` line for anything else."""
    check_nesting(text, what, "json")

    def big_int(s: str) -> int:
        if len(s.lstrip("-")) > MAX_DIGITS:
            raise ValueError(f"the integer {s[:12]}... has more than {MAX_DIGITS} digits")
        return int(s)

    def finite(s: str) -> float:
        v = float(s)
        if not math.isfinite(v):
            raise ValueError(f"the number {s[:24]} is out of range")
        return v

    def constant(s: str):
        raise ValueError(f"{s} is not a number JSON allows")

    try:
        return json.loads(text, parse_int=big_int, parse_float=finite, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise UserError(f"{what}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    except (ValueError, RecursionError) as exc:
        raise UserError(f"{what}: not valid JSON ({exc})") from None
