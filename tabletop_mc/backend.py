"""Where batches of chunks run: this process (numba threads) or a Dask cluster.

A batch is ``batch_fn(first_chunk, counts)``: chunk ``first_chunk + i``
draws from its own seeded stream, so splitting a batch into tasks and
summing their integer statistics gives exactly the local result. On Dask,
each task runs the numba kernel over a contiguous run of chunks and returns
its sufficient statistics; every worker warms its JIT once, on its first
task of the session.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import warnings
from typing import Callable

import numpy as np

from tabletop_mc.errors import RunError, UserError
from tabletop_mc.rng import seed_key


class KernelBatch:
    """A picklable batch function: ``module.kernel(seed, first, counts, *args)``.

    Workers import the kernel by name, so they use its on-disk JIT cache
    rather than a pickled copy of the dispatcher that would compile anew.
    """

    def __init__(self, module: str, kernel: str, seed: int, *args):
        self.module, self.kernel, self.seed, self.args = module, kernel, seed, args
        self.kernel_name = f"{module}.{kernel}"

    def cache_key(self, *extra) -> str:
        """A key naming everything that fixes this batch's numbers (see ``tabletop_mc.resultcache``);
        ``extra`` should name the kernel sources' version and the chunk size."""
        from tabletop_mc.resultcache import config_key
        return config_key(self.kernel_name, self.seed, *self.args, *extra)

    def needs_compile(self) -> bool:
        """Will the first batch compile the kernel (see ``tabletop_mc.jitcache.needs_compile``)?"""
        from tabletop_mc.jitcache import needs_compile
        return needs_compile(getattr(importlib.import_module(self.module), self.kernel))

    def __call__(self, first: int, counts: np.ndarray) -> np.ndarray:
        func = getattr(importlib.import_module(self.module), self.kernel)
        return func(seed_key(self.seed), np.int64(first), counts, *self.args)


def combine(part: np.ndarray, n_chunks: int) -> np.ndarray:
    """Sum per-chunk statistics (chunks on axis 0) into one array."""
    part = np.asarray(part)
    if part.ndim > 1 and part.shape[0] == n_chunks:
        return part.sum(axis=0)
    return part


class LocalBackend:
    """Run batches here; the kernel spreads chunks over threads (``tabletop_mc.spans``)."""

    name = "local"

    def run_batch(self, batch_fn: Callable, first: int, counts: np.ndarray) -> np.ndarray:
        return combine(batch_fn(first, counts), len(counts))

    def close(self) -> None:
        pass


def _task(batch_fn, first, counts, threads=None):
    """One task on a worker: the kernel over a run of chunks, with ``threads``
    numba threads (numba's thread count is per calling thread, so it is set
    here, in the thread that runs the task)."""
    if threads:
        import numba
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    return batch_fn(first, counts)


def local_share(workers: int) -> int:
    """numba threads per local worker process: its share of this machine's cores."""
    import numba
    return max(1, numba.config.NUMBA_NUM_THREADS // max(1, int(workers)))


class DaskBackend:
    """Run batches as tasks on a Dask distributed cluster."""

    name = "dask"

    def __init__(self, client, cluster=None, tasks_per_worker: int = 4, threads_per_task: int | None = None,
                 address: str | None = None):
        self.client = client
        self.address = address
        self.cluster = cluster
        self.tasks_per_worker = tasks_per_worker
        self.threads_per_task = threads_per_task
        self._warm: set = set()

    def _workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def run_batch(self, batch_fn: Callable, first: int, counts: np.ndarray) -> np.ndarray:
        n_chunks = len(counts)
        kernel = getattr(batch_fn, "kernel_name", None) or getattr(batch_fn, "__qualname__", "")
        try:
            if kernel not in self._warm:
                # Every worker compiles (or loads from its cache) the kernels once; a worker lost
                # meanwhile is skipped (its tasks go to the others, as for any task it held).
                self.client.run(_task, batch_fn, 0, np.zeros(1, dtype=np.int64), on_error="ignore")
                self._warm.add(kernel)
            n_tasks = max(1, min(n_chunks, self._workers() * self.tasks_per_worker))
            bounds = np.linspace(0, n_chunks, n_tasks + 1).astype(int)
            futures = [self.client.submit(_task, batch_fn, first + int(a), counts[a:b], self.threads_per_task,
                                          pure=False)
                       for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
            parts = [np.asarray(p) for p in self.client.gather(futures)]
        except Exception as exc:
            if not _lost_cluster(exc):
                raise
            raise RunError(f"lost the Dask cluster{' at ' + self.address if self.address else ''} mid-run "
                           f"({type(exc).__name__}); the batches finished so far resume on the next run where "
                           "the command keeps them (balance, recommend)") from None
        # Tasks return per-chunk rows; stacked in chunk order they are the very array a
        # local run reduces, so float sums add in the same order: the same bits.
        if all(p.ndim > 1 for p in parts) and sum(len(p) for p in parts) == n_chunks:
            return combine(np.concatenate(parts), n_chunks)
        return np.sum(parts, axis=0)  # already-summed statistics (integers: exact in any order)

    def close(self) -> None:
        with _quiet_dask():
            self.client.close(timeout=CONNECT_TIMEOUT)
            if self.cluster is not None:
                self.cluster.close(timeout=CONNECT_TIMEOUT)


def _lost_cluster(exc: BaseException) -> bool:
    """Did this error come from losing the scheduler or every worker (not from the task)?"""
    if isinstance(exc, (OSError, TimeoutError)):
        return True
    return type(exc).__name__ in ("KilledWorker", "FutureCancelledError", "CancelledError")


CONNECT_TIMEOUT = 10.0   # seconds to reach a scheduler, whatever answers at its address
MAX_HANDSHAKE = 1 << 20  # a scheduler's first message is a few hundred bytes
_ADDRESS = re.compile(r"(?:tcp://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.\-_]*):([0-9]+)/?")


def parse_scheduler(text: str) -> tuple[str, str, int]:
    """``tcp://HOST:PORT`` (``HOST:PORT`` too) as (address, host, port); a UserError otherwise."""
    m = _ADDRESS.fullmatch(str(text).strip())
    if not m:
        raise UserError(f"--scheduler {text}: expected tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786")
    host, port = m.group(1), int(m.group(2)[:6])
    if not 1 <= port <= 65535:
        raise UserError(f"--scheduler {text}: port {m.group(2)} is not 1..65535")
    return f"tcp://{host}:{port}", host.strip("[]"), port


def probe_scheduler(text: str, timeout: float | None = None) -> str:
    """Check, within ``timeout`` seconds in all, that a Dask scheduler answers at ``text``
    (it speaks first on a new connection: a length-prefixed handshake); return the
    address. Anything else (nothing listening, an HTTP server, a silent or
    garbage-sending socket) is one UserError line."""
    import socket
    import struct
    import time
    address, host, port = parse_scheduler(text)
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    deadline = time.monotonic() + timeout

    def fail(why: str):
        raise UserError(f"--scheduler {text}: {why}")

    def left() -> float:
        rest = deadline - time.monotonic()
        if rest <= 0:
            fail(f"no Dask scheduler answered within {timeout:g} s")
        return rest

    def recv(sock, n: int) -> bytes:
        data = b""
        while len(data) < n:
            sock.settimeout(left())
            chunk = sock.recv(min(n - len(data), 65536))
            if not chunk:
                fail("the connection was closed before a Dask handshake (not a Dask scheduler?)")
            data += chunk
        return data

    try:
        with socket.create_connection((host, port), timeout=left()) as sock:
            size = struct.unpack("<Q", recv(sock, 8))[0]
            if not 0 < size <= MAX_HANDSHAKE:
                fail("what answers there does not speak Dask's protocol (not a Dask scheduler?)")
            if b"compression" not in recv(sock, size):
                fail("what answers there is not a Dask scheduler")
    except UserError:
        raise
    except socket.timeout:
        fail(f"no Dask scheduler answered within {timeout:g} s")
    except OSError as exc:
        fail(f"cannot connect ({exc.strerror or exc})")
    return address


def connect(text: str, timeout: float | None = None):
    """A distributed ``Client`` of the scheduler at ``text`` (``probe_scheduler`` first),
    connected within ``timeout`` seconds or a UserError line."""
    import threading
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    address = probe_scheduler(text, timeout)
    from distributed import Client
    result: dict = {}

    def attempt():
        try:
            with _dask_logs_muted():
                result["client"] = Client(address, timeout=timeout)
        except BaseException as exc:  # noqa: BLE001 - reported below, in the caller's thread
            result["error"] = exc

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout + 5)
    if "client" in result:
        return result["client"]
    why = result.get("error")
    raise UserError(f"--scheduler {text}: cannot connect ("
                    + (f"{type(why).__name__}: {' '.join(str(why).split())[:160]}" if why else
                       f"no answer within {timeout:g} s") + ")")


_current = LocalBackend()


def current():
    """The backend batches run on now (local unless inside ``use_backend``)."""
    return _current


@contextlib.contextmanager
def use_backend(scheduler: str | None = None, workers: int | None = None):
    """Run the enclosed simulations on Dask: an existing cluster at
    ``scheduler`` (``tcp://HOST:PORT``) or a local one with ``workers``
    single-threaded worker processes. With neither, run locally."""
    global _current
    if scheduler is None and not workers:
        yield _current
        return
    if scheduler is not None and workers:
        raise UserError("--scheduler and --workers exclude each other (connect, or start a local cluster)")
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - depends on the install
        raise UserError("Dask is not installed: pip install -e '.[dask]'") from None
    cluster = None
    share = None
    try:
        if scheduler is not None:
            client = connect(scheduler)
        else:
            if workers < 1:
                raise UserError(f"--workers {workers}: must be at least 1")
            share = local_share(workers)
            # Start-up ignores Ctrl-C (a half-started cluster would be left to atexit hooks);
            # once running, an interrupt closes everything quietly (below).
            with _workers_ignore_sigint(), _worker_log_level("critical"), warnings.catch_warnings():
                # another cluster on this machine holds Dask's default HTTP port: Dask takes
                # another one and says so in three lines, which are not the user's concern
                warnings.filterwarnings("ignore", message=r"Port \d+ is already in use")
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None, host="127.0.0.1")
                client = Client(cluster)
    except (OSError, TimeoutError) as exc:
        raise UserError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
    backend = DaskBackend(client, cluster, threads_per_task=share, address=scheduler)
    previous, _current = _current, backend
    try:
        with _dask_logs_muted():
            yield backend
    except BaseException:
        # Interrupted or failed: close the cluster without its shutdown chatter
        # (the CLI prints one line); the error itself goes on up.
        _current = previous
        _mute_dask_logs()   # for good: a broken cluster's clients log their retries until exit
        with _workers_ignore_sigint(), _quiet_dask():  # a second Ctrl-C must not break the close
            backend.close()
        raise
    _current = previous
    backend.close()


@contextlib.contextmanager
def _workers_ignore_sigint():
    """Ignore SIGINT in this block. Worker processes started in it inherit that: a
    Ctrl-C reaches this process alone, which closes the cluster, instead of every
    worker printing a traceback."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def _worker_log_level(level: str):
    """Worker processes started in this block log only ``level`` and above (their
    warnings about tasks cancelled by an interrupt, and the errors of a heartbeat
    that a closing or busy scheduler misses, are noise: a task's own failure reaches
    the client, which says it in one line); a level the user set through
    ``DASK_LOGGING__DISTRIBUTED`` wins."""
    import os
    key = "DASK_LOGGING__DISTRIBUTED"
    had = key in os.environ
    os.environ.setdefault(key, level)
    try:
        yield
    finally:
        if not had:
            os.environ.pop(key, None)


_DASK_LOGGERS = ("distributed", "tornado", "asyncio")


def _mute_dask_logs() -> dict[str, int]:
    """Mute the distributed, tornado and asyncio loggers of this process (a lost worker's
    WARNING lines, a closing cluster's chatter: the CLI says what matters in one line),
    unless the user set a level through ``DASK_LOGGING__DISTRIBUTED``; returns the levels
    they had."""
    import logging
    import os
    names = [n for n in list(logging.root.manager.loggerDict)
             if n in _DASK_LOGGERS or n.startswith(tuple(f"{p}." for p in _DASK_LOGGERS))]
    loggers = [logging.getLogger(n) for n in dict.fromkeys([*_DASK_LOGGERS, *names])]
    levels = {lg.name: lg.level for lg in loggers}   # children have levels of their own (Dask's config)
    if not os.environ.get("DASK_LOGGING__DISTRIBUTED"):
        for lg in loggers:
            lg.setLevel(logging.CRITICAL + 1)
    return levels


@contextlib.contextmanager
def _dask_logs_muted():
    """``_mute_dask_logs`` in this block."""
    import logging
    levels = _mute_dask_logs()
    try:
        yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


@contextlib.contextmanager
def _quiet_dask():
    """Muted, and errors ignored: for closing a cluster while interrupted."""
    with _dask_logs_muted():
        try:
            yield
        except Exception:  # pragma: no cover - best effort while interrupted
            pass
