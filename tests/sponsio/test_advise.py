"""`sponsio advise`: reading a table state, its legal actions, inference and the ranking."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.advise.calibrate import score_states, summary
from sponsio_sim.analysis.advise.selfplay import decisions
from sponsio_sim.analysis.advise.state import RoundFacts, next_actor, parse_history, table_state
from sponsio_sim.analysis.advise.arrays import build_state_arrays
from sponsio_sim.analysis.advise.trickphase import build_trick_phase
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.narrate import narrate_game
from sponsio_sim.analysis.game.setup import parse_profile, rows_of
from sponsio_sim.cards import parse_cards
from sponsio_sim.cli import main
from sponsio_sim.kernels.advise.actions import END_USE, MAX_ACTIONS, decision_actions
from sponsio_sim.kernels.betting.phase import apply_action
from sponsio_sim.kernels.layout import (BET, BOARD, DOUBLE_TOKEN, GAME, MAX_BETS, MONEY, N_TOKENS, PASS, REBET_TOKEN,
                                        SWAP, SWAP_TOKEN, TOKEN)
from sponsio_sim.rules import load_rules

PROFILE = "ev:goal x4"
RULES = load_rules(None, 4)


def narration(seed=3, profile=PROFILE):
    return narrate_game(profile, seed=seed, rules=RULES).text


def excerpt(text, upto):
    """Round 1 of a narration up to (not including) its ``upto``-th betting action."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Round 1"))
    acts = [i for i, ln in enumerate(lines) if ln.strip().startswith("turn ")]
    return "\n".join(lines[start:acts[upto]])


@pytest.fixture(scope="module")
def model():
    return find_model(RULES)


@pytest.fixture(scope="module")
def game3():
    return narration(3)


def test_every_cut_of_a_narrated_round_reads_back_as_the_game_had_it(model, game3):
    strategies = parse_profile(PROFILE, RULES)
    for d in decisions(PROFILE, RULES, 3, rounds=2):
        table = build_state_arrays(d.state, strategies, model)
        board, game_state, money = table.now
        assert table.seat == next_actor(d.state)
        # what is public matches the truth: revealed cards are in their holders' true hands, the talon is the
        # talon after the exchanges, coins are the round's coins less stakes and fees
        for s in range(RULES.players):
            shown = int(board[BOARD.hands + s]) & int(board[BOARD.revealed])
            assert shown & ~int(d.hands[s]) == 0
        assert int(board[BOARD.hands + table.seat]) == int(d.hands[table.seat])
        assert int(board[BOARD.talon]) & int(np.bitwise_or.reduce(d.hands)) == 0
        spent = [0.0] * RULES.players
        for seat, kind, a, b, c in d.state.history:
            if kind == BET:
                spent[seat] += RULES.stake
            elif kind == TOKEN and b < 0:
                spent[seat] += RULES.token_cost
        for s in range(RULES.players):
            assert money[MONEY.coins + s] == d.state.coins[s] - spent[s]


def test_the_decision_lists_every_legal_action_and_only_those(model, game3):
    st = table_state(RULES, excerpt(game3, 5))
    table = build_state_arrays(st, parse_profile(PROFILE, RULES), model)
    acts = np.zeros((MAX_ACTIONS, 4), dtype=np.int64)
    n = decision_actions(np.int64(table.step), np.int64(table.seat), *table.now, acts)
    listed = {tuple(a[:3]) for a in acts[:n]}
    board, game_state, money = table.now
    hand = int(board[BOARD.hands + table.seat])
    unrev = [c for c in range(36) if (hand >> c) & 1 and not (int(board[BOARD.revealed]) >> c) & 1]
    legal = set()
    cards = list(range(36))
    tries = [(PASS, -1, -1)] + [(BET, row, -1) for row in range(len(rows_of(RULES)) + 2)]
    tries += [(TOKEN, t, y) for t in range(-1, N_TOKENS + 1) for y in [-1] + cards]
    tries += [(SWAP, x, y) for x in cards for y in cards]
    for act, x, y in tries:   # brute force: every action with every reveal, through the rule gate
        for rv in (unrev if act != PASS else [-1]):
            t2, i2, w2 = board.copy(), game_state.copy(), money.copy()
            if apply_action(np.int64(table.seat), np.int64(act), np.int64(x), np.int64(y), np.int64(rv), t2, i2, w2):
                legal.add((act, x, y if act != TOKEN else (y >= 0)))
    listed = {(a, x, y if a != TOKEN else (y >= 0)) for a, x, y in listed}
    assert listed == legal


def test_end_of_betting_decision_is_the_token_holders(model):
    for seed in range(1, 40):   # a game whose round 1 ends with a double token held
        text = narration(seed)
        lines = text.splitlines()
        start = next(i for i, ln in enumerate(lines) if ln.startswith("Round 1"))
        stop = next(i for i, ln in enumerate(lines) if "end of betting" in ln or ln.strip().startswith("trick phase"))
        st = table_state(RULES, "\n".join(lines[start:stop]))
        owners = {a: s for s, k, a, b, c in st.history if k == TOKEN}
        if DOUBLE_TOKEN in owners and SWAP_TOKEN not in owners and REBET_TOKEN not in owners:
            break
    else:
        pytest.skip("no such game in the seeds tried")
    table = build_state_arrays(st, parse_profile(PROFILE, RULES), model)
    assert table.token == DOUBLE_TOKEN and table.seat == owners[DOUBLE_TOKEN]
    acts = np.zeros((MAX_ACTIONS, 4), dtype=np.int64)
    n = decision_actions(np.int64(table.step), np.int64(table.seat), *table.now, acts)
    assert n == 1 + int(table.now[1][GAME.bet_count + table.seat])   # not using it, or doubling each bet
    held = [rows_of(RULES)[int(table.now[1][GAME.bet_row + table.seat * MAX_BETS + i])].notation(RULES)
            for i in range(n - 1)]
    code, out, err = run("advise", "--state", "-", "-n", 100, "--format", "json",
                         input="\n".join(lines[start:stop]))
    assert code == 0, err
    labels = {a["action"] for a in json.loads(out)["actions"]}
    assert labels == {"do not use the double token", *(f"double #{i + 1} ({b})" for i, b in enumerate(held))}


def test_history_option_reads_what_the_narration_writes():
    rows, _ = parse_history("0: reveals Y1, bets colour:R=4 (1 coin stake); 1: passes; "
                            "2: reveal B1, take double (reveals Y3 to pay); 3: reveal R1, take lead (pays 1 coin);"
                            "0: reveal R7, swap R7 for the talon's R3; end 2: double #1", RULES)
    assert [r[1] for r in rows] == [BET, PASS, TOKEN, TOKEN, SWAP, END_USE]
    assert rows[2][3] == parse_cards("Y3", RULES)[0] and rows[3][3] == -1


# Each cut edits the first line of its pattern (patterns, not whole lines, so that
# a change of the ev policy's choices in this game does not void the cut).
@pytest.mark.parametrize("cut,needle", [
    (lambda t: re.sub("turn 1, seat 1:", "turn 1, seat 2:", t, count=1), "but seat 1 acts"),
    (lambda t: re.sub(r"(turn 1, seat 0: reveals )[RBGY]\d", r"\1R8", t, count=1), "R8"),   # seat 1's card
    (lambda t: re.sub(r"takes the double token[^\n]*", "takes the doubel token", t, count=1), "unknown token"),
    (lambda t: t + "\n  trick 1: seat 0 leads R9", "the betting has only 7 of its 16 actions"),
    (lambda t: t.replace("Round 1: dealer seat 3", "Round 1: dealer seat 7"), "seat 7 out of range"),
    (lambda t: re.sub(r"(bets [a-z]+:\S+)", r"\1; x", t, count=1), "unknown bet"),
])
def test_bad_states_are_one_clear_error(game3, cut, needle, model):
    text = cut(excerpt(game3, 7))
    assert text != excerpt(game3, 7), "the cut found nothing to edit in this game"
    with pytest.raises(UserError, match=needle.replace("(", r"\(")):
        st = table_state(RULES, text)
        (build_trick_phase if st.in_tricks() else build_state_arrays)(st, parse_profile(PROFILE, RULES), model)


def test_an_illegal_history_names_the_entry_and_why(model):
    st = table_state(RULES, facts=RoundFacts(hand="R1 G8 G3 G2 Y9 Y7 Y5 Y4", talon="R3 B9 G7 G5", dealer=3,
                                             history="0: reveal Y1, take lead (coin); 1: reveal R8, take lead (coin)"))
    with pytest.raises(UserError, match=r"'1: reveal R8, take lead \(coin\)'.*lead token is already taken"):
        build_state_arrays(st, parse_profile(PROFILE, RULES), model)


def test_inference_places_hidden_cards_better_than_uniform():
    df, states = score_states("ev0.25:goal:cash4 x4", RULES, range(1, 4), proposals=2000)
    s = summary(df).set_index("method")
    assert states >= 60
    # the paired log-loss difference's whole CI is below 0: inference is better
    assert s.loc["inference - uniform (paired)", "log_loss_high"] < 0


def run(*args, input=None):
    r = CliRunner().invoke(main, [str(a) for a in args], input=input)
    return r.exit_code, r.stdout, r.stderr


def test_advise_cli_json_is_the_same_on_any_thread_count(tmp_path, game3):
    path = tmp_path / "state.txt"
    path.write_text(excerpt(game3, 7))
    outs = []
    for threads in (1, 2):
        code, out, err = run("advise", "--state", path, "-n", 150, "--seed", 4, "--threads", threads,
                             "--format", "json")
        assert code == 0, err
        outs.append(out)
    assert outs[0] == outs[1]
    doc = json.loads(outs[0], parse_constant=lambda name: pytest.fail(f"non-standard JSON {name}"))
    acts = doc["actions"]
    assert doc["meta"]["seat"] == 3 and acts[0]["rank"] == 1 and doc["meta"]["command"] == "sponsio advise"
    assert len({a["action"] for a in acts}) == len(acts)
    full = [a for a in acts if a["rollouts"] == 150]
    assert full == acts[:len(full)] and "pass" in {a["action"] for a in full}
    assert all(a["gain_low"] <= a["gain"] <= a["gain_high"] for a in full)
    assert doc["meta"]["advice"].startswith("Advice for seat 3: " + acts[0]["action"])


def test_bet_chances_count_a_bet_only_where_it_still_stands():
    from sponsio_sim.analysis.advise.result import bet_chances
    # rows 7 and 3 held; in rollouts 2 and 3 a later rebet turned bet #1 into row 4 (and won that one)
    won = np.array([0b11, 0b01, 0b10, 0b10, 0b00])
    final = np.array([[7, 3], [7, 3], [7, 4], [7, 4], [7, 3]])
    (p0, lo0, hi0, r0), (p1, lo1, hi1, r1) = bet_chances(won, final, [7, 3], 1.0)
    assert (p0, r0) == (0.4, 0.0) and lo0 < 0.4 < hi0
    assert p1 == pytest.approx(1 / 3) and r1 == pytest.approx(0.4)
    p, lo, hi, r = bet_chances(won, final, [7, 9], 1.0)[1]
    assert np.isnan(p) and np.isnan(lo) and r == 1.0


def test_a_bet_the_seat_rebets_later_is_scored_as_placed():
    # 3 players: a tricks bet placed now is often rebet at the end of betting by the seat's own policy; the
    # bet as placed (tricks=8 beside colour:B=0, with three blue cards in hand) almost never wins
    history = "0: reveal G2, bet colour:B=0; 1: reveal R3, bet colour:B=3; 2: pass"
    code, out, err = run("advise", "--players", 3, "--hand", "R9 R7 B8 B5 B3 G9 G5 G2", "--talon", "B7 B2 B1",
                         "--dealer", 2, "--history", history, "-n", 100, "--no-infer", "--seed", 1, "--format", "json",
                         "--profile", "ev0.75:goal:cash3 x3")     # a policy that rebets at the end of betting
    assert code == 0, err
    acts = {a["action"]: a for a in json.loads(out)["actions"]}
    eight = acts["reveal B3, bet tricks=8"]
    assert eight["rebet"] > 0.2 and eight["p_bet_high"] < 0.1
    assert all(a["rebet"] == 0 for a in acts.values() if a["bet"] in ("nines", "last", "fail:1"))


def test_history_odds_with_nothing_to_read_agree_with_the_odds_kernel():
    # two independent paths: the advise rollouts (whole-game kernels, troll opponents, empty history) and the
    # odds kernel (the same hand, no bets elsewhere, goal play everywhere) must agree within their intervals
    from sponsio_sim.analysis.advise.odds import history_odds
    from sponsio_sim.analysis.odds.query import Query, odds
    bets = "tricks=2,colour:Y=0,last,colour:R=2"
    h = history_odds(RoundFacts(hand="R9 R7 R2 B8 B5 G6 G1 Y3", talon="R1 B9 G4 Y7", dealer=3, history=""),
                     profile="troll:goal x4", n=3000, bets=bets).table.set_index("bet")
    o = odds(Query("R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7", seat=0, lead=0), n=3000).table.set_index("bet")
    for bet in bets.split(","):
        assert h.loc[bet, "ci_low"] <= o.loc[bet, "ci_high"] and o.loc[bet, "ci_low"] <= h.loc[bet, "ci_high"], bet


def test_history_odds_leave_out_the_types_the_seat_holds_unless_asked():
    args = ["odds", "state", "--players", 3, "--hand", "R9 R7 B8 B5 B3 G9 G5 G2", "--talon", "B7 B2 B1",
            "--dealer", 2, "--history", "0: reveal G2, bet colour:B=0; 1: pass; 2: pass", "-n", 50, "--format", "json"]
    code, out, err = run(*args)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["meta"]["left_out"].startswith("left out the colour bets: seat 0 already holds one")
    assert {r["bet"].split(":")[0].split("=")[0] for r in doc["rows"]} == {"tricks", "last", "nines", "fail"}
    code, out, err = run(*args, "--bets", "colour:R=2")
    assert code == 2 and "seat 0 already holds a bet of the type of colour:R=2" in err


@pytest.mark.parametrize("args,needle", [
    (["--history", "0: pass"], "no dealer: give --dealer"),
    (["--dealer", "3", "--history", "0: pass", "--revealed", "1:G9"], "No such option '--revealed'"),
    (["--dealer", "3", "--history", "0: pass", "--policy", "greedy"], "No such option '--policy'"),
    (["--dealer", "3", "--history", "0: pass", "--target-ci", "0.1"], "No such option '--target-ci'"),
])
def test_odds_state_option_errors(args, needle):
    code, out, err = run("odds", "state", "--hand", "R9 R7 R2 B8 B5 G6 G1 Y3", "--talon", "R1 B9 G4 Y7", *args)
    assert code == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1, err


def test_an_excerpt_with_its_rules_line_picks_that_rule_set_or_says_it_differs(tmp_path):
    text = narrate_game("ev:goal x3", seed=5, rules=load_rules(None, 3)).text.splitlines()
    start = next(i for i, ln in enumerate(text) if ln.startswith("Round 1"))
    first = next(i for i, ln in enumerate(text) if ln.strip().startswith("turn 1, seat 1"))
    path = tmp_path / "s.txt"
    path.write_text("\n".join([text[0]] + text[start:first]))
    code, out, err = run("advise", "--state", path, "-n", 100, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["meta"]["rules"].startswith("rules standard-3p")
    code, out, err = run("advise", "--state", path, "--players", 4)
    assert code == 2 and "was played under 'rules standard-3p" in err
    path.write_text("\n".join(text[start:first]))
    code, out, err = run("advise", "--state", path)
    assert code == 2 and "a 3-player game? give --players 3" in err


def cash_state(coins1, track1=3):
    """Round 1 of the seed-3 game up to its settlement, seat 1 ending on ``coins1`` coins at ``track1``."""
    lines = excerpt_full(narration(3))
    out = []
    for ln in lines:
        if ln.strip().startswith("seat 1: ") and "; coins 10 -> " in ln:   # its settlement line
            ln = re.sub(r"coins 10 -> [\d.]+; track -> \d+", f"coins 10 -> {coins1:g}; track -> {track1}", ln)
        out.append(ln)
    return "\n".join(out)


def excerpt_full(text):
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Round 1"))
    end = next(i for i, ln in enumerate(lines) if ln.startswith("Round 2"))
    return lines[start:end]


def test_cash_in_advice_reads_the_settlement_and_takes_a_sure_win(tmp_path):
    path = tmp_path / "s.txt"
    # cashing in 4 coins takes seat 1 from 27 to 31 coins, the richest: the game ends and it wins for sure
    path.write_text(cash_state(27))
    code, out, err = run("advise", "--state", path, "--seat", 1, "-n", 200, "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["actions"]
    assert rows[0]["action"].startswith("cash in 4 coins") and rows[0]["win"] == 1.0
    assert rows[1]["action"] == "keep track position 3" and rows[1]["win"] < 1.0
    # cut after the last trick, before the settlement: nothing is left to decide
    path.write_text("\n".join(excerpt_full(narration(3))[:-6]))
    code, out, err = run("advise", "--state", path, "--seat", 1)
    assert code == 2 and "every card of the round is played: nothing is left to decide" in err
    # the seat with nothing to cash in
    path.write_text(cash_state(19, 0))
    code, out, err = run("advise", "--state", path, "--seat", 1)
    assert code == 2 and "nothing to cash in" in err


def test_next_best_never_calls_two_actions_equal_without_an_interval():
    import pandas as pd

    from sponsio_sim.analysis.advise.result import next_best

    def row(low, high):
        return pd.DataFrame({"action": ["G9", "G1"], "vs_best": [0.0, -0.7], "vs_best_low": [0.0, low],
                             "vs_best_high": [0.0, high]})
    assert "clearly better than the next best, G1" in next_best(row(-0.9, -0.5), "play G9")
    assert "as good within the CI (-0.70 [-0.90, +0.10]" in next_best(row(-0.9, 0.1), "play G9")
    text = next_best(row(float("nan"), float("nan")), "play G9")    # fewer samples than an interval needs
    assert "as good" not in text and "too few samples for a 95 % CI" in text and "-0.70" in text


def test_an_excerpt_to_the_end_of_the_round_without_a_seat_asks_for_one(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(cash_state(19))
    code, out, err = run("advise", "--state", path)
    assert code == 2 and out == ""
    assert err.strip() == ("error: give --seat (the seat to advise): the excerpt runs to the end of the round, where "
                           "every seat decides whether to cash its streak in")


def test_by_win_judges_the_next_best_on_the_win_chance_and_by_gain_on_coins(tmp_path):
    """The issue's state (`sponsio game --profile "ev0.5:goal:cash3 x4" --seed 3 --verbose | sed -n 4,14p`):
    ranked by the win chance, the verdict quotes the paired interval of the win chance (it called a
    clearly worse action 'as good within the CI', quoting a coin interval that excluded 0)."""
    path = tmp_path / "s.txt"
    path.write_text(excerpt(narration(3, "ev0.5:goal:cash3 x4"), 4))   # seat 0's second turn
    verdicts = {}
    for by in ("win", "gain"):
        code, out, err = run("advise", "--state", path, "--by", by, "-n", 400, "--format", "json",
                             "--profile", "ev0.5:goal:cash3 x4")             # the players of the game it is from
        assert code == 0, err
        data = json.loads(out)
        first, second = data["actions"][:2]
        verdicts[by] = data["meta"]["advice"]
        col = "win_vs_best" if by == "win" else "vs_best"
        gap = (f"{second[col]:+.3f} [{second[col + '_low']:+.3f}, {second[col + '_high']:+.3f}] win chance" if by == "win"
               else f"{second[col]:+.2f} [{second[col + '_low']:+.2f}, {second[col + '_high']:+.2f}] coins")
        # the verdict quotes the interval of the measure the actions are ranked by, and reads it right
        if second[col + "_high"] < 0:
            assert verdicts[by].endswith(f"; clearly better than the next best, {second['action']} ({gap})")
        else:
            assert verdicts[by].endswith(f"; the next best, {second['action']}, is as good within the CI ({gap})")
        assert ("win_vs_best" in first) == (by == "win")
