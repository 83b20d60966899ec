"""The first run's compile helper (``tabletop_mc.warmup``) and its plans (``tabletop_mc.compileplan``).

The choice of subtrees is checked on made-up recordings; the helper end to end on a
throwaway package of two small kernels, in fresh interpreters on a throwaway cache: the
helper compiles what the plan names into the cache and a later process loads it from there
instead of compiling. The shipped plans must name kernels that exist.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from tabletop_mc import warmup
from tabletop_mc.compileplan import Choice, Compile, choose, frontier, parents, subtree, subtree_sizes, write_plan

ROOT = Path(__file__).resolve().parent.parent.parent


def c(name, depth, start, end, module="pkg.kernels"):
    return Compile(module, name, b"args", depth, start, end)


def test_parents_follow_the_nesting():
    # top (0-10) calls a (1-3, which calls a1 1.5-2) and b (4-9)
    rec = [c("a1", 2, 1.5, 2), c("a", 1, 1, 3), c("b", 1, 4, 9), c("top", 0, 0.2, 10)]
    assert parents(rec) == [1, 3, 3, -1]


def names(rec, choice):
    return [rec[i].qualname for i in choice.taken]


def test_the_helper_takes_what_the_command_reaches_last():
    # the command reaches a at 1 s, b at 4 s, d at 12 s; the helper starts 0.5 s after the first compile
    rec = [c("a", 1, 1, 3), c("b", 1, 4, 9), c("d", 1, 12, 15), c("top", 0, 0.2, 16)]
    choice = choose(rec, start_s=0.5, slower=1.0)
    # best: b (begun at 0.7 s, ready at 5.7 s: the command, there at 4 s, waits 1.7 s instead of
    # compiling it for 5 s) and d (begun at 5.7 s, ready at 8.7 s, when the command gets there)
    assert names(rec, choice) == ["b", "d"]
    assert choice.alone == 16 and choice.with_helper == pytest.approx(16 - 5 + 1.7 - 3)


def test_inner_subtrees_when_the_outer_one_comes_too_soon():
    # b (6-11 s) holds b1 (6-7) and b2 (7-10); e follows at 11 s. Taking b whole makes the command
    # wait 3.7 s for e; taking b2 and e (ready at 3.7 s and 7.7 s, needed at 7 s and 11 - 3 = 8 s)
    # leaves it 16 - 3 - 4 = 9 s, the least
    rec = [c("b1", 2, 6, 7), c("b2", 2, 7, 10), c("b", 1, 6, 11), c("e", 1, 11, 15), c("top", 0, 0.2, 16)]
    choice = choose(rec, start_s=0.5, slower=1.0)
    assert names(rec, choice) == ["b2", "e"]
    assert choice.with_helper == 9


def test_a_subtree_the_command_reaches_before_the_helper_begins_it_stays_the_command_s():
    rec = [c("a", 1, 0.3, 5), c("top", 0, 0.2, 6)]      # reached before the helper has started
    assert choose(rec, start_s=0.5, slower=1.0).taken == []


def test_the_helper_begins_a_subtree_once_the_command_has_compiled_what_it_calls():
    # d calls y, which the command compiles from 1 s to 9 s (numba's own: no helper can name it); the
    # helper begins d at 9 s, not at 0.7 s (it would compile y beside the command), and has it at 12 s
    y = Compile("numba.np", "y.<locals>.impl", None, 1, 1, 9)
    rec = [y, Compile("pkg.kernels", "d", b"args", 1, 12, 15, calls=(y.key,)), c("top", 0, 0.2, 16)]
    choice = choose(rec, start_s=0.5, slower=1.0)
    assert names(rec, choice) == ["d"] and choice.with_helper == 13
    # y done at 11.9 s: d would be ready at 15.5 s, and waiting 3.5 s for it costs more than its 3 s
    late = [Compile("numba.np", "y.<locals>.impl", None, 1, 1, 11.9)] + rec[1:]
    assert choose(late, start_s=0.5, slower=1.2).taken == []


def sized_recording():
    # P (3-4) and Q (4-14) under top, then T (14-24) holding T1 (14-19) and T2 (19-23.5)
    return [c("P", 1, 3, 4), c("Q", 1, 4, 14), c("T1", 2, 14, 19), c("T2", 2, 19, 23.5), c("T", 1, 14, 24),
            c("top", 0, 0.2, 30)]


def test_frontier_takes_the_largest_subtrees_past_the_cut_up_to_a_size():
    rec = sized_recording()
    up = parents(rec)
    assert [rec[i].qualname for i in frontier(rec, up, 0, float("inf"))] == ["P", "Q", "T"]
    assert [rec[i].qualname for i in frontier(rec, up, 3.5, float("inf"))] == ["Q", "T"]
    assert [rec[i].qualname for i in frontier(rec, up, 0, 10)] == ["P", "Q", "T"]
    assert [rec[i].qualname for i in frontier(rec, up, 0, 5)] == ["P", "T1", "T2"]   # Q (10 s) has no parts
    assert [rec[i].qualname for i in frontier(rec, up, 15, 5)] == ["T2"]
    assert subtree_sizes(rec)[:3] == (float("inf"), 10.0, 9.5) and subtree_sizes(rec)[-1] == 0.5


def test_smaller_subtrees_let_the_helper_skip_one_it_would_be_late_for():
    # By a cut alone the helper takes T whole (begun at 0.7 s, ready at 10.7 s, needed at 14 s): 10 s
    # saved; any cut before Q makes it take Q too and arrive late for T. With size 5 it takes P (ready
    # at 1.7 s), T1 (ready at 6.7 s, needed at 13 s) and T2 (ready at 11.2 s, needed at 19 - 6 = 13 s):
    # 1 + 5 + 4.5 s saved, Q left to the command
    rec = sized_recording()
    alone = choose(rec, start_s=0.5, slower=1.0)
    assert names(rec, alone) == ["T"] and alone.with_helper == 20
    sized = choose(rec, start_s=0.5, slower=1.0, sizes=subtree_sizes(rec))
    assert names(rec, sized) == ["P", "T1", "T2"] and sized.with_helper == pytest.approx(19.5)


def test_subtree_lists_what_the_command_waits_for():
    rec = [c("b1", 2, 6, 7), c("b2", 2, 7, 10), c("b", 1, 6, 11), c("e", 1, 11, 15), c("top", 0, 0.2, 16)]
    up = parents(rec)
    assert [q for _, q in subtree(rec, up, 2)] == ["b", "b1", "b2"]
    assert [q for _, q in subtree(rec, up, 3)] == ["e"]


def test_numba_own_overloads_are_never_named():
    rec = [c("ol_np_empty.<locals>.impl", 1, 5, 9, module="numba.np.arrayobj"), c("top", 0, 0.2, 10)]
    assert choose(rec, start_s=0.5, slower=1.0).taken == []
    # nor its module-level helpers (``register_jitable``: no dispatcher a helper could compile)
    rec = [c("_pick_kind", 1, 5, 9, module="numba.cpython.unicode"), c("top", 0, 0.2, 10)]
    assert choose(rec, start_s=0.5, slower=1.0, sizes=subtree_sizes(rec)).taken == []


@pytest.mark.parametrize("path", sorted((ROOT / "sponsio_sim" / "plans").glob("*.plan")), ids=lambda p: p.stem)
def test_shipped_plans_name_kernels_that_exist(path):
    """A kernel renamed or moved without ``scripts/make_compile_plans.py`` rerun would leave the
    helper idle (the first run as slow as before, nothing wrong): caught here."""
    plan = warmup.load_plan(path)
    assert plan is not None, f"{path.name}: not a compile plan this numba can read"
    assert plan["entries"], f"{path.name}: names no kernel"
    for module, qualname, args, inside, after in plan["entries"]:
        for m, q in [(module, qualname), *after]:
            assert warmup.resolve(m, q) is not None, f"{path.name}: {m}.{q} is gone"
        assert isinstance(pickle.loads(args), tuple) and [module, qualname] in [list(m) for m in inside]
    assert plan["predicted_s"] < plan["recorded_s"]


PACKAGE = textwrap.dedent('''
    import numba as nb
    import numpy as np

    @nb.njit(cache=True)
    def inner(a):
        return np.sort(a)[0]

    @nb.njit(cache=True)
    def outer(a):
        return inner(a) + a.sum()
''')

RUN = textwrap.dedent('''
    import json, sys, time
    import numpy as np
    from tabletop_mc import warmup
    import warmkern.kernels as k
    helper = warmup.begin("warmkern", "x")
    if helper is not None:
        helper.proc.wait(60)
    value = float(k.outer(np.array([3.0, 1.0, 2.0])))
    print(json.dumps({"started": helper is not None, "value": value,
                      "hits": sum(sum(f.stats.cache_hits.values()) for f in (k.outer, k.inner)),
                      "misses": sum(sum(f.stats.cache_misses.values()) for f in (k.outer, k.inner))}))
''')


@pytest.fixture()
def package(tmp_path):
    pkg = tmp_path / "warmkern"
    (pkg / "plans").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "kernels.py").write_text(PACKAGE)
    from numba.core import types
    args = pickle.dumps((types.float64[::1],))
    rec = [Compile("warmkern.kernels", "inner", args, 2, 1.2, 1.5), Compile("warmkern.kernels", "outer", args, 1, 1.0, 2.0),
           Compile("warmkern.kernels", "main", None, 0, 0.5, 3.0)]
    write_plan(pkg / "plans" / "x.plan", rec, Choice([1], 3.0, 2.0), {"command": ["test"]})
    return tmp_path


def run(package, **env):
    out = subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=f"{package}{os.pathsep}{ROOT}",
                                  NUMBA_CACHE_DIR=str(package / "cache"), **env))
    return json.loads(out.stdout)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the helper runs only with two cores or more")
def test_the_helper_compiles_into_the_cache_and_the_command_loads_it(package):
    first = run(package, TABLETOP_COMPILE_HELPER="1")
    assert first["started"] and first["value"] == 7.0
    assert first["hits"] >= 1 and first["misses"] == 0     # outer came from the helper's compile
    again = run(package, TABLETOP_COMPILE_HELPER="1")
    assert not again["started"] and again["value"] == 7.0  # warm: no helper


ENDED = textwrap.dedent('''
    import json
    import numpy as np
    from tabletop_mc import warmup
    import warmkern.kernels as k
    helper = warmup.begin("warmkern", "x")
    warmup.end_helpers()                      # the command ends at once: the helper is stopped mid-way
    helper.proc.wait(30)
    print(json.dumps({"code": helper.proc.returncode, "value": float(k.outer(np.array([3.0, 1.0, 2.0])))}))
''')


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the helper runs only with two cores or more")
def test_a_helper_stopped_mid_way_leaves_a_sound_cache(package):
    env = dict(os.environ, PYTHONPATH=f"{package}{os.pathsep}{ROOT}", NUMBA_CACHE_DIR=str(package / "cache"),
               TABLETOP_COMPILE_HELPER="1")
    out = json.loads(subprocess.run([sys.executable, "-c", ENDED], capture_output=True, text=True, check=True,
                                    env=env).stdout)
    assert out["value"] == 7.0 and out["code"] in (0, -15)   # -15: stopped before it set its handler
    leftovers = [p.name for p in (package / "cache").rglob("*") if p.is_file() and p.name.endswith(".tmp")]
    assert leftovers == []
    again = run(package, TABLETOP_COMPILE_HELPER="0")   # the command's own save, read back by a new process
    assert again["value"] == 7.0 and again["hits"] >= 1 and again["misses"] == 0


def test_no_helper_when_switched_off(package):
    out = run(package, TABLETOP_COMPILE_HELPER="0")
    assert not out["started"] and out["value"] == 7.0 and out["hits"] == 0


def test_a_missing_or_foreign_plan_is_no_plan(tmp_path):
    assert warmup.load_plan(tmp_path / "none.plan") is None
    (tmp_path / "bad.plan").write_bytes(pickle.dumps({"format": "something else"}))
    assert warmup.load_plan(tmp_path / "bad.plan") is None
    (tmp_path / "junk.plan").write_bytes(b"\x00not a pickle")
    assert warmup.load_plan(tmp_path / "junk.plan") is None
    assert warmup.begin("tabletop_mc", "no-such-plan") is None


class Running:
    def poll(self):
        return None


def test_a_miss_waits_only_for_the_entry_the_helper_is_compiling(tmp_path):
    status = tmp_path / "status"
    status.write_text("0")
    plan = {"entries": [("m", "root", b"", [("m", "root"), ("m", "leaf")], []),
                        ("m", "later", b"", [("m", "later")], [])]}
    helper = warmup.Helper(Running(), plan, status)
    assert not helper.wait_for("m", "later")          # not begun: the command compiles it itself
    assert not helper.wait_for("m", "elsewhere")
    threading.Timer(0.3, lambda: status.write_text("1")).start()
    t = time.monotonic()
    assert helper.wait_for("m", "leaf")               # inside the entry under way: wait for it
    assert 0.2 < time.monotonic() - t < 5
    status.write_text("")
    assert helper.compiling() == -1 and not helper.wait_for("m", "later")


def test_a_stopped_helper_compiles_nothing_more(package, monkeypatch):
    monkeypatch.setattr(warmup, "_stopping", [True])
    assert warmup.run_plan(package / "warmkern" / "plans" / "x.plan") == 0
