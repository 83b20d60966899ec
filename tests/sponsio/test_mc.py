"""The ``mc`` betting policy (``kernels.betting.mc``): notation, obvious
decisions in hand-made positions, the race, reproducibility, and the counts
of its search audit (``game.audit``, ``scripts/bench_mc.py``)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import DEFAULT_ROLLOUTS, MC_KEEP, build_state, parse_strategy
from sponsio_sim.cards import mask_of, parse_cards
from sponsio_sim.cli import main
from sponsio_sim.kernels.layout import AUDIT_COUNTS, BOARD, GAME, MAX_BETS, MONEY, stats_size
from sponsio_sim.kernels.betting.rollout import race
from sponsio_sim.kernels.game.audit import audit_chunk
from sponsio_sim.kernels.game.engine import (betting_phase, mc_cash_ins, mc_switch, scored_switch, start_game,
                                            start_round)
from sponsio_sim.analysis.game.setup import parse_profile, rows_of
from sponsio_sim.rules import load_rules
from tabletop_mc.errors import UserError

R4 = load_rules("standard-4p")


@pytest.mark.parametrize("text, rollouts", [("mc:goal", DEFAULT_ROLLOUTS), ("mc400:goal:cash4", 400),
                                            ("MC1:greedy", 1)])
def test_notation(text, rollouts):
    st = parse_strategy(text, R4)
    assert st.betting == "mc" and int(st.kernel_param) == rollouts
    assert parse_strategy(st.text, R4) == st


@pytest.mark.parametrize("text", ["mc0:goal", "mc1.5:goal", "mc-3:goal", "mc1000001:goal"])
def test_bad_rollouts_are_one_clear_error(text):
    with pytest.raises(UserError, match="rollouts of mc"):
        parse_strategy(text, R4)


def bets_after_betting(hands, talon, profile="mc:goal x1, troll:goal x3", seed=1):
    """Seat 0 acts first (dealer 3) and leads; the bets every seat holds when betting ends."""
    board, game_state, money = build_state(R4, parse_profile(profile, R4), find_model(R4))
    start_game(0, game_state, money)
    start_round(board, game_state, money)
    for s, h in enumerate(hands):
        board[BOARD.hands + s] = mask_of(parse_cards(h, R4))
    board[BOARD.talon] = mask_of(parse_cards(talon, R4))
    state = np.array([seed, 2, 3, 4], dtype=np.uint64)
    betting_phase(board, game_state, money, state, np.zeros((1, 8)), scored_switch(game_state),
                  mc_switch(game_state), None)
    rows = [b.notation(R4) for b in rows_of(R4)]
    return [[rows[game_state[GAME.bet_row + s * MAX_BETS + i]] for i in range(game_state[GAME.bet_count + s])]
            for s in range(4)]


def test_a_hand_that_wins_every_trick_bets_it():
    # seat 0 holds every red but R1 (in the talon) and leads: the others can never follow
    bets = bets_after_betting(["R9 R8 R7 R6 R5 R4 R3 R2", "B9 B8 B7 B6 B5 B4 B3 B2",
                               "G9 G8 G7 G6 G5 G4 G3 G2", "Y9 Y8 Y7 Y6 Y5 Y4 Y3 Y2"], "R1 B1 G1 Y1")
    assert "tricks=8" in bets[0] and "last" in bets[0], bets[0]
    assert "colour:R=8" in bets[0], bets[0]
    assert bets[1:] == [[], [], []]


def test_a_hand_that_cannot_win_a_trick_does_not_bet_last():
    # seat 0 holds the two lowest cards of each colour; every seat holds two of each colour
    bets = bets_after_betting(["R1 R2 B1 B2 G1 G2 Y1 Y2", "R3 R4 B3 B4 G3 G4 Y3 Y4",
                               "R5 R6 B5 B6 G5 G6 Y5 Y6", "R7 R8 B7 B8 G7 G8 Y7 Y8"], "R9 B9 G9 Y9")
    assert "last" not in bets[0], bets[0]
    # sure bets: no trick, no red card won, and no 9 is played (all four are in the talon)
    assert {"tricks=0", "nines"} <= set(bets[0]), bets[0]


def test_race_drops_a_clearly_worse_candidate_and_keeps_a_close_one():
    rng = np.random.default_rng(1)
    base = rng.normal(0, 3, 40)                      # the shared deals' luck
    gain = np.vstack([base + 1.0, base - 1.0 + rng.normal(0, 0.3, 40), base + 1.0 + rng.normal(0, 3, 40)])
    alive = np.ones(3, dtype=np.bool_)
    assert race(gain, 40, alive) == 2
    assert list(alive) == [True, False, True]


def test_same_seed_same_games_on_any_thread_count():
    runner = CliRunner()
    args = ["tournament", "--players", "4", "--profile", "mc20:goal:cash4, ev:goal:cash4 x3", "-n", "6",
            "--rotate", "--seed", "5", "--format", "json", "-q"]
    one = runner.invoke(main, args + ["--threads", "1"])
    two = runner.invoke(main, args + ["--threads", "2"])
    assert one.exit_code == 0, one.output
    assert json.loads(one.output)["results"] == json.loads(two.output)["results"]


def test_the_search_audit_counts_what_the_games_searched():
    """``scripts/bench_mc.py``'s counts (``game.audit``): plays the games with the ``mc`` engine the games use."""
    board, game_state, money = build_state(R4, parse_profile("mc8:goal:cash4, ev:goal:cash4 x3", R4), find_model(R4),
                                           rotate=True)
    size = np.int64(stats_size(4))
    plain, audited = (AUDIT_COUNTS.named(audit_chunk(np.uint64(3), np.int64(0), np.int64(2), np.int64(MC_KEEP),
                                                     np.int64(a), board, game_state, money, size)) for a in (0, 1))
    assert plain["decisions"] == plain["pruned"] == plain["regret"] == 0 and plain["searches"] > 0
    assert 0 < audited["decisions"] and 0 <= audited["pruned"] <= audited["decisions"]
    assert audited["searches"] >= plain["searches"] and audited["rollouts"] > audited["searches"]


def cash_in_state(pos, coins, others):
    """mc seat 0 at track position ``pos`` after a round's scoring, with the given coins."""
    board, game_state, money = build_state(R4, parse_profile("mc:goal:cash8, ev:goal:never x3", R4), find_model(R4))
    start_game(0, game_state, money)
    game_state[GAME.track] = pos
    money[MONEY.coins] = coins
    money[MONEY.coins + 1:MONEY.coins + 4] = others
    mc_cash_ins(board, game_state, money, np.array([7, 8, 9, 10], dtype=np.uint64), np.zeros(stats_size(4)), None)
    return int(game_state[GAME.track]), float(money[MONEY.coins])


def test_mc_cashes_in_when_that_wins_the_game_now():
    # position 5 is worth 9 coins: 25 + 9 ends the game (30 coins) with seat 0 the richest
    assert cash_in_state(5, 25.0, 24.0) == (0, 34.0)


def test_mc_keeps_its_position_when_cashing_in_gives_a_rival_the_win():
    # cashing 1 coin ends nothing; seat 0 is poor, so only the track (9 in a row) can still win it the game
    pos, coins = cash_in_state(8, 5.0, 29.0)
    assert pos == 8 and coins == 5.0


def test_an_mc_seats_rollouts_never_search():
    """A rollout plays an ``mc`` seat's later decisions by ev, distilled or net (the rounds it plays are
    compiled without the search: ``kernels.game.engine.rollout_game``), so ``mc`` is refused there."""
    r4 = load_rules("standard-4p")
    with pytest.raises(ValueError, match="by ev, distilled or net, not 'mc'"):
        build_state(r4, parse_profile("mc:goal:cash4 x4", r4), find_model(r4), mc_self="mc")


def test_rollout_r_deals_the_same_world_whatever_came_before():
    from sponsio_sim.kernels.betting.rollout import deal_world, new_work
    board, game_state, money = build_state(R4, parse_profile("mc:goal, troll:goal x3", R4), find_model(R4))
    start_game(0, game_state, money)
    start_round(board, game_state, money)
    for s, h in enumerate(["R9 R8 R7 R6 R5 R4 R3 R2", "B9 B8 B7 B6 B5 B4 B3 B2", "G9 G8 G7 G6 G5 G4 G3 G2",
                           "Y9 Y8 Y7 Y6 Y5 Y4 Y3 Y2"]):
        board[BOARD.hands + s] = mask_of(parse_cards(h, R4))
    work = new_work(0, board, game_state, money)
    key = np.uint64(12345)
    deal_world(3, key, work)
    first = work.dealt.copy()
    for r in range(6):
        deal_world(r, key, work)
    deal_world(3, key, work)
    assert (work.dealt == first).all() and first[0] == board[BOARD.hands]           # seat 0 keeps its own hand
    assert sorted(int(h).bit_count() for h in first[1:]) == [8, 8, 8]


def test_mc_against_a_field_plays_the_focal_seat_and_records_its_decisions():
    """An mc deviation paired with a field (its rollouts draw the others from the field), and the
    decision record distillation reads (one row per searched candidate, pass first)."""
    from sponsio_sim.analysis.game.distill import record
    from sponsio_sim.analysis.game.meta import focal_gain
    from sponsio_sim.analysis.game.setup import ev_weights, mixture_profile
    field = mixture_profile([parse_strategy(t, R4) for t in ("ev0.5:goal:cash3", "troll:goal:cash4")], [0.7, 0.3],
                            "f", R4)
    g, lo, hi = focal_gain(R4, field, parse_strategy("mc8:goal:cash3", R4), 32, seed=3, model=find_model(R4))
    assert -1 <= lo <= g <= hi <= 1   # 32 games: enough for an interval (MIN_MEAN_N)
    rec = record(R4, field, find_model(R4), ev_weights(R4), games=2, seed=4, mc="mc20:goal:cash3")
    assert len(rec) and rec.groupby("decision")["chosen"].sum().eq(1).all()
    assert (rec["rollouts"] > 0).all() and (rec.groupby("decision").head(1)["advantage"] == 0).all()
