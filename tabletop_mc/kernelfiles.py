"""numba's on-disk kernel cache, safe against damaged files and unwritable folders.

- Every index (``.nbi``) and data (``.nbc``) file numba writes ends in a
  BLAKE2b checksum of the rest; a file that fails the check (empty,
  truncated, garbled), or cannot be unpickled, is deleted before anything in
  it is used, one warning line names it, and the kernel is compiled again
  (and saved afresh). A garbled object file never reaches LLVM.
- A cache folder that cannot be written (read-only, not a folder, full):
  kernels are compiled in memory for this run only, said in one line. numba
  itself would write them beside the sources instead, where an edit to an
  inner kernel does not invalidate them (``tabletop_mc.jitcache``).
- A save that fails during the run (the disk fills up) is skipped, said in
  one line; the run goes on. Files are written by ``tabletop_mc.atomic``,
  as every file the tools write.
- Processes that compile the same kernel at once (two commands, the test
  suite's workers) cannot hand each other the wrong machine code. numba
  names a new entry's object file by the first number its index has not
  used, so two processes saving different signatures of one kernel both
  wrote ``KERNEL.1.nbc`` and the index could map one signature to the
  other's code: a crash or a wrong number on the next load. Here an object
  file is named by a hash of its key (signature, CPU, bytecode) and holds
  that key, which a load checks (another key's code is a miss: the kernel
  is compiled again); the index is read, updated and written under a lock
  on its folder (``fcntl``; where there is none, a lost update only means
  one kernel compiled again later).

- Each version of a package's kernel sources compiles into a folder of its
  own (``tabletop_mc.jitcache``), tens of MB; a version that no process has
  used for 30 days (an upgrade, an edit) loses its kernels when the package
  is next configured (``drop_unused_versions``).

These patch numba's ``IndexDataCacheFile`` and ``Cache`` (numba 0.59 and
later); where numba's internals differ, nothing is patched.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import re
import tempfile
import time
from pathlib import Path

from tabletop_mc.atomic import write_bytes_atomic
from tabletop_mc.notice import notice, reason
from tabletop_mc.owned import Owned, entries, head, merge, owned_in, real_dirs, remove_owned

SEAL = b"\ntabletop-mc-kernel-sum:"
DIGEST = 16
FORMAT = "tabletop-mc-2"   # object files named by their key and holding it; older indexes are ignored


def seal(payload: bytes) -> bytes:
    """``payload`` followed by its checksum trailer."""
    return payload + SEAL + hashlib.blake2b(payload, digest_size=DIGEST).digest()


def unseal(blob: bytes) -> bytes:
    """The payload of a sealed file, or ValueError if the file is not whole."""
    cut = len(blob) - DIGEST - len(SEAL)
    if cut < 0 or blob[cut:cut + len(SEAL)] != SEAL:
        raise ValueError("empty or truncated" if len(blob) < 64 else "no checksum (truncated or garbled)")
    payload = blob[:cut]
    if hashlib.blake2b(payload, digest_size=DIGEST).digest() != blob[cut + len(SEAL):]:
        raise ValueError("checksum mismatch")
    return payload


def _discard(path: str, why: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
    notice("damaged-kernel-file", f"warning: damaged kernel cache file {path} ({why}) discarded; the kernel is "
                                  "compiled again (about 10-60 s, once)")


def verify_cache_files() -> bool:
    """Seal what numba writes to its cache and verify what it reads (module docstring)."""
    try:
        from numba.core import caching
        cls = caching.IndexDataCacheFile
        cls._data_path, cls._data_name, cls._dump, cls._load_index, cls._load_data  # noqa: B018
        save_overload = caching.Cache.save_overload
    except (ImportError, AttributeError):  # pragma: no cover - numba internals moved
        return False
    if getattr(cls, "_tabletop_sealed", False):
        return True

    def save(self, key, data):
        name = self._data_name(data_number(key))
        self._save_data(name, (key, data))   # the object file first: the index never names a missing one
        with folder_lock(self._cache_path):
            overloads = self._load_index()
            former = overloads.get(key)
            if former != name:
                overloads[key] = name
                self._save_index(overloads)
                if former is not None:   # named otherwise (a key whose text names an address)
                    try:
                        os.remove(self._data_path(former))
                    except OSError:
                        pass

    def load(self, key):
        name = self._load_index().get(key)
        if name is None:
            return None
        try:
            stored, data = self._load_data(name)
        except (OSError, TypeError, ValueError):   # missing or damaged (discarded), or not a (key, data) pair
            return None
        return data if stored == key else None

    def _save_index(self, overloads):
        data = pickle.dumps((FORMAT, self._version), protocol=-1) + self._dump((self._source_stamp, overloads))
        write_bytes_atomic(self._index_path, seal(data))

    def _save_data(self, name, data):
        write_bytes_atomic(self._data_path(name), seal(self._dump(data)))

    def _load_index(self):
        try:
            with open(self._index_path, "rb") as f:
                blob = f.read()
        except FileNotFoundError:
            return {}
        except OSError:   # unreadable: compile, and let the save say what is wrong
            return {}
        try:
            stream = io.BytesIO(unseal(blob))
            version = pickle.load(stream)
            if version != (FORMAT, self._version):
                return {}   # another numba's (or an older format's) cache: overwritten as kernels are saved
            stamp, overloads = pickle.loads(stream.read())
            if not isinstance(overloads, dict):
                raise ValueError("not an index")
        except Exception as exc:
            _discard(self._index_path, str(exc) or type(exc).__name__)
            return {}
        return overloads if stamp == self._source_stamp else {}

    def _load_data(self, name):
        path = self._data_path(name)
        with open(path, "rb") as f:   # an OSError tells numba's load() to compile instead
            blob = f.read()
        try:
            return pickle.loads(unseal(blob))
        except Exception as exc:
            _discard(path, str(exc) or type(exc).__name__)
            raise OSError(f"damaged kernel cache file {path}") from None

    def save_overload_or_skip(self, sig, data):
        try:
            return save_overload(self, sig, data)
        except OSError as exc:
            _cannot_write(getattr(self, "_cache_path", "the kernel cache"), reason(exc))

    cls.save, cls.load = save, load
    cls._save_index, cls._save_data = _save_index, _save_data
    cls._load_index, cls._load_data = _load_index, _load_data
    cls._tabletop_sealed = True
    caching.Cache.save_overload = save_overload_or_skip
    return True


def data_number(key) -> int:
    """The number in an object file's name (``KERNEL.<number>.nbc``): a hash of the key's text
    (its types' names, the CPU, the bytecode's hashes), the same in every process (a key's
    pickle is not: it can hold classes pickled by value), so processes saving one signature
    write one file and processes saving different ones write different files (two keys of
    one text would share a file, and each load checks the key it holds)."""
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=6).digest(), "big")


LOCK_WAIT = 30.0   # seconds a save waits for another process's lock before it goes on without


@contextlib.contextmanager
def folder_lock(path, wait: float | None = None):
    """Hold an exclusive lock on the folder ``path`` (``flock``) for a read-modify-write of
    a file in it; where the platform or file system has none, no lock.

    The lock only spares a concurrent save a lost update (a kernel compiled again later; each
    load checks its file's key), so it is never waited for long: after ``wait`` seconds
    (``LOCK_WAIT`` by default) the save goes on without it. A process forked while another
    thread held the lock shares its descriptor, and closing only this process's copy would
    leave the folder locked for the child's lifetime: the lock is released explicitly."""
    try:
        import fcntl
        fd = os.open(path, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    held = False
    try:
        deadline = time.monotonic() + (LOCK_WAIT if wait is None else wait)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.005)
            except OSError:   # no locks on this file system
                break
        yield
    finally:
        if held:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            except OSError:
                pass
        os.close(fd)


def _cannot_write(path, why: str) -> None:
    notice("kernel-cache-unwritable", f"note: cannot write the kernel cache in {path} ({why}): kernels are "
                                      "compiled for this run only (about 10-60 s each run until it can be written)")


def require_writable(path) -> bool:
    """True if kernels can be cached in ``path``; else every kernel compiled from now
    on is kept in memory only (numba's ``NullCache``), said in one line."""
    try:
        os.makedirs(path, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".probe-", dir=path)
        os.close(fd)
        os.remove(tmp)
        return True
    except OSError as exc:
        why = reason(exc)
    try:
        from numba.core import caching, dispatcher
        dispatcher.Dispatcher.enable_caching = lambda self: setattr(self, "_cache", caching.NullCache())
    except (ImportError, AttributeError):  # pragma: no cover - numba internals moved
        return False
    _cannot_write(path, why)
    return False


# ---- which files in a kernel cache are ours (``cache show`` / ``cache clear``)

# numba's names: an index FUNC-LINE.pyVER.nbi, data FUNC-LINE.pyVER.K.nbc, in a folder named
# SOURCEDIR_<sha1 of its path>; while one is written, .FILE.*.tmp.nbi|nbc (``tabletop_mc.atomic``), or
# FILE.tmp.<16 hex> (numba's own writer, before these files were sealed)
_NAME = r"[^/.][^/]*-\d+\.py\d+\.(?:nbi|\d+\.nbc)"
_KERNEL_FILE = re.compile(rf"^(?:{_NAME}|(?P<tmp>\.{_NAME}\.\w+\.tmp\.nb[ic]|{_NAME}\.tmp\.[0-9a-f]{{16}}))$")
_LOCATOR_DIR = re.compile(r"^\w+_[0-9a-f]{40}$")
_PICKLE = b"\x80"   # every numba cache file starts with a pickle (sealed or not)


def is_kernel_file(path) -> bool:
    """A numba cache file by its name and content (a pickle; one being written may still be empty)."""
    m = _KERNEL_FILE.match(path.name)
    if not m:
        return False
    start = head(path, 1)
    return start == _PICKLE or (m.group("tmp") is not None and start == b"")


def kernel_folders(root, package: str) -> list:
    """``package``'s ``PACKAGE-<source hash>`` folders under the kernel cache ``root``
    (``tabletop_mc.jitcache.configure``), one per version of its kernel sources."""
    return real_dirs(root, re.compile(rf"^{re.escape(package)}-[0-9a-f]{{16}}$").match)


def kernels_in(top: list) -> Owned:
    """The compiled kernels in the folders ``top`` (``kernel_folders``), and those folders."""
    found = [owned_in(real_dirs(t, _LOCATOR_DIR.match), is_kernel_file) for t in top]
    strays = sum(1 for t in top for e in entries(t) if not (_LOCATOR_DIR.match(e.name)
                                                           and e.is_dir(follow_symlinks=False)))
    own = merge(*found)
    return Owned(own.files, own.folders + list(top), own.others + strays)


def owned_kernels(root, package: str) -> Owned:
    """The compiled kernels of ``package`` under the kernel cache ``root``: the files of all its
    ``PACKAGE-<source hash>`` folders and those folders."""
    return kernels_in(kernel_folders(root, package))


UNUSED_DAYS = 30
KEPT = f"a folder per version of the kernel sources; one that no run has used for {UNUSED_DAYS} days is removed"


def drop_unused_versions(root, package: str, current, days: float = UNUSED_DAYS, now: float | None = None) -> int:
    """Mark ``current`` (this version's folder) used, and remove the compiled kernels of
    ``package``'s other versions (other kernel sources: an upgrade, an edit) that no process
    has used for ``days``; only files ``cache clear`` would remove. Each version's folder holds
    tens of MB (77 MB with every kernel compiled), and nothing else removed an old one.
    Returns the folders emptied."""
    try:
        os.utime(current)
    except OSError:
        pass
    now = time.time() if now is None else now
    stale = []
    for top in kernel_folders(root, package):
        try:
            if top != Path(current) and now - top.stat().st_mtime > days * 86400.0:
                stale.append(top)
        except OSError:
            continue
    for top in stale:
        remove_owned(kernels_in([top]))
    return len(stale)
