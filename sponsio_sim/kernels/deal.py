"""Conditional deal: fixed cards stay put, hidden slots are dealt uniformly."""

import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import next_u64
from sponsio_sim.kernels.bits import bit

_LOW32 = np.uint64(0xFFFFFFFF)


@no_refcount
def deal(state, pool, fixed, need, talon_fixed, talon_need, hands):
    """Deal ``pool`` (hidden card ids, shuffled in place) over the hidden slots.

    Seat ``s`` gets ``fixed[s]`` plus ``need[s]`` pool cards; the talon gets
    ``talon_fixed`` plus ``talon_need`` pool cards. ``len(pool)`` equals the
    number of hidden slots. Each 64-bit draw gives two 32-bit multiply-shift
    indices (the same method and bias bound as ``tabletop_mc.rng.randbelow``). The in-place shuffle keeps ``pool`` a uniform
    permutation, so it need not be reset between rounds. Returns the talon mask.
    """
    n = pool.shape[0]
    i = 0
    while i < n - 2:
        # one 64-bit draw serves two steps: its high and low 32 bits
        r = next_u64(state)
        j = i + np.int64(((r >> np.uint64(32)) * np.uint64(n - i)) >> np.uint64(32))
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
        j = i + 1 + np.int64(((r & _LOW32) * np.uint64(n - i - 1)) >> np.uint64(32))
        t = pool[i + 1]
        pool[i + 1] = pool[j]
        pool[j] = t
        i += 2
    if i == n - 2:
        j = i + np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(2)) >> np.uint64(32))
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
    pos = 0
    for s in range(hands.shape[0]):
        h = fixed[s]
        for _ in range(need[s]):
            h |= bit(pool[pos])
            pos += 1
        hands[s] = h
    talon = talon_fixed
    for _ in range(talon_need):
        talon |= bit(pool[pos])
        pos += 1
    return talon

