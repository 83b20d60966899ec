"""Avoid bounds of the double-dummy solver (``dd.avoid``) against
brute-force minimax.

Small deals from two or three colours where the asking seat, alone
against every other seat, mostly holds low cards, so that it can often
lose every trick left (``ducks_all``) or only just cannot; bets whose
counters the seat may stop at (``frozen_bets``): trick and colour bets
with small numbers, alone and together, with ``first`` and ``last``.
"""

import random

import pytest

from sponsio_sim.analysis.dd import Question, solve
from sponsio_sim.bets import parse_bet_set
from sponsio_sim.cards import parse_cards
from sponsio_sim.rules import load_rules

from sponsio_reference import bet_question, bet_tuple, start_trick
from sponsio_helpers import deal_text, leaning_position, trick_text

AVOID = [(4, 3, False)] * 12 + [(4, 3, True)] * 8 + [(3, 4, False)] * 10 + [(3, 4, True)] * 6 \
    + [(4, 4, False)] * 2


@pytest.mark.parametrize("case", range(len(AVOID)))
def test_avoid_bounds_match_minimax(case):
    players, hand, mid = AVOID[case]
    rng = random.Random(7000 + case)
    rules = load_rules(players=players, overrides={"hand_size": hand})
    seat = rng.randrange(players)
    hands, leader, trick, colours = leaning_position(rng, players, hand, seat, mid, high=False)
    names = "RBGY"
    c1, c2 = names[colours[0]], names[colours[1]]
    bet_sets = ["tricks=0", "tricks=1", "tricks=2", f"colour:{c1}=0", f"colour:{c2}=0", f"colour:{c1}=1",
                f"tricks=1,colour:{c2}=0", f"tricks=0,colour:{c1}=0", "tricks=1,last", "tricks=0,last"]
    text = deal_text(hands, rules)
    for notation in bet_sets:
        df = solve(text, Question(lead=leader, trick=trick_text(trick, rules), seat=seat, bets=notation),
                   rules=rules).table
        table = {seat: [bet_tuple(b) for b in parse_bet_set(notation, rules, seat)]}
        assert bool(df["worst"].iloc[0]) == bet_question(hands, leader, seat, table, True, trick), \
            (notation, text, leader, trick, seat)


DEEP = [(4, 4, False)] * 8 + [(4, 4, True)] * 4 + [(3, 5, False)] * 3 + [(3, 5, True)] * 2


def assert_avoid_bets_match_minimax(hands, leader, trick, seat, colours, rules):
    """The worst-case answer for the seat's small bets on the first two colours equals minimax's."""
    c1, c2 = "RBGY"[colours[0]], "RBGY"[colours[1]]
    text = deal_text(hands, rules)
    for notation in ["tricks=0", f"colour:{c1}=0", f"colour:{c2}=0", "tricks=1"]:
        df = solve(text, Question(lead=leader, trick=trick_text(trick, rules), seat=seat, bets=notation),
                   rules=rules).table
        table = {seat: [bet_tuple(b) for b in parse_bet_set(notation, rules, seat)]}
        assert bool(df["worst"].iloc[0]) == bet_question(hands, leader, seat, table, True, trick), \
            (notation, text, leader, trick, seat)


@pytest.mark.parametrize("case", range(len(DEEP)))
def test_avoid_bounds_match_minimax_deeper(case):
    """Longer hands, where a guard's discards and the seat's copies of them
    take several tricks (``dd.avoid._guard``)."""
    players, hand, mid = DEEP[case]
    rng = random.Random(7500 + case)
    rules = load_rules(players=players, overrides={"hand_size": hand})
    seat = rng.randrange(players)
    hands, leader, trick, colours = leaning_position(rng, players, hand, seat, mid, high=False)
    assert_avoid_bets_match_minimax(hands, leader, trick, seat, colours, rules)


def guard_position(rng, players, hand, mid_trick, seat):
    """A guard in the making: in colour c the seat holds middle cards,
    another seat (the guard) only higher ones and a third a lower one; the
    other cards from one or two more colours, so that the guard can be void
    where the seat is not."""
    n_col = 4 if players == 4 else 3
    colours = rng.sample(range(n_col), 3 if players * hand > 12 else 2)
    c = colours[0]
    guard = rng.choice([t for t in range(players) if t != seat])
    low = rng.choice([t for t in range(players) if t not in (seat, guard)])
    ranks = sorted(rng.sample(range(9), rng.randrange(4, 7)))
    hands = [[] for _ in range(players)]
    hands[low].append(c * 9 + ranks[0])
    mine = rng.randrange(1, min(3, len(ranks) - 2) + 1)
    for r in ranks[1:1 + mine]:
        hands[seat].append(c * 9 + r)
    for r in ranks[1 + mine:]:
        if len(hands[guard]) < hand:
            hands[guard].append(c * 9 + r)
    rest = [x for x in range(n_col * 9) if x // 9 in colours[1:]]
    rng.shuffle(rest)
    for t in range(players):
        while len(hands[t]) < hand:
            hands[t].append(rest.pop())
        hands[t].sort()
    leader = rng.randrange(players)
    trick = start_trick(rng, hands, leader) if mid_trick else []
    return hands, leader, trick, colours


GUARD = [(4, 3, False)] * 16 + [(4, 3, True)] * 8 + [(3, 4, False)] * 12 + [(3, 4, True)] * 6 \
    + [(4, 4, False)] * 6


@pytest.mark.parametrize("case", range(len(GUARD)))
def test_guard_matches_minimax(case):
    players, hand, mid = GUARD[case]
    rng = random.Random(8000 + case)
    rules = load_rules(players=players, overrides={"hand_size": hand})
    seat = rng.randrange(players)
    hands, leader, trick, colours = guard_position(rng, players, hand, mid, seat)
    assert_avoid_bets_match_minimax(hands, leader, trick, seat, colours, rules)


def test_guard_that_discards_its_colour():
    """The guard (seat 2: R8 R9) is void in B, which seat 1 leads twice: it
    discards both Rs, then R2 forces the seat's R5 (phi = 2 > 1 = |Y_R| -
    |S_R|, so no guard)."""
    rules = load_rules(players=4, overrides={"hand_size": 3})
    text = "R5 B2 B3 | R2 B4 B6 | R8 R9 G1 | G2 G3 G4"
    df = solve(text, Question(lead=1, seat=0, bets="tricks=0"), rules=rules).table
    hands = [sorted(parse_cards(part, rules, "deal")) for part in text.split("|")]
    assert not bet_question(hands, 1, 0, {0: [("tricks", 0)]}, True)
    assert not bool(df["worst"].iloc[0])
