"""A network's feature specification: what its inputs and outputs mean.

The weights of a network are only meaningful for the encoder that made its
training inputs and for the action list its outputs follow. ``NetSpec``
names both: the game, the player count, the input blocks in order (name and
width), the actions in order and the encoder's version (raised whenever an
input's meaning changes without its name or width changing). Its
``digest`` is stored in every weights file and compared on load.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass


@dataclass(frozen=True)
class NetSpec:
    """Inputs and outputs of a game's network (module docstring)."""

    game: str
    players: int
    version: int
    inputs: tuple[tuple[str, int], ...]
    actions: tuple[str, ...]

    @property
    def n_inputs(self) -> int:
        return sum(width for _, width in self.inputs)

    @property
    def n_actions(self) -> int:
        return len(self.actions)

    def offsets(self) -> dict[str, int]:
        """Each input block's first index in the input vector."""
        at, out = 0, {}
        for name, width in self.inputs:
            out[name] = at
            at += width
        return out

    def input_names(self) -> list[str]:
        """One name per input (``block[i]`` for a block wider than one)."""
        return [name if width == 1 else f"{name}[{i}]" for name, width in self.inputs for i in range(width)]

    def to_dict(self) -> dict:
        return {"game": self.game, "players": self.players, "version": self.version,
                "inputs": [[name, width] for name, width in self.inputs], "actions": list(self.actions)}

    @classmethod
    def from_dict(cls, data: dict) -> "NetSpec":
        return cls(str(data["game"]), int(data["players"]), int(data["version"]),
                   tuple((str(n), int(w)) for n, w in data["inputs"]), tuple(str(a) for a in data["actions"]))

    def digest(self) -> str:
        """A short hash of the specification (every field, in a canonical JSON form)."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]
