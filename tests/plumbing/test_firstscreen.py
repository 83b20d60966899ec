"""tabletop_mc.verdicts and tabletop_mc.firstscreen: one vocabulary of verdict words, identities,
precision to the interval, and the change search on a made-up lever table."""

import html
import re

import pandas as pd
import pytest
from hypothesis import given, strategies as st

from tabletop_mc.errors import UserError
from tabletop_mc.firstscreen import Screen, check_bands, frame, page, search, strength_sentence
from tabletop_mc.verdicts import (DEPENDS, HEALTHY, TOO_HIGH, TOO_LOW, UNCLEAR, UNDERPOWERED, WORDS, combine,
                                  digits_for, fmt_ci, identity, rule_numbers, verdict)


@given(st.floats(-1, 1), st.floats(0, 1), st.floats(-1, 1), st.floats(0.001, 1))
def test_every_interval_gets_exactly_the_word_its_position_says(centre, width, lo, band):
    low, high, hi = centre - width / 2, centre + width / 2, lo + band
    w = verdict(low, high, lo, hi)
    assert w in WORDS
    assert (w == TOO_HIGH) == (low > hi) and (w == TOO_LOW) == (high < lo)
    assert (w == HEALTHY) == (lo <= low and high <= hi)
    if w == UNDERPOWERED:
        assert high - low > hi - lo


def test_words_combine_honestly():
    assert combine([TOO_HIGH, TOO_HIGH]) == TOO_HIGH
    assert combine([TOO_HIGH, HEALTHY]) == DEPENDS            # disagree beyond their intervals
    assert combine([TOO_HIGH, UNDERPOWERED]) == UNDERPOWERED  # a rung too wide to tell
    assert combine([TOO_HIGH, UNCLEAR]) == UNCLEAR


def test_identities_and_precision():
    assert identity(2.0, 2.0, 2.0, {2.0}) and identity(0.25, 0.25, 0.25)
    assert not identity(0.31, 0.29, 0.33, {2.0})
    assert rule_numbers({"a": [1, 2], "b": {"c": 3.5, "d": True}}) == {1.0, 2.0, 3.5}
    assert fmt_ci(0.4561, 0.4412, 0.4703) == "0.456 [0.441, 0.470]"
    assert digits_for(2.0, 4.0) == 1 and fmt_ci(3.0, 2.5, 3.5) == "3.00 [2.50, 3.50]"
    assert fmt_ci(0.725, float("nan"), float("nan"), sign=True, digits=3) == "+0.725 (no interval)"


def levels():
    rows = []
    def add(lever, value, std, measure, level, half):
        rows.append({"lever": lever, "value": value, "standard": std, "measure": measure, "level": level,
                     "level_low": level - half, "level_high": level + half, "n": 1000})
    for lever, values in (("pay", (0, 2, 4)), ("bonus", (1, 3))):
        for v in values:
            std = v == (2 if lever == "pay" else 3)
            troll = {"pay": {0: 0.30, 2: 0.55, 4: 0.70}, "bonus": {1: 0.50, 3: 0.55}}[lever][v]
            rounds = 3.0 if lever == "pay" or v == 3 else 2.0     # bonus 1: rounds fall out of band
            seat = {"pay": {0: 0.02, 2: 0.03, 4: 0.04}, "bonus": {1: 0.03, 3: 0.03}}[lever][v]
            add(lever, v, std, "troll", troll, 0.02)
            add(lever, v, std, "rounds", rounds, 0.1)
            add(lever, v, std, "seat", seat if lever == "bonus" or v != 0 else 0.02, 0.005)
    return pd.DataFrame(rows)


def test_search_picks_the_value_that_brings_a_measure_in_with_fewest_side_effects():
    bands = {"troll": (0.15, 0.40), "rounds": (2.5, 5.0), "seat": (-0.01, 0.01)}
    calls = []

    def confirm(setting):
        calls.append(setting)
        return {"troll": (0.31, 0.29, 0.33, 500)}
    judged, changes = search(levels(), bands, confirm)
    words = {j.measure: j.word for j in judged}
    assert words == {"troll": TOO_HIGH, "rounds": HEALTHY, "seat": TOO_HIGH}
    assert len(changes) == 1 and changes[0].levers == {"pay": (2, 0)} and changes[0].measure == "troll"
    assert calls == [{"pay": 0}] and changes[0].confirmed.inside
    text = changes[0].text()
    assert text.startswith("set pay from 2 to 0: troll moves from 0.550 [0.530, 0.570] to 0.300 [0.280, 0.320] "
                           "(band [0.15, 0.40]); on fresh seeds 0.310 [0.290, 0.330], confirmed")
    s = Screen("Game, 4 players", judged, changes, strength_sentence(0.01, -0.01, 0.03, 40, 0.25),
               (0.01, -0.01, 0.03, 40, 0.25))
    assert s.verdict() == ("Game, 4 players: not balanced: troll too high, seat too high; a change below for 1 "
                           "of 2: 1 confirmed on fresh seeds.")
    shown = html.unescape(re.sub(r"<[^>]+>", " ", page([s])))
    cells = {t for v in frame([s]).to_numpy().ravel() for t in re.findall(r"[+-]?\d+(?:[.,]\d+)*", str(v))}
    for number in re.findall(r"[+-]?\d+(?:[.,]\d+)*", shown):
        assert number in cells, number


@pytest.mark.parametrize("mc_level, word", [((0.30, 0.26, 0.34, 200), "holds"),
                                             ((0.47, 0.43, 0.51, 200), "does not hold"),
                                             ((0.42, 0.38, 0.46, 200), "unclear")])
def test_each_change_says_whether_it_holds_with_mc_at_every_seat(mc_level, word):
    bands = {"troll": (0.15, 0.40), "rounds": (2.5, 5.0), "seat": (-0.01, 0.01)}
    played = []

    def under_mc(setting):
        played.append(setting)
        return {"troll": mc_level}
    judged, changes = search(levels(), bands, lambda s: {"troll": (0.31, 0.29, 0.33, 500)}, under_mc=under_mc)
    c = changes[0]
    assert played == [{"pay": 0}] and c.holds_under_mc() == word
    held = Screen("Game, 4 players", judged, changes, "", ()).verdict()
    assert held.endswith(f"a change below for 1 of 2: 1 confirmed on fresh seeds, {int(word == 'holds')} "
                         "holding with mc at every seat.")
    assert c.text().endswith(f"confirmed; with mc at every seat {fmt_ci(*mc_level[:3])} (n = 200): {word}")
    s = Screen("Game, 4 players", [], changes, "", ())
    shown = html.unescape(re.sub(r"<[^>]+>", " ", page([s])))
    cells = {t for v in frame([s]).to_numpy().ravel() for t in re.findall(r"[+-]?\d+(?:[.,]\d+)*", str(v))}
    assert all(n in cells for n in re.findall(r"[+-]?\d+(?:[.,]\d+)*", shown))


def test_a_pair_is_predicted_when_no_single_value_fixes_a_measure():
    bands = {"troll": (0.15, 0.27)}
    df = levels()
    df = df[df["measure"] == "troll"]
    df.loc[(df["lever"] == "bonus") & (df["value"] == 1), "level"] = 0.50
    judged, changes = search(df, bands)
    c = changes[0]
    assert c.predicted and c.levers == {"pay": (2, 0), "bonus": (3, 1)}
    assert c.after.value == pytest.approx(0.30 + 0.50 - 0.55) and "(predicted)" in c.text()


def test_bands_that_cannot_be_met_or_name_nothing_are_one_line():
    with pytest.raises(UserError, match="cannot be met"):
        check_bands({"troll": (0.4, 0.1)}, ["troll"])
    with pytest.raises(UserError, match="no such measure"):
        check_bands({"trolls": (0.1, 0.4)}, ["troll"])
