"""Whole games: the narrated game agrees with the kernel, coins are conserved
round by round (recomputed here from the rules, not read from the kernel),
and the betting policies behave as their parameters say."""

import numpy as np
import pandas as pd
import pytest

from sponsio_sim.analysis.game.narrate import narrate_game
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import build_state, parse_profile
from sponsio_sim.bets import parse_bet
from sponsio_sim.kernels.layout import (ENTRY_STATS, MAX_ROWS, ROW_STATS, SEAT_STATS, SHAPE_STATS, STATS_HEAD,
                                        named_stats, rows_head, seat_head, shape_head, stats_size, troll_hist_head)
from sponsio_sim.kernels.game.engine import game_chunk, mc_switch, scored_switch
from sponsio_sim.rules import load_rules

PROFILE = "ev:goal:cash4, troll:goal, ev:goal:never, random:random"
PROFILES = [PROFILE, "random:goal:cash2 x4", "random0.1:greedy:cash3, ev0.3:goal:cash5, random:random, troll:goal"]


def kernel_game(rules, profile, seed):
    strategies = parse_profile(profile, rules)
    board, game_state, money = build_state(rules, strategies, find_model(rules))
    row = np.zeros(stats_size(rules.players))
    game_chunk(np.uint64(seed), np.int64(0), np.int64(1), board, game_state, money, row, np.zeros((1, 8)),
               scored_switch(game_state), mc_switch(game_state))
    return row


@pytest.mark.parametrize("seed", [3, 4])
def test_narrated_game_agrees_with_the_kernel(seed):
    r = load_rules("standard-4p")
    g = narrate_game(PROFILE, seed=seed)
    row = kernel_game(r, PROFILE, seed)
    for s in range(4):
        b = named_stats(row, r.players)["entry"][s]
        assert b["coins"] == pytest.approx(g.final_coins[s])
        assert bool(b["win"]) == (s in g.winners)
        assert b["rounds"] == g.rounds["round"].max()
    assert named_stats(row, r.players)["ended"][["track", "coins", "rounds"].index(g.reason)] == 1


def _bet_payout(text, rules, seat):
    note = text.strip()
    bet_text, outcome = note.split(" ", 1)
    won = outcome.startswith("won")
    mult = rules.multiplier_for(parse_bet(bet_text, rules, seat)) * rules.stake
    return (mult * (2 if "doubled" in outcome else 1) if won else 0.0), won


@pytest.mark.parametrize("players,profile", [(4, p) for p in PROFILES]
                         + [(3, "ev:goal:cash4, troll:goal, random0.2:random"), (3, "random:goal:cash2 x3")])
def test_coins_in_equal_coins_out_every_round(profile, players):
    r = load_rules(players=players)
    for seed in range(1, 6):
        df = narrate_game(profile, players=players, seed=seed).rounds
        for rnd, rows in df.groupby("round"):
            rows = rows.sort_values("seat")
            # every coin moved is a stake, token fee, payout, troll pay, bonus or cash-in
            assert np.allclose(rows["coins"], rows["coins_before"] - rows["stakes"] - rows["token_fees"]
                               + rows["payout"] + rows["troll_pay"] + rows["bonus"] + rows["cash_in"])
            failed = 0
            for s, bets in zip(rows["seat"], rows["bets"]):
                pays = [_bet_payout(b, r, s) for b in bets.split(",") if b.strip()]
                assert rows[rows.seat == s]["payout"].iloc[0] == pytest.approx(sum(p for p, _ in pays))
                assert rows[rows.seat == s]["stakes"].iloc[0] == len(pays) * r.stake
                failed += sum(1 for _, w in pays if not w)
            trolls = rows["bets"] == ""
            assert (rows.loc[trolls, "troll_pay"] == failed * r.troll_pay).all()
            assert (rows.loc[~trolls, "troll_pay"] == 0).all()
            gain = rows["payout"] + rows["troll_pay"]
            top = gain.max()
            expect = np.where((gain == top) & (top > 0), r.round_bonus, 0)
            assert (rows["bonus"].to_numpy() == expect).all()
            assert (rows["dealer"] == (players - 1 + rnd - 1) % players).all()
        # coins carry over from round to round
        for s in range(players):
            seat = df[df.seat == s].sort_values("round")
            assert (seat["coins_before"].iloc[1:].to_numpy() == seat["coins"].iloc[:-1].to_numpy()).all()
            assert seat["coins_before"].iloc[0] == r.start_coins


def test_game_is_reproducible_and_seed_dependent():
    a = narrate_game(PROFILE, seed=7)
    b = narrate_game(PROFILE, seed=7)
    c = narrate_game(PROFILE, seed=8)
    pd.testing.assert_frame_equal(a.rounds, b.rounds)
    assert a.text == b.text
    assert not a.rounds.equals(c.rounds)


def test_narration_names_every_phase():
    g = narrate_game(PROFILE, seed=3)
    for needle in ("Round 1: dealer seat 3, seat 0 acts first", "talon:", "betting:", "trick phase: seat",
                   "settlement:", "Game over after round"):
        assert needle in g.text
    assert "troll:goal:never" in g.text


@pytest.mark.parametrize("players, entries", [(3, None), (4, None), (5, None), (4, 7)])
def test_named_statistics_read_the_kernel_slots(players, entries):
    """Every named field is the slot the kernel writes (``stats_dtype`` from the offsets;
    a field's statistics hold one block per member)."""
    t = np.arange(stats_size(players, entries), dtype=np.float64)
    s = named_stats(t, players)
    entries = entries or players
    assert s.dtype.itemsize == t.nbytes
    assert s["games"] == STATS_HEAD.games and s["rounds_sq"] == STATS_HEAD.rounds_sq
    assert list(s["ended"]) == [STATS_HEAD.ended, STATS_HEAD.ended + 1, STATS_HEAD.ended + 2]
    e = entries - 1
    assert len(s["entry"]) == entries
    assert s["entry"][e]["coins"] == STATS_HEAD.size + e * ENTRY_STATS.size + ENTRY_STATS.coins
    assert s["entry"][e]["predicted"][4] == STATS_HEAD.size + e * ENTRY_STATS.size + ENTRY_STATS.predicted + 4
    assert s["rows"]["pay_sq"][1, 7] == rows_head(players, entries) + (MAX_ROWS + 7) * ROW_STATS.size + ROW_STATS.pay_sq
    assert s["troll_failed"][0] == troll_hist_head(players, entries)
    assert s["lead_changes_sq"] == shape_head(players, entries) + SHAPE_STATS.lead_changes_sq
    assert s["focal_share_sq"] == shape_head(players, entries) + SHAPE_STATS.focal_share_sq
    assert s["seat"][players - 1]["coins_sq"] == seat_head(players, entries) + (players - 1) * SEAT_STATS.size \
        + SEAT_STATS.coins_sq == t[-1]
    t[STATS_HEAD.size + ENTRY_STATS.win] = -1.0                      # a view, not a copy
    assert s["entry"][0]["win"] == -1.0
