"""A command's first run compiles on two cores: a helper process takes part of the kernels.

numba compiles on one core, and a command's first run after an install is
mostly compiling (a whole Sponsio game: 137 functions, about 40 s on one
core). A compile plan (``tabletop_mc.compileplan``, recorded from a cold run
by ``scripts/make_compile_plans.py`` and shipped in the package) names the
kernels a second process can compile meanwhile: whole subtrees of the
command's call graph that the command reaches last, in the order it will
need them. ``begin(package, name)``, called as a command begins (by a CLI's
root group, ``clitools.LazyGroup``'s ``warm``, before the command's module is
imported), starts ``python -m tabletop_mc.warmup PLAN STATUS`` when some of
those kernels are not in the on-disk cache yet and the cache can be written.
The helper compiles them and saves each to the cache; numba looks in the
cache before it compiles a signature, so the command then loads what the
helper has finished (the cache is safe for several processes at once:
``tabletop_mc.kernelfiles``). Where the command misses a kernel inside the
entry the helper is compiling at that moment (``STATUS``), it waits for it
rather than compile it twice; the helper in turn waits for the kernels an
entry calls that the command compiles first.

Nothing depends on the helper: a plan that is missing, stale (a kernel
renamed, a signature changed) or unreadable, or a helper slower than the
command, only means the command compiles that kernel itself, as it always
did; the same machine code either way, so no number changes. The helper
runs at a lower priority, prints nothing, and stops when the command ends
(at once, its compile abandoned: every cache file is written whole or not at
all, ``tabletop_mc.atomic``), or before its next entry if the command was
killed.

Off with ``TABLETOP_COMPILE_HELPER=0``, on a machine with one core, and under
the test suite (``tests/conftest.py``: its workers already fill the cores).
"""

from __future__ import annotations

import atexit
import importlib
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tabletop_mc.atomic import write_bytes_atomic

FORMAT = "tabletop-compile-plan/1"
ENV = "TABLETOP_COMPILE_HELPER"
NICE = 5   # the command's own compiles come first when the machine is busy
WAIT_S = 60.0   # the longest a command waits for one entry (one subtree) of its helper


def plan_path(package: str, name: str) -> Path:
    """Where ``package`` ships its plan ``name``: ``<package>/plans/<name>.plan``."""
    return Path(importlib.import_module(package).__file__).resolve().parent / "plans" / f"{name}.plan"


def load_plan(path: str | Path) -> dict | None:
    """The plan in ``path`` (``compileplan.write_plan``'s dict), or None where it is missing, unreadable,
    of another format, or names types this numba cannot read back (a plan recorded by another numba)."""
    try:
        with open(path, "rb") as f:
            plan = pickle.load(f)
    except Exception:
        return None
    if not isinstance(plan, dict) or plan.get("format") != FORMAT:
        return None
    return plan


def resolve(module: str, qualname: str):
    """The numba dispatcher ``module.qualname`` (a batch function's ``kernel`` where it names one),
    or None where the name no longer exists or is not a dispatcher."""
    try:
        obj = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except Exception:
        return None
    obj = getattr(obj, "kernel", obj)
    return obj if hasattr(obj, "compile") and hasattr(obj, "overloads") else None


def enabled() -> bool:
    """May a command start a helper here? Not when ``TABLETOP_COMPILE_HELPER=0``, with one core,
    or with JIT off."""
    if os.environ.get(ENV, "1").strip() in ("0", "", "no", "off"):
        return False
    import numba
    return (os.cpu_count() or 1) >= 2 and not numba.config.DISABLE_JIT


def cold(plan: dict) -> bool:
    """Is any of the plan's kernels neither compiled in this process nor in the on-disk cache (no
    index)? Only then is a helper worth starting."""
    from tabletop_mc.jitcache import needs_compile
    for module, qualname, *_ in plan["entries"]:
        disp = resolve(module, qualname)
        if disp is not None and needs_compile(disp):
            return True
    return False


@dataclass
class Helper:
    """A running helper: its process, its plan, and the file where it says which entry it is compiling."""
    proc: subprocess.Popen
    plan: dict
    status: Path

    def compiling(self) -> int:
        """The plan entry the helper is compiling now, or -1 (not begun, finished, or gone)."""
        if self.proc.poll() is not None:
            return -1
        try:
            return int(self.status.read_text() or -1)
        except (OSError, ValueError):
            return -1

    def wait_for(self, module: str, qualname: str, limit: float = WAIT_S) -> bool:
        """If the helper is compiling the entry whose subtree holds ``module.qualname``, wait until
        it has moved on (saved it) and return True; False at once otherwise."""
        k = self.compiling()
        if k < 0 or [module, qualname] not in [list(m) for m in self.plan["entries"][k][3]]:
            return False
        until = time.monotonic() + limit
        while self.compiling() == k and time.monotonic() < until:
            time.sleep(0.01)
        return True


_helpers: list[Helper] = []
_installed: list[bool] = []
_begun: set[tuple[str, str]] = set()


def cache_writable() -> bool:
    """Can compiled kernels be saved (``jitcache.configure`` points numba at the folder)? Where
    they cannot, a helper's compiles would be lost with it."""
    import numba
    folder = numba.config.CACHE_DIR
    if not folder:
        return False
    try:
        os.makedirs(folder, exist_ok=True)   # as numba's first save would
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def begin(package: str, name: str) -> Helper | None:
    """Start the helper for ``package``'s plan ``name`` if it would help (module docstring); the
    helper, or None. Never raises: the helper only ever saves time."""
    try:
        if not enabled() or (package, name) in _begun:
            return None
        _begun.add((package, name))
        path = plan_path(package, name)
        plan = load_plan(path)
        if plan is None or not plan["entries"] or not cold(plan) or not cache_writable():
            return None
        fd, status = tempfile.mkstemp(prefix="tabletop-warmup-", suffix=".status")
        os.close(fd)
    except Exception:
        return None
    try:
        proc = subprocess.Popen([sys.executable, "-m", "tabletop_mc.warmup", str(path), status],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=dict(os.environ, **{ENV: "0"}))
    except Exception:
        Path(status).unlink(missing_ok=True)   # no helper: its status file goes too
        return None
    if not _installed:
        atexit.register(end_helpers)
        _wait_on_misses()
        _installed.append(True)
    helper = Helper(proc, plan, Path(status))
    _helpers.append(helper)
    return helper


def _wait_on_misses() -> None:
    """Make a cache miss wait for a helper compiling that kernel, then look again (``Helper.wait_for``):
    compiling it here as well would only duplicate the helper's work."""
    from numba.core import caching
    original = caching.Cache.load_overload

    def load_overload(self, sig, target_context):
        found = original(self, sig, target_context)
        if found is None:
            func = self._py_func
            if any(h.wait_for(func.__module__, func.__qualname__) for h in list(_helpers)):
                found = original(self, sig, target_context)
        return found

    load_overload.lean = getattr(original, "lean", False)   # jitcache.lean_cache_loads: already lean
    caching.Cache.load_overload = load_overload


def end_helpers() -> None:
    """Stop the helpers this process started (at exit: what they have not compiled yet, this
    command did not need). It abandons the compile under way (``_stop``)."""
    while _helpers:
        helper = _helpers.pop()
        if helper.proc.poll() is None:
            helper.proc.terminate()
            try:
                helper.proc.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass   # it is leaving; nothing waits for it
        try:
            helper.status.unlink()
        except OSError:
            pass


_stopping: list[bool] = []


def run_plan(path: str | Path, status: str | Path | None = None) -> int:
    """The helper: compile the plan's kernels in order, each saved to the on-disk cache as numba
    compiles it (a kernel already there is loaded instead), writing the entry under way to
    ``status`` (nothing between entries, while it waits for the command's kernels too, so the
    command never waits on it then). Told to stop (``_stop``), it stops at once; once the command
    is gone (killed), before its next entry. Returns how many it compiled or loaded."""
    plan = load_plan(path)
    if plan is None:
        return 0
    done = 0
    parent = os.getppid()
    for k, (module, qualname, args, _, after) in enumerate(plan["entries"]):
        if _stopping or os.getppid() != parent:   # told to stop, or the command is gone (killed)
            break
        disp = resolve(module, qualname)
        if disp is None:
            continue
        await_kernels(after)
        try:
            _say(status, str(k))
            disp.compile(pickle.loads(args))
            done += 1
        except Exception:
            pass   # a stale signature: the command compiles what it needs itself
        finally:
            _say(status, "")   # between entries (waiting for the command's kernels too): nothing to wait for
    return done


def _say(status: str | Path | None, text: str) -> None:
    """Write the entry under way ("" for none) where the command reads it (``Helper.compiling``)."""
    if status:
        try:
            write_bytes_atomic(Path(status), text.encode())
        except OSError:
            pass


def await_kernels(keys, limit: float = WAIT_S) -> None:
    """Wait until the command has compiled (and saved) the kernels ``keys`` that an entry calls
    outside its own subtree, so the helper does not compile them beside it; at most ``limit``
    seconds, and not once told to stop or once the command is gone."""
    from tabletop_mc.jitcache import needs_compile
    waiting = [d for d in (resolve(m, q) for m, q in keys) if d is not None]
    until = time.monotonic() + limit
    parent = os.getppid()
    while waiting and not _stopping and os.getppid() == parent and time.monotonic() < until:
        waiting = [d for d in waiting if needs_compile(d)]
        if waiting:
            time.sleep(0.05)


def _stop(signum, frame):
    """SIGTERM (the command has ended): leave now, the compile under way abandoned. Cache files are
    written to a temporary name and moved into place, so one being written is left out whole, and
    the index names an object file only once it is saved (``tabletop_mc.kernelfiles``)."""
    _stopping.append(True)
    raise SystemExit(0)


def option_value(args: list[str], option: str) -> str | None:
    """The value given to ``option`` in a command's raw arguments (``--opt V`` or ``--opt=V``), or None:
    a command line's plan is chosen before click parses it."""
    for i, a in enumerate(args):
        if a == option and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(option + "="):
            return a[len(option) + 1:]
    return None


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop)
    try:
        os.nice(NICE)
    except OSError:
        pass
    run_plan(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
