"""Double-dummy solver against a brute-force minimax and against DDS."""

import random

import pytest
from click.testing import CliRunner

from sponsio_sim.analysis.dd import Question, solve
from sponsio_sim.bets import catalogue, parse_bet_set
from sponsio_sim.cards import parse_cards
from sponsio_sim.cli import main
from sponsio_sim.rules import load_rules

from sponsio_reference import bet_question, bet_tuple, coalition_tricks
from sponsio_helpers import (assert_bets_match_minimax, deal_text, random_position, skewed_position, small_rules,
                             trick_text)


CASES = [(4, 3, False)] * 25 + [(4, 3, True)] * 15 + [(3, 4, False)] * 15 + [(3, 4, True)] * 10 \
    + [(4, 4, False)] * 3


@pytest.mark.parametrize("case", range(len(CASES)))
def test_coalition_matches_minimax(case):
    players, hand, mid = CASES[case]
    rng = random.Random(1000 + case)
    rules = small_rules(players, hand)
    hands, leader, trick = random_position(rng, players, hand, mid)
    size = rng.randrange(1, players)
    coalition = sorted(rng.sample(range(players), size))
    df = solve(deal_text(hands, rules), Question(lead=leader, trick=trick_text(trick, rules),
               coalition=",".join(map(str, coalition))), rules=rules).table
    ref = coalition_tricks(hands, leader, coalition, trick)
    assert int(df["tricks"].iloc[0]) == ref


SKEWED = [(4, 3)] * 8 + [(3, 4)] * 6 + [(4, 4)] * 2


@pytest.mark.parametrize("case", range(len(SKEWED)))
def test_coalition_matches_minimax_on_skewed_deals(case):
    """Cards from two or three colours only: voids and long colours, where
    the sure-trick and sweep bounds decide most positions."""
    players, hand = SKEWED[case]
    rng = random.Random(3000 + case)
    rules = small_rules(players, hand)
    hands, leader, _, _ = skewed_position(rng, players, hand, False, two_upto=18)
    coalition = sorted(rng.sample(range(players), rng.randrange(1, players)))
    df = solve(deal_text(hands, rules), Question(lead=leader, coalition=",".join(map(str, coalition))),
               rules=rules).table
    assert int(df["tricks"].iloc[0]) == coalition_tricks(hands, leader, coalition)


def random_bets(rng, rules, seat):
    cat = [b for b in catalogue(rules, seat) if b.kind != "fail"]
    chosen = {}
    for b in rng.sample(cat, rng.randrange(1, 3)):
        chosen.setdefault(b.kind, b)
    return list(chosen.values())


@pytest.mark.parametrize("case", range(len(CASES)))
def test_bets_match_minimax(case):
    players, hand, mid = CASES[case]
    rng = random.Random(2000 + case)
    rules = small_rules(players, hand)
    hands, leader, trick = random_position(rng, players, hand, mid)
    seat = rng.randrange(players)
    mine = random_bets(rng, rules, seat)
    others = {}
    if case % 3 == 0:  # a fail bet on another seat that holds bets
        target = (seat + 1) % players
        others[target] = random_bets(rng, rules, target)
        mine = [b for b in mine if b.kind != "fail"][:1] + [next(b for b in catalogue(rules, seat)
                                                              if b.kind == "fail" and b.a == target)]
        if case % 2 == 0:  # and a fail chain back onto the asking seat
            others[target] = others[target][:1] + [next(b for b in catalogue(rules, target)
                                                         if b.kind == "fail" and b.a == seat)]
    assert_bets_match_minimax(rules, hands, leader, trick, seat, mine, others)


CLASH_BETS = ["tricks=0,last", "tricks=1,last", "tricks=2,last", "nines,tricks=0", "nines,tricks=1",
              "nines,tricks=1,last", "nines,last"]


@pytest.mark.parametrize("case", range(21))
def test_bets_that_clash_match_minimax(case):
    """Bets that can each succeed but not together (last or the seat's 9s
    win tricks beyond an exact trick bet) are cut early; still exact."""
    players, hand = ((4, 4), (3, 4), (4, 3))[case % 3]
    rng = random.Random(3000 + case)
    rules = small_rules(players, hand)
    hands, leader, trick = random_position(rng, players, hand, case % 2 == 1)
    seat = rng.randrange(players)
    notation = CLASH_BETS[case % len(CLASH_BETS)]
    df = solve(deal_text(hands, rules), Question(lead=leader, trick=trick_text(trick, rules), seat=seat,
               bets=notation), rules=rules).table
    table = {seat: [bet_tuple(b) for b in parse_bet_set(notation, rules, seat)]}
    assert bool(df["worst"].iloc[0]) == bet_question(hands, leader, seat, table, True, trick), notation
    assert bool(df["best"].iloc[0]) == bet_question(hands, leader, seat, table, False, trick), notation


def test_trick_bet_exactly_reachable_after_the_other_side_cashes():
    """Seat 1 leads with one sure trick (Y9); seat 0 still makes exactly 2
    with its two top cards: the sure-trick bound must not cut it off."""
    rules = small_rules(4, 3)
    text = "R9 B9 Y1 | Y9 R1 B1 | G1 G2 G3 | G4 G5 G6"
    df = solve(text, Question(lead=1, seat=0, bets="tricks=2"), rules=rules).table
    hands = [sorted(parse_cards(part, rules, "deal")) for part in text.split("|")]
    assert bet_question(hands, 1, 0, {0: [("tricks", 2)]}, True) is True
    assert bool(df["worst"].iloc[0]) and bool(df["best"].iloc[0])


def test_every_catalogue_bet_on_one_deal():
    rng = random.Random(7)
    rules = small_rules(4, 3)
    hands, leader, _ = random_position(rng, 4, 3, False)
    text = deal_text(hands, rules)
    seen_true = set()
    for bet in catalogue(rules, 1):
        df = solve(text, Question(lead=leader, seat=1, bets=bet.notation(rules)), rules=rules).table
        table = {1: [bet_tuple(bet)]}
        for col, worst in (("worst", True), ("best", False)):
            ref = bet_question(hands, leader, 1, table, worst)
            assert bool(df[col].iloc[0]) == ref, (bet, col)
            seen_true.add((col, ref))
    assert seen_true == {("worst", True), ("worst", False), ("best", True), ("best", False)}


def _pbn(hands):
    ranks = "23456789T"
    return "N:" + " ".join(".".join("".join(ranks[r] for r in range(8, -1, -1) if r + 9 * col in h)
                                     for col in range(4)) for h in hands)


def test_coalition_matches_dds():
    pytest.importorskip("endplay")
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    rng = random.Random(31)
    rules = load_rules(players=4)
    checked = 0
    for leader in range(4):
        deals = []
        for _ in range(50):
            cards = rng.sample(range(36), 32)
            deals.append([set(cards[s * 8:(s + 1) * 8]) for s in range(4)])
        df = solve([deal_text(h, rules) for h in deals], Question(lead=leader, coalition="0,2"), rules=rules).table
        for hands, ours in zip(deals, df["tricks"]):
            deal = Deal(_pbn(hands))
            deal.first = Player(leader)
            deal.trump = Denom.nt
            side = max(score for _, score in solve_board(deal, SolveMode.OptimalOne))
            ns = side if leader % 2 == 0 else 8 - side
            assert int(ours) == ns
            checked += 1
    assert checked == 200


DEAL = "R9 R7 R2 B8 B5 G6 G1 Y3 | R8 R6 B9 B7 G9 G5 Y9 Y1 | R5 R4 B6 B4 G8 G4 Y8 Y6 | R3 R1 B3 B2 G7 G3 Y5 Y4"


@pytest.mark.parametrize("args, fragment", [
    (["--deal", DEAL.replace("R9", "R0"), "--coalition", "0,2"], "unknown card 'R0'"),
    (["--deal", DEAL.replace("R8", "R9"), "--coalition", "0,2"], "card R9 is in seats 0 and 1"),
    (["--deal", DEAL.replace("Y3 |", "|"), "--coalition", "0,2"], "equal sizes"),
    (["--deal", DEAL, "--coalition", "0,1,2,3"], "some seats but not all"),
    (["--deal", DEAL, "--seat", "0", "--bets", "tricks=9"], "tricks must be 0..8"),
    (["--deal", DEAL], "nothing to solve"),
    (["--deal", DEAL.replace("R9 ", "").replace("B9 ", ""), "--coalition", "0", "--trick", "R9 B9"],
     "seat 1 played B9 but holds R"),
    (["--deal", DEAL, "--coalition", "0", "--trick", "B9"], "--trick card B9 is also in a hand"),
])
def test_bad_input_is_one_line_exit_2(args, fragment):
    res = CliRunner().invoke(main, ["dd", *args])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], res.output


def test_batch_file_json_in_input_order(tmp_path):
    import json

    rules = load_rules(players=4)
    rng = random.Random(5)
    deals = []
    for _ in range(6):
        cards = rng.sample(range(36), 32)
        deals.append(deal_text([sorted(cards[s * 8:(s + 1) * 8]) for s in range(4)], rules))
    path = tmp_path / "deals.txt"
    path.write_text("# six deals\n" + "\n".join(deals) + "\n")
    res = CliRunner().invoke(main, ["dd", "--deals", str(path), "--coalition", "0,2", "--seat", "0",
                                    "--bets", "tricks=2", "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)["rows"]
    assert [r["deal"] for r in rows] == list(range(1, 7))
    for text, row in zip(deals, rows):
        one = solve(text, Question(coalition="0,2", seat=0, bets="tricks=2"), rules=rules).table
        assert row["tricks"] == int(one["tricks"].iloc[0])
        assert row["worst"] == bool(one["worst"].iloc[0]) and row["best"] == bool(one["best"].iloc[0])
        assert row["nodes"] > 0 and (row["best"] or not row["worst"])
        # whichever worker took the deal, and whatever it solved before, the search is the same
        assert row["nodes"] == int(one["nodes"].iloc[0])
        assert isinstance(row["ms"], float) and row["ms"] >= 0
    assert sum(r["ms"] for r in rows) > 0
