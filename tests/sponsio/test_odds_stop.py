"""The odds kernel's early stop: a goal row's round ends once its bet is settled.

Stopping must never change the asked bet's count (only the rounds' length),
and must stay off when a seat draws random numbers during play (the next
deals would move).
"""

import numpy as np
import pytest

from sponsio_sim.analysis.odds.query import kernel_args, stat_index
from sponsio_sim.bet_kinds import BET_TYPES
from sponsio_sim.bets import catalogue
from sponsio_sim.kernels.odds.simulate import odds_chunks, stats_layout
from sponsio_sim.kernels.trickstate import new_state, set_round
from sponsio_sim.kernels.layout import TRICK_STATE
from sponsio_sim.kernels.play.tricks import play_tricks
from sponsio_sim.cards import mask_of, parse_cards
from sponsio_sim.rules import load_rules
from sponsio_sim.situation import build_situation
from tabletop_mc.rng import new_state as new_rng

COUNTS = np.array([300, 300], dtype=np.int64)

SITUATIONS = [
    # rule set, its overrides, hand, talon, seat, lead, policy, opponents
    ("standard-4p", None, "R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7", 0, 0, "goal", "goal"),
    ("standard-4p", {"bets": list(BET_TYPES)}, "R9 B9 G9 Y9 R5 B4 G3 Y2", None, 1, 3, "goal", "goal"),
    ("standard-4p", {"nines_scope": "own"}, "R9 B9 R8 B7 G2 G1 Y2 Y1", "G9 Y9 R1 B1", 3, 2, "goal", "goal"),
    ("standard-4p", None, "R1 G8 G3 G2 Y9 Y7 Y5 Y4", None, 2, 1, "greedy", "goal"),
    ("standard-3p", None, "R9 R8 R7 B2 B1 G9 G5 G4", None, 1, 0, "goal", "greedy"),
]


def _counts(sit, bet, policy, opponents, stop, seed=11):
    """Summed counts of the goal row ``bet`` (the seat playing for it), with or without the stop."""
    args = kernel_args(sit.with_bets([bet]), policy, opponents, stop=bet if stop else None)
    return odds_chunks(np.uint64(seed), np.int64(0), COUNTS, *args).sum(axis=0)


@pytest.mark.parametrize("rules_name,overrides,hand,talon,seat,lead,policy,opponents", SITUATIONS)
def test_stopping_leaves_the_asked_count_unchanged(rules_name, overrides, hand, talon, seat, lead, policy,
                                                   opponents):
    rules = load_rules(rules_name, overrides=overrides)
    sit = build_situation(rules, hand, talon, seat=seat, lead=lead)
    layout = stats_layout(rules.hand_size, rules.n_colours, rules.players)
    checked = 0
    for bet in catalogue(rules, seat):
        if bet.kind == "fail":
            continue
        slot = stat_index(bet, layout, rules)
        full = _counts(sit, bet, policy, opponents, stop=False)[slot]
        assert _counts(sit, bet, policy, opponents, stop=True)[slot] == full, bet.notation(rules)
        checked += 1
    assert checked > 20


def test_a_random_seat_turns_the_stop_off():
    """With a random seat the stop is off, so every count (not only the asked one) is as without it."""
    rules = load_rules("standard-4p")
    sit = build_situation(rules, "R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7")
    bet = [b for b in catalogue(rules, 0) if b.notation(rules) == "colour:R=0"][0]
    full = _counts(sit, bet, "goal", "random", stop=False, seed=3)
    stopped = _counts(sit, bet, "goal", "random", stop=True, seed=3)
    assert np.array_equal(full, stopped)


# Seat 0 (greedy, every seat) wins every trick: R6 R1 R2 R3, then B6 B1 B3 B4, R7, B7 B2, R8, B8, R9, B9.
@pytest.mark.parametrize("stop,played", [((0, 0, 0), 1),      # tricks=0: lost with the first trick
                                         ((0, 3, 0), 4),      # tricks=3: lost with the fourth
                                         ((1, 0, 0), 1),      # colour:R=0: 4 reds in the first trick
                                         ((1, 1, 1), 2),      # colour:B=1: 4 blues in the second
                                         ((1, 0, 7), 7),      # colour:R=7: won, no red left after R9
                                         ((1, 1, 8), 8),      # colour:B=8: open until B9
                                         ((2, 0, 0), 8),      # last: only the end settles it
                                         ((5, 0, 0), 1),      # first: the first trick settles it
                                         ((-1, 0, 0), 8)])    # no stop
def test_the_round_ends_where_the_bet_is_settled(stop, played):
    rules = load_rules("standard-4p")
    hands = ["R9 R8 R7 R6 B9 B8 B7 B6", "R1 B1 B2 G1 G2 G3 G4 G5", "R2 B3 G6 G7 G8 Y1 Y2 Y3",
             "R3 B4 G9 Y4 Y5 Y6 Y7 Y8"]
    board, game_state, money = new_state(rules.n_colours, rules.kernel_flags)
    masks = np.array([mask_of(parse_cards(h, rules)) for h in hands], dtype=np.uint64)
    set_round(board, game_state, masks, np.uint64(0), np.uint64(0))
    halt = np.array([*stop, 0], dtype=np.int64)
    play_tricks(4, 0, np.full(4, 1, dtype=np.int64), board, game_state, money, new_rng(1), None, halt)
    assert game_state[TRICK_STATE.n_played] == played
