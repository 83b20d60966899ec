"""`sponsio recommend`: integer multipliers that bring every bet type's RTP to a target.

Fixed-point search: play the profile's games with the current table, set
each type's multiplier to the integer (within the user's range) whose RTP
would be nearest the target if the same bets were placed and hit as often
(RTP is proportional to the multiplier), and replay with the new table, so
the ``ev`` betting policy re-adapts to it. Stop when the table no longer
changes (converged) or a table repeats or the iterations run out (not
converged: the best table seen, by RTP spread, is reported).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mcsim.backend import use_backend
from mcsim.errors import UserError
from mcsim.progress import Progress
from mcsim.runner import set_threads
from sponsio_sim.analysis.balance import run_balance
from sponsio_sim.analysis.game_model import find_model
from sponsio_sim.analysis.game_setup import parse_profile
from sponsio_sim.rules import load_rules


def parse_range(text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(x) for x in str(text).split(".."))
    except ValueError:
        raise UserError(f"--range {text!r}: expected LOW..HIGH, e.g. 2..6") from None
    if not 1 <= lo <= hi:
        raise UserError(f"--range {text!r}: need 1 <= LOW <= HIGH")
    return lo, hi


def _table_overrides(mults: dict) -> dict:
    return {f"multiplier.{k}": int(v) for k, v in mults.items()}


def _spread(kinds: pd.DataFrame, target: float) -> float:
    placed = kinds[kinds["placed"] > 0]
    return float((placed["rtp"] - target).abs().max()) if len(placed) else float("nan")


def recommend(profile: str = "ev:goal:cash4 x4", *, players: int | None = None, n: int = 50_000,
              seed: int = 1, rules=None, overrides=None, target_rtp: float = 1.0, mult_range: str = "2..6",
              max_iter: int = 6, threads: int | None = None, model=None, progress: bool | None = False,
              scheduler: str | None = None, workers: int | None = None, cache: bool = True) -> pd.DataFrame:
    """One row per bet type: multiplier, RTP and EV per coin before and after
    (95% CIs); ``attrs``: iterations, converged, RTP spread before/after."""
    base = load_rules(rules, players, overrides)
    parse_profile(profile, base)
    lo, hi = parse_range(mult_range)
    if not 0 < target_rtp < 10:
        raise UserError(f"--target-rtp {target_rtp}: must be between 0 and 10")
    if n < 1:
        raise UserError(f"-n {n}: the number of games must be at least 1")
    if base.multiplier_param and any(base.multiplier_param.values()):
        raise UserError("recommend searches one multiplier per type: clear the rule set's multiplier_param first")
    success = find_model(base, model, progress=progress)
    set_threads(threads)
    mults = {k: int(round(base.multiplier[k])) for k in base.bets}
    history, seen = [], {}
    converged = False
    with Progress(n * (max_iter + 1), "sponsio recommend", enabled=progress) as bar, \
            use_backend(scheduler, workers):
        for it in range(max_iter + 1):
            ruleset = load_rules(base, overrides=_table_overrides(mults))
            kinds = run_balance(ruleset, profile, n, seed=seed, model=success, progress=bar, cache=cache).kinds
            kinds = kinds.set_index("type")
            history.append((dict(mults), kinds))
            seen[tuple(sorted(mults.items()))] = it
            new = {}
            for k in base.bets:
                rtp = kinds.loc[k, "rtp"]
                if kinds.loc[k, "placed"] == 0 or not np.isfinite(rtp) or rtp <= 0:
                    new[k] = mults[k]
                else:
                    new[k] = int(min(hi, max(lo, round(mults[k] * target_rtp / rtp))))
            if new == mults:
                converged = True
                break
            if tuple(sorted(new.items())) in seen:
                break
            mults = new
    best = min(range(len(history)), key=lambda i: _spread(history[i][1], target_rtp)) if not converged \
        else len(history) - 1
    (m0, k0), (m1, k1) = history[0], history[best]
    rows = []
    for k in base.bets:
        rows.append({"type": k, "multiplier_before": m0[k], "placed_before": int(k0.loc[k, "placed"]),
                     "rtp_before": k0.loc[k, "rtp"], "ev_before": k0.loc[k, "ev_per_coin"],
                     "ev_before_low": k0.loc[k, "ev_low"], "ev_before_high": k0.loc[k, "ev_high"],
                     "multiplier_after": m1[k], "placed_after": int(k1.loc[k, "placed"]),
                     "rtp_after": k1.loc[k, "rtp"], "ev_after": k1.loc[k, "ev_per_coin"],
                     "ev_after_low": k1.loc[k, "ev_low"], "ev_after_high": k1.loc[k, "ev_high"]})
    df = pd.DataFrame(rows)
    df["at_range_bound"] = [m1[k] in (lo, hi) and abs(r - target_rtp) > 0.05
                            for k, r in zip(base.bets, df["rtp_after"])]
    df.attrs.update(iterations=len(history), converged=converged, chosen_iteration=best,
                    spread_before=_spread(k0, target_rtp), spread_after=_spread(k1, target_rtp),
                    target_rtp=target_rtp, range=(lo, hi), n=n, seed=seed, rules=base.summary(),
                    profile=profile, history=[h[0] for h in history])
    return df
