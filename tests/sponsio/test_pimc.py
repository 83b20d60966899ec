"""DD odds brackets and PIMC play, on full-information deals where the
answers are known exactly, and on hidden deals for their invariants."""

import random

import pytest

from sponsio_sim.analysis.dd import Question, solve
from sponsio_sim.analysis.odds.query import OddsPlay, Query, odds
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cards import format_cards, mask_of
from sponsio_sim.rules import load_rules

RULES = {"hand_size": 3}


def known_deal(seed):
    """Seat 0's hand, the talon and the other seats' hands (all revealed)."""
    rng = random.Random(seed)
    rules = load_rules(players=4, overrides=RULES)
    cards = rng.sample(range(36), 36)
    hands = [sorted(cards[s * 3:(s + 1) * 3]) for s in range(4)]
    talon = cards[12:]
    fmt = lambda ids: format_cards(mask_of(ids), rules)  # noqa: E731
    revealed = "; ".join(f"{s}:{fmt(hands[s])}" for s in range(1, 4))
    return rules, fmt(hands[0]), fmt(talon), revealed, " | ".join(fmt(h) for h in hands)


@pytest.mark.parametrize("seed", range(6))
def test_dd_odds_on_a_known_deal_are_the_solver_answer(seed):
    rules, hand, talon, revealed, deal = known_deal(seed)
    df = odds(Query(hand, talon, revealed=revealed, bets="tricks=1,last"), OddsPlay("dd"), n=40, rules=rules).table
    exact = solve(deal, Question(seat=0, bets="tricks=1"), rules=rules).table
    row = df.set_index("bet").loc["tricks=1"]
    assert row["p_worst"] == float(exact["worst"].iloc[0])
    assert row["p_best"] == float(exact["best"].iloc[0])
    joint = solve(deal, Question(seat=0, bets="tricks=1,last"), rules=rules).table
    assert df.set_index("bet").loc["all:tricks=1,last", "p_worst"] == float(joint["worst"].iloc[0])


@pytest.mark.parametrize("seed", range(3))
def test_dd_odds_of_the_whole_catalogue_on_a_known_full_deal(seed):
    """Rows of one goal family (``tricks=0..8``, ``colour:R=0..9``) share
    the solver's table within a deal; each row still equals its own solve."""
    rng = random.Random(100 + seed)
    rules = load_rules(players=4)
    cards = rng.sample(range(36), 36)
    hands = [sorted(cards[s * 8:(s + 1) * 8]) for s in range(4)]
    fmt = lambda ids: format_cards(mask_of(ids), rules)  # noqa: E731
    revealed = "; ".join(f"{s}:{fmt(hands[s])}" for s in range(1, 4))
    df = odds(Query(fmt(hands[0]), fmt(cards[32:]), revealed=revealed), OddsPlay("dd"), n=4, rules=rules).table
    deal = " | ".join(fmt(h) for h in hands)
    assert len(df) >= 50
    for bet, row in df.set_index("bet").iterrows():
        exact = solve(deal, Question(seat=0, bets=bet), rules=rules).table
        assert (row["p_worst"], row["p_best"]) == (float(exact["worst"].iloc[0]), float(exact["best"].iloc[0])), bet


def test_pimc_wins_every_known_deal_that_is_makeable():
    made = 0
    for seed in range(40):
        rules, hand, talon, revealed, deal = known_deal(seed)
        for bets in ("tricks=1", "tricks=2", "last"):
            if not solve(deal, Question(seat=0, bets=bets), rules=rules).table["worst"].iloc[0]:
                continue
            df = odds(Query(hand, talon, revealed=revealed, bets=bets), OddsPlay("pimc", worlds=1), n=8,
                      rules=rules).table
            assert df["p"].iloc[0] == 1.0, (seed, bets)
            made += 1
    assert made >= 10


def test_goal_sits_under_the_best_case_and_threads_do_not_matter():
    query = Query("R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7", bets="tricks=2")
    one = odds(query, OddsPlay("goal,dd"), n=256, run=Run(seed=3, threads=1)).table
    two = odds(query, OddsPlay("goal,dd"), n=256, run=Run(seed=3, threads=2)).table
    assert one.drop(columns="note").equals(two.drop(columns="note"))
    assert not (one["note"] == "ABOVE best case").any()
    assert (one["p_worst"] <= one["p_best"]).all()


def test_pimc_same_numbers_on_any_thread_count():
    kw = dict(query=Query("R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7", bets="tricks=2"), play=OddsPlay("pimc", worlds=4),
              n=16)
    assert odds(**kw, run=Run(seed=5, threads=1)).table.equals(odds(**kw, run=Run(seed=5, threads=2)).table)


def test_bad_policy_is_a_user_error():
    from tabletop_mc.errors import UserError
    with pytest.raises(UserError, match="one play policy"):
        odds(Query("R9 R7 R2 B8 B5 G6 G1 Y3"), OddsPlay("goal,pimc,dd")).table
    with pytest.raises(UserError, match="--worlds 0"):
        odds(Query("R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7", bets="last"), OddsPlay("pimc", worlds=0)).table
