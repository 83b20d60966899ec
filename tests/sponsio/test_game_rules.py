"""Hand-made rounds checking the full game's rules (docs/rules-sponsio.md sections 2, 3, 6, 7)
on the kernels' own entry points: ``apply_action`` (the one gate every
betting action passes), the end-of-betting token effects, ``score_round``
and ``end_check``."""

import numpy as np
import pytest

from sponsio_sim.analysis.game.model import SuccessModel, fingerprint
from sponsio_sim.analysis.game.setup import build_state, parse_profile, rows_of
from sponsio_sim.bets import parse_bet
from sponsio_sim.cards import mask_of, parse_cards
from sponsio_sim.kernels.layout import (BET, BOARD, DOUBLE_TOKEN, END_COINS, END_ROUNDS, END_TRACK, GAME, LEAD_TOKEN,
                                        MAX_BETS, MONEY, PASS, REBET_TOKEN, SWAP, TOKEN)
from sponsio_sim.kernels.betting.phase import apply_action, apply_double, apply_rebet, leader_of
from sponsio_sim.kernels.game.engine import end_check, start_game, start_round
from sponsio_sim.kernels.betting.scoring import load_bets, score_round
from sponsio_sim.rules import load_rules

from sponsio_helpers import write_outcome

R4 = load_rules("standard-4p")
HANDS4 = ["R9 R8 R7 B9 B8 G9 G8 Y9", "R1 R2 R3 R4 B1 B2 B3 B4", "G1 G2 G3 G4 Y1 Y2 Y3 Y4",
          "R5 R6 B5 B6 G5 G6 Y5 Y6"]
TALON4 = "B7 G7 Y7 Y8"


def blank_model(rules):
    from sponsio_sim.kernels.layout import model_sizes
    z = np.zeros(sum(model_sizes(rules.hand_size)))
    return SuccessModel(fingerprint(rules), rules.hand_size, z, z)


class Table:
    """A round in progress, dealt by hand: kernel state plus readable helpers."""

    def __init__(self, rules=R4, profile="troll:goal x4", hands=HANDS4, talon=TALON4):
        self.r = rules
        self.board, self.game_state, self.w = build_state(rules, parse_profile(profile, rules), blank_model(rules))
        start_game(0, self.game_state, self.w)
        start_round(self.board, self.game_state, self.w)
        for s, h in enumerate(hands):
            self.board[BOARD.hands + s] = mask_of(parse_cards(h, rules))
        self.board[BOARD.talon] = mask_of(parse_cards(talon, rules))
        self.rows = [b.notation(rules) for b in rows_of(rules)]

    def c(self, card):
        return parse_cards(card, self.r)[0]

    def row(self, bet):
        return self.rows.index(bet)

    def act(self, s, act, x=-1, y=-1, rv=None):
        return bool(apply_action(s, act, x, y, -1 if rv is None else self.c(rv), self.board, self.game_state, self.w))

    def bet(self, s, bet, rv):
        return self.act(s, BET, self.row(bet), -1, rv)

    def coins(self, s):
        return float(self.w[MONEY.coins + s])

    def set_coins(self, seat=None, value=None, *, every=None):
        """One seat's coins (``seat``, ``value``), or every seat's (``every``)."""
        if every is not None:
            self.w[MONEY.coins:MONEY.coins + len(every)] = every
        else:
            self.w[MONEY.coins + seat] = value

    def track(self, s):
        return int(self.game_state[GAME.track + s])

    def set_track(self, *positions):
        """Every seat's streak-track position, seat 0 first."""
        self.game_state[GAME.track:GAME.track + len(positions)] = positions

    def set_round(self, n):
        """The rounds already played."""
        self.game_state[GAME.round] = n

    def bets_held(self, s):
        return int(self.game_state[GAME.bet_count + s])

    def revealed(self, card):
        return bool(int(self.board[BOARD.revealed]) & (1 << self.c(card)))

    def reveal_hand(self, s):
        """Every card of seat s shown (nothing left to reveal)."""
        self.board[BOARD.revealed] |= self.board[BOARD.hands + s]

    def score(self, tricks, won=None, last=0, nines_ok=True, nine_lost=None):
        """Settle with given trick counts / won cards; returns failed-bet count.
        ``nine_lost`` (seat bitmask) overrides ``nines_ok`` (False: every seat's 9 lost)."""
        p = self.r.players
        if nine_lost is None:
            nine_lost = 0 if nines_ok else (1 << p) - 1
        codes = np.zeros((p, MAX_BETS, 4), dtype=np.int64)
        counts = np.zeros(p, dtype=np.int64)
        load_bets(self.game_state, codes, counts)
        write_outcome(self.board, self.game_state, self.r, tricks, won, last)
        result = np.zeros((p, MAX_BETS), dtype=np.int64)
        failed = np.zeros(p, dtype=np.bool_)
        return score_round(nine_lost, self.board, self.game_state, self.w, codes, counts, result, failed)

    def ledger(self, s):
        ledger = MONEY.named(self.w[:MONEY.size])
        return {k: float(ledger[k][s]) for k in ("stakes", "fees", "payout", "troll_paid", "bonus_paid", "cashed")}


def test_one_bet_per_type_and_never_on_own_failure():
    t = Table()
    assert t.bet(0, "tricks=2", "R9")
    assert not t.bet(0, "tricks=3", "R8")            # second tricks bet
    assert t.bet(0, "colour:R=3", "R8")
    assert not t.bet(0, "colour:B=1", "R7")          # colour bets on two colours are one type
    assert not t.bet(0, "fail:0", "R7")              # own failure
    assert t.bet(0, "fail:1", "R7")
    assert t.bet(0, "last", "B9") and t.bet(0, "nines", "B8")
    assert t.bets_held(0) == 5 and t.coins(0) == 10 - 5 * R4.stake


def test_zero_coins_or_less_than_the_stake_cannot_bet():
    t = Table()
    t.set_coins(seat=1, value=0)
    assert not t.bet(1, "tricks=0", "R1")
    assert t.coins(1) == 0 and t.bets_held(1) == 0
    r = load_rules("standard-4p", overrides=["stake=2"])
    t = Table(r)
    t.set_coins(seat=2, value=1)
    assert not t.bet(2, "tricks=0", "G1")
    t.set_coins(seat=2, value=2)
    assert t.bet(2, "tricks=0", "G1") and t.coins(2) == 0


def test_acting_reveals_an_unrevealed_own_card():
    t = Table()
    assert not t.bet(0, "tricks=1", "R1")            # not seat 0's card
    assert t.bet(0, "tricks=1", "R9")
    assert t.revealed("R9")
    assert not t.bet(0, "last", "R9")                # already revealed
    assert t.act(0, PASS)                            # passing reveals nothing
    t.reveal_hand(1)
    assert not t.bet(1, "last", "R1")                # nothing left to reveal: only pass
    assert t.act(1, PASS)


def test_tokens_are_exclusive_and_paid_by_coin_or_reveal():
    t = Table()
    assert t.act(0, TOKEN, LEAD_TOKEN, -1, "R9")   # coin
    assert t.coins(0) == 10 - R4.token_cost and t.ledger(0)["fees"] == R4.token_cost
    assert not t.act(1, TOKEN, LEAD_TOKEN, -1, "R1")  # taken: gone for the round
    assert not t.act(1, TOKEN, DOUBLE_TOKEN, t.c("R1"), "R1")  # the same card cannot pay twice
    assert t.act(1, TOKEN, DOUBLE_TOKEN, t.c("R2"), "R1")      # reveal pays
    assert t.coins(1) == 10 and t.revealed("R2")
    t.set_coins(seat=2, value=0)
    assert not t.act(2, TOKEN, REBET_TOKEN, -1, "G1")          # no coin to pay
    only_lead = Table(load_rules("standard-4p", overrides=['tokens=["lead"]']))
    assert not only_lead.act(0, TOKEN, DOUBLE_TOKEN, -1, "R9")  # not in this rule set


def test_lead_token_holder_leads_the_first_trick():
    t = Table()
    assert leader_of(t.game_state) == 0                   # dealer is seat 3: seat 0 leads
    t.act(2, TOKEN, LEAD_TOKEN, -1, "G1")
    assert leader_of(t.game_state) == 2


def test_swap_exchanges_with_the_talon_and_makes_both_public():
    t = Table()
    assert not t.act(0, SWAP, t.c("R1"), t.c("B7"), "R9")   # R1 is not seat 0's
    assert not t.act(0, SWAP, t.c("R9"), t.c("R1"), "R9")   # R1 is not in the talon
    assert t.act(0, SWAP, t.c("R8"), t.c("B7"), "R9")
    hand, talon, rev = int(t.board[BOARD.hands]), int(t.board[BOARD.talon]), int(t.board[BOARD.revealed])
    assert hand & (1 << t.c("B7")) and not hand & (1 << t.c("R8"))
    assert talon & (1 << t.c("R8")) and not talon & (1 << t.c("B7"))
    assert rev & (1 << t.c("B7")) and rev & (1 << t.c("R9"))


def test_rebet_changes_a_parameter_within_the_type_and_double_doubles_the_payout():
    t = Table()
    t.bet(0, "tricks=2", "R9")
    t.bet(0, "last", "R8")
    assert not apply_rebet(0, 0, t.row("last"), t.game_state)          # another type
    assert not apply_rebet(0, 1, t.row("last"), t.game_state)          # no change
    assert apply_rebet(0, 0, t.row("tricks=3"), t.game_state)
    assert apply_double(0, 0, t.game_state) and not apply_double(0, 5, t.game_state)
    t.score([3, 2, 2, 1], last=0)
    mult = R4.multiplier
    assert t.ledger(0)["payout"] == 2 * mult["tricks"] * R4.stake + mult["last"] * R4.stake


def test_troll_pay_track_moves_and_bonus_ties():
    t = Table()
    t.set_track(2, 5, 0, 3)
    t.bet(0, "tricks=2", "R9")                                   # wins
    t.bet(1, "last", "R1")                                       # loses
    t.bet(1, "tricks=0", "R2")                                   # loses
    before = [t.coins(s) for s in range(4)]
    n_failed = t.score([2, 1, 3, 2], last=3)
    assert n_failed == 2
    pay = R4.troll_pay * 2
    assert t.ledger(2)["troll_paid"] == pay == t.ledger(3)["troll_paid"]
    assert t.ledger(0)["troll_paid"] == 0 == t.ledger(1)["troll_paid"]
    assert t.ledger(0)["payout"] == R4.multiplier["tricks"]
    # tricks x3 = 3 < troll pay 4: both trolls tie for the most and both get the bonus
    assert [t.ledger(s)["bonus_paid"] for s in range(4)] == [0, 0, R4.round_bonus, R4.round_bonus]
    assert [t.track(s) for s in range(4)] == [3, 0, 2, 5]        # +1 bet won; failed -> 0; trolls +2
    assert t.coins(2) == before[2] + pay + R4.round_bonus


def test_no_bonus_when_nobody_gains():
    t = Table()
    for s, rv in enumerate(["R9", "R1", "G1", "R5"]):
        t.bet(s, "tricks=8", rv)                                 # nobody wins 8 tricks
    t.score([2, 2, 2, 2], last=0)
    assert all(t.ledger(s)["bonus_paid"] == 0 for s in range(4))
    assert all(t.track(s) == 0 for s in range(4))


def test_cash_in_at_the_policy_threshold():
    t = Table(profile="troll:goal:cash2, troll:goal:cash4, troll:goal:never, troll:goal")
    t.set_track(1, 1, 1, 1)
    for s, rv in enumerate(["R9", "R1", "G1", "R5"]):
        t.bet(s, "tricks=2", rv)
    before = [t.coins(s) for s in range(4)]
    t.score([2, 2, 2, 2], last=0)                                # everyone wins: 1 -> 2
    assert t.track(0) == 0 and t.ledger(0)["cashed"] == R4.track_value[2]
    assert [t.track(s) for s in (1, 2, 3)] == [2, 2, 2]
    assert t.coins(0) - before[0] == t.coins(1) - before[1] + R4.track_value[2]


def test_nine_in_a_row_beats_thirty_coins():
    t = Table()
    t.set_track(8, 0, 0, 0)
    t.set_coins(seat=1, value=40)
    t.bet(0, "tricks=2", "R9")
    t.score([2, 2, 2, 2], last=0)
    assert t.track(0) == R4.track_win
    reason, winners = end_check(t.game_state, t.w)
    assert reason == END_TRACK and winners == 0b0001


def test_several_on_nine_the_richest_of_them_wins_then_shared():
    t = Table()
    t.set_track(9, 9, 9, 0)
    t.set_coins(every=[12, 15, 15, 50])
    assert end_check(t.game_state, t.w) == (END_TRACK, 0b0110)


def test_coins_end_richest_wins_and_ties_share():
    t = Table()
    t.set_coins(every=[30, 31, 12, 31])
    assert end_check(t.game_state, t.w) == (END_COINS, 0b1010)
    t.set_coins(every=[29, 29, 12, 28])
    assert end_check(t.game_state, t.w) == (0, 0)


def test_the_game_ends_after_the_last_round():
    t = Table()
    t.set_coins(every=[14, 20, 20, 3])
    t.set_round(R4.max_rounds - 1)
    assert end_check(t.game_state, t.w) == (0, 0)
    t.set_round(R4.max_rounds)
    assert end_check(t.game_state, t.w) == (END_ROUNDS, 0b0110)


def test_fail_bet_on_a_seat_without_bets_fails():
    t = Table()
    t.bet(0, "fail:2", "R9")                                     # seat 2 stays a troll
    t.score([2, 2, 2, 2], last=0)
    assert t.ledger(0)["payout"] == 0 and t.track(0) == 0
    assert t.ledger(2)["troll_paid"] == R4.troll_pay


@pytest.mark.parametrize("text", ["fail:1", "colour:G=2", "nines"])
def test_rows_cover_the_catalogue(text):
    t = Table()
    bet = parse_bet(text, R4, 0)
    assert t.rows[t.row(text)] == bet.notation(R4)
