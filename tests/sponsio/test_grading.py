"""Grading tables: rates with Wilson intervals per policy and the paired checks
(hand-made outcomes; the kernel runs in scripts/grade_goal.py)."""

import numpy as np
import pandas as pd

from tabletop_mc.stats import wilson
from sponsio_sim.analysis.odds.grading import POLICIES, checks, rates


def hands():
    rows = [  # kind, random, goal, pimc, worst, best
        ("colour", 0, 1, 1, 0, 1),
        ("colour", 1, 1, 0, 1, 1),
        ("colour", 0, 0, 1, 0, 1),
        ("tricks", 0, 1, 0, 0, 1),
        ("tricks", 1, 0, 0, 0, 0),  # random won where the best case fails: a solver or play bug
    ]
    df = pd.DataFrame(rows, columns=["kind"] + [p for p, _ in POLICIES])
    df["bet"] = df["kind"]
    return df


def test_rates_are_wilson_intervals_per_policy_and_kind():
    df = hands()
    table = rates(df).set_index("policy")
    assert list(table.index) == [p for p, _ in POLICIES]
    p, lo, hi = wilson(np.array([3]), np.array([5]))
    assert table.loc["goal", "wins"] == 3 and table.loc["goal", "n"] == 5
    assert np.isclose(table.loc["goal", "ci_low"], lo[0]) and np.isclose(table.loc["goal", "ci_high"], hi[0])
    by = rates(df, by="kind").set_index(["kind", "policy"])
    assert by.loc[("tricks", "dd best"), "wins"] == 1 and by.loc[("tricks", "dd best"), "n"] == 2
    assert by.loc[("colour", "pimc"), "p"] == 2 / 3


def test_checks_count_impossible_wins_and_paired_outcomes():
    info = checks(hands())
    assert info["wins where the best case fails (must be 0)"] == {"random": 1, "goal": 0, "pimc": 0}
    assert info["makeable hands"] == 1
    assert info["goal loses a makeable bet"] == 0 and info["pimc loses a makeable bet"] == 1
    assert info["pimc wins, goal loses"] == 1 and info["goal wins, pimc loses"] == 2
    assert info["goal within [worst, best] rates"]
