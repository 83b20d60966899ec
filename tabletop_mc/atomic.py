"""Atomic file writes: a reader sees the old file or the whole new one, never a part.

Every file the tools write (result batches, fitted models, weights files,
plots, tables) goes through ``write_atomic``: the content is written to a
temporary file with a unique name in the target's own folder (so two
processes writing the same file never share one), then moved over the
target with ``os.replace``. On any failure, an interrupt included, the
temporary file is removed; a process killed outright can leave one, which
``sweep_stale`` removes later (``.NAME.*.tmp[.SUFFIX]``, older than an hour).
"""

from __future__ import annotations

import errno
import os
import tempfile
import time
from pathlib import Path
from typing import Callable

TMP_SUFFIX = ".tmp"
STALE_SECONDS = 3600.0


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def temp_name(target: Path) -> str:
    """The prefix of ``target``'s temporary files (``.NAME.``; ``sweep_stale`` matches it)."""
    return f".{target.name}."


def write_atomic(path: str | Path, write: Callable[[str], None]) -> Path:
    """``write(tmp)`` fills a unique temporary file beside ``path``, which then
    replaces ``path`` with a new file's permissions under the user's umask.
    Errors (``OSError``: full disk, read-only folder) go to the caller; no
    temporary or partial file is left either way."""
    target = Path(path)
    # the target's own suffix last: writers such as matplotlib pick the format by it
    fd, tmp = tempfile.mkstemp(prefix=temp_name(target), suffix=TMP_SUFFIX + target.suffix, dir=target.parent)
    try:
        os.close(fd)
        write(tmp)
        if os.path.getsize(tmp) == 0:   # a writer that swallowed its own error
            raise OSError(errno.EIO, "nothing was written")
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    return target


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    """``data`` as the whole content of ``path`` (see ``write_atomic``)."""
    def write(tmp):
        with open(tmp, "wb") as f:
            f.write(data)
    return write_atomic(path, write)


def sweep_stale(folder: str | Path, older_than: float = STALE_SECONDS) -> int:
    """Remove temporary files left in ``folder`` by killed writers; returns how many."""
    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if entry.name.startswith(".") and TMP_SUFFIX + "." in entry.name + ".":
            try:
                if now - entry.stat().st_mtime > older_than:
                    os.remove(entry.path)
                    removed += 1
            except OSError:
                pass
    return removed
