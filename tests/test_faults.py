"""Fault injection, part 1: damaged caches, unwritable and full caches, concurrent
writers and SIGTERM. Each case asserts the exact outcome: the right numbers, or one line and
the stated exit status, and no stray file. Part 2 (hostile input): ``test_faults_input.py``.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc import atomic, notice
from tabletop_mc.resultcache import ResultCache, config_key, encode
from tabletop_mc.runner import run_chunked

KEY = config_key("faults", 1)


def batch(first, counts):
    """A cheap deterministic batch: per chunk, 3 counts and a float sum (chunk-seeded)."""
    return np.stack([np.random.default_rng(first + i).integers(0, 50, 4) * c for i, c in enumerate(counts)]
                    ).astype(np.float64)


def run(root, **kw):
    return run_chunked(batch, 3000, chunk_size=100, cache=ResultCache(KEY, root, **kw)).totals


def stray(folder: Path) -> list[str]:
    """Temporary or zero-byte files left anywhere under ``folder``."""
    return [str(p) for p in Path(folder).rglob("*") if p.is_file() and (".tmp" in p.name or p.stat().st_size == 0)]


@pytest.fixture(autouse=True)
def fresh_notices():
    notice.reset()
    yield
    notice.reset()


def _garble(path: Path, how: str) -> None:
    blob = path.read_bytes()
    head, data = blob.split(b"\n", 1)
    lo, hi, rounds = (int(x) for x in path.stem.split("-"))
    if how == "truncated":
        path.write_bytes(blob[: len(blob) // 2])
    elif how == "garbled":
        b = bytearray(blob)
        b[len(head) + 8:len(head) + 72] = os.urandom(64)
        path.write_bytes(bytes(b))
    elif how == "scaled":   # the data x1.5, header kept: the checksum no longer matches
        path.write_bytes(head + b"\n" + (np.frombuffer(data, np.float64) * 1.5).tobytes())
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "plain npy":   # what the cache wrote before: no header, no checksum
        import io
        buf = io.BytesIO()
        np.save(buf, np.frombuffer(data, np.float64))
        path.write_bytes(buf.getvalue())
    elif how == "wrong shape":   # a well-formed batch (valid checksum) of another shape
        path.write_bytes(encode(KEY, lo, hi, rounds, np.zeros(8)))
    elif how == "wrong dtype":
        path.write_bytes(encode(KEY, lo, hi, rounds, np.zeros(4, dtype=np.int16)))
    elif how == "scalar":
        path.write_bytes(encode(KEY, lo, hi, rounds, np.float64(295.0)))
    elif how == "other run":
        path.write_bytes(encode(config_key("another"), lo, hi, rounds, np.frombuffer(data, np.float64)))


@pytest.mark.parametrize("how", ["truncated", "garbled", "scaled", "empty", "plain npy", "wrong shape",
                                 "wrong dtype", "scalar", "other run"])
@pytest.mark.parametrize("which", [0, 2])   # the first batch, or a later one
def test_damaged_batch_is_discarded_and_recomputed(tmp_path, capsys, how, which):
    clean = run(tmp_path / "clean")
    assert run(tmp_path / "c").tolist() == clean.tolist()
    capsys.readouterr()
    target = sorted((tmp_path / "c" / KEY).glob("*.batch"))[which]
    _garble(target, how)
    # the game runs tell the cache their shape and dtype; a later batch must match the earlier ones anyway
    expect = ((4,), np.float64) if which == 0 else None
    again = run(tmp_path / "c", expect=expect)
    err = capsys.readouterr().err.strip().splitlines()
    assert again.tolist() == clean.tolist()
    assert len(err) == 1 and err[0].startswith(f"warning: cached batch {target}") and "recomputed" in err[0]
    assert run(tmp_path / "c", expect=expect).tolist() == clean.tolist()   # rewritten whole: no more warnings
    assert capsys.readouterr().err == "" and stray(tmp_path) == []


def test_damaged_batch_in_a_real_run(tmp_path, monkeypatch):
    """`sponsio balance` with a garbled batch prints what a clean cache prints, and one warning."""
    from sponsio_sim.cli import main
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    args = ["balance", "-n", "480", "--seed", "5", "--format", "json"]
    first = CliRunner().invoke(main, args)
    batches = sorted((tmp_path / "sponsio-sim" / "results").rglob("*.batch"))
    assert first.exit_code == 0 and batches
    _garble(batches[0], "scaled")
    second = CliRunner().invoke(main, args)
    assert second.exit_code == 0 and json.loads(second.stdout) == json.loads(first.stdout)
    assert len(second.stderr.strip().splitlines()) == 1 and "failed its check" in second.stderr


# -- read-only and full caches ------------------------------------------------------------------

@pytest.fixture
def full_dir(tmp_path, monkeypatch):
    """A folder whose disk is full: a tiny tmpfs where one can be mounted (root), else every
    atomic write raising ENOSPC after creating its temporary file (which must then go)."""
    folder = tmp_path / "full"
    folder.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True).returncode == 0
    if mounted:
        with open(folder / "filler", "wb") as f:
            try:
                f.write(b"\0" * (1 << 20))
            except OSError:
                pass
    else:
        real = atomic.write_atomic

        def no_space(path, write):
            def fail(tmp):
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(path, fail)
        monkeypatch.setattr(atomic, "write_atomic", no_space)
        monkeypatch.setattr("sponsio_sim.analysis.game.model.write_atomic", no_space)
        for where in ("tabletop_mc.resultcache", "caesar_sim.weights"):
            monkeypatch.setattr(f"{where}.write_bytes_atomic", lambda p, data: no_space(p, None))
    yield folder
    if mounted:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def _unwritable(kind, tmp_path, full_dir):
    if kind == "full":
        return full_dir
    if kind == "a file":
        (tmp_path / "afile").write_text("x")
        return tmp_path / "afile"
    return Path("/proc/no-such-cache")   # cannot be created, even by root


@pytest.mark.parametrize("kind", ["full", "a file", "read-only"])
def test_unwritable_result_cache_costs_only_the_resume(tmp_path, capsys, full_dir, kind):
    root = _unwritable(kind, tmp_path, full_dir)
    clean = run(tmp_path / "clean")
    capsys.readouterr()
    assert run(root).tolist() == clean.tolist()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("note: cannot write the result cache") and "resume" in err[0]
    assert stray(tmp_path) == [] and stray(full_dir) == []


@pytest.mark.parametrize("kind", ["full", "a file", "read-only"])
def test_unwritable_model_cache_uses_the_model_all_the_same(tmp_path, capsys, full_dir, kind):
    from sponsio_sim.analysis.game.model import SuccessModel, keep_in_cache
    from sponsio_sim.rules import load_rules
    from sponsio_sim.analysis.game.fit import find_model
    model = find_model(load_rules())
    path = _unwritable(kind, tmp_path, full_dir) / "models" / "m.npz"
    assert keep_in_cache(model, path) is False
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("note: cannot write the model cache")
    assert stray(tmp_path) == [] and isinstance(model, SuccessModel)


def test_outputs_on_a_full_disk_name_every_missing_file(tmp_path, full_dir):
    from tabletop_mc.errors import OutputError
    from tabletop_mc.plotfile import write_all
    files = [(full_dir / f"t{i}.csv", lambda p: Path(p).write_text("a,b\n" * 4000)) for i in range(3)]
    with pytest.raises(OutputError) as e:
        write_all(files, "--out")
    assert "3 of 3 files could not be written" in str(e.value) and "t0.csv, t1.csv, t2.csv" in str(e.value)
    assert sorted(p.name for p in full_dir.iterdir() if p.name != "filler") == []


def test_weights_file_on_a_full_disk_leaves_nothing(full_dir):
    from caesar_sim import weights as WT
    with pytest.raises(OSError):
        WT.save(full_dir / "w.json", dict(WT.DEFAULTS), 4, {"command": "test"})
    assert not (full_dir / "w.json").exists() and stray(full_dir) == []


def test_fit_into_an_unwritable_cache_names_no_out_option(tmp_path, monkeypatch):
    from sponsio_sim.cli import main
    (tmp_path / "afile").write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "afile"))
    monkeypatch.delenv("SPONSIO_MODEL_DIR", raising=False)
    r = CliRunner().invoke(main, ["fit", "-n", "2000", "--on-policy", "0", "--check-games", "240", "-q"])
    assert r.exit_code == 1 and "NOT saved" in r.stdout
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("error: cannot keep the model in the model cache")
    assert "--out /" not in line


# -- kernel cache -------------------------------------------------------------------------------

KERNEL_MODULE = """
import sys
from tabletop_mc.jitcache import configure
configure("demo", sys.argv[1])
import numba
@numba.njit(cache=True)
def total(n):
    s = 0
    for i in range(n):
        s += i * i
    return s
print(total(1000))
"""


def _kernel_run(tmp_path, cache):
    script = tmp_path / "kern.py"
    script.write_text(KERNEL_MODULE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.mark.parametrize("how", ["empty index", "garbled index", "empty data", "truncated data", "garbled data"])
def test_damaged_kernel_cache_file_is_recompiled(tmp_path, how):
    first = _kernel_run(tmp_path, tmp_path / "nc")
    assert first.returncode == 0 and first.stdout.strip() == str(sum(i * i for i in range(1000)))
    ext = ".nbi" if "index" in how else ".nbc"
    target = next(p for p in (tmp_path / "nc").rglob(f"*total*{ext}"))
    blob = target.read_bytes()
    target.write_bytes(b"" if "empty" in how else blob[: len(blob) // 2] if "truncated" in how
                       else blob[:40] + os.urandom(64) + blob[104:])
    again = _kernel_run(tmp_path, tmp_path / "nc")
    assert again.returncode == 0 and again.stdout == first.stdout
    err = again.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"warning: damaged kernel cache file {target}")
    third = _kernel_run(tmp_path, tmp_path / "nc")
    assert third.stdout == first.stdout and third.stderr == ""


def test_unwritable_kernel_cache_runs_uncached(tmp_path):
    (tmp_path / "afile").write_text("x")
    r = _kernel_run(tmp_path, tmp_path / "afile")
    assert r.returncode == 0 and r.stdout.strip() == str(sum(i * i for i in range(1000)))
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("note: cannot write the kernel cache")
    assert not list(tmp_path.rglob("*.nbi"))   # nothing cached beside the sources either


SAVER = """
import sys, time
from tabletop_mc.kernelfiles import verify_cache_files
verify_cache_files()
from numba.core.caching import IndexDataCacheFile
folder, who, start = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
f = IndexDataCacheFile(folder, "total-12.py311", "stamp")
time.sleep(max(0.0, start - time.time()))   # every process starts saving at the same moment
for i in range(40):
    f.save(("signature", who, i), ("machine code", who, i))
    f.save(("signature", "shared", i % 10), ("machine code", "shared", i % 10))   # every process saves these
"""


def test_processes_saving_signatures_of_one_kernel_at_once_each_keep_their_own_code(tmp_path):
    """numba named a new object file by the first number its index had not used: two processes
    saving different signatures of one kernel wrote the same ``total-12.py311.1.nbc``, and the
    index mapped one's signature to the other's code (the suite's workers crashed on it)."""
    from numba.core.caching import IndexDataCacheFile
    from tabletop_mc.kernelfiles import verify_cache_files
    (tmp_path / "saver.py").write_text(SAVER)
    (tmp_path / "nc").mkdir()
    start = time.time() + 3.0
    procs = [subprocess.Popen([sys.executable, str(tmp_path / "saver.py"), str(tmp_path / "nc"), str(who),
                               str(start)]) for who in range(4)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    verify_cache_files()
    f = IndexDataCacheFile(str(tmp_path / "nc"), "total-12.py311", "stamp")
    index = f._load_index()
    assert len(index) == 4 * 40 + 10   # no lost index update either
    assert all(f.load(key) == ("machine code", *key[1:]) for key in index)
    assert len(list((tmp_path / "nc").glob("*.nbc"))) == len(index)   # one file per signature


def test_an_object_file_holding_another_signatures_code_is_a_miss(tmp_path):
    from numba.core.caching import IndexDataCacheFile
    from tabletop_mc.kernelfiles import verify_cache_files
    verify_cache_files()
    f = IndexDataCacheFile(str(tmp_path), "total-12.py311", "stamp")
    f.save(("int64",), "code for int64")
    f.save(("float64",), "code for float64")
    index = f._load_index()
    assert index[("int64",)] != index[("float64",)]
    (tmp_path / index[("float64",)]).write_bytes((tmp_path / index[("int64",)]).read_bytes())
    assert f.load(("int64",)) == "code for int64"
    assert f.load(("float64",)) is None   # compiled again, never run on int64's code


def test_a_kernel_save_never_waits_long_for_a_held_folder_lock(tmp_path, monkeypatch):
    """A lock another holder never gives up (a forked child keeps the descriptor) delays a save
    by at most the lock's wait, and the save still lands (each load checks its key)."""
    import fcntl
    from numba.core.caching import IndexDataCacheFile
    from tabletop_mc.kernelfiles import folder_lock, verify_cache_files
    verify_cache_files()
    holder = os.open(tmp_path, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        t0 = time.monotonic()
        with folder_lock(str(tmp_path), wait=0.3):
            pass
        assert 0.25 <= time.monotonic() - t0 < 5
        monkeypatch.setattr("tabletop_mc.kernelfiles.LOCK_WAIT", 0.1)
        f = IndexDataCacheFile(str(tmp_path), "total-12.py311", "stamp")
        f.save(("int64",), "code for int64")
        assert f.load(("int64",)) == "code for int64"
    finally:
        os.close(holder)
    with folder_lock(str(tmp_path), wait=0.0):   # released: taken at once
        probe = os.open(tmp_path, os.O_RDONLY)
        with pytest.raises(BlockingIOError):
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.close(probe)


# -- concurrent writers -------------------------------------------------------------------------

def _model():
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.rules import load_rules
    return find_model(load_rules())


@pytest.mark.parametrize("what", ["model", "batch", "weights"])
def test_concurrent_writers_of_one_file(tmp_path, what):
    from caesar_sim import weights as WT
    from sponsio_sim.analysis.game.model import SuccessModel
    model = _model() if what == "model" else None
    target = tmp_path / {"model": "m.npz", "batch": "b", "weights": "w.json"}[what]
    errors = []

    def write(i):
        try:
            for _ in range(10):
                if what == "model":
                    model.save(target)
                elif what == "batch":
                    ResultCache(KEY, target).put(0, 8, 800, np.arange(4.0) + i)
                else:
                    WT.save(target, dict(WT.DEFAULTS), 4, {"writer": i})
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and stray(tmp_path) == []
    if what == "model":
        assert SuccessModel.load(target).bets.tolist() == model.bets.tolist()
    elif what == "batch":
        assert ResultCache(KEY, target).get(0, 8, 800).tolist() in [(np.arange(4.0) + i).tolist() for i in range(4)]
    else:
        assert WT.load(target, 4)["meta"]["writer"] in range(4)


# -- SIGTERM ------------------------------------------------------------------------------------

@pytest.mark.skipif(sys.platform == "win32", reason="signals")
@pytest.mark.parametrize("workers", [None, 1])
def test_sigterm_is_one_line_leaves_no_file_and_resumes(tmp_path, workers):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    out = tmp_path / "out"
    # 20,000 games: the first batch (8 chunks of 2,048) is on disk well before the run ends, and the rerun
    # and the fresh run below cost a third of what 60,000 did
    cmd = [sys.executable, "-m", "sponsio_sim", "balance", "-n", "20000", "--seed", "9", "--out", str(out), "-q",
           *(["--workers", str(workers)] if workers else [])]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.time() + 240
    while proc.poll() is None and time.time() < deadline and not list((tmp_path / "cache").rglob("*.batch")):
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 143 and stdout == b"" and stderr.decode().strip() == "aborted (terminated)"
    assert [p.name for p in out.iterdir()] == [] and stray(tmp_path) == []
    assert list((tmp_path / "cache").rglob("*.batch"))   # the finished batches are kept
    if workers is None:   # the rerun resumes and gives what an uninterrupted run gives
        rerun = subprocess.run(cmd, capture_output=True, env=env, timeout=600)
        fresh = subprocess.run(cmd, capture_output=True, timeout=600,
                               env=dict(env, XDG_CACHE_HOME=str(tmp_path / "fresh")))
        assert rerun.returncode == 0 and rerun.stdout == fresh.stdout
