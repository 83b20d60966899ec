#!/usr/bin/env python
"""Run every ``$ command`` example of README.md and docs/*.md and check that the
output each shows is what the command prints today.

    python scripts/check_readme.py              # report the examples that moved
    python scripts/check_readme.py --update     # rewrite their shown lines from today's output
    python scripts/check_readme.py --only caesar
    python scripts/check_readme.py --page docs/sponsio-odds.md --page README.md

Commands run in /tmp (files they write, such as ``--plot matrix.png``, land
there) with ``COLUMNS=200``.

A shown block may elide lines with ``...``: the lines before the first
``...`` must open the output, and each later run of lines must appear in
order, starting at a line whose first word matches. ``--update`` keeps the
block's shape (the same number of lines per run) and refills it.

A blockquote after a line ``<!-- quoted from PATH -->`` (PATH an HTML page
under the repository, such as a committed report) quotes that page: each
quoted paragraph must appear in the page's text (tags stripped, white space
folded). The pages are built by long runs, so such a quote is checked, never
rewritten: one that moved is reported, to be copied again by hand.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def pages() -> list[Path]:
    """README.md, then every page of docs/, in name order."""
    return [README] + sorted((ROOT / "docs").glob("*.md"))


def examples(text: str):
    """(start line, end line, command, shown runs) for each ``$`` example in a fenced block."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("$ "):
            cmd = lines[i][2:]
            j = i
            while cmd.endswith("\\"):
                j += 1
                cmd = cmd[:-1] + lines[j].strip()
            k = j + 1
            while k < len(lines) and not lines[k].startswith("```") and not lines[k].startswith("$ "):
                k += 1
            out.append((j + 1, k, cmd, lines[j + 1:k]))
            i = k
        else:
            i += 1
    return out


def runs_of(shown):
    runs, cur = [], []
    for line in shown:
        if line.strip() == "...":
            runs.append(cur)
            cur = []
        else:
            cur.append(line)
    runs.append(cur)
    return runs


def refill(shown, actual):
    """The shown block with each run taken from ``actual`` (None where a run cannot be placed)."""
    runs = runs_of(shown)
    new, at = [], 0
    for r, run in enumerate(runs):
        if r > 0:
            new.append("...")
        if not run:
            continue
        if r == 0:
            start = 0
        else:
            key = run[0].split()[0] if run[0].split() else run[0]
            start = next((k for k in range(at, len(actual)) if actual[k].split()[:1] == [key]), None)
            if start is None:
                return None
        new += actual[start:start + len(run)]
        at = start + len(run)
    return new


def page_text(path: Path) -> str:
    """An HTML page's text: scripts and styles dropped, tags stripped, entities read, white space folded."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", path.read_text(encoding="utf-8"), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def quotes(text: str):
    """(line, quoted path, paragraphs) for each blockquote after a ``<!-- quoted from PATH -->`` line."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        m = re.fullmatch(r"<!-- quoted from (\S+) -->", line.strip())
        if not m:
            continue
        paras, cur, k = [], [], i + 1
        while k < len(lines) and lines[k].startswith(">"):
            body = lines[k][1:].strip()
            if body:
                cur.append(body)
            elif cur:
                paras.append(" ".join(cur))
                cur = []
            k += 1
        if cur:
            paras.append(" ".join(cur))
        out.append((i + 1, m.group(1), paras))
    return out


def check_quotes(path: Path, text: str) -> int:
    """How many quotes of ``path`` no longer match the page they quote (each reported)."""
    moved = 0
    for line, quoted, paras in quotes(text):
        source = ROOT / quoted
        found = page_text(source) if source.is_file() else ""
        # the page's text folds the tags' white space: compare without the spaces around punctuation
        squash = lambda t: re.sub(r"\s+([.,;:)\]])", r"\1", re.sub(r"([(\[])\s+", r"\1", " ".join(t.split())))
        missing = [p for p in paras if squash(p.replace("`", "")) not in squash(found)]
        name = f"{path.relative_to(ROOT)}:{line} quotes {quoted}"
        if not paras or missing:
            moved += 1
            print(f"MOVED  {name}")
            for p in missing or ["(an empty quote)"]:
                print(f"  not in the page: {p[:100]}")
        else:
            print(f"ok     {name}")
    return moved


def check_page(path: Path, only: str | None, update: bool) -> int:
    """Rerun the examples of one page; returns how many moved (and rewrites them with ``update``)."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    moved = 0
    for start, end, cmd, shown in reversed(examples(text)):
        if only and not cmd.startswith(only):
            continue
        env = dict(os.environ, COLUMNS="200")
        res = subprocess.run(cmd, shell=True, capture_output=True, text=True, cwd="/tmp", env=env)
        actual = (res.stdout + (res.stderr if res.returncode else "")).rstrip("\n").split("\n")
        new = refill(shown, actual)
        if new == shown:
            print(f"ok     {cmd[:100]}")
            continue
        moved += 1
        print(f"MOVED  {cmd[:100]}")
        if new is None:
            print("  (a run of shown lines has no place in today's output; update it by hand)")
            continue
        if update:
            lines[start:end] = new
    if update and moved:
        path.write_text("\n".join(lines), encoding="utf-8")
    return moved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--only", default=None, help="only commands starting with this word (sponsio, caesar)")
    ap.add_argument("--page", action="append", default=None,
                    help="only this page (README.md, docs/NAME.md; repeatable); default: every page")
    args = ap.parse_args()
    chosen = [ROOT / p for p in args.page] if args.page else pages()
    for path in chosen:
        if not path.is_file():
            print(f"error: --page {path.relative_to(ROOT)}: no such page", file=sys.stderr)
            sys.exit(2)
    moved = quoted = 0
    for path in chosen:
        print(f"== {path.relative_to(ROOT)}")
        text = path.read_text(encoding="utf-8")
        moved += check_page(path, args.only, args.update)
        if not args.only:
            quoted += check_quotes(path, text)
    print(f"{moved} example(s) moved" + (" and were updated" if args.update and moved else "")
          + (f"; {quoted} quote(s) no longer match their page (copy them again by hand)" if quoted else ""))
    sys.exit(1 if quoted or (moved and not args.update) else 0)


if __name__ == "__main__":
    main()
