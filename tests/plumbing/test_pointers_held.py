"""Arrays read through pointers stay alive while the pointers are in use, read from the source.

numba releases an array after its last use in a function, and a pointer taken from it
(``tabletop_mc.pointers.as_ptr``, or Circus's ``game_ptrs``) is not a use. So a function that
takes pointers from an array it made, or, when it is inlined (``inline="always"``), from an
argument (inlined, its arguments are the caller's variables), names that array in a
``hold((...))`` placed after the pointers' last use, or reads it in its closing ``return``.
Without it, Circus's field batches read their event log from freed memory in every game
(valgrind: 742 reads of freed blocks in one small run of ``tests/caesar/test_fieldplay.py``'s
paired deviations).
"""

import ast

import pytest

from kernel_source import functions

KERNEL_DIRS = ("sponsio_sim/kernels", "caesar_sim/kernels", "tabletop_mc")
TAKERS = {"as_ptr", "game_ptrs"}


def _called(node, names):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names


def pointer_sources(fn):
    """Names whose data a pointer is taken from in ``fn`` (plain names handed to a taker)."""
    return {a.id for n in ast.walk(fn) if _called(n, TAKERS) for a in n.args if isinstance(a, ast.Name)}


def assigned(fn):
    """Names ``fn`` assigns (its own arrays among them)."""
    out = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                out |= {x.id for x in ast.walk(t) if isinstance(x, ast.Name)}
    return out


def held(fn):
    """Names alive at the end of ``fn``: those in its closing ``return`` and in the ``hold((...))``
    statements just before it."""
    out, tail = set(), list(fn.body)
    while tail and isinstance(tail[-1], ast.Return):
        out |= {x.id for x in ast.walk(tail.pop()) if isinstance(x, ast.Name)}
    while tail and isinstance(tail[-1], ast.Expr) and _called(tail[-1].value, {"hold"}):
        out |= {x.id for x in ast.walk(tail.pop().value) if isinstance(x, ast.Name) and x.id != "hold"}
    return out


def pointer_takers():
    for module, fn, decs, _, _ in functions(KERNEL_DIRS):
        if any("njit" in d or d == "no_refcount" for d in decs) and pointer_sources(fn):
            yield module, fn, any("inline='always'" in d.replace('"', "'") for d in decs)


def test_the_pointer_taking_kernels_are_found():
    names = {fn.name for _, fn, _ in pointer_takers()}
    assert {"seated_games", "k_decide", "k_states", "_record", "_label"} <= names


@pytest.mark.parametrize("module,fn,inline", list(pointer_takers()), ids=lambda x: getattr(x, "name", None))
def test_every_array_read_through_a_pointer_is_held_to_the_end(module, fn, inline):
    sources = pointer_sources(fn)
    need = sources if inline else sources & assigned(fn)
    missing = need - held(fn)
    assert not missing, f"{module}.{fn.name}: {sorted(missing)} read through pointers but not held (hold((...)) at the end)"


def test_the_check_sees_a_missing_hold():
    src = ast.parse("def f(a):\n    b = np.zeros(3)\n    t = game_ptrs(a, b)\n    run(t)\n    hold((b,))\n    return 0\n")
    fn = src.body[0]
    assert pointer_sources(fn) == {"a", "b"} and held(fn) == {"b"}
    assert pointer_sources(fn) & assigned(fn) - held(fn) == set()   # not inlined: its argument is the caller's
    assert pointer_sources(fn) - held(fn) == {"a"}                 # inlined: the argument must be held too
