"""Output files (PNG plots, models, table folders): paths checked before any work,
files written atomically with the user's umask.

A path is checked up front by creating (and removing) a probe file where the
output will go, so a directory that exists but cannot be written (``/proc``,
a read-only mount, a file used as a folder) fails at once, not after the
simulation. If writing still fails at the end, ``OutputError`` says so after
the result has been printed.

Only what the tool writes is touched (``tabletop_mc.atomic``): an output
file named by the user that exists must be a regular file; an empty name,
a directory, a device (``/dev/null``, ``/dev/full``), a FIFO, a socket or
a symbolic link (``/dev/stdout``) is refused in one line before any work,
and left as it is. In an output folder the names the command writes are
checked the same way before any work (``dir_target``'s ``suffixes`` and
``folders``), except that a symbolic link there is replaced by the new
file, never written through.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tabletop_mc import atomic
from tabletop_mc.errors import OutputError, UserError

# what the commands that write into a folder name their files
OUTPUT_SUFFIXES = (".csv", ".png", ".json", ".html", ".npz")


def _probe(directory: Path, option: str, path) -> None:
    """Create and remove a file in ``directory``; a UserError if that fails."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".probe-", dir=directory)
    except OSError as exc:
        raise UserError(f"{option} {path}: cannot write in {directory} ({exc.strerror or exc})") from None
    os.close(fd)
    os.remove(tmp)


def _not_a_file(option: str, path, what: str) -> UserError:
    return UserError(f"{option} {path}: is {what}, not a regular file; it is left as it is (name a regular file "
                     "or a new name; the results go to standard output, --format csv|json)")


def file_target(path: str | Path | None, option: str, suffix: str | None, what: str) -> Path | None:
    """``path`` (None stays None) if a ``suffix`` file (any name: None) can be written there, else a
    UserError (module docstring)."""
    if path is None:
        return None
    if not str(path).strip():
        raise UserError(f"{option}: empty file name")
    target = Path(path)
    kind = atomic.kind_of(target)
    if kind == "symbolic link":
        raise _not_a_file(option, path, f"a symbolic link (to a {atomic.kind_of(target, follow=True) or 'missing file'})")
    if kind not in (None, "file"):
        raise _not_a_file(option, path, f"a {kind}")
    if suffix is not None and Path(path).suffix.lower() != suffix:
        raise UserError(f"{option} {path}: the {what} is a {suffix[1:].upper()} file, name it *{suffix}")
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


def _check_contents(folder: Path, option: str, suffixes, folders) -> None:
    """Refuse, before any work, a folder where an output file's name (any of ``suffixes``) is taken
    by something that is not a regular file or a link, or a sub-folder's name (``folders``) by
    something that is not a folder or a link; sub-folders are checked the same way."""
    for entry in _entries(folder):
        kind = atomic.kind_of(entry)
        if entry.name in folders:
            if kind == "directory":
                _check_contents(entry, option, suffixes, ())
            elif kind not in (None, "symbolic link"):
                raise UserError(f"{option} {folder}: {entry.name} is a {kind}, where the command writes a folder "
                                "of that name; move it or name another folder")
        elif entry.suffix.lower() in suffixes and kind not in ("file", "symbolic link"):
            raise UserError(f"{option} {folder}: {entry.name} is a {kind}, not a regular file, under an output "
                            f"file's name (the command writes {', '.join('*' + x for x in suffixes)} files here "
                            "and replaces only regular files); it is left as it is: move it or name another folder")


def _entries(folder: Path) -> list[Path]:
    """What ``folder`` holds (nothing if it cannot be read)."""
    try:
        return sorted(Path(e.path) for e in os.scandir(folder))
    except OSError:
        return []


def dir_target(path: str | Path | None, option: str = "--out", suffixes=OUTPUT_SUFFIXES,
               folders: tuple[str, ...] = ()) -> Path | None:
    """An output folder (created now, one level only: its parent must exist), or a UserError;
    what is already in it is checked as ``_check_contents`` says."""
    if path is None:
        return None
    if not str(path).strip():
        raise UserError(f"{option}: empty folder name")
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise UserError(f"{option} {path}: not a folder")
    if not target.exists():
        if atomic.kind_of(target) == "symbolic link":
            raise UserError(f"{option} {path}: a symbolic link to a missing folder")
        if not target.parent.is_dir():
            problem = "is not a directory" if target.parent.exists() else "does not exist"
            raise UserError(f"{option} {path}: {target.parent} {problem} (only the last folder is created)")
        try:
            target.mkdir()
        except OSError as exc:
            raise UserError(f"{option} {path}: cannot create the folder ({exc.strerror or exc})") from None
    _probe(target, option, path)
    _check_contents(target, option, tuple(suffixes), tuple(folders))
    return target


def out_subdir(parent: Path, name: str) -> Path:
    """The sub-folder ``name`` of an output folder, made now: a symbolic link there is replaced
    by a real folder, never written through (``OutputError`` if it cannot be made)."""
    path = Path(parent) / name
    try:
        if atomic.kind_of(path) == "symbolic link":
            path.unlink()
        path.mkdir(exist_ok=True)
    except OSError as exc:
        raise OutputError(f"--out {path}: cannot make the folder ({exc.strerror or exc})") from None
    return path


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
