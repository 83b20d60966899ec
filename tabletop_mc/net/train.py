"""Fitting a network with JAX and optax (the optional ``[train]`` extra).

The targets are soft: each recorded decision carries a value for some of the
actions (the lookahead's mean gain over passing, ``TrainSet.q``) with a
weight per value (``TrainSet.q_weight``: the inverse of its squared standard
error, 0 where an action was not valued), and a value of the position
(``TrainSet.v``, e.g. the seat's final win share) with its own weight. The
loss is the weighted mean squared error of both heads; AdamW with gradient
clipping minimises it on minibatches, and the epoch with the lowest loss on
a held-out share of the decisions is kept (early stopping).

A squared error spends the network on every action's value alike, the
hopeless ones included, while a policy plays only the best: with
``Schedule.policy_weight`` above 0 the loss adds a listwise term, the cross
entropy between the softmax of the target values and of the network's over
each decision's valued actions, at temperature ``policy_temperature``
(``TrainSet.base``: the score the network's outputs are added to in play,
so that both softmaxes see whole values, not residuals).

Inputs are standardised for training (mean and spread of the training
inputs) and the standardisation is folded into the first layer when the
weights are exported, so the kernels read raw inputs and a zero input still
skips its row. A warm start (``init``) unfolds the previous weights the
same way, so expert iteration refines the last network instead of starting
over.

JAX (with jaxlib's CPU build, which PyPI installs by default) and optax are
imported only here: a plain install and the runtime need neither.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.net.spec import NetSpec
from tabletop_mc.net.weights import NetWeights

UNVALUED = -1e9   # an action that is not valued, in the listwise term's softmaxes

EXTRA_HINT = ("training needs the optional [train] extra (JAX and optax): "
              "pip install -e \".[train]\" in a checkout, or pip install \"sponsio-sim[train]\"")


def require_training():
    """``(jax, jax.numpy, optax)``, or one ``UserError`` line naming the extra to install."""
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise UserError(EXTRA_HINT) from None
    return jax, jnp, optax


@dataclass
class TrainSet:
    """Recorded decisions: inputs, the valued actions with their weights, the position values."""

    x: np.ndarray          # (n, inputs) float32
    q: np.ndarray          # (n, actions) target values (anything where q_weight is 0)
    q_weight: np.ndarray   # (n, actions) >= 0
    v: np.ndarray          # (n,) target position values
    v_weight: np.ndarray   # (n,) >= 0
    base: np.ndarray | None = None   # (n, actions): the score each output is added to in play (None: 0)

    def __len__(self) -> int:
        return int(self.x.shape[0])

    def offsets(self) -> np.ndarray:
        """``base``, zeros where there is none."""
        return self.base if self.base is not None else np.zeros(self.q.shape)

    def take(self, rows: np.ndarray) -> "TrainSet":
        return TrainSet(self.x[rows], self.q[rows], self.q_weight[rows], self.v[rows], self.v_weight[rows],
                        None if self.base is None else self.base[rows])

    @staticmethod
    def concat(parts: list["TrainSet"]) -> "TrainSet":
        base = None if all(p.base is None for p in parts) else np.concatenate([p.offsets() for p in parts])
        return TrainSet(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("x", "q", "q_weight", "v",
                                                                                  "v_weight")), base)


@dataclass(frozen=True)
class Schedule:
    """How a network is fitted."""

    hidden: tuple[int, ...] = (64, 64)
    epochs: int = 60
    batch: int = 512
    lr: float = 2e-3
    weight_decay: float = 1e-4
    value_weight: float = 1.0      # the value head's share of the loss
    policy_weight: float = 0.0     # the listwise term's share (module docstring; 0: none)
    policy_temperature: float = 0.5   # its softmax temperature, in the targets' units
    holdout: float = 0.1           # share of decisions held out for early stopping
    patience: int = 8              # epochs without a better held-out loss before stopping
    seed: int = 0


def _standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    return mean, np.where(std > 1e-6, std, 1.0)


def _to_normalised(w: NetWeights, mean, std) -> dict:
    """``w``'s layers as parameters on standardised inputs (the inverse of ``_fold``)."""
    (w0, b0), rest = w.layers[0], w.layers[1:]
    w0 = w0.astype(np.float64)
    layers = [(w0 * std[:, None], b0 + mean @ w0)] + [(a.astype(np.float64), b.astype(np.float64)) for a, b in rest]
    return {"layers": layers, "q": w.q, "v": w.v}


def _fold(params: dict, mean, std) -> list:
    """The first layer on raw inputs: ``W / std`` and ``b - (mean / std) @ W``."""
    (w0, b0), rest = params["layers"][0], params["layers"][1:]
    w0 = np.asarray(w0, np.float64)
    return [(w0 / std[:, None], np.asarray(b0, np.float64) - (mean / std) @ w0)] + \
        [(np.asarray(a), np.asarray(b)) for a, b in rest]


def _init(spec: NetSpec, hidden, rng: np.random.Generator) -> dict:
    widths = [spec.n_inputs, *hidden]
    layers = [(rng.normal(0.0, np.sqrt(2.0 / widths[i]), (widths[i], widths[i + 1])), np.zeros(widths[i + 1]))
              for i in range(len(hidden))]
    scale = 0.1 / np.sqrt(hidden[-1])
    return {"layers": layers, "q": (rng.normal(0.0, scale, (hidden[-1], spec.n_actions)), np.zeros(spec.n_actions)),
            "v": (rng.normal(0.0, scale, (hidden[-1], 1)), np.zeros(1))}


def listwise_loss(qh, q, qw, base, tau: float):
    """The listwise term (module docstring): over the rows with a valued action (``qw > 0``), the mean
    cross entropy between the softmax of ``(q + base) / tau`` and of ``(qh + base) / tau``, both over
    the valued actions only. JAX arrays in, a scalar out (differentiable in ``qh``)."""
    jax, jnp, _ = require_training()
    valued = qw > 0
    # a large finite floor, not -inf: a row with nothing valued must give finite gradients
    target = jax.nn.softmax(jnp.where(valued, (q + base) / tau, UNVALUED), axis=1)
    logp = jax.nn.log_softmax(jnp.where(valued, (qh + base) / tau, UNVALUED), axis=1)
    rows = jnp.any(valued, axis=1)
    ce = -jnp.sum(jnp.where(valued, target * logp, 0.0), axis=1)
    return jnp.sum(jnp.where(rows, ce, 0.0)) / jnp.maximum(jnp.sum(rows), 1)


def fit(spec: NetSpec, data: TrainSet, schedule: Schedule = Schedule(), *, init: NetWeights | None = None,
        meta: dict | None = None, log=None) -> tuple[NetWeights, list[dict]]:
    """A network for ``spec`` fitted to ``data`` (module docstring); returns it with one row of
    figures per epoch (training and held-out loss). ``log(row)`` is called after each epoch."""
    jax, jnp, optax = require_training()
    if len(data) < 2:
        raise UserError("training needs at least 2 recorded decisions")
    if data.x.shape[1] != spec.n_inputs or data.q.shape[1] != spec.n_actions:
        raise ValueError(f"data of {data.x.shape[1]} inputs and {data.q.shape[1]} actions; the spec has "
                         f"{spec.n_inputs} and {spec.n_actions}")
    if data.base is not None and data.base.shape != data.q.shape:
        raise ValueError(f"training data: base of shape {data.base.shape}, q of {data.q.shape}")
    if schedule.policy_weight > 0 and not schedule.policy_temperature > 0:
        raise ValueError("a listwise term needs a temperature above 0")
    for name in ("x", "q", "q_weight", "v", "v_weight", "base"):
        if getattr(data, name) is not None and not np.isfinite(getattr(data, name)).all():
            raise ValueError(f"training data: {name} holds NaN or infinity")
    rng = np.random.default_rng(schedule.seed)
    order = rng.permutation(len(data))
    n_hold = int(round(schedule.holdout * len(data))) if len(data) >= 10 else 0
    hold, train = data.take(order[:n_hold]), data.take(order[n_hold:])
    mean, std = _standardise(train.x.astype(np.float64))
    if init is not None and init.hidden == tuple(schedule.hidden):
        params = _to_normalised(init, mean, std)
    else:
        params = _init(spec, schedule.hidden, rng)
    params = jax.tree_util.tree_map(lambda a: jnp.asarray(a, jnp.float32), params)

    def arrays(ts: TrainSet):
        # the base only where the listwise term reads it (else an empty column block: no copy, no slicing cost)
        base = ts.offsets() if schedule.policy_weight > 0 else np.zeros((len(ts), 0))
        return tuple(jnp.asarray(a, jnp.float32) for a in (((ts.x - mean) / std), ts.q, ts.q_weight, ts.v,
                                                           ts.v_weight, base))

    def model(p, x):
        h = x
        for w, b in p["layers"]:
            h = jax.nn.relu(h @ w + b)
        return h @ p["q"][0] + p["q"][1], (h @ p["v"][0] + p["v"][1])[:, 0]

    def loss_fn(p, x, q, qw, v, vw, base):
        qh, vh = model(p, x)
        lq = jnp.sum(qw * (qh - q) ** 2) / jnp.maximum(jnp.sum(qw), 1e-12)
        lv = jnp.sum(vw * (vh - v) ** 2) / jnp.maximum(jnp.sum(vw), 1e-12)
        total = lq + schedule.value_weight * lv
        if schedule.policy_weight > 0:
            total = total + schedule.policy_weight * listwise_loss(qh, q, qw, base, schedule.policy_temperature)
        return total, (lq, lv)

    steps = max(1, -(-len(train) // schedule.batch)) * schedule.epochs
    opt = optax.chain(optax.clip_by_global_norm(1.0),
                      optax.adamw(optax.cosine_decay_schedule(schedule.lr, steps), weight_decay=schedule.weight_decay))
    state = opt.init(params)

    @jax.jit
    def step(p, s, batch):
        (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(p, *batch)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    evaluate = jax.jit(loss_fn)
    train_arrays = arrays(train)
    hold_arrays = arrays(hold) if n_hold else train_arrays
    best, best_loss, since, history = params, np.inf, 0, []
    for epoch in range(schedule.epochs):
        perm = rng.permutation(len(train))
        total = 0.0
        for lo in range(0, len(train), schedule.batch):
            idx = jnp.asarray(perm[lo:lo + schedule.batch])
            params, state, loss = step(params, state, tuple(a[idx] for a in train_arrays))
            total += float(loss) * len(idx)
        held, (lq, lv) = evaluate(params, *hold_arrays)
        row = {"epoch": epoch + 1, "train_loss": total / len(train), "holdout_loss": float(held),
               "holdout_q_loss": float(lq), "holdout_v_loss": float(lv)}
        history.append(row)
        if log is not None:
            log(row)
        if float(held) < best_loss - 1e-9:
            best, best_loss, since = params, float(held), 0
        else:
            since += 1
            if since >= schedule.patience:
                break
    host = jax.tree_util.tree_map(np.asarray, best)
    layers = _fold(host, mean, std)
    info = dict(meta or {})
    info.setdefault("training", {"decisions": len(data), "holdout": n_hold, "epochs_run": len(history),
                                 "best_holdout_loss": best_loss, "hidden": list(schedule.hidden),
                                 "lr": schedule.lr, "weight_decay": schedule.weight_decay,
                                 "batch": schedule.batch, "seed": schedule.seed,
                                 "policy_weight": schedule.policy_weight,
                                 "policy_temperature": schedule.policy_temperature})
    return NetWeights(spec, layers, tuple(host["q"]), tuple(host["v"]), info), history
