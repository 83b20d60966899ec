"""`cache show` and `cache clear`: what the tools keep on disk, and removing it.

Each game CLI lists its own parts (compiled kernels, finished batches,
fitted models) as ``Part``s: a label, the folder shown, and a function that
finds the part's own files there. A file is the tool's own only if its name
has the part's exact form and its content proves it (a kernel file's
checksum trailer, a batch file's header, a loadable success model); files
are found without following symbolic links. ``cache clear`` removes those
files, then each folder the tool made for them (a kernel folder, a run's
batch folder) if nothing else is left in it. A folder that holds anything
else, the configured cache folder itself (``$SPONSIO_MODEL_DIR``,
``$NUMBA_CACHE_DIR``, ...) and every file it does not recognise are left
where they are; the summary counts what was kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import click

from tabletop_mc.clitools import emit
from tabletop_mc.owned import Owned, remove_owned, size_of
from tabletop_mc.cliparams import FORMATS


@dataclass(frozen=True)
class Part:
    """One cache: ``label``, the ``folder`` shown, ``find()`` its ``Owned`` files, and ``kept``:
    what bounds its size, if anything does."""

    label: str
    folder: Path
    find: Callable[[], Owned]
    kept: str = ""   # how the tools keep it in bounds (``cache show`` says so under the table)


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def _files(n: int) -> str:
    return f"{n} file{'' if n == 1 else 's'}"


def _render(rows: list[dict], fmt: str, text: Callable[[dict], str]) -> str:
    """One line per cache (``text``), or the rows as JSON (with ``meta``) or CSV."""
    if fmt == "table":
        return "\n".join(text(r) for r in rows)
    import pandas as pd
    from tabletop_mc.output import render
    return render(pd.DataFrame(rows), fmt)


def _others(r: dict, clear: bool) -> str:
    if not r["others"]:
        return ""
    return (f"; kept {_files(r['others'])} it does not recognise" if clear
            else f"; {_files(r['others'])} there not the tool's (left alone)")


FORMAT = click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                      help="Output format.")


def cache_group(main: click.Group, prog: str, parts: Callable[[], list[Part]], what: str) -> click.Group:
    """Register ``cache show`` / ``cache clear`` on ``main``; ``what`` names the parts for --help."""

    @main.group("cache", help=f"Show or clear the caches ({what}).")
    def group():
        pass

    @group.command("show", help=f"Where the caches are and how big: the files this tool wrote there.\n\n\b\n"
                                f"Example:\n  {prog} cache show")
    @FORMAT
    def show(fmt):
        rows, kept = [], []
        for part in parts():
            owned = part.find()
            rows.append({"cache": part.label, "folder": str(part.folder), "files": len(owned.files),
                         "bytes": sum(size_of(p) for p in owned.files), "others": owned.others})
            if part.kept:
                kept.append(f"{part.label}: {part.kept}")
        out = _render(rows, fmt, lambda r: f"{r['cache']}: {r['folder']} ({_files(r['files'])}, "
                                           f"{_mb(r['bytes'])}){_others(r, False)}")
        emit(out + "".join(f"\n  {line}" for line in kept) if fmt == "table" and kept else out)

    @group.command("clear", help=f"Remove the files this tool keeps in its caches (nothing else: a file it "
                                 f"does not recognise and the folders that hold one stay); the next run compiles "
                                 f"its kernels again (10-60 s).\n\n\b\nExample:\n  {prog} cache clear")
    @FORMAT
    def clear(fmt):
        rows = []
        for part in parts():
            owned = part.find()
            removed, size = remove_owned(owned)
            rows.append({"cache": part.label, "folder": str(part.folder), "removed": removed, "bytes": size,
                         "others": owned.others})
        emit(_render(rows, fmt, lambda r: f"{r['cache']}: removed {_files(r['removed'])} ({_mb(r['bytes'])}) "
                                          f"from {r['folder']}{_others(r, True)}"))

    return group
