"""`sponsio recommend`: integer multipliers that bring every bet type's RTP to a target.

Fixed-point search: play the profile's games with the current table, set
each type's multiplier to the integer (within the user's range) whose RTP
would be nearest the target if the same bets were placed and hit as often
(RTP is proportional to the multiplier), and replay with the new table, so
the ``ev`` betting policy re-adapts to it. Stop when every type's RTP is
within the tolerance, the table no longer changes (a fixed point), a table
repeats or the iterations run out. The table reported is the one with the
smallest RTP spread; "converged" means every type placed is within the
tolerance under it, and each type that is not gets a reason. The chosen
table is then checked with restricted play (``sponsio exploit``'s
``without`` family): a type whose removal costs one seat more than
``dominance`` win share dominates the game under that table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.backend import use_backend
from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.runner import set_threads
from sponsio_sim.analysis.balance.run import run_balance
from sponsio_sim.analysis.game.exploit import _measures, deviations, paired_run
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.kernels.game.exploit import P_DEV
from sponsio_sim.analysis.game.setup import model_variant, parse_profile
from sponsio_sim.rules import load_rules

TOLERANCE = 0.1      # |RTP - target| per coin staked within which a type counts as in range
DOMINANCE = 0.05     # win share a seat loses without a type, beyond which that type dominates


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


def recommend(profile: str = "reference", *, players: int | None = None, n: int = 50_000,
              seed: int = 1, rules=None, overrides=None, target_rtp: float = 1.0, mult_range: str = "2..6",
              max_iter: int = 6, tolerance: float = TOLERANCE, check: bool = True,
              dominance: float = DOMINANCE, threads: int | None = None, model=None,
              progress: bool | None = False, scheduler: str | None = None, workers: int | None = None,
              cache: bool = True) -> pd.DataFrame:
    """One row per bet type: multiplier, RTP and EV per coin before and after
    (95% CIs), whether the type ends within ``tolerance`` of the target and why
    not; ``attrs``: iterations, converged (every type placed within tolerance),
    fixed point, RTP spread before/after, and the restricted-play check of the
    chosen table (``check``: each type's value to one seat, ``sponsio exploit``)."""
    base = load_rules(rules, players, overrides)
    strategies = parse_profile(profile, base)
    text = ", ".join(s.text for s in strategies)
    lo, hi = parse_range(mult_range)
    if not 0 < target_rtp < 10:
        raise UserError(f"--target-rtp {target_rtp}: must be between 0 and 10")
    if not 0 < tolerance < 10:
        raise UserError(f"--tolerance {tolerance}: must be between 0 and 10")
    if n < 1:
        raise UserError(f"-n {n}: the number of games must be at least 1")
    if base.multiplier_param and any(base.multiplier_param.values()):
        raise UserError("recommend searches one multiplier per type: clear the rule set's multiplier_param first")
    success = find_model(base, model, progress=progress, variant=model_variant(profile, base))
    set_threads(threads)
    mults = {k: int(round(base.multiplier[k])) for k in base.bets}
    history, seen = [], {}
    fixed_point = False
    with Progress(n * (max_iter + 1), "sponsio recommend", enabled=progress) as bar, \
            use_backend(scheduler, workers):
        for it in range(max_iter + 1):
            ruleset = load_rules(base, overrides=_table_overrides(mults))
            kinds = run_balance(ruleset, text, n, seed=seed, model=success, progress=bar, cache=cache).kinds
            kinds = kinds.set_index("type")
            history.append((dict(mults), kinds))
            seen[tuple(sorted(mults.items()))] = it
            if _spread(kinds, target_rtp) <= tolerance:
                break
            new = {}
            for k in base.bets:
                rtp = kinds.loc[k, "rtp"]
                if kinds.loc[k, "placed"] == 0 or not np.isfinite(rtp) or rtp <= 0:
                    new[k] = mults[k]
                else:
                    new[k] = int(min(hi, max(lo, round(mults[k] * target_rtp / rtp))))
            if new == mults:
                fixed_point = True
                break
            if tuple(sorted(new.items())) in seen:
                break
            mults = new
    best = min(range(len(history)), key=lambda i: _spread(history[i][1], target_rtp))
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
    df["at_range_bound"] = [m1[k] in (lo, hi) and abs(r - target_rtp) > tolerance
                            for k, r in zip(base.bets, df["rtp_after"])]
    df["within"] = [int(p) > 0 and abs(r - target_rtp) <= tolerance
                    for p, r in zip(df["placed_after"], df["rtp_after"])]
    df["why_not"] = [_why_not(row, history, target_rtp, tolerance, lo, hi) for row in df.itertuples()]
    placed = df[df["placed_after"] > 0]
    converged = bool(len(placed)) and bool(placed["within"].all())
    df.attrs.update(iterations=len(history), converged=converged, fixed_point=fixed_point, chosen_iteration=best,
                    spread_before=_spread(k0, target_rtp), spread_after=_spread(k1, target_rtp),
                    target_rtp=target_rtp, tolerance=tolerance, range=(lo, hi), n=n, seed=seed,
                    rules=base.summary(), profile=text, reference=str(profile).strip().lower() == "reference",
                    history=[h[0] for h in history], model=success.source)
    if check:
        chosen = load_rules(base, overrides=_table_overrides(m1))
        value = restricted_play(chosen, strategies, n, seed=seed, model=success, dominance=dominance,
                                progress=progress)
        df.attrs.update(restricted_play=value, dominant=list(value.loc[value["dominant"], "type"]),
                        dominance=dominance)
    return df


def _why_not(row, history, target, tolerance, lo, hi) -> str:
    """Why a type's RTP is not within tolerance under the chosen table ('' if it is)."""
    if row.within:
        return ""
    if row.placed_after == 0:
        return "not placed under the chosen table (the profile never finds it worth a stake)"
    for mults, kinds in history:
        rtp = kinds.loc[row.type, "rtp"]
        if mults[row.type] == lo and kinds.loc[row.type, "placed"] and rtp > target + tolerance:
            return (f"RTP {rtp:.2f} even at the lowest multiplier {lo} (table {mults}): the profile places it "
                    f"only when it expects to win")
        if mults[row.type] == hi and kinds.loc[row.type, "placed"] and rtp < target - tolerance:
            return f"RTP {rtp:.2f} even at the highest multiplier {hi} (table {mults})"
    ms = sorted({h[0][row.type] for h in history})
    if len(ms) > 1:
        return (f"no integer multiplier in the tables tried ({', '.join(map(str, ms))}) brings it within "
                f"{tolerance:g}: the profile re-adapts its bets to each table")
    return f"RTP {row.rtp_after:.2f}: more iterations (--max-iter) may bring it within {tolerance:g}"


def restricted_play(rules, strategies, n: int, *, seed: int, model, dominance: float = DOMINANCE,
                    progress=None) -> pd.DataFrame:
    """Each bet type's value to one seat under ``rules``: the win share it loses when it never
    places that type while the others keep the profile (paired, ``analysis.game.exploit``).
    A type is dominant when the loss's 95% interval lies above ``dominance``."""
    rows = []
    for label, dev in deviations(strategies[0], rules, "without"):
        lineup = [dev] + list(strategies[1:])
        _, _, pair = paired_run(rules, strategies, lineup, 0, n, seed=seed, model=model)
        m = _measures(pair, P_DEV)
        rows.append({"type": label.split("=", 1)[1], "value": -m["gain"], "value_low": -m["gain_high"],
                     "value_high": -m["gain_low"], "dominant": -m["gain_high"] > dominance})
    return pd.DataFrame(rows, columns=["type", "value", "value_low", "value_high", "dominant"])
