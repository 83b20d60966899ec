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

from tabletop_mc import atomic
from tabletop_mc.errors import OutputError, UserError


def _probe(directory: Path, option: str, path) -> None:
    """Create and remove a file in ``directory``; a UserError if that fails."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".probe-", dir=directory)
    except OSError as exc:
        raise UserError(f"{option} {path}: cannot write in {directory} ({exc.strerror or exc})") from None
    os.close(fd)
    os.remove(tmp)


def file_target(path: str | Path | None, option: str, suffix: str | None, what: str) -> Path | None:
    """``path`` (None stays None) if a ``suffix`` file (any name: None) can be written there, else a UserError."""
    if path is None:
        return None
    target = Path(path)
    if suffix is not None and target.suffix.lower() != suffix:
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
    """``write(tmp)`` fills a temporary file that then replaces ``path``
    (``tabletop_mc.atomic``): no partial file is left; an I/O failure is an
    ``OutputError`` (the result itself was already printed)."""
    write_all([(path, write)], option)


def write_all(files, option: str = "--out") -> None:
    """Write every ``(path, write)`` of ``files`` atomically, going on past a failure;
    one ``OutputError`` then names every file that could not be written."""
    failed = []
    for path, write in files:
        try:
            atomic.write_atomic(path, write)
        except OSError as exc:
            failed.append((Path(path), exc.strerror or str(exc)))
    if not failed:
        return
    if len(files) == 1:
        raise OutputError(f"{option} {failed[0][0]}: cannot write ({failed[0][1]}); "
                          "the results above are complete, only this file is missing")
    why = "; ".join(dict.fromkeys(w for _, w in failed))
    names = ", ".join(p.name for p, _ in failed)
    raise OutputError(f"{option} {failed[0][0].parent}: {len(failed)} of {len(files)} files could not be written "
                      f"({why}): {names}; the results above are complete")


def save_plot(path: str | Path | None, draw, option: str = "--plot") -> None:
    """``draw(tmp)`` saves the PNG (a path checked up front with ``plot_target``
    or inside a ``dir_target`` folder); see ``write_atomic``. None does nothing."""
    if path is not None:
        write_atomic(path, draw, option)
