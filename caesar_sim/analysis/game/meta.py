"""`meta`: the Circus Maximus side of the meta-game (``tabletop_mc.metarun``, ``tabletop_mc.metagame``).

- ``payoff_adapter`` plays one profile of the symmetric game for the payoff table: the
  population's strategies as a member table, the profile's seating rotated game by game, every
  game on its own streams (``kernels.game.engine``: game g is the same deal in every profile, common
  random numbers). A sample is one game: y = the mean win share of the strategy's seats in it.
  Every profile is played (C(N+K-1, N) of them, 126 for 6 strategies and 4 players): the
  members are fast, so estimating every multiset costs seconds and leaves no entry to sampling
  from a mixture that moves while PSRO runs.
- ``oracle_step`` (PSRO): best responses to the current mixture, each judged by its paired gain
  against the field on games of a seed of its own: `tune` against the field (CMA-ES), `distill`
  against the field (the fast policy fitted to `mc` rolling out against it), and `mc` itself
  with field rollouts (the auditor: far too slow to be a member of a field that must play 5,000
  games/s/core, so it is measured, never added). A fast candidate joins the population when its
  gain's 95 % lower bound exceeds ``MARGIN``; the game is then re-solved.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from tabletop_mc.errors import OutputError
from tabletop_mc.stats import mean_ci
from caesar_sim import weights as WT
from caesar_sim.analysis.game.runs import RunSettings, run_field
from caesar_sim.fieldplay import FieldPlay, mixture_play
from caesar_sim.kernels import layout
from caesar_sim.strategy import Strategy, parse_strategy

MARGIN = 0.01
ORACLE_SEED = 7919       # oracle games run on seed + ORACLE_SEED + round: never the payoff table's seed


def member_table(players: int, members, base: Path | None = None) -> FieldPlay:
    """The population as a member table (the weights are not used: profiles give the seating)."""
    strategies = tuple(m if isinstance(m, Strategy) else parse_strategy(m, players, base) for m in members)
    return FieldPlay("population", players, strategies, tuple([1.0 / len(strategies)] * len(strategies)))


def payoff_adapter(players: int, members, settings: RunSettings = RunSettings(), *, base: Path | None = None):
    """``play(counts, games, seed) -> (total, total_sq, n)`` per strategy (``metagame.build``; the rules and
    threads of ``settings``, the seed ``play``'s)."""
    table = member_table(players, members, base)
    k = len(table.members)

    def play(counts, games, seed):
        seating = [j for j, c in enumerate(counts) for _ in range(int(c))]
        b = run_field(players, table, games, settings.but(seed=seed, progress=False), seating=seating, stats=False)
        shares = b.win_shares(by_entry=False)
        total, sq, n = np.zeros(k), np.zeros(k), np.zeros(k, dtype=np.int64)
        for j in range(k):
            if counts[j] == 0:
                continue
            mask = b.members == j
            y = (shares * mask).sum(axis=1) / mask.sum(axis=1)
            total[j], sq[j], n[j] = y.sum(), (y * y).sum(), len(y)
        return total, sq, n

    return play


def paired_gain(players: int, field: FieldPlay, focal: Strategy | str, games: int, settings: RunSettings, *,
                base=None) -> dict:
    """A seat playing ``focal`` against ``field`` (seat g % players of game g, the others drawn): the
    paired per-game win-share gain over the field member that sat there, mean and 95 % interval
    (``base``: the undeviated run on the same seed, if already played)."""
    if base is None:
        base = run_field(players, field, games, settings, stats=False, label="field")
    dev = run_field(players, field.with_focal(focal), games, settings, stats=False,
                    label=f"against the field: {field.with_focal(focal).focal.label}")
    d = dev.win_shares()[:, 0] - base.win_shares()[:, 0]
    g, lo, hi = mean_ci(d.sum(), (d * d).sum(), len(d))
    return {"strategy": dev.profile.focal.label, "n": games, "seed": settings.seed,
            "win_share": float(dev.win_shares()[:, 0].mean()), "gain": g, "gain_low": lo, "gain_high": hi}


@dataclass
class Candidate:
    kind: str                  # "tune", "distill" or "mc"
    strategy: str | Strategy   # its text (a weights file in the output folder), or `mc` as built
    addable: bool              # fast enough to join the field


@dataclass(frozen=True)
class Oracle:
    """PSRO's budget: up to ``rounds`` rounds, each candidate judged on ``games`` games; `tune` searches
    ``tune_generations`` generations of ``tune_games`` games per candidate, `distill` runs
    ``distill_iterations`` iterations of ``distill_games`` games, the `mc` auditor ``mc_rollouts`` rollouts."""

    rounds: int = 0
    games: int = 2000
    tune_games: int = 4000
    tune_generations: int = 20
    distill_games: int = 1000
    distill_iterations: int = 2
    mc_rollouts: int = 8


def oracle_candidates(players: int, field: FieldPlay, out: Path, round_: int, settings: RunSettings,
                      oracle: Oracle = Oracle()) -> list[Candidate]:
    """Best responses to ``field`` (module docstring); their weights files are written into ``out``."""
    from caesar_sim.analysis.game.distill import Schedule, distill
    from caesar_sim.analysis.game.tune import Search, tune

    out.mkdir(parents=True, exist_ok=True)
    tag = f"br{round_}-{players}p"
    mine = settings.but(seed=settings.seed + round_, command=f"caesar meta oracle round {round_}")
    res = tune(players, oracle.tune_games, Search(oracle.tune_generations, lam=8, start="tuned"), mine,
               against=field)
    _save(out / f"{tag}-tuned.json", res, players, "tuned")
    dist = distill(players, field, distill_start(field), Schedule(
        oracle.distill_games, max(oracle.distill_games // 4, 50), oracle.distill_iterations), mine)
    _save(out / f"{tag}-distilled.json", dist, players, "distilled")
    row = parse_strategy(f"distilled@{tag}-distilled.json", players, out).row
    mc = Strategy(f"mc:{oracle.mc_rollouts}:distilled@{tag}-distilled.json, field rollouts", layout.MC,
                  oracle.mc_rollouts, row,
                  replace(field, focal=None))
    return [Candidate("tune", f"tuned@{tag}-tuned.json", True),
            Candidate("distill", f"distilled@{tag}-distilled.json", True),
            Candidate("mc", mc, False)]


def _save(path: Path, res, players: int, policy: str) -> None:
    """A best response's weights file, which the next steps read: a failed write ends the run in one line."""
    try:
        WT.save(path, res.weights, players, res.meta, policy=policy)
    except OSError as exc:
        raise OutputError(f"--out {path.parent}: cannot write {path.name} ({exc.strerror or exc}); the meta-game "
                          "reads it back, so it stops here") from None


def judge(players: int, field: FieldPlay, candidates: list[Candidate], games: int, out: Path,
          settings: RunSettings) -> pd.DataFrame:
    """Each candidate's paired gain against ``field`` on ``games`` games of ``settings.seed``."""
    rows = []
    base = run_field(players, field, games, settings, stats=False)
    for c in candidates:
        s = c.strategy if isinstance(c.strategy, Strategy) else parse_strategy(c.strategy, players, out)
        row = paired_gain(players, field, s, games, settings, base=base)
        rows.append({"kind": c.kind, **row, "addable": c.addable,
                     "added": bool(c.addable and row["gain_low"] > MARGIN)})
    return pd.DataFrame(rows)


def distill_start(field: FieldPlay) -> Strategy:
    """Where the oracle's distillation starts: the field's heaviest deterministic `distilled` member (expert
    iteration goes on from it), else `tuned`."""
    own = [(w, m) for w, m in zip(field.weights, field.members)
           if m.code == layout.DISTILLED and m.row[layout.WEIGHTS.temperature] <= 0]
    return max(own, key=lambda p: p[0])[1] if own else parse_strategy("tuned", field.players)


def mixture_field(players: int, names, weights, base: Path | None = None) -> FieldPlay:
    """The equilibrium mixture as a field (members of weight 0 left out)."""
    return mixture_play("mixture", players, names, weights, base)


@dataclass
class MetaRun:
    """What `caesar meta` found: the final solve, the members added by the oracle and its rounds."""

    result: object            # tabletop_mc.metarun.MetaResult
    oracle: pd.DataFrame      # every round's candidates and gains
    out: Path | None


def run_meta(players: int, members, games: int, settings: RunSettings, *, oracle: Oracle = Oracle(),
             out: Path | None = None, log=None) -> MetaRun:
    """Payoff table of ``members`` (every profile, ``games`` games each), solve, then up to
    ``oracle.rounds`` PSRO rounds (``oracle_candidates``; their files go to ``out``)."""
    from tabletop_mc.metarun import play, solve

    seed = settings.seed
    names = list(members)
    table = play(names, players, payoff_adapter(players, names, settings, base=out), games=games, seed=seed)
    result = solve(table, seed=seed)
    rounds = []
    for r in range(oracle.rounds):
        field = mixture_field(players, result.names, result.boot.mixture, out)
        cands = oracle_candidates(players, field, out, r + 1, settings, oracle)
        judged = judge(players, field, cands, oracle.games, out,
                       settings.but(seed=seed + ORACLE_SEED + r)).assign(round=r + 1)
        rounds.append(judged)
        if log is not None:
            log(f"oracle round {r + 1}: " + "; ".join(f"{k} {g:+.3f} [{lo:+.3f}, {hi:+.3f}]" for k, g, lo, hi in
                                                       judged[["kind", "gain", "gain_low", "gain_high"]].values))
        added = [c.strategy for c, a in zip(cands, judged["added"]) if a]
        if not added:
            break
        names += added
        table = play(names, players, payoff_adapter(players, names, settings, base=out), games=games, seed=seed,
                     base=table)
        result = solve(table, seed=seed)
    oracle = pd.concat(rounds, ignore_index=True) if rounds else pd.DataFrame()
    return MetaRun(result, oracle, out)
