"""Fields as players: each game draws every seat's strategy from a mixture of members.

``FieldPlay`` is what ``--profile reference`` (the shipped reference field for the player
count, ``caesar_sim/fields/reference-<players>p.json``) or ``--profile field:FILE`` plays: the
members of positive weight, their weights and, for a deviation, the **focal** strategy that
seat ``g % players`` plays in game g instead of its draw (``kernels.game.engine``). Populations
(``caesar meta``) are lists of member strategies in ``caesar_sim.strategy`` notation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.field import Field, Population, load_population
from caesar_sim.kernels import layout
from caesar_sim.profile import is_field
from caesar_sim.strategy import PACKAGE, Strategy, canonical, field_base, field_spec, kernel_matrix, parse_strategy


@dataclass(frozen=True)
class FieldPlay:
    """Seats drawn from ``members`` by ``weights`` (positive, summing to 1); ``focal``: the strategy
    seat ``g % players`` plays in game g (None: every seat draws)."""

    name: str
    players: int
    members: tuple[Strategy, ...]
    weights: tuple[float, ...]
    focal: Strategy | None = None
    field: Field | None = None
    base: Path | None = None   # the field file's folder (its members' weights files may sit there)

    @property
    def labels(self) -> list[str]:
        """The members' labels (the focal strategy last, if any)."""
        return [m.label for m in self.members] + ([self.focal.label] if self.focal else [])

    @property
    def policies(self) -> np.ndarray:
        return np.array([s.code for s in self.strategies()], dtype=np.int64)

    def mixture(self, digits: int = 2) -> str:
        """``0.62 tuned + 0.38 distilled``."""
        pairs = sorted(zip(self.weights, (m.label for m in self.members)), key=lambda p: -p[0])
        return " + ".join(f"{w:.{digits}f} {m}" for w, m in pairs)

    def text(self) -> str:
        focal = f"; seat g % {self.players} of game g plays {self.focal.label}" if self.focal else ""
        return f"{self.name} field ({self.mixture()}: each seat drawn per game){focal}"

    @property
    def entries(self) -> tuple[str, ...]:
        """Seat positions relative to the focal seat (entry 0 = seat g % players of game g)."""
        first = self.focal.label if self.focal else "field"
        return (first,) + tuple(f"field (seat +{j})" for j in range(1, self.players))

    def strategies(self) -> list[Strategy]:
        return list(self.members) + ([self.focal] if self.focal else [])

    def cumulative(self) -> np.ndarray:
        c = np.cumsum(np.asarray(self.weights, dtype=np.float64))
        c[-1] = 1.0
        return c

    def with_focal(self, focal: Strategy | str | None) -> "FieldPlay":
        """This field with seat g % players playing ``focal`` (a strategy or its text)."""
        if isinstance(focal, str):
            focal = parse_strategy(focal, self.players, self.base)
        return replace(self, focal=focal)

    def kernel_tables(self, mc_horizon: str = "day"):
        """(weight_table, policy codes, rollouts, cumulative weights, focal member index or -1) for
        ``kernels.game.engine``."""
        table, pols, ks, cum, at = self.with_rows([self.focal] if self.focal else [], mc_horizon)
        return table, pols, ks, cum, (at if self.focal else -1)

    def with_rows(self, extra: list[Strategy], mc_horizon: str = "day"):
        """The kernels' tables of the members and then ``extra`` (the focal strategy is not added): (weight_table,
        policy codes, rollouts, cumulative weights of the members, the row of ``extra[0]``)."""
        strategies = list(self.members) + list(extra)
        weight_table = kernel_matrix(strategies, self.players, mc_horizon, pad=0)
        pols = np.array([s.code for s in strategies], dtype=np.int64)
        ks = np.array([s.rollouts for s in strategies], dtype=np.int64)
        return weight_table, pols, ks, self.cumulative(), len(self.members)

    def has_mc(self) -> bool:
        return any(s.code == layout.MC for s in self.strategies())


def mixture_play(name: str, players: int, members, weights, base=None) -> FieldPlay:
    """A field of ``members`` (strategies or their texts, weights files looked up beside ``base`` first)
    with ``weights``; members of weight 0 are left out."""
    pairs = [(m if isinstance(m, Strategy) else parse_strategy(m, players, base), float(w))
             for m, w in zip(members, weights) if float(w) > 0]
    if not pairs:
        raise UserError(f"field {name}: no member has a positive weight")
    tot = sum(w for _, w in pairs)
    return FieldPlay(name, players, tuple(m for m, _ in pairs), tuple(w / tot for _, w in pairs))


def field_play(spec: str, players: int) -> FieldPlay:
    """``reference`` or ``field:FILE`` as a FieldPlay (one-line UserError if there is none)."""
    f = field_spec(spec.strip(), players)
    name = "reference" if spec.strip().lower() == "reference" else spec.strip()
    base = field_base(spec.strip())
    return replace(mixture_play(name, players, f.members, f.weights, base), field=f, base=base)


def against(spec: str, players: int) -> FieldPlay:
    """What `tune --against` and `distill --against` play against: ``reference``, ``field:FILE``, or
    one strategy in every other seat (a field of one member)."""
    if is_field(spec):
        return field_play(spec, players)
    s = parse_strategy(spec, players)
    return mixture_play(s.label, players, [s], [1.0])


def population(spec: str, players: int) -> Population:
    """``default`` (the shipped population) or a population TOML file; members made canonical (an
    unknown strategy is a one-line UserError naming the file)."""
    where = "default population" if str(spec).strip().lower() == "default" else f"--population {spec}"

    def canon(text: str) -> str:
        if not isinstance(text, str):
            raise UserError(f"{where}: members must be strategy names, got {text!r}")
        try:
            return canonical(text, players)
        except UserError as exc:
            raise UserError(f"{where}: {str(exc).removeprefix('--profile: ')}") from None
    return load_population(spec, PACKAGE, canon)
