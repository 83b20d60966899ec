"""Strategy profiles: ``"value,value,greedy,mc"``, ``"value x4"``, ``"mc:32"`` -> kernel arrays.

Also the tuning weights of the `value`/`greedy`/`mc` policies (not rules: they
describe how a strategy plays, not the game), as the float vector ``PP``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from mcsim.errors import UserError
from caesar_sim.kernels import items as I
from caesar_sim.kernels import layout as L

POLICIES = ("random", "greedy", "value", "mc")
DEFAULT_ROLLOUTS = 8
MC_CHUNK = 16          # games per chunk when a seat plays `mc`
MAX_ROLLOUTS = 4096

# value/greedy/mc weights (coins unless noted); see kernels.policies.value_action
WEIGHTS = {
    "boost": 0.75,       # expected coins a boost favour brings later the same day
    "double": 0.75,      # ... a double favour
    "start_card": 0.5,   # ... the start-player card
    "need_phase1": 2.0,  # merchants to keep for phases 2-3 when bidding in phase 1 (cards)
    "strength": 0.15,    # coins per merchant value spent before phase 3 (later strength)
    "short": 3.0,        # coins per card short of the cards needed later
    "risk": 0.6,         # chance to keep an item that later bidders can still take
    "phase3_card": 1.0,  # coins a ticket's phase-3 merchant costs
    "favour_keep": 0.5,  # coins a favour is worth kept for phase 3 (cost of using it in phase 2)
    "greedy_tickets": 2, # tickets `greedy` wants
    "mc_epsilon": 0.1,   # chance of a random action in `mc` rollouts (so rollouts differ)
    "mc_horizon": 0,     # 0 = roll out to the end of the day, 1 = to the end of the game
}
_ORDER = ("boost", "double", "start_card", "need_phase1", "strength", "short", "risk", "phase3_card",
          "favour_keep", "greedy_tickets", "mc_epsilon", "mc_horizon")
assert len(_ORDER) == I.PP_SIZE


HORIZONS = ("day", "game")


def game_profile(players: int) -> str:
    """The default profile of a narrated game: `value` seats, then one `greedy` and one `mc`."""
    return ",".join(["value"] * (players - 2) + ["greedy", "mc"])


def weights_for(mc_horizon: str = "day") -> np.ndarray:
    """Default weights with `mc` rolling out to the end of the day or of the game."""
    if mc_horizon not in HORIZONS:
        raise UserError(f"--mc-horizon {mc_horizon}: use one of {', '.join(HORIZONS)}")
    return policy_weights(mc_horizon=HORIZONS.index(mc_horizon))


def policy_weights(**changes) -> np.ndarray:
    """The weight vector ``PP`` (defaults, with keyword changes)."""
    w = dict(WEIGHTS)
    for k, v in changes.items():
        if k not in w:
            raise UserError(f"unknown policy weight '{k}' (known: {', '.join(_ORDER)})")
        w[k] = v
    return np.array([float(w[k]) for k in _ORDER], dtype=np.float64)


@dataclass(frozen=True)
class Profile:
    """One policy (and rollout count for `mc`) per profile entry."""

    entries: tuple[str, ...]
    policies: np.ndarray   # int64 policy codes, padded to layout.P
    rollouts: np.ndarray   # int64 K per entry, padded

    @property
    def labels(self) -> list[str]:
        """Entry labels, numbered where a policy repeats (``value#1``)."""
        out = []
        for i, e in enumerate(self.entries):
            out.append(f"{e}#{i}" if self.entries.count(e) > 1 else e)
        return out

    def text(self) -> str:
        return ",".join(self.entries)


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
    entries = []
    for i, part in enumerate(parts):
        name, _, k = part.partition(":")
        name = name.lower()
        if name not in POLICIES:
            raise UserError(f"--profile: unknown policy '{name}' (known: {', '.join(POLICIES)})")
        if k:
            if name != "mc" or not k.isdigit() or not 1 <= int(k) <= MAX_ROLLOUTS:
                raise UserError(f"--profile: bad entry '{part}' (only mc takes :K, K = 1..{MAX_ROLLOUTS})")
            ks[i] = int(k)
        pols[i] = POLICIES.index(name)
        entries.append(f"mc:{ks[i]}" if name == "mc" else name)
    return Profile(tuple(entries), pols, ks)
