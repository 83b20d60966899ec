"""Rule conformance of the trick phase and bet settlement on hand-made deals."""

import numpy as np
import pytest

from sponsio_sim.bets import encode_table, parse_bet_set
from sponsio_sim.cards import mask_of, parse_cards
from sponsio_sim.kernels.bets import settle
from sponsio_sim.rules import load_rules

from sponsio_helpers import outcome, play_deal


def tiny(players=3, hand=2, colours=("R", "B", "G")):
    return load_rules("standard-3p" if players == 3 else "standard-4p",
                      overrides={"players": players, "hand_size": hand, "colours": list(colours)})


@pytest.mark.parametrize("policy", [0, 1, 2])
def test_follow_colour_and_winner_leads(policy):
    r = tiny()
    # Trick 1: seat 0 leads red; seats 1 and 2 must follow with their only red.
    # Seat 1's R9 wins, so seat 1 (not seat 0) leads trick 2 with B1; seat 2's B2 wins it.
    tricks, won, last, nines = play_deal(r, ["R1 R2", "R9 B1", "R3 B2"], policy=policy)
    assert tricks == [0, 1, 1]
    assert last == 2
    assert won[2] == mask_of(parse_cards("B1 B2", r)) | (won[2] & mask_of(parse_cards("R1 R2", r)))
    assert nines


@pytest.mark.parametrize("policy", [0, 1, 2])
def test_no_trumps_highest_of_led_colour_wins(policy):
    r = tiny(hand=1)
    # A high card of another colour never beats the led colour.
    tricks, won, last, _ = play_deal(r, ["R1", "B9", "G9"], policy=policy)
    assert tricks == [1, 0, 0] and last == 0
    assert won[0] == mask_of(parse_cards("R1 B9 G9", r))


def test_following_does_not_oblige_higher():
    r = tiny(hand=1)
    tricks, _, _, _ = play_deal(r, ["R5", "R1", "R2"], leader=0)
    assert tricks == [1, 0, 0]


@pytest.mark.parametrize("policy", [0, 1, 2])
def test_two_nines_in_one_trick_fail_nines(policy):
    r = tiny(hand=1)
    # R9 is led and wins; B9 is discarded and does not win its trick.
    _, _, _, nines = play_deal(r, ["R9", "B9", "R1"], policy=policy)
    assert not nines


def test_nine_in_talon_does_not_count():
    r = tiny(hand=1)
    _, _, _, nines = play_deal(r, ["R8", "B1", "R1"], talon="R9 B9 G9")
    assert nines


def test_led_nine_wins_nines_ok():
    r = tiny(hand=1)
    _, _, _, nines = play_deal(r, ["B1", "B9", "R1"], leader=1)
    assert nines


def _settle(r, tricks, won, last, nines_ok, bets):
    codes, counts = encode_table({s: parse_bet_set(b, r, s) for s, b in bets.items()}, r.players)
    result = np.zeros((r.players, codes.shape[1]), dtype=np.int64)
    failed = np.zeros(r.players, dtype=np.bool_)
    board, game_state = outcome(r, tricks, won, last)
    settle(codes, counts, board, game_state, 0 if nines_ok else (1 << r.players) - 1, result, failed)
    return {s: [bool(result[s, i]) for i in range(counts[s])] for s in bets}, failed


def test_settle_every_bet_type():
    r = load_rules()
    won = ["R1 B2 G3 Y4 R5 R6 B7 Y9", "", "R9 R8 R7 R4 B1 B3 G1 G2", ""]
    res, failed = _settle(r, [2, 0, 2, 4], won, 3, False, {
        0: "tricks=2,colour:R=3,last,nines",
        1: "tricks=0,fail:0",
        2: "colour:R=4,fail:1",
    })
    assert res[0] == [True, True, False, False]
    assert res[1] == [True, True]      # seat 0 failed a bet, so fail:0 wins
    assert res[2] == [True, False]     # seat 1 won everything, so fail:1 loses
    assert list(failed) == [True, False, True, False]


def test_colour_bet_counts_other_players_cards():
    r = load_rules()
    # Seat 0 won a trick in which the three other players played red cards.
    won = ["B9 R1 R2 R3", "", "", ""]
    assert _settle(r, [1, 0, 0, 0], won, 0, True, {0: "colour:R=3"})[0][0] == [True]
    assert _settle(r, [1, 0, 0, 0], won, 0, True, {0: "colour:B=1"})[0][0] == [True]
    assert _settle(r, [1, 0, 0, 0], won, 0, True, {0: "colour:R=1"})[0][0] == [False]


def test_fail_on_seat_without_bets_loses():
    r = load_rules()
    res, _ = _settle(r, [0, 0, 0, 0], ["", "", "", ""], 0, True, {0: "fail:2"})
    assert res[0] == [False]


def test_colour_zero_and_tricks_zero():
    r = load_rules()
    res, _ = _settle(r, [0, 1, 0, 0], ["", "R1 R2 R3 R4", "", ""], 1, True,
                     {0: "tricks=0,colour:R=0", 1: "tricks=0,colour:R=0"})
    assert res[0] == [True, True]
    assert res[1] == [False, False]
