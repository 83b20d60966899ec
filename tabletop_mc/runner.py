"""Chunked, seeded, parallel Monte Carlo runs with adaptive stopping.

A simulation is split into chunks of ``chunk_size`` rounds. Chunk ``c`` of a
run with seed ``s`` always draws from random stream ``(s, c)`` (see
``tabletop_mc.rng``) and kernels return additive sufficient statistics (counts,
sums), so the totals are the same whatever the thread count, batch size or
machine that ran a chunk. Batches of chunks go to a numba kernel that runs
its chunks on threads (``tabletop_mc.spans``); between batches the runner updates the progress
bar and asks the caller's ``stop`` rule whether the intervals are narrow
enough. Batch boundaries depend only on chunk indices, so adaptive stopping
is reproducible too.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable, Iterator

import numba as nb
import numpy as np

from tabletop_mc.backend import combine, current as current_backend
from tabletop_mc.progress import Progress
from tabletop_mc.resultcache import ResultCache

DEFAULT_CHUNK = 2048
FIRST_BATCH_CHUNKS = 8
MIN_BATCH_CHUNKS = 2
MAX_BATCH_CHUNKS = 256


def derive_seed(seed: int, *keys) -> int:
    """A 63-bit seed derived from ``seed`` and any labels (stable across runs)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(str(int(seed)).encode())
    for key in keys:
        h.update(b"\x00" + str(key).encode())
    return int.from_bytes(h.digest(), "little") >> 1


def chunk_counts(n: int, chunk_size: int, lo: int = 0, hi: int | None = None) -> np.ndarray:
    """Rounds per chunk for chunks ``lo..hi-1`` of a run of exactly ``n`` rounds
    (all chunks by default); only the asked-for chunks are allocated."""
    n, chunk_size = int(n), int(chunk_size)
    total = -(-n // chunk_size)
    hi = total if hi is None else min(int(hi), total)
    lo = min(int(lo), hi)
    counts = np.full(hi - lo, chunk_size, dtype=np.int64)
    if hi == total and hi > lo and n % chunk_size:
        counts[-1] = n % chunk_size
    return counts


def set_threads(threads: int | None) -> int:
    """Set numba's thread count (``None`` = all cores); return what is in force."""
    if threads:
        nb.set_num_threads(max(1, min(int(threads), nb.config.NUMBA_NUM_THREADS)))
    else:
        nb.set_num_threads(nb.config.NUMBA_NUM_THREADS)
    return nb.get_num_threads()


@dataclass
class RunResult:
    """What a run produced: summed statistics and the rounds behind them."""

    totals: np.ndarray
    rounds: int
    chunks: int
    stopped_early: bool


BatchFn = Callable[[int, np.ndarray], np.ndarray]


def run_chunked(batch_fn: BatchFn, n: int, **settings) -> RunResult:
    """Run up to ``n`` rounds through ``batch_fn`` and sum its statistics:
    ``chunked_steps`` (its keywords) to the end."""
    return last_step(chunked_steps(batch_fn, n, **settings))


def last_step(steps: Iterator[RunResult]) -> RunResult:
    """The last of a run's steps (``chunked_steps``): the whole run's result."""
    res = None
    for res in steps:
        pass
    return res


def chunked_steps(
    batch_fn: BatchFn,
    n: int,
    *,
    chunk_size: int = DEFAULT_CHUNK,
    stop: Callable[[np.ndarray, int], bool] | None = None,
    needed: Callable[[np.ndarray, int], float] | None = None,
    progress: Progress | None = None,
    first_batch: int = FIRST_BATCH_CHUNKS,
    cache: ResultCache | None = None,
    preview: int = 0,
) -> Iterator[RunResult]:
    """Run up to ``n`` rounds through ``batch_fn``, summing its statistics,
    one batch at a time: yields the result so far after each batch (the
    last is the run's; ``run_chunked`` runs to it), for a caller that shows
    a result as it sharpens or runs several at once.

    ``batch_fn(first_chunk, counts)`` simulates ``len(counts)`` chunks, chunk
    ``first_chunk + i`` holding ``counts[i]`` rounds, and returns an array of
    per-chunk statistics with chunks on axis 0 (or already summed). ``stop``
    sees the running totals and rounds after each batch and may end the run;
    ``needed`` estimates the total rounds the run will need, which sizes the
    next batch (otherwise batches double). Batch sizes depend only on the
    totals so far, never on threads, so a seeded run is reproducible. With
    ``preview`` > 0 the first batch runs its first ``preview`` chunks on
    their own and yields them first: a first look sooner, with the same
    totals at every batch's end (chunk ``c`` draws stream ``(seed, c)``
    however the chunks are grouped)."""
    n_chunks = -(-int(n) // int(chunk_size))
    totals = None
    done = 0
    lo, size = 0, first_batch
    check = getattr(batch_fn, "needs_compile", None)
    if progress is not None and progress.enabled and check is not None and n_chunks and check():
        from tabletop_mc.jitcache import COMPILE_NOTE
        progress.note(COMPILE_NOTE)
    while lo < n_chunks:
        hi = min(n_chunks, lo + size)
        cuts = [lo, lo + preview, hi] if lo == 0 and 0 < preview < hi else [lo, hi]
        for a, b in zip(cuts, cuts[1:]):
            counts = chunk_counts(n, chunk_size, a, b)
            rounds = int(counts.sum())
            # a cached batch must also match the batches before it (shape and dtype)
            like = None if totals is None else (totals.shape, totals.dtype)
            part = cache.get(a, b, rounds, like) if cache is not None else None
            if part is None:
                part = current_backend().run_batch(batch_fn, a, counts)
                if cache is not None:
                    cache.put(a, b, rounds, part)
            totals = part if totals is None else totals + part
            done += rounds
            if progress is not None:
                progress.advance(rounds)
            if b < hi:
                yield RunResult(totals=totals, rounds=done, chunks=b, stopped_early=False)
        if stop is not None and hi < n_chunks and stop(totals, done):
            yield RunResult(totals=totals, rounds=done, chunks=hi, stopped_early=True)
            return
        yield RunResult(totals=totals, rounds=done, chunks=hi, stopped_early=False)
        if needed is not None:
            want = float(needed(totals, done)) * 1.05 - done
            size = int(min(MAX_BATCH_CHUNKS, max(MIN_BATCH_CHUNKS, np.ceil(want / chunk_size))))
        else:
            size = min(MAX_BATCH_CHUNKS, size * 2)
        lo = hi
    if totals is None:
        yield RunResult(totals=combine(batch_fn(0, np.zeros(0, dtype=np.int64)), 0), rounds=0, chunks=0,
                        stopped_early=False)
