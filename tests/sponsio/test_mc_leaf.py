"""``mc`` with ``horizon=net``: its rollouts stop where the round ends and read ``net``'s value head
there (``kernels.betting.scoring.leaf_share``): notation, refusals, and the leaf's value against the
value head's numpy forward pass on the rollout's own round-end state."""

import numpy as np
import pytest

from tabletop_mc.errors import UserError
from tabletop_mc.net import NetWeights
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.net import net_spec
from sponsio_sim.analysis.game.setup import build_state, parse_profile, parse_strategy, rulebook, uses_net
from sponsio_sim.cards import mask_of, parse_cards
from sponsio_sim.kernels.betting.net import encode, scratch_of
from sponsio_sim.kernels.betting.phase import actor
from sponsio_sim.kernels.betting.rollout import deal_world, new_work, rollout
from sponsio_sim.kernels.game.engine import mc_cash_ins, start_game, start_round
from sponsio_sim.kernels.layout import BOARD, GAME, MONEY, PASS, RULES, stats_size
from sponsio_sim.kernels.betting.scoring import end_check, leaf_share, option_share
from sponsio_sim.rules import load_rules

R4 = load_rules("standard-4p")
HANDS = ["R9 R8 R3 B7 B2 G9 G4 Y5", "R7 R6 B9 B5 G8 G2 Y9 Y1", "R5 R2 B8 B4 G7 G6 Y8 Y3",
         "R4 R1 B6 B3 G5 G3 Y7 Y6"]
TALON = "B1 G1 Y4 Y2"
LEAF = "mc20:goal:net:horizon=net x4"


def random_net(seed=0, scale=0.3, value=None) -> NetWeights:
    """A random network; ``value``: its value head says ``value`` everywhere instead."""
    spec = net_spec(R4)
    rng = np.random.default_rng(seed)
    w = rng.normal(0, scale, (spec.n_inputs, 12))
    v = (rng.normal(0, scale, (12, 1)), rng.normal(0, scale, 1)) if value is None else (np.zeros((12, 1)),
                                                                                          np.array([value]))
    return NetWeights(spec, [(w, rng.normal(0, scale, 12))],
                      (rng.normal(0, scale, (12, spec.n_actions)), rng.normal(0, scale, spec.n_actions)), v)


def round_start(net, profile=LEAF):
    board, game_state, money = build_state(R4, parse_profile(profile, R4), find_model(R4), net=net)
    start_game(0, game_state, money)
    start_round(board, game_state, money)
    for s, h in enumerate(HANDS):
        board[BOARD.hands + s] = mask_of(parse_cards(h, R4))
    board[BOARD.talon] = mask_of(parse_cards(TALON, R4))
    return board, game_state, money


def head(net, s, board, game_state, money):
    """The value head by numpy (``NetWeights.forward``) on seat s's round-end inputs."""
    x = scratch_of(game_state, money)[0]
    encode(s, True, board, game_state, money, x)
    return float(net.forward(x.copy())[1][0])


def test_the_leaf_parses_round_trips_and_applies_to_mc_only():
    st = parse_strategy("MC400:goal:cash3:without=nines:horizon=net", R4)
    assert (st.betting, st.cash, st.horizon, st.without) == ("mc", 3, "net", ("nines",))
    assert parse_strategy(st.text, R4) == st and st.text.endswith(":horizon=net")
    assert parse_strategy("mc:goal", R4).horizon is None
    assert uses_net([st]) and not uses_net([parse_strategy("mc:goal:cash3", R4)])
    with pytest.raises(UserError, match="applies to mc only"):
        parse_strategy("ev:goal:net:horizon=net", R4)
    with pytest.raises(UserError, match="use horizon=net"):
        parse_strategy("mc:goal:horizon=game", R4)


def test_the_leaf_refuses_a_network_of_another_spec():
    """The leaf reads the shipped network for the player count, refused as ``net`` refuses it."""
    other = load_rules("standard-4p", overrides={"tokens": ["lead"]})    # another action set, the same deal
    with pytest.raises(UserError, match="^net: rule set standard-4p has another catalogue or token set"):
        build_state(other, parse_profile("mc:goal:never:horizon=net x4", other), find_model(R4))
    build_state(other, parse_profile("mc:goal:never x4", other), find_model(R4))   # the full mc needs none


def test_a_rollout_to_the_rounds_end_scores_the_value_head_there():
    net = random_net()
    board, game_state, money = round_start(net)
    s = actor(0, game_state)
    work = new_work(s, board, game_state, money)
    for r in range(3):
        deal_world(r, np.uint64(77), work)
        start = work.scratch.rng.copy()
        no = np.int64(-1)
        got = rollout(0, s, (np.int64(PASS), no, no, no), board, game_state, money, work, start)[0]
        tab2, ints2, w2 = work.scratch.board, work.scratch.game_state, work.scratch.money
        assert ints2[GAME.round] == 0 and ints2[GAME.betting_steps] > 0      # the round was played, not counted
        ints2[GAME.round] += 1
        assert end_check(ints2, w2) == (0, 0)                                  # the game goes on: the head decides
        ints2[GAME.round] -= 1
        assert got == pytest.approx(head(net, s, tab2, ints2, w2), abs=1e-5)
    # the default mc scores the same rollout by the seat's coins
    rulebook(game_state)[0][RULES.mc_leaf:RULES.mc_leaf + 4] = 0
    coins = rollout(0, s, (np.int64(PASS), no, no, no), board, game_state, money, work, start)[0]
    assert coins == work.scratch.money[MONEY.coins + s] - money[MONEY.coins + s]


def test_where_the_game_ends_with_the_round_the_leaf_is_the_real_outcome():
    net = random_net(1)
    board, game_state, money = round_start(net)
    game_state[GAME.round] = R4.max_rounds - 1                   # counting this round ends the game
    money[MONEY.coins:MONEY.coins + 4] = [12.0, 15.0, 15.0, 3.0]   # seats 1 and 2 share the win
    assert [leaf_share(s, board, game_state, money) for s in range(4)] == [0.0, 0.5, 0.5, 0.0]
    game_state[GAME.round] = 0
    assert leaf_share(0, board, game_state, money) == pytest.approx(head(net, 0, board, game_state, money), abs=1e-5)
    # cashing in that reaches the coins that end the game wins it for the richest seat, whatever the head says
    board, game_state, money = round_start(random_net(1, value=0.6))
    money[MONEY.coins + 1:MONEY.coins + 4] = [15.0, 15.0, 3.0]
    game_state[GAME.track] = 5
    money[MONEY.coins] = R4.coins_to_end - R4.track_value[5] + 1
    assert option_share(0, True, board, game_state, money) == 1.0
    assert game_state[GAME.track] == 5 and money[MONEY.coins] == R4.coins_to_end - R4.track_value[5] + 1
    mc_cash_ins(board, game_state, money, np.array([7, 8, 9, 10], dtype=np.uint64), np.zeros(stats_size(4)), None)
    assert game_state[GAME.track] == 0 and money[MONEY.coins] == R4.coins_to_end + 1
