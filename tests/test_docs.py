"""The documentation's structure holds: a short README, links that resolve, and names in
ARCHITECTURE.md that exist in the code (the outputs themselves: ``scripts/check_readme.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", ROOT / "scripts" / "README.md",
         *sorted((ROOT / "docs").glob("*.md"))]


def test_the_readme_is_short_and_keeps_the_ci_commands():
    text = (ROOT / "README.md").read_text()
    assert len(text.split("\n")) <= 250
    ci = (ROOT / ".ci" / "run").read_text()
    for command in ('pip install -e ".[test]"', "pytest"):
        assert command in ci and f"\n{command}\n" in text, command


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_resolve(page):
    text = page.read_text()
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" in target:
            continue
        assert (page.parent / target).exists(), f"{page.name}: link to {target} resolves to nothing"


def test_every_docs_page_is_listed_and_checked():
    """docs/index.md lists every page, and check_readme.py reads every page."""
    import sys
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import check_readme
    finally:
        sys.path.pop(0)
    index = (ROOT / "docs" / "index.md").read_text()
    checked = set(check_readme.pages())
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert page in checked
        if page.name != "index.md":
            assert f"]({page.name})" in index, f"docs/index.md does not list {page.name}"


def test_rule_citations_point_to_a_section_of_the_rules_pages():
    """The code cites the rules as ``docs/rules-GAME.md section N`` (or ``sections N, M``); each
    page exists and has those sections, and no module cites a spec that is not in the repository."""
    cite = re.compile(r"docs/rules-(sponsio|circus)\.md,? sections? ([0-9](?:[0-9., -]*[0-9])?)")
    stale = re.compile(r"\b[Ss]pec(?:ification)? (?:sections? )?[0-9]|shared/rules/")
    found = 0
    for path in sorted([*ROOT.glob("*_sim/**/*.py"), *ROOT.glob("tabletop_mc/**/*.py"), *ROOT.glob("*_sim/**/*.toml"),
                        *ROOT.glob("tests/**/*.py")]):
        text = path.read_text()
        assert path.name == "test_docs.py" or not stale.search(text), f"{path.relative_to(ROOT)} cites a spec outside the repository"
        for game, numbers in cite.findall(text):
            page = (ROOT / "docs" / f"rules-{game}.md").read_text()
            for n in re.findall(r"[0-9]+", numbers.replace(".", " ")):
                if len(n) == 1:   # a section; "2.2" -> its section 2
                    assert f"\n## {n}. " in page, f"{path.relative_to(ROOT)}: rules-{game}.md has no section {n}"
            found += 1
    assert found >= 30


NAMED_IN = {  # page -> the folders its backticked paths are relative to
    "ARCHITECTURE.md": [ROOT],
    "docs/rules-sponsio.md": [ROOT, ROOT / "sponsio_sim"],
    "docs/rules-circus.md": [ROOT, ROOT / "caesar_sim"],
}
PATH_NAME = re.compile(r"([\w.-]+(?:/[\w.-]+)*/[\w.-]+\.(?:py|toml|md|json)|[\w.-]+(?:/[\w.-]+)+/)(?::(\w+))?")


def defines(text: str, name: str) -> bool:
    """Does a module's text define ``name`` (a function, a class, or a name assigned at any level)?"""
    return re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{name}\b|^\s*(?:\w+\s*,\s*)*{name}\s*(?:,\s*\w+\s*)*(?::[^=\n]*)?=",
                     text, re.M) is not None


@pytest.mark.parametrize("page", list(NAMED_IN))
def test_every_backticked_path_and_name_exists(page):
    """Each ``path`` and ``path:name`` in backticks names a file (or folder) that exists, and the
    name is defined in that file: the walks and recipes stay true as the code moves."""
    text = re.sub(r"^```.*?^```", "", (ROOT / page).read_text(), flags=re.S | re.M)
    checked = 0
    for token in re.findall(r"`([^`\n]+)`", text):
        m = PATH_NAME.fullmatch(token)
        if not m:
            continue
        path, name = m.groups()
        where = next((base / path for base in NAMED_IN[page] if (base / path).exists()), None)
        assert where is not None, f"{page}: `{token}`: no such file or folder"
        if name:
            assert defines(where.read_text(), name), f"{page}: `{token}`: {path} does not define {name}"
        checked += 1
    assert checked >= 10


def test_scripts_readme_names_every_script():
    listed = (ROOT / "scripts" / "README.md").read_text()
    for script in sorted((ROOT / "scripts").glob("*.py")):
        assert f"`{script.name}" in listed, f"scripts/README.md does not say what {script.name} does"
