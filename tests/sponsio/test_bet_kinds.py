"""The bet registry (``sponsio_sim.bet_kinds``) and the bet ``first`` added
through it: its row, plus one branch in each per-kind kernel module
(settle, goal play, DD goal, model cell). Off in the shipped rule sets,
enabled with ``--set bets=[...]``."""

import random
from pathlib import Path

import numpy as np
import pytest

import sponsio_sim
from tabletop_mc.errors import UserError
from sponsio_sim import bet_kinds
from sponsio_sim.analysis.balance.run import run_balance
from sponsio_sim.analysis.game.fit import find_model, fit_model
from sponsio_sim.analysis.game.model import SuccessModel
from sponsio_sim.analysis.game.runs import entry_table, run_games
from sponsio_sim.analysis.game.setup import parse_profile
from sponsio_sim.analysis.odds.query import OddsPlay, Query, odds, stat_index
from sponsio_sim.analysis.settings import Run
from sponsio_sim.bet_kinds import BET_TYPES, KINDS
from sponsio_sim.bets import Bet, catalogue, encode_table, parse_bet, parse_bet_set
from sponsio_sim.cards import mask_of
from sponsio_sim.kernels.bets import settle
from sponsio_sim.kernels.odds.simulate import stats_layout
from sponsio_sim.kernels.play.tricks import play_tricks
from sponsio_sim.kernels.trickstate import new_state, set_round
from sponsio_sim.kernels.layout import TRICK_STATE
from sponsio_sim.rules import load_rules
from tabletop_mc.rng import new_state as new_rng

from sponsio_reference import start_trick, trick_winner
from sponsio_helpers import assert_bets_match_minimax

EVERY_KIND = {"bets": list(BET_TYPES)}
SHIPPED_4P = Path(sponsio_sim.__file__).parent / "models" / "standard-4p.npz"


def with_first(players=4, **more):
    return load_rules(players=players, overrides={**EVERY_KIND, **more})


def test_kind_codes_follow_the_rows():
    for code, kind in enumerate(KINDS):
        assert getattr(bet_kinds, kind.name.upper()) == code
    assert bet_kinds.BET_TYPES == tuple(k.name for k in KINDS)
    assert bet_kinds.MAX_BETS == len(KINDS)


@pytest.mark.parametrize("players,options", [(4, {}), (3, {"fail_target": "any"}), (4, {"hand_size": 5})])
def test_every_catalogue_row_round_trips_and_has_its_own_odds_slot(players, options):
    rules = with_first(players, **options)
    layout = stats_layout(rules.hand_size, rules.n_colours, rules.players)
    for seat in range(rules.players):
        rows = catalogue(rules, seat)
        assert {b.kind for b in rows} == set(BET_TYPES)
        slots = [stat_index(b, layout, rules) for b in rows]
        assert len(set(slots)) == len(slots) and max(slots) < layout["joint"]
        for bet in rows:
            assert parse_bet(bet.notation(rules), rules, seat) == bet
            assert rules.multiplier_for(bet) == rules.multiplier[bet.kind]


def test_first_is_off_in_the_shipped_sets_and_enabled_with_set():
    for players in (3, 4):
        shipped = load_rules(players=players)
        assert "first" not in shipped.bets and "first" not in shipped.as_dict()["multiplier"]
        with pytest.raises(UserError, match="type 'first' is not in rule set"):
            parse_bet("first", shipped, 0)
    rules = with_first()
    assert parse_bet(" First ", rules, 1) == Bet("first")
    assert rules.multiplier_for(Bet("first")) == 2.0           # the registry's default
    assert rules.as_dict()["multiplier"]["first"] == 2.0
    dearer = load_rules(overrides={**EVERY_KIND, "multiplier.first": 3})
    assert dearer.multiplier_for(Bet("first")) == 3.0
    assert load_rules(overrides=["multiplier.first=5"]).as_dict()["multiplier"]["first"] == 5.0
    with pytest.raises(UserError, match="multiplier.first"):
        load_rules(overrides={**EVERY_KIND, "multiplier.first": -1})


def test_first_settles_on_the_winner_of_the_first_trick():
    rules = with_first(3, hand_size=3)
    rng = random.Random(5)
    deck = list(range(rules.deck_size))
    codes, counts = encode_table({s: parse_bet_set("first", rules, s) for s in range(3)}, 3)
    result = np.zeros((3, codes.shape[1]), dtype=np.int64)
    failed = np.zeros(3, dtype=np.bool_)
    for game in range(200):
        cards = rng.sample(deck, 9)
        hands = np.array([mask_of(cards[3 * s:3 * s + 3]) for s in range(3)], dtype=np.uint64)
        board, game_state, money = new_state(rules.n_colours, rules.kernel_flags)
        set_round(board, game_state, hands, np.uint64(0), np.uint64(0))
        leader = game % 3
        _, nine_lost = play_tricks(3, leader, np.zeros(3, dtype=np.int64), board, game_state, money, new_rng(game),
                                   None, None)
        winner, _ = trick_winner([int(game_state[TRICK_STATE.seq + k]) for k in range(3)], leader, 3)
        settle(codes, counts, board, game_state, nine_lost, result, failed)
        assert [int(result[s, 0]) for s in range(3)] == [int(s == winner) for s in range(3)]


def test_goal_play_goes_for_the_first_trick():
    """Seat 0 does not lead: the goal policy plays its top card of the led
    colour to take the first trick; random play does not."""
    rules = with_first()
    p = {}
    for policy in ("goal", "random"):
        df = odds(Query("R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7", lead=1, bets="first"), OddsPlay(policy),
                  n=20_000, rules=rules, run=Run(seed=3)).table
        p[policy] = (float(df["p"].iloc[0]), float(df["ci_low"].iloc[0]), float(df["ci_high"].iloc[0]))
    assert p["goal"][1] > p["random"][2] + 0.05


FIRST_BETS = ["first", "first,tricks=1", "first,tricks=0", "first,last", "first,nines", "first,colour:R=1"]


@pytest.mark.parametrize("case", range(12))
def test_first_under_double_dummy_matches_minimax(case):
    """Alone, with bets it can clash with (tricks=0), and as the target of a fail bet."""
    players, hand = ((4, 3), (3, 4))[case % 2]
    rng = random.Random(7000 + case)
    rules = with_first(players, hand_size=hand)
    cards = rng.sample(range(rules.deck_size), players * hand)
    hands = [sorted(cards[s * hand:(s + 1) * hand]) for s in range(players)]
    leader = rng.randrange(players)
    trick = start_trick(rng, hands, leader) if case % 3 == 2 else []
    seat = rng.randrange(players)
    notation = FIRST_BETS[case % len(FIRST_BETS)]
    others = {}
    if case % 4 == 3:   # another seat bets first; the asking seat bets it fails
        target = (seat + 1) % players
        others[target] = parse_bet_set("first", rules, target)
        notation = f"fail:{target}"
    assert_bets_match_minimax(rules, hands, leader, trick, seat, parse_bet_set(notation, rules, seat), others)


def test_first_in_games_the_fitted_model_and_balance():
    rules = with_first()
    model = fit_model(rules, n=20_000, seed=2)
    assert model.covers(rules.bets)
    first = model.tables(model.bets)[BET_TYPES.index("first")]
    assert first.shape == KINDS[BET_TYPES.index("first")].cell_sizes and first.sum() > 500
    strategies = parse_profile("ev:goal:cash4 x4", rules)
    totals = run_games(rules, strategies, 300, rotate=True, seed=4, model=model)
    entries = entry_table(totals, strategies, True, rules)
    assert entries["first_placed"].sum() > 0
    assert 0.0 < float(entries["first_predicted"].iloc[0]) <= 1.0
    kinds = run_balance(rules, "ev:goal:cash4 x4", 300, seed=4, model=model, cache=False).kinds
    row = kinds.set_index("type").loc["first"]
    assert row["placed"] > 0 and row["multiplier"] == 2.0
    # a model fitted before the kind existed (the shipped one) is padded, not usable for it
    old = SuccessModel.load(SHIPPED_4P)
    assert not old.covers(["first"]) and old.covers(load_rules().bets)
    with pytest.raises(UserError, match="no fitted bets of type first"):
        find_model(rules, SHIPPED_4P)
