"""The array form of a symmetric N-seat game that the solvers work on.

``SymmetricGame(n_players, payoffs, se=None, names=None)``: ``payoffs[j, q]``
is the payoff of a seat playing strategy j when the other N-1 seats form
the multiset ``game.opponents[q]`` (= ``profiles(N - 1, K)[q]``); NaN where
the table lacks that entry. ``se`` (same shape) is its standard error.
Every entry of a heuristic payoff table (profile, strategy with a seat)
is exactly one ``(j, q)``: the profile is ``opponents[q] + e_j``
(``game.profile_rows[j, q]`` is its row in ``profiles(N, K)``).

Against a mixture x (every other seat draws its strategy from x on its own):

    u_j(x) = sum_q Multinomial(opponents[q]; N - 1, x) * payoffs[j, q]

``deviation_payoffs(x)`` gives u(x) (any leading batch axes on x, and on
``payoffs`` for a batch of games), ``value(x)`` = u(x, x) = x . u(x),
``regrets(x)`` = u_j(x) - u(x, x) (the gain of a seat that deviates to j),
``gap(x)`` = max_j regret (0 exactly at a symmetric Nash equilibrium);
``restrict(keep)``: the game among some of the strategies.
An entry that x gives positive probability but the table lacks raises
``MissingProfileError`` naming the profile; entries x cannot reach are not needed.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.metagame.profiles import describe, multinomial, profile_index, profiles

_LOG_ZERO = -1e250   # log 0 that stays finite: 0 * _LOG_ZERO == 0, k * _LOG_ZERO underflows exp to 0


class MissingProfileError(UserError):
    """A computation needs a payoff-table entry that has not been played."""


@lru_cache(maxsize=None)
def focal_rows(n_players: int, n_strategies: int) -> np.ndarray:
    """(K, Q) rows of ``profiles(N, K)``: the profile ``opponents[q] + e_j``."""
    opp = profiles(n_players - 1, n_strategies)
    index = profile_index(n_players, n_strategies)
    rows = np.empty((n_strategies, len(opp)), dtype=np.int64)
    for j in range(n_strategies):
        for q, m in enumerate(opp):
            c = [int(v) for v in m]
            c[j] += 1
            rows[j, q] = index[tuple(c)]
    rows.setflags(write=False)
    return rows


def check_mixture(x, n_strategies: int) -> np.ndarray:
    """x as a float array whose last axis is a probability vector over K strategies."""
    x = np.asarray(x, dtype=float)
    if x.shape[-1:] != (n_strategies,):
        raise ValueError(f"a mixture needs {n_strategies} weights, got shape {x.shape}")
    if not np.all(np.isfinite(x)) or np.any(x < 0) or not np.allclose(x.sum(axis=-1), 1.0, atol=1e-9):
        raise ValueError("a mixture needs non-negative weights that sum to 1")
    return x


class SymmetricGame:
    """A symmetric N-seat game over K strategies in focal-player form (see the module)."""

    def __init__(self, n_players: int, payoffs, se=None, names=None):
        if n_players < 2:
            raise ValueError("a game needs at least two seats")
        payoffs = np.array(payoffs, dtype=float)
        k = payoffs.shape[-2] if payoffs.ndim >= 2 else 0
        self.n_players, self.n_strategies = int(n_players), k
        self.opponents = profiles(self.n_players - 1, k)
        if payoffs.shape[-2:] != (k, len(self.opponents)):
            raise ValueError(f"payoffs of {n_players} seats over {k} strategies need shape "
                             f"(..., {k}, {len(self.opponents)}), got {payoffs.shape}")
        self.payoffs = payoffs
        self.se = None if se is None else np.broadcast_to(np.asarray(se, dtype=float), payoffs.shape)
        self.names = [f"s{j}" for j in range(k)] if names is None else [str(n) for n in names]
        if len(self.names) != k:
            raise ValueError(f"{len(self.names)} names for {k} strategies")
        self.profile_rows = focal_rows(self.n_players, k)
        self._log_coef = np.log(multinomial(self.opponents))
        self._missing = np.isnan(payoffs)
        self._filled = np.where(self._missing, 0.0, payoffs)

    @classmethod
    def from_function(cls, n_players: int, n_strategies: int, payoff, names=None) -> "SymmetricGame":
        """Game with ``payoffs[j, q] = payoff(j, counts)``, counts the whole profile as a tuple."""
        rows, whole = focal_rows(n_players, n_strategies), profiles(n_players, n_strategies)
        u = [[payoff(j, tuple(int(c) for c in whole[r])) for r in rows[j]] for j in range(n_strategies)]
        return cls(n_players, u, names=names)

    @classmethod
    def from_matrix(cls, a, names=None) -> "SymmetricGame":
        """The 2-seat symmetric game whose row player gets ``a[j, i]`` (j against i)."""
        a = np.asarray(a, dtype=float)
        return cls(2, a[:, profiles(1, a.shape[0]).argmax(axis=1)], names=names)

    def with_payoffs(self, payoffs) -> "SymmetricGame":
        """The same game (names, seats) with other payoffs, e.g. a bootstrap batch (R, K, Q)."""
        return SymmetricGame(self.n_players, payoffs, names=self.names)

    def restrict(self, keep) -> "SymmetricGame":
        """The game among the strategies ``keep`` (indices, in that order)."""
        keep = [int(j) for j in keep]
        sub = profiles(self.n_players - 1, len(keep))
        index = profile_index(self.n_players - 1, self.n_strategies)
        full = np.zeros((len(sub), self.n_strategies), dtype=np.int64)
        full[:, keep] = sub
        cols = [index[tuple(int(v) for v in row)] for row in full]
        pick = np.ix_(keep, cols)
        return SymmetricGame(self.n_players, self.payoffs[..., pick[0], pick[1]],
                             se=None if self.se is None else self.se[..., pick[0], pick[1]],
                             names=[self.names[j] for j in keep])

    def opponent_probabilities(self, x) -> np.ndarray:
        """P(opponents[q] | x) for the N-1 other seats, shape (..., Q)."""
        x = np.asarray(x, dtype=float)
        logx = np.where(x > 0, np.log(np.where(x > 0, x, 1.0)), _LOG_ZERO)
        return np.exp(logx @ self.opponents.T + self._log_coef)

    def _payoffs_against(self, probs) -> np.ndarray:
        if self._missing.any():
            self._require(probs)
        u = self._filled
        if u.ndim == 2:
            return probs @ u.T
        return (u @ probs[..., None])[..., 0]

    def _require(self, probs):
        need = np.broadcast_to(probs > 0, probs.shape).reshape(-1, probs.shape[-1]).any(axis=0)
        lacking = self._missing.reshape(-1, *self._missing.shape[-2:]).any(axis=0) & need[None, :]
        if lacking.any():
            j, q = (int(v[0]) for v in np.nonzero(lacking))
            raise MissingProfileError(
                f"the payoff table has no entry for {self.names[j]} in the profile "
                f"{describe(self.profile_of(j, q), self.names)}; play that profile first")

    def profile_of(self, j: int, q: int) -> np.ndarray:
        """The profile (counts) of entry (j, q): ``opponents[q] + e_j``."""
        return profiles(self.n_players, self.n_strategies)[self.profile_rows[j, q]].copy()

    def deviation_payoffs(self, x) -> np.ndarray:
        """u_j(x) for every strategy j, shape (..., K)."""
        return self._payoffs_against(self.opponent_probabilities(check_mixture(x, self.n_strategies)))

    def value(self, x) -> np.ndarray:
        """u(x, x): a seat's payoff when every seat plays x."""
        x = check_mixture(x, self.n_strategies)
        return (x * self.deviation_payoffs(x)).sum(axis=-1)

    def regrets(self, x) -> np.ndarray:
        """u_j(x) - u(x, x) for every j, shape (..., K); x-weighted they sum to 0."""
        x = check_mixture(x, self.n_strategies)
        u = self.deviation_payoffs(x)
        return u - (x * u).sum(axis=-1, keepdims=True)

    def gap(self, x) -> np.ndarray:
        """Nash gap: the largest regret (>= 0)."""
        return self.regrets(x).max(axis=-1)

    def scale(self) -> float:
        """The payoffs' range (1 when they are all equal): the solvers' unit of payoff."""
        finite = self.payoffs[~self._missing]
        spread = float(finite.max() - finite.min()) if finite.size else 0.0
        return spread if spread > 0 else 1.0

    def polynomial_payoffs(self, x) -> np.ndarray:
        """u_j at any point x of R^K (weights may be negative): the payoff polynomials, (K,)."""
        x = np.asarray(x, dtype=float)
        probs = np.exp(self._log_coef) * np.prod(x[None, :] ** self.opponents, axis=1)
        if self._missing.any():
            self._require(probs != 0)
        return self._filled @ probs

    def support_jacobian(self, x, support) -> np.ndarray:
        """d u_j / d x_i of the payoff polynomials at x in R^K, for i in ``support``: (K, |S|)."""
        x = np.asarray(x, dtype=float)
        m = self.opponents
        powers = x[None, :] ** m
        coef = np.exp(self._log_coef)
        cols = []
        for i in support:
            d = np.where(m[:, i] > 0, m[:, i] * x[i] ** np.maximum(m[:, i] - 1, 0), 0.0)
            cols.append(coef * d * np.prod(np.delete(powers, i, axis=1), axis=1))
        dprobs = np.stack(cols, axis=1)
        if self._missing.any():
            self._require(np.abs(dprobs).sum(axis=1))
        return self._filled @ dprobs
