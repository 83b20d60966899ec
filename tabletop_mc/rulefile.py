"""Rule files: TOML documents with dotted-key overrides.

Each game package ships named rule sets as TOML and validates the loaded
mapping into its own frozen RuleSet; this module only reads files, applies
``--set key=value`` overrides and reports problems as one-line ``UserError``s.
"""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping

from tabletop_mc.errors import UserError
from tabletop_mc.inputfile import check_depth, check_nesting, read_text


def load_toml(path: str | Path) -> dict:
    """Read a TOML rule file (bounded: ``tabletop_mc.inputfile``); any problem is a one-line ``UserError``."""
    p = Path(path)
    what = f"rule file {p}"
    text = read_text(p, what)
    check_nesting(text, what, "toml")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{what}: not valid TOML ({exc})") from None
    except RecursionError:  # pragma: no cover - check_nesting refuses such text first
        raise UserError(f"{what}: nested too deeply") from None
    check_depth(data, what)
    return data


MAX_EXTENDS = 8


def load_file(path: str | Path, package: str) -> dict:
    """Read a rule file; ``extends = "NAME"`` (a shipped set, or another file
    relative to this one) makes it a partial file: the base is read and the
    file's fields are laid over it, table by table. Without a ``name`` of its
    own the result is called ``FILE (extends NAME)``."""
    p = Path(path)
    data = load_toml(p)
    seen = [str(p)]
    while "extends" in data:
        base_name = data.pop("extends")
        if not isinstance(base_name, str) or not base_name:
            raise UserError(f"rule file {p}: 'extends' must name a rule set, got {base_name!r}")
        if len(seen) > MAX_EXTENDS or base_name in seen:
            raise UserError(f"rule file {p}: 'extends' chain too long or circular ({' -> '.join(seen)})")
        seen.append(base_name)
        candidate = p.parent / base_name
        if base_name.endswith(".toml") or candidate.is_file():
            base = load_toml(candidate)
        else:
            base = load_packaged(package, base_name)
        name = data.get("name") or f"{p.stem} (extends {base_name})"
        data = merge(base, data)
        data["name"] = name
    return data


def merge(base: Mapping, top: Mapping) -> dict:
    """``top`` laid over ``base``: tables merge key by key, any other value replaces."""
    out = copy.deepcopy(dict(base))
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


class Problems:
    """Collects every problem of a rule set, then reports them in one line: the
    first ``SHOWN`` and how many more (linear in the number of problems).

    Call it with a message to record a problem; ``check()`` raises the
    ``UserError`` if any were recorded (validators call it where later checks
    need the earlier values to be sound)."""

    SHOWN = 5

    def __init__(self, where: str):
        self.where = where
        self.items: dict[str, None] = {}

    def __call__(self, message: str) -> None:
        self.items.setdefault(message)

    def check(self) -> None:
        items = list(self.items)
        if len(items) == 1:
            raise UserError(f"{self.where}: {items[0]}")
        if items:
            more = len(items) - self.SHOWN
            raise UserError(f"{self.where}: {len(items)} problems: " + "; ".join(items[:self.SHOWN])
                            + (f"; and {more} more" if more > 0 else ""))


def to_toml(data: Mapping, header: str = "") -> str:
    """A rule mapping as TOML text (scalars, lists of scalars, nested tables)."""
    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(value(x) for x in v) + "]"
        raise TypeError(f"cannot write {v!r} as TOML")

    def key(k) -> str:
        k = str(k)
        return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else value(k)

    lines = [f"# {line}" for line in header.splitlines()]

    def table(node: Mapping, path: list[str]) -> None:
        scalars = {k: v for k, v in node.items() if not isinstance(v, Mapping)}
        tables = {k: v for k, v in node.items() if isinstance(v, Mapping)}
        if path:
            lines.append("")
            lines.append(f"[{'.'.join(key(p) for p in path)}]")
        lines.extend(f"{key(k)} = {value(v)}" for k, v in scalars.items())
        for k, v in tables.items():
            table(v, [*path, k])

    table(data, [])
    return "\n".join(lines).strip("\n") + "\n"


def changed_fields(base: Mapping, new: Mapping, prefix: str = "") -> list[str]:
    """Dotted keys whose values differ between two rule mappings (``name`` excluded)."""
    out = []
    for key in sorted(set(base) | set(new), key=str):
        if not prefix and key == "name":
            continue
        a, b = base.get(key), new.get(key)
        if isinstance(a, Mapping) or isinstance(b, Mapping):
            out += changed_fields(a if isinstance(a, Mapping) else {}, b if isinstance(b, Mapping) else {},
                                  f"{prefix}{key}.")
        elif a != b:
            out.append(f"{prefix}{key}")
    return out


def load_packaged(package: str, name: str) -> dict:
    """Read the rule set ``name`` shipped as ``<package>/<name>.toml``."""
    try:
        text = resources.files(package).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        raise UserError(f"unknown rule set '{name}' (shipped: {', '.join(packaged_names(package))})") from None
    return tomllib.loads(text)


def packaged_names(package: str) -> list[str]:
    """Names of the rule sets a package ships."""
    return sorted(p.name[:-5] for p in resources.files(package).iterdir() if p.name.endswith(".toml"))


def parse_value(text: str) -> Any:
    """A ``--set`` value: any TOML value (``3``, ``2.5``, ``[0,1,2]``, ``true``), else a string."""
    check_nesting(text, f"--set value {text[:20]!r}", "toml")
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text.strip()


def apply_overrides(data: Mapping, overrides: Iterable[str] | Mapping[str, Any] | None,
                    *, allow_new: Iterable[str] = ()) -> dict:
    """Return a copy of ``data`` with ``key.sub=value`` overrides applied.

    A key must already exist in the rule set (typos are errors), unless its
    parent table is listed in ``allow_new`` (tables keyed by free names).
    """
    out = copy.deepcopy(dict(data))
    if not overrides:
        return out
    items = overrides.items() if isinstance(overrides, Mapping) else (split_override(o) for o in overrides)
    allow = set(allow_new)
    for key, value in items:
        if isinstance(value, str):
            value = parse_value(value)
        parts = key.split(".")
        node = out
        for depth, part in enumerate(parts[:-1]):
            nxt = node.get(part) if isinstance(node, dict) else None
            name = ".".join(parts[:depth + 1])
            if isinstance(nxt, list):
                raise UserError(f"--set {key}: '{name}' is a list, not a table of keys: set it whole, e.g. "
                                f"--set {name}=[{', '.join(map(str, nxt))}]")
            if nxt is not None and not isinstance(nxt, dict):
                raise UserError(f"--set {key}: '{name}' is a single value ({nxt!r}), not a table of keys: "
                                f"--set {name}=VALUE")
            if nxt is None:
                raise UserError(f"--set {key}: unknown rule key '{name}'")
            node = nxt
        leaf = parts[-1]
        parent = ".".join(parts[:-1])
        if leaf not in node and parent not in allow:
            raise UserError(f"--set {key}: unknown rule key '{key}'")
        node[leaf] = value
    return out


def split_override(item: str) -> tuple[str, str]:
    """``'key=value'`` -> (key, value text); a malformed item is a UserError."""
    if "=" not in item:
        raise UserError(f"--set {item!r}: expected key=value")
    key, value = item.split("=", 1)
    key = key.strip()
    if not key:
        raise UserError(f"--set {item!r}: empty key")
    return key, value
