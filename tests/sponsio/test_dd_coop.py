"""Best-case bounds of the double-dummy solver (``dd.coop``) against
brute-force minimax with every seat helping.

Small deals from two or three colours where the asking seat mostly holds
high cards, so that it can often win every trick left or capture every
card of a colour, or only just cannot. Each bound, asked on its own at the
start of a trick, may only say NO where minimax does (and must say it
often enough to be tested); the whole solver's best-case answer must equal
minimax's.
"""

import random

import numpy as np
import pytest

from sponsio_sim.analysis.dd import solve
from sponsio_sim.bets import parse_bet_set
from sponsio_sim.kernels.bits import colour_masks
from sponsio_sim.kernels.dd.coop import coop_capture, coop_tricks, discards, under
from sponsio_sim.kernels.dd.tt import NO
from sponsio_sim.rules import load_rules

from dd_reference import bet_question, minimax, start_trick
from test_dd import bet_tuple, deal_text, trick_text

NAMES = "RBGY"


def strong_seat_position(rng, players, hand, seat, mid_trick=False):
    """Cards of two or three colours; the seat draws its hand from the
    higher cards more often than not, and the others' hands are skewed
    towards few colours (voids to discard from)."""
    n_col = 4 if players == 4 else 3
    colours = rng.sample(range(n_col), 2 if players * hand <= 12 else 3)
    cards = rng.sample([c for c in range(n_col * 9) if c // 9 in colours], players * hand)
    cards.sort(key=lambda c: -(c % 9) - rng.random() * rng.choice((2, 6, 12)))
    mine = rng.sample(cards[:2 * hand], hand)
    rest = [c for c in cards if c not in mine]
    rest.sort(key=lambda c: (c // 9 + rng.random() * 1.5))
    hands = []
    for s in range(players):
        if s == seat:
            hands.append(sorted(mine))
        else:
            hands.append(sorted(rest[:hand]))
            rest = rest[hand:]
    leader = rng.randrange(players)
    trick = start_trick(rng, hands, leader) if mid_trick else []
    return hands, leader, trick, colours


def masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)


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
    # Seat 1 (no B, no G): discards in R? With the seat (0) sweeping, n_B = 2
    # and n_G = 1, so phi = 2 + 1 = 3 (its Y card: |S_Y| = 0).
    assert discards(hands, 4, 0, 1, 0, colmask, True) == 3
    # Otherwise n_g is the longest holding but seat 1's: B 2 (seat 0), G 1, Y 1 (seat 3) - 1.
    assert discards(hands, 4, 0, 1, 0, colmask, False) == 3


SOUND = [(4, 3)] * 50 + [(3, 4)] * 24 + [(4, 4)] * 4


def most_tricks(hands, leader, seat):
    return minimax(hands, leader, [], set(range(len(hands))), lambda o: o[0][seat])


def test_bounds_rule_out_only_what_minimax_rules_out():
    """On many positions, each bound's NO at the start of a trick agrees
    with minimax (every seat helping): the seat cannot win every trick, or
    capture that many cards of a colour (all of them, or all but one). Each
    bound fires on some of them."""
    fired = {"sweep": 0, "capture": 0}
    for case, (players, hand) in enumerate(SOUND):
        rng = random.Random(9100 + case)
        rules = load_rules(players=players, overrides={"hand_size": hand})
        colmask = colour_masks(rules.n_colours)
        seat = rng.randrange(players)
        hands, leader, _, colours = strong_seat_position(rng, players, hand, seat)
        hm = masks(hands)
        if coop_tricks(hm, players, seat, hand, hand, colmask)[0] == NO:
            fired["sweep"] += 1
            assert most_tricks(hands, leader, seat) < hand, (deal_text(hands, rules), leader, seat)
        for slack in (0, 1):
            for col, need in capture_bets(hands, colours, slack):
                if coop_capture(hm, players, seat, col, slack, colmask)[0] == NO:
                    fired["capture"] += 1
                    most = minimax(hands, leader, [], set(range(players)),
                                   lambda o: sum(1 for c in o[1][seat] if c // 9 == col))
                    assert most < need, (deal_text(hands, rules), leader, seat, NAMES[col], need)
    assert min(fired.values()) >= 10, fired


def balanced_position(rng, players, hand, seat):
    """Every seat holds the same number of cards of each colour in play (so
    no seat can discard before the last tricks), the seat's drawn from
    anywhere in each colour."""
    n_col = 4 if players == 4 else 3
    per = 1 if hand == 3 else 2
    colours = rng.sample(range(n_col), hand // per)
    hands = [[] for _ in range(players)]
    for col in colours:
        cards = rng.sample([col * 9 + r for r in range(9)], players * per)
        for s in range(players):
            hands[s] += cards[s * per:(s + 1) * per]
    return [sorted(h) for h in hands], rng.randrange(players)


BALANCED = [(4, 3)] * 40 + [(3, 4)] * 30 + [(4, 4)] * 4


def test_trick_bound_short_of_a_sweep():
    """The trick bound below a sweep (``need`` < tricks left), on positions
    where it can bite: its NO agrees with minimax, and it fires."""
    fired = 0
    for case, (players, hand) in enumerate(BALANCED):
        rng = random.Random(9200 + case)
        rules = load_rules(players=players, overrides={"hand_size": hand})
        colmask = colour_masks(rules.n_colours)
        seat = rng.randrange(players)
        hands, leader = balanced_position(rng, players, hand, seat)
        most = None
        for need in range(1, hand):
            if coop_tricks(masks(hands), players, seat, need, hand, colmask)[0] == NO:
                fired += 1
                most = most_tricks(hands, leader, seat) if most is None else most
                assert most < need, (deal_text(hands, rules), leader, seat, need)
    assert fired >= 10, fired


SOLVE = [(4, 3, False)] * 14 + [(4, 3, True)] * 8 + [(3, 4, False)] * 10 + [(3, 4, True)] * 6 \
    + [(4, 4, False)] * 4


@pytest.mark.parametrize("case", range(len(SOLVE)))
def test_best_case_matches_minimax(case):
    """The solver's best case (its winning ranks generalising each bound's
    answer through the transposition table) equals minimax's, for sweeps,
    near sweeps, whole and nearly whole colours, alone and with other bets."""
    players, hand, mid = SOLVE[case]
    rng = random.Random(9300 + case)
    rules = load_rules(players=players, overrides={"hand_size": hand})
    seat = rng.randrange(players)
    hands, leader, trick, colours = strong_seat_position(rng, players, hand, seat, mid)
    left = len(hands[seat])
    bet_sets = [f"tricks={left}", f"tricks={left - 1}", f"tricks={left - 2}", f"tricks={left},last"]
    for col, need in capture_bets(hands, colours, 0) + capture_bets(hands, colours, 1):
        bet_sets.append(f"colour:{NAMES[col]}={need}")
    col, need = capture_bets(hands, colours, 0)[0]
    bet_sets.append(f"tricks={left - 1},colour:{NAMES[col]}={need}")
    text = deal_text(hands, rules)
    for notation in bet_sets:
        df = solve(text, lead=leader, seat=seat, bets=notation, trick=trick_text(trick, rules), rules=rules)
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
        hm = masks(hands)
        assert (coop_tricks(hm, 4, 0, 3, 3, colmask)[0] == NO) == (not ok)
        df = solve(deal_text(hands, rules), lead=0, seat=0, bets="tricks=3", rules=rules)
        assert bool(df["best"].iloc[0]) == ok
