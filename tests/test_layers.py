"""The package layers, read from the source: no import cycles between modules
(late imports inside functions included), and no import points up the
layers (kernels -> analysis -> cli; the package's data modules, such as the
rules and the bet catalogue, sit beside the kernels and use their layout
constants)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tabletop_mc", "sponsio_sim", "caesar_sim")
# a module may import modules of its own layer or a lower one only
LAYER = {"cli": 3, "__main__": 3, "analysis": 2, "kernels": 1}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (anywhere in its source)."""
    modules = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    edges = {}
    for name, path in modules.items():
        out = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            out |= {t for t in targets if t in modules and t != name}
        edges[name] = out
    return edges


def layer(module: str) -> int:
    parts = module.split(".")
    return max((LAYER[p] for p in parts[1:] if p in LAYER), default=1)   # data modules: beside the kernels


def find_cycle(edges: dict[str, set[str]]):
    state, stack = {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(edges.get(m, ())):
            if state.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in state:
                found = visit(t)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_no_import_cycles():
    """No cycle, a package's ``__init__`` included (the CLI packages register their light commands
    at once: those import the root command from ``cli.root``, not the package back)."""
    cycle = find_cycle(graph())
    assert cycle is None, " -> ".join(cycle)


@pytest.mark.parametrize("pkg", ["sponsio_sim", "caesar_sim"])
def test_imports_point_down_the_layers(pkg):
    bad = [f"{m} imports {t}" for m, ts in graph().items() if m.startswith(pkg + ".")
           for t in ts if t.startswith(pkg + ".") and layer(t) > layer(m)]
    assert not bad, "; ".join(bad)


def test_shared_plumbing_imports_no_game():
    bad = [f"{m} imports {t}" for m, ts in graph().items() if m.startswith("tabletop_mc")
           for t in ts if t.split(".")[0] in ("sponsio_sim", "caesar_sim")]
    assert not bad, "; ".join(bad)


def test_the_checker_sees_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
