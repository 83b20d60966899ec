"""numba's on-disk cache, keyed by the source of every kernel module.

numba invalidates a cached function only when its own file changes, not when
a kernel it calls does, so an edited inner kernel can silently keep running
its old code. Each game package calls ``configure`` from its
``kernels/__init__.py`` before any kernel is compiled: the cache then lives
in a directory named by a hash of all the package's kernel sources (and of
this shared plumbing), so any edit gets a fresh cache.

``configure`` also makes loading a cached kernel cheap (``lean_cache_loads``).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

from tabletop_mc.cachedir import kernel_cache_root

_HERE = Path(__file__).resolve().parent


def source_hash(*dirs: Path) -> str:
    """Hash of every ``.py`` file under ``dirs`` and of tabletop_mc itself."""
    h = hashlib.blake2b(digest_size=8)
    h.update(numba.__version__.encode())
    for d in (*dirs, _HERE):
        for path in sorted(Path(d).rglob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()


COMPILE_NOTE = "compiling kernels: about 10-60 s, once (later runs load them from the cache)"


def needs_compile(dispatcher) -> bool:
    """Will calling this numba kernel compile it (not compiled in this process, no
    index in the on-disk cache)? A heuristic for the progress note; False if unsure.
    A batch function that runs a compiled kernel on threads names it as its
    ``kernel`` attribute (``tabletop_mc.spans``); that kernel is the one asked about."""
    dispatcher = getattr(dispatcher, "kernel", dispatcher)
    try:
        if dispatcher.overloads:
            return False
        return not os.path.exists(dispatcher._cache._cache_file._index_path)
    except Exception:  # pragma: no cover - numba internals moved, or no cache
        return False


def lean_cache_loads() -> bool:
    """Load kernels from the on-disk cache without refreshing numba's whole target context.

    Before loading a cached function numba refreshes its target context: it
    imports and registers every implementation it has (arrays, linalg,
    typed containers, random, ...), a visible part of a CLI's start, though
    only compiling reads those registries and numba's compiler refreshes
    them itself. A cached function only needs the runtime (NRT) initialised.
    Loads then initialise the runtime alone; if such a load fails, it is
    retried the way numba does it. Returns False where numba's internals
    differ from what this expects (loads are left as they are).
    """
    try:
        from numba.core import caching
        from numba.core.runtime import rtsys
        original = caching.Cache.load_overload
        caching.Cache._load_overload, caching.Cache._guard_against_spurious_io_errors  # noqa: B018
    except (ImportError, AttributeError):  # pragma: no cover - numba internals moved
        return False
    if getattr(original, "lean", False):
        return True

    def load_overload(self, sig, target_context):
        rtsys.initialize(target_context)
        try:
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
        except Exception:  # pragma: no cover - a load needing more than the runtime
            return original(self, sig, target_context)

    load_overload.lean = True
    caching.Cache.load_overload = load_overload
    return True


_configured: list[Path] = []


def configure_shared() -> None:
    """Called by tabletop_mc's own kernel modules before their kernels are defined: if no
    game package has configured the cache yet, cache them under ``tabletop_mc-<hash>``
    (never beside the sources, numba's fallback, where no edit invalidates them)."""
    if not _configured:
        configure("tabletop_mc", _HERE)


def configure(package: str, kernel_dir: str | Path) -> Path:
    """Point numba's cache for ``package`` at a directory keyed by its kernel sources,
    make cache loads lean (``lean_cache_loads``) and cache files verified
    (``tabletop_mc.kernelfiles``). A directory that cannot be written means
    kernels compiled for this run only, said in one line. The kernels of the package's other
    versions that no process has used for 30 days are removed (``kernelfiles.drop_unused_versions``)."""
    from tabletop_mc import kernelfiles
    lean_cache_loads()
    kernelfiles.verify_cache_files()
    path = kernel_cache_root() / f"{package}-{source_hash(Path(kernel_dir))}"
    numba.config.CACHE_DIR = str(path)
    if kernelfiles.require_writable(path):
        kernelfiles.drop_unused_versions(path.parent, package, path)
    _configured.append(path)
    return path
