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
from typing import Callable

import numpy as np

from tabletop_mc.errors import UserError
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
    """Run batches here; the kernel's ``prange`` spreads chunks over threads."""

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

    def __init__(self, client, cluster=None, tasks_per_worker: int = 4, threads_per_task: int | None = None):
        self.client = client
        self.cluster = cluster
        self.tasks_per_worker = tasks_per_worker
        self.threads_per_task = threads_per_task
        self._warm: set = set()

    def _workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def run_batch(self, batch_fn: Callable, first: int, counts: np.ndarray) -> np.ndarray:
        n_chunks = len(counts)
        kernel = getattr(batch_fn, "kernel_name", None) or getattr(batch_fn, "__qualname__", "")
        if kernel not in self._warm:
            # Every worker compiles (or loads from its cache) the kernels once.
            self.client.run(_task, batch_fn, 0, np.zeros(1, dtype=np.int64))
            self._warm.add(kernel)
        n_tasks = max(1, min(n_chunks, self._workers() * self.tasks_per_worker))
        bounds = np.linspace(0, n_chunks, n_tasks + 1).astype(int)
        futures = [self.client.submit(_task, batch_fn, first + int(a), counts[a:b], self.threads_per_task,
                                      pure=False)
                   for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
        parts = [np.asarray(p) for p in self.client.gather(futures)]
        # Tasks return per-chunk rows; stacked in chunk order they are the very array a
        # local run reduces, so float sums add in the same order: the same bits.
        if all(p.ndim > 1 for p in parts) and sum(len(p) for p in parts) == n_chunks:
            return combine(np.concatenate(parts), n_chunks)
        return np.sum(parts, axis=0)  # already-summed statistics (integers: exact in any order)

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


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
            client = Client(scheduler, timeout="10s")
        else:
            if workers < 1:
                raise UserError(f"--workers {workers}: must be at least 1")
            share = local_share(workers)
            # Start-up ignores Ctrl-C (a half-started cluster would be left to atexit hooks);
            # once running, an interrupt closes everything quietly (below).
            with _workers_ignore_sigint(), _worker_log_level("error"):
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None, host="127.0.0.1")
                client = Client(cluster)
    except (OSError, TimeoutError) as exc:
        raise UserError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
    backend = DaskBackend(client, cluster, threads_per_task=share)
    previous, _current = _current, backend
    try:
        yield backend
    except BaseException:
        # Interrupted or failed: close the cluster without its shutdown chatter
        # (the CLI prints one line); the error itself goes on up.
        _current = previous
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
    warnings about tasks cancelled by an interrupt are noise); a level the user set
    through ``DASK_LOGGING__DISTRIBUTED`` wins."""
    import os
    key = "DASK_LOGGING__DISTRIBUTED"
    had = key in os.environ
    os.environ.setdefault(key, level)
    try:
        yield
    finally:
        if not had:
            os.environ.pop(key, None)


@contextlib.contextmanager
def _quiet_dask():
    import logging
    loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    except Exception:  # pragma: no cover - best effort while interrupted
        pass
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)
