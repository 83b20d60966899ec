"""`distill`: a fast policy fitted to `mc`'s choices against a field (expert iteration).

1. **Record** (``record``): `mc` plays one seat of field games (the others drawn from the field,
   ``kernels.game.distill``); at each of its decisions every legal action's features and mean rollout
   outcome Q (coins ahead of the best rival at the rollout's end) are kept.
2. **Fit** (``fit``): `distilled` scores an action linearly in its features (``kernels.play.scan``);
   its weights maximise the mean Q of the action a softmax over the scores (temperature ``tau``
   coins) would play, i.e. they rank actions as `mc`'s rollouts value them (Adam on standardised
   features, a small L2 pull towards the starting weights). Imitating `mc`'s argmax alone (a
   conditional logit on its choices) fitted worse: most of `mc`'s choices are near-ties.
3. **Iterate**: `mc` then rolls out with the fitted policy (``mc:K:distilled@FILE``) and
   records again; the last fit is the result.

Agreement = the share of held-out decisions (recorded on another seed) where the fitted
policy's best action is `mc`'s choice, with a Wilson interval.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field as dfield, replace

import numpy as np

from tabletop_mc.progress import Progress
from tabletop_mc.stats import wilson
from caesar_sim import weights as WT
from caesar_sim.analysis.game.runs import RunSettings, chunk_batches, game_keys
from caesar_sim.fieldplay import FieldPlay
from caesar_sim.kernels import layout
from caesar_sim.kernels.contexts import seats
from caesar_sim.kernels.game.distill import record_batch
from caesar_sim.kernels.layout import MAX_ROWS_PER_GAME, REC_ACTION, REC_CHOSEN, REC_COLS, REC_DECISION, REC_Q
from caesar_sim.rules import kernel_rules, load_rules
from caesar_sim.strategy import Strategy

RECORD_CHUNK = 8


@dataclass
class Decisions:
    """Recorded decisions: one row per legal action (``X`` features, ``q`` mean rollout outcome,
    ``chosen`` = `mc`'s pick), rows of one decision contiguous (``start[d] .. start[d + 1]``)."""

    X: np.ndarray
    q: np.ndarray
    chosen: np.ndarray
    action: np.ndarray
    start: np.ndarray

    @property
    def n(self) -> int:
        return len(self.start) - 1

    def group(self) -> np.ndarray:
        """The decision index of every row."""
        return np.repeat(np.arange(self.n), np.diff(self.start))


def record(players: int, play: FieldPlay, games: int, settings: RunSettings) -> Decisions:
    """Record the focal `mc` strategy's decisions in ``games`` field games (focal seat g % players;
    ``settings.rules`` without overrides, `mc` rolling out to the day's end)."""
    assert play.focal is not None and play.focal.code == layout.MC
    rs = load_rules(settings.rules)
    rulebook = kernel_rules(rs, players)
    weight_table, pols, ks, cum, focal = play.kernel_tables()
    dkey, gkey = game_keys(settings.seed)
    table = seats(pols, ks, cum=cum, focal=focal, draw_key=dkey, game_key=gkey)
    per_chunk = RECORD_CHUNK * MAX_ROWS_PER_GAME * rs.days // layout.MAX_DAYS
    parts = []
    with Progress(games, f"recording {play.focal.label}", enabled=settings.progress) as bar:
        for first, counts in chunk_batches(games, RECORD_CHUNK, settings.threads, bar):
            out = np.zeros((len(counts) * per_chunk, REC_COLS))
            used = np.zeros(len(counts), dtype=np.int64)
            record_batch(rulebook, weight_table, table, first, counts, RECORD_CHUNK, out, per_chunk, used)
            for i, u in enumerate(used):
                parts.append(out[i * per_chunk:i * per_chunk + u].copy())
    rows = np.concatenate(parts)
    dec = rows[:, REC_DECISION]
    start = np.flatnonzero(np.r_[True, dec[1:] != dec[:-1], True])
    return Decisions(rows[:, 6:].astype(np.float32), rows[:, REC_Q].astype(np.float64),
                     rows[:, REC_CHOSEN] > 0, rows[:, REC_ACTION].astype(np.int64), start)


def fit(d: Decisions, w0: np.ndarray, *, tau: float = 0.1, l2: float = 1e-3, iters: int = 400,
        lr: float = 0.05) -> np.ndarray:
    """Weights (N_FEATURES) maximising, over the decisions, the mean Q under ``softmax(scores / tau)``
    (module docstring), starting from ``w0`` and pulled towards it by ``l2``."""
    X = d.X.astype(np.float64)
    g, start = d.group(), d.start
    q = d.q - (np.add.reduceat(d.q, start[:-1]) / np.diff(start))[g]   # centred per decision
    sd = X.std(axis=0) + 1e-9
    Xs = X / sd
    ref = w0 * sd / tau
    w, m, v = ref.copy(), np.zeros_like(ref), np.zeros_like(ref)
    for it in range(1, iters + 1):
        s = Xs @ w
        e = np.exp(s - np.maximum.reduceat(s, start[:-1])[g])
        p = e / np.add.reduceat(e, start[:-1])[g]
        qbar = np.add.reduceat(p * q, start[:-1])[g]
        grad = Xs.T @ (p * (q - qbar)) / d.n - 2 * l2 * (w - ref)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad ** 2
        w = w + lr * (m / (1 - 0.9 ** it)) / (np.sqrt(v / (1 - 0.999 ** it)) + 1e-8)
    return w / sd * tau


def regret(d: Decisions, w: np.ndarray) -> float:
    """Mean Q lost per decision by playing the first best action under ``w`` instead of `mc`'s choice."""
    return float((d.q[d.chosen] - d.q[_first_best(d, w)]).mean())


def _first_best(d: Decisions, w: np.ndarray) -> np.ndarray:
    """Per decision, the row of the first action with the best score under ``w``."""
    s = d.X.astype(np.float64) @ w
    g = d.group()
    smax = np.maximum.reduceat(s, d.start[:-1])
    idx = np.flatnonzero(s >= smax[g] - 1e-12)
    first = np.full(d.n, -1)
    first[g[idx[::-1]]] = idx[::-1]
    return first


def agreement(d: Decisions, w: np.ndarray) -> tuple[float, float, float, int]:
    """Share of decisions where the first best action under weights ``w`` is `mc`'s choice (Wilson CI), n."""
    hits = int(d.chosen[_first_best(d, w)].sum())
    p, lo, hi = wilson(hits, d.n)
    return p, lo, hi, d.n


def tuned_equivalent(row: np.ndarray) -> np.ndarray:
    """`distilled`'s weights that score actions as `value` does with the weight ``row``: item worth
    (times the keep chance when threatened) minus the card's coins, strength and shortfall, and the
    favour's keep value in phase 2; pass scores 0."""
    w = np.zeros(layout.N_FEATURES)
    for ph in range(3):
        x = ph * layout.N_BID_FEATURES
        w[x + 0] = 1.0
        w[x + 1] = row[layout.WEIGHTS.risk_visitors] if ph == 2 else row[layout.WEIGHTS.risk]
        w[x + 2] = -1.0
        if ph < 2:
            w[x + 3] = -row[layout.WEIGHTS.strength]
            w[x + 4] = -row[layout.WEIGHTS.short]
        if ph == 1:
            w[x + 5] = w[x + 6] = -row[layout.WEIGHTS.favour_keep]
    return w


def distilled_weights(base_row: np.ndarray, w: np.ndarray) -> dict[str, float]:
    """A `distilled` weights mapping: value's weights of ``base_row`` (its item worths) and the features' ``w``."""
    out = {k: v for k, v in WT.as_dict(base_row).items() if k in WT.VALUE_WEIGHTS}
    out["temperature"] = 0.0
    out.update({k: round(float(x), 6) for k, x in zip(WT.FEATURES, w)})
    return out


def distilled_strategy(base_row: np.ndarray, w: np.ndarray, label: str = "distilled*") -> Strategy:
    """The `distilled` strategy playing the weights ``w`` on ``base_row``'s item worths."""
    row = WT.vector(distilled_weights(base_row, w))
    row[layout.WEIGHTS.rollout_policy] = layout.DISTILLED
    return Strategy(label, layout.DISTILLED, 8, row)


@dataclass
class Distilled:
    weights: dict[str, float]
    meta: dict
    history: list[dict] = dfield(default_factory=list)


@dataclass(frozen=True)
class Schedule:
    """`distill`'s expert iteration: ``iterations`` rounds, each recording ``games`` games (and ``holdout``
    games to measure agreement on) with `mc:rollouts`, fitted at softmax temperature ``tau`` with the
    pull ``l2`` towards the start."""

    games: int
    holdout: int
    iterations: int
    rollouts: int = 16
    tau: float = 0.1
    l2: float = 1e-3


def distill(players: int, play: FieldPlay, start: Strategy, schedule: Schedule,
            settings: RunSettings = RunSettings()) -> Distilled:
    """Expert iteration against the field ``play`` (see the module), from ``start`` (`tuned`: its score
    as distilled weights; a `distilled` strategy: its own). Iteration i records ``games`` games on seed
    ``seed + i`` with `mc:rollouts` rolling out as the current policy (the first: as ``start``), fits,
    and measures agreement on ``holdout`` games recorded on seed ``seed + 1000 + i``."""
    games, holdout, iterations, rollouts = schedule.games, schedule.holdout, schedule.iterations, schedule.rollouts
    tau, l2, seed = schedule.tau, schedule.l2, settings.seed
    t0 = time.perf_counter()
    base_row = start.row
    if start.code == layout.DISTILLED:
        w = base_row[layout.WEIGHTS.features:layout.WEIGHTS.features + layout.N_FEATURES].copy()
    else:
        w = tuned_equivalent(base_row)
    history = []
    rollout_row = base_row.copy()
    for it in range(iterations):
        mc = Strategy(f"mc:{rollouts}:" + (start.label if it == 0 else "distilled*"), layout.MC, rollouts, rollout_row)
        mc = replace(mc, field=replace(play, focal=None))
        fp = play.with_focal(mc)
        train = record(players, fp, games, settings.but(seed=seed + it))
        test = record(players, fp, holdout, settings.but(seed=seed + 1000 + it))
        before = agreement(test, w), regret(test, w)
        w = fit(train, w, tau=tau, l2=l2)
        agree = agreement(test, w)
        history.append({"iteration": it, "rollouts_by": mc.label, "train_decisions": train.n,
                        "holdout_decisions": test.n, "agreement_before": round(before[0][0], 4),
                        "regret_before": round(before[1], 4), "agreement": round(agree[0], 4),
                        "agreement_low": round(agree[1], 4), "agreement_high": round(agree[2], 4),
                        "regret": round(regret(test, w), 4)})
        rollout_row = distilled_strategy(base_row, w).row
    meta = {"command": settings.command, "seed": seed, "players": players, "field": play.text(), "start": start.label,
            "games": games,
            "holdout_games": holdout, "iterations": iterations, "rollouts": rollouts, "tau": tau, "l2": l2,
            "history": history, "seconds": round(time.perf_counter() - t0, 1)}
    return Distilled(distilled_weights(base_row, w), meta, history)
