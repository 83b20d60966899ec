"""Bet-goal bounds of the double-dummy solver against brute-force minimax.

Small skewed deals (cards from two or three colours only, so voids, long
colours and forced tricks are common), the asking seat alone against every
other seat (worst case), where ``dd_bounds.forced_win`` decides positions:
the others make the seat win a trick that breaks a ``tricks=N`` or
``colour:C=N`` bet with small N.
"""

import random

import pytest

from sponsio_sim.analysis.dd import solve
from sponsio_sim.bets import parse_bet_set
from sponsio_sim.rules import load_rules

from dd_reference import bet_question, legal
from test_dd import bet_tuple, deal_text, trick_text

SKEWED = [(4, 3, False)] * 10 + [(4, 3, True)] * 6 + [(3, 4, False)] * 8 + [(3, 4, True)] * 4


def skewed_position(rng, players, hand, mid_trick):
    n_col = 4 if players == 4 else 3
    colours = rng.sample(range(n_col), 2 if players * hand <= 12 else 3)
    cards = rng.sample([c for c in range(n_col * 9) if c // 9 in colours], players * hand)
    hands = [sorted(cards[s * hand:(s + 1) * hand]) for s in range(players)]
    leader = rng.randrange(players)
    trick = []
    if mid_trick:
        for j in range(rng.randrange(1, players)):
            seat = (leader + j) % players
            c = rng.choice(legal(hands[seat], trick))
            hands[seat].remove(c)
            trick.append(c)
    return hands, leader, trick, colours


@pytest.mark.parametrize("case", range(len(SKEWED)))
def test_avoid_bets_match_minimax_on_skewed_deals(case):
    """Worst case of trick and colour bets with small numbers (the seat must
    avoid winning tricks or capturing a colour), alone and together."""
    players, hand, mid = SKEWED[case]
    rng = random.Random(4000 + case)
    rules = load_rules(players=players, overrides={"hand_size": hand})
    hands, leader, trick, colours = skewed_position(rng, players, hand, mid)
    seat = rng.randrange(players)
    names = "RBGY"
    c1, c2 = names[colours[0]], names[colours[1]]
    bet_sets = ["tricks=0", "tricks=1", f"colour:{c1}=0", f"colour:{c2}=0", f"colour:{c1}=1",
                f"colour:{c2}=2", f"tricks=1,colour:{c1}=1", f"tricks=2,colour:{c2}=0"]
    text = deal_text(hands, rules)
    for notation in bet_sets:
        df = solve(text, lead=leader, seat=seat, bets=notation, trick=trick_text(trick, rules), rules=rules)
        table = {seat: [bet_tuple(b) for b in parse_bet_set(notation, rules, seat)]}
        assert bool(df["worst"].iloc[0]) == bet_question(hands, leader, seat, table, True, trick), \
            (notation, text, leader, trick)
