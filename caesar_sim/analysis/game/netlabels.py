"""`caesar train`'s data: decisions of field games labelled with `mc`'s action values (``kernels.game.netrecord``).

``label`` plays field games under one rule set and returns, for every sampled decision, what the
seat knew (the network's inputs), every legal action's `distilled` features, mean rollout
outcome and paired error, and the seat's final win share. ``targets`` turns them into the
network's training set:

- an action's **gain** is its mean outcome minus the pass's (the first action), with the standard
  error of the paired differences (both on the same random numbers);
- the **linear part** (`distilled`'s features, ``kernels.play.net``) is fitted to the gains by
  weighted least squares (ridge towards the weights it starts from);
- the network's **inputs** get the linear part's score of every action (its ``bid_scores`` block) and its
  **targets** are what the linear part leaves: gain minus linear score, and for the
  pass minus the pass's linear score, so that a decision's values are gains over passing; each
  weighted by the inverse of its squared error plus a floor (a tenth of the gains' spread: a
  value known to the coin is not worth a thousand noisier ones); the value head's target is the
  seat's final win share; the linear scores go with them (``TrainSet.base``), for the listwise
  term that ``caesar train --policy-loss`` adds.

``decision_table`` compares policies with `mc` on held-out decisions: the regret (`mc`'s best
gain minus the gain of the policy's choice, in `mc`'s own values) and the agreement rate, and
`mc` against itself on the same decisions with other random numbers (its noise ceiling).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from tabletop_mc.net.train import TrainSet
from tabletop_mc.progress import Progress
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import derive_seed
from tabletop_mc.stats import mean_ci, wilson
from caesar_sim.analysis.game.runs import RunSettings, chunk_batches, game_keys
from caesar_sim.fieldplay import FieldPlay
from caesar_sim.kernels.game import netrecord as LB
from caesar_sim.kernels.contexts import seats
from caesar_sim.kernels.play.encode import INPUTS
from caesar_sim.kernels.layout import MC_PAIRED, NET_ACTIONS, N_FEATURES
from caesar_sim.rules import kernel_rules, load_rules
from caesar_sim.strategy import Strategy

LABEL_CHUNK = 2          # games per chunk (a chunk's rows are bounded by its games' decisions)
FLOOR = 0.1              # a target's error floor, as a share of the gains' standard deviation
RIDGE = 1.0              # the linear part's pull towards its starting weights (per unit of total weight)


@dataclass
class Labels:
    """Labelled decisions: inputs ``x`` (one row each), ``dec`` (``kernels.game.netrecord.DEC_*`` columns) and their
    actions ``act`` (``ACT_*`` columns then the features), a decision's actions contiguous, pass first."""

    x: np.ndarray
    dec: np.ndarray
    act: np.ndarray

    @property
    def n(self) -> int:
        return len(self.dec)

    def group(self) -> np.ndarray:
        """The decision of every action row."""
        return self.act[:, LB.ACT_DECISION].astype(np.int64)

    def first(self) -> np.ndarray:
        """The row of every decision's first action (the pass)."""
        return self.dec[:, LB.DEC_FIRST].astype(np.int64)

    def features(self) -> np.ndarray:
        return self.act[:, 5:5 + N_FEATURES]

    def gains(self) -> tuple[np.ndarray, np.ndarray]:
        """(gain over passing, its standard error) of every action row (module docstring)."""
        g, first = self.group(), self.first()
        mean, n = self.act[:, LB.ACT_MEAN], self.act[:, LB.ACT_ROLLOUTS]
        gain = mean - mean[first][g]
        m = np.minimum(n, MC_PAIRED)
        var = np.maximum(self.act[:, LB.ACT_SQ] / np.maximum(m, 1) - gain ** 2, 0.0) * m / np.maximum(m - 1, 1)
        return gain, np.sqrt(var / np.maximum(n, 1))

    @staticmethod
    def concat(parts: list["Labels"]) -> "Labels":
        xs, decs, acts = [], [], []
        nd = na = 0
        for p in parts:
            dec, act = p.dec.copy(), p.act.copy()
            dec[:, LB.DEC_FIRST] += na
            act[:, LB.ACT_DECISION] += nd
            xs.append(p.x), decs.append(dec), acts.append(act)
            nd, na = nd + len(dec), na + len(act)
        return Labels(np.concatenate(xs), np.concatenate(decs), np.concatenate(acts))


@dataclass(frozen=True)
class Labelling:
    """How decisions are labelled: by ``valuer`` (an `mc` strategy: its rollouts, rollout policy, rollout
    field, horizon and pruning), a decision with chance ``rate``; ``mc_stream`` picks `mc`'s random
    numbers (another stream, the same decisions: the noise ceiling)."""

    valuer: Strategy
    rate: float = 0.25
    mc_stream: int = 0


def label(players: int, play: FieldPlay, games: int, how: Labelling, settings: RunSettings,
          exploiter: Strategy | None = None) -> Labels:
    """Label ``games`` field games of ``play`` under ``settings``' rules (module docstring); with an
    ``exploiter``, seat g % players of game g plays it (the states a lookahead steers the field into:
    its decisions are labelled as the others', and `mc`'s rollouts play it as a field member)."""
    rs = load_rules(settings.rules, settings.overrides)
    rulebook = kernel_rules(rs, players)
    reference = kernel_rules(load_rules("standard"), players)
    # the valuer's rows follow the members' (``row``: its index), the exploiter's after them
    weight_table, pols, ks, cum, row = play.with_rows([how.valuer] + ([exploiter] if exploiter else []),
                                                      settings.mc_horizon)
    seated = row + 1 if exploiter else -1
    dkey, gkey = game_keys(settings.seed)
    table = seats(pols, ks, cum=cum, focal=seated, draw_key=dkey, game_key=gkey)
    lab = LB.Labelling(row, how.valuer.rollouts, float(how.rate), seed_key(derive_seed(settings.seed, "caesar labels")),
                       seed_key(derive_seed(settings.seed, "caesar label rollouts", how.mc_stream)), reference)
    cap_dec = LABEL_CHUNK * LB.decision_bound(players, rs.days)
    caps = np.array([cap_dec, cap_dec * NET_ACTIONS], dtype=np.int64)
    parts = []
    with Progress(games, f"labelling with {how.valuer.label}", enabled=settings.progress) as bar:
        for first, counts in chunk_batches(games, LABEL_CHUNK, settings.threads, bar):
            out = LB.LabelOut(np.zeros((len(counts) * caps[0], INPUTS.size), np.float32),
                              np.zeros((len(counts) * caps[0], LB.DEC_COLS)),
                              np.zeros((len(counts) * caps[1], LB.ACT_COLS)))
            used = np.zeros((len(counts), 2), dtype=np.int64)
            LB.label_batch(rulebook, weight_table, table, lab, first, counts, LABEL_CHUNK, out, caps, used)
            for i, (nd, na) in enumerate(used):
                d0, a0 = i * caps[0], i * caps[1]
                dec, act = out.decisions[d0:d0 + nd].copy(), out.actions[a0:a0 + na].copy()
                dec[:, LB.DEC_FIRST] -= a0
                act[:, LB.ACT_DECISION] -= d0
                parts.append(Labels(out.inputs[d0:d0 + nd].copy(), dec, act))
    return Labels.concat(parts)


def fit_linear(lab: Labels, w0: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The linear part's weights (N_FEATURES): weighted least squares of the gains on the features' differences from
    the pass's, with a ridge pull towards ``w0`` (module docstring)."""
    gain, _ = lab.gains()
    F = lab.features()
    dF = F - F[lab.first()][lab.group()]
    keep = np.ones(len(gain), bool)
    keep[lab.first()] = False
    A, y, w = dF[keep], gain[keep], weight[keep]
    lam = RIDGE * w.sum() / max(len(w), 1)
    M = (A * w[:, None]).T @ A + lam * np.eye(N_FEATURES)
    return np.linalg.solve(M, (A * w[:, None]).T @ y + lam * w0)


def target_weights(lab: Labels) -> np.ndarray:
    """Every action row's weight: 1 / (its error squared + the floor squared); a pass gets its decision's mean."""
    gain, se = lab.gains()
    floor = FLOOR * max(float(gain.std()), 1e-9)
    w = 1.0 / (se ** 2 + floor ** 2)
    first = lab.first()
    sums = np.bincount(lab.group(), weights=w, minlength=lab.n)
    counts = np.bincount(lab.group(), minlength=lab.n)
    w[first] = (sums - w[first]) / np.maximum(counts - 1, 1)
    return w


def scored_inputs(lab: Labels, lin: np.ndarray) -> np.ndarray:
    """The decisions' inputs with the ``bid_scores`` block filled: every action's linear score under ``lin``."""
    x = lab.x.copy()
    x[lab.group(), INPUTS.bid_scores + lab.act[:, LB.ACT_INDEX].astype(np.int64)] = lab.features() @ lin
    return x


def targets(lab: Labels, lin: np.ndarray) -> TrainSet:
    """The network's training set (module docstring): residual targets over the linear part ``lin``."""
    gain, _ = lab.gains()
    weight = target_weights(lab)
    score = lab.features() @ lin
    g, idx = lab.group(), lab.act[:, LB.ACT_INDEX].astype(np.int64)
    q = np.zeros((lab.n, NET_ACTIONS))
    qw = np.zeros((lab.n, NET_ACTIONS))
    base = np.zeros((lab.n, NET_ACTIONS))
    q[g, idx] = gain - score
    qw[g, idx] = weight
    base[g, idx] = score
    v = lab.dec[:, LB.DEC_SHARE]
    return TrainSet(scored_inputs(lab, lin), q, qw, v, np.ones(lab.n), base)


def spread(data: TrainSet) -> float:
    """The weighted variance of the action-value targets (what the value head's loss is scaled to)."""
    w = data.q_weight
    mean = (w * data.q).sum() / max(w.sum(), 1e-12)
    return float((w * (data.q - mean) ** 2).sum() / max(w.sum(), 1e-12))


def choices(lab: Labels, scores: np.ndarray) -> np.ndarray:
    """Per decision, the action row with the best score (the first if tied)."""
    g = lab.group()
    best = np.full(lab.n, -np.inf)
    np.maximum.at(best, g, scores)
    hit = np.flatnonzero(scores >= best[g])
    first = np.full(lab.n, -1)
    first[g[hit[::-1]]] = hit[::-1]
    return first


def net_scores(lab: Labels, net, lin: np.ndarray) -> np.ndarray:
    """Every action row's value under a `net` policy: its linear score plus the network's value for it."""
    q, _ = net.forward(scored_inputs(lab, lin))
    return lab.features() @ lin + q[lab.group(), lab.act[:, LB.ACT_INDEX].astype(np.int64)]


def decision_row(name: str, lab: Labels, chosen: np.ndarray, values: Labels | None = None) -> dict:
    """Agreement with `mc`'s best and regret in `mc`'s gains (``values``: another labelling of the same
    decisions whose gains judge the choice)."""
    judge = values if values is not None else lab
    gain, _ = judge.gains()
    best = choices(judge, gain)
    regret = gain[best] - gain[chosen]
    hits = int((chosen == best).sum())
    agree, lo, hi = wilson(hits, lab.n)
    r, rlo, rhi = mean_ci(regret.sum(), (regret ** 2).sum(), lab.n)
    return {"policy": name, "decisions": lab.n, "agreement": agree, "agreement_low": lo, "agreement_high": hi,
            "regret": r, "regret_low": rlo, "regret_high": rhi}


def decision_table(lab: Labels, again: Labels | None, policies: dict[str, np.ndarray]) -> pd.DataFrame:
    """One row per policy (its score of every action row) and, with ``again`` (the same decisions labelled
    on other random numbers), `mc`'s noise ceiling: its choices on one labelling judged by the other."""
    rows = [decision_row(name, lab, choices(lab, s)) for name, s in policies.items()]
    if again is not None:
        if again.n != lab.n or not np.array_equal(again.act[:, :2], lab.act[:, :2]):
            raise ValueError("the second labelling saw other decisions (the games must not depend on the labels)")
        rows.append(decision_row("mc (other random numbers)", lab, choices(again, again.gains()[0]), lab))
    return pd.DataFrame(rows)
