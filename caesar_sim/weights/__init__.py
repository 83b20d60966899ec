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

from tabletop_mc.atomic import write_bytes_atomic
from tabletop_mc.errors import UserError
from tabletop_mc.inputfile import parse_json, read_text
from caesar_sim.kernels import layout

MAX_BYTES = 64 << 10    # a weights file is ~1 KB
MAX_PLAYERS = layout.MAX_PLAYERS
MAX_TEMP = 100.0        # coins: a softmax temperature far past uniform over a decision's actions

FORMAT = "caesar-weights/1"

# name -> `value`'s default (and what it means), in the kernel's order (kernels.layout.WEIGHTS)
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
    "mc_horizon": 0,       # 0 = roll out to the end of the day, 1 = to the end of the game, 2 = to the end of the
                           # phase, then the mover's network's value head
    "ban_rows": 0,         # bit r set: never bid at row r (0 villa, 1 forum, 2..4 venues); restricted players
    "ban_items": 0,        # bit t set: never take favour type t (0 boost, 1 double, 2 gold) or 3 the start card
    "temperature": 0,      # > 0: sample the action from a softmax over the policy's scores (coins) at this temperature
}
VALUE_WEIGHTS = tuple(DEFAULTS)   # the weights value's features read (a `tuned` file holds these)
# `distilled`'s linear weights (kernels.play.scan): per phase 1..3 the bid features, the phase's four item features,
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
# the kernel's weight row declares the named weights in this order (kernels.layout.WEIGHTS; the features fill
# its ``features`` block, the control slots follow)
assert VALUE_WEIGHTS == layout.WEIGHTS._fields[:layout.WEIGHTS._fields.index("features")], \
    "caesar_sim.weights.DEFAULTS must name the kernel's weights (kernels.layout.WEIGHTS) in order"
assert (len(BID_FEATURES) + 4 == layout.N_BID_FEATURES and len(PASS_FEATURES) == layout.N_PASS_FEATURES
        and len(FEATURES) == layout.N_FEATURES)
assert len(ORDER) == layout.WEIGHTS.rollout_policy

# the weights `caesar tune` searches (value's features), with the range searched
TUNABLE: dict[str, tuple[float, float]] = {
    "boost": (-1.0, 4.0), "double": (-1.0, 4.0), "start_card": (-1.0, 4.0), "need_phase1": (0.0, 6.0),
    "strength": (0.0, 1.0), "short": (0.0, 8.0), "risk": (0.0, 1.0), "phase3_card": (0.0, 3.0),
    "favour_keep": (0.0, 3.0), "villa_decay": (0.0, 3.0), "need_phase2": (0.0, 4.0), "risk_visitors": (0.0, 1.0),
}


# every weight's allowed range (whole: an integer, stored as a float); ranges keep the
# kernels' arithmetic finite and the bitmasks within their rows and item types
WEIGHT_LIMIT = 1000.0
RANGES: dict[str, tuple[float, float, bool]] = {
    **{k: (-WEIGHT_LIMIT, WEIGHT_LIMIT, False) for k in DEFAULTS},
    "greedy_tickets": (0, layout.MAX_DISPLAY_ITEMS, True),
    "mc_epsilon": (0.0, 1.0, False),
    "mc_horizon": (0, 2, True),
    "ban_rows": (0, 31, True),     # 5 rows: villa, forum, 3 venues
    "ban_items": (0, 15, True),    # 3 favour types and the start card
    "temperature": (0.0, MAX_TEMP, False),
}


def check_weight(name: str, value, where: str) -> float:
    """``value`` as the float the kernels read, or a UserError stating the weight's range."""
    if name not in DEFAULTS:
        raise UserError(f"{where}: unknown weight '{name}' (known: {', '.join(ORDER)})")
    lo, hi, whole = RANGES[name]
    kind = "a whole number" if whole else "a number"
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not lo <= value <= hi or (whole and value != int(value))):
        raise UserError(f"{where}: weight '{name}' must be {kind} {lo:g}..{hi:g}, got {value!r}")
    return float(value)


def vector(weights: Mapping[str, float] | None = None, **changes) -> np.ndarray:
    """The kernel row (WEIGHTS.size floats): ``DEFAULTS`` updated by ``weights`` and keyword changes; the
    control slots after the named weights: rollouts play value's features, no rollout field."""
    w = dict(DEFAULTS)
    for k, v in {**(weights or {}), **changes}.items():
        if k not in w:
            raise UserError(f"unknown policy weight '{k}' (known: {', '.join(ORDER)})")
        w[k] = v
    row = np.zeros(layout.WEIGHTS.size, dtype=np.float64)
    row[:len(ORDER)] = [float(w[k]) for k in ORDER]
    row[layout.WEIGHTS.rollout_policy] = layout.VALUE
    return row


def as_dict(row: np.ndarray) -> dict[str, float]:
    """A kernel row back to named weights."""
    return {k: float(v) for k, v in zip(ORDER, row)}


def check_writable(path: str | Path) -> Path:
    """Fail early (UserError) if a weights file cannot be written at ``path``."""
    from tabletop_mc.plotfile import file_target
    return file_target(path, "--out", None, "weights file")


def save(path: str | Path, weights: Mapping[str, float], players: int, meta: Mapping[str, Any],
         policy: str = "tuned") -> Path:
    """Write a weights file (strict JSON, atomically) that ``load`` reads back unchanged; ``policy``
    is `tuned` or `distilled` (the policy that plays by it). An ``OSError`` goes to the caller."""
    vector(weights)  # validates the names
    data = {"format": FORMAT, "policy": policy, "players": int(players),
            "weights": {k: float(weights[k]) for k in ORDER if k in weights}, "meta": dict(meta)}
    text = json.dumps(data, indent=1, allow_nan=False) + "\n"
    return write_bytes_atomic(path, text.encode("utf-8"))


def _parse(text: str, where: str, players: int | None) -> dict[str, Any]:
    data = parse_json(text, f"weights file {where}")
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("weights"), dict):
        raise UserError(f"weights file {where}: not a {FORMAT} file (needs 'format' and a 'weights' table)")
    what = f"weights file {where}"
    for k, v in data["weights"].items():
        check_weight(k, v, what)
    missing = [k for k in TUNABLE if k not in data["weights"]]
    if missing:
        raise UserError(f"{what}: missing weights {', '.join(missing)}")
    made_for = data.get("players")
    if isinstance(made_for, bool) or not isinstance(made_for, int) or not 1 <= made_for <= MAX_PLAYERS:
        raise UserError(f"{what}: 'players' must be the player count the weights were tuned for "
                        f"(1..{MAX_PLAYERS}), got {made_for!r}")
    if players is not None and made_for != players:
        raise UserError(f"{what}: tuned for {made_for} players, this game has {players} "
                        f"(tune weights for {players} with `caesar tune --players {players}`)")
    if not isinstance(data.get("meta", {}), dict):
        raise UserError(f"{what}: 'meta' must be a table")
    return data


def load(path: str | Path, players: int | None = None) -> dict[str, Any]:
    """Read and check a weights file (bounded: ``tabletop_mc.inputfile``); with ``players``
    the file must be tuned for that many. Returns its mapping (``weights``, ``players``, ``meta``)."""
    p = Path(path)
    return _parse(read_text(p, f"weights file {p}", limit=MAX_BYTES), str(p), players)


def shipped(players: int, kind: str = "tuned") -> dict[str, Any]:
    """The shipped ``kind`` (`tuned` or `distilled`) weights for ``players``."""
    name = f"{kind}-{players}p.json"
    try:
        text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        raise UserError(f"no shipped {kind} weights for {players} players ({name}); "
                        f"pass --profile {kind}@FILE") from None
    return _parse(text, f"shipped:{name}", players)
