"""Fields (seats drawing their strategies per game), the softmax and distilled betting policies."""

import numpy as np
import pytest

from tabletop_mc.field import Field
from tabletop_mc.stats import wilson
from sponsio_sim.analysis.game.exploit import Deviations, exploit, paired_run
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.runs import entry_table, focal_share, run_games
from sponsio_sim.analysis.game.setup import Profile, build_state, ev_weights, parse_strategy, rulebook
from sponsio_sim.analysis.settings import Run
from sponsio_sim.kernels.betting.candidates import ev_candidates, step_candidates
from sponsio_sim.kernels.betting.policies import choose_ev
from sponsio_sim.kernels.betting.phase import actor, apply_action, betting_steps
from sponsio_sim.kernels.betting.scored import distilled_scores, pick
from sponsio_sim.kernels.layout import (BOARD, CANDIDATE_FEATURES, MAX_CANDS, MAX_ROWS, MONEY_RULES, PAIRED,
                                        PAIR_STATS, PASS)
from sponsio_sim.kernels.game.engine import start_game, start_round
from sponsio_sim.rules import load_rules

R4 = load_rules(None, 4)
MEMBERS = ("ev0.5:goal:cash3", "troll:goal", "ev0:goal:cash4:temp=0.5")


def field(weights, members=MEMBERS):
    f = Field("sponsio", 4, "standard-4p", tuple(parse_strategy(m, R4).text for m in members), tuple(weights))
    return Profile([parse_strategy(m, R4) for m in members], f, "test field")


def test_seats_draw_members_by_the_weights_reproducibly():
    prof = field((0.25, 0.0, 0.75))
    model = find_model(R4)
    a = run_games(R4, prof, 480, rotate=False, seed=3, model=model)
    b = run_games(R4, prof, 480, rotate=False, seed=3, model=model)
    assert np.array_equal(a, b)
    t = entry_table(a, prof, False, R4)
    seat_games = 480 * 4
    assert t["games"].sum() == seat_games and t.loc[1, "games"] == 0
    p, lo, hi = wilson(t.loc[0, "games"], seat_games)
    assert lo <= 0.25 <= hi
    assert set(t["seat"]) == {"any"} and list(t["weight"]) == [0.25, 0.0, 0.75]


def test_a_deviation_against_the_field_is_paired_and_equals_two_separate_runs():
    prof = field((0.5, 0.2, 0.3))
    dev = parse_strategy("ev0.25:goal:cash2", R4)
    model = find_model(R4)
    grown = prof.with_member(dev)
    base, devd, pair = paired_run(R4, grown, grown, len(prof), 240, seed=5, model=model, focal=len(prof))
    # the same games played apart: the field alone, and the field with dev at the focal seat
    alone = run_games(R4, grown, 240, rotate=False, seed=5, model=model)
    assert np.allclose(alone, base)
    gain = pair[PAIR_STATS.share + PAIRED.diff] / pair[PAIR_STATS.games]   # the mean paired difference
    board = entry_table(devd, grown, False, R4)
    assert board.loc[len(prof), "games"] == 240            # dev sits at exactly the focal seat
    assert gain == pytest.approx(board.loc[len(prof), "win_share"] - focal_share(alone, 4), abs=1e-12)


def test_exploit_of_a_field_starts_from_its_own_value():
    res = exploit(field((0.5, 0.2, 0.3)), n=60, deviating=Deviations(family="troll"), run=Run(seed=2))
    df = res.table
    assert list(df["deviation"]) == ["(profile)", "troll"]
    assert res.field and res.entry == 0          # the heaviest member's deviations
    assert df.loc[0, "win_share"] == pytest.approx(df.loc[0, "win_share_tournament"])


def betting_states(profile, deals=40, seed=0):
    """(s, board, game_state, money) at every betting step of ``deals`` random rounds, ev acting throughout."""
    rules = R4
    model = find_model(rules)
    board, game_state, money = build_state(rules, Profile([parse_strategy(profile, rules)] * 4), model)
    rng = np.random.default_rng(seed)
    for d in range(deals):
        start_game(d, game_state, money)
        start_round(board, game_state, money)
        cards = rng.permutation(36)
        for s in range(4):
            board[BOARD.hands + s] = np.uint64(sum(1 << int(c) for c in cards[8 * s:8 * s + 8]))
        board[BOARD.talon] = np.uint64(sum(1 << int(c) for c in cards[32:]))
        for k in range(betting_steps(game_state)):
            s = actor(k, game_state)
            yield s, board, game_state, money
            act, x, y, rv = choose_ev(s, board, game_state, money)
            apply_action(s, act, x, y, rv, board, game_state, money)


def test_ev_candidates_first_best_is_evs_choice():
    """The softmax policy's list: at temperature 0 it is ev (a test of every state, not a sample)."""
    cands = np.zeros((MAX_CANDS, 4), dtype=np.int64)
    gains = np.zeros(MAX_CANDS)
    seen = 0
    for s, board, game_state, money in betting_states("ev0.3:goal:cash3"):
        n = ev_candidates(s, board, game_state, money, cands, gains)
        i = pick(gains, n, 0.0, np.zeros(4, dtype=np.uint64))
        want = tuple(int(v) for v in choose_ev(s, board, game_state, money))
        got = tuple(int(v) for v in cands[i])
        assert got == want or got[0] == want[0] == PASS     # a pass reveals nothing
        seen += n > 1
    assert seen > 100


def test_softmax_sampling_follows_the_weights_and_its_limits():
    gains = np.array([0.0, 1.0, 2.0, 0.5])
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    draws = np.bincount([pick(gains, 4, 1.0, state) for _ in range(20000)], minlength=4) / 20000
    want = np.exp(gains) / np.exp(gains).sum()
    assert np.allclose(draws, want, atol=0.015)
    assert {pick(gains, 4, 1e-9, state) for _ in range(50)} == {2}
    wide = np.bincount([pick(gains, 4, 1e6, state) for _ in range(8000)], minlength=4) / 8000
    assert np.allclose(wide, 0.25, atol=0.03)


def test_distilled_with_evs_weights_scores_each_candidate_by_its_model_gain():
    cands = np.zeros((MAX_CANDS, 4), dtype=np.int64)
    gains = np.zeros(MAX_CANDS)
    nopilot = np.full(MAX_ROWS, -1.0)
    checked = 0
    for s, board, game_state, money in betting_states("ev:goal:cash3", deals=15, seed=1):
        weights = rulebook(game_state)[1][MONEY_RULES.distilled_weights:]
        weights[:CANDIDATE_FEATURES.size] = ev_weights(R4)
        n = step_candidates(s, board, game_state, money, nopilot, cands, gains)
        model_gains = gains[:n].copy()
        distilled_scores(s, n, board, game_state, money, cands, gains)
        assert np.allclose(gains[1:n], model_gains[1:n])
        checked += n - 1
    assert checked > 200
