"""Bet-goal bounds of the double-dummy solver against brute-force minimax.

Small skewed deals (cards from two or three colours only, so voids, long
colours and forced tricks are common), the asking seat alone against every
other seat (worst case), where bet-goal bounds decide positions:
``dd.bounds.forced_win`` (the others make the seat win a trick that breaks
a ``tricks=N`` or ``colour:C=N`` bet with small N) and, for a trick bet
that needs more tricks, the coalition bounds of the seat alone (the others'
sure tricks after the seat's lead, the sweep bound, the trick under way).
"""

import random

import pytest

from sponsio_sim.analysis.dd import Question, solve
from sponsio_sim.bets import parse_bet_set
from sponsio_sim.cards import parse_cards
from sponsio_sim.rules import load_rules

from sponsio_reference import bet_question, bet_tuple
from sponsio_helpers import deal_text, skewed_position, trick_text

SKEWED = [(4, 3, False)] * 10 + [(4, 3, True)] * 6 + [(3, 4, False)] * 8 + [(3, 4, True)] * 4


@pytest.mark.parametrize("case", range(len(SKEWED)))
def test_avoid_bets_match_minimax_on_skewed_deals(case):
    """Worst case of trick and colour bets with small numbers (the seat must
    avoid winning tricks or capturing a colour), alone and together, and of
    trick bets that need most or all of the tricks left."""
    players, hand, mid = SKEWED[case]
    rng = random.Random(4000 + case)
    rules = load_rules(players=players, overrides={"hand_size": hand})
    hands, leader, trick, colours = skewed_position(rng, players, hand, mid)
    seat = rng.randrange(players)
    names = "RBGY"
    c1, c2 = names[colours[0]], names[colours[1]]
    bet_sets = ["tricks=0", "tricks=1", f"colour:{c1}=0", f"colour:{c2}=0", f"colour:{c1}=1",
                f"colour:{c2}=2", f"tricks=1,colour:{c1}=1", f"tricks=2,colour:{c2}=0", f"tricks={hand - 1}",
                f"tricks={hand}", f"tricks={hand - 1},colour:{c1}=0"]
    text = deal_text(hands, rules)
    for notation in bet_sets:
        df = solve(text, Question(lead=leader, trick=trick_text(trick, rules), seat=seat, bets=notation),
                   rules=rules).table
        table = {seat: [bet_tuple(b) for b in parse_bet_set(notation, rules, seat)]}
        assert bool(df["worst"].iloc[0]) == bet_question(hands, leader, seat, table, True, trick), \
            (notation, text, leader, trick)


# Positions where a 9 was once skipped as the same move as a smaller card of
# its colour (``dd.moves.skip_small``): with a nines bet at stake a 9 is
# never interchangeable, even when the winning ranks found so far hold no
# card of its colour (a 9 played deeper in the search leaves none there).
NINES_SKIP = [
    (4, 3, "G8 G3 Y7 | G9 Y6 Y2 | G2 G1 Y3 | Y9 Y5 Y1", 2, "", 3, "nines,colour:G=0"),
    (3, 4, "R9 R5 R1 G8 | R8 R7 G7 | R4 R2 G4 G1", 1, "G9", 0, "nines,colour:G=0"),
    (3, 4, "B6 B5 G2 | B1 G8 G3 | G9 G6 G5 G4", 0, "B3 B8", 2, "nines,colour:B=0"),
]


@pytest.mark.parametrize("case", range(len(NINES_SKIP)))
def test_nines_are_never_skipped_as_small_cards(case):
    players, hand, text, leader, trick_cards, seat, notation = NINES_SKIP[case]
    rules = load_rules(players=players, overrides={"hand_size": hand})
    df = solve(text, Question(lead=leader, trick=trick_cards or None, seat=seat, bets=notation), rules=rules).table
    hands = [sorted(parse_cards(part, rules, "deal")) for part in text.split("|")]
    trick = parse_cards(trick_cards, rules, "trick") if trick_cards else []
    table = {seat: [bet_tuple(b) for b in parse_bet_set(notation, rules, seat)]}
    assert bool(df["worst"].iloc[0]) == bet_question(hands, leader, seat, table, True, trick)
    assert bool(df["best"].iloc[0]) == bet_question(hands, leader, seat, table, False, trick)
