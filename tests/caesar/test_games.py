"""Whole games: reproducibility, narration vs kernel, invariants, strategy strength."""

import numpy as np
import pytest

from tabletop_mc.stats import wilson
from caesar_sim.analysis import RunSettings, narrated_game, run_games
from caesar_sim.analysis.game.simulation import simulate
from caesar_sim.kernels import layout
from caesar_sim.kernels.game.engine import play_one
from caesar_sim.profile import parse_profile
from caesar_sim.rules import kernel_rules, load_rules


def test_same_seed_same_numbers_on_one_or_two_threads():
    a = run_games(4, "value,greedy,random,value", 3000, RunSettings(seed=7, threads=1, progress=False), rotate=True)
    b = run_games(4, "value,greedy,random,value", 3000, RunSettings(seed=7, threads=2, progress=False), rotate=True)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.stats, b.stats)
    c = run_games(4, "value,greedy,random,value", 3000, RunSettings(seed=8, threads=1, progress=False), rotate=True)
    assert not np.array_equal(a.scores, c.scores)


def test_mc_games_are_reproducible_across_threads():
    a = run_games(3, "mc:2,value,random", 40, RunSettings(seed=3, threads=1, progress=False))
    b = run_games(3, "mc:2,value,random", 40, RunSettings(seed=3, threads=2, progress=False))
    assert np.array_equal(a.scores, b.scores)


@pytest.mark.parametrize("players,profile,seed", [(4, "value,value,greedy,mc:4", 2), (3, "random,greedy,value", 5),
                                                  (5, "greedy,value,random,value,greedy", 11)])
def test_narrated_game_agrees_with_kernel(players, profile, seed):
    text, table, _ = narrated_game(players, profile, seed=seed, verbose=True)
    batch = run_games(players, profile, 1, RunSettings(seed=seed, threads=1, progress=False))
    assert list(table["coins"]) == list(batch.scores[0])
    finals = [line for line in text.splitlines() if " in all" in line][-players:]
    assert [int(line.split(", ")[-1].split()[0]) for line in finals] == list(batch.scores[0])
    assert text.count("=== Day") == 3


def test_game_invariants_from_the_log():
    """Per day each seat plays at most 8 distinct merchants; items never exceed the displays."""
    rules = load_rules()
    for seed in range(1, 30):
        prof = parse_profile("random,greedy,value,random", 4)
        game_log = np.zeros((layout.MAX_LOG_ROWS, layout.LOG_FIELDS), np.int64)
        totals = play_one(kernel_rules(rules, 4), prof.kernel_weights(), prof.policies, prof.rollouts, np.uint64(seed),
                          game_log)
        rows = game_log[1:game_log[0, 0] + 1]
        day_starts = np.nonzero(rows[:, 0] == layout.EV_DAY)[0].tolist() + [len(rows)]
        for a, b in zip(day_starts, day_starts[1:]):
            day = rows[a:b]
            bids = day[day[:, 0] == layout.EV_BID]
            for p in range(4):
                vals = bids[bids[:, 1] == p, 2]
                assert len(vals) == len(set(vals)) <= 8
            takes = day[day[:, 0] == layout.EV_TAKE]
            assert (takes[:, 3] == 1).sum() <= (day[:, 0] == layout.EV_TICKET).sum()
            shown = (day[:, 0] == layout.EV_VISITOR).sum()
            assert (takes[:, 3] >= 2).sum() <= shown
        scores = rows[rows[:, 0] == layout.EV_SCORE]
        assert list(scores[-4:, 8]) == list(totals[:4])
        assert (scores[:, 7] == scores[:, 2:7].sum(axis=1)).all()


def test_caesar_variant_games_run_and_use_favour_tickets():
    b = run_games(4, "value x4", 4000, RunSettings(seed=5, overrides=["caesar=true"], progress=False))
    assert layout.STATS.named(b.stats)["favours"][:, 2].sum() > 0
    base = run_games(4, "value x4", 4000, RunSettings(seed=5, progress=False))
    assert layout.STATS.named(base.stats)["favours"][:, 2].sum() == 0


def test_mc_beats_random():
    """A measured test: mc's win rate against three random seats, CI well above a fair 1/4."""
    b = run_games(4, "mc:4,random,random,random", 200, RunSettings(seed=11, progress=False), rotate=True)
    wins = b.win_shares()[:, 0].sum()
    p, low, high = wilson(wins, b.n)
    assert low > 0.25, (p, low, high)


def test_value_beats_random_and_greedy_in_mixed_table():
    sim = simulate(4, "value,greedy,random,value", 4000, RunSettings(seed=3, progress=False), rotate=True,
                   favour_value=False)
    w = sim.tables["wins"].set_index("entry")
    assert w.loc["random", "ci_high"] < w.loc["greedy", "ci_low"]
    assert w.loc["greedy", "ci_high"] < w.loc["value#0", "ci_low"]


def test_mc_game_horizon_runs_reproducibly_and_differs_from_day():
    a = run_games(3, "mc:2,value,greedy", 12, RunSettings(seed=4, mc_horizon="game", threads=1, progress=False))
    b = run_games(3, "mc:2,value,greedy", 12, RunSettings(seed=4, mc_horizon="game", threads=2, progress=False))
    c = run_games(3, "mc:2,value,greedy", 12, RunSettings(seed=4, mc_horizon="day", threads=1, progress=False))
    assert np.array_equal(a.scores, b.scores) and not np.array_equal(a.scores, c.scores)


def test_named_statistics_read_the_kernel_slots():
    """The record view names exactly the slots the kernels add to (``STATS`` offsets)."""
    game_stats = np.arange(layout.STATS.size, dtype=np.float64)
    s = layout.STATS.named(game_stats)
    assert s["days"] == layout.STATS.days
    assert list(s["short"]) == [layout.STATS.short, layout.STATS.short + 1, layout.STATS.short + 2]
    assert s["favours"][2, 3] == layout.STATS.favours + 2 * 4 + 3
    assert s["score_parts"][1, 4, 1] == layout.STATS.score_parts + (1 * layout.SCORE_PARTS + 4) * 2 + 1
    assert s["unclaimed"][3, 0] == layout.STATS.unclaimed + 6
    assert s["bids"][1, 2, 3, 4, 1] == (
        layout.STATS.bids + (((1 * layout.MAX_PLAYERS + 2) * layout.ROWS + 3) * layout.MERCHANT_VALUES + 4)
        * layout.BIN_STATS + 1)
