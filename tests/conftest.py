"""Fixtures shared by the test folders, and the order the test files run in."""

import builtins
import re

import pytest

# The suite is bound by numba compiling, once per process, what a file's kernels need
# (pytest-xdist runs one file per worker; ``--no-loadscope-reorder`` keeps this order). So
# the longest file starts first, and the files that compile the same kernel family follow
# each other instead of two workers compiling it at once: the report (game, net, mc, sweeps,
# then grading) on one worker while the other compiles the double-dummy and trick-play
# family, then Circus's, then the shared plumbing; the Sponsio game files come last, when
# the report has compiled their kernels.
RUN_ORDER = (
    r"tests/reports/test_sponsio_report\.py",
    r"tests/sponsio/test_(dd|pimc|trick_|grading|odds|exhaustive|play_conformance|c_reference)",
    r"tests/(caesar/|reports/test_caesar)",
    r"tests/tabletop_mc/",
)


def run_rank(nodeid: str) -> int:
    """Where a test's file comes in ``RUN_ORDER`` (the rest after, in collection order)."""
    return next((i for i, pattern in enumerate(RUN_ORDER) if re.match(pattern, nodeid)), len(RUN_ORDER))


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: run_rank(item.nodeid))   # stable: each file keeps its own order


@pytest.fixture
def without_training_extra(monkeypatch):
    """Imports of jax and optax fail, as where the optional [train] extra is not installed."""
    real = builtins.__import__

    def no_jax(name, *args, **kw):
        if name.split(".")[0] in ("jax", "optax"):
            raise ImportError(name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_jax)
