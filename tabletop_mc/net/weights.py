"""A trained network: its layers, its specification, how it was made, and its file.

The network is a multilayer perceptron: hidden layers with ReLU, then two
linear heads on the last hidden layer, ``q`` (one value per action of the
spec's action list) and ``v`` (one value of the position). Each layer's
matrix is stored input-major (``W[i, j]``: from input i to unit j), the
order the kernels read it in: a zero input skips its whole row, which makes
one-hot card inputs cheap.

A weights file is one ``.npz`` archive (read without pickle): the float32
arrays ``W0, b0, W1, b1, ..., Wq, bq, Wv, bv`` and ``meta``, a JSON text
holding the format, the spec with its digest, the hidden widths and the
provenance (command, seeds, figures of every training iteration). Loading
checks all of it and says in one line what is wrong: another game, another
player count, another feature spec, a truncated or garbled file.
"""

from __future__ import annotations

import io
import json
import threading
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tabletop_mc.atomic import write_bytes_atomic
from tabletop_mc.errors import UserError
from tabletop_mc.inputfile import read_bytes
from tabletop_mc.net.spec import NetSpec

NET_FORMAT = "tabletop-net/1"
MAX_FILE = 64 << 20      # a shipped network is well under 1 MB
MAX_WIDTH = 4096


@dataclass
class NetWeights:
    """The layers of a network made for ``spec`` (module docstring)."""

    spec: NetSpec
    layers: list[tuple[np.ndarray, np.ndarray]]     # hidden layers: (W in x out, b out)
    q: tuple[np.ndarray, np.ndarray]                # (W hidden x actions, b actions)
    v: tuple[np.ndarray, np.ndarray]                # (W hidden x 1, b 1)
    meta: dict = field(default_factory=dict)

    def __post_init__(self):
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in self.layers]
        self.q = tuple(np.asarray(a, np.float32) for a in self.q)
        self.v = tuple(np.asarray(a, np.float32) for a in self.v)

    @property
    def hidden(self) -> tuple[int, ...]:
        return tuple(int(b.shape[0]) for _, b in self.layers)

    def dims(self) -> np.ndarray:
        """``[inputs, hidden..., actions]`` as the kernels take it (``forward.net_forward``)."""
        return np.array([self.spec.n_inputs, *self.hidden, self.spec.n_actions], dtype=np.int64)

    def packed(self, dtype=np.float64, header: bool = False) -> np.ndarray:
        """Every array in kernel order, flat: per hidden layer W then b, then q's, then v's; with
        ``header``, led by the number of widths and the widths (``packed.net_forward_packed``)."""
        parts = [np.array([len(self.dims()), *self.dims()], np.float64)] if header else []
        parts += [a.ravel() for w, b in self.layers for a in (w, b)]
        parts += [a.ravel() for a in self.q] + [a.ravel() for a in self.v]
        return np.concatenate(parts).astype(dtype)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The reference forward pass in numpy (float64): ``(q, v)`` for inputs ``x`` (rows)."""
        h = np.atleast_2d(np.asarray(x, np.float64))
        for w, b in self.layers:
            h = np.maximum(h @ w.astype(np.float64) + b, 0.0)
        q = h @ self.q[0].astype(np.float64) + self.q[1]
        v = h @ self.v[0].astype(np.float64) + self.v[1]
        return q, v[:, 0]

    def to_bytes(self) -> bytes:
        from tabletop_mc.output import jsonable   # pandas: only where a file is written, not where one is played
        arrays = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"W{i}"], arrays[f"b{i}"] = w, b
        arrays["Wq"], arrays["bq"] = self.q
        arrays["Wv"], arrays["bv"] = self.v
        meta = {"format": NET_FORMAT, "spec": self.spec.to_dict(), "digest": self.spec.digest(),
                "hidden": list(self.hidden), "meta": jsonable(self.meta)}   # a figure without a value: null
        arrays["meta"] = np.array(json.dumps(meta, sort_keys=True, allow_nan=False))
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        return buf.getvalue()

    def save(self, path: str | Path) -> Path:
        """Write the weights file atomically (``tabletop_mc.atomic``)."""
        return write_bytes_atomic(path, self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, where: str, expect: NetSpec) -> "NetWeights":
        """Read a weights file's bytes, refusing in one line anything not made for ``expect``."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                arrays = {k: npz[k] for k in npz.files}
        except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
            raise UserError(f"{where}: not a readable network weights file (truncated or garbled: "
                            f"{type(exc).__name__})") from None
        meta = _meta(arrays, where)
        spec = _spec(meta, where, expect)
        hidden = meta.get("hidden")
        if (not isinstance(hidden, list) or not hidden
                or not all(isinstance(h, int) and 0 < h <= MAX_WIDTH for h in hidden)):
            raise UserError(f"{where}: 'hidden' must list the hidden layers' widths (1..{MAX_WIDTH})")
        widths = [spec.n_inputs, *hidden]
        layers = [(_array(arrays, f"W{i}", (widths[i], widths[i + 1]), where),
                   _array(arrays, f"b{i}", (widths[i + 1],), where)) for i in range(len(hidden))]
        q = (_array(arrays, "Wq", (hidden[-1], spec.n_actions), where), _array(arrays, "bq", (spec.n_actions,), where))
        v = (_array(arrays, "Wv", (hidden[-1], 1), where), _array(arrays, "bv", (1,), where))
        extra = set(arrays) - {"meta", "Wq", "bq", "Wv", "bv"} - {f"{c}{i}" for i in range(len(hidden)) for c in "Wb"}
        if extra:
            raise UserError(f"{where}: unexpected arrays {sorted(extra)}")
        return cls(spec, layers, q, v, dict(meta.get("meta") or {}))


def load_weights(path: str | Path, expect: NetSpec, what: str = "weights file") -> NetWeights:
    """The network in file ``path``, made for ``expect`` (else one ``UserError`` line). A file this
    process loaded before, unchanged since (the same file, size and modification time), is not read
    again: a report or a multiplier search sets up thousands of games with the shipped network. Its
    arrays are read-only, as every user of a loaded network shares them."""
    try:
        st = Path(path).stat()
        key = (str(Path(path).resolve()), st.st_ino, st.st_size, st.st_mtime_ns, expect.digest())
    except OSError:
        key = None    # read_bytes says what is wrong
    with _LOCK:
        if key in _LOADED:
            return _LOADED[key]
    where = f"{what} {path}"
    weights = NetWeights.from_bytes(read_bytes(path, where, limit=MAX_FILE), where, expect)
    if key is not None:
        for a in [a for pair in weights.layers for a in pair] + [*weights.q, *weights.v]:
            a.flags.writeable = False
        with _LOCK:
            while len(_LOADED) >= _KEEP_LOADED:
                del _LOADED[next(iter(_LOADED))]
            _LOADED[key] = weights
    return weights


_LOADED: dict = {}    # load_weights' files: (path, inode, size, mtime, spec digest) -> NetWeights
_KEEP_LOADED = 8      # the most recent files (a training run writes one per iteration)
_LOCK = threading.Lock()


def _meta(arrays: dict, where: str) -> dict:
    raw = arrays.get("meta")
    if raw is None or raw.shape != () or raw.dtype.kind != "U":
        raise UserError(f"{where}: not a network weights file ({NET_FORMAT}): no metadata")
    try:
        meta = json.loads(str(raw))
    except json.JSONDecodeError:
        raise UserError(f"{where}: its metadata is not valid JSON (garbled)") from None
    if not isinstance(meta, dict) or meta.get("format") != NET_FORMAT:
        raise UserError(f"{where}: not a network weights file ({NET_FORMAT})")
    return meta


def _spec(meta: dict, where: str, expect: NetSpec) -> NetSpec:
    try:
        spec = NetSpec.from_dict(meta["spec"])
    except (KeyError, TypeError, ValueError):
        raise UserError(f"{where}: its feature spec is missing or malformed") from None
    if spec.game != expect.game:
        raise UserError(f"{where}: a network for {spec.game}, not {expect.game}")
    if spec.players != expect.players:
        raise UserError(f"{where}: made for {spec.players} players, not {expect.players}")
    if meta.get("digest") != spec.digest():
        raise UserError(f"{where}: its feature spec does not match its digest (garbled)")
    if spec.digest() != expect.digest():
        raise UserError(f"{where}: made for feature spec {spec.digest()} (encoder v{spec.version}); this version "
                        f"reads spec {expect.digest()} (encoder v{expect.version}): retrain it")
    return spec


def _array(arrays: dict, name: str, shape: tuple, where: str) -> np.ndarray:
    a = arrays.get(name)
    if a is None:
        raise UserError(f"{where}: array {name} is missing")
    if a.shape != shape or a.dtype != np.float32:
        raise UserError(f"{where}: array {name} is {a.dtype} {a.shape}, not float32 {shape}")
    if not np.isfinite(a).all():
        raise UserError(f"{where}: array {name} holds NaN or infinity")
    return a
