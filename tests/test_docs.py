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
