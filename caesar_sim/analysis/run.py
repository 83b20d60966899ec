"""Run seeded batches of games through the kernel (``tabletop_mc.runner``) and keep the raw results."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.jitcache import needs_compile
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import run_chunked, set_threads
from caesar_sim.kernels import layout as L
from caesar_sim.kernels.game import run_batch
from caesar_sim.profile import MC_CHUNK, Profile, parse_profile
from caesar_sim.rules import RuleSet, check_players, kernel_rules, load_rules

FAST_CHUNK = 2048


@dataclass
class Batch:
    """Raw results of ``n`` games: totals by seat, the rotation of each game and summed statistics."""

    rules: RuleSet
    players: int
    profile: Profile
    n: int
    seed: int
    rotate: bool
    scores: np.ndarray   # (n, players) final coins by seat
    rots: np.ndarray     # (n,) profile entry (s + rot) % players sits in seat s
    stats: np.ndarray    # ST_* vector summed over all games
    mc_horizon: str = "day"

    def entry_scores(self) -> np.ndarray:
        """(n, players) final coins by profile entry."""
        idx = (np.arange(self.players)[None, :] - self.rots[:, None]) % self.players
        return np.take_along_axis(self.scores, idx, axis=1)

    def win_shares(self, by_entry: bool = True) -> np.ndarray:
        """(n, players) share of the win (ties shared) by entry or by seat."""
        sc = self.entry_scores() if by_entry else self.scores
        top = sc == sc.max(axis=1, keepdims=True)
        return top / top.sum(axis=1, keepdims=True)


def chunk_size_for(profile: Profile) -> int:
    """Games per chunk: small for `mc` (slow games), large otherwise. Fixed per profile => reproducible."""
    return MC_CHUNK if (profile.policies == 3).any() else FAST_CHUNK


def run_games(players: int, profile: str | Profile, n: int, *, seed: int = 1, rules=None, overrides=None,
              rotate: bool = False, threads: int | None = None, progress: bool | None = None,
              gift: tuple[int, int] = (-1, 0), mc_horizon: str = "day", label: str = "") -> Batch:
    """Play ``n`` games; the same arguments give the same numbers on any thread count."""
    check_players(players)
    if isinstance(n, bool) or int(n) < 1:
        raise UserError(f"-n {n}: need at least one game")
    n = int(n)
    rs = load_rules(rules, overrides)
    prof = profile if isinstance(profile, Profile) else parse_profile(profile, players)
    R = kernel_rules(rs, players, *gift)
    PP = prof.kernel_weights(mc_horizon)
    set_threads(threads)
    scores = np.zeros((n, L.P), dtype=np.int64)
    rots = np.zeros(n, dtype=np.int64)
    chunk = chunk_size_for(prof)
    key = seed_key(seed)

    def batch(first, counts):
        st = np.zeros((len(counts), L.ST_SIZE))
        run_batch(R, PP, prof.policies, prof.rollouts, bool(rotate), key, first, counts, chunk,
                  scores, rots, st)
        return st

    batch.needs_compile = lambda: needs_compile(run_batch)
    with Progress(n, label or f"caesar {prof.text()}", enabled=progress) as bar:
        res = run_chunked(batch, n, chunk_size=chunk, progress=bar)
    return Batch(rs, players, prof, n, seed, bool(rotate), scores[:, :players], rots, res.totals, mc_horizon)
