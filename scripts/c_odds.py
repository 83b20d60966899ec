#!/usr/bin/env python
"""The C reference of the random-play odds loop (scripts/c/odds_random.c), from Python.

``build()`` compiles it with scripts/c/build.sh into a temporary folder and
loads it with ctypes (the standard library's foreign-function interface: no
build system or extension module to maintain for one benchmark function);
``random_chunks`` runs it on the same arguments as the numba kernel
``sponsio_sim.kernels.odds.simulate.odds_chunks`` (every seat on ``random``)
and returns the same per-chunk count rows. scripts/bench_sponsio.py times
both; run alone, this checks that they agree on a small case:

    python scripts/c_odds.py            # build, run 8 chunks both ways, compare
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np

BUILD = Path(__file__).resolve().parent / "c" / "build.sh"
_I64P = np.ctypeslib.ndpointer(dtype=np.int64, flags="C_CONTIGUOUS")
_U64P = np.ctypeslib.ndpointer(dtype=np.uint64, flags="C_CONTIGUOUS")
_I64, _U64 = ctypes.c_int64, ctypes.c_uint64


class NoCompiler(RuntimeError):
    """scripts/c/build.sh found no C compiler, or the build failed."""


def build(out_dir: str | None = None, cflags: str | None = None) -> ctypes.CDLL:
    """Compile odds_random.c (scripts/c/build.sh; ``cflags`` replaces its flags) and load it."""
    out = Path(out_dir or tempfile.mkdtemp(prefix="sponsio-c-odds-")) / "odds_random.so"
    env = dict(os.environ, **({"CFLAGS": cflags} if cflags else {}))
    proc = subprocess.run(["sh", str(BUILD), str(out)], capture_output=True, text=True, env=env)
    if proc.returncode:
        raise NoCompiler(proc.stderr.strip() or f"build.sh exited {proc.returncode}")
    lib = ctypes.CDLL(str(out))
    lib.odds_random_chunks.restype = ctypes.c_int
    lib.odds_random_chunks.argtypes = [_U64, _I64, _I64P, _I64, _I64P, _I64, _U64P, _I64P, _I64, _U64, _I64, _U64,
                                       _I64, _I64, _I64P, _I64, _I64P, _I64, _I64, _I64P, _I64, _I64P]
    return lib


def random_chunks(lib: ctypes.CDLL, seed, first_chunk, counts, conditions, query, slots, n_stats) -> np.ndarray:
    """``odds_chunks(seed, first_chunk, counts, conditions, query, policy, slots, n_stats, stop)`` with
    every seat on ``random``, run by the C loop on this thread: the per-chunk count rows."""
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    codes = np.ascontiguousarray(query.codes, dtype=np.int64)
    out = np.empty((counts.shape[0], int(n_stats)), dtype=np.int64)
    rc = lib.odds_random_chunks(
        int(seed), int(first_chunk), counts, counts.shape[0],
        np.ascontiguousarray(conditions.pool, dtype=np.int64), conditions.pool.shape[0],
        np.ascontiguousarray(conditions.fixed, dtype=np.uint64), np.ascontiguousarray(conditions.need, dtype=np.int64),
        conditions.fixed.shape[0], int(conditions.talon_fixed), int(conditions.talon_need), int(conditions.revealed),
        int(query.ask), int(query.leader), codes, codes.shape[1], np.ascontiguousarray(query.bcounts, dtype=np.int64),
        int(query.n_colours), int(query.flags), np.ascontiguousarray(slots, dtype=np.int64), int(n_stats), out)
    if rc:
        raise ValueError("the C loop does not take this table (more than 6 seats, 8 bets or 4 colours)")
    return out


def random_args(hand: str, talon: str | None, bets: str | None, others: str | None = None, rules=None) -> tuple:
    """``odds_chunks``' arguments after (seed, first chunk, counts) for a query with every seat on ``random``."""
    from sponsio_sim.analysis.odds.query import kernel_args
    from sponsio_sim.rules import load_rules
    from sponsio_sim.situation import build_situation

    sit = build_situation(load_rules(rules), hand, talon, bets=bets, others=others)
    return kernel_args(sit, "random", "random")


def compare(args: tuple, seed: int = 7, chunks: int = 8, rounds: int = 512, lib: ctypes.CDLL | None = None) -> bool:
    """Do the numba kernel and the C loop give the same count rows for ``chunks`` chunks of ``rounds``?"""
    from sponsio_sim.kernels.odds.simulate import odds_chunks

    conditions, query, policy, slots, n_stats, stop = args
    counts = np.full(chunks, rounds, dtype=np.int64)
    want = odds_chunks(np.uint64(seed), np.int64(0), counts, *args)
    got = random_chunks(lib or build(), seed, 0, counts, conditions, query, slots, n_stats)
    return bool(np.array_equal(want, got))


if __name__ == "__main__":
    cases = [("R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7", "tricks=2", None),
             ("R9 R7 R2 B8 B5 G6 G1 Y3", None, "tricks=2,colour:R=2,last,nines,fail:1", "1:tricks=3; 2:fail:3"),
             ("R9 R7 R2 B8 B5 G6 G1 Y3", None, None, None)]
    lib = build()
    for case in cases:
        same = compare(random_args(*case), lib=lib)
        print(f"{'same' if same else 'DIFFERENT'}: hand {case[0]}, talon {case[1]}, bets {case[2]}, others {case[3]}")
        if not same:
            raise SystemExit(1)
