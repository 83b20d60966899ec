"""Policy weights: the named floats of the `value`/`tuned` features, and weights files (JSON).

``DEFAULTS`` are `value`'s weights (how a strategy plays, not rules). ``TUNABLE``
names the weights `caesar tune` searches, each with its search range. A weights
file holds ``{"format", "policy", "players", "weights": {name: value}, "meta": {...}}``;
the shipped `tuned` weights are ``tuned-<players>p.json`` in this package and
their ``meta`` records the command and seed that produced them.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from tabletop_mc.errors import UserError
from caesar_sim.kernels import items as I
from caesar_sim.kernels import layout as L

FORMAT = "caesar-weights/1"

# name -> (`value`'s default, what it means); order = the kernel's PP_* layout
DEFAULTS: dict[str, float] = {
    "boost": 0.75,         # expected coins a boost favour brings later the same day
    "double": 0.75,        # ... a double favour
    "start_card": 0.5,     # ... the start-player card
    "need_phase1": 2.0,    # merchants to keep for phases 2-3 when bidding in phase 1 (cards)
    "strength": 0.15,      # coins per merchant value spent before phase 3 (later strength)
    "short": 3.0,          # coins per card short of the cards needed later
    "risk": 0.6,           # phases 1-2: chance to keep an item that later bidders can still take
    "phase3_card": 1.0,    # coins a ticket's phase-3 merchant costs
    "favour_keep": 0.5,    # coins a favour is worth kept for phase 3 (cost of using it in phase 2)
    "villa_decay": 1.0,    # phase 1: an item's worth is divided by 1 + villa_decay * items already won there
    "need_phase2": 1.0,    # phase 2: cards to keep besides one per ticket held or being won
    "risk_visitors": 0.6,  # phase 3: chance to keep a visitor that later bidders can still take
    "greedy_tickets": 2,   # tickets `greedy` wants
    "mc_epsilon": 0.1,     # chance of a random action in `mc` rollouts (so rollouts differ)
    "mc_horizon": 0,       # 0 = roll out to the end of the day, 1 = to the end of the game
    "ban_rows": 0,         # bit r set: never bid at row r (0 villa, 1 forum, 2..4 venues); restricted players
    "ban_items": 0,        # bit t set: never take favour type t (0 boost, 1 double, 2 gold) or 3 the start card
    "temperature": 0,      # > 0: sample the action from a softmax over the policy's scores (coins) at this temperature
}
VALUE_WEIGHTS = tuple(DEFAULTS)   # the weights value's features read (a `tuned` file holds these)
# `distilled`'s linear weights (kernels.scan): per phase 1..3 the bid features, the phase's four item features,
# then per phase the pass features
BID_FEATURES = ("item_safe", "item_risky", "coins", "value", "short", "boost", "double", "nothing", "threat",
                "items")
ITEM_FEATURES = (("won_boost", "won_double", "won_gold", "won_start"),
                 ("coin_cards", "ticket_coins", "visitor_coins", "phase3_cards"),
                 ("visitor_coins", "ticket_coins", "deny", "scoring"))
PASS_FEATURES = ("pass", "pass_cards", "pass_items", "pass_rivals")
FEATURES = tuple(f"d_{f}_{ph + 1}" for ph in range(3) for f in BID_FEATURES + ITEM_FEATURES[ph]) + tuple(
    f"d_{f}_{ph + 1}" for ph in range(3) for f in PASS_FEATURES)
DEFAULTS.update({k: 0.0 for k in FEATURES})
ORDER = tuple(DEFAULTS)
assert len(BID_FEATURES) + 4 == I.NB and len(PASS_FEATURES) == I.NPASS and len(FEATURES) == I.NFEAT and ORDER.index(FEATURES[0]) == I.PP_X
assert len(ORDER) == I.PP_NAMED and ORDER.index("ban_items") == I.PP_BAN_ITEMS and ORDER.index("mc_epsilon") == I.PP_EPS
assert ORDER.index("temperature") == I.PP_TEMP

# the weights `caesar tune` searches (value's features), with the range searched
TUNABLE: dict[str, tuple[float, float]] = {
    "boost": (-1.0, 4.0), "double": (-1.0, 4.0), "start_card": (-1.0, 4.0), "need_phase1": (0.0, 6.0),
    "strength": (0.0, 1.0), "short": (0.0, 8.0), "risk": (0.0, 1.0), "phase3_card": (0.0, 3.0),
    "favour_keep": (0.0, 3.0), "villa_decay": (0.0, 3.0), "need_phase2": (0.0, 4.0), "risk_visitors": (0.0, 1.0),
}


def vector(weights: Mapping[str, float] | None = None, **changes) -> np.ndarray:
    """The kernel row (PP_SIZE floats): ``DEFAULTS`` updated by ``weights`` and keyword changes; the
    control slots after the named weights: rollouts play value's features, no rollout field."""
    w = dict(DEFAULTS)
    for k, v in {**(weights or {}), **changes}.items():
        if k not in w:
            raise UserError(f"unknown policy weight '{k}' (known: {', '.join(ORDER)})")
        w[k] = v
    row = np.zeros(I.PP_SIZE, dtype=np.float64)
    row[:I.PP_NAMED] = [float(w[k]) for k in ORDER]
    row[I.PP_RPOL] = L.VALUE
    return row


def as_dict(row: np.ndarray) -> dict[str, float]:
    """A kernel row back to named weights."""
    return {k: float(v) for k, v in zip(ORDER, row)}


def check_writable(path: str | Path) -> None:
    """Fail early (UserError) if ``path``'s folder does not exist."""
    p = Path(path)
    if not p.parent.is_dir():
        raise UserError(f"weights file {p}: folder {p.parent} does not exist")


def save(path: str | Path, weights: Mapping[str, float], players: int, meta: Mapping[str, Any],
         policy: str = "tuned") -> Path:
    """Write a weights file (strict JSON) that ``load`` reads back unchanged; ``policy`` is `tuned` or
    `distilled` (the policy that plays by it)."""
    vector(weights)  # validates the names
    data = {"format": FORMAT, "policy": policy, "players": int(players),
            "weights": {k: float(weights[k]) for k in ORDER if k in weights}, "meta": dict(meta)}
    p = Path(path)
    try:
        p.write_text(json.dumps(data, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"weights file {p}: cannot write ({exc.strerror or exc})") from None
    return p


def _parse(text: str, where: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"weights file {where}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("weights"), dict):
        raise UserError(f"weights file {where}: not a {FORMAT} file (needs 'format' and a 'weights' table)")
    for k, v in data["weights"].items():
        if k not in DEFAULTS:
            raise UserError(f"weights file {where}: unknown weight '{k}' (known: {', '.join(ORDER)})")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise UserError(f"weights file {where}: weight '{k}' must be a finite number, got {v!r}")
    missing = [k for k in TUNABLE if k not in data["weights"]]
    if missing:
        raise UserError(f"weights file {where}: missing weights {', '.join(missing)}")
    return data


def load(path: str | Path) -> dict[str, Any]:
    """Read and check a weights file; returns its mapping (``weights``, ``players``, ``meta``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"weights file {p}: cannot read ({exc.strerror or exc})") from None
    return _parse(text, str(p))


def shipped(players: int, kind: str = "tuned") -> dict[str, Any]:
    """The shipped ``kind`` (`tuned` or `distilled`) weights for ``players``."""
    name = f"{kind}-{players}p.json"
    try:
        text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        raise UserError(f"no shipped {kind} weights for {players} players ({name}); "
                        f"pass --profile {kind}@FILE") from None
    return _parse(text, f"shipped:{name}")
