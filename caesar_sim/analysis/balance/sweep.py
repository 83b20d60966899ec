"""`sweep`: rerun the same games (same seed) under alternative rule numbers; report what moves."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.rulefile import split_override  # the same key=value parsing as --set
from tabletop_mc.stats import mean_ci, wilson
from caesar_sim.analysis.game.runs import Batch, RunSettings, run_games
from caesar_sim.rules import load_rules


def variants(items) -> list[tuple[str, str]]:
    """``key=v1;v2`` strings -> [(key, v1), (key, v2), ...] (each a variant of the base rules)."""
    out = []
    for item in items:
        key, values = split_override(item)
        for v in values.split(";"):
            if not v.strip():
                raise UserError(f"--set {item!r}: empty value")
            out.append((key, v.strip()))
    if not out:
        raise UserError("sweep needs at least one --set KEY=VALUE (alternatives: KEY=V1;V2)")
    return out


def _paired(d: np.ndarray) -> tuple[float, float, float]:
    return mean_ci(d.sum(), (d * d).sum(), len(d))


def compare(base: Batch, alt: Batch, label: str) -> list[dict]:
    """Rows per profile entry (a field: per seat, its strategies drawn per game): win rate and mean coins
    under ``alt`` and their paired change vs ``base``."""
    rows = []
    by_entry = not base.is_field
    bs, as_ = (base.entry_scores(), alt.entry_scores()) if by_entry else (base.scores, alt.scores)
    bw, aw = base.win_shares(by_entry), alt.win_shares(by_entry)
    labels = alt.profile.labels if by_entry else [f"seat {s}" for s in range(alt.players)]
    for e, entry in enumerate(labels):
        p, lo, hi = wilson(aw[:, e].sum(), alt.n)
        dw = _paired(aw[:, e] - bw[:, e])
        m, mlo, mhi = mean_ci(as_[:, e].sum(), (as_[:, e].astype(float) ** 2).sum(), alt.n)
        ds = _paired((as_[:, e] - bs[:, e]).astype(float))
        moved = label != "baseline" and (dw[1] > 0 or dw[2] < 0 or ds[1] > 0 or ds[2] < 0)
        rows.append({"variant": label, "entry": entry, "n": alt.n, "win_rate": p, "ci_low": lo, "ci_high": hi,
                     "d_win": dw[0], "d_win_low": dw[1], "d_win_high": dw[2],
                     "score": m, "score_low": mlo, "score_high": mhi,
                     "d_score": ds[0], "d_score_low": ds[1], "d_score_high": ds[2], "moved": moved})
    return rows


def sweep(players: int, profile: str, n: int, alternatives, settings: RunSettings = RunSettings(), *,
          rotate: bool = True) -> tuple[pd.DataFrame, str]:
    """Baseline plus one run per alternative rule value, all with the same seed (paired comparison).

    Returns the table and the baseline rule summary. ``moved`` marks a variant whose change in
    win rate or mean coins for an entry has a 95% CI that excludes zero.
    """
    alts = variants(alternatives)
    base_rules = load_rules(settings.rules)
    for key, value in alts:  # validate every variant before running anything
        load_rules(base_rules, [f"{key}={value}"])
    base = run_games(players, profile, n, settings.but(rules=base_rules), rotate=rotate, label="baseline")
    rows = compare(base, base, "baseline")
    for key, value in alts:
        alt = run_games(players, base.profile, n, settings.but(rules=base_rules, overrides=[f"{key}={value}"]),
                        rotate=rotate, label=f"{key}={value}")
        rows += compare(base, alt, f"{key}={value}")
    return pd.DataFrame(rows), base_rules.summary()
