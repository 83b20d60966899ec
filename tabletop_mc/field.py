"""Strategy populations and equilibrium fields, as data (both games).

A **population** is a named list of strategies (members), each written in its
game's strategy notation (Sponsio ``ev0.5:goal:cash3``, Circus ``tuned``). A
population file is TOML::

    name = "my population"            # optional
    members = ["ev0.5:goal:cash3", "troll:goal", "distilled"]

A **field** is a population with mixture weights: every game draws each
seat's member from the weights, independently (the symmetric mixed
strategy of the meta-game, ``tabletop_mc.metagame``). A field file is JSON
(``FIELD_FORMAT``) holding the members, the weights with their 95 % CIs, the
mixture's value, each member's regret with its CI, the payoff table it was
solved from (a CSV beside it), and the command, seed and version that made
it, so a shipped field says how to rebuild it.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.inputfile import parse_json, read_text
from tabletop_mc.metagame.text import describe_mixture

FIELD_FORMAT = "tabletop-field/1"
MIN_MEMBERS = 2


@dataclass(frozen=True)
class Population:
    """A named list of distinct member strategies (canonical texts)."""

    name: str
    members: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.members)


def population_from(name: str, members, canonical: Callable[[str], str], what: str) -> Population:
    """Validate ``members`` (each made canonical by ``canonical``, which raises a
    one-line ``UserError`` for an unknown strategy): at least two, no repeats."""
    if not isinstance(members, (list, tuple)) or not all(isinstance(m, str) for m in members):
        raise UserError(f"{what}: 'members' must be a list of strategy names")
    texts = [canonical(m) for m in members]
    if len(texts) < MIN_MEMBERS:
        raise UserError(f"{what}: a population needs at least {MIN_MEMBERS} strategies, got {len(texts)}")
    seen = set()
    for t in texts:
        if t in seen:
            raise UserError(f"{what}: strategy {t!r} is listed twice")
        seen.add(t)
    return Population(str(name), tuple(texts))


def load_population(spec: str, package: str, canonical: Callable[[str], str]) -> Population:
    """``default`` (the package's shipped ``fields/population.toml``) or a TOML file."""
    if str(spec).strip().lower() == "default":
        text = resources.files(package).joinpath("fields", "population.toml").read_text(encoding="utf-8")
        where = "default population"
    else:
        where = f"--population {spec}"
        from tabletop_mc.rulefile import load_toml
        data = load_toml(spec)
        return population_from(data.get("name") or Path(spec).stem, data.get("members"), canonical, where)
    data = tomllib.loads(text)
    return population_from(data.get("name", "default"), data.get("members"), canonical, where)


@dataclass(frozen=True)
class Field:
    """An equilibrium field: members, mixture weights and how they were found."""

    game: str
    players: int
    rules: str
    members: tuple[str, ...]
    weights: tuple[float, ...]
    weights_low: tuple[float, ...] = ()
    weights_high: tuple[float, ...] = ()
    value: float = float("nan")
    regret: tuple[float, ...] = ()        # each member's gain over the mixture's value
    regret_high: tuple[float, ...] = ()   # its bootstrap 95 % upper bound
    payoffs: str = ""                     # the payoff table's CSV, beside the field file
    command: str = ""
    seed: int = 0
    games_per_profile: int = 0
    version: str = ""
    notes: dict = field(default_factory=dict)

    def __post_init__(self):
        if len(self.members) != len(self.weights) or len(self.members) < 1:
            raise UserError(f"field: {len(self.members)} members but {len(self.weights)} weights")
        w = np.asarray(self.weights, dtype=float)
        if not np.all(np.isfinite(w)) or np.any(w < 0) or not 0.999 < w.sum() < 1.001:
            raise UserError("field: the weights must be non-negative and sum to 1")

    @property
    def support(self) -> list[tuple[str, float]]:
        """(member, weight) with weight > 0, heaviest first."""
        pairs = [(m, w) for m, w in zip(self.members, self.weights) if w > 0]
        return sorted(pairs, key=lambda p: -p[1])

    def text(self, digits: int = 2) -> str:
        """``0.62 ev0.5:goal:cash3 + 0.38 distilled`` (weights that round to 0 left out)."""
        return describe_mixture(self.weights, self.members, digits)

    def cumulative(self) -> np.ndarray:
        """Cumulative weights (float64), the last exactly 1: a uniform draw u picks
        the first member whose cumulative weight exceeds u."""
        c = np.cumsum(np.asarray(self.weights, dtype=np.float64))
        c[-1] = 1.0
        return c


def field_to_json(f: Field) -> str:
    from tabletop_mc.output import jsonable   # pandas: only where a field file is written
    data = {"format": FIELD_FORMAT, **asdict(f)}
    for k in ("weights", "weights_low", "weights_high", "regret", "regret_high", "members"):
        data[k] = list(data[k])
    data["notes"] = jsonable(data["notes"])   # e.g. a training's figures: one without a value is null
    return json.dumps(data, indent=1, allow_nan=False, default=float) + "\n"


def field_from_json(text: str, where: str) -> Field:
    """The field of a field file's text; anything wrong is one ``UserError`` line starting with ``where``."""
    data = parse_json(text, where)
    if not isinstance(data, dict) or data.get("format") != FIELD_FORMAT:
        raise UserError(f"{where}: not a field file (format {FIELD_FORMAT})")
    data.pop("format")
    known = set(Field.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise UserError(f"{where}: unknown field(s) {', '.join(unknown)}")
    if not isinstance(data.get("members"), list) or not all(isinstance(m, str) for m in data["members"]):
        raise UserError(f"{where}: 'members' must be a list of strategy names")
    if not isinstance(data.get("players"), int) or isinstance(data["players"], bool):
        raise UserError(f"{where}: 'players' must be a whole number")
    for k in ("weights", "weights_low", "weights_high", "regret", "regret_high"):
        if k in data and (not isinstance(data[k], list) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in data[k])):
            raise UserError(f"{where}: {k!r} must be a list of numbers")
    for k in ("members", "weights", "weights_low", "weights_high", "regret", "regret_high"):
        if k in data:
            data[k] = tuple(data[k])
    try:
        return Field(**data)
    except (TypeError, ValueError) as exc:
        raise UserError(f"{where}: {exc}") from None


def shipped_field(package: str, players: int) -> Field | None:
    """The package's shipped field for ``players`` (``fields/reference-<players>p.json``), or None."""
    res = resources.files(package).joinpath("fields", f"reference-{players}p.json")
    if not res.is_file():
        return None
    return field_from_json(res.read_text(encoding="utf-8"), f"{package} shipped field for {players} players")


def load_field(path: str | Path) -> Field:
    """A field file, read bounded (``tabletop_mc.inputfile``) and checked."""
    p = Path(path)
    return field_from_json(read_text(p, f"field file {p}"), f"field file {p}")
