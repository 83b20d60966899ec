"""Chunks on threads: a ``nogil`` kernel over spans of chunks, one Python thread per numba thread.

A batch kernel runs chunk ``first_chunk + i`` for every ``i`` of its
``counts``, each from its own random stream into its own output row, so any
split of the chunks over threads gives the same numbers. numba's
``parallel=True`` would do the split inside the kernel, but it compiles the
whole call tree twice more (the parallel loop's body becomes a separately
linked and optimised function, inside a host function that is linked and
optimised again) and runs numba's parallel-loop passes over it, all of it
time a new user waits for on a first run.

Here the kernel is an ordinary ``njit(nogil=True)`` function that runs a span
``lo..hi`` of the chunks, and ``each_span`` calls it from as many Python
threads as numba would use (``numba.get_num_threads()``, which a Dask task
sets per thread, ``tabletop_mc.backend``). The chunks are cut into a few
spans per thread, taken in turn as threads come free, so a slow span does
not leave a thread idle for long. ``on_threads`` runs one call per thread,
for kernels that share their items themselves (``tabletop_mc.workshare``).

The threads are kept (one pool per thread count; a forked child starts its
own). An error or an interrupt cancels the spans not yet started and waits
for the running ones.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Callable

import numba

SPANS_PER_THREAD = 4   # spans each thread takes on average (the balance of a batch of unequal chunks)

_POOLS: dict[int, ThreadPoolExecutor] = {}
_LOCK = threading.Lock()


def threads() -> int:
    """The threads a batch runs on: numba's thread count in the calling thread."""
    return max(1, int(numba.get_num_threads()))


def _forget_pools() -> None:
    """In a forked child: the parent's pools' threads do not exist there (a submit would wait
    for ever), so the child starts pools of its own."""
    global _LOCK
    _POOLS.clear()
    _LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools)


def _pool(n: int) -> ThreadPoolExecutor:
    with _LOCK:
        pool = _POOLS.get(n)
        if pool is None:
            pool = _POOLS[n] = ThreadPoolExecutor(n, thread_name_prefix=f"spans{n}")
        return pool


def spans(n: int, parts: int) -> list[tuple[int, int]]:
    """``0..n`` cut into ``parts`` (at most ``n``) contiguous spans of near-equal length."""
    parts = max(1, min(n, parts))
    bounds = [n * k // parts for k in range(parts + 1)]
    return [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def each_span(kernel: Callable[[int, int], None], n: int) -> None:
    """Call ``kernel(lo, hi)`` over spans covering chunks ``0..n``, on ``threads()`` threads
    (here, on this thread, when that is one). The kernel writes each chunk's own output."""
    k = threads()
    if k == 1 or n <= 1:
        if n > 0:
            kernel(0, n)
        return
    _wait([_pool(k).submit(kernel, lo, hi) for lo, hi in spans(n, k * SPANS_PER_THREAD)])


def on_threads(kernel: Callable[[], None]) -> None:
    """Call ``kernel()`` once on each of ``threads()`` threads (it takes its items from a
    ``tabletop_mc.workshare`` ticket until none is left)."""
    k = threads()
    if k == 1:
        kernel()
        return
    _wait([_pool(k).submit(kernel) for _ in range(k)])


def _wait(futures) -> None:
    """Wait for every call. On the first error (or an interrupt) the spans not yet started
    are cancelled and the running ones finish before it is raised: no call outlives the
    batch whose arrays it writes."""
    try:
        for f in futures:
            f.result()
    except BaseException:
        for f in futures:
            f.cancel()
        wait(futures)
        raise
