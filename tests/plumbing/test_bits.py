"""The shared bit primitives against plain-Python definitions."""

import numba as nb
import numpy as np
from hypothesis import given, settings, strategies as st

from tabletop_mc.bits import compress, compress_loop, highest, lowest, popcount, select, select_loop

masks = st.integers(min_value=0, max_value=2**64 - 1)


def _compress_reference(x, m):
    bits = [(x >> i) & 1 for i in range(64) if (m >> i) & 1]
    return sum(b << k for k, b in enumerate(bits))


@nb.njit(cache=True)
def _all(x, m, k):
    return popcount(x), lowest(x | np.uint64(1) << np.uint64(63)), highest(x | np.uint64(1)), \
        compress(x, m), compress_loop(x, m), select(x, k), select_loop(x, k)


@settings(deadline=None)  # the first example pays the JIT compile
@given(masks, masks, st.integers(min_value=0, max_value=63))
def test_bit_primitives_match_plain_python(x, m, k):
    pc, lo, hi, c, c_loop, sel, sel_loop = _all(np.uint64(x), np.uint64(m), np.int64(k))
    set_bits = [i for i in range(64) if (x >> i) & 1]
    assert sel == sel_loop == (set_bits[k] if k < len(set_bits) else 64)
    assert pc == bin(x).count("1")
    assert lo == ((x | 1 << 63) & -(x | 1 << 63)).bit_length() - 1
    assert hi == (x | 1).bit_length() - 1
    assert int(c) == int(c_loop) == _compress_reference(x, m)
