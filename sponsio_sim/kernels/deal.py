"""Conditional deal: fixed cards stay put, hidden slots are dealt uniformly."""

import numba as nb

from mcsim.rng import randbelow
from sponsio_sim.kernels.bits import bit


@nb.njit(cache=True)
def deal(state, pool, fixed, need, talon_fixed, talon_need, hands):
    """Deal ``pool`` (hidden card ids, shuffled in place) over the hidden slots.

    Seat ``s`` gets ``fixed[s]`` plus ``need[s]`` pool cards; the talon gets
    ``talon_fixed`` plus ``talon_need`` pool cards. ``len(pool)`` equals the
    number of hidden slots. The in-place shuffle keeps ``pool`` a uniform
    permutation, so it need not be reset between rounds. Returns the talon mask.
    """
    n = pool.shape[0]
    for i in range(n - 1):
        j = i + randbelow(state, n - i)
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

