"""Files the tools own in a cache folder: found by exact name and content, never by folder.

A cache part (compiled kernels, finished batches, fitted models) finds its
own files with these helpers and its own test of a file (a name of the
part's exact form, a content that proves it); ``tabletop_mc.cachecli``
shows and removes what they find. Symbolic links are never followed, so a
link that looks like a cache folder or file leads nowhere.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable


@dataclass(frozen=True)
class Owned:
    """What a part finds: its own ``files``, the ``folders`` it made for them (deepest
    first, removed when empty), and how many ``others`` it saw inside those folders."""

    files: list[Path]
    folders: list[Path]
    others: int = 0


def entries(folder: Path) -> list[os.DirEntry]:
    """What ``folder`` holds (nothing if it is not a readable folder)."""
    try:
        return list(os.scandir(folder))
    except OSError:
        return []


def real_dirs(folder: Path, match: Callable[[str], bool]) -> list[Path]:
    """The sub-folders of ``folder`` whose name ``match``es, not following symbolic links."""
    return sorted(Path(e.path) for e in entries(folder) if match(e.name) and e.is_dir(follow_symlinks=False))


def owned_in(folders: list[Path], mine: Callable[[Path], bool], remove_empty: bool = True) -> Owned:
    """The regular files of ``folders`` (not links) that ``mine`` recognises; the rest counted.
    ``remove_empty``: the folders are the tool's own (removed once empty); False for a
    configured folder, which always stays."""
    files, others = [], 0
    for folder in folders:
        for e in entries(folder):
            path = Path(e.path)
            if e.is_file(follow_symlinks=False) and mine(path):
                files.append(path)
            else:
                others += 1
    return Owned(sorted(files), list(folders) if remove_empty else [], others)


def merge(*parts: Owned) -> Owned:
    """The ``Owned`` of several folders' finds together."""
    return Owned([f for p in parts for f in p.files], [d for p in parts for d in p.folders],
                 sum(p.others for p in parts))


def head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of a file (empty if it cannot be read)."""
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError:
        return b""


def size_of(path: Path) -> int:
    """The size of the file at ``path`` (not following a link); 0 if it is gone."""
    try:
        return path.lstat().st_size
    except OSError:
        return 0


def remove_owned(owned: Owned) -> tuple[int, int]:
    """Delete ``owned``'s files, then its folders that are left empty (anything else in a folder
    keeps it); returns (files removed, their bytes)."""
    removed = size = 0
    for path in owned.files:
        n = size_of(path)
        try:
            path.unlink()
        except OSError:   # gone already, or not ours to remove after all
            continue
        removed += 1
        size += n
    for folder in owned.folders:
        try:
            folder.rmdir()   # only an empty folder: anything else in it stays
        except OSError:
            pass
    return removed, size
