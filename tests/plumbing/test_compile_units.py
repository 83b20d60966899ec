"""Each span kernel's per-chunk body compiles into the span (ARCHITECTURE.md, "One library per entry
point"): a plain jitted function whose one jitted caller is a ``*_span`` kernel is ``inline="always"``,
so it does not cost a whole engine's code generation of its own on a first run. Read from the source;
``no_refcount`` bodies are exempt (compiled into a reference-counted span they would count references)."""

import ast
from functools import cache

from kernel_source import functions

KERNEL_DIRS = ("sponsio_sim/kernels", "caesar_sim/kernels")


def jitted():
    """{(module, name): (decorator texts, {(module, name) it calls})} of every jitted function."""
    return {(module, node.name): (decs, calls) for module, node, decs, calls, _ in functions(KERNEL_DIRS)
            if any("njit" in x or "no_refcount" in x for x in decs)}


def span_only_bodies(graph):
    """The plain jitted functions whose one jitted caller is a span kernel, with it."""
    callers = {}
    for key, (_, calls) in graph.items():
        for callee in calls:
            if callee in graph and callee != key:
                callers.setdefault(callee, set()).add(key)
    return {key: who for key, who in callers.items()
            if len(who) == 1 and all(c[1].endswith("_span") for c in who) and not key[1].endswith("_span")
            and not any("no_refcount" in x for x in graph[key][0])}


def test_span_bodies_compile_into_their_span():
    graph = jitted()
    bodies = span_only_bodies(graph)
    assert ("sponsio_sim.kernels.game.multiplay", "multi_chunk") in bodies      # the check sees the spans
    assert ("caesar_sim.kernels.game.netrecord", "_label") in bodies
    separate = sorted(f"{m}.{n} (called by {', '.join(sorted(c[1] for c in who))})"
                      for (m, n), who in bodies.items() if not any("inline='always'" in x for x in graph[(m, n)][0]))
    assert not separate, f"compile these into their span with inline=\"always\": {separate}"


# numba compiles a jitted function once per distinct tuple of argument types, and a constant argument has
# a type of its own (``Literal[int](0)``, ``Literal[bool](True)``): a callee that one caller hands ``0``
# and another a variable compiles twice. So does one handed a variable first bound to a constant
# (``r = 0`` then ``r += 1``): numba types the call while ``r`` is still the literal, compiles that copy,
# then compiles again once ``r`` is an integer. Such copies were about a tenth of what the suite's kernel
# cache held (7.2 of 77 MB on e6c9167), the largest a whole ``rollout_game`` (1.4 MB, 8 s of a first
# game with an ``mc`` seat). ``np.int64(0)`` / ``np.bool_(True)`` are plain integers and booleans to numba.
# Kept on purpose (a copy per constant is the point, or too small to matter):
DELIBERATE = {
    ("sponsio_sim.kernels.advise.actions", "_add"): "four stores; a copy compiles in a fraction of a second",
    ("sponsio_sim.kernels.advise.actions", "_swaps"): "one small loop of stores, as _add",
    ("sponsio_sim.kernels.betting.candidates", "add_candidate"): "five stores, as _add",
    ("sponsio_sim.kernels.game.log", "log_event"): "eight stores, as _add",
    ("caesar_sim.kernels.play.policies", "legal_actions"): "the rollouts' inner step specialises on its offset",
    ("caesar_sim.kernels.play.scan", "_scan"): "compiled once per mode anyway (the mode is a named constant)",
    ("tabletop_mc.net.forward", "_layer"): "a layer's inner loop specialises on its activation",
    ("tabletop_mc.net.packed", "_dense"): "as _layer",
    ("tabletop_mc.net.packed", "_accumulate"): "as _layer",
}
LITERAL_DIRS = ("sponsio_sim/kernels", "caesar_sim/kernels", "tabletop_mc")


def _constant(node):
    """The value of an int or bool constant (a negative one too), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant(node.operand)
        return None if inner is None or isinstance(inner, bool) else -inner
    if isinstance(node, ast.Constant) and type(node.value) in (bool, int):
        return node.value
    return None


def _bindings(fn):
    """{name: set of what it is bound to in ``fn``: a constant's value, or None for anything else}."""
    bound = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs = zip(target.elts, node.value.elts)
                elif isinstance(target, ast.Tuple):
                    pairs = ((t, None) for t in target.elts)
                else:
                    pairs = [(target, node.value)]
                for t, value in pairs:
                    if isinstance(t, ast.Name):
                        bound.setdefault(t.id, set()).add(None if value is None else _constant(value))
        elif isinstance(node, (ast.AugAssign, ast.For)) and isinstance(node.target, ast.Name):
            bound.setdefault(node.target.id, set()).add(None)
    return bound


@cache
def argument_kinds():
    """{(callee, position): {kind: [call sites]}} over every call of a separately compiled kernel (not
    ``inline="always"``) from a kernel; a kind is "constant V", "first bound to V" (a variable bound to
    constant V and to something else) or "value"."""
    kernels, bodies = {}, []
    for module, node, decs, _, names in functions(LITERAL_DIRS):
        if any("njit" in x or "no_refcount" in x for x in decs):
            kernels[(module, node.name)] = any("inline='always'" in x for x in decs)
            bodies.append((module, node, names))
    kinds = {}
    for module, fn, names in bodies:
        bound = _bindings(fn)
        for call in ast.walk(fn):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                continue
            callee = names.get(call.func.id, (module, call.func.id))
            if callee not in kernels or kernels[callee]:
                continue
            for i, arg in enumerate(call.args):
                value = _constant(arg)
                seen = bound.get(arg.id, {None}) if isinstance(arg, ast.Name) else {None}
                consts = sorted(repr(v) for v in seen if v is not None)
                if value is not None:
                    kind = f"constant {value!r}"
                elif consts and len(seen) == 1:
                    kind = f"constant {consts[0]}"
                elif consts:
                    kind = f"first bound to {'/'.join(consts)}"
                else:
                    kind = "value"
                kinds.setdefault((callee, i), {}).setdefault(kind, []).append(f"{fn.name}:{call.lineno}")
    return kinds


def test_a_kernel_compiles_once_per_argument_type_not_per_constant():
    kinds = argument_kinds()
    assert any(c[1] == "rollout_game" for c, _ in kinds)                       # the check sees the calls
    twice = []
    for (callee, i), by_kind in sorted(kinds.items()):
        if callee in DELIBERATE:
            continue
        mixed = any(k.startswith("first") for k in by_kind) or (
            len(by_kind) > 1 and any(k.startswith("constant") for k in by_kind))
        if mixed:
            twice.append(f"{callee[0]}.{callee[1]} argument {i}: "
                         + "; ".join(f"{k} at {', '.join(sites)}" for k, sites in by_kind.items()))
    assert not twice, "compiled once per constant (pass np.int64(...) / np.bool_(...)):\n" + "\n".join(twice)


def test_the_deliberate_copies_are_still_kernels():
    """An entry of DELIBERATE names a separately compiled kernel that still gets a constant somewhere."""
    kinds = argument_kinds()
    called = {callee for (callee, _), by_kind in kinds.items() if any(k.startswith("constant") for k in by_kind)}
    assert set(DELIBERATE) <= called, sorted(set(DELIBERATE) - called)


# Machinery that only some runs use is compiled out of the others by numba's dead-branch pruning: a
# test ``ARG is not None`` (alone, or first in an ``and``) on an argument typed None removes its branch
# before typing, so what the branch calls is never compiled. Each family: its guarding argument.
GUARDED = {
    "sponsio_sim.kernels.betting.netlabel": "labels",      # expert iteration's labelling runs only
}
GUARDED_KERNELS = {
    ("sponsio_sim.kernels.betting.mc", "choose_mc"): "mc_seats",      # games with an mc seat only
    ("sponsio_sim.kernels.betting.mc", "choose_mc_end"): "mc_seats",
    ("sponsio_sim.kernels.game.engine", "mc_cash_ins"): "mc_seats",
    ("sponsio_sim.kernels.betting.policies", "choose_ev"): "scored",     # runs that seat a scored policy only
    ("sponsio_sim.kernels.betting.policies", "choose_random"): "scored",
    ("sponsio_sim.kernels.betting.scored", "choose_soft"): "scored",
    ("sponsio_sim.kernels.betting.scored", "choose_distilled"): "scored",
}


def _guards(test):
    """The argument names ``test`` checks ``is not None`` first (itself, or the first operand of an ``and``)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return _guards(test.values[0])
    if (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.IsNot) and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None):
        return {test.left.id}
    return set()


def _guarded_calls(fn, names, module):
    """(callee, its guard, line, whether inside its guard's branch) of each call of a guarded kernel in ``fn``."""
    params = {a.arg for a in fn.args.args}
    found = []

    def visit(node, held):
        if isinstance(node, ast.If):
            visit(node.test, held)
            for child in node.body:
                visit(child, held | (_guards(node.test) & params))
            for child in node.orelse:
                visit(child, held)
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            callee = names.get(node.func.id, (module, node.func.id))
            guard = GUARDED.get(callee[0], GUARDED_KERNELS.get(callee))
            if guard is not None and callee[0] != module:
                found.append((f"{callee[0]}.{callee[1]}", guard, node.lineno, guard in held))
        for child in ast.iter_child_nodes(node):
            visit(child, held)

    for statement in fn.body:
        visit(statement, frozenset())
    return found


def test_run_specific_machinery_is_compiled_only_into_the_runs_that_use_it():
    calls = [(f"{module}.{node.name}", *call) for module, node, decs, _, names in functions(KERNEL_DIRS)
             if any("njit" in x or "no_refcount" in x for x in decs) for call in _guarded_calls(node, names, module)]
    seen = {callee for _, callee, _, _, _ in calls}
    assert {"sponsio_sim.kernels.betting.netlabel.label_decision", "sponsio_sim.kernels.betting.mc.choose_mc",
            "sponsio_sim.kernels.betting.scored.choose_soft"} <= seen          # the check sees the calls
    outside = [f"{caller}:{line} calls {callee} outside `if {guard} is not None`"
               for caller, callee, guard, line, inside in calls if not inside]
    assert not outside, "\n".join(outside)
