"""The C version of the random-play odds loop (scripts/c_odds.py, the benchmark's reference)
counts what the numba kernel counts, on the same deals; skipped where no C compiler is found."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import c_odds  # noqa: E402


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    try:
        return c_odds.build(str(tmp_path_factory.mktemp("c-odds")))
    except c_odds.NoCompiler as e:
        pytest.skip(f"no C build: {e}")


@pytest.mark.parametrize("case", [
    ("R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7", "tricks=2", None),
    # unknown talon, every kind held, fail bets of seats 0 and 1 on each other (a cycle to break)
    ("R9 R7 R2 B8 B5 G6 G1 Y3", None, "tricks=2,colour:R=2,last,nines,fail:1", "1:fail:0,tricks=3; 2:fail:3"),
])
def test_c_loop_counts_what_the_kernel_counts(lib, case):
    assert c_odds.compare(c_odds.random_args(*case), seed=3, chunks=3, rounds=200, lib=lib)
