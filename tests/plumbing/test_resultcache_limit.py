"""The result cache's size limit (``tabletop_mc.resultcache``: least recently used runs go first)."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from tabletop_mc import notice, resultcache
from tabletop_mc.resultcache import LIMIT_ENV, ResultCache, cache_limit, config_key, owned_batches, trim

HOUR = 3600.0


def a_run(root, name, batches=4, age_hours=2.0):
    """A finished run of ``batches`` batches (about 8 kB each), last used ``age_hours`` ago."""
    cache = ResultCache(config_key("limit-test", name), root)
    for b in range(batches):
        cache.put(b * 10, b * 10 + 10, 100, np.full(1000, float(b)))
    past = time.time() - age_hours * HOUR
    os.utime(cache.dir, (past, past))
    return cache


def size(cache):
    return sum(p.stat().st_size for p in cache.dir.glob("*.batch"))


@pytest.fixture
def no_limit(monkeypatch):
    monkeypatch.setenv(LIMIT_ENV, "0")


def test_the_least_recently_used_runs_go_first_until_the_rest_fit(tmp_path, no_limit):
    runs = [a_run(tmp_path, f"r{i}", age_hours=10 - i) for i in range(4)]   # r0 oldest
    limit = size(runs[2]) + size(runs[3]) + 1
    assert trim(tmp_path, limit) == 2
    assert [r.dir.exists() for r in runs] == [False, False, True, True]
    assert len(owned_batches(tmp_path).files) == 8


def test_reading_a_run_makes_it_recent(tmp_path, no_limit):
    old, new = a_run(tmp_path, "old", age_hours=5), a_run(tmp_path, "new", age_hours=3)
    assert ResultCache(old.key, tmp_path).get(0, 10, 100) is not None   # a later run reads it
    past = time.time() - 2 * HOUR   # ... two hours ago: still more recent than "new"
    os.utime(old.dir, (past, past))
    trim(tmp_path, size(old) + 1)
    assert old.dir.exists() and not new.dir.exists()


def test_a_run_used_within_the_hour_and_the_running_one_stay(tmp_path, no_limit):
    busy = a_run(tmp_path, "busy", age_hours=0.5)
    running = a_run(tmp_path, "running", age_hours=7)
    old = a_run(tmp_path, "old", age_hours=6)
    assert trim(tmp_path, 1, keep=running.dir) == 1
    assert busy.dir.exists() and running.dir.exists() and not old.dir.exists()


def test_a_run_folder_with_a_file_of_someone_else_keeps_that_file(tmp_path, no_limit):
    old = a_run(tmp_path, "old", age_hours=5)
    (old.dir / "notes.txt").write_text("mine")
    past = time.time() - 5 * HOUR
    os.utime(old.dir, (past, past))
    trim(tmp_path, 0)
    assert (old.dir / "notes.txt").read_text() == "mine" and not list(old.dir.glob("*.batch"))


def test_a_new_run_keeps_the_cache_under_the_limit(tmp_path, monkeypatch):
    monkeypatch.setenv(LIMIT_ENV, "0")
    old = [a_run(tmp_path, f"r{i}", age_hours=10 - i) for i in range(3)]
    monkeypatch.setenv(LIMIT_ENV, str((size(old[1]) + size(old[2]) + 1) / 1e6))
    monkeypatch.setattr(resultcache, "_trimmed_at", {})   # a new process
    a_run(tmp_path, "new")   # its first batch trims the cache: the oldest run goes
    assert [r.dir.exists() for r in old] == [False, True, True]


def test_a_process_walks_the_cache_once_an_hour(tmp_path, monkeypatch):
    monkeypatch.setenv(LIMIT_ENV, "100000")
    walks = []
    monkeypatch.setattr(resultcache, "trim", lambda root, limit, keep, now: walks.append(now))
    monkeypatch.setattr(resultcache, "_trimmed_at", {})
    for name in ("a", "b", "c"):
        a_run(tmp_path, name)
    assert len(walks) == 1
    monkeypatch.setattr(resultcache.time, "time", lambda: walks[0] + 3601.0)
    a_run(tmp_path, "an hour later")
    assert len(walks) == 2


@pytest.mark.parametrize("value, limit", [("", 2000 * 10**6), ("0", None), ("12.5", 12_500_000)])
def test_the_limit_comes_from_the_environment(monkeypatch, value, limit):
    monkeypatch.setenv(LIMIT_ENV, value)
    assert cache_limit() == limit


@pytest.mark.parametrize("value", ["lots", "-5", "nan"])
def test_a_limit_that_is_not_a_size_is_one_warning_and_the_default(monkeypatch, capsys, value):
    monkeypatch.setenv(LIMIT_ENV, value)
    notice.reset()
    assert cache_limit() == 2000 * 10**6
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"warning: {LIMIT_ENV}={value!r} is not a size in MB")
