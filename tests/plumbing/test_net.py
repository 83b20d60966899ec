"""The networks' shared parts: the kernel's forward pass, the legal-action pick, weights files, training."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tabletop_mc.errors import UserError
from tabletop_mc.net import NetSpec, NetWeights, load_weights
from tabletop_mc.net.forward import as_float64_slots, best_legal, net_forward

SPEC = NetSpec("toy", 4, 1, (("cards", 12), ("coins", 3)), ("pass", "a", "b", "c", "d"))


def random_net(spec=SPEC, hidden=(8, 6), seed=0) -> NetWeights:
    rng = np.random.default_rng(seed)
    widths = [spec.n_inputs, *hidden]
    layers = [(rng.normal(0, 0.5, (widths[i], widths[i + 1])), rng.normal(0, 0.1, widths[i + 1]))
              for i in range(len(hidden))]
    return NetWeights(spec, layers, (rng.normal(0, 0.5, (hidden[-1], spec.n_actions)), rng.normal(0, 0.1, spec.n_actions)),
                      (rng.normal(0, 0.5, (hidden[-1], 1)), rng.normal(0, 0.1, 1)), {"made_by": "test"})


def inputs(n, spec=SPEC, seed=1):
    """Sparse card bits and dense numbers, as the games' encoders give them."""
    rng = np.random.default_rng(seed)
    x = np.zeros((n, spec.n_inputs))
    x[:, :12] = rng.random((n, 12)) < 0.3
    x[:, 12:] = rng.normal(0, 2, (n, spec.n_inputs - 12))
    return x


def kernel(w: NetWeights, x):
    """The kernel's forward pass, its weights packed into a float64 state vector as a game keeps them."""
    state = np.concatenate([np.full(7, 99.0), as_float64_slots(w.packed(np.float32))])
    params = state[7:].view(np.float32)
    q = np.empty(w.spec.n_actions, np.float32)
    scratch = np.empty(2 * max(w.hidden), np.float32)
    v = net_forward(params, w.dims(), len(w.dims()), np.asarray(x, np.float32), scratch, q)
    return q.astype(np.float64), float(v)


@pytest.mark.parametrize("hidden", [(5,), (8, 6), (4, 9, 3)])
def test_kernel_forward_equals_the_numpy_reference(hidden):
    w = random_net(hidden=hidden)
    x = inputs(50)
    q_ref, v_ref = w.forward(x)
    for i in range(len(x)):
        q, v = kernel(w, x[i])
        np.testing.assert_allclose(q, q_ref[i], rtol=1e-5, atol=1e-5)   # float32 against float64
        assert abs(v - v_ref[i]) < 1e-5


def test_kernel_forward_equals_jax_on_the_same_weights():
    jax = pytest.importorskip("jax", reason="the [train] extra (JAX) is not installed")
    import jax.numpy as jnp
    w = random_net(hidden=(16, 8))
    x = inputs(64)
    h = jnp.asarray(x, jnp.float32)
    for a, b in w.layers:
        h = jax.nn.relu(h @ a + b)
    q_jax = np.asarray(h @ w.q[0] + w.q[1])
    v_jax = np.asarray(h @ w.v[0] + w.v[1])[:, 0]
    for i in range(len(x)):
        q, v = kernel(w, x[i])
        np.testing.assert_allclose(q, q_jax[i], rtol=0, atol=1e-5)
        assert abs(v - v_jax[i]) < 1e-5


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(-1e6, 1e6, allow_nan=False), st.booleans()), min_size=1, max_size=30))
def test_an_illegal_action_never_wins(rows):
    q = np.array([r[0] for r in rows])
    legal = np.array([r[1] for r in rows])
    i = best_legal(q, legal, len(rows))
    if not legal.any():
        assert i == -1
        return
    assert legal[i]
    assert q[i] == q[legal].max()
    assert i == np.flatnonzero(legal & (q == q[legal].max()))[0]   # ties: the lowest index


def test_a_weights_file_round_trips(tmp_path):
    w = random_net()
    path = w.save(tmp_path / "net.npz")
    back = load_weights(path, SPEC)
    assert back.hidden == w.hidden and back.meta == w.meta
    np.testing.assert_array_equal(back.packed(), w.packed())


def _refused(tmp_path, data: bytes, spec=SPEC) -> str:
    path = tmp_path / "bad.npz"
    path.write_bytes(data)
    with pytest.raises(UserError) as exc:
        load_weights(path, spec)
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


def test_weights_of_another_spec_game_or_player_count_are_refused(tmp_path):
    data = random_net().to_bytes()
    other_inputs = NetSpec("toy", 4, 1, (("cards", 12), ("coins", 2), ("round", 1)), SPEC.actions)
    assert "feature spec" in _refused(tmp_path, data, other_inputs)
    assert "feature spec" in _refused(tmp_path, data, NetSpec("toy", 4, 2, SPEC.inputs, SPEC.actions))
    assert "feature spec" in _refused(tmp_path, data, NetSpec("toy", 4, 1, SPEC.inputs, SPEC.actions[::-1]))
    assert "3 players" in _refused(tmp_path, random_net(NetSpec("toy", 3, 1, SPEC.inputs, SPEC.actions)).to_bytes())
    assert "for other" in _refused(tmp_path, random_net(NetSpec("other", 4, 1, SPEC.inputs, SPEC.actions)).to_bytes())


def test_truncated_garbled_and_foreign_files_are_refused(tmp_path):
    data = random_net().to_bytes()
    assert "truncated or garbled" in _refused(tmp_path, data[: len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0xFF
    msg = _refused(tmp_path, bytes(flipped))
    assert "garbled" in msg or "not a" in msg or "array" in msg
    assert "truncated or garbled" in _refused(tmp_path, b"")
    assert "truncated or garbled" in _refused(tmp_path, b'{"format": "tabletop-net/1"}')
    nan = random_net()
    nan.q[0][0, 0] = np.nan
    assert "NaN" in _refused(tmp_path, nan.to_bytes())
    with pytest.raises(UserError, match="a folder"):
        load_weights(tmp_path, SPEC)


def test_a_tiny_training_run_recovers_a_known_function():
    pytest.importorskip("jax", reason="the [train] extra (JAX and optax) is not installed: pip install -e \".[train]\"")
    from tabletop_mc.net.train import Schedule, TrainSet, fit
    rng = np.random.default_rng(5)
    n = 3000
    x = inputs(n, seed=2)
    # action values: a nonlinear function of the inputs; each decision values a random subset
    q = np.stack([np.zeros(n), x[:, 12] - x[:, 13], np.abs(x[:, 14]), x[:, 0] * 2 - 1, np.maximum(x[:, 12], 0)], 1)
    qw = (rng.random(q.shape) < 0.6).astype(float)
    qw[:, 0] = 1.0
    noisy = q + rng.normal(0, 0.3, q.shape) * (qw > 0)
    v = np.tanh(x[:, 13])
    data = TrainSet(x.astype(np.float32), noisy, qw, v, np.ones(n))
    w, history = fit(SPEC, data, Schedule(hidden=(32, 32), epochs=80, batch=128, lr=5e-3, seed=0))
    test = inputs(500, seed=9)
    q_true = np.stack([np.zeros(500), test[:, 12] - test[:, 13], np.abs(test[:, 14]), test[:, 0] * 2 - 1,
                       np.maximum(test[:, 12], 0)], 1)
    q_hat, v_hat = w.forward(test)
    assert np.sqrt(np.mean((q_hat - q_true) ** 2)) < 0.3 * q_true.std()
    assert np.sqrt(np.mean((v_hat - np.tanh(test[:, 13])) ** 2)) < 0.3 * np.tanh(test[:, 13]).std()
    assert history[0]["holdout_loss"] > history[-1]["holdout_loss"]
    # the exported (folded) weights are what the kernel evaluates
    q0, v0 = kernel(w, test[0])
    np.testing.assert_allclose(q0, q_hat[0], rtol=1e-5, atol=1e-5)


def test_training_without_the_extra_names_it(without_training_extra):
    from tabletop_mc.net import train
    with pytest.raises(UserError, match=r"\[train\] extra"):
        train.require_training()


@pytest.mark.parametrize("dtype,atol", [(np.float64, 1e-10), (np.float32, 1e-5)])
@pytest.mark.parametrize("hidden", [(5,), (8, 6)])
def test_the_packed_forward_pass_equals_the_reference(dtype, atol, hidden):
    """``net_forward_packed``: the widths read from the vector, inputs, work and values in one buffer, the
    nonzero inputs listed by the caller or found, only the listed actions' values; float32 or float64."""
    from tabletop_mc.net.packed import NetIO, net_forward_packed
    w = random_net(hidden=hidden)
    params = np.concatenate([np.full(3, 99.0, dtype), w.packed(dtype, header=True)])
    x = inputs(40)
    q_ref, v_ref = w.forward(x)
    n_in, n_act = SPEC.n_inputs, SPEC.n_actions
    only = np.array([4, 0, 2])
    for i in range(len(x)):
        buf = np.full(n_in + n_act + 2 * max(hidden) + 7, np.nan, dtype)   # stale values must not leak in
        buf[:n_in] = x[i]
        nz = np.flatnonzero(buf[:n_in])
        ints = np.concatenate([nz, only]).astype(np.int64)
        for n_nz in (len(nz), -1):
            buf[n_in:n_in + n_act] = np.nan
            io = NetIO(buf, 0, n_in + n_act, n_in, ints, 0, n_nz, len(nz), len(only), True)
            v = net_forward_packed(params, 3, io)
            np.testing.assert_allclose(buf[n_in + only], q_ref[i, only], rtol=0, atol=atol)
            assert np.isnan(buf[n_in + 1]) and np.isnan(buf[n_in + 3])   # only the listed actions
            assert abs(v - v_ref[i]) < atol
        listed = buf[n_in + only].copy()     # every action: the listed ones' bits are the same
        buf[n_in:n_in + n_act] = np.nan
        io = NetIO(buf, 0, n_in + n_act, n_in, ints, 0, -1, len(nz), -1, True)
        assert net_forward_packed(params, 3, io) == v and np.array_equal(buf[n_in + only], listed)
        np.testing.assert_allclose(buf[n_in:n_in + n_act], q_ref[i], rtol=0, atol=atol)


def test_the_listwise_term_is_the_cross_entropy_over_the_valued_actions():
    """``listwise_loss`` against numpy: softmaxes over each row's valued actions of the whole values
    (targets and outputs plus ``base``); a row with nothing valued adds nothing and no NaN gradient."""
    pytest.importorskip("jax", reason="the [train] extra (JAX and optax) is not installed: pip install -e \".[train]\"")
    import jax
    import jax.numpy as jnp
    from tabletop_mc.net.train import listwise_loss
    rng = np.random.default_rng(3)
    n, a, tau = 7, 5, 0.7
    qh, q, base = rng.normal(0, 2, (n, a)), rng.normal(0, 2, (n, a)), rng.normal(0, 3, (n, a))
    qw = (rng.random((n, a)) < 0.6) * rng.random((n, a))
    qw[0] = 0.0                       # nothing valued
    qw[1] = 0.0
    qw[1, 2] = 1.0                    # one action valued: a certain choice, no loss
    expected = []
    for i in range(1, n):
        m = qw[i] > 0
        t = np.exp((q[i, m] + base[i, m]) / tau)
        t /= t.sum()
        z = (qh[i, m] + base[i, m]) / tau
        logp = z - np.log(np.exp(z - z.max()).sum()) - z.max()
        expected.append(-(t * logp).sum())
    args = [jnp.asarray(v, jnp.float64 if jax.config.jax_enable_x64 else jnp.float32) for v in (qh, q, qw, base)]
    got = float(listwise_loss(*args, tau))
    np.testing.assert_allclose(got, np.mean(expected), rtol=1e-5)
    assert expected[0] == pytest.approx(0.0, abs=1e-12)
    grad = np.asarray(jax.grad(lambda h: listwise_loss(h, *args[1:], tau))(args[0]))
    assert np.isfinite(grad).all() and not grad[0].any() and not grad[1].any()
    assert not grad[qw == 0].any()


def test_a_fit_with_the_listwise_term_learns_the_best_action_of_the_whole_values():
    """With ``policy_weight`` the fit ranks actions by base + output (``TrainSet.base``): on fresh
    inputs its choice is the best whole value, though the base alone often picks another action."""
    pytest.importorskip("jax", reason="the [train] extra (JAX and optax) is not installed: pip install -e \".[train]\"")
    from tabletop_mc.net.train import Schedule, TrainSet, fit

    def problem(n, seed):
        rng = np.random.default_rng(seed)
        x = inputs(n, seed=seed)
        resid = np.stack([np.zeros(n), 2 * x[:, 12], -2 * x[:, 12], np.abs(x[:, 13]), x[:, 0] * 3 - 1.5], 1)
        base = rng.normal(0, 1.0, (n, 5))
        x[:, 14] = 0.0                # the base is not an input: the network learns the residual only
        return x, resid, base

    x, resid, base = problem(3000, 2)
    qw = np.ones_like(resid)
    qw[:50] = 0.0                     # decisions with nothing valued train nothing
    data = TrainSet(x.astype(np.float32), resid + np.random.default_rng(4).normal(0, 0.2, resid.shape), qw,
                    np.zeros(len(x)), np.zeros(len(x)), base)
    w, history = fit(SPEC, data, Schedule(hidden=(32,), epochs=60, batch=128, lr=5e-3, seed=0, policy_weight=1.0,
                                          policy_temperature=0.3))
    assert all(np.isfinite(h["train_loss"]) for h in history)
    assert w.meta["training"]["policy_weight"] == 1.0
    tx, tresid, tbase = problem(800, 9)
    q_hat, _ = w.forward(tx)
    best = np.argmax(tresid + tbase, axis=1)
    assert np.mean(np.argmax(q_hat + tbase, axis=1) == best) > 0.9
    assert np.mean(np.argmax(tbase, axis=1) == best) < 0.6


def test_listwise_settings_are_checked():
    pytest.importorskip("jax", reason="the [train] extra (JAX and optax) is not installed: pip install -e \".[train]\"")
    from tabletop_mc.net.train import Schedule, TrainSet, fit
    x = inputs(20).astype(np.float32)
    q = np.zeros((20, 5))
    data = TrainSet(x, q, np.ones_like(q), np.zeros(20), np.ones(20), np.zeros((20, 4)))
    with pytest.raises(ValueError, match="base of shape"):
        fit(SPEC, data, Schedule(hidden=(4,), epochs=1))
    with pytest.raises(ValueError, match="temperature"):
        fit(SPEC, TrainSet(x, q, np.ones_like(q), np.zeros(20), np.ones(20)),
            Schedule(hidden=(4,), epochs=1, policy_weight=1.0, policy_temperature=0.0))
    plain = TrainSet(x, q, np.ones_like(q), np.zeros(20), np.ones(20))
    based = TrainSet(x, q, np.ones_like(q), np.zeros(20), np.ones(20), np.full((20, 5), 2.0))
    joined = TrainSet.concat([plain, based.take(np.arange(3))])
    np.testing.assert_array_equal(joined.base, np.r_[np.zeros((20, 5)), np.full((3, 5), 2.0)])
    assert TrainSet.concat([plain, plain]).base is None
