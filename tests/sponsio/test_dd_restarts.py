"""Budgeted and shaken searches, and the best case's restarts
(``dd.solve.solve_bets``, ``dd.search.search``, ``dd.moves.shaken``).

A search stopped by its node budget must hand the deal back untouched and
leave only proven entries in the table; a shaken move order must reach the
same answers; restarts must not change any answer. Small positions are
checked against brute-force minimax with budgets tiny enough that nearly
every question is stopped several times; full deals against the solver
without restarts, on questions costly enough that the restarts run.
"""

import random

import numpy as np
import pytest

from sponsio_sim.bets import catalogue, encode_table, parse_bet_set
from sponsio_sim.kernels.bits import colour_masks, nines_mask
from sponsio_sim.kernels.dd.context import BetQuestion
from sponsio_sim.kernels.dd.core import MODE_BET
from sponsio_sim.kernels.dd.goals import bet_flags, relevant_seats
from sponsio_sim.kernels.dd.moves import SHAKE, shaken
from sponsio_sim.kernels.dd.search import search, setup_root
from sponsio_sim.kernels.dd.solve import COOP_BUDGET, fresh_counters, solve_bets, workspace
from sponsio_sim.kernels.dd.tt import NO, UNKNOWN, YES
from sponsio_sim.rules import load_rules

from sponsio_reference import bet_question, bet_tuple
from sponsio_helpers import random_position, small_rules


class Asker:
    """One bet question on one deal, asked through ``search`` directly with
    a chosen budget, shake and table stamp (what ``solve_bets`` does per
    attempt)."""

    def __init__(self, rules, hands, leader, trick, seat, bets, maxside):
        self.players = rules.players
        self.n_col = rules.n_colours
        self.hands = np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)
        self.leader = leader
        self.trick = np.array(trick, dtype=np.int64)
        self.seat = seat
        self.codes, self.counts = encode_table({seat: bets}, self.players)
        self.maxside = maxside
        self.colmask = colour_masks(self.n_col)
        self.nines = np.uint64(nines_mask(self.n_col))
        self.work = workspace(self.players, self.n_col, self.players * 9)
        self.start_tally = fresh_counters(self.players, self.n_col)

    def ask(self, budget, shake, stamp):
        deciding_seats = relevant_seats(self.codes, self.counts, self.seat)
        any_fail, any_nines = bet_flags(self.codes, self.counts, deciding_seats)
        bet_results = np.zeros((self.players, 5), dtype=np.int64)
        seat_failed = np.zeros(self.players, dtype=np.int64)
        setup_root(self.hands, self.leader, self.trick, self.start_tally, self.work)
        plies, ply_cards, tally, table = self.work
        return search(self.hands, self.colmask, self.nines, np.int64(MODE_BET), np.int64(0),
                      np.int64(self.maxside), np.int64(0), self.codes, self.counts, np.int64(self.seat),
                      np.int64(deciding_seats), np.bool_(any_fail), np.bool_(any_nines), np.uint64(0), plies,
                      ply_cards, tally, table, np.uint64(stamp), bet_results, seat_failed, np.int64(budget),
                      np.uint64(shake))

    def restarted(self, first_budget, shake0, stamp):
        """Attempts with budgets first_budget, x2, ... in shaken orders on
        one stamp until one answers: (answer, attempts stopped)."""
        budget = first_budget
        for attempt in range(40):
            v, _ = self.ask(budget, shake0 + attempt, stamp)
            if v != UNKNOWN:
                return v, attempt
            budget *= 2
        raise AssertionError("no answer after 40 attempts")


def test_shaken_is_deterministic_and_in_range():
    vals = [shaken(np.uint64(s), c, d) for s in (1, 2, 7) for c in range(36) for d in range(33)]
    assert all(0 <= v < SHAKE for v in vals)
    assert len(set(vals)) > SHAKE // 2          # spread over the range
    assert shaken(np.uint64(3), 5, 7) == shaken(np.uint64(3), 5, 7)
    assert shaken(np.uint64(3), 5, 7) != shaken(np.uint64(4), 5, 7) or shaken(np.uint64(3), 6, 7) != \
        shaken(np.uint64(4), 6, 7)


def full_deal(seed):
    rng = np.random.default_rng(seed)
    cards = rng.permutation(36)[:32]
    return [sorted(int(c) for c in cards[s * 8:(s + 1) * 8]) for s in range(4)], int(rng.integers(4))


def test_budget_stops_the_search_and_hands_the_deal_back():
    rules = load_rules(players=4)
    stopped = 0
    for seed in range(12):
        hands, leader = full_deal(seed)
        for bet, maxside in (("colour:G=6", 15), ("tricks=2", 1)):
            q = Asker(rules, hands, leader, [], 0, parse_bet_set(bet, rules, 0), maxside)
            before = q.hands.copy()
            v, nodes = q.ask(budget=30, shake=0, stamp=1)
            assert np.array_equal(q.hands, before)
            if v == UNKNOWN:
                stopped += 1
                assert nodes > 30
            # What the stopped attempt stored is proven: going on with the same
            # stamp gives the fresh answer.
            fresh, _ = q.ask(budget=0, shake=0, stamp=3)
            assert q.ask(budget=0, shake=5, stamp=1)[0] == fresh
            assert np.array_equal(q.hands, before)
    assert stopped >= 12


CASES = [(4, 3, False)] * 20 + [(4, 3, True)] * 10 + [(3, 4, False)] * 10 + [(3, 4, True)] * 6 \
    + [(4, 4, False)] * 4


@pytest.mark.parametrize("case", range(len(CASES)))
def test_restarts_with_tiny_budgets_match_minimax(case):
    """Budgets of 1, 2, 4, ... nodes stop almost every question several
    times; each attempt in another shaken order, one table throughout."""
    players, hand, mid = CASES[case]
    rng = random.Random(7000 + case)
    rules = small_rules(players, hand)
    hands, leader, trick = random_position(rng, players, hand, mid)
    seat = rng.randrange(players)
    cat = [b for b in catalogue(rules, seat) if b.kind != "fail"]
    for bet in rng.sample(cat, 4):
        for worst in (False, True):
            maxside = (1 << seat) if worst else (1 << players) - 1
            q = Asker(rules, hands, leader, trick, seat, [bet], maxside)
            v, attempts = q.restarted(1, 1 + case, stamp=1)
            want = bet_question(hands, leader, seat, {seat: [bet_tuple(bet)]}, worst, trick)
            assert (v == YES) == want, (bet.notation(rules), worst)
            # Every question that takes more than one node was stopped.
            _, nodes = q.ask(budget=0, shake=0, stamp=2)
            assert attempts >= 1 or nodes <= 1


def test_restarts_keep_full_deal_answers():
    """``solve_bets``' best case (with restarts) against one unlimited
    search in the usual order, on questions that outrun the first budget."""
    rules = load_rules(players=4)
    colmask = colour_masks(4)
    nines = np.uint64(nines_mask(4))
    work = workspace(4, 4, 32)
    empty = np.zeros(0, dtype=np.int64)
    ctr0 = fresh_counters(4, 4)
    restarted = 0
    answers = set()
    stamp = 10
    for seed in range(40):
        hands, leader = full_deal(100 + seed)
        for bet in ("colour:R=8", "colour:B=7", "tricks=7", "colour:Y=0,tricks=3"):
            bets = parse_bet_set(bet, rules, 0)
            codes, counts = encode_table({0: bets}, 4)
            stamp += 1
            h = np.array([sum(1 << c for c in x) for x in hands], dtype=np.uint64)
            ok, nodes = solve_bets(h, leader, empty, ctr0, colmask, nines,
                                   BetQuestion(codes, counts, 0, 15, np.uint64(0)), work, np.uint64(stamp))
            restarted += nodes > COOP_BUDGET
            q = Asker(rules, hands, leader, [], 0, bets, 15)
            plain, _ = q.ask(budget=0, shake=0, stamp=1)
            assert ok == (plain == YES), (seed, bet)
            assert plain in (YES, NO)
            answers.add(ok)
    assert restarted >= 10
    assert answers == {True, False}
