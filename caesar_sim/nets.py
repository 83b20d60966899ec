"""The learned policy's networks for Circus Maximus: their specification, files and place in the weight table.

A `net` network (``tabletop_mc.net``) maps what a seat knows (``kernels.play.encode.INPUTS``) to a value
per action of a fixed list (``ACTIONS``: pass, then every action code (v-1) + 8*row + 40*favour,
whether legal now or not) and to the seat's expected win share. Its weights file (``.npz``) also
holds, in its metadata:

- ``row``: the weights of its weight row (``caesar_sim.weights`` names): value's item weights, by
  which it takes items, and the linear score over `distilled`'s features that its network's
  values are added to (``kernels.play.net``);
- ``reference_rules``: the rule set its ``rules`` inputs are measured from (``standard``);
- how it was made: the command, seeds and every training iteration's figures.

The shipped networks are ``caesar_sim/weights/net-<P>p.npz``. A loaded network gets a key
(``register``, from its content) that its weight row carries (``WEIGHTS.net_id``); when the kernels'
weight table is built (``strategy.kernel_matrix``), every network a row names is appended as a
block (``kernel_block``) and the row points at it (``WEIGHTS.net_at``).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.net import NetSpec, NetWeights, load_weights
from caesar_sim import weights as WT
from caesar_sim.kernels import layout
from caesar_sim.kernels.play.encode import INPUTS
from caesar_sim.kernels.play.net import MAX_HIDDEN
from caesar_sim.rules import kernel_rules, load_rules

GAME = "caesar"
ENCODER_VERSION = 1
ROW_NAMES = ("villa", "forum", "circus", "theater", "colosseum")
FAVOUR_NAMES = ("", "+boost", "+double")
REFERENCE_RULES = "standard"


def _action_name(code: int) -> str:
    v, row, f = code % layout.MERCHANT_VALUES + 1, (code // layout.MERCHANT_VALUES) % layout.ROWS, \
        code // (layout.MERCHANT_VALUES * layout.ROWS)
    return f"{v}@{ROW_NAMES[row]}{FAVOUR_NAMES[f]}"


ACTIONS = ("pass",) + tuple(_action_name(c) for c in range(layout.NET_ACTIONS - 1))


def spec(players: int) -> NetSpec:
    """The feature specification of a `net` network for ``players`` (inputs by block, the action list)."""
    blocks = tuple((name, INPUTS.dtype[name].itemsize // 8) for name in INPUTS._fields[:-1])
    return NetSpec(GAME, int(players), ENCODER_VERSION, blocks, ACTIONS)


def check(net: NetWeights, where: str) -> NetWeights:
    """``net`` if the kernels can play it (its widths fit their scratch, its row's weights are valid), else
    one UserError line."""
    if max(net.hidden) > MAX_HIDDEN:
        raise UserError(f"{where}: hidden layers of {max(net.hidden)} units; the kernels hold at most {MAX_HIDDEN}")
    row = net.meta.get("row")
    if not isinstance(row, dict):
        raise UserError(f"{where}: its metadata has no 'row' (the weight row the network plays with)")
    for k, v in row.items():
        WT.check_weight(k, v, where)
    if net.meta.get("reference_rules", REFERENCE_RULES) != REFERENCE_RULES:
        raise UserError(f"{where}: measured from rule set {net.meta.get('reference_rules')!r}, not "
                        f"{REFERENCE_RULES!r}")
    return net


def load(path: str, players: int) -> NetWeights:
    """The network in weights file ``path``, made for ``players`` (else one UserError line); read once
    per process while the file is unchanged (``tabletop_mc.net.load_weights``)."""
    return check(load_weights(path, spec(players), "net weights file"), f"net weights file {path}")


def shipped_path(players: int) -> Path:
    return Path(str(resources.files(WT.__name__).joinpath(f"net-{players}p.npz")))


def shipped(players: int) -> NetWeights:
    """The shipped network for ``players``."""
    path = shipped_path(players)
    if not path.is_file():
        raise UserError(f"no shipped net weights for {players} players ({path.name}); pass --profile net@FILE")
    return load(str(path), players)


_REGISTRY: dict[int, NetWeights] = {}


def register(net: NetWeights) -> int:
    """The key of ``net`` (from its content, so a row is the same bytes in every process), kept for
    ``kernel_block``."""
    h = hashlib.sha256(net.packed(np.float32).tobytes())
    h.update(repr(sorted(net.meta.get("row", {}).items())).encode())
    key = int(h.hexdigest()[:12], 16) + 1      # < 2**48 + 1: exact as a float64 weight
    _REGISTRY[key] = net
    return key


def registered(key: int) -> NetWeights:
    return _REGISTRY[key]


def row(net: NetWeights) -> np.ndarray:
    """The weight row a `net` seat plays with (``row`` of its metadata, its network's key; it rolls out as `net`)."""
    r = WT.vector(net.meta["row"])
    r[layout.WEIGHTS.net_id] = register(net)
    r[layout.WEIGHTS.rollout_policy] = layout.NET
    return r


@lru_cache(maxsize=8)
def _reference(players: int) -> np.ndarray:
    return kernel_rules(load_rules(REFERENCE_RULES), players).astype(np.float64)


def kernel_block(net: NetWeights) -> np.ndarray:
    """The network's block of the weight table (float64 slots): the reference rule vector, then the network
    packed with its widths as float32, two values per slot (``kernels.play.net``)."""
    packed = net.packed(np.float32, header=True)
    if len(packed) % 2:
        packed = np.append(packed, np.float32(0))
    return np.concatenate([_reference(net.spec.players), packed.view(np.float64)])


def with_blocks(rows: np.ndarray) -> np.ndarray:
    """The flat weight table: ``rows`` (one weight row each), then a block per network they name, each row
    pointing at its network's (``WEIGHTS.net_at``)."""
    rows = np.array(rows, dtype=np.float64)
    blocks, at = {}, rows.size
    for r in rows:
        key = int(r[layout.WEIGHTS.net_id])
        if key == 0:
            continue
        if key not in blocks:
            blocks[key] = (at, kernel_block(_REGISTRY[key]))
            at += len(blocks[key][1])
        r[layout.WEIGHTS.net_at] = blocks[key][0]
    return np.concatenate([rows.reshape(-1)] + [b for _, b in blocks.values()])
