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


# Each game's vocabulary: the codes and flat-vector layouts its kernels and analysis share, one module at
# the bottom of its kernels
VOCABULARY = {"sponsio_sim": "sponsio_sim.kernels.layout", "caesar_sim": "caesar_sim.kernels.layout"}


def kernel_folder(module: str, pkg: str):
    """The kernels subfolder a module of ``pkg`` sits in ("" at the kernels' root), None outside the kernels."""
    parts = module.split(".")
    if parts[0] != pkg or len(parts) < 3 or parts[1] != "kernels":
        return None
    return parts[2] if len(parts) > 3 else ""


def folder_graph(edges: dict[str, set[str]], pkg: str) -> dict[str, set[str]]:
    """Kernels subfolder -> the other subfolders its modules import (the root, "", excluded)."""
    out: dict[str, set[str]] = {}
    for m, ts in edges.items():
        a = kernel_folder(m, pkg)
        if not a:
            continue
        out.setdefault(a, set()).update(b for t in ts if (b := kernel_folder(t, pkg)) and b != a)
    return out


# (upper, lower): kernels subfolders of a game where the upper one builds on the lower, never the reverse
ONE_WAY = {
    # whole games on a round's betting, its end and the searches' rollouts
    "sponsio_sim": [("game", "betting")],
    # whole games on a day's bidding: its rules and every policy
    "caesar_sim": [("game", "play")],
}


def one_way_breaks(edges: dict[str, set[str]], pkg: str, upper: str, lower: str) -> list[str]:
    """The imports of ``kernels/<upper>`` from ``kernels/<lower>`` (the wrong way)."""
    return [f"{m} imports {t}" for m, ts in edges.items() if kernel_folder(m, pkg) == lower
            for t in ts if kernel_folder(t, pkg) == upper]


@pytest.mark.parametrize("pkg,upper,lower", [(p, u, lo) for p, pairs in ONE_WAY.items() for u, lo in pairs])
def test_game_kernels_sit_on_the_kernels_below(pkg, upper, lower):
    """``kernels/game`` (whole games) builds on the folder of a round's or a day's play (its
    modules import it), never the reverse."""
    edges = graph()
    assert lower in folder_graph(edges, pkg).get(upper, set()), f"{pkg}: kernels/{upper} imports no kernels/{lower}"
    bad = one_way_breaks(edges, pkg, upper, lower)
    assert not bad, "; ".join(bad)


@pytest.mark.parametrize("pkg", ["sponsio_sim", "caesar_sim"])
def test_kernel_folders_do_not_import_each_other(pkg):
    """No two kernels subfolders import each other, directly or round a longer loop."""
    cycle = find_cycle(folder_graph(graph(), pkg))
    assert cycle is None, " -> ".join(cycle)


@pytest.mark.parametrize("pkg", ["sponsio_sim", "caesar_sim"])
def test_the_vocabulary_imports_nothing_above_it(pkg):
    """The vocabulary, and all it imports, stays at the bottom: the kernels' root modules, the
    rules and registries beside them, and tabletop_mc; no kernels subfolder, analysis or cli."""
    edges, vocab = graph(), VOCABULARY[pkg]
    assert vocab in edges and kernel_folder(vocab, pkg) == "", f"{vocab}: not a module at the kernels' root"
    seen, todo = set(), [vocab]
    while todo:
        for t in edges[todo.pop()] - seen:
            seen.add(t)
            todo.append(t)
    bad = sorted(t for t in seen if kernel_folder(t, pkg) or layer(t) > 1)
    assert not bad, f"{vocab} reaches " + ", ".join(bad)


# a learned policy's input encoding sits with its encoder (its VERSION changes with the encoding)
NET_ENCODINGS = {"sponsio_sim": "sponsio_sim.kernels.betting.netlayout", "caesar_sim": "caesar_sim.kernels.play.encode"}


def layouts_declared(path: Path) -> list[str]:
    """The module-level names a file binds to a ``tabletop_mc.records.layout(...)`` call."""
    out = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "layout":
            out += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return out


@pytest.mark.parametrize("pkg", ["sponsio_sim", "caesar_sim"])
def test_kernel_layouts_are_declared_in_the_vocabulary(pkg):
    """Every flat vector's layout in a game's kernels is declared in its vocabulary (the net's input
    encoding beside its encoder), so the analysis layer reads every layout from one module."""
    allowed = {VOCABULARY[pkg], NET_ENCODINGS[pkg]}
    bad = [f"{module_name(p)}: {', '.join(names)}" for p in sorted((ROOT / pkg / "kernels").rglob("*.py"))
           if module_name(p) not in allowed and (names := layouts_declared(p))]
    assert not bad, "; ".join(bad)
    assert layouts_declared(ROOT / (VOCABULARY[pkg].replace(".", "/") + ".py"))


def test_the_folder_checks_see_a_mutual_import():
    edges = {"p.kernels.game.engine": {"p.kernels.betting.phase"}, "p.kernels.betting.rollout": {"p.kernels.game.x"},
             "p.kernels.layout": set(), "p.kernels.game.x": {"p.kernels.layout"}}
    assert folder_graph(edges, "p") == {"game": {"betting"}, "betting": {"game"}}
    assert find_cycle(folder_graph(edges, "p")) == ["betting", "game", "betting"]
    assert kernel_folder("p.kernels.layout", "p") == "" and kernel_folder("p.analysis.x", "p") is None
    assert one_way_breaks(edges, "p", "game", "betting") == ["p.kernels.betting.rollout imports p.kernels.game.x"]
    assert one_way_breaks({"p.kernels.game.engine": {"p.kernels.betting.phase"}}, "p", "game", "betting") == []


def test_the_layout_check_sees_a_declaration(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("from tabletop_mc.records import layout\nX = 1\nBOARD = layout(int, ((\"a\", ()),))\n")
    assert layouts_declared(path) == ["BOARD"]
