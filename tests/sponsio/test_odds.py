"""The odds API: reproducibility, thread independence, table contents, policies."""

import numpy as np
import pandas as pd
import pytest

from sponsio_sim import OddsPlay, Query, Run, odds
from sponsio_sim.analysis.odds.job import COLUMNS

HAND = "R9 R7 R2 B8 B5 G6 G1 Y3"
TALON = "R1 B9 G4 Y7"


def test_same_seed_same_result_on_1_and_2_threads():
    query, play = Query(HAND, TALON), OddsPlay("goal", "goal")
    one = odds(query, play, n=6000, run=Run(seed=11, threads=1)).table
    two = odds(query, play, n=6000, run=Run(seed=11, threads=2)).table
    pd.testing.assert_frame_equal(one, two)
    other = odds(query, play, n=6000, run=Run(seed=12, threads=2)).table
    assert not one["p"].equals(other["p"])


def test_adaptive_stop_is_thread_independent():
    kw = dict(query=Query(HAND, TALON, bets="tricks=2,last"), target_ci=0.02)
    pd.testing.assert_frame_equal(odds(**kw, run=Run(seed=3, threads=1)).table,
                                  odds(**kw, run=Run(seed=3, threads=2)).table)


def test_odds_shown_as_they_sharpen_end_as_the_odds():
    """``on_table`` sees every row soon (a first look at one chunk each), then sharper tables; the
    run ends on the very table it gives without (each row's numbers are its own run's)."""
    kw = dict(query=Query(HAND, TALON), target_ci=0.05, run=Run(seed=4))
    seen = []
    df = odds(**kw, on_table=lambda partial: seen.append(partial.table)).table
    pd.testing.assert_frame_equal(df, odds(**kw).table)
    assert seen and all(len(t) == len(df) for t in seen)
    last, final = seen[-1].set_index("bet")["n"].sort_index(), df.set_index("bet")["n"].sort_index()
    assert seen[0]["n"].max() == 512 and (last <= final).all()
    pimc = odds(Query(HAND, TALON, bets="tricks=2"), OddsPlay("pimc", worlds=2), n=16, run=Run(seed=4),
                on_table=lambda partial: seen.append(partial.table)).table
    assert seen[-1]["bet"].tolist() == pimc["bet"].tolist()


def test_catalogue_rows_and_columns():
    res = odds(Query(HAND, TALON), OddsPlay("random", "random"), n=4000, run=Run(seed=1))
    df = res.table
    assert list(df.columns) == COLUMNS
    # tricks 0..8, colour 4 x 0..9, last, nines; no fail:S rows (no seat holds bets, none can fail)
    assert len(df) == 9 + 40 + 2
    assert "cannot fail" in res.left_out
    assert df["ev"].is_monotonic_decreasing
    assert (df["ci_low"] <= df["p"]).all() and (df["p"] <= df["ci_high"]).all()
    np.testing.assert_allclose(df["ev"], df["p"] * df["multiplier"] - 1)
    # One shared simulation under a goal-blind policy: the trick rows sum to 1.
    tricks = df[df.bet.str.startswith("tricks=")]
    assert tricks["p"].sum() == pytest.approx(1.0)
    # Impossible: 9 red cards when R1 is in the talon.
    assert df.set_index("bet").loc["colour:R=9", "p"] == 0


def test_target_ci_reached():
    df = odds(Query(HAND, TALON, bets="tricks=2"), target_ci=0.01, run=Run(seed=2)).table
    assert ((df["ci_high"] - df["ci_low"]) <= 0.01).all()
    assert df["n"].iloc[0] < 60_000  # adaptive batches stop near the needed n


def test_joint_row_and_fail_bet_against_other_seat():
    df = odds(Query(HAND, TALON, bets="tricks=2,fail:1", others="1:tricks=0"), n=8000, run=Run(seed=5)).table
    assert list(df["bet"]) == ["tricks=2", "fail:1", "all:tricks=2,fail:1"]
    joint = df.iloc[-1]
    assert joint["p"] <= df["p"].iloc[:2].min() + 1e-12
    assert joint["ev"] == pytest.approx(df["ev"].iloc[:2].sum())


def _random_hands(count, seed=0):
    from sponsio_sim.cards import format_cards
    from sponsio_sim.rules import load_rules
    rules = load_rules()
    rng = np.random.default_rng(seed)
    for _ in range(count):
        perm = [int(x) for x in rng.permutation(36)]
        yield format_cards(perm[:8], rules), format_cards(perm[8:12], rules)


def _paired(bet, a, b, hands=12, n=1500):
    """Per-hand success rates of bet under settings a and b (same deals)."""
    pa, pb = [], []
    for h, (hand, talon) in enumerate(_random_hands(hands)):
        pa.append(odds(Query(hand, talon, bets=bet), OddsPlay(**a), n=n, run=Run(seed=h)).table["p"].iloc[0])
        pb.append(odds(Query(hand, talon, bets=bet), OddsPlay(**b), n=n, run=Run(seed=h)).table["p"].iloc[0])
    d = np.array(pa) - np.array(pb)
    return d.mean(), d.std(ddof=1) / np.sqrt(len(d))


@pytest.mark.parametrize("bet", ["tricks=0", "tricks=2", "last", "nines", "colour:B=2"])
def test_goal_policy_plays_for_its_bet(bet):
    """Over random hands, the goal policy makes its bet more often than random play."""
    mean, se = _paired(bet, dict(policy="goal", opponents="random"),
                       dict(policy="random", opponents="random"))
    assert mean > 3 * se and mean > 0.03, (mean, se)


@pytest.mark.parametrize("bet", ["last", "nines"])
def test_trolls_play_against_the_bet(bet):
    """Seats without bets (trolls) under goal play lower the bettor's odds."""
    mean, se = _paired(bet, dict(policy="goal", opponents="goal"),
                       dict(policy="goal", opponents="random"))
    assert mean < -3 * se and mean < -0.03, (mean, se)


def test_unknown_talon_and_revealed_cards():
    df = odds(Query(HAND, None, revealed="1:G9 Y1; 2:B2", bets="nines"), n=3000, run=Run(seed=1)).table
    assert df["n"].iloc[0] == 3000
    three = odds(Query("R9 R7 R2 B8 B5 G6 G1 G3", "R1 B9 G4", seat=2, lead=1), OddsPlay("greedy", "greedy"),
                 n=2000, players=3, run=Run(seed=1)).table
    assert len(three) == 9 + 30 + 2
