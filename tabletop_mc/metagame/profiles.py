"""Profiles of a symmetric N-seat game over K strategies.

A profile is a multiset of strategies, written as a count vector ``c`` of
length K with ``sum(c) == N`` (``c[j]`` seats play strategy j). There are
``comb(N + K - 1, N)`` of them. The canonical order sorts the count vectors
by their reversed tuples, so the profiles over the first k strategies are
the first ``comb(N + k - 1, N)`` profiles over K >= k strategies: adding a
strategy (PSRO) appends profiles and never renumbers old ones.

``profiles(N, K)`` -> (P, K) int64 array in canonical order (cached, read-only);
``profile_index(N, K)`` -> dict tuple(counts) -> row;
``multinomial(counts)`` -> the number of orderings, N! / prod(c!), per row.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, factorial

import numpy as np


def n_profiles(n_players: int, n_strategies: int) -> int:
    """C(N + K - 1, N): the number of profiles."""
    return comb(n_players + n_strategies - 1, n_players)


def _generate(n: int, k: int):
    if k == 1:
        yield (n,)
        return
    for last in range(n + 1):
        for head in _generate(n - last, k - 1):
            yield head + (last,)


@lru_cache(maxsize=None)
def profiles(n_players: int, n_strategies: int) -> np.ndarray:
    """All count vectors of N seats over K strategies, canonical order, (P, K) int64."""
    if n_players < 1 or n_strategies < 1:
        raise ValueError(f"need at least one seat and one strategy (got {n_players}, {n_strategies})")
    out = np.array(list(_generate(n_players, n_strategies)), dtype=np.int64).reshape(-1, n_strategies)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=None)
def profile_index(n_players: int, n_strategies: int) -> dict[tuple[int, ...], int]:
    """Count tuple -> its row in ``profiles(N, K)``."""
    return {tuple(int(v) for v in row): i for i, row in enumerate(profiles(n_players, n_strategies))}


def multinomial(counts) -> np.ndarray:
    """N! / prod(c_j!) for each count vector (last axis), as float."""
    c = np.asarray(counts, dtype=np.int64)
    fact = np.array([factorial(i) for i in range(int(c.max(initial=0)) + 1)], dtype=float)
    return fact[c.sum(axis=-1)] / np.prod(fact[c], axis=-1)


def describe(counts, names) -> str:
    """'2 ev + 1 mc + 1 distilled' (strategies with no seat left out)."""
    return " + ".join(f"{int(c)} {name}" for c, name in zip(counts, names) if c)
