"""The kernels' source as the source-reading tests see it: each module's top-level functions with
their decorators and the calls they make, resolved through the module's own ``from ... import``s."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def functions(dirs):
    """(module, function node, decorator texts, {(module, name) it calls}) of every top-level function
    of every ``.py`` file under ``dirs`` (paths from the repository root)."""
    for d in dirs:
        for path in sorted((ROOT / d).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            tree = ast.parse(path.read_text())
            names = {}
            for node in tree.body:
                if isinstance(node, ast.ImportFrom) and node.module:
                    names |= {a.asname or a.name: (node.module, a.name) for a in node.names}
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    calls = {names.get(n.func.id, (module, n.func.id)) for n in ast.walk(node)
                             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
                    yield module, node, [ast.unparse(x) for x in node.decorator_list], calls, names
