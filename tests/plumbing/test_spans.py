"""tabletop_mc.spans: chunks on threads give the numbers one thread gives."""

import os
import subprocess
import sys
import threading

import numba
import numpy as np
import pytest

from tabletop_mc.spans import each_span, on_threads, spans


@pytest.mark.parametrize("n,parts", [(0, 3), (1, 8), (7, 3), (8, 8), (100, 8), (5, 1)])
def test_spans_cover_every_chunk_once_in_order(n, parts):
    cut = spans(n, parts)
    assert [i for lo, hi in cut for i in range(lo, hi)] == list(range(n))
    assert len(cut) == min(n, parts)
    assert all(hi > lo for lo, hi in cut)


@numba.njit(nogil=True)
def _squares(lo, hi, out):
    for i in range(lo, hi):
        acc = 0
        for k in range(1000 * (i % 7 + 1)):   # unequal chunks
            acc += (k * i) % 13
        out[i] = acc


@pytest.mark.parametrize("threads", [1, 2])
def test_each_span_writes_every_chunk_as_one_thread_does(threads):
    want = np.zeros(57, dtype=np.int64)
    _squares(0, 57, want)
    got = np.zeros(57, dtype=np.int64)
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        each_span(lambda lo, hi: _squares(lo, hi, got), 57)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(got, want)


def test_on_threads_calls_once_per_thread_and_errors_surface():
    seen = []
    lock = threading.Lock()

    def work():
        with lock:
            seen.append(threading.get_ident())

    on_threads(work)
    assert len(seen) == numba.get_num_threads()

    def fail(lo, hi):
        raise ValueError(f"span {lo}..{hi}")

    with pytest.raises(ValueError, match="span"):
        each_span(fail, 10)


# run in a fresh interpreter: a test worker may hold other libraries' threads (JAX warns on fork)
_FORKED_CHILD = """
import os, signal, numpy as np
from tabletop_mc.spans import each_span
def squares(lo, hi, out):
    for i in range(lo, hi):
        out[i] = i * i
each_span(lambda lo, hi: None, 8)   # the parent has a pool now
pid = os.fork()
if pid == 0:   # the child: its spans must run (the parent's pool threads are not here)
    code = 1
    try:
        signal.alarm(60)
        got = np.zeros(16, dtype=np.int64)
        each_span(lambda lo, hi: squares(lo, hi, got), 16)
        code = 0 if list(got) == [i * i for i in range(16)] else 2
    finally:
        os._exit(code)
_, status = os.waitpid(pid, 0)
raise SystemExit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32", reason="fork")
def test_a_forked_child_runs_spans_on_pools_of_its_own():
    res = subprocess.run([sys.executable, "-c", _FORKED_CHILD], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
