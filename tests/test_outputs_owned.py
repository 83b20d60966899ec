"""The tools touch only what they own: outputs and caches.

- Every command that writes a file (found by walking both CLIs) refuses, in
  one line with exit 2 before any work, an output that is a device, a FIFO,
  a directory, a symbolic link or an empty name, and leaves it as it was;
  a folder output refuses such a thing under the name of a file it writes.
  A symbolic link inside an output folder is replaced, never written through
  (the folder commands' own tests build into a folder holding one).
- ``cache clear`` removes only the files it recognises by name and content.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from caesar_sim.cli import main as caesar
from sponsio_sim.cli import main as sponsio
from tabletop_mc import atomic

CLIS = {"sponsio": sponsio, "caesar": caesar}

# (cli, command, option) -> (the file's suffix, or "/" for a folder; the other arguments it needs)
WRITERS = {
    ("sponsio", "tournament", "--plot"): (".png", ["--profile", "ev:goal x4", "-n", "10"]),
    ("sponsio", "matrix", "--plot"): (".png", ["--strategies", "troll:goal, random:random", "-n", "10"]),
    ("sponsio", "fit", "--plot"): (".png", ["-n", "100"]),
    ("sponsio", "fit", "--out"): (".npz", ["-n", "100"]),
    ("sponsio", "balance", "--out"): ("/", ["-n", "10"]),
    ("sponsio", "sweep", "--out"): ("/", ["-n", "10"]),
    ("sponsio", "meta", "--out"): ("/", ["-n", "10"]),
    ("sponsio", "report", "--out"): ("/", ["--scale", "0.001"]),
    ("sponsio", "train", "--out"): (".npz", ["--iterations", "1", "--games", "2", "--holdout", "1", "--rollouts", "2",
                                            "--meta-games", "0"]),
    ("caesar", "simulate", "--plot"): (".png", ["-n", "10"]),
    ("caesar", "bids", "--plot"): (".png", ["-n", "10"]),
    ("caesar", "sweep levers", "--plot"): (".png", ["-n", "10", "--set", "favour.gold_coins=1;3"]),
    ("caesar", "sweep seats", "--plot"): (".png", ["-n", "10", "--set", "favour.gold_coins=1;3"]),
    ("caesar", "tune", "--out"): (".json", ["--players", "3", "-n", "20", "--generations", "1", "--lam", "4"]),
    ("caesar", "distill", "--out"): (".json", ["--games", "2", "--holdout", "1", "--iterations", "1"]),
    ("caesar", "meta", "--out"): ("/", ["-n", "10"]),
    ("caesar", "train", "--out"): ("/", ["--iterations", "1", "--games", "2", "--holdout", "1"]),
    ("caesar", "report", "--out"): ("/", ["--scale", "0.001"]),
}


def commands(group, path=()):
    for name in group.list_commands(None):
        cmd = group.get_command(None, name)
        if hasattr(cmd, "list_commands"):
            yield from commands(cmd, path + (name,))
        else:
            yield path + (name,), cmd


def test_every_command_that_writes_a_file_is_walked():
    found = set()
    for cli, group in CLIS.items():
        for path, cmd in commands(group):
            for param in cmd.params:
                if {"--out", "--plot"} & set(getattr(param, "opts", [])):
                    found.add((cli, " ".join(path), [o for o in param.opts if o in ("--out", "--plot")][0]))
    assert found == set(WRITERS)


def _device(path: Path) -> Path:
    """A character device (a null device's numbers) at ``path``; /dev/null without the right to make one."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return path
    except PermissionError:
        return Path("/dev/null")   # not replaceable without that right either


def make(kind: str, where: Path, name: str) -> Path:
    """``kind`` (device, fifo, directory, link) made at ``where/name``."""
    path = where / name
    if kind == "device":
        return _device(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
        (path / "keep.txt").write_text("mine")
    elif kind == "link":
        (where / "elsewhere").write_text("not the tool's")
        path.symlink_to(where / "elsewhere")
    return path


def fingerprint(path: Path):
    """What is at ``path``, to compare before and after."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path), Path(path).resolve().read_text())
    if stat.S_ISDIR(st.st_mode):
        return ("dir", sorted((p.name, p.read_text()) for p in path.iterdir()))
    return (stat.S_IFMT(st.st_mode), st.st_rdev)


@pytest.fixture
def no_work(monkeypatch):
    """A kernel run would be work: make any simulation fail loudly instead."""
    import tabletop_mc.backend
    for backend in (tabletop_mc.backend.LocalBackend, tabletop_mc.backend.DaskBackend):
        monkeypatch.setattr(backend, "run_batch", lambda *a, **k: pytest.fail("work started"))


KINDS = {"device": "is a device, not a regular file", "fifo": "is a FIFO (named pipe), not a regular file",
         "directory": "is a directory, not a regular file", "link": "is a symbolic link (to a file), not a regular file",
         "empty": "empty file name"}


def refused(cli, args, needle):
    res = CliRunner().invoke(CLIS[cli], [str(a) for a in args])
    assert res.exit_code == 2, (res.exit_code, res.stdout, res.stderr)
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], res.stderr


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("writer", [w for w, (s, _) in WRITERS.items() if s != "/"], ids=" ".join)
def test_a_named_output_file_that_is_not_a_regular_file_is_refused_and_left(tmp_path, no_work, writer, kind):
    cli, command, option = writer
    suffix, args = WRITERS[writer]
    target = "" if kind == "empty" else make(kind, tmp_path, "target" + suffix)
    before = None if kind == "empty" else fingerprint(target)
    refused(cli, [*command.split(), *args, option, target], KINDS[kind])
    if before is not None:
        assert fingerprint(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        p.name for p in tmp_path.iterdir() if not p.name.startswith("."))   # no temporary file


FOLDER_KINDS = {"device": "is a device, not a regular file", "fifo": "is a FIFO (named pipe), not a regular file",
                "directory": "is a directory, not a regular file"}


@pytest.mark.parametrize("name", ["index.html", "levers.csv", "x.png", "field.json"])
@pytest.mark.parametrize("kind", list(FOLDER_KINDS))
@pytest.mark.parametrize("writer", [w for w, (s, _) in WRITERS.items() if s == "/"], ids=" ".join)
def test_an_output_folder_with_a_non_file_under_an_output_name_is_refused(tmp_path, no_work, writer, kind, name):
    cli, command, option = writer
    if kind == "device" and _device(tmp_path / "probe") == Path("/dev/null"):
        pytest.skip("making a device node needs root")
    (tmp_path / "probe").unlink(missing_ok=True)
    out = tmp_path / "out"
    out.mkdir()
    target = make(kind, out, name)
    before = fingerprint(target)
    refused(cli, [*command.split(), *WRITERS[writer][1], option, out], f"{name} {FOLDER_KINDS[kind]}")
    assert fingerprint(target) == before and sorted(p.name for p in out.iterdir()) == [name]


@pytest.mark.parametrize("writer", [w for w, (s, _) in WRITERS.items() if s == "/"], ids=" ".join)
@pytest.mark.parametrize("kind,needle", [("empty", "empty folder name"), ("device", "not a folder"),
                                         ("fifo", "not a folder")])
def test_an_output_folder_that_is_not_a_folder_is_refused(tmp_path, no_work, writer, kind, needle):
    cli, command, option = writer
    target = "" if kind == "empty" else make(kind, tmp_path, "out")
    before = None if kind == "empty" else fingerprint(target)
    cwd = sorted(os.listdir("."))
    refused(cli, [*command.split(), *WRITERS[writer][1], option, target], needle)
    assert before is None or fingerprint(target) == before
    assert sorted(os.listdir(".")) == cwd


def test_the_report_refuses_a_file_where_it_writes_a_sub_folder(tmp_path, no_work):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "grading")
    refused("sponsio", ["report", "--out", out, "--scale", "0.001"], "grading is a FIFO (named pipe), where the "
                                                                      "command writes a folder")
    assert stat.S_ISFIFO(os.lstat(out / "grading").st_mode)


def test_html_report_replaces_links_in_its_folder_and_writes_through_none(tmp_path):
    """What the report commands write (``HtmlReport``): a link at a file's or a sub-folder's
    name is replaced by the tool's own file or folder; what it pointed to is untouched."""
    import pandas as pd
    from tabletop_mc.htmlreport import HtmlReport
    out, away = tmp_path / "out", tmp_path / "away"
    out.mkdir()
    away.mkdir()
    for name in ("t.csv", "index.html", "p.png", "extra.csv"):
        (away / name).write_text("theirs")
        (out / name).symlink_to(away / name)
    (out / "grading").symlink_to(away)
    doc = HtmlReport(out)
    doc.section("S")
    doc.table(pd.DataFrame({"a": [1]}), "t")
    doc.csv(pd.DataFrame({"b": [2]}), "extra")
    doc.image("p", lambda p: Path(p).write_bytes(b"\x89PNG fake"))
    sub = HtmlReport(doc.subfolder("grading"))
    sub.table(pd.DataFrame({"c": [3]}), "t")
    sub.write("sub", "")
    doc.write("T", "intro")
    for name in ("t.csv", "index.html", "p.png", "extra.csv"):
        assert not (out / name).is_symlink() and (away / name).read_text() == "theirs", name
    assert (out / "t.csv").read_text() == "a\n1\n" and (out / "extra.csv").read_text() == "b\n2\n"
    assert not (out / "grading").is_symlink() and (out / "grading" / "t.csv").read_text() == "c\n3\n"
    assert sorted(p.name for p in away.iterdir()) == ["extra.csv", "index.html", "p.png", "t.csv"]


def test_the_atomic_writer_replaces_only_regular_files_and_links(tmp_path):
    os.mkfifo(tmp_path / "f")
    (tmp_path / "d").mkdir()
    for name in ("f", "d"):
        with pytest.raises(atomic.NotAFile, match="not a regular file"):
            atomic.write_bytes_atomic(tmp_path / name, b"x")
    with pytest.raises(atomic.NotAFile, match="empty file name"):
        atomic.write_bytes_atomic("", b"x")
    (tmp_path / "there").write_text("theirs")
    (tmp_path / "l").symlink_to(tmp_path / "there")
    atomic.write_bytes_atomic(tmp_path / "l", b"mine")
    assert (tmp_path / "l").read_bytes() == b"mine" and not (tmp_path / "l").is_symlink()
    assert (tmp_path / "there").read_text() == "theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "f", "l", "there"]


# ---- cache clear --------------------------------------------------------------------------------------------

def _cache_tree(tmp_path):
    """A kernel cache shared with other projects, a result cache and a model folder that also
    hold files the tools did not write; returns (env, the tools' files, everything else)."""
    from tabletop_mc.kernelfiles import seal
    from tabletop_mc.resultcache import config_key, encode
    from sponsio_sim.analysis.game.fit import find_model
    from sponsio_sim.analysis.game.model import cache_path
    from sponsio_sim.rules import load_rules
    kernels, home, models = tmp_path / "numba", tmp_path / "xdg", tmp_path / "models"
    mine, theirs = [], []

    def put(path: Path, data: bytes, own: bool):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        (mine if own else theirs).append(path)

    pickle = b"\x80\x05" + b"k" * 100
    for pkg in ("sponsio_sim", "caesar_sim", "tabletop_mc"):
        loc = kernels / f"{pkg}-0123456789abcdef" / f"kernels_{'a' * 40}"
        put(loc / "simulate.odds_chunk-62.py311.nbi", seal(pickle), True)
        put(loc / "simulate.odds_chunk-62.py311.1.nbc", seal(pickle), True)
        put(loc / "notes.txt", b"someone's notes", False)              # a stranger in our folder: it stays
    put(kernels / "caesar_sim-readme.txt", b"a plain file with our name", False)
    put(kernels / "sponsio_sim-0123456789abcdef" / "thesis.tex", b"x", False)
    put(kernels / f"otherproj_{'b' * 40}" / "f-1.py311.nbi", pickle, False)   # another project's numba cache
    put(kernels / "caesar_sim-fedcba9876543210" / f"k_{'c' * 40}" / "f-1.py311.nbi", b"not a pickle", False)
    key = config_key("cache-test", 1)
    results = home / "sponsio-sim" / "results"
    put(results / key / "00000000-00000100-5.batch", encode(key, 0, 100, 5, np.zeros(3)), True)
    key2 = config_key("cache-test", 2)
    put(results / key2 / "00000100-00000200-5.batch", encode(key, 100, 200, 5, np.zeros(3)), False)   # another run's
    put(results / "notes" / "00000000-00000100-5.batch", b"x", False)
    put(results / "README", b"x", False)
    env = {"NUMBA_CACHE_DIR": str(kernels), "XDG_CACHE_HOME": str(home), "SPONSIO_MODEL_DIR": str(models)}
    rules = load_rules()
    model = find_model(rules)
    old = os.environ.get("SPONSIO_MODEL_DIR")
    os.environ["SPONSIO_MODEL_DIR"] = str(models)
    try:
        path = cache_path(rules)
    finally:
        if old is None:
            del os.environ["SPONSIO_MODEL_DIR"]
        else:
            os.environ["SPONSIO_MODEL_DIR"] = old
    models.mkdir()
    model.save(path)
    mine.append(path)
    put(models / "thesis.tex", b"x", False)
    put(models / "4p-4c-8h-0123456789.npz", b"PK not a model", False)
    return env, mine, theirs


def test_cache_clear_removes_only_its_own_files(tmp_path):
    env, mine, theirs = _cache_tree(tmp_path)
    res = CliRunner(env=env).invoke(caesar, ["cache", "show"])
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines()[0].endswith("caesar_sim-* (2 files, 0.0 MB); 2 files there not the tool's (left alone)")
    res = CliRunner(env=env).invoke(caesar, ["cache", "clear"])
    assert res.exit_code == 0, res.stderr
    assert "compiled kernels: removed 2 files" in res.stdout
    res = CliRunner(env=env).invoke(sponsio, ["cache", "clear", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    import json
    rows = {r["cache"]: r for r in json.loads(res.stdout)["rows"]}
    assert rows["finished batches (resume)"]["removed"] == 1 and rows["fitted success models"]["removed"] == 1
    assert rows["fitted success models"]["others"] == 2
    assert [p for p in mine if p.exists()] == []
    assert [p for p in theirs if not p.exists()] == []
    # the folders made for the removed files went with them where nothing else was left
    from tabletop_mc.resultcache import config_key
    assert not (tmp_path / "xdg" / "sponsio-sim" / "results" / config_key("cache-test", 1)).exists()
    assert (tmp_path / "models").is_dir() and (tmp_path / "numba" / "sponsio_sim-0123456789abcdef").is_dir()
    res = CliRunner(env=env).invoke(sponsio, ["cache", "show", "--format", "csv"])
    assert res.exit_code == 0 and res.stdout.splitlines()[0] == "cache,folder,files,bytes,others"
    assert res.stdout.splitlines()[1].split(",")[2:] == ["0", "0", "2"]   # sponsio_sim: notes.txt, thesis.tex kept


def test_cache_clear_of_a_model_folder_the_user_named(tmp_path):
    """``SPONSIO_MODEL_DIR`` pointing at a folder of one's own: nothing in it is removed."""
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "thesis.tex").write_text("x")
    res = CliRunner(env={"SPONSIO_MODEL_DIR": str(folder), "XDG_CACHE_HOME": str(tmp_path / "x"),
                         "NUMBA_CACHE_DIR": str(tmp_path / "n")}).invoke(sponsio, ["cache", "clear"])
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines()[-1] == (f"fitted success models: removed 0 files (0.0 MB) from {folder}; "
                                           "kept 1 file it does not recognise")
    assert (folder / "thesis.tex").read_text() == "x"


def test_cache_show_says_how_each_cache_is_kept_in_bounds(tmp_path):
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "n"), "XDG_CACHE_HOME": str(tmp_path / "x")}
    res = CliRunner(env=env).invoke(sponsio, ["cache", "show"])
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[-2] == ("  compiled kernels: a folder per version of the kernel sources; one that no run has used "
                         "for 30 days is removed")
    assert lines[-1] == ("  finished batches (resume): kept under 2,000 MB ($SPONSIO_RESULT_CACHE_MB), the runs "
                         "least recently used removed first")
    res = CliRunner(env={**env, "SPONSIO_RESULT_CACHE_MB": "0"}).invoke(sponsio, ["cache", "show"])
    assert res.stdout.splitlines()[-1] == "  finished batches (resume): no size limit ($SPONSIO_RESULT_CACHE_MB=0)"
    res = CliRunner(env=env).invoke(sponsio, ["cache", "show", "--format", "json"])
    assert "least recently" not in res.stdout and "30 days" not in res.stdout   # the rows alone, as before
