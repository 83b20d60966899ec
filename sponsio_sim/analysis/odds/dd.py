"""Double-dummy odds brackets, and `sponsio odds --policy dd|pimc|X,dd`.

Over deals drawn with the same conditioning as the other policies, each
bet row gets two rates: P(makeable in the worst case: the seat wins it
against every other seat playing to defeat it, all cards known) and
P(possible in the best case: some play of all seats wins it). Any play,
by any policy, wins a bet on a deal only where the best case does, so a
simulated policy's rate can never exceed the best-case rate; a rate below
the worst case means the policy loses deals that perfect play wins.

``--policy goal,dd`` puts a simulated policy's rate beside the two
brackets and flags the rows where it lies outside them (Wilson intervals
disjoint).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.stats import wilson
from sponsio_sim.analysis.odds.job import (DD_JOB, PIMC_JOB, catalogue_for, odds_query, odds_table, policy_code,
                                           simulate_rows)
from sponsio_sim.analysis.odds.result import OddsResult
from sponsio_sim.analysis.settings import Run
from sponsio_sim.bets import MAX_BETS
from sponsio_sim.kernels.bets import BET_FIELDS
from sponsio_sim.kernels.contexts import deal_conditions
from sponsio_sim.situation import Situation

DD_COLUMNS = ["bet", "n", "p_worst", "worst_low", "worst_high", "p_best", "best_low", "best_high"]


def bet_rows(sit: Situation):
    """(label, bets) per row: the asking seat's bets one by one and, with
    several, all together; without bets, every catalogue bet."""
    r = sit.rules
    if not sit.bets:
        return [(b.notation(r), [b]) for b in catalogue_for(sit)[0]]
    rows = [(b.notation(r), [b]) for b in sit.bets]
    if len(sit.bets) > 1:
        rows.append(("all:" + ",".join(b.notation(r) for b in sit.bets), list(sit.bets)))
    return rows


def dd_brackets(sit: Situation, *, n: int | None, target_ci: float | None, seed: int,
                progress: bool | None = False, cache: bool = False) -> OddsResult:
    """Worst- and best-case DD rates per bet row, with Wilson intervals (policy ``dd``, opponents ``-``)."""
    r = sit.rules
    cap, target_ci = DD_JOB.budget(n, target_ci)
    rows = bet_rows(sit)
    others = {s: b for s, b in sit.bets_by_seat().items() if s != sit.seat}
    for _, bets in rows:
        check_nines_scope(r, {**others, sit.seat: bets})
    arr = np.zeros((len(rows), MAX_BETS, BET_FIELDS), dtype=np.int64)
    row_counts = np.zeros(len(rows), dtype=np.int64)
    for i, (_, bets) in enumerate(rows):
        for j, b in enumerate(bets):
            arr[i, j, :3] = b.code()
            arr[i, j, 3] = sit.seat * MAX_BETS + j   # placed as bets.encode_table ranks them
        row_counts[i] = len(bets)
    k = sit.kernel_arrays()
    args = (deal_conditions(k), odds_query(sit, k), arr, row_counts)
    with Progress(cap, DD_JOB.label, enabled=progress) as bar:
        totals, rounds = DD_JOB.run(seed, args, cap=cap, target_ci=target_ci, progress=bar, cache=cache)
    totals = totals.reshape(len(rows), 2)
    pw, wl, wh = wilson(totals[:, 0], rounds)
    pb, bl, bh = wilson(totals[:, 1], rounds)
    df = pd.DataFrame({"bet": [label for label, _ in rows], "n": rounds, "p_worst": pw,
                       "worst_low": wl, "worst_high": wh, "p_best": pb, "best_low": bl,
                       "best_high": bh})[DD_COLUMNS]
    return OddsResult(df, situation=sit.describe(), rules=r.summary(), seat=sit.seat, seed=seed, policy="dd",
                      opponents="-")


def beside(sim: OddsResult, dd: OddsResult, policy: str) -> OddsResult:
    """A simulated policy's rates beside the DD brackets, in ``dd``'s row
    order; ``note`` flags a rate whose interval lies wholly outside them
    (``outside`` lists those rows); the rest of ``dd``'s fields kept."""
    sim = sim.table.set_index("bet")
    dd_table = dd.table
    out = dd_table.copy()
    out.insert(1, f"p_{policy}", sim.loc[dd_table["bet"], "p"].to_numpy())
    out.insert(2, f"{policy}_low", sim.loc[dd_table["bet"], "ci_low"].to_numpy())
    out.insert(3, f"{policy}_high", sim.loc[dd_table["bet"], "ci_high"].to_numpy())
    out.insert(4, f"n_{policy}", sim.loc[dd_table["bet"], "n"].to_numpy())
    out = out.rename(columns={"n": "n_dd"})
    note = np.full(len(out), "", dtype=object)
    below = out[f"{policy}_high"] < out["worst_low"]
    above = out[f"{policy}_low"] > out["best_high"]
    note[below.to_numpy()] = "below worst case"
    note[above.to_numpy()] = "ABOVE best case"
    out["note"] = note
    return replace(dd, table=out, outside=tuple(f"{b}: {t}" for b, t in zip(out["bet"], note) if t))


def check_nines_scope(rules, bets_by_seat: dict, rows=()) -> None:
    """The solver judges ``nines_scope = own`` exactly for one nines bettor at a time."""
    if rules.nines_scope != "own":
        return
    seats = {s for s, bets in bets_by_seat.items() if any(b.kind == "nines" for b in bets)}
    if any(b.kind == "nines" for bets in rows for b in bets):
        seats.add(-1)
    if len(seats) > 1:
        raise UserError("nines_scope = own: the double-dummy and PIMC policies judge one nines bettor at a time "
                        "(more than one seat holds a nines bet)")


def split_policy(policy: str, known) -> tuple[str | None, bool]:
    """``"goal,dd"`` -> ("goal", True); one simulated policy at most."""
    parts = [p.strip() for p in str(policy).split(",") if p.strip()]
    has_dd = "dd" in parts
    sims = [p for p in parts if p != "dd"]
    if not parts or len(sims) > 1 or parts.count("dd") > 1:
        raise UserError(f"--policy {policy!r}: give one play policy, 'dd', or POLICY,dd "
                        f"(policies: {', '.join(known)}, dd)")
    for p in sims:
        if p not in known:
            raise UserError(f"--policy: unknown play policy '{p}' (choose from {', '.join(known)}, dd)")
    return (sims[0] if sims else None), has_dd


def pimc_odds(sit: Situation, opponents: str, *, n: int | None, target_ci: float | None, seed: int,
              worlds: int, progress: bool | None = False, cache: bool = False,
              on_table: Callable[[OddsResult], None] | None = None) -> OddsResult:
    """Odds table (as ``analysis.odds.query``) with the asking seat on PIMC play (``on_table``: as there)."""
    from sponsio_sim.kernels.play.pimc import PIMC   # here: the solver's modules load only when PIMC is asked for

    r = sit.rules
    if worlds < 1:
        raise UserError(f"--worlds {worlds}: must be at least 1")
    cap, target_ci = PIMC_JOB.budget(n, target_ci)
    play_policies = np.full(r.players, policy_code(opponents, "--opponents"), dtype=np.int64)
    play_policies[sit.seat] = PIMC
    runs = [[b] for b in catalogue_for(sit)[0]] if not sit.bets else [list(sit.bets)]
    others = {s: b for s, b in sit.bets_by_seat().items() if s != sit.seat}
    for run_bets in runs:
        check_nines_scope(r, {**others, sit.seat: run_bets})

    def args_of(run):
        k = sit.with_bets(run).kernel_arrays()
        return deal_conditions(k), odds_query(sit, k), play_policies, np.int64(worlds)

    def slots_of(run):
        slots = [(b.notation(r), j, r.multiplier_for(b), r.stake) for j, b in enumerate(run)]
        if len(run) > 1:
            slots.append(("all:" + ",".join(b.notation(r) for b in run), -1, np.nan, r.stake * len(run)))
        return slots

    def table(results):
        return OddsResult(odds_table(results, joint=len(sit.bets) > 1, by_ev=not sit.bets),
                          situation=sit.describe(), rules=r.summary(), seat=sit.seat, seed=seed,
                          policy=f"pimc ({worlds} worlds)", opponents=opponents)

    with Progress(cap * len(runs), PIMC_JOB.label, enabled=progress) as bar:
        results = simulate_rows(PIMC_JOB, sit, runs, args_of=args_of, slots_of=slots_of, cap=cap,
                                target_ci=target_ci, run=Run(seed=seed, progress=bar, cache=cache), watch_all=True,
                                on_rows=None if on_table is None else lambda rows: on_table(table(rows)))
    return table(results)
