#!/usr/bin/env python
"""Count the functions with long signatures in the packages.

    python scripts/count_params.py              # counts: >= 10 and >= 15 parameters, overall and outside click
    python scripts/count_params.py --list 10    # every function with 10 or more, longest first

A parameter is any named one (positional, keyword-only, ``*args``,
``**kwargs``); ``self`` and ``cls`` count too. A click command is a function
decorated with ``@...command``, ``@...option`` or ``@...argument`` (its
parameters are the command's options, one per flag). Reads
``sponsio_sim``, ``caesar_sim`` and ``tabletop_mc`` with ``ast``, so nothing
is imported or compiled.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sponsio_sim", "caesar_sim", "tabletop_mc")
CLICK = ("command", "option", "argument", "group", "pass_context")


def n_params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    a = fn.args
    return (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None)
            + (a.kwarg is not None))


def is_click(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated as a click command (``@x.command(...)``, ``@click.option(...)``, ``@pass_context`` ...)."""
    for dec in fn.decorator_list:
        node = dec.func if isinstance(dec, ast.Call) else dec
        name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
        if name in CLICK or name.endswith("_options") or name.endswith("_option"):
            return True
    return False


def functions(root: Path = ROOT):
    """(path, line, name, parameters, click) for every function of the packages."""
    for pkg in PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield path.relative_to(root), node.lineno, node.name, n_params(node), is_click(node)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", type=int, metavar="N", help="list every function with N or more parameters")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to read (default: this one)")
    opts = ap.parse_args()
    rows = list(functions(opts.root))
    if opts.list is not None:
        for path, line, name, n, click in sorted(rows, key=lambda r: (-r[3], str(r[0]), r[1])):
            if n >= opts.list:
                print(f"{n:3d}  {path}:{line}  {name}{'  (click)' if click else ''}")
        return
    print(f"functions: {len(rows)} ({sum(r[4] for r in rows)} click commands)")
    for at_least in (10, 15):
        every = sum(r[3] >= at_least for r in rows)
        plain = sum(r[3] >= at_least and not r[4] for r in rows)
        print(f">= {at_least} parameters: {every} overall, {plain} outside click commands")


if __name__ == "__main__":
    main()
