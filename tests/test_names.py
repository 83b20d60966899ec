"""One name, one meaning, read from the source of the three packages and the scripts.

- "table" is the table a player sits at: the `sponsio table` session
  (``sponsio_sim/cli/table.py``) is the only module named ``table.py`` or
  ``tables.py``, and no package class is named plain ``Table``;
- ``Query`` is the odds query a user asks (``sponsio_sim/analysis/odds/query.py``),
  defined once (the kernels' arrays for it are ``contexts.QueryArrays``);
- ``play_game`` is the kernel that plays one game: defined only under a
  ``kernels/`` folder, once per game package (the narrated game is
  ``narrate.narrate_game``);
- "search" is the DD alpha-beta: the only module named ``search.py`` is
  ``sponsio_sim/kernels/dd/search.py`` (the advice ranking is
  ``analysis/advise/ranking.py``);
- "plays" are multiplay's plays: the only module named ``plays.py`` is
  ``sponsio_sim/analysis/balance/plays.py`` (the trick phase's text entries
  are ``analysis/advise/trickentries.py``).

A new module or definition that takes one of these names for another thing
fails here: give it a name of its own.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("tabletop_mc", "sponsio_sim", "caesar_sim", "scripts")


def sources() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


def named(*basenames: str) -> list[str]:
    """The source files whose file name is one of ``basenames``, relative to the root."""
    return [p.relative_to(ROOT).as_posix() for p in sources() if p.name in basenames]


def definitions(name: str) -> list[str]:
    """Where ``name`` is defined at module level or in a class: a class, a function, or an assignment."""
    found = []
    for path in sources():
        tree = ast.parse(path.read_text(), filename=str(path))
        bodies = [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
        for body in bodies:
            for node in body:
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    hit = node.name == name
                elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    hit = any(isinstance(t, ast.Name) and t.id == name for t in targets)
                else:
                    continue
                if hit:
                    found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}")
    return found


def test_table_is_the_table_session_only():
    assert named("table.py", "tables.py") == ["sponsio_sim/cli/table.py"]
    assert [d for d in definitions("Table") if not d.startswith("scripts/bench_table.py:")] == []


def test_query_is_defined_once():
    assert [d.split(":")[0] for d in definitions("Query")] == ["sponsio_sim/analysis/odds/query.py"]


def test_play_game_is_a_kernel_once_per_game():
    where = [d.split(":")[0] for d in definitions("play_game")]
    assert all("/kernels/" in w for w in where), where
    packages = [w.split("/")[0] for w in where]
    assert len(packages) == len(set(packages)), where


def test_search_and_plays_modules_have_one_meaning():
    assert named("search.py") == ["sponsio_sim/kernels/dd/search.py"]
    assert named("plays.py") == ["sponsio_sim/analysis/balance/plays.py"]


def test_the_checks_see_a_second_meaning(tmp_path, monkeypatch):
    """A module that brings back a second ``table.py`` and a second ``play_game`` is caught."""
    import test_names as me

    pkg = tmp_path / "sponsio_sim" / "analysis"
    pkg.mkdir(parents=True)
    (pkg / "table.py").write_text("def play_game():\n    pass\n\n\nclass Query:\n    pass\n")
    monkeypatch.setattr(me, "ROOT", tmp_path)
    assert me.named("table.py", "tables.py") == ["sponsio_sim/analysis/table.py"]
    assert me.definitions("play_game") == ["sponsio_sim/analysis/table.py:1"]
    assert me.definitions("Query") == ["sponsio_sim/analysis/table.py:5"]
