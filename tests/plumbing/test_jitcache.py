"""Lean loads from numba's on-disk cache (``tabletop_mc.jitcache.lean_cache_loads``).

Fresh interpreters on a throwaway cache: a first one compiles and stores
the kernels (once for the module), then each case loads them in another.
The loads must give the same answers without importing numba's
implementation registries, and compiling something new afterwards must
still work (the compiler refreshes them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

KERNELS = textwrap.dedent('''
    import numba as nb
    import numpy as np

    @nb.njit(cache=True)
    def sorted_ends(a):
        b = np.sort(a)          # allocates: needs the runtime
        return b[0] + b[-1]

    @nb.njit(cache=True)
    def keys(n):
        d = {}
        for i in range(n):
            d[str(i)] = i       # typed dict, string hashing
        return len(d)

    @nb.njit(cache=True, parallel=True)
    def total(n):
        s = 0.0
        for i in nb.prange(n):
            s += i
        return s
''')

RUN = textwrap.dedent('''
    import json, sys
    if sys.argv[1] == "lean":
        from tabletop_mc.jitcache import lean_cache_loads
        assert lean_cache_loads()
    import numpy as np
    import kernels as k
    out = {"sorted": k.sorted_ends(np.array([3.0, 1.0, 2.0])), "keys": k.keys(10), "total": k.total(100),
           "hits": sum(sum(f.stats.cache_hits.values()) for f in (k.sorted_ends, k.keys, k.total)),
           "registries": "numba.np.linalg" in sys.modules}
    import numba as nb

    @nb.njit
    def fresh(a):               # compiled now: needs the registries the loads skipped
        return np.cumsum(a)[-1] + np.argsort(a)[0] + len(sorted([3, 1, 2]))

    out["fresh"] = float(fresh(np.array([2.0, 1.0, 3.0])))
    print(json.dumps(out))
''')


def _run(where, mode: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(where / "cache"), "PYTHONPATH": str(where)}
    proc = subprocess.run([sys.executable, str(where / "run.py"), mode], cwd=where, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A folder whose cache a lean first run filled (it compiled and stored the kernels), and that run's
    output. The cases only load from it (``fresh`` is not cached), so they share it."""
    where = tmp_path_factory.mktemp("jitcache")
    (where / "kernels.py").write_text(KERNELS)
    (where / "run.py").write_text(RUN)
    return where, _run(where, "lean")


EXPECTED = {"sorted": 4.0, "keys": 10, "total": 4950.0, "fresh": 10.0}


def test_lean_loads_skip_the_registries_and_compiling_still_works(stored):
    first = stored[1]                                  # compiled and stored
    assert first["hits"] == 0
    again = _run(stored[0], "lean")                    # loads
    assert again["hits"] == 3
    assert not again["registries"]
    for out in (first, again):
        assert {key: out[key] for key in EXPECTED} == EXPECTED


def test_numbas_own_loads_import_the_registries(stored):
    """The check above can fail: numba's own load path refreshes the registries."""
    again = _run(stored[0], "plain")
    assert again["hits"] == 3
    assert again["registries"]
    assert {key: again[key] for key in EXPECTED} == EXPECTED


# -- where the shared plumbing's kernels are cached ----------------------------------------------

def _cached_kernel(decorator) -> bool:
    text = __import__("ast").unparse(decorator)
    return "no_refcount" in text or ("njit" in text and "cache=True" in text)


def test_every_shared_kernel_module_keys_the_cache_before_its_kernels():
    """A tabletop_mc module that defines cached kernels calls ``configure_shared()`` above its first
    one. Imported before a game package had configured the cache, ``tabletop_mc.moments`` and
    ``pointers`` were cached wherever numba's configuration then pointed: beside the sources, or an
    unkeyed folder of ``$NUMBA_CACHE_DIR``, where an edit to a kernel they call is never seen."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "tabletop_mc"
    late, seen = [], []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text())
        kernels = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                   and any(_cached_kernel(d) for d in node.decorator_list)]
        if not kernels:
            continue
        seen.append(str(path.relative_to(root.parent)))
        calls = [node.lineno for node in tree.body if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                 and getattr(node.value.func, "id", None) == "configure_shared"]
        if not calls or calls[0] > min(kernels):
            late.append(str(path.relative_to(root.parent)))
    assert {"tabletop_mc/rng.py", "tabletop_mc/moments.py"} <= set(seen)   # the check sees the kernel modules
    assert not late, f"call configure_shared() above the kernels of: {late}"


@pytest.mark.parametrize("module", ["tabletop_mc.moments", "tabletop_mc.pointers"])
def test_a_shared_module_imported_first_caches_in_the_keyed_folder(tmp_path, module):
    probe = ("import importlib, sys\n"
             f"m = importlib.import_module({module!r})\n"
             "print(next(v for v in vars(m).values() if hasattr(v, '_cache'))._cache._cache_path)\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    folder = os.path.relpath(out.stdout.strip(), tmp_path).split(os.sep)[0]
    assert folder.startswith("tabletop_mc-"), out.stdout
