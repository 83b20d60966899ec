"""The atomic ticket counter hands every item to exactly one worker."""

import numba as nb
import numpy as np
import pytest

from tabletop_mc.workshare import new_ticket, take


def _share(n, workers, slow):
    ticket = new_ticket()
    who, times = _take_all(n, workers, slow, ticket)
    return who, times, ticket[0]


@nb.njit(parallel=True, cache=True)
def _take_all(n, workers, slow, ticket):
    """Each item's worker and how often it was taken; item 0 is slow, so a
    static split would leave its worker's other items waiting."""
    who = np.full(n, -1, dtype=np.int64)
    times = np.zeros(n, dtype=np.int64)
    for w in nb.prange(workers):
        while True:
            k = take(ticket)
            if k >= n:
                break
            acc = 0.0
            for j in range(slow if k == 0 else 10):
                acc += np.sqrt(j + acc * 1e-12)
            times[k] += 1 if acc >= 0 else 2
            who[k] = w
    return who, times


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n,workers", [(1, 1), (5, 8), (2000, 2), (2000, 64)])
def test_every_item_is_taken_exactly_once(threads, n, workers):
    before = nb.get_num_threads()
    nb.set_num_threads(min(threads, nb.config.NUMBA_NUM_THREADS))
    try:
        who, times, end = _share(n, workers, 2_000_000)
    finally:
        nb.set_num_threads(before)
    assert np.all(times == 1)
    assert np.all((who >= 0) & (who < workers))
    # each worker stops on the first ticket past the end
    assert n + 1 <= end <= n + workers


def test_two_threads_share_the_items_after_a_slow_one():
    if nb.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs two numba threads")
    before = nb.get_num_threads()
    nb.set_num_threads(2)
    try:
        who, _, _ = _share(400, 2, 50_000_000)
    finally:
        nb.set_num_threads(before)
    # whichever worker took the slow item 0 is held up by it, and the other takes most of the rest
    # (a static split would give each worker 200)
    assert np.sum(who != who[0]) > 300


def test_take_refuses_anything_but_an_int64_array():
    @nb.njit
    def bad(t):
        return take(t)

    with pytest.raises(nb.core.errors.TypingError):
        bad(np.zeros(1, dtype=np.int32))
