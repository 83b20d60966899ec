"""alpha-Rank for a symmetric N-seat game (one population, Omidshafiei et al. 2019).

``alpharank(game, *, alpha=100.0, population=50)`` -> ``AlphaRank`` with
``stationary`` (K,): the long-run share of time the population spends playing
each strategy, and ``fixation`` (K, K): ``fixation[s, r]`` = probability
that one mutant playing r takes over a population playing s.

A population of m = ``population`` players; each game seats N of them
drawn without replacement. With k players on r and m - k on s, a player's
fitness is its expected payoff in its game, the N - 1 others drawn from the
other m - 1 (hypergeometric). Fermi imitation with selection intensity
``alpha`` gives

    fixation[s, r] = 1 / (1 + sum_{l=1}^{m-1} prod_{k=1}^{l} exp(-alpha (f_r(k) - f_s(k))))

and, in the small-mutation limit, a Markov chain over the K monomorphic
populations: C[s, r] = fixation[s, r] / (K - 1) for r != s. Its stationary
distribution is the ranking. Unlike a Nash mixture it is unique and
handles cycles; large ``alpha`` concentrates it on the sink strongly
connected components of the response graph. Needs every profile with at
most two strategies.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from tabletop_mc.metagame.game import MissingProfileError, SymmetricGame
from tabletop_mc.metagame.profiles import describe, profile_index


@dataclass(frozen=True)
class AlphaRank:
    stationary: np.ndarray      # (K,)
    fixation: np.ndarray        # (K, K), fixation[s, r]; diagonal 0
    alpha: float
    population: int


def _two_strategy_payoffs(game: SymmetricGame, r: int, s: int) -> np.ndarray:
    """u(r | i of the N-1 others play r, the rest s) for i = 0..N-1."""
    n1 = game.n_players - 1
    index = profile_index(n1, game.n_strategies)
    out = np.empty(n1 + 1)
    for i in range(n1 + 1):
        opp = [0] * game.n_strategies
        opp[r] += i
        opp[s] += n1 - i
        out[i] = game.payoffs[r, index[tuple(opp)]]
        if np.isnan(out[i]):
            opp[r] += 1
            raise MissingProfileError(f"alpha-Rank needs the payoff of {game.names[r]} in the profile "
                                      f"{describe(opp, game.names)}; play that profile first")
    return out


def fitness(game: SymmetricGame, r: int, s: int, population: int) -> tuple[np.ndarray, np.ndarray]:
    """(f_r(k), f_s(k)) for k = 1..m-1 players on r among m (hypergeometric groups)."""
    m, n1 = population, game.n_players - 1
    u_r, u_s = _two_strategy_payoffs(game, r, s), _two_strategy_payoffs(game, s, r)
    k = np.arange(1, m)
    i = np.arange(n1 + 1)

    def hyper(successes):   # P(i of the n1 drawn from the other m - 1 play r), shape (m-1, n1+1)
        return np.array([[comb(int(a), int(b)) * comb(m - 1 - int(a), n1 - int(b)) for b in i] for a in successes],
                        dtype=float) / comb(m - 1, n1)

    f_r = hyper(k - 1) @ u_r                       # an r player sees k - 1 other r players
    f_s = hyper(k) @ u_s[::-1]                     # u_s indexed by the others on s: n1 - (others on r)
    return f_r, f_s


def fixation_probability(game: SymmetricGame, r: int, s: int, alpha: float, population: int) -> float:
    """Probability that one r mutant takes over a population of s (Fermi imitation)."""
    f_r, f_s = fitness(game, r, s, population)
    exponents = np.cumsum(-alpha * (f_r - f_s))              # log prod_{k<=l}, l = 1..m-1
    return float(np.exp(-np.logaddexp.reduce(np.append(exponents, 0.0))))


def alpharank(game: SymmetricGame, *, alpha: float = 100.0, population: int = 50) -> AlphaRank:
    """Stationary distribution of the small-mutation Markov chain (see the module)."""
    k = game.n_strategies
    if population < game.n_players:
        raise ValueError(f"the population ({population}) must be at least the number of seats ({game.n_players})")
    if k < 2:
        return AlphaRank(np.ones(1), np.zeros((1, 1)), alpha, population)
    fix = np.zeros((k, k))
    for s in range(k):
        for r in range(k):
            if r != s:
                fix[s, r] = fixation_probability(game, r, s, alpha, population)
    chain = fix / (k - 1)
    chain[np.diag_indices(k)] = 1.0 - chain.sum(axis=1)
    # pi (C - I) = 0 with sum(pi) = 1, as least squares (exact when the chain is irreducible)
    a = np.vstack([(chain - np.eye(k)).T, np.ones(k)])
    b = np.append(np.zeros(k), 1.0)
    pi = np.linalg.lstsq(a, b, rcond=None)[0]
    pi = np.clip(pi, 0.0, None)
    return AlphaRank(pi / pi.sum(), fix, float(alpha), int(population))
