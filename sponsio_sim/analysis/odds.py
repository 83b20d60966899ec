"""Odds of every bet for a seat's hand: the `sponsio odds` job.

Rows are catalogue bets (or the bets asked for), each with n, P(success),
its 95% Wilson interval, the multiplier, EV = P x multiplier - stake and the
fair multiplier 1/P. Under a goal-seeking policy the asking seat plays for
the row's bet, so each row is its own simulation; under a policy that
ignores bets one simulation answers every row.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.backend import KernelBatch, use_backend
from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.resultcache import ResultCache
from tabletop_mc.runner import run_chunked, set_threads
from tabletop_mc.stats import wilson, wilson_rounds_needed, wilson_width
from sponsio_sim.bets import Bet, catalogue
from sponsio_sim.kernels import CACHE_DIR
from sponsio_sim.kernels.odds import stats_layout
from sponsio_sim.kernels.policies import GOAL, GREEDY, RANDOM
from sponsio_sim.rules import load_rules
from sponsio_sim.situation import Situation, build_situation

PLAY_POLICIES = {"random": RANDOM, "greedy": GREEDY, "goal": GOAL}
GOAL_DEPENDENT = {"goal"}
DEFAULT_TARGET_CI = 0.01
DEFAULT_MAX_N = 2_000_000
ODDS_CHUNK = 512
ODDS_FIRST_BATCH = 4  # chunks: 2 048 rounds settle rows near 0 or 1
COLUMNS = ["bet", "n", "p", "ci_low", "ci_high", "multiplier", "ev", "fair_multiplier"]


def catalogue_for(sit: Situation) -> tuple[list[Bet], list[Bet]]:
    """The catalogue rows worth asking for this seat, and the ones left out:
    fail:S needs seat S to hold bets (--others); a seat without bets cannot fail,
    so its row would be p = 0 with no finite fair multiplier."""
    rows = catalogue(sit.rules, sit.seat)
    left_out = [b for b in rows if b.kind == "fail" and b.a not in sit.others]
    return [b for b in rows if b not in left_out], left_out


def policy_code(name: str, what: str = "--policy") -> int:
    try:
        return PLAY_POLICIES[name]
    except KeyError:
        raise UserError(f"{what}: unknown play policy '{name}' (choose from {', '.join(PLAY_POLICIES)})") from None


def stat_index(bet: Bet, layout: dict) -> int:
    """Where the kernel counts successes of the asking seat's ``bet``."""
    if bet.kind == "tricks":
        return layout["tricks"] + bet.a
    if bet.kind == "colour":
        return layout["colour"] + bet.a * 10 + bet.b
    if bet.kind == "fail":
        return layout["fail"] + bet.a if bet.a >= 0 else layout["joint"] - 1   # the any-seat slot
    return layout[bet.kind]


def simulate(sit: Situation, policy: str, opponents: str, *, n: int, target_ci: float | None,
             seed: int, watch: list[int], progress: Progress | None = None,
             cache: bool = False) -> tuple[np.ndarray, int]:
    """Run the odds kernel for one situation; return (counts, rounds).

    Stops early once every ``watch``ed count's Wilson interval is narrower
    than ``target_ci``; with ``cache`` finished batches are kept on disk.
    """
    r = sit.rules
    arrays = sit.kernel_arrays()
    pol = np.full(r.players, policy_code(opponents, "--opponents"), dtype=np.int64)
    pol[sit.seat] = policy_code(policy)
    watch = np.asarray(watch, dtype=np.int64)

    batch = KernelBatch("sponsio_sim.kernels.odds", "odds_chunks", seed, arrays["pool"], arrays["fixed"],
                        arrays["need"], arrays["talon_fixed"], np.int64(arrays["talon_need"]),
                        arrays["revealed"], np.int64(sit.lead), pol, arrays["codes"], arrays["bcounts"],
                        np.int64(sit.seat), np.int64(r.n_colours), np.int64(r.hand_size),
                        np.int64(r.kernel_flags))

    def stop(totals, rounds):
        return target_ci is not None and bool(np.all(wilson_width(totals[watch], rounds) <= target_ci))

    def needed(totals, rounds):
        return float(np.max(wilson_rounds_needed(totals[watch], rounds, target_ci)))

    store = ResultCache(batch.cache_key(CACHE_DIR.name, ODDS_CHUNK)) if cache else None
    res = run_chunked(batch, n, chunk_size=ODDS_CHUNK, stop=stop, progress=progress,
                      needed=needed if target_ci is not None else None, first_batch=ODDS_FIRST_BATCH,
                      cache=store)
    return res.totals, res.rounds


def odds(hand, talon=None, *, players: int | None = None, seat: int = 0, lead: int = 0,
         revealed=None, bets=None, others=None, policy: str = "goal", opponents: str = "goal",
         n: int | None = None, target_ci: float | None = None, seed: int = 1, rules=None,
         overrides=None, threads: int | None = None, progress: bool | None = False,
         scheduler: str | None = None, workers: int | None = None, worlds: int = 20,
         cache: bool = False) -> pd.DataFrame:
    """Odds of the asking seat's bets for a hand, as a DataFrame sorted by EV.

    ``hand``/``talon`` are card strings (``"R9 R7 ..."``); ``revealed``
    ``"1:G9 Y1; 2:B2"``; ``bets`` ``"tricks=2,last"`` (None: the whole
    catalogue, one row per bet); ``others`` ``"1:tricks=3; 2:colour:R=0"``.
    ``n`` fixes the rounds per simulation; ``target_ci`` stops when every
    interval is narrower (default 0.01 when neither is given; ``n`` then caps).
    ``scheduler`` (``tcp://HOST:PORT``) or ``workers`` (a local cluster) run
    the batches on Dask, with the same numbers as a local run; ``cache``
    keeps finished batches on disk (a rerun or a killed run resumes).
    ``policy`` may also be ``dd`` (double-dummy brackets), ``pimc`` (with
    ``worlds`` sampled layouts per decision) or ``POLICY,dd`` (see
    ``analysis.dd_odds``; these run locally).
    """
    if policy not in PLAY_POLICIES:
        from sponsio_sim.analysis.dd_odds import extended_odds, split_policy
        sim_policy, with_dd = split_policy(policy, [*PLAY_POLICIES, "pimc"])
        if with_dd or sim_policy == "pimc":
            return extended_odds(hand, talon, sim_policy=sim_policy, with_dd=with_dd, players=players,
                                 seat=seat, lead=lead, revealed=revealed, bets=bets, others=others,
                                 opponents=opponents, n=n, target_ci=target_ci, seed=seed, rules=rules,
                                 overrides=overrides, threads=threads, progress=progress, worlds=worlds)
    ruleset = load_rules(rules, players, overrides)
    sit = build_situation(ruleset, hand, talon, seat=seat, lead=lead, revealed=revealed,
                          bets=bets, others=others)
    policy_code(policy)
    policy_code(opponents, "--opponents")
    if n is not None and n < 1:
        raise UserError(f"-n {n}: the number of rounds must be at least 1")
    if target_ci is not None and not 0 < target_ci < 1:
        raise UserError(f"--target-ci {target_ci}: must be between 0 and 1")
    if n is None and target_ci is None:
        target_ci = DEFAULT_TARGET_CI
    cap = n if n is not None else DEFAULT_MAX_N
    set_threads(threads)
    layout = stats_layout(ruleset.hand_size, ruleset.n_colours, ruleset.players)
    joint = len(sit.bets) > 1
    rows_bets, left_out = (list(sit.bets), []) if sit.bets else catalogue_for(sit)
    goal_rows = not sit.bets and (policy in GOAL_DEPENDENT or opponents in GOAL_DEPENDENT)
    runs = [[b] for b in rows_bets] if goal_rows else [list(sit.bets)]
    bar = Progress(cap * len(runs), "sponsio odds", enabled=progress, upper_bound=target_ci is not None)
    try:
        with use_backend(scheduler, workers):
            results = _run_rows(sit, runs, rows_bets, goal_rows, joint, layout, policy, opponents,
                                cap, target_ci, seed, bar, cache)
    finally:
        bar.close()
    df = _table(results)
    if joint:
        df.loc[df.index[-1], "ev"] = df["ev"].iloc[:-1].sum()
    elif not sit.bets:
        df = df.sort_values(["ev", "bet"], ascending=[False, True], kind="stable").reset_index(drop=True)
    df.attrs.update(situation=sit.describe(), rules=ruleset.summary(), seat=sit.seat, seed=seed,
                    policy=policy, opponents=opponents,
                    left_out=(f"left out {', '.join(b.notation(ruleset) for b in left_out)}: a seat without "
                              "bets (--others) cannot fail") if left_out else "")
    return df


def _run_rows(sit, runs, rows_bets, goal_rows, joint, layout, policy, opponents, cap, target_ci, seed, bar,
              cache=False):
    """Simulate each run of bets; return (bet, successes, rounds, multiplier, stake) rows."""
    ruleset = sit.rules
    results = []
    for run_bets in runs:
        run_sit = sit.with_bets(run_bets) if goal_rows else sit
        shown = run_bets if goal_rows else rows_bets
        watch = [stat_index(b, layout) for b in shown] + ([layout["joint"]] if joint else [])
        bar.set_label(f"odds {run_bets[0].notation(ruleset)}" if goal_rows else "odds")
        before = bar.done
        counts, rounds = simulate(run_sit, policy, opponents, n=cap, target_ci=target_ci,
                                  seed=seed, watch=watch, progress=bar, cache=cache)
        bar.total -= cap - (bar.done - before)
        for b in shown:
            results.append((b.notation(ruleset), int(counts[stat_index(b, layout)]), rounds,
                            ruleset.multiplier_for(b), ruleset.stake))
        if joint:
            results.append(("all:" + ",".join(b.notation(ruleset) for b in sit.bets),
                            int(counts[layout["joint"]]), rounds, np.nan,
                            ruleset.stake * len(sit.bets)))
    return results


def _table(results) -> pd.DataFrame:
    bet, k, n, mult, stake = zip(*results)
    k = np.array(k, dtype=float)
    n = np.array(n, dtype=float)
    p, low, high = wilson(k, n)
    mult = np.array(mult, dtype=float)
    with np.errstate(divide="ignore"):
        fair = np.where(p > 0, 1.0 / np.where(p > 0, p, 1.0), np.inf)
    return pd.DataFrame({"bet": bet, "n": n.astype(np.int64), "p": p, "ci_low": low, "ci_high": high,
                         "multiplier": mult, "ev": p * mult - np.array(stake, dtype=float),
                         "fair_multiplier": fair})[COLUMNS]
