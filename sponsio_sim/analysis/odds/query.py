"""Odds of every bet for a seat's hand: the `sponsio odds` job.

Rows are catalogue bets (or the bets asked for), each with n, P(success),
its 95% Wilson interval, the multiplier, EV = P x multiplier - stake and the
fair multiplier 1/P. Under a goal-seeking policy the asking seat plays for
the row's bet, so each row is its own simulation; under a policy that
ignores bets one simulation answers every row. ``--policy pimc``, ``dd``
and ``POLICY,dd`` run the engines of ``analysis.odds.dd`` the same way
(``analysis.odds.job``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from tabletop_mc.backend import use_backend
from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.runner import set_threads
from sponsio_sim.analysis.odds.dd import dd_brackets, beside, pimc_odds, split_policy
from sponsio_sim.analysis.odds.result import OddsResult
from sponsio_sim.analysis.settings import Run
from sponsio_sim.analysis.odds.job import (PLAY_POLICIES, SIMULATED, catalogue_for, odds_query, odds_table,
                                           policy_code, simulate_rows)
from sponsio_sim.bets import Bet
from sponsio_sim.bet_kinds import BY_NAME, param_slot
from sponsio_sim.kernels.contexts import deal_conditions
from sponsio_sim.kernels.odds.simulate import kind_slots, stats_layout
from sponsio_sim.rules import load_rules
from sponsio_sim.situation import Situation, build_situation

GOAL_DEPENDENT = {"goal"}


def stat_index(bet: Bet, layout: dict, rules) -> int:
    """Where the kernel counts successes of the asking seat's ``bet``."""
    return layout[bet.kind] + param_slot(BY_NAME[bet.kind], (bet.a, bet.b), rules.hand_size, rules.n_colours,
                                         rules.players)


def kernel_args(sit: Situation, policy: str, opponents: str, stop: Bet | None = None) -> tuple:
    """The odds kernel's arguments after (seed, first chunk, counts); ``stop``: the one
    bet whose count is read (a round may end once it is settled)."""
    r = sit.rules
    arrays = sit.kernel_arrays()
    layout = stats_layout(r.hand_size, r.n_colours, r.players)
    play_policies = np.full(r.players, policy_code(opponents, "--opponents"), dtype=np.int64)
    play_policies[sit.seat] = policy_code(policy)
    return (deal_conditions(arrays), odds_query(sit, arrays), play_policies, kind_slots(layout),
            np.int64(layout["size"]),
            np.array(stop.code() if stop is not None else (-1, 0, 0), dtype=np.int64))



def simulate(sit: Situation, policy: str, opponents: str, *, n: int, target_ci: float | None,
             seed: int, watch: list[int], progress: Progress | None = None,
             cache: bool = False) -> tuple[np.ndarray, int]:
    """Run the odds kernel for one situation; return (counts, rounds).

    Stops early once every ``watch``ed count's Wilson interval is narrower
    than ``target_ci``; with ``cache`` finished batches are kept on disk.
    """
    return SIMULATED.run(seed, kernel_args(sit, policy, opponents), cap=n, target_ci=target_ci,
                         watch=np.asarray(watch, dtype=np.int64), progress=progress, cache=cache)


@dataclass(frozen=True)
class Query:
    """A seat's question: its ``hand`` and the ``talon`` (card strings, ``"R9 R7 ..."``; talon None:
    dealt at random), its ``seat``, who ``lead``s the first trick, the other seats' ``revealed`` cards
    (``"1:G9 Y1; 2:B2"``), its ``bets`` (``"tricks=2,last"``; None: the whole catalogue, one row per
    bet) and the ``others``' bets (``"1:tricks=3; 2:colour:R=0"``; a seat without bets: a troll)."""
    hand: str
    talon: str | None = None
    seat: int = 0
    lead: int = 0
    revealed: str | None = None
    bets: str | None = None
    others: str | None = None


@dataclass(frozen=True)
class OddsPlay:
    """How the round is played: the asking seat's ``policy`` (a play policy; ``dd``: double-dummy
    brackets; ``pimc`` with ``worlds`` sampled layouts per decision; ``POLICY,dd``: both, see
    ``analysis.odds.dd``) and the ``opponents``' play policy."""
    policy: str = "goal"
    opponents: str = "goal"
    worlds: int = 20


def odds(query: Query, play: OddsPlay = OddsPlay(), *, n: int | None = None, target_ci: float | None = None,
         rules=None, players: int | None = None, overrides=None, run: Run = Run(),
         on_table: Callable[[OddsResult], None] | None = None) -> OddsResult:
    """Odds of the asking seat's bets for ``query``: an ``OddsResult``, its table sorted by EV.

    ``n`` fixes the rounds per simulation; ``target_ci`` stops when every
    interval is narrower (default 0.01 when neither is given; ``n`` then caps).
    ``run``: seed, threads, progress, Dask (the same numbers as a local run)
    and the batch cache (``analysis.settings.Run``). ``on_table``, if given,
    sees the table as it sharpens, after every batch of a simulated or PIMC
    policy (the rows so far; the last is the result returned).
    """
    hand, talon = query.hand, query.talon
    policy, opponents, worlds = play.policy, play.opponents, play.worlds
    seed, progress, cache = run.seed, run.progress, run.cache
    sim_policy, with_dd = split_policy(policy, [*PLAY_POLICIES, "pimc"])
    ruleset = load_rules(rules, players, overrides)
    sit = build_situation(ruleset, hand, talon, seat=query.seat, lead=query.lead, revealed=query.revealed,
                          bets=query.bets, others=query.others)
    policy_code(opponents, "--opponents")
    if n is not None and n < 1:
        raise UserError(f"-n {n}: the number of rounds must be at least 1")
    if target_ci is not None and not 0 < target_ci < 1:
        raise UserError(f"--target-ci {target_ci}: must be between 0 and 1")
    set_threads(run.threads)
    with use_backend(run.scheduler, run.workers):
        sim = dd = None
        if sim_policy == "pimc":
            sim = pimc_odds(sit, opponents, n=n, target_ci=target_ci, seed=seed, worlds=worlds,
                            progress=progress, cache=cache, on_table=None if with_dd else on_table)
        elif sim_policy is not None:
            sim = simulated_odds(sit, sim_policy, opponents, n=n, target_ci=target_ci, seed=seed,
                                 progress=progress, cache=cache, on_table=None if with_dd else on_table)
        if with_dd:
            dd = dd_brackets(sit, n=n, target_ci=target_ci, seed=seed, progress=progress, cache=cache)
    if dd is None:
        return sim
    out = dd if sim is None else beside(sim, dd, sim_policy)
    return replace(out, policy=sim_policy or "dd", opponents=opponents if sim is not None else "-")


def simulated_odds(sit: Situation, policy: str, opponents: str, *, n: int | None, target_ci: float | None,
                   seed: int, progress: bool | None = False, cache: bool = False,
                   on_table: Callable[[OddsResult], None] | None = None) -> OddsResult:
    """The odds table with the asking seat on a simulated play policy (``on_table``: as ``odds``)."""
    ruleset = sit.rules
    cap, target_ci = SIMULATED.budget(n, target_ci)
    layout = stats_layout(ruleset.hand_size, ruleset.n_colours, ruleset.players)
    joint = len(sit.bets) > 1
    rows_bets, left_out = (list(sit.bets), []) if sit.bets else catalogue_for(sit)
    goal_rows = not sit.bets and (policy in GOAL_DEPENDENT or opponents in GOAL_DEPENDENT)
    runs = [[b] for b in rows_bets] if goal_rows else [list(sit.bets)]

    def slots_of(run):
        shown = run if goal_rows else rows_bets
        slots = [(b.notation(ruleset), stat_index(b, layout, ruleset), ruleset.multiplier_for(b), ruleset.stake)
                 for b in shown]
        if joint:
            slots.append(("all:" + ",".join(b.notation(ruleset) for b in sit.bets), layout["joint"], np.nan,
                          ruleset.stake * len(sit.bets)))
        return slots

    def args_of(run):
        if goal_rows:
            return kernel_args(sit.with_bets(run), policy, opponents, stop=run[0])
        # one row read: its rounds may end once its bet is settled
        return kernel_args(sit, policy, opponents, stop=sit.bets[0] if len(sit.bets) == 1 else None)

    def table(results):
        return OddsResult(odds_table(results, joint=joint, by_ev=not sit.bets), situation=sit.describe(),
                          rules=ruleset.summary(), seat=sit.seat, seed=seed, policy=policy, opponents=opponents,
                          left_out=(f"left out {', '.join(b.notation(ruleset) for b in left_out)}: a seat "
                                    "without bets (--others) cannot fail") if left_out else "")

    with Progress(cap * len(runs), "sponsio odds", enabled=progress, upper_bound=target_ci is not None) as bar:
        results = simulate_rows(SIMULATED, sit, runs, args_of=args_of, slots_of=slots_of, cap=cap,
                                target_ci=target_ci, run=Run(seed=seed, progress=bar, cache=cache),
                                on_rows=None if on_table is None else lambda rows: on_table(table(rows)))
    return table(results)
