"""A table state written back as a narration (``analysis.advise.narration``) reads back
to the same state, whatever the point of the round and with the other seats' hands
unknown ('?'), and the one-shot commands answer it as the session answers its state."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from sponsio_sim.analysis.advise.narration import narration
from sponsio_sim.analysis.advise.session import Question, Session
from sponsio_sim.analysis.advise.state import parse_narration
from sponsio_sim.analysis.game.narrate import narrate_game
from sponsio_sim.cli import main
from sponsio_sim.cli.table import _render, check_option
from sponsio_sim.rules import load_rules
from tabletop_mc.errors import UserError


def facts(st):
    return (st.round, st.dealer, st.coins, st.track, st.hands, st.talon, st.history, st.in_tricks(),
            st.cards_played(), st.settled)


@pytest.fixture(scope="module", params=[(4, 38), (3, 5)], ids=["4p", "3p"])
def game(request):
    players, seed = request.param
    rules = load_rules(None, players)
    return rules, narrate_game("reference", seed=seed, rules=rules).text.splitlines()


def cuts(lines):
    """Every prefix of the game that ends after a round's deal, up to its last line."""
    for i in range(next(i for i, ln in enumerate(lines) if ln.startswith("Round ")), len(lines) - 1):
        if not re.match(r"(Round |seat \d+ \()", lines[i].strip()):   # not the middle of the deal
            yield "\n".join(lines[:i + 1])


def test_every_point_of_a_round_reads_back_the_same(game):
    rules, lines = game
    seen, settled = 0, 0
    for text in cuts(lines):
        st = parse_narration(text, rules)
        assert facts(parse_narration(narration(st), rules)) == facts(st), text.splitlines()[-1]
        mine = {0: st.hands[0]}
        st.hands = mine
        back = parse_narration(narration(st), rules)
        assert back.hands == mine and facts(back) == facts(st)
        seen += 1
        settled += st.after_round()
    assert seen > 60 and settled


def test_the_commands_answer_an_exported_round_as_the_session(game, tmp_path):
    rules, lines = game
    text = "\n".join(lines[:next(i for i, ln in enumerate(lines) if ln.strip().startswith("trick 3:")) + 1])
    for seat in range(rules.players):   # you are the seat that plays next
        s = Session(rules, seat=seat, state_text=text, check_option=check_option)
        try:
            s._check_turn(s.st, "advise")
            break
        except UserError:
            continue
    s.st.hands = {seat: s.st.hands[seat]}   # only your hand is known at the table
    path = tmp_path / "round.txt"
    path.write_text(narration(s.st))
    again = Session(rules, seat=seat, state_text=path.read_text(), check_option=check_option)
    assert again.show() == s.show()
    for question in ("odds -n 40 --seed 2", "advise -n 30 --seed 2"):
        q = s.handle(question)
        assert isinstance(q, Question)
        page = json.loads(_render(s, s.ask(q), question, "json"))
        command = question.split()[0]
        mode = ["state"] if command == "odds" else []    # `sponsio odds state`, `sponsio advise`
        r = CliRunner().invoke(main, [command, *mode, "--state", str(path), "--seat", str(seat), *question.split()[1:],
                                      "--format", "json"])
        assert r.exit_code == 0, r.output
        cli = json.loads(r.stdout)
        for key in ("rows", "actions"):
            assert page.get(key) == cli.get(key), (question, key)


def test_a_session_reads_a_seat_line_without_cards():
    s = Session(load_rules(None, 4), seat=0, check_option=check_option)
    assert s.handle("seat 2 (12 coins, track 1): ?").startswith("seat 2: 12 coins, track 1, ?")
    assert 2 not in s.st.hands and s.st.coins[2] == 12
