#!/usr/bin/env python
"""Where a running command spends its time, per numba kernel (Linux perf + gdb).

perf samples the process; numba's compiled code has no symbols perf can
read, but LLVM registers it with gdb's JIT interface, so gdb names each
sampled address. The table sums the samples per function (kernels by their
Python name, NRT_incref/NRT_decref for numba's reference counting, shared
libraries by file).

    python scripts/perf_kernels.py -- sponsio tournament -n 200000 --profile "ev:goal x4" --threads 1
    python scripts/perf_kernels.py --warmup 8 --seconds 10 -- sponsio odds --hand "..." -n 5000000

The command should run longer than ``--warmup`` + ``--seconds`` (the warm-up
leaves out imports and the loading of compiled kernels); it is stopped after
the sample. Needs ``perf`` and ``gdb`` (Debian: linux-perf, gdb).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def sample(pid: int, seconds: float, out: str) -> dict[str, float]:
    """{symbol or address: share of samples} of process ``pid``."""
    subprocess.run(["perf", "record", "-q", "-F", "2000", "-p", str(pid), "-o", out, "--", "sleep", str(seconds)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rep = subprocess.run(["perf", "report", "-i", out, "--no-children", "--sort", "dso,sym", "--stdio"],
                         capture_output=True, text=True, check=True).stdout
    shares = {}
    for line in rep.splitlines():
        m = re.match(r"\s+([\d.]+)%\s+(\S+.*?)\s+\[\.\]\s+(\S+)", line)
        if m:
            dso, sym = m.group(2).strip(), m.group(3)
            key = sym if sym.startswith("0x") and dso.startswith("[JIT]") else f"{sym} ({dso})"
            shares[key] = shares.get(key, 0.0) + float(m.group(1))
    return shares


def jit_names(pid: int, addresses: list[str]) -> dict[str, str]:
    """The function gdb names at each address (numba kernels by Python name)."""
    with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as f:
        f.write("".join(f"echo @{a}\\n\ninfo symbol {a}\n" for a in addresses))
    out = subprocess.run(["gdb", "-batch", "-p", str(pid), "-x", f.name], capture_output=True, text=True).stdout
    os.unlink(f.name)
    names, current = {}, None
    for line in out.splitlines():
        if line.startswith("@0x"):
            current = line[1:]
        elif current and " in section " in line:
            name = line.split(" in section ")[0]
            name = re.sub(r"\+ \d+$", "", name).strip()
            name = re.sub(r"\[abi:[^\]]*\]", "", name).split("(")[0]
            names[current] = name.replace("::", ".")
            current = None
    return names


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before sampling (imports, kernel loading)")
    ap.add_argument("--seconds", type=float, default=8.0, help="seconds sampled")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    cmd = opts.command[1:] if opts.command[:1] == ["--"] else opts.command
    if not cmd:
        ap.error("give the command to profile after --")
    for tool in ("perf", "gdb"):
        if shutil.which(tool) is None:
            sys.exit(f"perf_kernels: '{tool}' not found (Debian: apt-get install linux-perf gdb)")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(opts.warmup)
        if proc.poll() is not None:
            sys.exit(f"perf_kernels: the command ended within the {opts.warmup:g} s warm-up; give it more work")
        with tempfile.TemporaryDirectory() as tmp:
            shares = sample(proc.pid, opts.seconds, os.path.join(tmp, "perf.data"))
        names = jit_names(proc.pid, [k for k in shares if k.startswith("0x")])
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    total = collections.Counter()
    for key, share in shares.items():
        total[names.get(key, key)] += share
    print(f"{'share':>7}  function ({opts.seconds:g} s sampled after {opts.warmup:g} s)")
    for name, share in total.most_common(opts.top):
        print(f"{share:6.1f}%  {name}")


if __name__ == "__main__":
    main()
