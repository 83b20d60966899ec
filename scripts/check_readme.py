#!/usr/bin/env python
"""Run every ``$ command`` example of README.md and check that the output it
shows is what the command prints today.

    python scripts/check_readme.py              # report the examples that moved
    python scripts/check_readme.py --update     # rewrite their shown lines from today's output
    python scripts/check_readme.py --only caesar

A shown block may elide lines with ``...``: the lines before the first
``...`` must open the output, and each later run of lines must appear in
order, starting at a line whose first word matches. ``--update`` keeps the
block's shape (the same number of lines per run) and refills it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--only", default=None, help="only commands starting with this word (sponsio, caesar)")
    args = ap.parse_args()
    text = README.read_text(encoding="utf-8")
    lines = text.split("\n")
    moved = 0
    for start, end, cmd, shown in reversed(examples(text)):
        if args.only and not cmd.startswith(args.only):
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
        if args.update:
            lines[start:end] = new
    if args.update:
        README.write_text("\n".join(lines), encoding="utf-8")
    print(f"{moved} example(s) moved" + (" and were updated" if args.update and moved else ""))
    sys.exit(1 if moved and not args.update else 0)


if __name__ == "__main__":
    main()
