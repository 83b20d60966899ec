"""How well inference places the hidden cards: self-play betting states
scored against where the cards really were.

For every decision with at least one other seat's action to read, the
deciding seat's probability that each card hidden from it sits with each
other seat (``infer.card_probs``) is set against the truth, with and
without inference: log-loss per hidden card (natural log; probabilities
floored at ``FLOOR``), Brier score per (card, seat) pair, and a
reliability table (predicted probability bins against observed shares,
Wilson intervals).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.progress import Progress
from tabletop_mc.stats import wilson
from sponsio_sim.analysis.advise.infer import DEFAULT_TREMBLE, Reading, card_probs, draw_worlds
from sponsio_sim.analysis.advise.selfplay import decisions
from sponsio_sim.analysis.advise.state import next_actor
from sponsio_sim.analysis.advise.arrays import build_state_arrays
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.kernels.advise.actions import END_USE
from sponsio_sim.kernels.layout import BOARD

FLOOR = 1e-3
BINS = np.linspace(0.0, 1.0, 11)


def score_states(profile: str, rules, seeds, *, proposals: int = 4000, tremble: float = DEFAULT_TREMBLE,
                 assume: str | None = None, progress: bool | None = None):
    """Per (state, hidden card, other seat): the predicted probability with
    and without inference and whether the card is there. Returns a
    DataFrame and the number of states scored."""
    lineup = resolve(profile, rules)
    strategies, model = lineup.strategies, lineup.model
    rows = []
    states = 0
    seeds = list(seeds)
    with Progress(len(seeds), "inference calibration", enabled=progress) as prog:
        for seed in seeds:
            for d in decisions(profile, rules, seed):
                me = next_actor(d.state)
                if not any(h[1] != END_USE and h[0] != me for h in d.state.history):
                    continue
                arrays = build_state_arrays(d.state, strategies, model)
                s = arrays.seat
                board = arrays.now[0]
                seen = int(d.hands[s]) | int(board[BOARD.talon]) | int(board[BOARD.revealed])
                hidden = ~seen & ((1 << (9 * rules.n_colours)) - 1)
                probs = {}
                for infer in (True, False):
                    w = draw_worlds(arrays, 1, seed * 1000 + states, Reading(infer, assume, tremble, proposals),
                                    rules=rules, strategies=strategies)
                    probs[infer] = (card_probs(w, rules.players, 9 * rules.n_colours), w.ess)
                states += 1
                for c in range(9 * rules.n_colours):
                    if not (hidden >> c) & 1:
                        continue
                    for t in range(rules.players):
                        if t == s:
                            continue
                        rows.append((states, c, t, probs[True][0][t, c], probs[False][0][t, c],
                                     int((int(d.hands[t]) >> c) & 1), probs[True][1]))
            prog.advance(1)
    return pd.DataFrame(rows, columns=["state", "card", "seat", "p_infer", "p_uniform", "there", "ess"]), states


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Log-loss (per hidden card) and Brier score (per card and seat), with and without inference."""
    out = []
    truth = df[df["there"] == 1]
    for name, col in (("inference", "p_infer"), ("uniform", "p_uniform")):
        ll = -np.log(np.maximum(truth[col].to_numpy(), FLOOR))
        brier = (df[col] - df["there"]) ** 2
        se_ll = ll.std(ddof=1) / np.sqrt(len(ll))
        out.append(dict(method=name, log_loss=ll.mean(), log_loss_low=ll.mean() - 1.96 * se_ll,
                        log_loss_high=ll.mean() + 1.96 * se_ll, brier=brier.mean(), cards=len(truth),
                        pairs=len(df)))
    d = (-np.log(np.maximum(truth["p_infer"].to_numpy(), FLOOR))
         + np.log(np.maximum(truth["p_uniform"].to_numpy(), FLOOR)))
    se = d.std(ddof=1) / np.sqrt(len(d))
    out.append(dict(method="inference - uniform (paired)", log_loss=d.mean(), log_loss_low=d.mean() - 1.96 * se,
                    log_loss_high=d.mean() + 1.96 * se, brier=np.nan, cards=len(d), pairs=len(df)))
    return pd.DataFrame(out)


def reliability(df: pd.DataFrame, col: str = "p_infer") -> pd.DataFrame:
    """Predicted-probability bins against the observed share of pairs whose card was there."""
    b = np.clip(np.digitize(df[col], BINS[1:-1]), 0, len(BINS) - 2)
    rows = []
    for i in range(len(BINS) - 1):
        sel = df[b == i]
        if len(sel) == 0:
            continue
        k = int(sel["there"].sum())
        p, lo, hi = wilson(k, len(sel))
        rows.append(dict(bin=f"{BINS[i]:.1f}-{BINS[i + 1]:.1f}", predicted=sel[col].mean(), observed=p,
                         observed_low=lo, observed_high=hi, pairs=len(sel)))
    return pd.DataFrame(rows)
