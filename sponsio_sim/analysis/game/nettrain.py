"""`sponsio train`: the ``net`` policy by expert iteration with self-play.

Each iteration:

1. **Play and record** (``netlabels.label``): games of the current field with
   the taught policy at the focal seat (the current ``net``; before there is
   one, the field's heaviest member), a share of them under rule sets with
   one lever moved to a value of its sweep range (``sweep.default_levers``),
   so the network learns what the rule numbers do; every decision of the
   focal seat is valued by the ``mc`` lookahead, whose rollouts play the
   current field.
2. **Fit** (``tabletop_mc.net.train.fit``) on the decisions of this and the
   previous iterations, warm-started from the last network.
3. **Measure** on decisions of their own seed: the regret and agreement of
   the new network, of the taught policy, and of the lookahead itself
   labelled again with another salt (its noise ceiling).
4. **Re-solve the field** with ``net:goal:net`` in the population
   (``meta.meta_game`` with PSRO steps): the next iteration records against it.

After each iteration ``mc`` (field rollouts) plays against the new field; the loop
stops after ``iterations``, or once that gain stops falling;
the returned network carries every iteration's figures and the command and
seeds that rebuild it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from tabletop_mc.atomic import write_atomic
from tabletop_mc.errors import UserError
from tabletop_mc.net import NetWeights
from tabletop_mc.net.train import Schedule as FitSchedule, fit, require_training
from tabletop_mc.progress import Progress
from tabletop_mc.runner import derive_seed
from tabletop_mc.verdicts import fmt_ci
from sponsio_sim.analysis.balance.sweep import default_levers
from sponsio_sim.analysis.game.meta import focal_gain, meta_game
from sponsio_sim.analysis.game.net import net_spec, using_net
from sponsio_sim.analysis.game.netlabels import (Labelling, betting_rows, decision_match, label, net_picks,
                                                 train_set, choices)
from sponsio_sim.analysis.game.setup import Profile, mixture_profile, parse_profile, parse_strategy
from sponsio_sim.kernels.betting.netlayout import N_ACTIONS, NET_RECORD
from sponsio_sim.rules import RuleSet, load_rules

NET_MEMBER = "net:goal:net"
BATCH = 100               # labelled games per rule set drawn


@dataclass(frozen=True)
class Schedule:
    """The expert iteration's sizes (module docstring)."""

    iterations: int = 3
    games: int = 1200             # labelled games per iteration
    holdout: int = 200            # labelled games per iteration for the measures
    rollouts: int = 48            # the lookahead's rollouts per action
    variants: float = 0.5         # share of the labelled games under a rule set with a lever moved
    keep: int = 3                 # iterations whose decisions the fit pools
    meta_games: int = 2000        # games per profile when the field is solved again (0: keep the field)
    psro: int = 1
    mc_games: int = 300           # games of mc's gain against the field after each iteration (0: not measured)
    fit: FitSchedule = field(default_factory=FitSchedule)
    seed: int = 1
    threads: int | None = None
    rows_dir: str | None = None   # keep each iteration's labelled rows there (``iteration-K.npz``)


def lever_rules(base: RuleSet, rng: np.random.Generator) -> tuple[RuleSet, str]:
    """``base`` with one lever of the sweep moved to a value of its range (drawn), and its name."""
    levers = default_levers(base)
    lever = levers[int(rng.integers(len(levers)))]
    value = lever.values[int(rng.integers(len(lever.values)))]
    return load_rules(base, overrides=lever.overrides(base, value)), f"{lever.key}={value}"


def _field_for(field: Profile, rules: RuleSet) -> Profile:
    return mixture_profile([parse_strategy(st.text, rules, clamp_cash=True) for st in field], field.weights,
                           field.name or "field", rules)


def record_iteration(base: RuleSet, field: Profile, model, net: NetWeights | None, how: Labelling,
                     variants: float, progress: Progress | None = None) -> tuple[np.ndarray, list[str]]:
    """The iteration's labelled rows: ``how.games`` games in batches of ``BATCH``, each batch under the
    base rule set or (share ``variants``) one with a lever moved; returns the rows and each batch's rules."""
    rng = np.random.default_rng(derive_seed(how.seed, "levers"))
    parts, names = [], []
    for b, lo in enumerate(range(0, how.games, BATCH)):
        rules, name = (lever_rules(base, rng) if rng.random() < variants else (base, "base rules"))
        batch = replace(how, games=min(BATCH, how.games - lo), seed=derive_seed(how.seed, "batch", b))
        parts.append(label(rules, _field_for(field, rules), model, net, batch, progress))
        names.append(name)
    return np.concatenate(parts), names


def measures(rows: np.ndarray, again: np.ndarray, net: NetWeights, taught: str) -> pd.DataFrame:
    """Regret and agreement on ``rows`` (betting rows, labelled) of the fitted network (``fitted``), of
    the taught policy (``played``: what it chose there; ``unvalued``: the share of its choices the
    lookahead did not value) and of the lookahead's second labelling ``again`` of the same states
    (``mc``: its noise ceiling)."""
    mask = rows[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS] > 0
    chosen = rows[:, NET_RECORD.chosen].astype(np.int64)
    valued = mask[np.arange(len(rows)), chosen]
    out = [{"policy": "fitted", **decision_match(rows, net_picks(net, rows))},
           {"policy": "played", **decision_match(rows[valued], chosen[valued]),
            "unvalued": float(1 - valued.mean()) if len(rows) else np.nan}]
    if len(again) == len(rows):
        q2 = again[:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS].astype(np.float64)
        out.append({"policy": "mc", **decision_match(rows, choices(q2, mask))})
    return pd.DataFrame(out)


def expert_iteration(rules: RuleSet, population: list[str], field: Profile, model, schedule: Schedule, *,
                     init: NetWeights | None = None, command: str = "", progress: bool | None = False,
                     log=print) -> tuple[NetWeights, pd.DataFrame, Profile]:
    """The loop of the module docstring; returns the last network (its figures in its metadata), one
    row of figures per iteration and the last field."""
    require_training()
    spec = net_spec(rules)
    net = init
    pooled: list[np.ndarray] = []
    history = []
    members = [parse_strategy(t, rules, clamp_cash=True) for t in population]
    if all(m.text != NET_MEMBER for m in members):
        members.append(parse_strategy(NET_MEMBER, rules))
    per_iter = schedule.games + 2 * schedule.holdout
    with Progress(schedule.iterations * per_iter, "sponsio train", enabled=progress) as bar:
        for it in range(schedule.iterations):
            heaviest = field[int(np.argmax(field.weights))] if field.weights else field[0]
            taught, cash = ("net", "net") if net is not None else ("distilled", heaviest.cash_text)
            how = Labelling(games=schedule.games, rollouts=schedule.rollouts, seed=derive_seed(schedule.seed, "train", it),
                            mc_self=taught, cash=cash, threads=schedule.threads)
            rows, batches = record_iteration(rules, field, model, net, how, schedule.variants, bar)
            if schedule.rows_dir:
                save_rows(Path(schedule.rows_dir) / f"iteration-{it + 1}.npz", rows, batches)
            pooled = (pooled + [rows])[-schedule.keep:]
            fitted, epochs = fit(spec, train_set(np.concatenate(pooled)), replace(schedule.fit, seed=schedule.seed + it),
                                 init=net)
            hold = replace(how, games=schedule.holdout, seed=derive_seed(schedule.seed, "holdout", it))
            held = label(rules, field, model, net, hold, bar)
            again = label(rules, field, model, net, replace(hold, salt=1), bar)
            table = measures(betting_rows(held), betting_rows(again), fitted, taught)
            row = {"iteration": it + 1, "taught": taught, "field": field.text(),
                   "train_decisions": int(len(betting_rows(rows))), "pooled_rows": int(sum(len(p) for p in pooled)),
                   "variant_batches": sum(b != "base rules" for b in batches), "epochs": len(epochs),
                   "holdout_loss": epochs[-1]["holdout_loss"]}
            for _, m in table.iterrows():
                for k in ("regret", "regret_low", "regret_high", "agree", "agree_low", "agree_high"):
                    row[f"{m['policy']}_{k}"] = m[k]
            row["played_unvalued"] = float(table.loc[table["policy"] == "played", "unvalued"].iloc[0])
            history.append(row)
            log(pd.DataFrame([row]).T.to_string(header=False))
            net = fitted
            if schedule.meta_games:
                with using_net(net):
                    result, steps = meta_game(rules, members, model, n=schedule.meta_games,
                                              seed=derive_seed(schedule.seed, "meta", it), psro=schedule.psro)
                members = [parse_strategy(t, rules) for t in result.names]
                field = mixture_profile(members, result.equilibrium.mixture, f"field after iteration {it + 1}", rules)
                log(f"iteration {it + 1}: {result.verdict}")
            row["field_after"] = field.text()
            if schedule.mc_games:
                with using_net(net):
                    gain = focal_gain(rules, field, parse_strategy("mc:goal:net", rules), schedule.mc_games,
                                      seed=derive_seed(schedule.seed, "mc", it), model=model)
                row.update(mc_gain=gain[0], mc_gain_low=gain[1], mc_gain_high=gain[2])
                log(f"iteration {it + 1}: mc gains {fmt_ci(*gain[:3], sign=True, digits=3)} against the field")
                falling = [h["mc_gain"] for h in history if "mc_gain" in h]
                if len(falling) >= 2 and falling[-1] >= falling[-2]:
                    log(f"iteration {it + 1}: mc's gain stopped falling; stopping")
                    break
    figures = pd.DataFrame(history)
    net.meta.update({"command": command, "seed": schedule.seed, "rules": rules.name,
                     "iterations": json.loads(figures.to_json(orient="records")), "field": field.text()})
    return net, figures, field


def save_rows(path: Path, rows: np.ndarray, batches: list[str]) -> None:
    """An iteration's labelled rows and the rule set of each batch, for analysis or another fit."""
    def write(tmp):
        np.savez_compressed(tmp, rows=rows, batches=np.array(batches))
    write_atomic(path, write)


def load_rows(path: str | Path) -> np.ndarray:
    """The labelled rows ``save_rows`` kept."""
    with np.load(path, allow_pickle=False) as data:
        return data["rows"]


def start_field(rules: RuleSet) -> Profile:
    """The field the first iteration records against: the shipped reference field."""
    try:
        return parse_profile("reference", rules)
    except UserError:
        raise UserError(f"sponsio train: no reference field for {rules.players} players to start from") from None
