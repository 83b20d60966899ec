"""Finished batches on disk, so a killed run resumes instead of starting over.

A run's directory is named by a hash of everything that determines its
numbers (kernel, inputs, seed, chunk size, kernel sources); each finished
batch is one ``.npy`` file named by its chunk range and its rounds (a run
of another ``n`` can end a batch on a shorter last chunk). Batch boundaries
depend only on the totals so far, so a resumed run asks for the same
batches and finds them.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np


def default_root() -> Path:
    from tabletop_mc.cachedir import user_cache_root
    return user_cache_root() / "results"


def config_key(*parts) -> str:
    """Stable hash of JSON-able values and numpy arrays."""
    h = hashlib.blake2b(digest_size=12)
    for part in parts:
        if isinstance(part, np.ndarray):
            h.update(str(part.dtype).encode() + str(part.shape).encode() + part.tobytes())
        else:
            h.update(json.dumps(part, sort_keys=True, default=str).encode())
        h.update(b"\x00")
    return h.hexdigest()


class ResultCache:
    """Batch results of one run configuration."""

    def __init__(self, key: str, root: str | Path | None = None):
        self.dir = Path(root or default_root()) / key
        self.hits = 0

    def _path(self, lo: int, hi: int, rounds: int) -> Path:
        return self.dir / f"{lo:08d}-{hi:08d}-{rounds}.npy"

    def get(self, lo: int, hi: int, rounds: int):
        path = self._path(lo, hi, rounds)
        if path.exists():
            try:
                value = np.load(path)
            except (OSError, ValueError):
                return None
            self.hits += 1
            return value
        return None

    def put(self, lo: int, hi: int, rounds: int, value: np.ndarray) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = self.dir / f".{lo:08d}-{hi:08d}-{rounds}.{os.getpid()}.tmp.npy"
        np.save(tmp, np.asarray(value))
        os.replace(tmp, self._path(lo, hi, rounds))
