"""Counter-seeded random streams for numba kernels.

Every chunk of a simulation owns its own xoshiro256** state, derived from
``(seed, chunk index)`` through the keyed splitmix64 finalizer
(``seed_state``). A chunk's numbers therefore depend only on the seed and
the chunk index, never on which thread runs it or in what order, so results
are identical on 1 or many threads and on Dask.
"""

import hashlib

import numba as nb
import numpy as np

from tabletop_mc.jitcache import configure_shared

configure_shared()   # the kernels below are cached keyed by their sources

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


_K0 = np.uint64(0x243F6A8885A308D3)  # keys: digits of pi
_K1 = np.uint64(0x13198A2E03707344)
_K2 = np.uint64(0xA4093822299F31D0)
_K3 = np.uint64(0x082EFA98EC4E6C89)


@nb.njit(cache=True)
def seed_state(seed, stream, state):
    """Fill ``state`` (4 x uint64) for stream number ``stream`` of ``seed``.

    (seed, stream) goes through a three-round Feistel network whose round
    function is the splitmix64 finalizer, keyed by constants: a bijection of
    the 128-bit pair, so distinct (seed, stream) pairs always start from
    distinct states, and every word of the state depends on both inputs
    non-linearly (an earlier linear derivation made (1, 0) and
    (7878180257186394100, 5) the same stream). One call per chunk: no
    measurable cost.
    """
    a = np.uint64(seed)
    b = np.uint64(stream)
    b ^= _mix(a ^ _K0)
    a ^= _mix(b ^ _K1)
    b ^= _mix(a ^ _K2)
    state[0] = _mix(a)
    state[1] = _mix(b)
    state[2] = _mix(a + b * _GOLDEN)
    state[3] = _mix((b ^ _rotl(a, 32)) + _K3)
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN


SEED_BITS = 64


def seed_key(seed) -> np.uint64:
    """The 64-bit key kernels are seeded with, for any Python integer ``seed``.

    Seeds 0..2**64-1 are their own key; any other integer (negative, or too
    big for 64 bits) is mapped through a keyed BLAKE2b hash, so every integer
    is a valid seed and distinct seeds give distinct streams (up to a 2**-64
    chance of a hash collision).
    """
    seed = int(seed)
    if 0 <= seed < 1 << SEED_BITS:
        return np.uint64(seed)
    # The key keeps its first name (the package was called mcsim): it fixes which stream a seed gets.
    h = hashlib.blake2b(str(seed).encode(), digest_size=8, key=b"mcsim-seed")
    return np.uint64(int.from_bytes(h.digest(), "little"))


def new_state(seed, stream=0):
    """Python-side convenience: a fresh seeded state array (any integer seed)."""
    state = np.empty(4, dtype=np.uint64)
    seed_state(seed_key(seed), np.uint64(stream), state)
    return state


@nb.njit(cache=True, inline="always")
def next_u64(s):
    """Next 64-bit output of xoshiro256** (advances ``s`` in place)."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@nb.njit(cache=True, inline="always")
def randbelow(s, n):
    """Integer uniform on ``0..n-1`` for ``1 <= n < 2**32``.

    Multiply-shift on the top 32 bits: bias below n / 2**32 (< 1e-8 for the
    small ranges card games use), far under any Monte Carlo error.
    """
    return np.int64(((next_u64(s) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True, inline="always")
def uniform(s):
    """Float uniform on [0, 1) with 53 random bits."""
    return np.float64(next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
