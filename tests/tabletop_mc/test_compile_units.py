"""Each span kernel's per-chunk body compiles into the span (ARCHITECTURE.md, "One library per entry
point"): a plain jitted function whose one jitted caller is a ``*_span`` kernel is ``inline="always"``,
so it does not cost a whole engine's code generation of its own on a first run. Read from the source;
``no_refcount`` bodies are exempt (compiled into a reference-counted span they would count references)."""

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
