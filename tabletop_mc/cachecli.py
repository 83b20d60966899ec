"""`cache show` and `cache clear`: what the tools keep on disk, and removing it.

Each game CLI lists its own parts (compiled kernels, finished batches,
fitted models) as ``(label, folder, pattern)``: ``pattern`` None means the
folder itself, else the entries of the folder matching it. Nothing outside
those parts is touched.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import click

from tabletop_mc.clitools import emit

Part = tuple[str, Path, "str | None"]


def _entries(folder: Path, pattern: str | None) -> list[Path]:
    if pattern is None:
        return [folder] if folder.exists() else []
    return sorted(folder.glob(pattern)) if folder.is_dir() else []


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def cache_group(main: click.Group, prog: str, parts: Callable[[], list[Part]], what: str) -> click.Group:
    """Register ``cache show`` / ``cache clear`` on ``main``; ``what`` names the parts for --help."""

    @main.group("cache", help=f"Show or clear the caches ({what}).")
    def group():
        pass

    @group.command("show", help=f"Where the caches are and how big.\n\n\b\nExample:\n  {prog} cache show")
    def show():
        lines = []
        for label, folder, pattern in parts():
            found = _entries(folder, pattern)
            where = folder / pattern if pattern else folder
            lines.append(f"{label}: {where} ({len(found)} entr{'y' if len(found) == 1 else 'ies'}, "
                         f"{_mb(sum(_size(p) for p in found))})")
        emit("\n".join(lines))

    @group.command("clear", help=f"Remove this tool's caches; the next run compiles its kernels again "
                                 f"(30-60 s).\n\n\b\nExample:\n  {prog} cache clear")
    def clear():
        lines = []
        for label, folder, pattern in parts():
            found = _entries(folder, pattern)
            size = sum(_size(p) for p in found)
            for path in found:
                if path.is_dir():
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    path.unlink(missing_ok=True)
            where = folder / pattern if pattern else folder
            lines.append(f"{label}: removed {len(found)} entr{'y' if len(found) == 1 else 'ies'} "
                         f"({_mb(size)}) from {where}")
        emit("\n".join(lines))

    return group
