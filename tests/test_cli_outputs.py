"""Outputs scripts can trust: strict JSON with meta,
floats at the estimate's precision, honest rows and headers."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
from click.testing import CliRunner

from caesar_sim.cli import main as caesar
from tabletop_mc.output import records, render, round_estimates
from sponsio_sim.cli import main as sponsio

HAND = "R9 R7 R2 B8 B5 G6 G1 Y3"
TALON = "R1 B9 G4 Y7"


def strict(text: str):
    def refuse(name):
        raise AssertionError(f"non-standard JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


def floats(node):
    if isinstance(node, float):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from floats(v)
    elif isinstance(node, list):
        for v in node:
            yield from floats(v)


def significant(v: float) -> int:
    digits = f"{abs(v):.15g}".replace(".", "").lstrip("0").rstrip("0")
    return max(len(digits), 1)


def test_default_odds_json_is_strict_with_meta_and_no_fail_rows():
    res = CliRunner().invoke(sponsio, ["odds", "--hand", HAND, "--talon", TALON, "-n", "600", "--format", "json",
                                       "--set", "multiplier.last=3", "--seed", "-5"])
    assert res.exit_code == 0, res.stderr
    data = strict(res.stdout)
    meta = data["meta"]
    assert meta["command"] == "sponsio odds hand" and meta["seed"] == -5 and meta["version"]
    assert meta["rules"] == {"name": "standard-4p", "source": "shipped:standard-4p", "changed": ["multiplier.last"]}
    assert "threads" not in meta["options"] and meta["options"]["n"] == 600
    bets = [r["bet"] for r in data["rows"]]
    assert bets and not any(b.startswith("fail:") for b in bets)
    assert "cannot fail" in meta["left_out"]
    assert all(significant(v) <= 6 for v in floats(data["rows"]))
    # with bets of another seat, that seat can fail and its row is back
    res = CliRunner().invoke(sponsio, ["odds", "--hand", HAND, "--talon", TALON, "-n", "300",
                                       "--others", "1:tricks=3"])
    row_bets = [line.split()[0] for line in res.stdout.splitlines() if line.strip().startswith("fail:")]
    assert res.exit_code == 0 and row_bets == ["fail:1"]
    assert "left out fail:2, fail:3: a seat without bets (--others) cannot fail" in res.stdout


def test_json_nulls_for_nan_and_infinity():
    df = pd.DataFrame({"bet": ["a", "b"], "p": [0.0, 0.5], "ci_low": [0.0, 0.4], "ci_high": [0.1, 0.6],
                       "fair_multiplier": [np.inf, 2.0], "x": [np.nan, -0.8091999999999999]})
    rows = records(df)
    assert rows[0]["fair_multiplier"] is None and rows[0]["x"] is None and rows[1]["x"] == -0.8092
    # an estimate keeps two significant digits of its interval's half-width
    est = round_estimates(pd.DataFrame({"coins": [26.82345], "coins_low": [26.7612], "coins_high": [26.8912]}))
    assert est.iloc[0].tolist() == [26.823, 26.761, 26.891]


def test_tables_print_estimates_to_their_precision():
    df = pd.DataFrame({"entry": ["a", "b"], "win_rate": [0.14283, 0.19781], "ci_low": [0.13071, 0.18392],
                       "ci_high": [0.15582, 0.21243], "value_per_day": [0.88514, 2.0], "value_low": [0.85031, 2.0],
                       "value_high": [0.91992, 2.0], "sd": [3.00471, 2.65812], "p50": [34.0, 35.0]})
    lines = render(df, "table").splitlines()
    assert lines[1].split() == ["a", "0.143", "0.131", "0.156", "0.885", "0.850", "0.920", "3.0047", "34"]
    assert lines[2].split() == ["b", "0.198", "0.184", "0.212", "2.000", "2.000", "2.000", "2.6581", "35"]
    # a caller's own format still wins
    assert render(df, "table", formats={"win_rate": "{:.1f}"}).splitlines()[1].split()[1] == "0.1"


def test_every_json_output_parses_strictly(tmp_path):
    runs = [
        (sponsio, ["tournament", "--profile", "ev:goal x4", "-n", "200", "--format", "json"]),
        (sponsio, ["game", "--profile", "ev:goal x4", "--format", "json"]),
        (caesar, ["simulate", "-n", "60", "--no-favour-value", "--format", "json"]),
        (caesar, ["bids", "-n", "60", "--format", "json"]),
    ]
    for cli, args in runs:
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0, (args, res.stderr)
        data = strict(res.stdout)
        assert data["meta"]["command"].endswith(args[0]) and "version" in data["meta"], args


def test_tiny_samples_print_no_interval():
    """balance -n 2000 once printed colour:B=9 with n = 2 and EV 7.0 [7.0, 7.0]."""
    from tabletop_mc.stats import MIN_MEAN_N, mean_ci
    assert math.isnan(mean_ci(14.0, 98.0, 2)[1])
    m, lo, hi = mean_ci(3.0, 3.0, MIN_MEAN_N + 5, lower=0.0)
    assert lo == 0.0 < m < hi  # a count's interval stops at 0


def test_dd_header_speaks_of_ev_only_with_an_ev_column():
    res = CliRunner().invoke(sponsio, ["odds", "--hand", HAND, "--talon", TALON, "--policy", "dd",
                                       "--bets", "tricks=2", "-n", "40"])
    assert res.exit_code == 0, res.stderr
    assert "p_worst" in res.stdout and "EV" not in res.stdout
