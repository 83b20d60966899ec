"""The ``net`` betting policy (``kernels.betting.net``): its inputs against a plain-Python encoder on
hand-built states, the actions it weighs (only legal ones ever win), ties, its cash-in, and bad weights."""

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from tabletop_mc.net import NetWeights
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.net import find_net, net_spec, slot_rows, using_net
from sponsio_sim.analysis.game.setup import build_state, parse_profile, parse_strategy, rows_of, rulebook
from sponsio_sim.bet_kinds import KINDS
from sponsio_sim.cards import mask_of, parse_cards
from sponsio_sim.cli import main
from sponsio_sim.kernels.betting.model import prepare_features, row_prob
from sponsio_sim.kernels.betting.net import (action_of, cash_values, choose_net, encode, net_cash_in, scratch_of,
                                             weighed)
from sponsio_sim.kernels.betting.netlayout import A_BET, A_PASS, A_SWAP, A_TOKEN, N_ACTIONS, NET_INPUTS
from sponsio_sim.kernels.betting.phase import actor, apply_action, betting_steps, leader_of
from sponsio_sim.kernels.betting.policies import token_gain, troll_income
from sponsio_sim.kernels.game.engine import start_game, start_round
from sponsio_sim.kernels.layout import BET, BOARD, GAME, MONEY, MONEY_RULES, PASS, SWAP, TOKEN
from sponsio_sim.rules import TOKENS, load_rules

R4 = load_rules("standard-4p")
R3 = load_rules("standard-3p")
HANDS = ["R9 R8 R3 B7 B2 G9 G4 Y5", "R7 R6 B9 B5 G8 G2 Y9 Y1", "R5 R2 B8 B4 G7 G6 Y8 Y3",
         "R4 R1 B6 B3 G5 G3 Y7 Y6"]
TALON = "B1 G1 Y4 Y2"
HANDS3 = ["R9 R8 R3 B7 B2 G9 G4 G1", "R7 R6 B9 B5 G8 G2 B1 R1", "R5 R2 B8 B4 G7 G6 B3 G3"]
TALON3 = "R4 B6 G5"


def random_net(rules, hidden=(16,), seed=0, scale=0.3) -> NetWeights:
    spec = net_spec(rules)
    rng = np.random.default_rng(seed)
    widths = [spec.n_inputs, *hidden]
    layers = [(rng.normal(0, scale, (widths[i], widths[i + 1])), rng.normal(0, scale, widths[i + 1]))
              for i in range(len(hidden))]
    return NetWeights(spec, layers, (rng.normal(0, scale, (hidden[-1], spec.n_actions)),
                                     rng.normal(0, 3.0, spec.n_actions)),
                      (rng.normal(0, scale, (hidden[-1], 1)), np.zeros(1)))


def table(rules=R4, profile=None, net=None):
    """A round's start with every seat on ``net:goal:net`` (dealer: the last seat; the success model of
    the standard rules for the player count)."""
    hands, talon = (HANDS, TALON) if rules.players == 4 else (HANDS3, TALON3)
    net = net or random_net(rules)
    profile = profile or f"net:goal:net x{rules.players}"
    model = find_model(R4 if rules.players == 4 else R3)
    board, game_state, money = build_state(rules, parse_profile(profile, rules), model, net=net)
    start_game(0, game_state, money)
    start_round(board, game_state, money)
    for s, h in enumerate(hands[:rules.players]):
        board[BOARD.hands + s] = mask_of(parse_cards(h, rules))
    board[BOARD.talon] = mask_of(parse_cards(talon, rules))
    return board, game_state, money


def play_steps(board, game_state, money, steps, seed=1):
    """``steps`` betting actions by the seats' net, each checked legal."""
    state = np.array([seed, 2, 3, 4], dtype=np.uint64)
    for k in range(steps):
        s = actor(k, game_state)
        act, x, y, rv = choose_net(s, board, game_state, money, state)
        assert apply_action(s, act, x, y, rv, board, game_state, money), (k, s, act, x, y, rv)


def slow_encode(s, cash_phase, rules, board, game_state, money):
    """The inputs of ``NET_INPUTS`` built field by field from the state read by name: the reference the
    kernel's ``encode`` must match. The success model's P and ev's token gains come from the model
    kernels (tested on their own in test_fit and test_game_play)."""
    x = np.zeros(NET_INPUTS.size)
    named = NET_INPUTS.named(x)
    g = GAME.named(game_state)
    m = MONEY.named(money[:MONEY.size])
    b = BOARD.named(board)
    players = rules.players
    others = [(s + k) % players for k in range(1, players)]
    order = [s, *others]
    named["coins"][:players] = m["coins"][order]
    named["track"][:players] = g["track"][order]
    pos = g["track"][s]
    named["track_value_own"] = rules.track_value[pos] if pos < rules.track_win else 0
    done = g["round"] + (1 if cash_phase else 0)
    named["rounds_done"], named["rounds_left"] = done, rules.max_rounds - done
    catalogue = rows_of(rules)
    rows = [bet.notation(rules) for bet in catalogue]
    for k, kind in enumerate(KINDS):
        first = next((bet for bet in catalogue if bet.kind == kind.name), None)
        if first is not None:
            named["multiplier"][k] = rules.multiplier_for(first)
    named["troll_pay"], named["round_bonus"] = rules.troll_pay, rules.round_bonus
    named["coins_to_end"], named["max_rounds"] = rules.coins_to_end, rules.max_rounds
    track = list(rules.track_value)[:min(len(named["track_values"]), rules.track_win)]
    named["track_values"][:len(track)] = track
    named["track_win"], named["stake"], named["token_cost"] = rules.track_win, rules.stake, rules.token_cost
    if cash_phase:
        named["cash_phase"] = 1
        return x
    cards = lambda mask: [c for c in range(64) if (int(mask) >> c) & 1]   # noqa: E731
    hand, shown, talon = b["hands"][s], b["revealed"], b["talon"]
    for c in cards(hand):
        named["hand"][c] = 1
    for c in cards(hand & shown):
        named["hand_shown"][c] = 1
    for c in cards(talon):
        named["talon"][c] = 1
    by_slot, by_row = slot_rows(rules)
    for k, t in enumerate(others):
        known = b["hands"][t] & shown
        for c in cards(known):
            named["others_shown"][c] = 1
            named["others_shown_colours"][k, c // 9] += 1
        named["others_hidden"][k] = len(cards(b["hands"][t] & ~shown))
        for kind in range(len(KINDS)):
            named["others_kinds"][k, kind] = (g["kinds_held"][t] >> kind) & 1
        held_rows = g["bet_row"][t][:g["bet_count"][t]]
        named["others_fail_me"][k] = any(rows[r] == f"fail:{s}" for r in held_rows)
    steps = g["betting_steps"]
    named["turns_done"], named["turns_left"] = steps // players, rules.betting_turns - steps // players
    place = (s - g["dealer"] - 1) % players
    named["place"][place] = 1
    lead = leader_of(game_state) == s
    named["leads"] = lead
    named["hidden"] = len(cards(hand & ~shown))
    nbets = g["bet_count"][s]
    named["bets_held"] = nbets
    troll = troll_income(s, game_state, money)
    named["troll_income"] = troll
    prepare_features(hand, talon, lead, place, board, game_state)
    for j in range(len(by_slot[s])):
        r = by_slot[s, j]
        if r >= 0:
            p = row_prob(r, s, game_state, money)
            named["bet_p"][j] = p
            mult = rulebook(game_state)[1][MONEY_RULES.multiplier + r]
            named["bet_gain"][j] = p * mult * rules.stake - rules.stake - (troll if nbets == 0 else 0)
    for r in g["bet_row"][s][:nbets]:
        named["bet_held"][by_row[s, r]] = 1
    for t, name in enumerate(TOKENS):
        if name not in rules.tokens:
            continue
        owner = g["token_owner"][t]
        if owner < 0:
            named["token_free"][t] = 1
            if nbets > 0 and not (name == "lead" and lead):
                gain = token_gain(s, t, 0.0, game_state, money)
                named["token_gain"][t] = gain if gain > -1e300 else 0.0
        elif owner == s:
            named["token_mine"][t] = 1
    return x


def kernel_encode(s, cash_phase, board, game_state, money):
    x = scratch_of(game_state, money)[0]
    encode(s, cash_phase, board, game_state, money, x)
    return x.astype(np.float64)


@pytest.mark.parametrize("rules, steps", [(R4, 0), (R4, 5), (R4, 11), (R3, 7)])
def test_encoding_equals_the_plain_python_encoder(rules, steps):
    board, game_state, money = table(rules)
    play_steps(board, game_state, money, steps)
    money[MONEY.coins:MONEY.coins + rules.players] = [7, 12, 3, 10][:rules.players]
    game_state[GAME.track:GAME.track + rules.players] = [2, 0, 5, 1][:rules.players]
    game_state[GAME.round] = 2
    for s in range(rules.players):
        for cash_phase in (False, True):
            fast = kernel_encode(s, cash_phase, board, game_state, money)
            slow = slow_encode(s, cash_phase, rules, board, game_state, money)
            bad = np.flatnonzero(~np.isclose(fast, slow, rtol=1e-6, atol=1e-6))
            names = net_spec(rules).input_names()
            assert not len(bad), [(names[i], fast[i], slow[i]) for i in bad[:8]]


def test_encoding_sees_what_others_revealed_and_hold():
    board, game_state, money = table()
    play_steps(board, game_state, money, 8)
    x = NET_INPUTS.named(kernel_encode(0, False, board, game_state, money))
    shown_by_others = sum(int(board[BOARD.hands + t] & board[BOARD.revealed]).bit_count() for t in (1, 2, 3))
    assert x["others_shown"].sum() == shown_by_others
    assert x["others_hidden"][:3].sum() == 24 - shown_by_others
    assert x["coins"][0] == money[MONEY.coins]


def test_only_legal_actions_are_weighed_and_each_applies():
    for seed in range(6):
        net = random_net(R4, seed=seed)
        board, game_state, money = table(net=net)
        state = np.array([seed, 2, 3, 4], dtype=np.uint64)
        for k in range(betting_steps(game_state)):
            s = actor(k, game_state)
            x, q, legal, hidden = scratch_of(game_state, money)
            encode(s, False, board, game_state, money, x)
            weighed(s, board, game_state, money, x, legal)
            assert legal[A_PASS] == 1.0
            for a in np.flatnonzero(legal[:N_ACTIONS]):
                act, ax, ay, rv = action_of(s, a, board, game_state, money)
                b2, g2, m2 = board.copy(), game_state.copy(), money.copy()
                assert apply_action(s, act, ax, ay, rv, b2, g2, m2), (seed, k, a, act, ax, ay, rv)
                if a == A_PASS:
                    assert act == PASS
                elif A_BET <= a < A_TOKEN:
                    assert act == BET
                elif A_TOKEN <= a < A_SWAP:
                    assert act == TOKEN and ax == a - A_TOKEN
                elif a == A_SWAP:
                    assert act == SWAP
            act, ax, ay, rv = choose_net(s, board, game_state, money, state)
            assert apply_action(s, act, ax, ay, rv, board, game_state, money)


def test_an_illegal_action_never_wins_however_high_its_value():
    spec = net_spec(R4)
    hidden = 4
    q_bias = np.full(spec.n_actions, -5.0)
    q_bias[A_TOKEN:A_SWAP + 1] = 1e6          # tokens and the exchange look best ...
    net = NetWeights(spec, [(np.zeros((spec.n_inputs, hidden)), np.zeros(hidden))],
                     (np.zeros((hidden, spec.n_actions)), q_bias), (np.zeros((hidden, 1)), np.zeros(1)))
    board, game_state, money = table(net=net)
    money[MONEY.coins] = 0.0                  # ... but seat 0 cannot pay a token in coins or place a bet,
    board[BOARD.revealed] = board[BOARD.hands]  # and has nothing left to reveal: pass is all it may do
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    assert choose_net(0, board, game_state, money, state)[0] == PASS
    board[BOARD.revealed] = 0                 # with cards to show it may take a token (paid by a reveal)
    act, x, y, rv = choose_net(0, board, game_state, money, state)
    assert act == TOKEN and y >= 0 and apply_action(0, act, x, y, rv, board, game_state, money)


def test_ties_go_to_the_first_action_pass():
    spec = net_spec(R4)
    flat = NetWeights(spec, [(np.zeros((spec.n_inputs, 3)), np.zeros(3))], (np.zeros((3, spec.n_actions)),
                      np.zeros(spec.n_actions)), (np.zeros((3, 1)), np.zeros(1)))
    board, game_state, money = table(net=flat)
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    for s in range(4):
        assert choose_net(s, board, game_state, money, state) == (PASS, -1, -1, -1)


def test_the_value_head_decides_the_cash_in():
    spec = net_spec(R4)
    at = spec.offsets()["coins"]
    for sign, expect in ((1.0, True), (-1.0, False)):
        w0 = np.zeros((spec.n_inputs, 1))
        w0[at, 0] = 1.0                        # the hidden unit: own coins
        net = NetWeights(spec, [(w0, np.zeros(1))], (np.zeros((1, spec.n_actions)), np.zeros(spec.n_actions)),
                         (np.array([[sign]]), np.zeros(1)))
        board, game_state, money = table(net=net)
        game_state[GAME.track] = 4
        keep, cash = cash_values(0, board, game_state, money)
        assert keep == pytest.approx(sign * money[MONEY.coins]) and cash == pytest.approx(
            sign * (money[MONEY.coins] + R4.track_value[4]))
        assert net_cash_in(0, board, game_state, money) == expect


def test_games_of_net_seats_are_the_same_on_any_thread_count(tmp_path):
    net = random_net(R4, hidden=(8, 8), seed=3)
    path = net.save(tmp_path / "n.npz")
    from sponsio_sim.analysis.game.runs import run_games
    from tabletop_mc.runner import set_threads
    out = []
    with using_net(find_net(R4, path)):
        for threads in (1, 2):
            set_threads(threads)
            out.append(run_games(R4, parse_profile("net:goal:net, net:goal:cash3, ev:goal:net, troll:goal", R4), 300,
                                 rotate=True, seed=5, model=find_model(R4)))
    np.testing.assert_array_equal(out[0], out[1])


def test_net_strategies_parse_and_round_trip():
    st = parse_strategy("NET:goal:net:temp=0.5", R4)
    assert (st.betting, st.cash, st.temp) == ("net", "net", 0.5) and parse_strategy(st.text, R4) == st
    with pytest.raises(UserError, match="net takes no parameter"):
        parse_strategy("net3:goal", R4)


def test_a_network_for_another_spec_or_player_count_is_refused(tmp_path):
    path = random_net(R3).save(tmp_path / "three.npz")
    with pytest.raises(UserError, match="made for 3 players, not 4"):
        find_net(R4, path)
    other = load_rules("standard-4p", overrides={"hand_size": 7})
    with pytest.raises(UserError, match="feature spec"):
        find_net(other, random_net(R4).save(tmp_path / "four.npz"))
    res = CliRunner().invoke(main, ["train", "--players", "4", "--iterations", "1", "--games", "4", "--init",
                                    str(path), "--out", str(tmp_path / "x.npz")])
    assert res.exit_code == 2 and "made for 3 players, not 4" in res.output, res.output
    assert not (tmp_path / "x.npz").exists()


def test_train_without_the_extra_names_it(without_training_extra, tmp_path):
    res = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "x.npz")])
    assert res.exit_code == 2, res.output
    assert res.output.count("\n") == 1 and "[train] extra" in res.output and "pip install" in res.output


@pytest.mark.parametrize("rules", [R4, R3, load_rules("standard-4p", overrides={"fail_target": "any"})])
def test_the_kernels_bet_actions_match_the_spec_tables(rules):
    from sponsio_sim.kernels.betting.net import row_slot, slot_row
    from sponsio_sim.kernels.layout import MAX_ROWS
    board, game_state, money = table(rules)
    by_slot, by_row = slot_rows(rules)
    names = net_spec(rules).actions[A_BET:A_TOKEN]
    rows = [b.notation(rules) for b in rows_of(rules)]
    for s in range(rules.players):
        for j in range(MAX_ROWS):
            assert slot_row(s, j, game_state) == by_slot[s, j]
            if by_slot[s, j] >= 0 and names[j].startswith("fail:+"):   # fail:+k names the seat k places on
                assert rows[by_slot[s, j]] == f"fail:{(s + int(names[j][6:])) % rules.players}"
            elif by_slot[s, j] >= 0:
                assert rows[by_slot[s, j]] == names[j]
        for r in range(len(rows)):
            assert row_slot(s, r, game_state) == by_row[s, r]
