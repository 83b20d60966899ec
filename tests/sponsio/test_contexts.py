"""Kernel contexts (``sponsio_sim.kernels.contexts``): why a parallel kernel hands a
context to a worker function instead of reading it in its loop body, and that the
advice kernels that write through contexts from parallel loops do fill them."""

from collections import namedtuple

import numba as nb
import numpy as np

Out = namedtuple("Out", ["a", "b"])


@nb.njit
def _write(out, i):
    out.a[i] = i + 1.0
    out.b[i] = 7


@nb.njit(parallel=True)
def _through_worker(out):
    for i in nb.prange(out.a.shape[0]):
        _write(out, i)


@nb.njit(parallel=True)
def _in_body(out):
    a, b = out
    for i in nb.prange(4):
        a[i] = i + 1.0
        b[i] = 7


def test_a_context_written_through_a_worker_keeps_the_writes():
    out = Out(np.zeros(4), np.zeros(4, dtype=np.int64))
    _through_worker(out)
    assert out.a.tolist() == [1.0, 2.0, 3.0, 4.0] and out.b.tolist() == [7] * 4


def test_numba_loses_writes_to_a_context_unpacked_in_the_parallel_function():
    """The hazard the rule avoids; if a numba release fixes it, this test says so."""
    out = Out(np.zeros(4), np.zeros(4, dtype=np.int64))
    _in_body(out)
    assert not out.a.any()
