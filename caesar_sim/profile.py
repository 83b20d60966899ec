"""Strategy profiles: ``"value,value,greedy,mc"``, ``"tuned x4"``, ``"mc:32"`` -> kernel arrays.

A profile is one strategy per seat (notation in ``caesar_sim.strategy``); the word ``reference``
or ``field:FILE`` instead names a **field** (each game draws every seat's strategy from a mixture,
``caesar_sim.fieldgames``). Each entry carries its own weight row (the float matrix the kernels
read as ``weight_table``); see ``caesar_sim.weights`` for the names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace as with_fields

import numpy as np

from tabletop_mc.errors import UserError
from caesar_sim import weights as WT
from caesar_sim.kernels import layout
from caesar_sim.strategy import (  # noqa: F401  (re-exported: the names callers know)
    DEFAULT_ROLLOUTS, FIELD_PREFIX, HORIZONS, MAX_ROLLOUTS, POLICIES, Strategy, kernel_matrix, parse_strategy,
    weights_row,
)

MC_CHUNK = 16          # games per chunk when a seat plays `mc`
REFERENCE = "reference"


def reference_profile(players: int) -> str:
    """What reports and the analysis commands play by default: the reference field (the shipped
    equilibrium mixture for ``players``, caesar_sim/fields/reference-<players>p.json)."""
    return REFERENCE


def is_field(text: str) -> bool:
    """Does ``text`` name a field (``reference`` or ``field:FILE``) rather than one strategy per seat?"""
    t = str(text).strip().lower()
    return t == REFERENCE or t.startswith(FIELD_PREFIX)


def game_profile(players: int) -> str:
    """The default profile of a narrated game: `tuned` seats, then one `value` and one `mc`."""
    return ",".join(["tuned"] * (players - 2) + ["value", "mc"])


def policy_weights(**changes) -> np.ndarray:
    """One weight row: `value`'s weights with keyword changes."""
    return WT.vector(**changes)


@dataclass(frozen=True)
class Profile:
    """One strategy (policy, rollout count for `mc`, weight row, rollout field) per profile entry."""

    entries: tuple[str, ...]
    policies: np.ndarray   # int64 policy codes, padded to layout.MAX_PLAYERS
    rollouts: np.ndarray   # int64 K per entry, padded
    weights: np.ndarray    # (layout.MAX_PLAYERS, WEIGHTS.size) float64: the weight row of each entry
    fields: tuple[str, ...] = ()   # per entry: its `mc` rollout field ('' = none)

    @property
    def labels(self) -> list[str]:
        """Entry labels, numbered where a policy repeats (``value#1``)."""
        out = []
        for i, e in enumerate(self.entries):
            out.append(f"{e}#{i}" if self.entries.count(e) > 1 else e)
        return out

    def text(self) -> str:
        return ",".join(self.entries)

    def strategies(self) -> list[Strategy]:
        fields = self.fields or ("",) * len(self.entries)
        return [Strategy(e, int(self.policies[i]), int(self.rollouts[i]), self.weights[i], fields[i])
                for i, e in enumerate(self.entries)]

    def kernel_weights(self, mc_horizon: str = "day") -> np.ndarray:
        """The flat ``weight_table`` the kernels read (row e = entry e, then rollout fields), with `mc` rolling out to the
        day's or game's end."""
        return kernel_matrix(self.strategies(), len(self.entries), mc_horizon)

    def replace(self, entry: int, text: str, row: np.ndarray | None = None) -> "Profile":
        """This profile with entry ``entry`` replaced by the strategy ``text`` (and weight ``row`` if given)."""
        s = parse_strategy(text, len(self.entries))
        return self.with_entry(entry, s if row is None else with_fields(s, label=f"{s.label}*", row=row))

    def with_entry(self, entry: int, s: Strategy) -> "Profile":
        """This profile with entry ``entry`` playing the strategy ``s``."""
        pols, ks, rows = self.policies.copy(), self.rollouts.copy(), self.weights.copy()
        pols[entry], ks[entry], rows[entry] = s.code, s.rollouts, s.row
        entries = self.entries[:entry] + (s.label,) + self.entries[entry + 1:]
        fields = list(self.fields or ("",) * len(self.entries))
        fields[entry] = s.field
        return Profile(entries, pols, ks, rows, tuple(fields))


def from_strategies(strategies: list[Strategy]) -> Profile:
    """A profile of the given strategies, one per seat."""
    pols = np.zeros(layout.MAX_PLAYERS, dtype=np.int64)
    ks = np.full(layout.MAX_PLAYERS, DEFAULT_ROLLOUTS, dtype=np.int64)
    rows = np.tile(WT.vector(), (layout.MAX_PLAYERS, 1))
    for i, s in enumerate(strategies):
        pols[i], ks[i], rows[i] = s.code, s.rollouts, s.row
    return Profile(tuple(s.label for s in strategies), pols, ks, rows, tuple(s.field for s in strategies))


def parse_profile(text: str, players: int) -> Profile:
    """Parse a profile string for ``players`` seats; a UserError names what is wrong."""
    if is_field(text):
        raise UserError(f"--profile {text!r}: a field, not one strategy per seat (this command needs a profile)")
    parts = []
    for chunk in str(text).split(","):
        chunk = chunk.strip()
        if not chunk:
            raise UserError(f"--profile {text!r}: empty entry")
        m = re.fullmatch(r"(\S+)\s*(?:x\s*(\d+))?", chunk)
        if not m:
            raise UserError(f"--profile {text!r}: cannot read entry {chunk!r} (use e.g. 'value,greedy' or 'value x4')")
        count = m.group(2) or "1"
        if len(count) > 3 or int(count) > layout.MAX_PLAYERS:
            raise UserError(f"--profile: '{chunk}' repeats an entry more times than a table has seats "
                            f"(at most {layout.MAX_PLAYERS})")
        parts.extend([m.group(1)] * int(count))
        if len(parts) > layout.MAX_PLAYERS:
            raise UserError(f"--profile {text!r}: more entries than a table has seats (at most {layout.MAX_PLAYERS})")
    if len(parts) != players:
        raise UserError(f"--profile {text!r}: {len(parts)} entries for {players} players")
    return from_strategies([parse_strategy(part, players) for part in parts])
