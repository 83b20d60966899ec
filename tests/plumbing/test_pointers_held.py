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


def kernels(dirs=KERNEL_DIRS):
    """(module, function node, whether it is inlined) of every jitted function under ``dirs``."""
    return [(module, fn, any("inline='always'" in d.replace('"', "'") for d in decs))
            for module, fn, decs, _, _ in functions(dirs) if any("njit" in d or d == "no_refcount" for d in decs)]


def pointer_takers():
    return [(module, fn, inline) for module, fn, inline in kernels() if pointer_sources(fn)]


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


# Sponsio's states read their rulebook through its address (``sponsio_sim.kernels.rulebook``): a
# state bound to a rulebook (``copy_game(arrays)``, ``attach(state, rules, money_rules)``) is played
# only while that rulebook lives. A kernel that binds one therefore takes the rulebook as an argument
# (its caller holds it for the whole call), or holds one it made to its end; an inlined binder's
# argument is its caller's variable, so every call of it passes the caller's own argument (or an
# array the caller holds), and so on up to a kernel that is not inlined.
BINDERS = {"copy_game": (0,), "attach": (1, 2)}   # which arguments name the rulebook


def _base(node):
    """The variable an argument reads (``plays.rules[j]`` -> ``plays``), or None for an expression."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def rulebook_sources(fn):
    """The variables whose rulebook a state is bound to in ``fn``."""
    return {_base(n.args[k]) for n in ast.walk(fn) if _called(n, BINDERS) for k in BINDERS[n.func.id]}


def params(fn):
    return {a.arg for a in fn.args.args}


SPONSIO_KERNELS = ("sponsio_sim/kernels",)


def binders():
    return [(m, fn, inline) for m, fn, inline in kernels(SPONSIO_KERNELS) if rulebook_sources(fn)]


def test_the_binding_kernels_are_found():
    assert {fn.name for _, fn, _ in binders()} >= {"copy_game", "start_chunk", "profile_chunk", "fit_chunk",
                                                   "onpolicy_chunk", "paired_chunk", "multi_chunk"}


def _positions(fn, names):
    """Where ``names`` (arguments of ``fn``) come in its argument list."""
    order = [a.arg for a in fn.args.args]
    return {order.index(v) for v in names}


def _loose(fn, inline, sources):
    """The sources ``fn`` binds that it does not keep alive itself: for an inlined ``fn`` those that
    are not its arguments (its arguments are checked at its calls), else those neither its arguments
    nor held at its end."""
    return sources - params(fn) if inline else sources - params(fn) - held(fn)


@pytest.mark.parametrize("module,fn,inline", binders(), ids=lambda x: getattr(x, "name", None))
def test_every_rulebook_a_state_reads_outlives_the_state(module, fn, inline):
    loose = _loose(fn, inline, rulebook_sources(fn) - {None})
    assert not loose and None not in rulebook_sources(fn), (
        f"{module}.{fn.name}: binds a state to {sorted(loose) or 'an expression'}, which nothing keeps alive")
    if not inline:
        return
    # every call of an inlined binder passes, where the binder's rulebook argument goes, a variable
    # its caller keeps alive (the check again, one level up, for an inlined caller)
    everything = kernels(SPONSIO_KERNELS)
    todo, seen = [(fn, _positions(fn, rulebook_sources(fn)))], set()
    while todo:
        callee, positions = todo.pop()
        if callee.name in seen:
            continue
        seen.add(callee.name)
        for m, caller, caller_inline in everything:
            calls = [n for n in ast.walk(caller) if _called(n, {callee.name})]
            if not calls:
                continue
            passed = {_base(n.args[k]) for n in calls for k in positions if k < len(n.args)}
            loose = (passed - {None}) - params(caller) - (set() if caller_inline else held(caller))
            assert not loose and None not in passed, (
                f"{m}.{caller.name} calls {callee.name} with a rulebook ({sorted(loose)}) it does not keep alive")
            if caller_inline:
                todo.append((caller, _positions(caller, passed)))


def test_the_rulebook_check_sees_a_local_rulebook_let_go():
    fn = ast.parse("def f(a):\n    rules = np.zeros(3)\n    attach(a, rules, rules)\n    run(a)\n    return 0\n").body[0]
    assert rulebook_sources(fn) == {"rules"} and _loose(fn, False, rulebook_sources(fn)) == {"rules"}
    fn = ast.parse("def f(a, start):\n    b, g, m = copy_game(start)\n    run(g)\n").body[0]
    assert _loose(fn, True, rulebook_sources(fn)) == set()
