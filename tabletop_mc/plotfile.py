"""Output files (PNG plots, models, table folders): paths checked before any work,
files written atomically with the user's umask.

A path is checked up front by creating (and removing) a probe file where the
output will go, so a directory that exists but cannot be written (``/proc``,
a read-only mount, a file used as a folder) fails at once, not after the
simulation. If writing still fails at the end, ``OutputError`` says so after
the result has been printed.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tabletop_mc.errors import OutputError, UserError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _probe(directory: Path, option: str, path) -> None:
    """Create and remove a file in ``directory``; a UserError if that fails."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".probe-", dir=directory)
    except OSError as exc:
        raise UserError(f"{option} {path}: cannot write in {directory} ({exc.strerror or exc})") from None
    os.close(fd)
    os.remove(tmp)


def file_target(path: str | Path | None, option: str, suffix: str, what: str) -> Path | None:
    """``path`` (None stays None) if a ``suffix`` file can be written there, else a UserError."""
    if path is None:
        return None
    target = Path(path)
    if target.suffix.lower() != suffix:
        raise UserError(f"{option} {path}: the {what} is a {suffix[1:].upper()} file, name it *{suffix}")
    if target.is_dir():
        raise UserError(f"{option} {path}: is a directory")
    if not target.parent.is_dir():
        problem = "is not a directory" if target.parent.exists() else "does not exist"
        raise UserError(f"{option} {path}: {target.parent} {problem}")
    if target.exists() and not os.access(target, os.W_OK):
        raise UserError(f"{option} {path}: the file exists and cannot be overwritten")
    _probe(target.parent, option, path)
    return target


def plot_target(path: str | Path | None, option: str = "--plot") -> Path | None:
    """The plot's path (None stays None), or a UserError if it cannot be a PNG written there."""
    return file_target(path, option, ".png", "plot")


def dir_target(path: str | Path | None, option: str = "--out") -> Path | None:
    """An output folder (created now, one level only: its parent must exist), or a UserError."""
    if path is None:
        return None
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise UserError(f"{option} {path}: not a folder")
    if not target.exists():
        if not target.parent.is_dir():
            problem = "is not a directory" if target.parent.exists() else "does not exist"
            raise UserError(f"{option} {path}: {target.parent} {problem} (only the last folder is created)")
        try:
            target.mkdir()
        except OSError as exc:
            raise UserError(f"{option} {path}: cannot create the folder ({exc.strerror or exc})") from None
    _probe(target, option, path)
    return target


def write_atomic(path: str | Path, write, option: str = "--plot") -> None:
    """``write(tmp)`` into a temporary file beside ``path``, then move it in place with
    the permissions of a new file under the user's umask. No partial file is left;
    an I/O failure is an ``OutputError`` (the result itself was already printed)."""
    target = Path(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(suffix=target.suffix, dir=target.parent)
        os.close(fd)
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except OSError as exc:
        raise OutputError(f"{option} {path}: cannot write ({exc.strerror or exc}); "
                          "the results above are complete, only this file is missing") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.remove(tmp)


def save_plot(path: str | Path | None, draw, option: str = "--plot") -> None:
    """``draw(tmp)`` saves the PNG (a path checked up front with ``plot_target``
    or inside a ``dir_target`` folder); see ``write_atomic``. None does nothing."""
    if path is not None:
        write_atomic(path, draw, option)
