"""`tune`: search `value`'s weights by simulation (CMA-ES) for the `tuned` policy.

The search works in the unit cube of ``weights.TUNABLE`` (each weight scaled to its
range) and maximises a candidate seat's win share against a mixed field: (n-1) seats
of `value`, (n-1) seats of the current search mean (the previous tuned version), and,
if ``mc_games`` > 0, (n-1) seats of `mc` with few rollouts. Every candidate of a
generation plays the same games (common random numbers: the same seed per generation
and table) with the profile rotated over the seats, so candidates differ by their
weights, not their luck. The result is the final search mean.

With ``against`` (a field: ``reference``, ``field:FILE`` or a FieldPlay) the candidate instead
plays the focal seat of n field games per generation (the others drawn from the field, the same
draws and deals for every candidate): the weights are tuned against the field.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from caesar_sim import weights as WT
from caesar_sim.analysis.game.runs import RunSettings, run_field, run_games
from caesar_sim.fieldplay import FieldPlay, field_play
from caesar_sim.kernels import layout
from caesar_sim.profile import Profile, weights_row
from caesar_sim.rules import check_players, load_rules
from caesar_sim.strategy import Strategy

NAMES = tuple(WT.TUNABLE)
LOW = np.array([WT.TUNABLE[k][0] for k in NAMES])
HIGH = np.array([WT.TUNABLE[k][1] for k in NAMES])


def to_unit(w: dict[str, float]) -> np.ndarray:
    return (np.array([w[k] for k in NAMES]) - LOW) / (HIGH - LOW)


def from_unit(x: np.ndarray, base: dict[str, float]) -> dict[str, float]:
    """Named weights for a point of the unit cube (clipped to it), other weights from ``base``."""
    v = LOW + np.clip(x, 0.0, 1.0) * (HIGH - LOW)
    return {**base, **{k: round(float(a), 4) for k, a in zip(NAMES, v)}}


class CMAES:
    """Plain CMA-ES (Hansen's tutorial, full covariance) maximising a noisy function; numpy only."""

    def __init__(self, x0: np.ndarray, sigma: float, lam: int, rng: np.random.Generator):
        n = len(x0)
        self.n, self.mean, self.sigma, self.lam, self.rng = n, np.array(x0, float), float(sigma), lam, rng
        self.mu = lam // 2
        w = math.log(self.mu + 0.5) - np.log(np.arange(1, self.mu + 1))
        self.w = w / w.sum()
        self.mueff = 1.0 / (self.w ** 2).sum()
        self.cc = (4 + self.mueff / n) / (n + 4 + 2 * self.mueff / n)
        self.cs = (self.mueff + 2) / (n + self.mueff + 5)
        self.c1 = 2 / ((n + 1.3) ** 2 + self.mueff)
        self.cmu = min(1 - self.c1, 2 * (self.mueff - 2 + 1 / self.mueff) / ((n + 2) ** 2 + self.mueff))
        self.damps = 1 + 2 * max(0.0, math.sqrt((self.mueff - 1) / (n + 1)) - 1) + self.cs
        self.chin = math.sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n))
        self.pc, self.ps = np.zeros(n), np.zeros(n)
        self.C, self.B, self.D = np.eye(n), np.eye(n), np.ones(n)
        self.gen = 0

    def ask(self) -> np.ndarray:
        z = self.rng.standard_normal((self.lam, self.n))
        return self.mean + self.sigma * (z * self.D) @ self.B.T

    def tell(self, X: np.ndarray, f: np.ndarray) -> None:
        idx = np.argsort(-f, kind="stable")[:self.mu]
        y = (X[idx] - self.mean) / self.sigma
        yw = self.w @ y
        self.mean = self.mean + self.sigma * yw
        inv_sqrt = self.B @ np.diag(1 / self.D) @ self.B.T
        self.ps = (1 - self.cs) * self.ps + math.sqrt(self.cs * (2 - self.cs) * self.mueff) * inv_sqrt @ yw
        self.gen += 1
        hsig = (np.linalg.norm(self.ps) / math.sqrt(1 - (1 - self.cs) ** (2 * self.gen)) / self.chin
                < 1.4 + 2 / (self.n + 1))
        self.pc = (1 - self.cc) * self.pc + hsig * math.sqrt(self.cc * (2 - self.cc) * self.mueff) * yw
        self.C = ((1 - self.c1 - self.cmu) * self.C
                  + self.c1 * (np.outer(self.pc, self.pc) + (1 - hsig) * self.cc * (2 - self.cc) * self.C)
                  + self.cmu * (y.T * self.w) @ y)
        self.sigma *= math.exp((self.cs / self.damps) * (np.linalg.norm(self.ps) / self.chin - 1))
        self.C = (self.C + self.C.T) / 2
        d2, self.B = np.linalg.eigh(self.C)
        self.D = np.sqrt(np.maximum(d2, 1e-20))


@dataclass
class TuneResult:
    weights: dict[str, float]
    meta: dict
    history: list[dict] = field(default_factory=list)


def _table(players: int, cand: np.ndarray, opp_code: int, opp_row: np.ndarray, opp_k: int = 8) -> Profile:
    """Entry 0: the candidate (`tuned` with row ``cand``); the other entries: ``opp_code`` with ``opp_row``."""
    pols = np.full(layout.MAX_PLAYERS, opp_code, np.int64)
    pols[0] = layout.TUNED
    ks = np.full(layout.MAX_PLAYERS, opp_k, np.int64)
    rows = np.tile(opp_row, (layout.MAX_PLAYERS, 1))
    rows[0] = cand
    name = {layout.TUNED: "tuned", layout.VALUE: "value", layout.MC: f"mc:{opp_k}"}[opp_code]
    return Profile(("candidate",) + (name,) * (players - 1), pols, ks, rows)


@dataclass(frozen=True)
class Search:
    """`tune`'s CMA-ES search: ``generations`` of ``lam`` candidates each, from the weights of ``start``
    (value, tuned or tuned@FILE) with the first step ``sigma`` (in units of each weight's range)."""

    generations: int
    lam: int = 12
    sigma: float = 0.15
    start: str = "value"


def field_share(players: int, row: np.ndarray, field: list[tuple[int, np.ndarray, int, int]],
                settings: RunSettings) -> float:
    """Mean win share of a `tuned` seat with weight ``row`` over the field's tables (rotated, seeded)."""
    shares = []
    for i, (code, opp, k, n) in enumerate(field):
        if n <= 0:
            continue
        b = run_games(players, _table(players, row, code, opp, k), n, settings.but(seed=settings.seed * 7919 + i),
                      rotate=True)
        shares.append(b.win_shares()[:, 0].mean())
    return float(np.mean(shares))


def against_share(players: int, row: np.ndarray, play: FieldPlay, n: int, settings: RunSettings) -> float:
    """Mean win share of a `tuned` seat with weight ``row`` in the focal seat of ``n`` games against ``play``."""
    b = run_field(players, play.with_focal(Strategy("candidate", layout.TUNED, 8, row)), n, settings, stats=False)
    return float(b.win_shares()[:, 0].mean())


def tune(players: int, n: int, search: Search, settings: RunSettings = RunSettings(), *, mc_games: int = 0,
         mc_rollouts: int = 2, against: str | FieldPlay | None = None) -> TuneResult:
    """Run the CMA-ES ``search``; ``n`` games (rounded up to a multiple of ``players``) per table and candidate."""
    generations, lam, sigma, start, seed = search.generations, search.lam, search.sigma, search.start, settings.seed
    check_players(players)
    for name, v, low in (("-n", n, 1), ("--generations", generations, 1), ("--lam", lam, 4),
                         ("--mc-games", mc_games, 0)):
        if isinstance(v, bool) or int(v) < low:
            raise UserError(f"{name} {v}: must be at least {low}")
    rs = load_rules(settings.rules, settings.overrides)
    play = against if isinstance(against, FieldPlay) or against is None else field_play(against, players)
    n = -(-int(n) // players) * players
    mc_games = -(-int(mc_games) // players) * players
    base = {k: v for k, v in WT.as_dict(weights_row(start, players)).items() if k in WT.VALUE_WEIGHTS}
    es = CMAES(to_unit(base), sigma, lam, np.random.default_rng(seed))
    value_row = WT.vector()
    t0 = time.perf_counter()
    history = []
    with Progress(generations, f"caesar tune {players}p", enabled=settings.progress) as bar:
        for g in range(generations):
            mean_row = WT.vector(from_unit(es.mean, base))
            fld = [(layout.VALUE, value_row, 8, n), (layout.TUNED, mean_row, 8, n),
                   (layout.MC, mean_row, mc_rollouts, mc_games)]
            X = es.ask()
            gen = RunSettings(seed=seed * 100003 + g, rules=rs, threads=settings.threads, progress=False)
            if play is None:
                share = [field_share(players, WT.vector(from_unit(x, base)), fld, gen) for x in X]
            else:
                share = [against_share(players, WT.vector(from_unit(x, base)), play, n, gen) for x in X]
            f = np.array([v - 0.1 * float(((x - np.clip(x, 0, 1)) ** 2).sum()) for v, x in zip(share, X)])
            es.tell(X, f)
            history.append({"generation": g, "best": float(f.max()), "mean_f": float(f.mean()),
                            "sigma": es.sigma})
            bar.advance(1)
    weights = from_unit(es.mean, base)
    meta = {"command": settings.command, "seed": seed, "players": players, "games_per_table": n,
            "generations": generations, "lambda": lam, "sigma0": sigma, "start": start,
            "field": (play.text() if play is not None else
                      "(n-1) x value, (n-1) x search mean" + (f", (n-1) x mc:{mc_rollouts} ({mc_games} games)"
                                                             if mc_games else " (no mc)")),
            "rules": rs.summary(), "seconds": round(time.perf_counter() - t0, 1),
            "last_generation": history[-1]}
    return TuneResult(weights, meta, history)
