"""`distilled`: a fast betting policy fitted to `mc`'s decisions (expert iteration).

- **Record** (``record``): games of a field where the focal seat (rotating
  over the seats) plays ``mc`` and the others draw their strategies from the
  field. ``mc``'s rollouts draw the others from the field too, and play its
  own later decisions by ``mc_self`` (``distilled`` with the current
  weights, from the second iteration on). Every decision is recorded: per
  candidate ``mc`` searched, its paired mean round gain over pass (coins),
  the rollouts behind it, and its ``distilled`` features
  (``kernels.betting.candidates``).
- **Fit** (``fit_weights``): weighted least squares of the advantage on the
  features (pass scores 0 against the threshold), each candidate weighted
  by its rollouts, shrunk toward ``ev``'s own scoring (``setup.ev_weights``),
  so a feature the records barely vary keeps ``ev``'s weight.
- **Agreement** (``agreement``): on decisions recorded on another seed, the
  share where the best candidate by the weights is ``mc``'s choice, among the
  candidates ``mc`` searched (Wilson CI), beside ``ev``'s scoring.
- **Iterate** (``distill``): the weights go into the field's ``distilled``
  members and into ``mc``'s rollouts; record again on fresh seeds, refit.

The weights are saved as JSON (``DistilledWeights``) with the command and
seeds that made them; ``sponsio_sim/models/distilled-<players>p.json`` is the
shipped set (``model.distilled_weights``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import chunk_counts, derive_seed, set_threads
from tabletop_mc.stats import wilson
from sponsio_sim.analysis.game.model import FEATURES, DistilledWeights
from sponsio_sim.analysis.game.setup import Profile, build_state, ev_weights, parse_strategy, rulebook
from sponsio_sim.kernels.layout import DECISION_RECORD, RULES, stats_size
from sponsio_sim.kernels.game.distill import record_chunks

RECORD_CHUNK = 8          # mc games per chunk
CAPACITY = 4096           # recorded rows per chunk (8 games: about 8 x 3 rounds x 8 decisions x 4 candidates)
RIDGE = 0.003             # shrinkage toward ev's scoring, relative to the records' weight per feature


def record(rules, profile: Profile, model, weights: np.ndarray, *, games: int, seed: int, mc: str = "mc",
           mc_self: str = "ev", progress: Progress | None = None) -> pd.DataFrame:
    """Decisions of ``mc`` (strategy text, its play and cash-in) at the focal seat of ``games``
    games of the field ``profile``: one row per searched candidate (``decision``, ``chosen``,
    ``advantage``, ``rollouts``, ``gain`` and the features ``FEATURES``)."""
    if profile.field is None:
        raise UserError("distillation records mc against a field (--profile reference or field:FILE)")
    st = parse_strategy(mc, rules)
    if st.betting != "mc":
        raise UserError(f"--mc {mc}: not an mc strategy")
    lineup = profile.with_member(st)
    board, game_state, money = build_state(rules, lineup, model, focal=len(profile), distilled=weights, mc_self=mc_self)
    size = np.int64(stats_size(rules.players, rulebook(game_state)[0][RULES.entries]))
    counts = chunk_counts(games, RECORD_CHUNK)
    key = seed_key(seed)
    rows = []
    step = max(1, 2 * set_threads(None))
    for lo in range(0, len(counts), step):
        part = counts[lo:lo + step]
        recs, _ = record_chunks(key, np.int64(lo), part, board, game_state, money, size, np.int64(CAPACITY))
        for i, rec in enumerate(recs):
            used = int(rec[0, 0])
            block = rec[1:1 + used].copy()
            block[:, DECISION_RECORD.decision] += (lo + i) * 1_000_000   # decisions numbered per chunk
            rows.append(block)
        if progress is not None:
            progress.advance(int(part.sum()))
    data = np.concatenate(rows) if rows else np.zeros((0, DECISION_RECORD.size))
    df = pd.DataFrame(data[:, DECISION_RECORD.features:], columns=FEATURES)
    df.insert(0, "gain", data[:, DECISION_RECORD.gain])
    df.insert(0, "rollouts", data[:, DECISION_RECORD.rollouts].astype(np.int64))
    df.insert(0, "advantage", data[:, DECISION_RECORD.advantage])
    df.insert(0, "chosen", data[:, DECISION_RECORD.chosen].astype(bool))
    df.insert(0, "decision", data[:, DECISION_RECORD.decision].astype(np.int64))
    return df


def _is_pass(rec: pd.DataFrame) -> np.ndarray:
    return (rec[list(FEATURES)].to_numpy() == 0.0).all(axis=1)


def fit_weights(rec: pd.DataFrame, prior: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Feature weights minimising sum(rollouts * (advantage - x.w)^2) + shrinkage toward ``prior``
    (module docstring); pass rows carry nothing and are left out."""
    rows = rec[~_is_pass(rec)]
    if rows.empty:
        raise UserError("no recorded decision with a candidate besides pass: record more games")
    x = rows[list(FEATURES)].to_numpy()
    y = rows["advantage"].to_numpy()
    n = rows["rollouts"].to_numpy().astype(float)
    xtx = x.T @ (x * n[:, None])
    seen = np.diag(xtx)
    # each feature pulled toward ev's weight by ``ridge`` of its own weight in the records; one
    # the records never vary (a bet type the rules lack) keeps ev's weight
    lam = np.diag(np.where(seen > 0, ridge * seen, 1.0))
    return np.linalg.solve(xtx + lam, x.T @ (n * y) + lam @ prior)


def choices(rec: pd.DataFrame, weights: np.ndarray, threshold: float = 0.0) -> pd.DataFrame:
    """Per decision: whether the best candidate by ``weights`` (pass scores ``threshold``,
    ties to the first) is the one ``mc`` chose."""
    score = rec[list(FEATURES)].to_numpy() @ weights
    score = np.where(_is_pass(rec), threshold, score)
    frame = pd.DataFrame({"decision": rec["decision"].to_numpy(), "score": score, "chosen": rec["chosen"].to_numpy()})
    best = frame.groupby("decision", sort=False)["score"].idxmax()
    picked = frame.loc[best.to_numpy(), ["decision", "chosen"]]
    return picked.rename(columns={"chosen": "agrees"})


def agreement(rec: pd.DataFrame, weights: np.ndarray) -> dict:
    """Share of decisions where ``weights`` pick ``mc``'s choice, with its Wilson interval."""
    picked = choices(rec, weights)
    n = len(picked)
    k = int(picked["agrees"].sum())
    p, lo, hi = wilson(k, n) if n else (np.nan, np.nan, np.nan)
    return {"decisions": n, "agree": p, "agree_low": lo, "agree_high": hi}


def distill(rules, profile: Profile, model, *, iterations: int = 2, games: int = 400, holdout: int = 200,
            seed: int = 1, mc: str = "mc", start: np.ndarray | None = None,
            progress: bool | None = False) -> tuple[DistilledWeights, pd.DataFrame]:
    """Expert iteration (module docstring): ``iterations`` rounds of recording ``games`` games and
    refitting; returns the last weights and a table per iteration of held-out agreement (fitted
    weights and ``ev``'s scoring) on ``holdout`` games of a seed of their own."""
    prior = ev_weights(rules)
    w = prior.copy() if start is None else np.asarray(start, dtype=float)
    rows = []
    pooled = []
    total = iterations * (games + holdout)
    with Progress(total, "sponsio distill", enabled=progress) as bar:
        for it in range(iterations):
            mc_self = "ev" if it == 0 and start is None else "distilled"
            train = record(rules, profile, model, w, games=games,
                           seed=derive_seed(seed, "distill", it), mc=mc, mc_self=mc_self, progress=bar)
            pooled.append(train)
            w_new = fit_weights(pd.concat(pooled, ignore_index=True), prior)
            test = record(rules, profile, model, w, games=holdout,
                          seed=derive_seed(seed, "holdout", it), mc=mc, mc_self=mc_self, progress=bar)
            fitted, ev = agreement(test, w_new), agreement(test, prior)
            rows.append({"iteration": it + 1, "train_decisions": int(train["decision"].nunique()),
                         **{f"distilled_{k}": v for k, v in fitted.items()},
                         **{f"ev_{k}": v for k, v in ev.items() if k != "decisions"}})
            w = w_new
    meta = {"iterations": iterations, "games": games, "holdout": holdout, "seed": seed, "mc": mc,
            "rules": rules.name, "field": profile.text(), "agreement": rows[-1]}
    return DistilledWeights(rules.players, [float(v) for v in w], meta), pd.DataFrame(rows)

