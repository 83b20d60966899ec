"""Old versions' compiled kernels (``tabletop_mc.kernelfiles.drop_unused_versions``): a version of the
kernel sources that no process has used for 30 days loses its kernels; the running one, a recent one
and anything the tools did not write stay."""

from __future__ import annotations

import os
import time

from tabletop_mc.kernelfiles import UNUSED_DAYS, drop_unused_versions, kernel_folders, seal

DAY = 86400.0


def version(root, name, age_days, foreign=False):
    """A ``demo-<hash>`` kernel folder holding one sealed kernel file, last used ``age_days`` ago."""
    top = root / name
    locator = top / ("kernels_" + "0" * 40)
    locator.mkdir(parents=True)
    (locator / "total-12.py311.nbi").write_bytes(seal(b"\x80index"))
    (locator / "total-12.py311.7.nbc").write_bytes(seal(b"\x80code"))
    if foreign:
        (top / "notes.txt").write_text("mine")
    past = time.time() - age_days * DAY
    os.utime(top, (past, past))
    return top


def test_a_version_unused_for_30_days_loses_its_kernels(tmp_path):
    current = version(tmp_path, "demo-" + "a" * 16, 400)     # in use now, however old its folder
    recent = version(tmp_path, "demo-" + "b" * 16, UNUSED_DAYS - 1)
    old = version(tmp_path, "demo-" + "c" * 16, UNUSED_DAYS + 1)
    kept = version(tmp_path, "demo-" + "d" * 16, 90, foreign=True)
    other = version(tmp_path, "other-" + "e" * 16, 90)       # another package's
    assert drop_unused_versions(tmp_path, "demo", current) == 2
    assert current.exists() and recent.exists() and other.exists() and not old.exists()
    assert (kept / "notes.txt").read_text() == "mine" and not list(kept.rglob("*.nb?"))
    assert time.time() - current.stat().st_mtime < 60         # marked used
    assert kernel_folders(tmp_path, "demo") == sorted([current, recent, kept])


def test_configuring_a_package_marks_its_version_used_and_drops_the_stale(tmp_path, monkeypatch):
    from tabletop_mc import jitcache
    monkeypatch.setattr(jitcache, "_configured", [])
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.py").write_text("x = 1\n")
    old = version(tmp_path, "demo-" + "c" * 16, UNUSED_DAYS + 1)
    import numba
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)   # restored after the test
    path = jitcache.configure("demo", tmp_path / "src")
    assert path.exists() and not old.exists()
    assert kernel_folders(tmp_path, "demo") == [path]
