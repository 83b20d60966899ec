"""Compile plans: which kernels a helper process compiles while a command compiles the rest.

A command's first run compiles its kernels depth first: typing a kernel
compiles each kernel it calls, so the compiles nest, and the command reaches
its call graph's subtrees one after another. ``record`` runs a command once
in this process on an empty cache and notes every compile numba makes (its
function, argument types, nesting depth, start and end). ``choose`` then
picks the subtrees a helper should take (``tabletop_mc.warmup``): the ones
the command reaches last, each only if the helper, compiling them in the
order the command needs them, is predicted to finish it before the command
gets there, or far enough that waiting for it costs the command less than
compiling it. It tries every cut in time (and, given sizes, the largest
subtrees past the cut no longer than each size, so the helper may take the
parts of a long subtree the command reaches early) and keeps the plan that
leaves the command the least to do.

``python -m tabletop_mc.compileplan OUT MODULE:FUNC ARG...`` records the
command ``FUNC(ARGS)`` (a click entry point) into ``OUT`` (a pickle);
``scripts/make_compile_plans.py`` runs it per command on an empty cache and
writes the plans the packages ship.
"""

from __future__ import annotations

import importlib
import pickle
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tabletop_mc.atomic import write_bytes_atomic
from tabletop_mc.warmup import FORMAT

HELPER_START_S = 0.5   # a helper's start (Python, numba, the kernel modules: 0.3-0.4 s measured), counted
                       # from the command's first compile (``warmup.begin`` runs before the command's
                       # module is imported, so part of the start overlaps that import)
HELPER_SLOWER = 1.15   # its compiles' cost against the recording's (numba's first compile in a process
                       # sets up its target; leaves the command had compiled before)


@dataclass(frozen=True)
class Compile:
    """One compile of a recording: ``module.qualname`` for argument types ``args`` (a pickle),
    ``depth`` compiles deep inside others, from ``start`` to ``end`` seconds after the command began;
    ``calls``: the kernels its code calls, (module, qualname) each (compiled before it or inside it)."""
    module: str
    qualname: str
    args: bytes | None
    depth: int
    start: float
    end: float
    calls: tuple = ()

    @property
    def key(self) -> tuple[str, str]:
        return self.module, self.qualname

    @property
    def took(self) -> float:
        return self.end - self.start

    @property
    def addressable(self) -> bool:
        """Can a helper name it (a module-level kernel, not one of numba's own overloads or
        helpers)?"""
        return (self.args is not None and "<locals>" not in self.qualname
                and self.module.split(".")[0] != "numba")


def record(command, argv: list[str]) -> list[Compile]:
    """Run the click command ``command`` with ``argv`` in this process and return its compiles, in
    the order they ended (children before the kernel that called them)."""
    from numba.core import event

    done: list[tuple] = []
    stack: list[float] = []
    origin = time.perf_counter()

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append(time.perf_counter() - origin)

        def on_end(self, ev):
            start = stack.pop()
            done.append((ev.data["dispatcher"], tuple(ev.data["args"]), len(stack), start,
                         time.perf_counter() - origin))

    with event.install_listener("numba:compile", Listener()):
        try:
            command.main(argv, standalone_mode=False)
        except SystemExit:
            pass
    out = []
    for disp, args, depth, start, end in done:
        func = disp.py_func
        try:
            blob = pickle.dumps(args)
        except Exception:
            blob = None
        out.append(Compile(func.__module__, func.__qualname__, blob, depth, start, end, callees(disp, args)))
    return out


def callees(disp, args) -> tuple:
    """The kernels (module, qualname) the code ``disp`` compiled for ``args`` calls: the numba
    dispatchers among its typed variables (those inlined into it included)."""
    from numba.core import types
    cres = getattr(disp, "overloads", {}).get(args)
    annotation = getattr(cres, "type_annotation", None)
    if annotation is None:
        return ()
    found = {(t.dispatcher.py_func.__module__, t.dispatcher.py_func.__qualname__)
             for t in annotation.typemap.values() if isinstance(t, types.Dispatcher)}
    return tuple(sorted(found))


def parents(compiles: list[Compile]) -> list[int]:
    """Index of the compile each one ran inside (-1 for those the command started itself): the
    first later compile one level less deep (compiles are listed as they end)."""
    out = []
    for i, c in enumerate(compiles):
        out.append(next((j for j in range(i + 1, len(compiles)) if compiles[j].depth == c.depth - 1), -1))
    return out


def first_compiles(compiles: list[Compile]) -> dict:
    """{(module, qualname): the index of its first compile in the recording}."""
    first: dict = {}
    for i, c in enumerate(compiles):
        first.setdefault(c.key, i)
    return first


def closure(compiles: list[Compile], first: dict, root: int) -> set:
    """The kernels (module, qualname) compile ``root`` needs: what it calls, what those call, and
    so on (through each kernel's first compile in the recording)."""
    seen = set()
    todo = [compiles[root].key]
    while todo:
        k = todo.pop()
        if k in seen or k not in first:
            continue
        seen.add(k)
        todo.extend(compiles[first[k]].calls)
    seen.discard(compiles[root].key)
    return seen


def plan_start(compiles: list[Compile], first: dict, root: int, mine: set, gains: list, helper: float,
               slower: float) -> tuple[float, list[int], list[int]]:
    """(when the helper can begin ``root``; the compiles it waits for first; those it compiles
    itself first). The kernels ``root`` needs that the command compiles before it, and that the
    helper has not compiled (``mine``), are each ready when the command has compiled them (its
    recorded end, moved up by the ``gains`` (start, seconds) of what the helper took before); the
    helper waits for those ready by some time and compiles the rest itself, at the best such time."""
    deps = [first[k] for k in closure(compiles, first, root)
            if compiles[first[k]].start < compiles[root].start and first[k] not in mine]
    ready = {j: compiles[j].end - sum(g for s0, g in gains if s0 < compiles[j].end) for j in deps}
    best = (float("inf"), [], [])
    for t in sorted({helper, *ready.values()}):
        own = [j for j in deps if ready[j] > t]
        begin = max(t, helper + slower * sum(compiles[j].took for j in own))
        if begin < best[0]:
            best = (begin, sorted(j for j in deps if helper < ready[j] <= t), own)
    return best


def subtree(compiles: list[Compile], up: list[int], root: int) -> list[tuple[str, str]]:
    """The functions (module, qualname) compiled inside compile ``root``, itself included."""
    inside = {root}
    for i in range(root - 1, -1, -1):   # children end before their parent
        if compiles[i].start < compiles[root].start:
            break
        if up[i] in inside:
            inside.add(i)
    return sorted({(compiles[i].module, compiles[i].qualname) for i in inside})


@dataclass(frozen=True)
class Choice:
    """A plan: the roots the helper compiles (indices into the recording, in the order the command
    reaches them); the command's compile time without and (predicted) with the helper."""
    taken: list[int]
    alone: float
    with_helper: float
    waits: list = ()   # per taken root, the compiles the helper waits for before it begins it


def frontier(compiles: list[Compile], up: list[int], cut: float, size: float) -> list[int]:
    """The subtrees a helper may take for a cut in time and a size: the largest ones below the
    kernels the command calls itself (depth 0) that start at or after ``cut`` and took at most
    ``size`` seconds (with ``size`` infinite: those whose caller started before the cut or is
    one of those kernels), in the order the command reaches them."""
    def fits(i):
        return compiles[i].start >= cut and compiles[i].took <= size and compiles[i].depth > 0
    roots = []
    for i in range(len(compiles)):
        if not fits(i):
            continue
        j = up[i]
        while j >= 0 and not fits(j):
            j = up[j]
        if j < 0:
            roots.append(i)
    return sorted(roots, key=lambda i: compiles[i].start)


def subtree_sizes(compiles: list[Compile], step: float = 0.5) -> tuple[float, ...]:
    """The sizes ``choose`` may try for ``compiles``: infinite (a cut in time alone), then every
    ``step`` seconds from the longest subtree's compile time down. A smaller size lets the helper
    take the parts of a long subtree the command reaches early (``scripts/make_compile_plans.py``
    times the plans with and without them and keeps the faster)."""
    longest = max((c.took for c in compiles if c.depth > 0), default=0.0)
    return (float("inf"), *(k * step for k in range(int(longest / step), 0, -1)))


def take(compiles: list[Compile], roots: list[int], first: dict, start_s: float, slower: float,
         deps: bool) -> Choice:
    """The helper's plan from candidate subtrees ``roots`` (``frontier``), each taken in turn if
    the helper, free by then, can begin it before the command reaches it and the command's wait
    for it is shorter than compiling it (``choose``)."""
    total = max(c.end for c in compiles)
    taken: list[int] = []
    waited: list[list[int]] = []
    mine: set[int] = set()
    gains: list[tuple[float, float]] = []   # (start, how much sooner the command gets past it)
    helper = start_s          # when the helper is free
    shift = 0.0               # how much sooner the command gets anywhere (skipped minus waited)
    for i in roots:
        c = compiles[i]
        need = c.start - shift
        if not c.addressable or helper > need:
            continue
        # what it calls outside its subtree and the command compiles before it: the helper waits
        # until the command has (and saved it in the cache), or compiles it itself, whichever
        # lets it begin sooner (``plan_start``); what the helper has already is its own
        begin, waits, own = (plan_start(compiles, first, i, mine, gains, helper, slower) if deps
                             else (helper, [], []))
        if begin > need:
            continue
        finish = begin + slower * c.took
        wait = max(0.0, finish - need)
        if wait >= c.took:
            continue
        taken.append(i)
        waited.append(waits)
        for r in [*own, i]:   # its subtree and what it compiled for it: the helper's now
            mine |= {j for j in range(r + 1) if compiles[j].start >= compiles[r].start}
        gains.append((c.start, c.took - wait))
        helper = finish
        shift += c.took - wait
    return Choice(taken, total, total - shift, waited)


def choose(compiles: list[Compile], start_s: float = HELPER_START_S, slower: float = HELPER_SLOWER,
           deps: bool = True, sizes=(float("inf"),)) -> Choice:
    """The subtrees a helper should compile (module docstring). A subtree is taken whole (its root:
    a compile that starts after the cut, the largest such that took at most a size; ``frontier``).
    The helper starts ``start_s`` after the command's first compile and compiles ``slower`` times
    slower than the recording, in the order the command reaches the roots; the command skips what
    the helper has taken, and where it reaches a root the helper is still compiling it waits for it
    (``warmup``), which is taken only if that wait is shorter than compiling it; a root the helper
    has not begun when the command reaches it is the command's (``take``). Every cut in time and
    every size in ``sizes`` is tried, and the plan that leaves the command the least is kept. With
    ``deps`` False the kernels a root calls outside its subtree are taken to be in the cache when
    the helper begins it (where they are not, the helper compiles them beside the command;
    ``scripts/make_compile_plans.py`` times both plans and keeps the faster)."""
    if not compiles:
        return Choice([], 0.0, 0.0)
    total = max(c.end for c in compiles)
    start_s += min(c.start for c in compiles)
    up = parents(compiles)
    first = first_compiles(compiles)
    best = Choice([], total, total)
    for size in sizes:
        for cut in sorted({c.start for c in compiles}):
            choice = take(compiles, frontier(compiles, up, cut, size), first, start_s, slower, deps)
            if choice.with_helper < best.with_helper:
                best = choice
    return best


def write_plan(path: str | Path, compiles: list[Compile], choice: Choice, meta: dict) -> None:
    """Write the plan file ``tabletop_mc.warmup`` reads: its format, ``meta`` (the command), the
    times, and per taken root its module, qualname, pickled argument types, the functions
    compiled inside it (those the command waits for while the helper compiles that root) and
    those it calls that the command compiles before it (those the helper waits for)."""
    up = parents(compiles)
    first = first_compiles(compiles)
    entries = []
    for i, waits in zip(choice.taken, choice.waits or [[] for _ in choice.taken]):
        entries.append((compiles[i].module, compiles[i].qualname, compiles[i].args, subtree(compiles, up, i),
                        sorted({compiles[j].key for j in waits})))
    plan = {"format": FORMAT, **meta, "compiles": len(compiles), "recorded_s": round(choice.alone, 2),
            "predicted_s": round(choice.with_helper, 2), "entries": entries}
    write_bytes_atomic(Path(path), pickle.dumps(plan, protocol=4))


if __name__ == "__main__":
    out, target, *argv = sys.argv[1:]
    module, func = target.split(":")
    from tabletop_mc import compileplan   # pickled as tabletop_mc.compileplan.Compile, not __main__'s
    compiles = compileplan.record(getattr(importlib.import_module(module), func), argv)
    write_bytes_atomic(Path(out), pickle.dumps(compiles))
