"""Scale-out: a local Dask cluster gives exactly the local numbers; results resume from disk."""

import numpy as np
import pandas as pd
import pytest

from tabletop_mc.resultcache import ResultCache, config_key
from tabletop_mc.runner import run_chunked

pytest.importorskip("distributed")

HAND = "R9 R7 R2 B8 B5 G6 G1 Y3"


def test_local_dask_cluster_matches_local_run():
    from sponsio_sim import OddsPlay, Query, Run, odds
    kw = dict(query=Query(HAND, "R1 B9 G4 Y7", bets="tricks=2,last"), n=12_000)
    local = odds(**kw, run=Run(seed=5)).table
    dask = odds(**kw, run=Run(seed=5, workers=2)).table
    pd.testing.assert_frame_equal(local, dask)
    adaptive = dict(query=Query(HAND, "R1 B9 G4 Y7", bets="nines"), target_ci=0.03)
    pd.testing.assert_frame_equal(odds(**adaptive, run=Run(seed=8)).table,
                                  odds(**adaptive, run=Run(seed=8, workers=2)).table)
    # the double-dummy brackets and PIMC play run through the same odds job, so on Dask too
    for policy, n in (("goal,dd", 96), ("pimc", 24)):
        kw = dict(query=Query(HAND, "R1 B9 G4 Y7", bets="tricks=2,last"), play=OddsPlay(policy, worlds=4), n=n)
        pd.testing.assert_frame_equal(odds(**kw, run=Run(seed=3)).table,
                                      odds(**kw, run=Run(seed=3, workers=2)).table)


def test_killed_run_resumes_from_finished_batches(tmp_path):
    calls = []

    def batch(first, counts):
        calls.append(first)
        rng = np.random.default_rng(first)
        return np.stack([rng.integers(0, 100, size=3) * c for c in counts])

    key = config_key("demo", np.arange(3), {"seed": 1})
    full = run_chunked(batch, 5000, chunk_size=100, cache=ResultCache(key, tmp_path))
    first_calls = len(calls)
    calls.clear()
    again = run_chunked(batch, 5000, chunk_size=100, cache=ResultCache(key, tmp_path))
    assert calls == [] and (again.totals == full.totals).all()
    # A run killed half-way left some batches: the rerun computes only the rest.
    for f in sorted((tmp_path / key).glob("*.batch"))[2:]:
        f.unlink()
    resumed = run_chunked(batch, 5000, chunk_size=100, cache=ResultCache(key, tmp_path))
    assert 0 < len(calls) < first_calls and (resumed.totals == full.totals).all()
    # A run of another n whose last chunk is shorter never reuses a batch of different size.
    run_chunked(batch, 900, chunk_size=100, cache=ResultCache(key, tmp_path))  # batch [8, 9): 100 rounds
    shorter = run_chunked(batch, 850, chunk_size=100, cache=ResultCache(key, tmp_path))  # [8, 9): 50
    assert (shorter.totals == run_chunked(batch, 850, chunk_size=100).totals).all()


def test_tournament_json_is_byte_identical_on_dask():
    """Float statistics (the *_predicted sums) too: Dask tasks return per-chunk rows,
    reduced in chunk order exactly as a local run reduces them."""
    from click.testing import CliRunner

    from sponsio_sim.cli import main
    args = ["tournament", "--profile", "ev:goal:cash4, troll:goal, ev:goal:never, random:random",
            "-n", "20000", "--seed", "9", "--format", "json"]
    local = CliRunner().invoke(main, args)
    dask = CliRunner().invoke(main, [*args, "--workers", "2"])
    assert local.exit_code == 0 and dask.exit_code == 0, (local.stderr, dask.stderr)
    assert "_predicted" in local.stdout
    assert dask.stdout.encode() == local.stdout.encode()
    # JSON rounds to the estimate's precision, which would hide a last-bit difference:
    # the unrounded floats must be the same bits too (a per-task float sum differed here).
    from sponsio_sim.analysis.game.tournament import tournament
    from sponsio_sim.analysis.settings import Run
    kw = dict(profile="ev:goal:cash4, troll:goal, ev:goal:never, random:random", n=20000)
    a, b = tournament(**kw, run=Run(seed=9)).table, tournament(**kw, run=Run(seed=9, workers=2)).table
    floats = [c for c in a.columns if a[c].dtype.kind == "f"]
    assert floats
    for col in floats:
        assert a[col].to_numpy().tobytes() == b[col].to_numpy().tobytes(), col


class _ThreadsSeen:
    """A picklable batch function reporting the numba threads its chunks ran with."""

    kernel_name = "test.threads"

    def __call__(self, first, counts):
        import numba
        return np.full((len(counts), 1), numba.get_num_threads(), dtype=np.int64)


def test_local_workers_get_their_share_of_the_cores():
    import numba

    from tabletop_mc.backend import local_share, use_backend
    cores = numba.config.NUMBA_NUM_THREADS
    for workers in (1, 2):
        with use_backend(workers=workers) as backend:
            seen = backend.run_batch(_ThreadsSeen(), 0, np.ones(8, dtype=np.int64))
        assert local_share(workers) == max(1, cores // workers)
        assert seen.tolist() == [8 * local_share(workers)]
