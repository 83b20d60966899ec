"""Shared Monte Carlo plumbing: intervals, random streams, chunked runs."""

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tabletop_mc.rng import new_state, randbelow, seed_state, uniform
from tabletop_mc.runner import chunk_counts, chunked_steps, derive_seed, run_chunked
from tabletop_mc.stats import MIN_MEAN_N, mean_ci, wilson, wilson_rounds_needed, wilson_width


def test_wilson_known_values():
    # Reference values (Wilson 1927; e.g. Newcombe 1998, table I): 81/263.
    p, low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert wilson(0, 10)[1] == 0.0 and wilson(10, 10)[2] == 1.0
    assert wilson(0, 0) == (0.0, 0.0, 1.0)
    _, lo, hi = wilson(np.array([0, 5]), np.array([10, 10]))
    assert lo.shape == (2,) and hi[1] > 0.5


def test_rounds_needed_reaches_width():
    for p in (0.0, 0.02, 0.3, 0.5):
        n = int(wilson_rounds_needed(p * 1000, 1000, 0.01))
        assert wilson_width(round(p * n), n) <= 0.0101


def test_mean_ci():
    x = np.arange(10.0)
    mean, low, high = mean_ci(x.sum(), (x ** 2).sum(), len(x), min_n=2)
    se = x.std(ddof=1) / np.sqrt(10)
    assert mean == 4.5 and high - mean == pytest.approx(2.262157 * se, rel=1e-6)  # t(0.975, 9)
    assert np.isnan(mean_ci(x.sum(), (x ** 2).sum(), len(x))[1])  # below MIN_MEAN_N values: no interval
    assert MIN_MEAN_N == 30
    assert mean_ci(1.0, 1.0, 40, lower=0.0)[1] == 0.0  # clipped to the possible range


@nb.njit
def _draws(seed, stream, n, k):
    s = np.empty(4, dtype=np.uint64)
    seed_state(seed, stream, s)
    out = np.zeros(k, dtype=np.int64)
    for _ in range(n):
        out[randbelow(s, k)] += 1
    return out, uniform(s)


def test_streams_reproducible_independent_and_uniform():
    a, ua = _draws(1, 0, 60000, 6)
    b, ub = _draws(1, 0, 60000, 6)
    c, _ = _draws(1, 1, 60000, 6)
    assert (a == b).all() and ua == ub and not (a == c).all()
    chi2 = ((a - 10000) ** 2 / 10000).sum()
    assert chi2 < 20.5  # 5 d.o.f., p = 0.001
    assert 0 <= ua < 1
    assert not (new_state(1, 0) == new_state(2, 0)).all()


def test_chunked_run_is_independent_of_batching():
    def batch(first, counts):
        return np.stack([_draws(99, first + i, int(c), 4)[0] for i, c in enumerate(counts)])

    full = run_chunked(batch, 10_000, chunk_size=300)
    assert full.rounds == 10_000 and full.totals.sum() == 10_000
    assert list(chunk_counts(1000, 300)) == [300, 300, 300, 100]
    stopped = run_chunked(batch, 10_000, chunk_size=300, stop=lambda t, n: n >= 4000)
    assert stopped.stopped_early and 4000 <= stopped.rounds < 10_000
    again = run_chunked(batch, 10_000, chunk_size=300, needed=lambda t, n: 3000.0)
    assert (again.totals == full.totals).all()
    assert derive_seed(1, "a") == derive_seed(1, "a") != derive_seed(1, "b")


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 5000), chunk=st.integers(1, 400), first=st.integers(1, 8), preview=st.integers(0, 9),
       stop_at=st.integers(1, 6000))
def test_run_steps_and_their_preview_end_as_the_whole_run(n, chunk, first, preview, stop_at):
    """``chunked_steps`` yields after every batch (after the first batch's preview too): its last
    step is ``run_chunked``'s result, and every batch ends on the totals of the chunks run so far."""
    def batch(lo, counts):
        return np.array([[int(c), (lo + i) * int(c)] for i, c in enumerate(counts)], dtype=np.int64).reshape(-1, 2)

    def stop(totals, rounds):
        return rounds >= stop_at

    whole = run_chunked(batch, n, chunk_size=chunk, first_batch=first, stop=stop)
    steps = list(chunked_steps(batch, n, chunk_size=chunk, first_batch=first, stop=stop, preview=preview))
    last = steps[-1]
    assert (last.totals == whole.totals).all() and (last.rounds, last.chunks, last.stopped_early) == \
        (whole.rounds, whole.chunks, whole.stopped_early)
    for step in steps:
        counts = chunk_counts(n, chunk, 0, step.chunks)
        assert step.rounds == counts.sum() and step.totals[1] == sum(i * c for i, c in enumerate(counts))
    assert len(steps) == len(list(chunked_steps(batch, n, chunk_size=chunk, first_batch=first, stop=stop))) + (
        0 < preview < min(first, -(-n // chunk)))


def test_chunk_states_are_a_proper_mix_of_seed_and_stream():
    """The old linear derivation gave (1, 0) and (7878180257186394100, 5)
    the same stream. States are now injective in (seed, stream), every word mixing both."""
    a, b = np.empty(4, dtype=np.uint64), np.empty(4, dtype=np.uint64)
    seed_state(np.uint64(1), np.uint64(0), a)
    seed_state(np.uint64(7878180257186394100), np.uint64(5), b)
    assert not (a == b).any()
    seen = set()
    for seed in (0, 1, 2, 3, 2**63, 2**64 - 1, 7878180257186394100):
        for stream in range(64):
            seed_state(np.uint64(seed), np.uint64(stream), a)
            seen.add(tuple(int(x) for x in a))
            assert len({int(x) for x in a}) == 4
    assert len(seen) == 7 * 64
    # neighbouring streams differ in about half of their bits in every word
    seed_state(np.uint64(9), np.uint64(0), a)
    seed_state(np.uint64(9), np.uint64(1), b)
    flips = [bin(int(x) ^ int(y)).count("1") for x, y in zip(a, b)]
    assert all(16 <= f <= 48 for f in flips), flips


def test_record_fields_must_name_every_slot_once():
    import pytest as _pytest

    from tabletop_mc.records import named, record_dtype
    seat = record_dtype((("coins", 0, ()), ("bets", 1, (2,))), 3)
    d = record_dtype((("games", 0, ()), ("seat", 1, (2,), seat)), 7)
    v = np.arange(7.0)
    s = named(v, d)
    assert s["games"] == 0 and s["seat"][1]["coins"] == 4 and list(s["seat"]["bets"][0]) == [2, 3]
    v[6] = -1
    assert s["seat"][1]["bets"][1] == -1            # a view of the vector
    with _pytest.raises(ValueError, match="missing"):
        record_dtype((("games", 0, ()), ("seat", 2, (2,), seat)), 7)     # slot 1 unnamed
    with _pytest.raises(ValueError, match="named twice"):
        record_dtype((("games", 0, ()), ("all", 0, (7,))), 7)
    with _pytest.raises(ValueError, match="vector of 6"):
        named(np.zeros(6), d)
    with _pytest.raises(ValueError, match="contiguous vector of float64, not int64"):
        named(np.zeros(7, dtype=np.int64), d)                               # never reinterpreted
    with _pytest.raises(ValueError, match="contiguous: False"):
        named(np.zeros(14)[::2], d)                                         # never copied
    ints = record_dtype((("turn", 0, ()), ("hand", 1, (2,))), 3, slot=np.int64)
    state = np.zeros(3, dtype=np.int64)
    named(state, ints)["hand"][1] = 5                                       # writes the state
    assert list(state) == [0, 0, 5]


def test_layout_declares_offsets_and_names_once():
    import numba as nb
    import pytest as _pytest

    from tabletop_mc.records import layout
    STATE = layout(np.int64, (("turn", ()), ("hand", 3), ("grid", (2, 2))), start=2, name="State")
    assert (STATE.turn, STATE.hand, STATE.grid, STATE.size) == (2, 3, 6, 10)
    v = np.arange(STATE.size, dtype=np.int64)
    rec = STATE.named(v)
    assert rec["turn"] == 2 and list(rec["hand"]) == [3, 4, 5] and rec["grid"][1][0] == 8
    rec["hand"][2] = -7
    assert v[STATE.hand + 2] == -7                                          # a view, not a copy

    @nb.njit
    def third_card(s):
        return s[STATE.hand + 2]                                            # an offset numba compiles in
    assert third_card(v) == -7
    with _pytest.raises(ValueError, match="reserved"):
        layout(np.int64, (("size", ()),))


def test_both_games_run_settings_share_the_base():
    """Seed, threads and progress are declared once (tabletop_mc.runsettings); ``but`` keeps the type."""
    import dataclasses

    from caesar_sim.analysis.game.runs import RunSettings
    from sponsio_sim.analysis.settings import Run
    from tabletop_mc.runsettings import RunSettingsBase
    for cls in (Run, RunSettings):
        s = cls(seed=7, threads=1)
        assert isinstance(s, RunSettingsBase) and s.seed == 7 and s.threads == 1
        t = s.but(seed=8)
        assert type(t) is cls and t.seed == 8 and t.threads == 1 and s.seed == 7
        with pytest.raises(dataclasses.FrozenInstanceError):
            s.seed = 9
    assert Run().progress is False and RunSettings().progress is None
