"""Where the tools keep their caches (compiled kernels, finished batches, fitted models)."""

from __future__ import annotations

import os
from pathlib import Path


def user_cache_root() -> Path:
    """Where the tools keep caches: ``$XDG_CACHE_HOME/sponsio-sim`` (default ``~/.cache/sponsio-sim``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sponsio-sim"


def kernel_cache_root() -> Path:
    """Compiled kernels: ``$NUMBA_CACHE_DIR`` if set, else the user cache root."""
    return Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else user_cache_root()
