"""The `ev` policy's success model as data: counts, smoothed chances, file I/O.

A model is, per bet kind, a table of (bets, wins) counts over feature cells
(``kernels.layout``, ``kernels.betting.model``), fitted by simulation
(``analysis.game.fit``). Its chance per cell is the cell's win rate shrunk toward
the rate of the same bet parameter over all cells (``PRIOR`` pseudo-bets), so
thin cells borrow strength. The model depends only on the deal's shape
(players, colours, hand size) and on ``nines_scope`` and ``fail_target``,
its fingerprint; multipliers, tokens and coins do not change who wins a trick.

Where a model comes from (``analysis.game.fit.find_model``): an explicit file; else the model
shipped in ``sponsio_sim/models`` for the fingerprint, if it was calibrated
in games of the same economy (``economy``: multipliers, coins, tokens,
track; ``analysis.game.calibrate``); else one fitted earlier into the user cache
for the fingerprint and economy (``sponsio fit`` puts it there); else the
shipped model all the same (its source says so); else one is fitted now
(off-policy only) and cached. The reference profile (``game.setup``) first
looks for the ``reference`` variant: a model calibrated in its own games.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path

import numpy as np

from tabletop_mc.atomic import write_atomic
from tabletop_mc.cachedir import user_cache_root
from tabletop_mc.errors import UserError
from tabletop_mc.inputfile import regular_file
from tabletop_mc.notice import notice, reason
from tabletop_mc.owned import Owned, head, owned_in
from sponsio_sim.bet_kinds import BET_TYPES, KINDS as KIND_ROWS
from sponsio_sim.betting_policies import MODEL_BETTING
from sponsio_sim.kernels.layout import CANDIDATE_FEATURES, N_TOKENS, model_shapes, model_sizes
from sponsio_sim.rules import RuleSet

PRIOR = 4.0          # pseudo-bets pulling a cell toward its parameter's overall rate
KINDS = BET_TYPES    # one table per kind, in ``bet_kinds`` order
MAX_MODEL_BYTES = 64 << 20   # a model is ~10 KB; a larger file is not one
MAX_HAND = 36        # the largest hand a rule set can deal


def fingerprint(rules: RuleSet) -> str:
    """What a model depends on: the deal's shape, and the readings that change who wins a bet."""
    options = rules.options_changed()
    extra = "".join(f"-{k}={options[k]}" for k in ("nines_scope", "fail_target") if k in options)
    return f"{rules.players}p-{rules.n_colours}c-{rules.hand_size}h{extra}"


@dataclass
class SuccessModel:
    fingerprint: str
    hand_size: int
    bets: np.ndarray          # flat counts per cell (float)
    wins: np.ndarray
    meta: dict = field(default_factory=dict)
    source: str = ""

    def __post_init__(self):
        self.p = smooth(self.bets, self.wins, self.hand_size)

    @property
    def offsets(self) -> list[int]:
        return list(np.cumsum([0, *model_sizes(self.hand_size)])[:-1])

    def tables(self, values) -> list[np.ndarray]:
        """``values`` (flat) split into each kind's shaped table."""
        return [values[o:o + n].reshape(shape) for o, n, shape in
                zip(self.offsets, model_sizes(self.hand_size), model_shapes(self.hand_size))]

    @cached_property
    def _counts(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """(bets, wins) split into each kind's table, once: a game's setup asks ``base_rate`` for every
        catalogue row, and a recommend or sweep run sets up thousands of games."""
        return self.tables(self.bets), self.tables(self.wins)

    def base_rate(self, kind: int, param: int) -> float:
        """Unconditional win rate of a bet kind (and parameter, for tricks/colour)."""
        b, w = self._counts[0][kind], self._counts[1][kind]
        if KIND_ROWS[kind].param_axis:
            b, w = b[..., param], w[..., param]
        total = b.sum()
        return float(w.sum() / total) if total > 0 else 0.0

    @property
    def play_policy(self) -> str:
        """The play policy of the rounds the model was fitted in (the seats' cards follow it)."""
        return str(self.meta.get("play_policy", "goal"))

    def save(self, path) -> Path:
        """Write the model atomically (``tabletop_mc.atomic``); an ``OSError`` goes to the caller."""
        path = Path(path)
        meta = dict(self.meta, fingerprint=self.fingerprint, hand_size=self.hand_size)
        write_atomic(path, lambda tmp: np.savez_compressed(tmp, bets=self.bets, wins=self.wins,
                                                          meta=np.array(json.dumps(meta))))
        return path

    @classmethod
    def load(cls, path, source: str | None = None, what: str | None = None) -> "SuccessModel":
        """Read and check a model file; anything wrong is one ``UserError`` line starting with ``what``."""
        what = what or f"--model {path}"
        regular_file(path, what, limit=MAX_MODEL_BYTES)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                hand_size = int(meta["hand_size"])
                str(meta["fingerprint"])
                bets, wins = data["bets"].astype(np.float64), data["wins"].astype(np.float64)
        except Exception as exc:   # truncated or garbled: zip, zlib, numpy and JSON errors alike
            raise UserError(f"{what}: not a success-model file ({type(exc).__name__}: {exc})") from None
        if not 1 <= hand_size <= MAX_HAND or bets.ndim != 1 or wins.ndim != 1:
            raise UserError(f"{what}: not a success-model file (hand size {hand_size}, tables {bets.shape})")
        sizes = model_sizes(hand_size)
        if len(bets) in [sum(sizes[:k]) for k in range(1, len(sizes))]:   # written before later kinds existed
            pad = np.zeros(sum(sizes) - len(bets))
            bets, wins = np.concatenate([bets, pad]), np.concatenate([wins, pad])
        if len(bets) != sum(sizes) or len(wins) != len(bets):
            raise UserError(f"{what}: its tables do not match this version's model layout for hand "
                            f"size {hand_size} (refit it with `sponsio fit`)")
        if not (np.all(np.isfinite(bets)) and np.all(np.isfinite(wins)) and np.all(wins >= 0)
                and np.all(wins <= bets * (1 + 1e-9) + 1e-9)):
            raise UserError(f"{what}: its counts are damaged (need 0 <= wins <= bets, finite)")
        return cls(meta["fingerprint"], hand_size, bets, wins, meta, source or str(path))

    def covers(self, kinds) -> bool:
        """Has the model seen bets of every kind in ``kinds`` (names)?"""
        counts = self.tables(self.bets)
        return all(counts[KINDS.index(k)].sum() > 0 for k in kinds)




def plays_with(strategy, play_policy: str) -> bool:
    """Can ``strategy`` bet with a model fitted under ``play_policy``?
    (``betting_policies.MODEL_BETTING`` read the model.)"""
    return strategy.betting not in MODEL_BETTING or strategy.play == play_policy


def check_play(strategies, play_policy: str, source: str, rules: RuleSet) -> None:
    """A UserError naming the first strategy that bets by the model but plays its cards by
    another policy than the model's: it would bet on chances its own play does not reach."""
    for st in strategies:
        if not plays_with(st, play_policy):
            raise UserError(
                f"strategy '{st.text}': {st.betting} bets by a success model fitted for {play_policy} play "
                f"({source}), not for {st.play} play; give ev and distilled seats {play_policy} play "
                f"({st.betting}:{play_policy}), or fit a model for {st.play} play and play every such seat with "
                f"it: sponsio fit --policy {st.play} --profile \"ev:{st.play}:cash4 x{rules.players}\" --out "
                f"{st.play}.npz, then --model {st.play}.npz")


def smooth(bets: np.ndarray, wins: np.ndarray, hand_size: int) -> np.ndarray:
    """Per-cell chance: (wins + PRIOR x parameter rate) / (bets + PRIOR)."""
    out = []
    for o, n, shape, kind in zip(np.cumsum([0, *model_sizes(hand_size)])[:-1], model_sizes(hand_size),
                                 model_shapes(hand_size), KIND_ROWS):
        b = bets[o:o + n].reshape(shape)
        w = wins[o:o + n].reshape(shape)
        if kind.param_axis:   # parameter last: tricks N, colour N
            axes = tuple(range(len(shape) - 1))
            tb, tw = b.sum(axis=axes), w.sum(axis=axes)
        else:
            tb, tw = b.sum(), w.sum()
        rate = np.where(tb > 0, tw / np.maximum(tb, 1), 0.0)
        out.append(((w + PRIOR * rate) / (b + PRIOR)).ravel())
    return np.concatenate(out)


def cached_model(path: Path) -> SuccessModel | None:
    """The model cached at ``path``; None if there is none, or if it was fitted
    for an earlier model layout (a refit replaces it). A damaged file is
    deleted, with one warning line."""
    if not path.is_file():
        return None
    try:
        return SuccessModel.load(path, f"cache:{path}", what=f"cached model {path}")
    except UserError as exc:
        if "model layout" in str(exc):
            return None
        try:
            path.unlink()
        except OSError:
            pass
        notice(("damaged-model", str(path)), f"warning: {exc}; discarded")
        return None


def keep_in_cache(model: SuccessModel, path: Path) -> bool:
    """Save ``model`` into the model cache at ``path``; a cache that cannot be written is
    told in one line (the model is used for this run all the same). True if saved."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        model.save(path)
        return True
    except OSError as exc:
        notice(("model-cache-unwritable", str(path.parent)),
               f"note: cannot write the model cache in {path.parent} ({reason(exc)}); the model is used for "
               "this run only")
        return False


def cache_dir() -> Path:
    """Where fitted success models are kept: ``$SPONSIO_MODEL_DIR``, else the user cache's ``models``."""
    return Path(os.environ.get("SPONSIO_MODEL_DIR") or user_cache_root() / "models")


# cache_path's names: FINGERPRINT-ECONOMY[-VARIANT].npz, or .NAME.*.tmp.npz while one is written
_CACHED_MODEL = re.compile(r"^(\.)?((\d+p-\d+c-\d+h(?:-[a-z_]+=[a-z]+)*)-[0-9a-f]{10}(?:-[a-z0-9_]+)?\.npz)"
                           r"(?(1)\.\w+\.tmp\.npz)$")


def is_cached_model(path: Path) -> bool:
    """A model file ``sponsio fit`` or a first use kept in the cache: its name, and a model
    inside of the fingerprint the name says (one being written may still be empty)."""
    m = _CACHED_MODEL.match(path.name)
    if not m:
        return False
    if m.group(1):
        return head(path, 2) in (b"", b"PK")   # np.savez_compressed writes a zip
    try:
        return SuccessModel.load(path).fingerprint == m.group(3)
    except UserError:
        return False


def owned_models(folder: Path | None = None) -> Owned:
    """The models kept in the model cache ``folder`` (default ``cache_dir()``); the folder
    itself, which the user may have named, is never the cache's to remove."""
    return owned_in([folder or cache_dir()], is_cached_model, remove_empty=False)


def economy(rules: RuleSet) -> str:
    """A short key of everything else in the rule set (multipliers, coins, tokens, track, ...):
    a model refitted on-policy is calibrated for the games of one economy."""
    data = {k: v for k, v in rules.as_dict().items() if k != "name"}
    return hashlib.blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=5).hexdigest()


def cache_path(rules: RuleSet, variant: str | None = None) -> Path:
    return cache_dir() / f"{fingerprint(rules)}-{economy(rules)}{'-' + variant if variant else ''}.npz"


def shipped(rules: RuleSet, variant: str | None = None) -> SuccessModel | None:
    """The packaged model for the rule set's deal shape (and variant), if there is one."""
    folder = resources.files("sponsio_sim.models")
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".npz"):
            with resources.as_file(item) as path:
                model = SuccessModel.load(path, f"shipped:{item.name}")
            if model.fingerprint == fingerprint(rules) and model.meta.get("variant") == variant:
                return model
    return None


DISTILLED_FORMAT = "sponsio-distilled/1"
# the distilled policy's features by name (``kernels.layout.DIST_*`` order)
FEATURES = tuple(
    [f"bet_{k}" for k in BET_TYPES] + [f"pay_{k}" for k in BET_TYPES] + [f"p_{k}" for k in BET_TYPES]
    + ["forgone", "held", "streak", "swap", "swap_gain"] + [f"token_{t}" for t in range(N_TOKENS)]
    + [f"token_gain_{t}" for t in range(N_TOKENS)] + ["token_cost", "hidden", "turns_left"])
assert len(FEATURES) == CANDIDATE_FEATURES.size


@dataclass
class DistilledWeights:
    """A fitted ``distilled`` policy: one weight per feature, and how it was made."""

    players: int
    weights: list[float]
    meta: dict = field(default_factory=dict)

    def array(self) -> np.ndarray:
        return np.asarray(self.weights, dtype=np.float64)

    def to_json(self) -> str:
        data = {"format": DISTILLED_FORMAT, "players": self.players, "features": list(FEATURES),
                "weights": [round(float(w), 6) for w in self.weights], "meta": self.meta}
        return json.dumps(data, indent=1, allow_nan=False) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str) -> "DistilledWeights":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UserError(f"{where}: not valid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != DISTILLED_FORMAT:
            raise UserError(f"{where}: not a distilled-weights file ({DISTILLED_FORMAT})")
        if data.get("features") != list(FEATURES):
            raise UserError(f"{where}: made for other features than this version's")
        w = data.get("weights")
        if (not isinstance(w, list) or len(w) != CANDIDATE_FEATURES.size
                or not all(isinstance(v, (int, float)) and np.isfinite(v) for v in w)):
            raise UserError(f"{where}: 'weights' must be {CANDIDATE_FEATURES.size} finite numbers")
        return cls(int(data.get("players", 0)), [float(v) for v in w], dict(data.get("meta") or {}))


def shipped_distilled(rules: RuleSet) -> tuple[np.ndarray, str] | None:
    """The packaged ``distilled`` weights for the rule set's player count
    (``distilled-<players>p.json``, ``analysis.game.distill``) with their source, if any."""
    name = f"distilled-{rules.players}p.json"
    res = resources.files("sponsio_sim.models").joinpath(name)
    if not res.is_file():
        return None
    found = DistilledWeights.from_json(res.read_text(encoding="utf-8"), f"shipped {name}")
    return found.array(), f"shipped:{name}"
