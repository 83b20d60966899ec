"""The best-case sweep bound of the double-dummy solver (``dd.coop``)
against brute-force minimax with every seat helping.

Small deals from two or three colours where the asking seat mostly holds
high cards, so that it can often win every trick left, or only just
cannot. The bound, asked on its own at the start of a trick, may only say
NO where minimax does (and must say it often enough to be tested); the
whole solver's best-case answer must equal minimax's.
"""

import random

import numpy as np
import pytest

from sponsio_sim.analysis.dd import Question, solve
from sponsio_sim.bets import encode_table, parse_bet_set
from sponsio_sim.kernels.bits import colour_masks
from sponsio_sim.kernels.dd.coop import coop_bound, coop_sweep, discards, under
from sponsio_sim.kernels.dd.solve import fresh_counters
from sponsio_sim.kernels.dd.tt import NO
from sponsio_sim.rules import load_rules

from sponsio_reference import bet_question, bet_tuple, minimax
from sponsio_helpers import deal_text, leaning_position, masks, trick_text

NAMES = "RBGY"


def capture_bets(hands, colours, slack):
    """(colour, cards to capture) for each colour in play, all of it but ``slack``."""
    out = []
    for col in colours:
        n = sum(1 for h in hands for c in h if c // 9 == col)
        if n > slack:
            out.append((col, n - slack))
    return out


def test_matching_and_discards_by_hand():
    """``under``: the greedy matching; ``discards``: phi of the module docstring."""
    m = lambda *cs: np.uint64(sum(1 << c for c in cs))  # noqa: E731
    assert under(m(8, 5), m(7, 6, 4)) == 2      # R9 over R8 (or R7), R6 over R5
    assert under(m(4), m(7, 6)) == 0
    assert under(m(8, 7, 6), m(0, 1, 2, 3)) == 3
    colmask = colour_masks(4)
    hands = masks([[8, 9 + 8, 9 + 7, 18 + 2], [5, 6, 7, 27 + 1], [0, 9, 10, 18], [1, 2, 11, 27]])
    # Seat 1 (no B, no G) while seat 0 sweeps: 2 B tricks and 1 G trick to
    # discard R into; its Y card adds nothing (seat 0 has no Y).
    assert discards(hands, 0, 1, 0, colmask) == 3
    # Seat 2 follows both B tricks and the G trick.
    assert discards(hands, 0, 2, 0, colmask) == 0


SOUND = [(4, 3)] * 50 + [(3, 4)] * 30 + [(4, 4)] * 6


def test_sweep_bound_rules_out_only_what_minimax_rules_out():
    """On many positions, the bound's NO at the start of a trick agrees
    with minimax (every seat helping, the most tricks the seat can take),
    and it fires on some of them."""
    fired = 0
    for case, (players, hand) in enumerate(SOUND):
        rng = random.Random(9100 + case)
        rules = load_rules(players=players, overrides={"hand_size": hand})
        seat = rng.randrange(players)
        hands, leader, _, _ = leaning_position(rng, players, hand, seat, False, high=True)
        if coop_sweep(masks(hands), players, seat, colour_masks(rules.n_colours))[0] == NO:
            fired += 1
            most = minimax(hands, leader, [], set(range(players)), lambda o: o[0][seat])
            assert most < hand, (deal_text(hands, rules), leader, seat)
    assert fired >= 20, fired


def test_capture_all_bound_rules_out_only_what_minimax_rules_out():
    """A bet on every card of a colour still in play, while some seat holds
    nothing else: every trick left holds a card of it, so the bettor must
    sweep. Where ``coop_bound`` says NO, minimax agrees; it fires often."""
    fired = 0
    for case, (players, hand) in enumerate(SOUND * 2):
        rng = random.Random(9500 + case)
        rules = load_rules(players=players, overrides={"hand_size": hand})
        seat = rng.randrange(players)
        hands, leader, _, colours = leaning_position(rng, players, hand, seat, False, high=True)
        colmask = colour_masks(rules.n_colours)
        for col, need in capture_bets(hands, colours, 0):
            codes, counts = encode_table({seat: parse_bet_set(f"colour:{NAMES[col]}={need}", rules, seat)},
                                         players)
            row = fresh_counters(players, rules.n_colours)
            if coop_bound(codes, counts, seat, row, masks(hands), players, hand, colmask)[0] == NO:
                fired += 1
                assert not bet_question(hands, leader, seat, {seat: [("colour", col, need)]}, False), \
                    (deal_text(hands, rules), leader, seat, col)
    assert fired >= 20, fired


SOLVE = [(4, 3, False)] * 14 + [(4, 3, True)] * 8 + [(3, 4, False)] * 10 + [(3, 4, True)] * 6 \
    + [(4, 4, False)] * 4


@pytest.mark.parametrize("case", range(len(SOLVE)))
def test_best_case_matches_minimax(case):
    """The solver's best case (the bound's winning ranks generalising its
    answers through the transposition table) equals minimax's, for sweeps
    and near sweeps, alone and with other bets, and for whole colours."""
    players, hand, mid = SOLVE[case]
    rng = random.Random(9300 + case)
    rules = load_rules(players=players, overrides={"hand_size": hand})
    seat = rng.randrange(players)
    hands, leader, trick, colours = leaning_position(rng, players, hand, seat, mid, high=True)
    left = len(hands[seat])
    bet_sets = [f"tricks={left}", f"tricks={left - 1}", f"tricks={left - 2}", f"tricks={left},last"]
    for col, need in capture_bets(hands, colours, 0) + capture_bets(hands, colours, 1):
        bet_sets.append(f"colour:{NAMES[col]}={need}")
    col, need = capture_bets(hands, colours, 0)[0]
    bet_sets.append(f"tricks={left - 1},colour:{NAMES[col]}={need}")
    text = deal_text(hands, rules)
    for notation in bet_sets:
        df = solve(text, Question(lead=leader, trick=trick_text(trick, rules), seat=seat, bets=notation),
                   rules=rules).table
        table = {seat: [bet_tuple(b) for b in parse_bet_set(notation, rules, seat)]}
        assert bool(df["best"].iloc[0]) == bet_question(hands, leader, seat, table, False, trick), \
            (notation, text, leader, trick, seat)


def test_sweep_needs_the_discards():
    """Seat 0 (R8 R7 B9) sweeps only if seat 1 (R9 R6 G1) can throw R9
    away: it is void in B, and seat 0 leads B once (phi = 1), so it can;
    with B1 in place of G1 it must follow B and keep both Rs (phi = 0)."""
    rules = load_rules(players=4, overrides={"hand_size": 3})
    colmask = colour_masks(4)
    can = [[7, 6, 17], [8, 5, 18], [0, 1, 19], [2, 3, 20]]
    cannot = [[7, 6, 17], [8, 5, 9], [0, 1, 19], [2, 3, 20]]
    for hands, ok in ((can, True), (cannot, False)):
        assert bet_question(hands, 0, 0, {0: [("tricks", 3)]}, False) == ok
        assert (coop_sweep(masks(hands), 4, 0, colmask)[0] == NO) == (not ok)
        df = solve(deal_text(hands, rules), Question(lead=0, seat=0, bets="tricks=3"), rules=rules).table
        assert bool(df["best"].iloc[0]) == ok
