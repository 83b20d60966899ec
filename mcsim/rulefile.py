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

from mcsim.errors import UserError


def load_toml(path: str | Path) -> dict:
    """Read a TOML file; a missing or malformed file is a ``UserError``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"rule file {p}: cannot read ({exc.strerror or exc})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"rule file {p}: not valid TOML ({exc})") from None


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
            if not isinstance(nxt, dict):
                raise UserError(f"--set {key}: unknown rule key '{'.'.join(parts[:depth + 1])}'")
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
