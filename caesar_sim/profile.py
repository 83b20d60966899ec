"""Strategy profiles: ``"value,value,greedy,mc"``, ``"tuned x4"``, ``"mc:32"`` -> kernel arrays.

Entries: ``random``, ``greedy``, ``value`` (hand-set weights), ``tuned`` (value's features with
the shipped tuned weights for the player count), ``tuned@FILE`` (weights from a `caesar tune`
file), ``mc[:K][:ROLLOUT]`` (flat Monte Carlo, K rollouts in which every seat plays ROLLOUT =
``tuned`` (default), ``value`` or ``tuned@FILE``). Each entry carries its own weight row (the
float matrix the kernels read as ``PP``); see ``caesar_sim.weights`` for the names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tabletop_mc.errors import UserError
from caesar_sim import weights as WT
from caesar_sim.kernels import items as I
from caesar_sim.kernels import layout as L

POLICIES = ("random", "greedy", "value", "mc", "tuned")   # index = kernel policy code
assert POLICIES.index("tuned") == L.TUNED and POLICIES.index("mc") == L.MC
DEFAULT_ROLLOUTS = 8
MC_CHUNK = 16          # games per chunk when a seat plays `mc`
MAX_ROLLOUTS = 4096
HORIZONS = ("day", "game")


def reference_profile(players: int) -> str:
    """The profile reports and the analysis commands use by default: `tuned` in every seat."""
    return f"tuned x{players}"


def game_profile(players: int) -> str:
    """The default profile of a narrated game: `tuned` seats, then one `value` and one `mc`."""
    return ",".join(["tuned"] * (players - 2) + ["value", "mc"])


def policy_weights(**changes) -> np.ndarray:
    """One weight row: `value`'s weights with keyword changes."""
    return WT.vector(**changes)


@lru_cache(maxsize=None)
def _shipped_row(players: int) -> tuple[float, ...]:
    return tuple(WT.vector(WT.shipped(players)["weights"]))


@lru_cache(maxsize=32)
def _file_row(path: str) -> tuple[float, ...]:
    return tuple(WT.vector(WT.load(path)["weights"]))


def weights_row(spec: str, players: int) -> np.ndarray:
    """The weight row of ``value``, ``tuned`` or ``tuned@FILE``."""
    name, at, path = spec.partition("@")
    name = name.lower()
    if name == "value" and not at:
        return WT.vector()
    if name == "tuned":
        if at:
            if not path:
                raise UserError(f"--profile: '{spec}' needs a file after @")
            return np.array(_file_row(path))
        return np.array(_shipped_row(players))
    raise UserError(f"--profile: bad weights '{spec}' (use value, tuned or tuned@FILE)")


@dataclass(frozen=True)
class Profile:
    """One policy (rollout count for `mc`, weight row) per profile entry."""

    entries: tuple[str, ...]
    policies: np.ndarray   # int64 policy codes, padded to layout.P
    rollouts: np.ndarray   # int64 K per entry, padded
    weights: np.ndarray    # (layout.P, PP_SIZE) float64: the weight row of each entry

    @property
    def labels(self) -> list[str]:
        """Entry labels, numbered where a policy repeats (``value#1``)."""
        out = []
        for i, e in enumerate(self.entries):
            out.append(f"{e}#{i}" if self.entries.count(e) > 1 else e)
        return out

    def text(self) -> str:
        return ",".join(self.entries)

    def kernel_weights(self, mc_horizon: str = "day") -> np.ndarray:
        """The flat ``PP`` the kernels read (row e = entry e), with `mc` rolling out to the day's or game's end."""
        if mc_horizon not in HORIZONS:
            raise UserError(f"--mc-horizon {mc_horizon}: use one of {', '.join(HORIZONS)}")
        w = self.weights.copy()
        w[:, I.PP_HORIZON] = HORIZONS.index(mc_horizon)
        return np.ascontiguousarray(w.reshape(-1))

    def replace(self, entry: int, text: str, row: np.ndarray | None = None) -> "Profile":
        """This profile with entry ``entry`` replaced by the policy ``text`` (and weight ``row`` if given)."""
        label, code, k, w = _entry(text, len(self.entries))
        pols, ks, rows = self.policies.copy(), self.rollouts.copy(), self.weights.copy()
        pols[entry], ks[entry], rows[entry] = code, k, w if row is None else row
        entries = self.entries[:entry] + (label if row is None else f"{label}*",) + self.entries[entry + 1:]
        return Profile(entries, pols, ks, rows)


def _entry(part: str, players: int) -> tuple[str, int, int, np.ndarray]:
    """(label, policy code, rollouts, weight row) of one profile entry."""
    head, _, rest = part.partition(":")
    name = head.partition("@")[0].lower()
    if name in ("random", "greedy", "value") and not rest and "@" not in head:
        return name, POLICIES.index(name), DEFAULT_ROLLOUTS, WT.vector()
    if name == "tuned" and not rest:
        return head if "@" in head else "tuned", L.TUNED, DEFAULT_ROLLOUTS, weights_row(head, players)
    if name == "mc" and "@" not in head:
        k, roll = DEFAULT_ROLLOUTS, "tuned"
        if rest:
            first, _, second = rest.partition(":")
            if first.isdigit():
                k, roll = int(first), second or roll
            elif second:
                raise UserError(f"--profile: bad entry '{part}' (use mc, mc:K, mc:K:value or mc:K:tuned@FILE)")
            else:
                roll = first
            if not 1 <= k <= MAX_ROLLOUTS:
                raise UserError(f"--profile: bad entry '{part}' (only mc takes :K, K = 1..{MAX_ROLLOUTS})")
        row = weights_row(roll, players)
        return f"mc:{k}" + ("" if roll == "tuned" else f":{roll}"), L.MC, k, row
    if name in POLICIES:
        raise UserError(f"--profile: bad entry '{part}' (only mc takes :K, K = 1..{MAX_ROLLOUTS}; "
                        "only tuned takes @FILE)")
    raise UserError(f"--profile: unknown policy '{name}' (known: {', '.join(POLICIES)})")


def parse_profile(text: str, players: int) -> Profile:
    """Parse a profile string for ``players`` seats; a UserError names what is wrong."""
    parts = []
    for chunk in str(text).split(","):
        chunk = chunk.strip()
        if not chunk:
            raise UserError(f"--profile {text!r}: empty entry")
        m = re.fullmatch(r"(\S+)\s*(?:x\s*(\d+))?", chunk)
        if not m:
            raise UserError(f"--profile {text!r}: cannot read entry {chunk!r} (use e.g. 'value,greedy' or 'value x4')")
        parts.extend([m.group(1)] * int(m.group(2) or 1))
    if len(parts) != players:
        raise UserError(f"--profile {text!r}: {len(parts)} entries for {players} players")
    pols = np.zeros(L.P, dtype=np.int64)
    ks = np.full(L.P, DEFAULT_ROLLOUTS, dtype=np.int64)
    rows = np.tile(WT.vector(), (L.P, 1))
    entries = []
    for i, part in enumerate(parts):
        label, pols[i], ks[i], rows[i] = _entry(part, players)
        entries.append(label)
    return Profile(tuple(entries), pols, ks, rows)
