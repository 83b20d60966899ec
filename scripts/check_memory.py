#!/usr/bin/env python
"""Run tests under valgrind's memcheck and report bad memory accesses by the compiled kernels.

numba's kernels are not bounds-checked, and a pointer (``tabletop_mc.pointers``) keeps nothing
alive, so a kernel can read or write freed memory or past an array without failing: the
number comes out right until another thread reuses that memory, then a crash far from the
cause. memcheck sees every such access. This script

1. compiles the selected tests' kernels natively into a private cache for a generic x86-64
   target (under valgrind the CPU reads differently, so the user's cache would miss and the
   compile itself would run under valgrind, many times slower), then
2. runs the same tests under memcheck (``PYTHONMALLOC=malloc``, so Python's own small-object
   allocator does not hide blocks), and
3. counts memcheck's errors whose innermost frame is compiled kernel code (no symbol and no
   library: ``???``; a library without symbols shows as ``??? (in lib.so)``);
   the interpreter's and libraries' own reports (``dlopen``, ``wmemcmp`` reading ahead) are
   listed apart and do not fail the check.

    python scripts/check_memory.py                      # the Circus game and field tests, ~10 min
    python scripts/check_memory.py tests/caesar -x      # any pytest arguments

Exit 1 if a kernel made a bad access (the log's path is printed) or a test failed, 2 if valgrind
is missing. valgrind runs one thread at a time, so a test of how threads share work fails
under it (``tests/plumbing/test_workshare.py``'s slow-item test) without any bad access.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["tests/caesar/test_fieldplay.py", "tests/caesar/test_caesar_net.py", "tests/caesar/test_games.py"]
ERROR = re.compile(r"^==\d+== (Invalid (?:read|write|free).*|Conditional jump.*|Use of uninitialised.*|Mismatched.*)$")
FRAME = re.compile(r"^==\d+==\s+(?:at|by) 0x[0-9A-F]+: (.*)$")


def kernel_errors(log: Path) -> tuple[Counter, Counter]:
    """(errors whose innermost frame is compiled code, the others), counted by their first line."""
    kernel, other = Counter(), Counter()
    lines = log.read_text(errors="replace").splitlines()
    for i, line in enumerate(lines):
        m = ERROR.match(line)
        if not m:
            continue
        frame = next((f.group(1) for f in map(FRAME.match, lines[i + 1:i + 4]) if f), "")
        (kernel if frame.strip() == "???" else other)[f"{m.group(1)} at {frame[:80]}"] += 1
    return kernel, other


def main(argv: list[str]) -> int:
    if shutil.which("valgrind") is None:
        print("error: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    args = argv or DEFAULT
    work = Path(tempfile.mkdtemp(prefix="check-memory-"))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(work / "kernels"), NUMBA_CPU_NAME="x86-64", NUMBA_CPU_FEATURES="")
    pytest = [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-q", *args]
    print("compiling natively:", " ".join(args), flush=True)
    if subprocess.run(pytest, cwd=ROOT, env=env).returncode != 0:
        print("error: the tests fail natively; fix that first", file=sys.stderr)
        return 1
    log = work / "memcheck.txt"
    print("under memcheck (about 5x the tests' own time, plus a minute per interpreter)", flush=True)
    run = subprocess.run(["valgrind", "--tool=memcheck", "--error-limit=no", "--num-callers=30",
                          f"--log-file={log}", *pytest], cwd=ROOT, env=dict(env, PYTHONMALLOC="malloc"))
    shutil.rmtree(work / "kernels", ignore_errors=True)   # tens of MB; the log stays
    kernel, other = kernel_errors(log)
    for what, n in other.most_common():
        print(f"  (not a kernel's) {n:6d}  {what}")
    for what, n in kernel.most_common():
        print(f"  KERNEL          {n:6d}  {what}")
    print(f"{sum(kernel.values())} bad access(es) by compiled kernels; tests exit {run.returncode}; log: {log}")
    return 1 if kernel or run.returncode else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     usage="%(prog)s [pytest arguments]")
    _, pytest_args = parser.parse_known_args()
    sys.exit(main(pytest_args))
