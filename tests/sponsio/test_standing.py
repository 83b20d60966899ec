"""One validation for every way into a table state (``sponsio_sim.standing``): the same bad
coins, track, round, seat or question option is refused with the same words whether it comes
as a command-line option, in a `--state` excerpt or as a `sponsio table` line; each way names
where the value came from before them. Nothing here runs a kernel."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.advise.session import Session
from sponsio_sim.cli import main
from sponsio_sim.cli.table import check_option
from sponsio_sim.rules import load_rules

RULES = load_rules(None, 4)
HAND, TALON = "R9 R5 R2 B6 G6 Y8 Y3 Y1", "R3 B9 G7 G5"
SEATS = ["R9 R5 R2 B6 G6 Y8 Y3 Y1", "R8 R6 R4 B8 B7 B4 G4 Y6", "R7 B5 B3 B2 B1 G9 G1 Y2", "R1 G8 G3 G2 Y9 Y7 Y5 Y4"]


def excerpt(coins=("10",) * 4, track=("0",) * 4, round_no="1", dealer="3") -> str:
    lines = [f"Round {round_no}: dealer seat {dealer}, seat 0 acts first"]
    lines += [f"  seat {s} ({coins[s]} coins, track {track[s]}): {SEATS[s]}" for s in range(4)]
    return "\n".join(lines + [f"  talon: {TALON}", "  betting:"]) + "\n"


def by_option(tmp_path, *args) -> str:
    """The one-line refusal of `sponsio advise` with these options (exit 2, before any work)."""
    res = CliRunner().invoke(main, ["advise", "--hand", HAND, "--talon", TALON, "--dealer", "3", *map(str, args)])
    assert res.exit_code == 2 and res.stdout == "", (res.exit_code, res.output)
    line, = res.stderr.strip().splitlines()
    assert line.startswith("error: ")
    return line[len("error: "):]


def by_state(tmp_path, **kw) -> str:
    path = tmp_path / "state.txt"
    path.write_text(excerpt(**kw))
    res = CliRunner().invoke(main, ["advise", "--state", str(path), "-n", "100"])
    assert res.exit_code == 2 and res.stdout == "", (res.exit_code, res.output)
    line, = res.stderr.strip().splitlines()
    return line[len("error: "):]


def by_table(*lines) -> str:
    s = Session(RULES, seat=0, check_option=check_option)
    for ln in lines[:-1]:
        s.handle(ln)
    before = s.show()
    with pytest.raises(UserError) as e:
        s.handle(lines[-1])
    assert s.show() == before   # a refused line changes nothing
    return " ".join(str(e.value).split())


def after(prefix: str, message: str) -> str:
    """The refusal's words after the name of where the value came from."""
    assert message.startswith(prefix), (prefix, message)
    return message[len(prefix):]


@pytest.mark.parametrize("kind,values,seat,words", [
    ("coins", "10,10,10,-1", 3, "seat 3 has -1 coins (0 to under 30 while the game goes on)"),
    ("coins", "1e3,10,10,10", 0, "seat 0 has 1000 coins (0 to under 30 while the game goes on)"),
    ("coins", "30,10,10,10", 0, "seat 0 has 30 coins (0 to under 30 while the game goes on)"),
    ("coins", "10,nan,10,10", 1, "'nan' is not a finite number (ASCII digits, e.g. 10 or 9.5)"),
    ("coins", "10,10,inf,10", 2, "'inf' is not a finite number (ASCII digits, e.g. 10 or 9.5)"),
    ("coins", "10,10,1e400,10", 2, "'1e400' is not a finite number (ASCII digits, e.g. 10 or 9.5)"),
    ("track", "99,0,0,0", 0, "seat 0 at track position 99 (0..8 while the game goes on)"),
    ("track", "0,-5,0,0", 1, "seat 1 at track position -5 (0..8 while the game goes on)"),
    ("track", "0,0,9,0", 2, "seat 2 at track position 9 (0..8 while the game goes on)"),
    ("track", "0,0,0,1.5", 3, "'1.5' is not a whole number (ASCII digits)"),
])
def test_bad_coins_and_track_are_refused_alike_three_ways(tmp_path, kind, values, seat, words):
    """As options, in an excerpt's seat line, as a session's coins/track line and as a narration
    line typed into the session."""
    assert after(f"--{kind}: ", by_option(tmp_path, f"--{kind}", values)) == words
    each = values.split(",")
    assert after(f"--state line {seat + 2}: ", by_state(tmp_path, **{kind: each})) == words
    assert after(f"'{kind} {values}': ", by_table(f"{kind} {values}")) == words
    coins, track = (each[seat], "0") if kind == "coins" else ("10", each[seat])
    line = f"seat {seat} ({coins} coins, track {track}): {SEATS[seat]}"
    assert after(f"'{line}': ", by_table(line)) == words


def test_digits_of_other_scripts_are_refused_every_way(tmp_path):
    words = "'٣' is not a finite number (ASCII digits, e.g. 10 or 9.5)"
    assert after("--state line 4: ", by_state(tmp_path, coins=["10", "10", "٣", "10"])) == words
    assert after("'coins 10,10,٣,10': ", by_table("coins 10,10,٣,10")) == words
    # the options' own type refuses any non-ASCII text first
    assert "non-ASCII character '٣'" in by_option(tmp_path, "--coins", "10,10,٣,10")


@pytest.mark.parametrize("value,words", [("6", "round 6: rounds are 1..5 (rule set standard-4p)"),
                                         ("0", "round 0: rounds are 1..5 (rule set standard-4p)"),
                                         ("99999999999999999999", "round 99999999999999999999: rounds are 1..5 "
                                                                  "(rule set standard-4p)")])
def test_bad_rounds_are_refused_alike_three_ways(tmp_path, value, words):
    if value != "0":   # click refuses --round 0 itself: "--round 0: must be at least 1"
        assert after("--round: ", by_option(tmp_path, "--round", value)) == words
    assert after("--state line 1: ", by_state(tmp_path, round_no=value)) == words
    assert after(f"'round {value}': ", by_table(f"round {value}")) == words


def test_bad_seats_are_refused_alike_three_ways(tmp_path):
    words = "seat 4 out of range 0..3"
    assert after("--dealer: ", by_option(tmp_path, "--dealer", "4")) == words
    assert after("--seat: ", by_option(tmp_path, "--seat", "4")) == words
    assert after("--state line 1: ", by_state(tmp_path, dealer="4")) == words
    assert after("'dealer 4': ", by_table("dealer 4")) == words
    assert after("'seat 4': ", by_table("seat 4")) == words


@pytest.mark.parametrize("option,words", [("-n 0", "-n 0: must be at least 1"),
                                          ("-n 100001", "-n 100001: must be at most 100,000"),
                                          ("--worlds 0", "--worlds 0: must be at least 1"),
                                          ("--seed 1.5", "--seed '1.5': not an integer"),
                                          ("--play nosuch", "'nosuch' is not one of")])
def test_question_options_are_read_as_the_one_shot_command_reads_them(tmp_path, option, words):
    flag, value = option.split()
    res = CliRunner().invoke(main, ["advise", "--hand", HAND, "--talon", TALON, "--dealer", "3", flag, value])
    assert res.exit_code == 2 and words in res.stderr, res.stderr
    assert words in by_table(f"advise {option}")


def test_a_huge_junk_line_is_not_echoed_back():
    message = by_table("x" * 50_000_000)
    assert message == ("a line of 50,000,000 characters: longer than any line a session reads (10,000 at most); "
                       "nothing changed")
    message = by_table("1: " + "y" * 9000)
    assert len(message) < 400 and "... (9,003 characters)" in message
