"""Atomic file writes: a reader sees the old file or the whole new one, never a part.

Every file the tools write (result batches, fitted models, weights files,
plots, tables, report pages) goes through ``write_atomic``: the content is
written to a temporary file with a unique name in the target's own folder
(so two processes writing the same file never share one), then moved over
the target with ``os.replace``. On any failure, an interrupt included, the
temporary file is removed; a process killed outright can leave one, which
``sweep_stale`` removes later (``.NAME.*.tmp[.SUFFIX]``, older than an hour).

Only a regular file is ever replaced. A target that is a directory, a
device (``/dev/null``, ``/dev/full``), a FIFO or a socket is left as it
is: ``NotAFile`` (an ``OSError``) before anything is written. A symbolic
link is replaced by the new file, never written through (the file it
points to is left alone); a link the user named as the output file is
refused before any work (``tabletop_mc.plotfile``).
"""

from __future__ import annotations

import errno
import os
import stat
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


class NotAFile(OSError):
    """The target exists and is not a regular file (or a link): it is never replaced."""


_KINDS = ((stat.S_ISDIR, "directory"), (stat.S_ISCHR, "device"), (stat.S_ISBLK, "device"),
          (stat.S_ISFIFO, "FIFO (named pipe)"), (stat.S_ISSOCK, "socket"), (stat.S_ISLNK, "symbolic link"),
          (stat.S_ISREG, "file"))


def kind_of(path: str | Path, follow: bool = False) -> str | None:
    """What is at ``path``: None (nothing), ``file``, ``symbolic link`` (with ``follow``:
    what it points to), ``directory``, ``device``, ``FIFO (named pipe)`` or ``socket``."""
    try:
        mode = os.stat(path).st_mode if follow else os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError:   # a path through a file, or too many links: nothing a write could replace
        return None
    return next((name for test, name in _KINDS if test(mode)), "special file")


def replaceable(path: str | Path) -> None:
    """``NotAFile`` unless ``path`` is absent, a regular file or a symbolic link (module docstring)."""
    kind = kind_of(path)
    if kind not in (None, "file", "symbolic link"):
        raise NotAFile(errno.EEXIST, f"is a {kind}, not a regular file (left as it is)", str(path))


def write_atomic(path: str | Path, write: Callable[[str], None]) -> Path:
    """``write(tmp)`` fills a unique temporary file beside ``path``, which then
    replaces ``path`` with a new file's permissions under the user's umask.
    Errors (``OSError``: full disk, read-only folder; ``NotAFile``: the target
    is a directory, a device, a FIFO or a socket) go to the caller; no
    temporary or partial file is left either way."""
    if not str(path):
        raise NotAFile(errno.ENOENT, "empty file name", "")
    target = Path(path)
    replaceable(target)
    # the target's own suffix last: writers such as matplotlib pick the format by it
    fd, tmp = tempfile.mkstemp(prefix=temp_name(target), suffix=TMP_SUFFIX + target.suffix, dir=target.parent)
    try:
        os.close(fd)
        write(tmp)
        if os.path.getsize(tmp) == 0:   # a writer that swallowed its own error
            raise OSError(errno.EIO, "nothing was written")
        os.chmod(tmp, 0o666 & ~_umask())
        replaceable(target)   # again: something may have been put there meanwhile
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
