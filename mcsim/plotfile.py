"""PNG outputs: the path is checked before any work, the file written atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from mcsim.errors import UserError


def plot_target(path: str | Path | None, option: str = "--plot") -> Path | None:
    """The plot's path (None stays None), or a UserError if it cannot be a PNG written there."""
    if path is None:
        return None
    target = Path(path)
    if target.suffix.lower() != ".png":
        raise UserError(f"{option} {path}: the plot is a PNG, name it *.png")
    if not target.parent.is_dir():
        raise UserError(f"{option} {path}: directory {target.parent} does not exist")
    return target


def save_plot(path: str | Path | None, draw) -> None:
    """``draw(tmp)`` into a temporary file beside ``path``, then move it in place.

    No partial file is left when drawing fails; ``path`` None does nothing.
    """
    target = plot_target(path)
    if target is None:
        return
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=target.parent)
    os.close(fd)
    try:
        draw(tmp)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
