"""`sponsio fit`: fit the `ev` policy's success model and check its calibration.

Training rounds (``kernels.game.fit``, mode 0) give (bets, wins) per model
cell; a held-out run on a different seed (mode 1) compares the model's
predicted chance of every bet held with what happened. Calibration is shown
by decile of the predicted chance (equal-count groups of held-out bets):
mean predicted, observed success with its 95% Wilson interval, and the
absolute error; the headline is the mean absolute error over the deciles,
overall and per bet type.

The held-out check is on rounds of the fitting process, where bettors and
their bets are random. In real games an off-policy model is optimistic for
the bets `ev` picks, so the fit then refits the model on-policy, on the bets
a profile really places in whole games (``analysis.game.calibrate``), and checks
it there too: per bet type, the mean predicted chance beside the observed
success in further games (the in-game calibration).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.rng import seed_key
from tabletop_mc.progress import Progress
from tabletop_mc.runner import derive_seed, run_chunked, set_threads
from tabletop_mc.stats import wilson
from sponsio_sim.analysis.game.calibrate import (CHECK_GAMES, DEFAULT_GAMES, DEFAULT_ITERATIONS, default_profile,
                                            ingame_calibration, ingame_meta, refit_on_policy)
from sponsio_sim.analysis.game.model import (KINDS, SuccessModel, cache_path, cached_model, economy,
                                             check_play, fingerprint, keep_in_cache, shipped)
from sponsio_sim.analysis.game.setup import PLAY, build_state, game_arrays, model_variant, parse_profile
from sponsio_sim.analysis.settings import Run
from sponsio_sim.kernels.game.fit import fit_chunks
from sponsio_sim.kernels.layout import model_sizes
from sponsio_sim.rules import RuleSet, load_rules

FIT_CHUNK = 2048
CAL_BINS = 1000          # fine bins of predicted P, grouped into deciles afterwards
TROLL_SHARE = 0.25       # share of seats without bets in the sample rounds
DEFAULT_ROUNDS = 1_000_000
AUTO_FIT_ROUNDS = 300_000   # rounds of the model fitted on first use for a deal without one
HOLDOUT_SHARE = 0.25
DECILES = 10


def _run(rules, model, mode, n, seed, policy, progress, label):
    start = game_arrays(*build_state(rules, [], model))
    width = 2 * len(model.bets) if mode == 0 else len(KINDS) * CAL_BINS * 3
    play_code = PLAY[policy]

    def batch(first, counts):
        return fit_chunks(seed_key(seed), np.int64(first), counts, start, np.int64(mode), np.int64(play_code),
                          TROLL_SHARE, np.int64(CAL_BINS), np.int64(width))

    if progress is not None:
        progress.set_label(label)
    return run_chunked(batch, n, chunk_size=FIT_CHUNK, progress=progress).totals


def fit_model(rules, *, n: int = DEFAULT_ROUNDS, seed: int = 1, policy: str = "goal",
              progress: Progress | bool | None = False) -> SuccessModel:
    """Fit a success model on ``n`` simulated rounds."""
    bar = progress if isinstance(progress, Progress) else Progress(n, "fit", enabled=progress)
    empty = np.zeros(sum(model_sizes(rules.hand_size)))
    blank = SuccessModel(fingerprint(rules), rules.hand_size, empty, empty)
    totals = _run(rules, blank, 0, n, derive_seed(seed, "fit"), policy, bar, "fit: training")
    if not isinstance(progress, Progress):
        bar.close()
    return SuccessModel(fingerprint(rules), rules.hand_size, totals[0::2].copy(), totals[1::2].copy(),
                        meta={"rules": rules.name, "rounds": int(n), "seed": int(seed), "play_policy": policy,
                              "troll_share": TROLL_SHARE})


def _deciles(hist: np.ndarray) -> pd.DataFrame:
    """Equal-count groups of fine bins (count, sum of P, wins) -> calibration rows."""
    n = hist[:, 0]
    total = n.sum()
    if total == 0:
        return pd.DataFrame(columns=["decile", "n", "predicted", "observed", "ci_low", "ci_high", "abs_error"])
    mid = np.cumsum(n) - n / 2.0
    group = np.minimum((mid / total * DECILES).astype(int), DECILES - 1)
    rows = []
    for d in range(DECILES):
        sel = (group == d) & (n > 0)
        k = hist[sel, 0].sum()
        if k == 0:
            continue
        wins = hist[sel, 2].sum()
        pred = hist[sel, 1].sum() / k
        p, lo, hi = wilson(wins, k)
        rows.append((d + 1, int(k), pred, p, lo, hi, abs(pred - p)))
    return pd.DataFrame(rows, columns=["decile", "n", "predicted", "observed", "ci_low", "ci_high", "abs_error"])


def calibration(rules, model: SuccessModel, *, n: int, seed: int = 1, policy: str = "goal",
                progress: Progress | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(deciles over all bets, per bet type summary) on ``n`` held-out rounds."""
    totals = _run(rules, model, 1, n, derive_seed(seed, "holdout"), policy, progress, "fit: held-out check")
    hist = totals.reshape(len(KINDS), CAL_BINS, 3)
    overall = _deciles(hist.sum(axis=0))
    per_kind = []
    for k, name in enumerate(KINDS):
        d = _deciles(hist[k])
        if len(d):
            per_kind.append((name, int(d["n"].sum()), float(d["abs_error"].mean()), float(d["abs_error"].max())))
    per_kind.append(("all", int(overall["n"].sum()), float(overall["abs_error"].mean()),
                     float(overall["abs_error"].max())))
    summary = pd.DataFrame(per_kind, columns=["bet_type", "n", "mae", "max_error"])
    return overall, summary


@dataclass(frozen=True)
class Training:
    """How a success model is fitted and checked: ``n`` training rounds played by ``policy``, the
    calibration checked on ``holdout`` further rounds (None: a quarter of ``n``); ``on_policy``
    iterations of ``games`` games of ``profile`` (None: `ev:goal:cash4` for every seat) refit it on
    the bets really placed (``analysis.game.calibrate``); the in-game check plays ``check_games``
    further games on a seed of its own."""
    n: int = DEFAULT_ROUNDS
    holdout: int | None = None
    policy: str = "goal"
    on_policy: int = DEFAULT_ITERATIONS
    games: int = DEFAULT_GAMES
    profile: str | None = None
    check_games: int = CHECK_GAMES


@dataclass(frozen=True)
class FitResult:
    """What ``fit`` returns: the fitted ``model``; its held-out calibration by decile of the prediction
    (``deciles``) and by bet type (``summary``), the in-game check (``ingame``) and the on-policy iterations
    (``history``, empty without them); and what it was fitted under, which the CLI header prints: the ``rules``
    summary, ``seed``, training ``rounds``, ``holdout`` rounds (a default resolved), play ``policy``, the deal's
    ``fingerprint``, the on-policy ``profile`` (a default resolved) and ``check_games``. Typed fields rather than
    pandas' experimental ``attrs`` on each table."""
    model: SuccessModel
    deciles: pd.DataFrame
    summary: pd.DataFrame
    ingame: pd.DataFrame
    history: pd.DataFrame
    rules: str
    seed: int
    rounds: int
    holdout: int
    policy: str
    fingerprint: str
    profile: str
    check_games: int


def fit(rules=None, training: Training = Training(), *, players: int | None = None, overrides=None,
        run: Run = Run()) -> FitResult:
    """Fit and check a model as ``training`` says (``FitResult``; ``run``: seed, threads, progress)."""
    n, holdout, policy, on_policy = training.n, training.holdout, training.policy, training.on_policy
    games, profile, check_games = training.games, training.profile, training.check_games
    seed, progress = run.seed, run.progress
    ruleset = load_rules(rules, players, overrides)
    if n < 1:
        raise UserError(f"-n {n}: the number of training rounds must be at least 1")
    if policy not in PLAY:
        raise UserError(f"--policy {policy}: unknown play policy (choose from {', '.join(PLAY)})")
    holdout = holdout if holdout is not None else max(1, int(n * HOLDOUT_SHARE))
    if holdout < 1:
        raise UserError(f"--holdout {holdout}: must be at least 1")
    if on_policy < 0 or (on_policy and games < 1) or check_games < 1:
        raise UserError("--on-policy, --games and --check-games: need iterations >= 0 and games >= 1")
    profile = profile or default_profile(ruleset, policy)
    for prof in profile.split(";"):
        check_play(parse_profile(prof.strip(), ruleset), policy, f"the model fitted now, --policy {policy}", ruleset)
    set_threads(run.threads)
    bar = Progress(n + holdout + (on_policy + 1) * games * (on_policy > 0) + check_games, "fit", enabled=progress)
    try:
        model = fit_model(ruleset, n=n, seed=seed, policy=policy, progress=bar)
        history = pd.DataFrame()
        if on_policy:
            model, history = refit_on_policy(ruleset, model, profile=profile, iterations=on_policy, games=games,
                                             seed=seed, progress=bar)
        deciles, summary = calibration(ruleset, model, n=holdout, seed=seed, policy=policy, progress=bar)
        bar.set_label("fit: in-game check")
        ingame = ingame_calibration(ruleset, model, profile=profile, n=check_games,
                                    seed=derive_seed(seed, "ingame"), progress=bar)
    finally:
        bar.close()
    model.meta.update(economy=economy(ruleset), variant=model_variant(profile, ruleset), holdout_rounds=int(holdout),
                      calibration_mae=float(summary["mae"].iloc[-1]),
                      mae_by_type={r.bet_type: r.mae for r in summary.itertuples()},
                      ingame=ingame_meta(ingame, profile, check_games))
    return FitResult(model, deciles, summary, ingame, history, rules=ruleset.summary(), seed=seed, rounds=n,
                     holdout=holdout, policy=policy, fingerprint=fingerprint(ruleset), profile=profile,
                     check_games=check_games)


def find_model(rules: RuleSet, path=None, *, progress: bool | None = False, seed: int = 1,
               variant: str | None = None) -> SuccessModel:
    """The success model to use for ``rules`` (see ``analysis.game.model``); ``variant="reference"``
    first looks for a model calibrated in the reference profile's own games."""
    def usable(m):   # fitted on bets of every kind the rule set has (a kind added later has no counts)
        return m is not None and m.covers(rules.bets)

    if variant is not None and path is None:
        for candidate in (shipped(rules, variant), cached_model(cache_path(rules, variant))):
            if usable(candidate) and candidate.meta.get("economy", economy(rules)) == economy(rules):
                return candidate
    if path is not None:
        if not Path(path).exists():
            raise UserError(f"--model {path}: no such file")
        model = SuccessModel.load(path)
        if model.fingerprint != fingerprint(rules):
            raise UserError(f"--model {path}: fitted for deal {model.fingerprint}, "
                            f"rule set {rules.name} deals {fingerprint(rules)}")
        if not usable(model):
            missing = [k for k in rules.bets if not model.covers([k])]
            raise UserError(f"--model {path}: has no fitted bets of type {', '.join(missing)} "
                            "(`sponsio fit` with these rules fits one)")
        return model
    model = shipped(rules)
    if usable(model) and model.meta.get("economy", economy(rules)) == economy(rules):
        return model
    cached = cache_path(rules)
    earlier = cached_model(cached)
    if usable(earlier):
        return earlier
    if usable(model):
        model.source += (" (calibrated in games of the standard rule set; `sponsio fit` with these rules "
                         "calibrates one for them)")
        return model
    print(f"note: no success model for deal {fingerprint(rules)} yet; fitting one "
          f"({AUTO_FIT_ROUNDS:,} rounds, cached in {cached.parent})", file=sys.stderr)
    model = fit_model(rules, n=AUTO_FIT_ROUNDS, seed=seed, progress=progress)
    model.source = f"cache:{cached}" if keep_in_cache(model, cached) else f"fitted now ({AUTO_FIT_ROUNDS:,} rounds)"
    return model
