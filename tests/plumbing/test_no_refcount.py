"""Kernels compiled without reference counting (``tabletop_mc.jit.no_refcount``)
keep its contract: numba refuses one that allocates, none returns an array it
was given (the one breach numba cannot catch), and none calls, through
unmarked kernels, one that allocates (which would compile without counting
too and fail, on whichever run first takes that path); read from the source."""

import ast
import re
from pathlib import Path

import numba
import numpy as np
import pytest

from kernel_source import functions
from tabletop_mc.jit import no_refcount

ROOT = Path(__file__).resolve().parent.parent.parent
KERNEL_DIRS = ("sponsio_sim/kernels", "caesar_sim/kernels", "tabletop_mc")


def marked_functions():
    """(path, function node) of every function decorated ``@no_refcount``."""
    for d in KERNEL_DIRS:
        for path in sorted((ROOT / d).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef) and any(
                        isinstance(dec, ast.Name) and dec.id == "no_refcount" for dec in node.decorator_list):
                    yield path.relative_to(ROOT), node


ALLOCATES = re.compile(r"np\.(empty|zeros|ones|full|arange|array|zeros_like|empty_like)\b|\.copy\(\)|\.astype\(")


def kernels():
    """{(module, name): (marked, allocates, {(module, name) it calls})} of every
    jitted function, calls resolved through the module's own imports."""
    out = {}
    for module, node, decs, calls, names in functions(KERNEL_DIRS):
        allocates = bool(ALLOCATES.search(ast.unparse(node)))
        hooked = [d.args[0].id for d in node.decorator_list if isinstance(d, ast.Call)
                  and ast.unparse(d.func) == "overload" and isinstance(d.args[0], ast.Name)]
        for target in hooked:   # a call to the overloaded name may run this implementation
            key = names.get(target, (module, target))
            _, was_alloc, was_calls = out.get(key, (False, False, set()))
            out[key] = (False, was_alloc or allocates, was_calls | calls)
        if any("njit" in x or x == "no_refcount" for x in decs):
            out[(module, node.name)] = ("no_refcount" in decs, allocates, calls)
    return out


def indexed_params(fn: ast.FunctionDef) -> set[str]:
    """Parameters the body indexes (``a[i]``): the arrays (and tuples) it was given."""
    params = {a.arg for a in fn.args.args}
    return {n.value.id for n in ast.walk(fn) if isinstance(n, ast.Subscript)
            and isinstance(n.value, ast.Name) and n.value.id in params}


def returned_names(fn: ast.FunctionDef) -> set[str]:
    """Names a ``return`` hands back whole (alone or as a tuple element)."""
    out = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and node.value is not None:
            parts = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            out |= {p.id for p in parts if isinstance(p, ast.Name)}
    return out


def test_the_hot_kernels_are_marked():
    names = {fn.name for _, fn in marked_functions()}
    # the card and bet choices and the round bookkeeping of every game and odds run
    assert {"choose_scored", "choose_ev", "kind_best", "search", "close_round"} <= names
    assert len(names) > 50


@pytest.mark.parametrize("path,fn", list(marked_functions()), ids=lambda x: getattr(x, "name", str(x)))
def test_no_marked_kernel_returns_an_array_it_was_given(path, fn):
    assert not returned_names(fn) & indexed_params(fn), f"{path}:{fn.lineno} {fn.name}"


def test_no_marked_kernel_reaches_an_allocating_one_through_unmarked_ones():
    graph = kernels()
    bad = []
    for key, (marked, _, calls) in graph.items():
        if not marked:
            continue
        todo, seen = list(calls), set()
        while todo:
            callee = todo.pop()
            if callee in seen or callee not in graph or graph[callee][0]:
                continue
            seen.add(callee)
            if graph[callee][1]:
                bad.append(f"{key[0]}.{key[1]} -> {callee[0]}.{callee[1]}")
            todo += graph[callee][2]
    assert not bad, bad


# numpy names a kernel without reference counting may use: scalar types and math
SCALAR_NP = {"uint64", "int64", "uint32", "int32", "float64", "bool_", "log", "exp", "sqrt", "inf", "nan",
             "isnan", "abs", "floor", "ceil"}


def allocating_constructs(fn: ast.FunctionDef) -> list[str]:
    """Slices (a slice copy or slice arithmetic allocates), array methods and
    numpy functions other than scalar ones: numba finds that they need
    reference counting only when the kernel first compiles on that path."""
    found = [ast.unparse(n) for n in ast.walk(fn) if isinstance(n, ast.Slice)]
    for n in ast.walk(fn):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "np" \
                and n.attr not in SCALAR_NP:
            found.append(ast.unparse(n))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in {
                "sort", "argsort", "copy", "astype", "reshape", "ravel", "flatten", "cumsum", "repeat"}:
            found.append(ast.unparse(n))
    return found


@pytest.mark.parametrize("path,fn", list(marked_functions()), ids=lambda x: getattr(x, "name", str(x)))
def test_no_marked_kernel_uses_an_allocating_construct(path, fn):
    assert not allocating_constructs(fn), f"{path}:{fn.lineno} {fn.name}: {allocating_constructs(fn)}"


def test_the_construct_check_catches_a_sort_and_a_slice_copy():
    fn = ast.parse("def f(a, b):\n    a.sort()\n    b[:] = a\n    return np.uint64(b[0])\n").body[0]
    assert allocating_constructs(fn) == [":", "a.sort()"]


def test_the_source_check_catches_a_returned_argument_array():
    fn = ast.parse("def f(tab, i):\n    x = tab[i]\n    return tab, x\n").body[0]
    assert returned_names(fn) & indexed_params(fn) == {"tab"}


def test_numba_refuses_a_kernel_without_refcounts_that_allocates():
    @no_refcount
    def grows(n):
        return np.zeros(n).sum()

    with pytest.raises(numba.core.errors.NumbaError):
        grows(3)


def test_a_kernel_without_refcounts_reads_and_writes_borrowed_arrays():
    @no_refcount
    def bump(a, k):
        for i in range(a.shape[0]):
            a[i] += k
        return a[0]

    a = np.arange(4)
    assert bump(a, 2) == 2 and a.tolist() == [2, 3, 4, 5]
