"""Fields (seats drawn per game), focal deviations, softmax members, mc field rollouts."""

import numpy as np
import pytest

from tabletop_mc.errors import UserError
from tabletop_mc.field import Field
from tabletop_mc.rng import new_state
from caesar_sim.analysis.game.runs import RunSettings, run_field
from caesar_sim.fieldplay import mixture_play
from caesar_sim.kernels import api
from caesar_sim.kernels import layout
from caesar_sim.profile import parse_profile
from caesar_sim.rules import kernel_rules, load_rules
from caesar_sim.strategy import kernel_matrix, parse_strategy


def states(players=4, profile="tuned x4", count=400, seed=3):
    """Real positions: the states at every decision of a few games."""
    prof = parse_profile(profile, players)
    rulebook = kernel_rules(load_rules(), players)
    weight_table = prof.kernel_weights()
    return rulebook, weight_table, api.k_states(rulebook, weight_table, prof.policies, prof.rollouts, np.uint64(seed),
                                                count)


def test_field_draws_are_reproducible_and_follow_the_weights():
    f = mixture_play("t", 3, ["value", "greedy", "random"], [0.6, 0.3, 0.1])
    a = run_field(3, f, 3000, RunSettings(seed=4, threads=1, progress=False))
    b = run_field(3, f, 3000, RunSettings(seed=4, threads=2, progress=False))
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.members, b.members)
    share = np.bincount(a.members.ravel(), minlength=3) / a.members.size
    se = np.sqrt(np.array(f.weights) * (1 - np.array(f.weights)) / a.members.size)
    assert np.all(np.abs(share - f.weights) < 4 * se), share
    c = run_field(3, f, 3000, RunSettings(seed=5, progress=False))
    assert not np.array_equal(a.members, c.members)
    # the draws have a stream of their own: other members with the same weights draw the same seats
    g = mixture_play("t", 3, ["tuned", "random", "greedy"], [0.6, 0.3, 0.1])
    assert np.array_equal(run_field(3, g, 3000, RunSettings(seed=4, progress=False)).members, a.members)


def test_the_game_stream_does_not_depend_on_how_seats_are_chosen():
    """Game g is the same deal and the same random choices whether its seats were drawn or given."""
    drawn = run_field(4, mixture_play("t", 4, ["value"], [1.0]), 300, RunSettings(seed=6, progress=False))
    given = run_field(4, mixture_play("t", 4, ["greedy", "value"], [0.5, 0.5]), 300,
                      RunSettings(seed=6, progress=False), seating=[1, 1, 1, 1])
    assert np.array_equal(drawn.scores, given.scores)
    rot = run_field(4, mixture_play("t", 4, ["greedy", "value"], [0.5, 0.5]), 8, RunSettings(seed=6, progress=False),
                    seating=[0, 1, 1, 1])
    assert [list(m) for m in rot.members[:2]] == [[0, 1, 1, 1], [1, 1, 1, 0]]


def test_focal_seat_rotates_and_the_others_keep_their_draws():
    f = mixture_play("t", 4, ["value", "greedy"], [0.5, 0.5])
    base = run_field(4, f, 400, RunSettings(seed=2, progress=False))
    dev = run_field(4, f.with_focal("random"), 400, RunSettings(seed=2, progress=False))
    g = np.arange(400)
    assert (dev.members[g, g % 4] == 2).all()
    others = np.ones((400, 4), bool)
    others[g, g % 4] = False
    assert np.array_equal(dev.members[others], base.members[others])
    assert np.array_equal(dev.entry_scores()[:, 0], dev.scores[g, g % 4])


def test_value_scores_rank_values_choice_first():
    """The unpruned scores (softmax, distilled) agree with value's pruned scan: its choice scores best."""
    rulebook, weight_table, game_state = states()
    for s in game_state:
        acts, sc = api.k_scores(rulebook, weight_table, s, False)
        a = int(api.k_decide(rulebook, weight_table, s.copy(), new_state(1)))
        assert sc[list(acts).index(a)] == pytest.approx(sc.max(), abs=1e-9)
        assert sorted(acts) == sorted(api.k_legal(s, int(s[layout.STATE.turn])))


@pytest.mark.parametrize("temp", [1e-6, 100])
def test_softmax_member_limits(temp):
    """Temperature -> 0: value's own choice wherever it is the unique best; very hot: uniform over legal actions."""
    rulebook, weight_table, game_state = states(count=150)
    hot = np.tile(parse_strategy(f"tuned:temp={temp:g}", 4).row, (layout.MAX_PLAYERS, 1)).reshape(-1)
    rng = new_state(9)
    if temp < 1:
        for s in game_state:
            acts, sc = api.k_scores(rulebook, weight_table, s, False)
            top = np.flatnonzero(sc >= sc.max() - 1e-9)
            for _ in range(3):
                a = int(api.k_decide(rulebook, hot, s.copy(), rng))
                assert a in acts[top]
                if len(top) == 1:
                    assert a == int(api.k_decide(rulebook, weight_table, s.copy(), rng))
        return
    s = next(s for s in game_state if len(api.k_legal(s, int(s[layout.STATE.turn]))) >= 6)
    acts = list(api.k_legal(s, int(s[layout.STATE.turn])))
    seen = [int(api.k_decide(rulebook, hot, s.copy(), rng)) for _ in range(3000)]
    freq = np.array([seen.count(a) for a in acts]) / 3000
    assert set(seen) == set(acts) and np.abs(freq - 1 / len(acts)).max() < 0.05, freq


def test_mc_field_rollouts_draw_the_others_from_the_field(tmp_path):
    fpath = tmp_path / "f.json"
    from tabletop_mc.field import field_to_json
    fpath.write_text(field_to_json(Field("caesar", 4, "standard", ("value", "greedy", "tuned:temp=0.5"),
                                         (0.5, 0.25, 0.25), value=0.25)))
    mc = parse_strategy(f"mc:2:field:{fpath}", 4)
    assert mc.label == f"mc:2:field:{fpath}" and parse_strategy(f"mc:2:value:field:{fpath}", 4).field
    strategies = [mc] + [parse_strategy("tuned", 4)] * 3
    weight_table = kernel_matrix(strategies, 4)
    rows = weight_table.reshape(-1, layout.WEIGHTS.size)
    f0, fn = int(rows[0, layout.WEIGHTS.field_first]), int(rows[0, layout.WEIGHTS.field_size])
    assert fn == 3 and f0 == layout.MAX_PLAYERS and rows[f0 + 2, layout.WEIGHTS.temperature] == 0.5
    assert ([int(rows[f0 + i, layout.WEIGHTS.rollout_policy]) for i in range(3)]
            == [layout.VALUE, layout.GREEDY, layout.VALUE])
    rulebook, _, game_state = states(count=1)
    s = game_state[0].copy()
    s[layout.STATE.turn], s[layout.STATE.weight_row:layout.STATE.weight_row + 4] = 0, np.arange(4)
    rng = new_state(3)
    drawn = []
    for _ in range(2000):
        r, pol = api.k_rollout_seats(weight_table, s, rng)
        assert r[0] == 0 and pol[0] == int(rows[0, layout.WEIGHTS.rollout_policy])   # the mover keeps its own row
        drawn += list(r[1:] - f0)
    freq = np.bincount(drawn, minlength=3) / len(drawn)
    assert np.abs(freq - [0.5, 0.25, 0.25]).max() < 0.02, freq
    # without a field every seat rolls out with the mover's row
    r, _ = api.k_rollout_seats(kernel_matrix([parse_strategy("mc:2", 4)] * 4, 4), s, rng)
    assert list(r) == [0, 0, 0, 0]


def test_mc_with_field_rollouts_plays_whole_games(tmp_path):
    from tabletop_mc.field import field_to_json
    fpath = tmp_path / "f.json"
    fpath.write_text(field_to_json(Field("caesar", 3, "standard", ("value", "greedy"), (0.5, 0.5), value=1 / 3)))
    f = mixture_play("t", 3, ["value", "greedy"], [0.5, 0.5])
    a = run_field(3, f.with_focal(f"mc:2:field:{fpath}"), 30, RunSettings(seed=1, threads=1, progress=False))
    b = run_field(3, f.with_focal(f"mc:2:field:{fpath}"), 30, RunSettings(seed=1, threads=2, progress=False))
    assert np.array_equal(a.scores, b.scores)
    with pytest.raises(UserError, match="not 4"):
        parse_strategy(f"mc:2:field:{fpath}", 4)


@pytest.mark.parametrize("text,msg", [
    ("tuned:temp=0", "bad temperature"), ("value:temp=x", "bad temperature"), ("tuned:temp=-1", "bad temperature"),
    ("tuned:temp=101", "bad temperature"), ("tuned:t0.5", "bad temperature"), ("greedy:temp=1",
                                                                               "only mc takes"), ("mc:4:value:foo",
                                                                                                  "bad entry"), ("value@x", "only tuned, distilled and net"),
])
def test_bad_strategies(text, msg):
    with pytest.raises(UserError, match=msg):
        parse_strategy(text, 4)


def test_paired_deviation_gain_against_a_field_is_the_difference_of_two_separate_runs():
    from caesar_sim.analysis import exploit
    f = mixture_play("t", 4, ["value", "greedy", "tuned:temp=0.5"], [0.5, 0.3, 0.2])
    table, line, base = exploit(4, f, 400, RunSettings(seed=5, progress=False), policies=("random", "mc:1:value"),
                                weights=False, restricted=False)
    assert list(table["deviation"]) == ["random", "mc:1:value", "value", "greedy", "tuned:temp=0.5"]
    solo = run_field(4, f, 400, RunSettings(seed=5, progress=False))
    assert np.array_equal(solo.scores, base.scores)
    for _, row in table.iterrows():
        dev = run_field(4, f.with_focal(row["deviation"]), 400, RunSettings(seed=5, progress=False))
        want = dev.win_shares()[:, 0].mean() - solo.win_shares()[:, 0].mean()
        assert row["gain"] == pytest.approx(want, abs=1e-12)
        assert row["gain_low"] <= row["gain"] <= row["gain_high"]
    assert "a seat of the field" in line
    table, _, _ = exploit(4, f, 40, RunSettings(seed=5, progress=False), policies=())
    assert {"member", "weight", "restricted"} == set(table["kind"])   # pushes of the heaviest value member


def test_tune_against_a_field_is_reproducible():
    from caesar_sim.analysis.game.tune import Search, tune
    f = mixture_play("t", 3, ["value", "greedy"], [0.5, 0.5])
    a = tune(3, 30, Search(2, lam=4), RunSettings(seed=3, threads=1, progress=False), against=f)
    b = tune(3, 30, Search(2, lam=4), RunSettings(seed=3, threads=2, progress=False), against=f)
    assert a.weights == b.weights and "t field" in a.meta["field"]


def test_distilled_with_values_scoring_plays_like_value():
    """The linear score over the features can express value's own score: with those weights
    distilled picks value's choice at every decision whose best score is unique."""
    from caesar_sim.analysis.game.distill import distilled_strategy, tuned_equivalent
    rulebook, weight_table, game_state = states(profile="value x4", count=300)
    row = distilled_strategy(weight_table[:layout.WEIGHTS.size], tuned_equivalent(weight_table[:layout.WEIGHTS.size])).row
    DP = np.tile(row, (layout.MAX_PLAYERS, 1)).reshape(-1)
    same = 0
    for s in game_state:
        acts, sc = api.k_scores(rulebook, weight_table, s, False)
        lacts, lsc = api.k_scores(rulebook, DP, s, True)
        assert sorted(acts) == sorted(lacts)
        order = {a: i for i, a in enumerate(lacts)}
        assert np.allclose([lsc[order[a]] for a in acts], sc, atol=1e-9)
        if (sc >= sc.max() - 1e-9).sum() == 1:
            same += int(api.k_decide(rulebook, DP, s.copy(), new_state(1))) == int(api.k_decide(rulebook, weight_table,
                                                                                                s.copy(), new_state(1)))
    assert same > 200


def test_recorded_decisions_list_every_legal_action_with_mcs_choice(tmp_path):
    from caesar_sim.analysis.game.distill import agreement, fit, record, regret, tuned_equivalent
    f = mixture_play("t", 3, ["tuned", "value"], [0.5, 0.5])
    mc = parse_strategy("mc:2", 3)
    d = record(3, f.with_focal(mc), 6, RunSettings(seed=2, threads=1, progress=False))
    e = record(3, f.with_focal(mc), 6, RunSettings(seed=2, threads=2, progress=False))
    assert np.array_equal(d.q, e.q) and np.array_equal(d.X, e.X)
    assert d.n > 20 and len(d.start) == d.n + 1
    sizes = np.diff(d.start)
    assert (np.add.reduceat(d.chosen.astype(int), d.start[:-1]) == 1).all() and (sizes >= 1).all()
    assert (d.action[d.start[:-1]] == -1).all()          # pass first
    best = np.maximum.reduceat(d.q, d.start[:-1])
    assert np.allclose(d.q[d.chosen], best)               # mc plays its best mean outcome
    w0 = tuned_equivalent(parse_strategy("tuned", 3).row)
    w = fit(d, w0, iters=50)
    assert 0 <= agreement(d, w)[0] <= 1 and regret(d, w) >= 0
    assert regret(d, w) <= regret(d, w0) + 0.5


@pytest.mark.parametrize("players", [3, 4, 5])
def test_shipped_distilled_loads_and_plays_legal_actions(players):
    from caesar_sim import weights as WT
    data = WT.shipped(players, "distilled")
    assert data["policy"] == "distilled" and data["meta"]["command"].startswith(f"caesar distill --players {players}")
    s = parse_strategy("distilled", players)
    assert s.code == layout.DISTILLED and s.row[layout.WEIGHTS.rollout_policy] == layout.DISTILLED
    rulebook, weight_table, game_state = states(players, f"distilled x{players}", count=200)
    for game_stats in game_state:
        assert int(api.k_decide(rulebook, weight_table, game_stats.copy(),
                                new_state(2))) in set(api.k_legal(game_stats, int(game_stats[layout.STATE.turn])))


def test_distill_cli_writes_a_distilled_weights_file(tmp_path):
    from click.testing import CliRunner
    from caesar_sim.cli import main
    out = tmp_path / "d.json"
    res = CliRunner().invoke(main, ["distill", "--players", "3", "--against", "tuned", "--games", "4", "--holdout",
                                    "2", "--iterations", "1", "--rollouts", "1", "--seed", "3", "--out", str(out),
                                    "--format", "json"])
    assert res.exit_code == 0, res.output
    s = parse_strategy(f"distilled@{out}", 3)
    assert s.code == layout.DISTILLED
    with pytest.raises(UserError, match="not 'tuned'"):
        parse_strategy(f"tuned@{out}", 3)
