"""Finished batches on disk, so a killed run resumes instead of starting over.

A run's directory is named by a hash of everything that determines its
numbers (kernel, inputs, seed, chunk size, kernel sources); each finished
batch is one file named by its chunk range and its rounds (a run of another
``n`` can end a batch on a shorter last chunk). Batch boundaries depend only
on the totals so far, so a resumed run asks for the same batches and finds
them.

A batch file is verified before it is used: a header line (JSON) names the
run's key, the chunk range and rounds, the array's dtype and shape and a
BLAKE2b checksum of the data that follows; all must match what the run asks
for (and the shape and dtype the caller expects, when it says), the data
must be whole and, for floats, finite. A batch that fails is deleted and
recomputed, with one warning line. Files are written atomically
(``tabletop_mc.atomic``). A cache that cannot be written (read-only, full,
not a folder) only costs the resume: one line says so and the run goes on.

The cache is kept under a size limit, ``$SPONSIO_RESULT_CACHE_MB`` (default
2,000 MB; 0: no limit): when a run first writes a batch (at most once an
hour per process), the runs least recently used (a run's folder is touched
when it is read from or written to) lose their batches until the rest fit,
as ccache keeps its cache. A run used within the last hour (it may still be
writing, in another process) is never removed, nor is the running one, so
the cache can stand above the limit by what the last hour's runs wrote.
Without a limit the cache grew by every query: one pass over the
documentation's examples left 360 MB.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import time
from pathlib import Path

import numpy as np

from tabletop_mc.atomic import STALE_SECONDS, sweep_stale, write_bytes_atomic
from tabletop_mc.notice import notice, reason
from tabletop_mc.owned import Owned, entries, head, owned_in, real_dirs, remove_owned

MAGIC = "tabletop-mc-batch/2"
SUFFIX = ".batch"
MAX_HEADER = 4096
LIMIT_ENV = "SPONSIO_RESULT_CACHE_MB"
DEFAULT_LIMIT_MB = 2000
RECENT_SECONDS = STALE_SECONDS   # a run used this recently is never removed (it may still be writing)


def default_root() -> Path:
    from tabletop_mc.cachedir import user_cache_root
    return user_cache_root() / "results"


def config_key(*parts) -> str:
    """Stable hash of JSON-able values, numpy arrays and namedtuples of them
    (kernel contexts: hashed field by field)."""
    h = hashlib.blake2b(digest_size=12)
    for part in parts:
        if isinstance(part, tuple) and hasattr(part, "_fields"):
            h.update(config_key(*part).encode())
        elif isinstance(part, np.ndarray):
            h.update(str(part.dtype).encode() + str(part.shape).encode() + part.tobytes())
        else:
            h.update(json.dumps(part, sort_keys=True, default=str).encode())
        h.update(b"\x00")
    return h.hexdigest()


def _digest(header: dict, data: bytes) -> str:
    h = hashlib.blake2b(digest_size=16)
    h.update(json.dumps({k: header[k] for k in ("key", "lo", "hi", "rounds", "dtype", "shape")},
                        sort_keys=True).encode())
    h.update(data)
    return h.hexdigest()


def encode(key: str, lo: int, hi: int, rounds: int, value: np.ndarray) -> bytes:
    """The bytes of a batch file: header line, then the array's raw data (C order)."""
    value = np.ascontiguousarray(value)
    header = {"format": MAGIC, "key": key, "lo": int(lo), "hi": int(hi), "rounds": int(rounds),
              "dtype": value.dtype.str, "shape": list(value.shape)}
    data = value.tobytes()
    header["blake2b"] = _digest(header, data)
    return json.dumps(header, sort_keys=True).encode() + b"\n" + data


def decode(blob: bytes, key: str, lo: int, hi: int, rounds: int, expect=None) -> np.ndarray:
    """The array of a batch file, or ValueError naming why it cannot be trusted.
    ``expect``: (shape, dtype) the caller knows the batch must have."""
    end = blob.find(b"\n", 0, MAX_HEADER)
    if end < 0:
        raise ValueError("no header" if blob else "empty file")
    try:
        header = json.loads(blob[:end])
        assert isinstance(header, dict) and header.get("format") == MAGIC
        dtype = np.dtype(header["dtype"])
        shape = tuple(int(s) for s in header["shape"])
    except Exception:
        raise ValueError("not a batch file") from None
    if (header.get("key"), header.get("lo"), header.get("hi"), header.get("rounds")) != (key, lo, hi, rounds):
        raise ValueError("made for another run or batch")
    if dtype.hasobject or dtype.kind not in "biuf" or min(shape, default=1) < 0:
        raise ValueError(f"dtype {dtype} shape {shape} not a statistics array")
    if expect is not None:
        want_shape, want_dtype = tuple(expect[0]), np.dtype(expect[1])
        if shape != want_shape or dtype != want_dtype:
            raise ValueError(f"dtype {dtype} shape {shape}, the run needs {want_dtype} {want_shape}")
    data = blob[end + 1:]
    if len(data) != math.prod(shape) * dtype.itemsize:
        raise ValueError(f"{len(data)} data bytes, the header says {math.prod(shape) * dtype.itemsize}")
    if _digest(header, data) != header.get("blake2b"):
        raise ValueError("checksum mismatch")
    value = np.frombuffer(data, dtype=dtype).reshape(shape).copy()
    if dtype.kind == "f" and not np.all(np.isfinite(value)):
        raise ValueError("non-finite values")
    return value


class ResultCache:
    """Batch results of one run configuration (module docstring).

    ``expect``: the (shape, dtype) every batch of the run has, when the caller knows it."""

    def __init__(self, key: str, root: str | Path | None = None, expect=None):
        self.key = key
        self.dir = Path(root or default_root()) / key
        self.expect = expect
        self.hits = 0
        self.discarded = 0
        self.writable = True
        self._swept = False
        self._touched = False

    def _path(self, lo: int, hi: int, rounds: int) -> Path:
        return self.dir / f"{lo:08d}-{hi:08d}-{rounds}{SUFFIX}"

    def get(self, lo: int, hi: int, rounds: int, expect=None):
        """The verified batch, or None (absent, or damaged: then deleted, with one warning line)."""
        path = self._path(lo, hi, rounds)
        try:
            blob = path.read_bytes()
        except OSError:   # absent, or no cache folder to read (a put then says why)
            return None
        try:
            value = decode(blob, self.key, lo, hi, rounds, expect or self.expect)
        except ValueError as exc:
            self.reject(path, str(exc))
            return None
        self.hits += 1
        if not self._touched:   # used: the last run the size limit removes
            self._touched = True
            try:
                os.utime(self.dir)
            except OSError:
                pass
        return value

    def reject(self, path: Path, why: str) -> None:
        """Discard a batch that cannot be trusted (it is recomputed)."""
        self.discarded += 1
        try:
            path.unlink()
        except OSError:
            pass
        notice("damaged-batch", f"warning: cached batch {path} failed its check ({why}); discarded and "
                                "recomputed (so is any other damaged batch this run)")

    def put(self, lo: int, hi: int, rounds: int, value: np.ndarray) -> None:
        """Keep a finished batch; a cache that cannot be written is told once, then skipped."""
        if not self.writable:
            return
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            if not self._swept:
                self._swept = True
                sweep_stale(self.dir)
                trim_now_and_then(self.dir.parent, keep=self.dir)
            write_bytes_atomic(self._path(lo, hi, rounds), encode(self.key, lo, hi, rounds, np.asarray(value)))
        except OSError as exc:
            self.writable = False
            notice(("cache-unwritable", str(self.dir.parent)),
                   f"note: cannot write the result cache in {self.dir.parent} ({reason(exc)}); the run goes on "
                   "without keeping its batches (a killed run will not resume)")


# ---- which files in the result cache are ours (``cache show`` / ``cache clear``)

_RUN_DIR = re.compile(r"^[0-9a-f]{24}$")                    # config_key
_BATCH = re.compile(r"^(\.)?(\d{8}-\d{8}-\d+\.batch)(?(1)\.\w+\.tmp\.batch)$")   # a batch, or its temporary file


def cache_limit() -> int | None:
    """The result cache's size limit in bytes (``$SPONSIO_RESULT_CACHE_MB``, default
    ``DEFAULT_LIMIT_MB``; 0: None, no limit). A value that is not a number is said in one
    line, and the default holds."""
    raw = os.environ.get(LIMIT_ENV, "").strip()
    mb = float(DEFAULT_LIMIT_MB)
    if raw:
        try:
            mb = float(raw)
            if not math.isfinite(mb) or mb < 0:
                raise ValueError
        except ValueError:
            mb = float(DEFAULT_LIMIT_MB)
            notice("cache-limit", f"warning: {LIMIT_ENV}={raw!r} is not a size in MB (0 for no limit); the "
                                  f"result cache is kept under {DEFAULT_LIMIT_MB:,} MB")
    return None if mb == 0 else int(mb * 1e6)


def kept_note() -> str:
    """How the cache is kept in bounds, for ``cache show``."""
    limit = cache_limit()
    if limit is None:
        return f"no size limit (${LIMIT_ENV}=0)"
    return f"kept under {limit / 1e6:,.0f} MB (${LIMIT_ENV}), the runs least recently used removed first"


_trimmed_at: dict[Path, float] = {}


def trim_now_and_then(root: Path, keep: Path) -> None:
    """``trim`` once per process and hour: a walk of a large cache takes 0.1-0.3 s (6,582 runs),
    too much to repeat for each of a report build's thousands of runs; what a process writes
    within the hour is never removed anyway."""
    now = time.time()
    if now - _trimmed_at.get(root, -math.inf) >= RECENT_SECONDS:
        _trimmed_at[root] = now
        limit = cache_limit()
        if limit is not None:
            trim(root, limit, keep=keep, now=now)


def trim(root: Path, limit: int, keep: Path | None = None, now: float | None = None) -> int:
    """Remove the batches of the least recently used runs under ``root`` until the rest hold at
    most ``limit`` bytes, never ``keep`` nor a run used within ``RECENT_SECONDS``; only files
    ``cache clear`` would remove. Returns the runs removed."""
    runs, total = [], 0
    for folder in real_dirs(Path(root), _RUN_DIR.match):
        size = 0
        for e in entries(folder):
            if _BATCH.match(e.name):
                try:
                    size += e.stat(follow_symlinks=False).st_size
                except OSError:
                    pass
        try:
            used = folder.stat().st_mtime
        except OSError:
            continue
        runs.append((used, folder, size))
        total += size
    now = time.time() if now is None else now
    removed = 0
    for used, folder, size in sorted(runs):
        if total <= limit:
            break
        if folder == keep or now - used < RECENT_SECONDS:
            continue
        remove_owned(owned_in([folder], is_batch_file))
        total -= size
        removed += 1
    return removed


def is_batch_file(path: Path) -> bool:
    """A batch file of the run its folder is named after (name and header); a temporary
    one being written (``tabletop_mc.atomic``) may still be empty."""
    m = _BATCH.match(path.name)
    if not m:
        return False
    blob = head(path, MAX_HEADER)
    if m.group(1) and not blob:
        return True
    end = blob.find(b"\n")
    try:
        header = json.loads(blob[:end])
        return header.get("format") == MAGIC and header.get("key") == path.parent.name
    except (ValueError, AttributeError):
        return False


def owned_batches(root: str | Path | None = None) -> Owned:
    """The finished batches under the result cache ``root`` (default ``default_root()``), and
    their runs' folders."""
    return owned_in(real_dirs(Path(root or default_root()), _RUN_DIR.match), is_batch_file)
