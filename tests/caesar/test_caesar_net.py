"""The learned `net` policy (Circus): its inputs against a slow encoder, its forward pass against JAX, its
legal-action mask, its weights files, the value head as `mc`'s leaf evaluator and `caesar train` without
its extra."""

import os
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from caesar_helpers import Table
from caesar_reference import ref_inputs
from tabletop_mc.net import NetSpec, NetWeights
from caesar_sim import nets, weights as WT
from caesar_sim.cli import main
from caesar_sim.kernels import api, layout
from caesar_sim.kernels.play.encode import INPUTS
from caesar_sim.profile import parse_profile
from caesar_sim.rules import kernel_rules, load_rules


def random_net(players=4, hidden=(12,), seed=0, scale=0.3, q_bias=0.0) -> NetWeights:
    """A Circus network of random weights (``q_bias``: the spread of its action values' biases)."""
    spec = nets.spec(players)
    rng = np.random.default_rng(seed)
    widths = [spec.n_inputs, *hidden]
    layers = [(rng.normal(0, scale / np.sqrt(widths[i]), (widths[i], widths[i + 1])),
               rng.normal(0, 0.1, widths[i + 1])) for i in range(len(hidden))]
    q = (rng.normal(0, scale, (hidden[-1], spec.n_actions)), rng.normal(0, q_bias or 0.1, spec.n_actions))
    meta = {"row": WT.shipped(players, "distilled")["weights"], "reference_rules": "standard"}
    return NetWeights(spec, layers, q, (rng.normal(0, scale, (hidden[-1], 1)), np.full(1, 0.25)), meta)


def net_file(tmp_path, net, name="net.npz"):
    return str(net.save(tmp_path / name))


def game_states(players, profile, overrides=None, count=200, seed=3):
    """(rulebook, weight table, states at the first ``count`` decisions of seeded games of ``profile``)."""
    rulebook = kernel_rules(load_rules(overrides=overrides), players)
    prof = parse_profile(profile, players)
    weight_table = prof.kernel_weights()
    return rulebook, weight_table, api.k_states(rulebook, weight_table, prof.policies, prof.rollouts,
                                                np.uint64(seed), count)


def slow(state_vector, rulebook, reference, p) -> np.ndarray:
    blocks = ref_inputs(layout.STATE.named(state_vector), layout.RULES.named(rulebook),
                        layout.RULES.named(reference), p)
    x = np.zeros(INPUTS.size)
    named = INPUTS.named(x)
    for name, value in blocks.items():
        named[name] = value
    return x


def check_encoding(state_vector, rulebook, reference, p):
    x, idx = api.k_encode(rulebook, reference, state_vector, p)
    np.testing.assert_array_equal(x, slow(state_vector, rulebook, reference, p).astype(np.float32))
    np.testing.assert_array_equal(idx, np.flatnonzero(x))     # the nonzero inputs, ascending, each once


@pytest.mark.parametrize("players,overrides", [(3, None), (4, ["favour.boost_value=5", "merchant.coins=[0,1,1,2,2,3,3,4]"]),
                                               (5, ["tickets_per_day=3", "caesar=true", "favour.double_items=3"])])
def test_the_encoding_equals_the_slow_encoder_on_game_states(players, overrides):
    rulebook, _, S = game_states(players, f"distilled x{players}", overrides, count=240)
    reference = kernel_rules(load_rules(), players)
    for s in S[::3]:
        for p in range(players):
            check_encoding(s, rulebook, reference, p)
    x, _ = api.k_encode(rulebook, reference, S[0], 0)
    rules = INPUTS.named(x.astype(np.float64))["rules"]     # the levers' numbers minus the standard rules'
    assert (np.abs(rules).sum() > 0) == bool(overrides)


def test_the_encoding_equals_the_slow_encoder_on_hand_built_states():
    t = Table(players=4, phase=2, start=2)
    t.favours(boost=1, gold=1, start_card=False)
    t.tickets((0, 4), (2, 0))
    t.visitors(0, [3, 1, 2])
    t.visitors(1, [2])
    t.visitors(2, [])
    t.hand(0, 1, 4, 8)
    t.hand(1, 2, 3)
    t.hand(3, 5)
    t.give_ticket(0, 0, 2)
    t.give_ticket(0, 0, 1)
    t.give_ticket(2, 1, 1)
    t.give_visitor(2, 1, 3)
    t.give_favours(1, double=1, boost=1)
    t.give_favours(3, gold=2)
    t.state["score"][:4] = 17, 21, 9, 21
    t.state["coin_cards"][:4] = 0, 2, 0, 1
    t.state["specials"][:] = 0, 2, 0
    t.state["bank_coins"] = 1
    t.state["caesar"] = 1
    t.state["passed"][3] = 1
    t.state["turn"] = 1
    t.state["day"] = 1
    t.state["tickets_dealt"], t.state["next_ticket"] = 18, 9
    t.state["visitors_dealt"], t.state["next_visitor"] = 15, 7
    t.play(2, 7, venue=0)
    t.play(1, 3, venue=0, fav=2)     # a double: two items
    t.play(0, 4, venue=0, fav=1)     # boosted to 7: right of the other 7
    t.play(2, 6, venue=1)
    reference = kernel_rules(load_rules(), 4)
    for rules in (t.rulebook, kernel_rules(load_rules(overrides=["favour.gold_coins=3", "coin_cards.value=2"]), 4)):
        for p in range(4):
            check_encoding(t.game_state, rules, reference, p)
    x, _ = api.k_encode(t.rulebook, reference, t.game_state, 0)
    named = INPUTS.named(x.astype(np.float64))
    # circus: seat 2's 7, seat 0's boosted 4 (7, to its right), seat 1's doubled 3: 3 visitors, seat 0 wins one,
    # a card must beat the 3 (which claims the last two) to win one, 4 claimed; one each for seats 0, 1 and 2
    assert list(named["rows"][2]) == [3, 1, 3, 4]
    assert list(named["row_seats"][2][:4]) == [1, 1, 1, 0]
    assert list(named["scores"][:4]) == [17, 4, -8, 4] and named["lead"] == -4


def test_the_kernel_forward_equals_jax_on_circus_weights_and_inputs(tmp_path):
    jax = pytest.importorskip("jax", reason="the [train] extra (JAX) is not installed")
    import jax.numpy as jnp
    net = nets.shipped(4) if nets.shipped_path(4).is_file() else random_net(hidden=(16,))
    rulebook, weight_table, S = game_states(4, f"net@{net_file(tmp_path, net)} x4", count=120)
    reference = kernel_rules(load_rules(), 4)
    for s in S:
        p = s[layout.STATE.turn]
        x, q, v = api.k_net_outputs(rulebook, weight_table, s, p)
        plain, _ = api.k_encode(rulebook, reference, s, p)      # the inputs: the encoding and the bids' scores
        acts, scores = api.k_scores(rulebook, weight_table, s, True)
        expect = plain.copy()
        expect[INPUTS.bid_scores + acts + 1] = scores
        np.testing.assert_array_equal(x, expect.astype(np.float32))
        h = jnp.asarray(x[None, :], jnp.float32)
        for w, b in net.layers:
            h = jax.nn.relu(h @ w + b)
        np.testing.assert_allclose(q, np.asarray(h @ net.q[0] + net.q[1])[0], rtol=0, atol=1e-5)
        assert abs(v - float(np.asarray(h @ net.v[0] + net.v[1])[0, 0])) < 1e-5


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 31), st.sampled_from([1.0, 1e3, 1e6]), st.sampled_from([0.0, 0.5]))
def test_an_illegal_action_never_wins(tmp_path_factory, seed, spread, temp):
    """Action values of any size (the biases up to a million coins): the seat plays a legal action."""
    path = net_file(tmp_path_factory.mktemp("net"), random_net(seed=seed, q_bias=spread), f"net-{seed}.npz")
    profile = f"net@{path}" + (f":temp={temp:g}" if temp else "")
    rulebook, weight_table, S = game_states(4, f"{profile} x4", count=60, seed=seed % 1000)
    for s in S:
        p = s[layout.STATE.turn]
        acts, values = api.k_net_scores(rulebook, weight_table, s)
        legal = set(api.k_legal(s, p))
        assert set(acts) == legal and len(acts) == len(legal)
        assert api.k_decide(rulebook, weight_table, s.copy(), np.array([seed, 2, 3, 4], np.uint64)) in legal


@pytest.fixture(scope="module")
def net_path(tmp_path_factory):
    return net_file(tmp_path_factory.mktemp("net"), random_net(seed=7))


def test_the_net_policy_plays_its_best_value(net_path):
    rulebook, weight_table, S = game_states(4, f"net@{net_path} x4", count=50)
    for s in S:
        acts, values = api.k_net_scores(rulebook, weight_table, s)
        assert api.k_decide(rulebook, weight_table, s.copy(), np.array([1, 2, 3, 4], np.uint64)) == \
            acts[int(np.argmax(values))]


def test_the_value_head_cuts_mc_rollouts_short(net_path):
    """`--mc-horizon net`: rollouts to the phase's end, valued by the network (a win share); refused for an
    `mc` without a network."""
    from caesar_sim.analysis.game.runs import RunSettings, run_games
    path = net_path
    b = run_games(4, f"mc:2:net@{path},net@{path} x3", 8, RunSettings(seed=2, threads=1, mc_horizon="net",
                                                                        progress=False))
    assert b.n == 8
    rulebook, weight_table, S = game_states(4, f"net@{path} x4", count=20)
    for s in S[:5]:
        for p in range(4):     # any seat's value, whoever is to move
            x, _, v = api.k_net_outputs(rulebook, weight_table, s, p)
            assert abs(v - random_net(seed=7).forward(x.astype(np.float64))[1][0]) < 1e-5
    res = CliRunner().invoke(main, ["simulate", "--players", "4", "--profile", "mc:2,tuned x3", "-n", "4",
                                    "--mc-horizon", "net"])
    assert res.exit_code == 2 and "without a network" in res.output


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-c", "from caesar_sim.cli import main; main()", *map(str, args)],
                          capture_output=True, text=True, env=env)


def test_weights_of_another_spec_player_count_or_game_are_refused_in_one_line(tmp_path):
    good = random_net(players=4)
    bad = {"3p.npz": random_net(players=3),
           "spec.npz": NetWeights(NetSpec("caesar", 4, nets.ENCODER_VERSION + 1, good.spec.inputs, good.spec.actions),
                                  good.layers, good.q, good.v, good.meta),
           "game.npz": NetWeights(NetSpec("sponsio", 4, 1, good.spec.inputs, good.spec.actions), good.layers, good.q,
                                  good.v, good.meta)}
    for name, net in bad.items():
        net.save(tmp_path / name)
    data = good.to_bytes()
    (tmp_path / "cut.npz").write_bytes(data[:len(data) // 2])
    expect = {"3p.npz": "made for 3 players", "spec.npz": "feature spec", "game.npz": "a network for sponsio",
              "cut.npz": "truncated or garbled"}
    for name, msg in expect.items():
        proc = _cli("simulate", "--players", 4, "--profile", f"net@{tmp_path / name} x4", "-n", 10)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and proc.stdout == "" and len(lines) == 1, proc.stderr
        assert msg in lines[0] and name in lines[0]


def test_train_without_the_extra_names_it_in_one_line(tmp_path):
    block = tmp_path / "block"
    (block / "jax").mkdir(parents=True)
    (block / "jax" / "__init__.py").write_text("raise ImportError('jax is not installed')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(block), os.environ.get("PYTHONPATH", "")])}
    proc = _cli("train", "--players", 4, "--out", tmp_path / "out", env=env)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and proc.stdout == "" and len(lines) == 1, proc.stderr
    assert "[train]" in lines[0] and "pip install" in lines[0]
    assert not (tmp_path / "out").exists()


def test_labelled_games_can_seat_the_lookahead_the_gain_is_measured_with(monkeypatch):
    """`caesar train --exploit-share`: in those blocks seat g % players plays the auditor (its row after the
    valuer's), so the labels cover the states it steers the field into; the blocks are spread evenly."""
    from caesar_sim.analysis.game import netlabels as L
    from caesar_sim.analysis.game.nettrain import Plan, auditor, exploited, rollout_member, valuer
    from caesar_sim.analysis.game.runs import RunSettings
    from caesar_sim.fieldplay import mixture_play
    from caesar_sim.kernels.game import netrecord as LB

    assert [exploited(b, 0.5) for b in range(6)] == [False, True, False, True, False, True]
    assert sum(exploited(b, 0.3) for b in range(10)) == 3
    assert not any(exploited(b, 0.0) for b in range(10)) and all(exploited(b, 1.0) for b in range(10))
    play = mixture_play("test", 3, ["tuned", "value"], [0.5, 0.5])
    plan = Plan(rollouts=2, gain_rollouts=2)
    how = L.Labelling(valuer(play, rollout_member(play), plan), 0.5)
    spy = []
    real = L.seats
    monkeypatch.setattr(L, "seats", lambda pols, ks, **kw: spy.append((pols, kw)) or real(pols, ks, **kw))
    settings = RunSettings(seed=3, threads=1, progress=False)
    plain = L.label(3, play, 3, how, settings)
    seated = L.label(3, play, 3, how, settings, auditor(play, plan))
    again = L.label(3, play, 3, how, settings, auditor(play, plan))
    assert spy[0][1]["focal"] == -1
    pols, kw = spy[1]
    assert kw["focal"] == len(play.members) + 1 and pols[kw["focal"]] == layout.MC and len(kw["cum"]) == 2
    assert np.array_equal(seated.x, again.x) and np.array_equal(seated.act, again.act)
    assert seated.n > 0 and not (seated.n == plain.n and np.array_equal(seated.x, plain.x))
    # the exploiter's seat is labelled as the others' are
    assert set(seated.dec[:, LB.DEC_SEAT].astype(int)) == {0, 1, 2}


def test_training_goes_on_from_the_start_fields_network(net_path):
    """`caesar train` from a field with a `net` member starts from it (its rollouts, its network as the
    first fit's warm start, its linear part); from a field without one, from its `distilled` member."""
    from caesar_sim.analysis.game.nettrain import start_point
    from caesar_sim.fieldplay import mixture_play
    play = mixture_play("t", 4, ["tuned", f"net@{net_path}", f"net@{net_path}:temp=0.5"], [0.2, 0.5, 0.3])
    base, net = start_point(play)
    assert base.code == layout.NET and base.row[layout.WEIGHTS.temperature] <= 0
    assert net is not None and np.array_equal(net.packed(np.float32), random_net(seed=7).packed(np.float32))
    base, net = start_point(mixture_play("t", 4, ["tuned", "distilled"], [0.5, 0.5]))
    assert base.code == layout.DISTILLED and net is None
    base, net = start_point(mixture_play("t", 4, ["tuned"], [1.0]))
    assert base.label == "tuned" and net is None


def test_tiny_training_runs_write_strict_files_and_number_their_networks_on(tmp_path):
    """`caesar train` with fewer gain games than an interval needs: the log says "(no interval)", and the
    weights file and the field file hold null there, not NaN (strict JSON); the command records the
    options that change the training. A second run from a field that plays the first run's network goes
    on from it and numbers its own network on, leaving that file as it was."""
    pytest.importorskip("jax", reason="the [train] extra (JAX and optax) is not installed")
    import json
    from tabletop_mc.net import load_weights
    (tmp_path / "pop.toml").write_text('name = "tiny"\nmembers = ["tuned", "net"]\n')
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["train", "--players", "3", "--population", str(tmp_path / "pop.toml"),
                                    "--temps", "", "--iterations", "1", "--games", "4", "--holdout", "2",
                                    "--meta-games", "4", "--gain-games", "4", "--rollouts", "2", "--epochs", "3",
                                    "--exploit-share", "0.5", "--policy-loss", "0.5", "--seed", "2", "--threads", "1",
                                    "-q", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "(no interval)" in res.output and "nan" not in res.output.lower()
    field = json.loads((out / "field.json").read_text(), parse_constant=lambda c: pytest.fail(f"{c} in field.json"))
    row = field["notes"]["training"][0]
    assert row["mc_gain_low"] is None and row["mc_gain_high"] is None and row["mc_gain"] is not None
    net = load_weights(str(out / "net-it1-3p.npz"), nets.spec(3), "test")
    assert net.meta["history"][0]["mc_gain_low"] is None
    assert "--exploit-share 0.5" in net.meta["command"] and "--policy-loss 0.5" in net.meta["command"]
    assert net.meta["training"]["policy_weight"] == 0.5
    assert row["network"] == "net-it1-3p.npz"
    # going on from a field that plays that run's network: it is played, not overwritten, and numbered on
    from tabletop_mc.field import Field, field_to_json
    (out / "trained.json").write_text(field_to_json(Field("caesar", 3, "standard", ("net@net-it1-3p.npz",), (1.0,),
                                                                    value=1 / 3)))
    first = (out / "net-it1-3p.npz").read_bytes()
    again = tmp_path / "again"
    res = CliRunner().invoke(main, ["train", "--players", "3", "--against", f"field:{out / 'trained.json'}",
                                    "--population", str(tmp_path / "pop.toml"), "--temps", "", "--iterations", "1",
                                    "--games", "4", "--holdout", "2", "--meta-games", "4", "--gain-games", "4",
                                    "--rollouts", "2", "--epochs", "3", "--seed", "3", "--threads", "1", "-q",
                                    "--out", str(again)])
    assert res.exit_code == 0, res.output
    assert (again / "net-it1-3p.npz").read_bytes() == first       # the start field's network, brought along
    later = json.loads((again / "field.json").read_text())["notes"]["training"][0]
    assert later["network"] == "net-it2-3p.npz" and (again / "net-it2-3p.npz").is_file()
    assert "mc:2:net@net-it1-3p.npz:field" == load_weights(str(again / "net-it2-3p.npz"), nets.spec(3),
                                                            "test").meta["labelled_by"]


def test_a_run_from_a_trained_field_numbers_its_networks_on(net_path, tmp_path):
    """A field made by an earlier `caesar train` plays ``net-it3-4p.npz``; a run from it must not save its
    own third network over that file (the field and its payoff table name it): it numbers on from 4."""
    import shutil
    from caesar_sim.analysis.game.nettrain import first_number
    from caesar_sim.fieldplay import mixture_play
    shutil.copyfile(net_path, tmp_path / "net-it3-4p.npz")
    shutil.copyfile(net_path, tmp_path / "net-it1-4p.npz")
    trained = mixture_play("t", 4, ["net@net-it3-4p.npz", "net@net-it1-4p.npz:temp=0.25", "tuned"], [0.5, 0.3, 0.2],
                           base=tmp_path)
    assert first_number(trained, 4) == 4
    assert first_number(mixture_play("t", 4, [f"net@{net_path}", "tuned"], [0.5, 0.5]), 4) == 1
    assert first_number(trained, 3) == 1          # another player count's numbering is not this one's
