"""The odds engines and the plumbing they share.

An ``OddsJob`` names one kernel that counts bet successes over conditional
deals (simulated play, PIMC play, or double-dummy brackets) with its chunk
size and defaults; ``OddsJob.run`` runs it seeded, stopping once every
watched Wilson interval is narrow enough, here or on Dask, with finished
batches kept in the result cache when asked. ``simulate_rows`` runs one job
per run of bets and reads each row's count; ``odds_table`` turns the rows
into the odds table.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np
import pandas as pd

from tabletop_mc.backend import KernelBatch
from tabletop_mc.progress import Progress
from tabletop_mc.resultcache import ResultCache
from tabletop_mc.runner import RunResult, chunked_steps, last_step
from tabletop_mc.stats import wilson, wilson_rounds_needed, wilson_width
from tabletop_mc.errors import UserError
from sponsio_sim.analysis.settings import Run
from sponsio_sim.bets import Bet, catalogue
from sponsio_sim.kernels import CACHE_DIR
from sponsio_sim.kernels.contexts import QueryArrays
from sponsio_sim.play_policies import PLAY as PLAY_POLICIES
from sponsio_sim.situation import Situation

PREVIEW_CHUNKS = 1   # chunks in a row's first look when odds are shown as they sharpen (``simulate_rows``)
SHARPEN_EVERY = 0.1  # seconds between two looks at the odds as they sharpen, at least
COLUMNS = ["bet", "n", "p", "ci_low", "ci_high", "multiplier", "ev", "fair_multiplier"]


@dataclass(frozen=True)
class OddsJob:
    """One odds kernel: ``module.kernel(seed, first_chunk, counts, *args)``
    returning per-chunk success counts, and how to run it."""

    label: str          # the progress bar's label
    module: str
    kernel: str
    chunk: int          # rounds per chunk (chunk c always draws stream (seed, c))
    first_batch: int    # chunks in the first batch
    default_ci: float   # the interval width aimed at when neither -n nor --target-ci is given
    max_n: int          # the cap on rounds when only --target-ci is given
    sized: bool         # size later batches from the rounds the widest interval still needs

    def budget(self, n: int | None, target_ci: float | None) -> tuple[int, float | None]:
        """(cap on rounds, interval width to stop at): ``-n`` fixes the rounds
        (a cap when a width is given too); neither aims at ``default_ci``."""
        if n is None and target_ci is None:
            target_ci = self.default_ci
        return (n if n is not None else self.max_n), target_ci

    def run(self, seed: int, args: tuple, *, cap: int, target_ci: float | None, watch=None,
            progress: Progress | None = None, cache: bool = False) -> tuple[np.ndarray, int]:
        """Run up to ``cap`` rounds; return (summed counts, rounds). ``watch``
        picks the counts whose intervals decide the stop (None: all)."""
        res = last_step(self.steps(seed, args, cap=cap, target_ci=target_ci, watch=watch, progress=progress,
                                   cache=cache))
        return res.totals, res.rounds

    def steps(self, seed: int, args: tuple, *, cap: int, target_ci: float | None, watch=None,
              progress: Progress | None = None, cache: bool = False, preview: int = 0) -> Iterator[RunResult]:
        """``run`` one batch at a time (``tabletop_mc.runner.chunked_steps``, ``preview`` included)."""
        batch = KernelBatch(self.module, self.kernel, seed, *args)

        def watched(totals):
            return totals if watch is None else totals[watch]

        def stop(totals, rounds):
            return target_ci is not None and bool(np.all(wilson_width(watched(totals), rounds) <= target_ci))

        def needed(totals, rounds):
            return float(np.max(wilson_rounds_needed(watched(totals), rounds, target_ci)))

        store = ResultCache(batch.cache_key(CACHE_DIR.name, self.chunk)) if cache else None
        return chunked_steps(batch, cap, chunk_size=self.chunk, stop=stop, progress=progress,
                             needed=needed if self.sized and target_ci is not None else None,
                             first_batch=self.first_batch, cache=store, preview=preview)


SIMULATED = OddsJob("odds", "sponsio_sim.kernels.odds.simulate", "odds_chunks", chunk=512, first_batch=4,
                    default_ci=0.01, max_n=2_000_000, sized=True)
PIMC_JOB = OddsJob("pimc odds", "sponsio_sim.kernels.odds.dd", "pimc_odds_chunks", chunk=8, first_batch=8,
                   default_ci=0.05, max_n=20_000, sized=False)
DD_JOB = OddsJob("dd odds", "sponsio_sim.kernels.odds.dd", "dd_odds_chunks", chunk=32, first_batch=4,
                 default_ci=0.02, max_n=200_000, sized=True)


def policy_code(name: str, what: str = "--policy") -> int:
    """The kernel code of a simulated play policy."""
    try:
        return PLAY_POLICIES[name]
    except KeyError:
        raise UserError(f"{what}: unknown play policy '{name}' (choose from {', '.join(PLAY_POLICIES)})") from None


def odds_query(sit: Situation, arrays: dict) -> QueryArrays:
    """The odds kernels' ``QueryArrays`` of a situation (``arrays``: its ``kernel_arrays()``)."""
    r = sit.rules
    return QueryArrays(np.int64(sit.seat), np.int64(sit.lead), arrays["codes"], arrays["bcounts"],
                       np.int64(r.n_colours), np.int64(r.kernel_flags))


def catalogue_for(sit: Situation) -> tuple[list[Bet], list[Bet]]:
    """The catalogue rows worth asking for this seat, and the ones left out:
    fail:S needs seat S to hold bets (--others); a seat without bets cannot fail,
    so its row would be p = 0 with no finite fair multiplier."""
    rows = catalogue(sit.rules, sit.seat)
    left_out = [b for b in rows if b.kind == "fail" and b.a not in sit.others]
    return [b for b in rows if b not in left_out], left_out


def simulate_rows(job: OddsJob, sit: Situation, runs: list[list[Bet]], *, args_of, slots_of, cap: int,
                  target_ci: float | None, run: Run, watch_all: bool = False,
                  on_rows: Callable[[list[tuple]], None] | None = None) -> list[tuple]:
    """Run ``job`` once per list of bets in ``runs``, with kernel arguments
    ``args_of(bets)``; ``slots_of(bets)`` lists the rows read from its counts
    as ``(label, slot, multiplier, stake)``. The watched intervals are the
    rows' (every count with ``watch_all``). ``run``: the seed, the batch cache
    and the ``Progress`` bar (``run.progress``). Returns (label, successes,
    rounds, multiplier, stake) rows.

    The runs advance in turn, one batch each (each run's numbers are its
    own: the same as alone); ``on_rows``, if given, sees the rows so far as
    they sharpen (every ``SHARPEN_EVERY`` seconds at most, and once every
    row has a first look: the first batch is split so that it comes soon,
    ``OddsJob.steps``' preview)."""
    bar = run.progress
    slots = [slots_of(bets) for bets in runs]
    steps = [job.steps(run.seed, args_of(bets), cap=cap, target_ci=target_ci,
                       watch=None if watch_all else [slot for _, slot, _, _ in row_slots], progress=bar,
                       cache=run.cache, preview=PREVIEW_CHUNKS if on_rows is not None else 0)
             for bets, row_slots in zip(runs, slots)]
    latest: list[RunResult | None] = [None] * len(runs)

    def rows() -> list[tuple]:
        return [(label, int(res.totals[slot]), res.rounds, mult, stake)
                for res, row_slots in zip(latest, slots) if res is not None
                for label, slot, mult, stake in row_slots]

    active = list(range(len(runs)))
    shown = None
    while active:
        for i in list(active):
            if len(runs) > 1:
                bar.set_label(f"{job.label} {runs[i][0].notation(sit.rules)}")
            res = next(steps[i], None)
            if res is None:
                active.remove(i)
                bar.total -= cap - latest[i].rounds
                continue
            latest[i] = res
            now = time.perf_counter()
            if on_rows is not None and None not in latest and (shown is None or now - shown >= SHARPEN_EVERY):
                on_rows(rows())
                shown = now
    return rows()


def odds_table(results, *, joint: bool, by_ev: bool) -> pd.DataFrame:
    """The odds table of (label, successes, rounds, multiplier, stake) rows:
    with ``joint`` the last row (all bets together) gets the sum of the
    others' EV; with ``by_ev`` rows are sorted by EV, best first."""
    bet, k, n, mult, stake = zip(*results)
    k = np.array(k, dtype=float)
    n = np.array(n, dtype=float)
    p, low, high = wilson(k, n)
    mult = np.array(mult, dtype=float)
    with np.errstate(divide="ignore"):
        fair = np.where(p > 0, 1.0 / np.where(p > 0, p, 1.0), np.inf)
    df = pd.DataFrame({"bet": bet, "n": n.astype(np.int64), "p": p, "ci_low": low, "ci_high": high,
                       "multiplier": mult, "ev": p * mult - np.array(stake, dtype=float),
                       "fair_multiplier": fair})[COLUMNS]
    if joint:
        df.loc[df.index[-1], "ev"] = df["ev"].iloc[:-1].sum()
    elif by_ev:
        df = df.sort_values(["ev", "bet"], ascending=[False, True], kind="stable").reset_index(drop=True)
    return df
