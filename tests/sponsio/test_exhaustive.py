"""Kernel vs exhaustive enumeration on tiny rule sets (random policy).

The reference (tests/sponsio/sponsio_reference.py) enumerates every deal of the
hidden cards and every legal play sequence; the kernel simulates. Every exact
probability of a catalogue bet must lie in the simulation's 95% Wilson
interval, Bonferroni-adjusted over the rows checked so that the whole family
holds with 95% confidence.
"""

from statistics import NormalDist

import pytest

from tabletop_mc.stats import wilson
from sponsio_sim.analysis.odds.query import simulate, stat_index
from sponsio_sim.bet_kinds import BET_TYPES
from sponsio_sim.bets import catalogue
from sponsio_sim.kernels.odds.simulate import stats_layout
from sponsio_sim.rules import load_rules
from sponsio_sim.situation import build_situation

from sponsio_reference import colour, random_play_distribution

N = 200_000

CASES = [
    # players, colours, hand size, asking seat, leader, hand, talon
    (3, "RBG", 3, 0, 0, "R9 R2 B5", "R1 R3 R4 R5 R6 B1 B2 B3 B4 B6 G1 G2 G3 G4 G5 G6 G7 G8"),
    (3, "RBG", 3, 1, 2, "B9 G9 R7", "R1 R2 R3 R4 R5 B1 B2 B3 B4 B5 B6 G1 G2 G3 G4 G5 G6 G7"),
    (4, "RBGY", 2, 2, 1, "Y9 R8",
     "R1 R2 R3 R4 R5 R6 B1 B2 B3 B4 B5 B6 B7 G1 G2 G3 G4 G5 G6 G7 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8"),
]


def _cards(text, colours):
    """Card ids (``sponsio_reference``) of a card list such as "R9 B5"."""
    return [colours.index(t[0]) * 9 + int(t[1]) - 1 for t in text.split()]


@pytest.mark.parametrize("players,colours,hand_size,seat,lead,hand,talon", CASES)
def test_random_policy_matches_enumeration(players, colours, hand_size, seat, lead, hand, talon):
    rules = load_rules("standard-4p" if players == 4 else "standard-3p",   # every bet kind, ``first`` too
                       overrides={"hand_size": hand_size, "colours": list(colours), "bets": list(BET_TYPES)})
    sit = build_situation(rules, hand, talon, seat=seat, lead=lead)
    layout = stats_layout(rules.hand_size, rules.n_colours, rules.players)
    rows = [b for b in catalogue(rules, seat) if b.kind != "fail"]
    counts, n = simulate(sit, "random", "random", n=N, target_ci=None, seed=7, watch=[0])
    assert n == N

    def outcome(tricks, won, last, nines_ok, first):
        return (tricks[seat], tuple(sum(1 for c in won[seat] if colour(c) == col) for col in range(len(colours))),
                last == seat, nines_ok, first == seat)

    exact = random_play_distribution(players, len(colours), _cards(hand, colours), _cards(talon, colours),
                                     seat, lead, hand_size, outcome)
    assert abs(sum(exact.values()) - 1) < 1e-12

    def p_exact(bet):
        if bet.kind == "tricks":
            return sum(p for o, p in exact.items() if o[0] == bet.a)
        if bet.kind == "colour":
            return sum(p for o, p in exact.items() if o[1][bet.a] == bet.b)
        if bet.kind == "last":
            return sum(p for o, p in exact.items() if o[2])
        if bet.kind == "first":
            return sum(p for o, p in exact.items() if o[4])
        return sum(p for o, p in exact.items() if o[3])

    z = NormalDist().inv_cdf(1 - 0.025 / len(rows))
    outside = []
    for bet in rows:
        k = counts[stat_index(bet, layout, rules)]
        _, low, high = wilson(k, n, z=z)
        pe = float(p_exact(bet))
        if not low <= pe <= high:
            outside.append((bet.notation(rules), pe, k / n, low, high))
    assert not outside, outside
    # The simulation is not trivially wide: the intervals resolve 1% differences.
    assert max(wilson(N // 2, N, z=z)[2] - wilson(N // 2, N, z=z)[1], 0) < 0.01
