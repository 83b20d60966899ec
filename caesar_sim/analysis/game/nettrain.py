"""`caesar train`: the learned `net` policy by expert iteration with self-play, and the field it plays in.

Each iteration:

1. **Play and label** (``analysis.game.netlabels``): field games of the current field (with the current
   `net` in it once there is one); sampled decisions are valued by `mc` (K rollouts per action,
   the mover rolling out as the current `net`: at first the start field's heaviest `net` member,
   which the training goes on from, or where it has none its `distilled` member; every other seat
   as a member drawn from the field). A share of the games seats the auditor (step 4) in one seat
   (``Plan.exploit_share``), so the labels cover the states a lookahead steers the field into; a
   share of the games runs under a lever's value instead of the standard rules (``LEVERS``: the
   report's lever-to-effect values), so one network learns how the rule numbers change the game.
2. **Fit** (to this iteration's and the last ones' labels, ``Plan.keep``): the linear part by
   weighted least squares, then the network on what it leaves
   (soft targets: every legal action's gain over passing, weighted by its error), warm-started
   from the last network (``tabletop_mc.net.train.fit``); its value head on the final win shares.
3. **Re-solve** (PSRO, ``tabletop_mc.metarun``): the new `net` and its softmax versions join the
   population (the default one and the field's support), the payoff table grows by their
   profiles, and the equilibrium mixture is the next field.
4. **Measure**: `mc` with field rollouts (the auditor) against the new field, paired, on seeds of
   its own; and on held-out decisions (labelled on other seeds) the new `net`'s, the last `net`'s
   and the start field's `net` (or `distilled`)'s regret and agreement against `mc`'s values.

It stops after ``iterations``, or when `mc`'s gain has not fallen for ``patience`` iterations. Every
iteration's figures are recorded (``TrainResult.history``, and in each weights file).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field as dfield, replace
from pathlib import Path

import numpy as np
import pandas as pd

from tabletop_mc.atomic import write_bytes_atomic
from tabletop_mc.errors import OutputError
from tabletop_mc.metarun import play as play_table, solve
from tabletop_mc.net.train import Schedule as FitSchedule, fit, require_training
from tabletop_mc.verdicts import fmt_ci
from caesar_sim import nets
from caesar_sim.analysis.game import netlabels as L
from caesar_sim.analysis.game.distill import distilled_weights
from caesar_sim.analysis.balance.levers import REPORT_LEVERS
from caesar_sim.analysis.game.meta import distill_start, mixture_field, paired_gain, payoff_adapter
from caesar_sim.analysis.game.runs import RunSettings
from caesar_sim.analysis.balance.sweep import variants
from caesar_sim.fieldplay import FieldPlay
from caesar_sim.kernels import layout
from caesar_sim.strategy import Strategy, parse_strategy

LEVERS = REPORT_LEVERS     # the levers a training game may run under (the report's lever-to-effect values)
GAIN_SEED = 5000          # mc's gain is measured on seed + GAIN_SEED + iteration
HOLDOUT_SEED = 1000       # held-out decisions: seed + HOLDOUT_SEED + iteration
LEVER_SEED = 77           # which lever each block of training games plays


@dataclass(frozen=True)
class Plan:
    """How `caesar train` runs (module docstring): ``games`` labelled games per iteration (a ``lever_share`` of
    them under levers, in blocks of ``block`` games), ``holdout`` more on other seeds; `mc:rollouts` values a
    decision with chance ``rate``, dropping after half its rollouts the actions ``prune`` below the best (0:
    never); the network's hidden widths and epochs, fitted to the last ``keep`` iterations' labels; the payoff table's ``meta_games`` per profile; `mc`'s gain
    on ``gain_games`` games with ``gain_rollouts`` rollouts; the value head's share of the loss (``value_share``,
    relative to the action values' spread); the listwise term's share and softmax temperature in coins
    (``policy_share``, ``policy_temperature``: ``tabletop_mc.net.train``); the share of the labelled games in
    which one seat plays the auditor (``exploit_share``, ``label_games``); the softmax members' temperatures
    ``temps``."""

    iterations: int = 5
    games: int = 3000
    holdout: int = 300
    rate: float = 0.25
    rollouts: int = 16
    prune: float = 0.0
    hidden: tuple[int, ...] = (24,)
    epochs: int = 60
    meta_games: int = 2000
    gain_games: int = 3000
    gain_rollouts: int = 8
    value_share: float = 0.25
    policy_share: float = 0.0
    exploit_share: float = 0.0
    policy_temperature: float = 0.5
    lever_share: float = 0.5
    block: int = 100
    temps: tuple[float, ...] = (0.25,)
    patience: int = 2
    keep: int = 2


@dataclass
class TrainResult:
    """The last network, the field it was solved into, every iteration's figures and decision tables."""

    net: object                     # tabletop_mc.net.NetWeights
    path: Path
    field: FieldPlay
    meta: object                    # tabletop_mc.metarun.MetaResult
    history: list[dict] = dfield(default_factory=list)
    decisions: pd.DataFrame = dfield(default_factory=pd.DataFrame)


def valuer(play: FieldPlay, rollout: Strategy, plan: Plan) -> Strategy:
    """`mc` as it labels: ``rollout``'s row (the mover rolls out as it), the field's members for the others."""
    row = rollout.row.copy()
    row[layout.WEIGHTS.mc_prune] = plan.prune
    row[layout.WEIGHTS.temperature] = 0.0
    return Strategy(f"mc:{plan.rollouts}:{rollout.label}:field", layout.MC, plan.rollouts, row,
                    replace(play, focal=None))


def rollout_member(play: FieldPlay) -> Strategy:
    """The field's heaviest deterministic `net` member (else `distilled`, else `tuned`): the mover's rollouts."""
    det = [(w, m) for w, m in zip(play.weights, play.members)
           if m.code in (layout.NET, layout.DISTILLED) and m.row[layout.WEIGHTS.temperature] <= 0]
    nets_ = [p for p in det if p[1].code == layout.NET]
    return max(nets_ or det, key=lambda p: p[0])[1] if det else parse_strategy("tuned", play.players)


def auditor(play: FieldPlay, plan: Plan) -> Strategy:
    """`mc:gain_rollouts` with field rollouts, the mover rolling out as ``rollout_member``: what `mc`'s gain
    against the field is measured with."""
    rollout = rollout_member(play)
    return replace(valuer(play, rollout, replace(plan, rollouts=plan.gain_rollouts, prune=0.0)),
                   label=f"mc:{plan.gain_rollouts}:{rollout.label}:field")


def start_point(start: FieldPlay) -> tuple[Strategy, object]:
    """Where the training starts: the start field's heaviest deterministic `net` member and its network
    (expert iteration goes on from it: the first labels roll out as it, the first fit is warm-started
    from it), else its `distilled` member (``distill_start``) and no network."""
    first = rollout_member(start)
    if first.code == layout.NET:
        return first, nets.registered(int(first.row[layout.WEIGHTS.net_id]))
    return distill_start(start), None


def lever_blocks(games: int, plan: Plan, seed: int) -> list[tuple[int, list[str]]]:
    """The training games in blocks: (games, overrides), a ``lever_share`` of them under one lever's value each."""
    choices = variants(LEVERS)
    rng = np.random.default_rng(seed)
    out = []
    left = games
    while left > 0:
        n = min(plan.block, left)
        if rng.random() < plan.lever_share:
            key, value = choices[rng.integers(len(choices))]
            out.append((n, [f"{key}={value}"]))
        else:
            out.append((n, []))
        left -= n
    return out


def exploited(block: int, share: float) -> bool:
    """Whether block ``block`` seats the auditor: a ``share`` of the blocks, spread evenly (no random draw,
    so the levers' draws are those of a run without it)."""
    return int((block + 1) * share + 1e-9) > int(block * share + 1e-9)


def label_games(players: int, play: FieldPlay, how: L.Labelling, games: int, plan: Plan,
                settings: RunSettings) -> L.Labels:
    """``games`` labelled games in lever blocks (each block on a seed of its own); in an ``exploit_share`` of the
    blocks one seat plays the auditor, the lookahead `mc`'s gain is measured with, so that the labels cover
    the states it steers the field into (a policy trained on the field's own states alone is judged there)."""
    parts = []
    exploiter = auditor(play, plan) if plan.exploit_share > 0 else None
    for b, (n, overrides) in enumerate(lever_blocks(games, plan, settings.seed + LEVER_SEED)):
        parts.append(L.label(players, play, n, how, settings.but(seed=settings.seed * 1009 + b, overrides=overrides),
                             exploiter if exploited(b, plan.exploit_share) else None))
    return L.Labels.concat(parts)


def bring_files(start: FieldPlay, out: Path) -> None:
    """Copy the weights files the field's members name (relative to its folder) into ``out``, where the
    population is read from, so the field written there travels with them."""
    if start.base is None:
        return
    for m in start.members:
        _, at, path = m.label.split(":")[0].partition("@")
        src = start.base / path
        if at and not Path(path).is_absolute() and src.is_file() and not (out / path).exists():
            try:
                write_bytes_atomic(out / path, src.read_bytes())
            except OSError as exc:
                raise OutputError(f"--out {out}: cannot write {path} ({exc.strerror or exc})") from None


def first_number(start: FieldPlay, players: int) -> int:
    """The number of the run's first network file: one past the highest ``net-itK-<P>p.npz`` that the start
    field's members play (a field an earlier `caesar train` made; ``bring_files`` copies its files into the
    output folder), so that a new network never overwrites a file the field and its payoff table name."""
    ks = []
    for m in start.members:
        name = Path(m.label.split(":")[0].partition("@")[2]).name
        found = re.fullmatch(rf"net-it(\d+)-{players}p\.npz", name)
        if found:
            ks.append(int(found.group(1)))
    return max(ks, default=0) + 1


def restrict(table, keep: list[str]):
    """The payoff table over the strategies ``keep`` (in its order) with every entry it has of them."""
    from tabletop_mc.metagame.payoffs import PayoffTable
    names = [n for n in table.names if n in keep]
    drop = [n for n in table.names if n not in keep]
    frame = table.to_frame()
    frame = frame[(frame[drop] == 0).all(axis=1) & frame["strategy"].isin(names)].drop(columns=drop)
    return PayoffTable.from_frame(frame.reset_index(drop=True)) if len(frame) else None


def save_net(net, path: Path) -> Path:
    """Write a weights file the next steps read back (a failed write ends the run in one line)."""
    try:
        return net.save(path)
    except OSError as exc:
        raise OutputError(f"--out {path.parent}: cannot write {path.name} ({exc.strerror or exc}); the training reads "
                          "it back, so it stops here") from None


def net_meta(base_row: np.ndarray, lin: np.ndarray, info: dict) -> dict:
    """A network's metadata: its weight row (``base_row``'s item weights, the linear part ``lin``) and ``info``."""
    return {"row": distilled_weights(base_row, lin), "reference_rules": nets.REFERENCE_RULES, **info}


def train(players: int, start: FieldPlay, population: list[str], plan: Plan, out: Path,
          settings: RunSettings, log=None) -> TrainResult:
    """Expert iteration from the field ``start`` (module docstring); weights files and the field go to ``out``."""
    require_training()
    bring_files(start, out)
    k0 = first_number(start, players)
    t0 = time.perf_counter()
    spec = nets.spec(players)
    base, net = start_point(start)               # its item weights and linear score start the linear part
    start_net = net
    lin = base.row[layout.WEIGHTS.features:layout.WEIGHTS.features + layout.N_FEATURES].copy()
    play, rollout, rollout_lin = start, base, lin
    names = list(dict.fromkeys(population + [m.label for m in start.members]))
    table = None
    history, tables, buffer = [], [], []
    result = None
    best_gain, since = np.inf, 0
    for it in range(plan.iterations):
        seed = settings.seed + it
        how = L.Labelling(valuer(play, rollout, plan), plan.rate)
        t1 = time.perf_counter()
        data = label_games(players, play, how, plan.games, plan, settings.but(seed=seed))
        label_s = time.perf_counter() - t1
        held = settings.but(seed=settings.seed + HOLDOUT_SEED + it)
        hold = L.label(players, play, plan.holdout, how, held)
        again = L.label(players, play, plan.holdout, replace(how, mc_stream=1), held)   # mc's noise ceiling
        recent = L.Labels.concat(buffer[-(plan.keep - 1):] + [data]) if plan.keep > 1 and buffer else data
        buffer.append(data)
        lin = L.fit_linear(recent, lin, L.target_weights(recent))
        trainset = L.targets(recent, lin)
        schedule = FitSchedule(hidden=tuple(plan.hidden), epochs=plan.epochs, seed=seed,
                               value_weight=plan.value_share * L.spread(trainset) / max(float(trainset.v.var()), 1e-9),
                               policy_weight=plan.policy_share, policy_temperature=plan.policy_temperature)
        info = {"command": settings.command, "seed": settings.seed, "iteration": it + 1, "players": players,
                "labelled_by": how.valuer.label, "field": play.text()}
        new, fit_rows = fit(spec, trainset, schedule, init=net, meta=net_meta(base.row, lin, info))
        path = save_net(new, out / f"net-it{k0 + it}-{players}p.npz")
        label_text = f"net@{path.name}"
        policies = {label_text: L.net_scores(hold, new, lin)}
        if net is not None and rollout is not base:
            policies[rollout.label] = L.net_scores(hold, net, rollout_lin)
        start_lin = base.row[layout.WEIGHTS.features:layout.WEIGHTS.features + layout.N_FEATURES]
        policies[f"{base.label} (the start field's)"] = (
            L.net_scores(hold, start_net, start_lin) if start_net is not None else hold.features() @ start_lin)
        dec = L.decision_table(hold, again, policies).assign(iteration=it + 1)
        tables.append(dec)
        new_members = [label_text] + [f"{label_text}:temp={t:g}" for t in plan.temps]
        if table is not None:   # the population, the start field's support and the last field's support
            keep = population + [m.label for m in start.members] + [m.label for m in play.members]
            table = restrict(table, list(dict.fromkeys(keep)))
            names = list(table.names) if table is not None else list(dict.fromkeys(keep))
        names = list(dict.fromkeys(names + new_members))
        adapter = payoff_adapter(players, names, settings.but(progress=False), base=out)
        table = play_table(names, players, adapter, games=plan.meta_games, seed=settings.seed, base=table)
        result = solve(table, seed=settings.seed)
        play = mixture_field(players, result.names, result.boot.mixture, out)
        mc = auditor(play, plan)
        gain = paired_gain(players, play, mc, plan.gain_games, settings.but(seed=settings.seed + GAIN_SEED + it,
                                                                            progress=False))
        row = {"iteration": it + 1, "network": path.name, "labelled_decisions": data.n,
               "labels_per_s": round(data.n / label_s, 1), "holdout_decisions": hold.n, "epochs": len(fit_rows),
               "holdout_loss": round(min(r["holdout_loss"] for r in fit_rows), 5),
               "net_agreement": round(float(dec["agreement"].iloc[0]), 4), "net_regret": round(float(dec["regret"].iloc[0]), 4),
               "field": play.mixture(), "mc": mc.label, "mc_gain": round(gain["gain"], 4),
               "mc_gain_low": round(gain["gain_low"], 4), "mc_gain_high": round(gain["gain_high"], 4),
               "gain_games": plan.gain_games, "seconds": round(time.perf_counter() - t0, 1)}
        history.append(row)
        new.meta["history"] = history
        save_net(new, path)
        if log is not None:
            log(f"iteration {it + 1}: {data.n} decisions ({row['labels_per_s']}/s), net agrees with mc on "
                f"{row['net_agreement']:.3f}, regret {row['net_regret']:.3f}; field {row['field']}; {mc.label} gains "
                f"{fmt_ci(gain['gain'], gain['gain_low'], gain['gain_high'], sign=True, digits=3)}")
        net, rollout_lin = new, lin
        rollout = parse_strategy(label_text, players, out)
        if gain["gain"] < best_gain - 1e-9:
            best_gain, since = gain["gain"], 0
        else:
            since += 1
            if since >= plan.patience:
                break
    return TrainResult(net, path, play, result, history, pd.concat(tables, ignore_index=True))
