"""Rule sets, card notation and bet notation."""

import pytest
from hypothesis import given, strategies as st

from tabletop_mc.errors import UserError
from sponsio_sim.bets import Bet, catalogue, parse_bet, parse_bet_set, parse_others
from sponsio_sim.cards import card_name, format_cards, mask_of, parse_cards
from sponsio_sim.rules import load_rules


def test_standard_rule_sets():
    four, three = load_rules(), load_rules(players=3)
    assert (four.players, four.deck_size, four.talon_size) == (4, 36, 4)
    assert (three.players, three.colours, three.talon_size) == (3, ("R", "B", "G"), 3)
    assert four.stated_multipliers() == {"tricks": 3, "colour": 4, "last": 2, "nines": 3, "fail": 2}
    assert four.multiplier["first"] == 2.0 and "first" not in four.bets   # a kind beyond the spec, off
    assert four.track_value == (0, 1, 2, 4, 6, 9, 12, 16, 20)


def test_overrides_and_per_parameter_multipliers():
    r = load_rules(overrides=["multiplier.last=5", "multiplier_param.tricks.0=7",
                              "multiplier_param.colour.R0=9", "troll_pay=3"])
    assert r.multiplier_for(Bet("last")) == 5
    assert r.multiplier_for(Bet("tricks", 0)) == 7 and r.multiplier_for(Bet("tricks", 1)) == 3
    assert r.multiplier_for(Bet("colour", 0, 0)) == 9 and r.multiplier_for(Bet("colour", 1, 0)) == 4
    assert r.troll_pay == 3
    assert load_rules(r, overrides={"round_bonus": 0}).round_bonus == 0


@pytest.mark.parametrize("override,msg", [
    ("nosuch=1", "unknown rule key 'nosuch'"),
    ("multiplier.nosuch=1", "unknown rule key 'multiplier.nosuch'"),
    ("players=x", "'players' must be an integer"),
    ("colours=[\"R\",\"Q\"]", "'colours' must be a list"),
    ("track_value=[0,1]", "'track_value' needs one value per position"),
    ("multiplier_param.tricks.12=3", "unknown key 'multiplier_param.tricks.12'"),
    ("bets=[\"tricks\",\"poker\"]", "'bets' must be a list"),
    ("players", "expected key=value"),
])
def test_bad_overrides(override, msg):
    with pytest.raises(UserError, match=msg.replace("[", r"\[").replace("(", r"\(")):
        load_rules(overrides=[override])


def test_card_notation_round_trip_and_errors():
    r = load_rules()
    ids = parse_cards("R9 r7, g3  Y1", r)
    assert [card_name(c, r) for c in ids] == ["R9", "R7", "G3", "Y1"]
    assert format_cards(mask_of(ids), r) == "R9 R7 G3 Y1"
    for bad, msg in (("R0", "unknown card"), ("Z5", "unknown card"), ("R10", "unknown card"),
                     ("R1 r1", "listed twice")):
        with pytest.raises(UserError, match=msg):
            parse_cards(bad, r)
    with pytest.raises(UserError, match="does not exist"):
        parse_cards("Y1", load_rules(players=3))


@given(st.lists(st.integers(0, 35), unique=True, max_size=12))
def test_format_parse_round_trip(ids):
    r = load_rules()
    assert sorted(parse_cards(format_cards(ids, r), r)) == sorted(ids)


def test_bet_notation():
    r = load_rules()
    for text in ("tricks=0", "tricks=8", "colour:R=0", "colour:Y=9", "last", "nines", "fail:3"):
        assert parse_bet(text, r, 0).notation(r) == text
    assert parse_bet("Color:g=2", r, 0) == Bet("colour", 2, 2)
    assert parse_others("1:tricks=3; 2:colour:R=0,last", r, 0) == {
        1: [Bet("tricks", 3)], 2: [Bet("colour", 0, 0), Bet("last")]}
    assert len(catalogue(r, 0)) == 9 + 40 + 2 + 3
    with pytest.raises(UserError, match="two 'colour' bets"):
        parse_bet_set("colour:R=1,colour:B=2", r, 0)
    restricted = load_rules(overrides=['bets=["tricks","last"]'])
    with pytest.raises(UserError, match="not in rule set"):
        parse_bet("nines", restricted, 0)
    assert len(catalogue(restricted, 0)) == 10
