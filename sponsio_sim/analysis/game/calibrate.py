"""The success model calibrated where it is used: on-policy refits and in-game checks.

The off-policy fit (``analysis.game.fit``) learns each model cell's chance from
random bets in random rounds. In whole games the bets `ev` holds are not
random: it picks the ones its cells rate highest, and its opponents are
bettors and trolls who play against its bets. So its predictions drift from
what it wins (the tournament's ``*_predicted`` against ``*_won``).

``refit_on_policy`` closes the loop: play whole games of a profile with the
current model, count every bet held when betting ends by its model cell
(bets, wins), blend those counts with the off-policy fit, and repeat, so the
model converges to the chances of the bets the profile really places, in
the games it really plays:

- each iteration's counts are added to the earlier ones after halving them
  (``DECAY``), so the newest policy weighs most; a cell the new games do
  not reach keeps its counts, so a cell found worse than it looked does not
  drift back to its off-policy chance and tempt the policy again;
- each cell keeps at most ``OFF_PRIOR`` pseudo-bets of its off-policy rate,
  so cells the games never reach keep the off-policy estimate, and cells
  they reach follow the games.

Iteration i's games judge model i on the bets it placed itself (0 is the
off-policy fit); the model kept is the one whose own games agreed best with
it (largest gap over the bet types placed often enough), so a refit that
starts to oscillate between two policies keeps its best step.

``ingame_calibration`` is the check: per bet type, the model's mean
predicted chance of the bets placed beside their observed success (Wilson
interval) and the gap in percentage points, over all seats and at the seat
where it is largest (seats fixed, as a tournament without ``--rotate``
prints them: a model right on average can be wrong at every seat).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.backend import KernelBatch
from tabletop_mc.progress import Progress
from tabletop_mc.runner import derive_seed, run_chunked
from tabletop_mc.stats import wilson
from sponsio_sim.kernels.game.engine import switches
from sponsio_sim.analysis.game.model import KINDS, SuccessModel
from sponsio_sim.analysis.game.setup import build_state, game_arrays, parse_profile, rows_of
from sponsio_sim.analysis.game.runs import GAME_CHUNK, entry_table, run_games
from sponsio_sim.kernels.layout import RULES, model_sizes, named_stats, stats_size

CHECK_GAMES = 20_000      # games of the in-game calibration check (``sponsio fit --check-games``)
OFF_PRIOR = 50.0          # at most this many off-policy pseudo-bets per cell
DECAY = 0.5               # weight of the earlier iterations' counts at each new iteration
DEFAULT_ITERATIONS = 8
DEFAULT_GAMES = 120_000   # games per iteration (fewer left the finer cells noisy: ev then picks the overrated ones)
TOLERANCE_PP = 2.0        # calibration target: |predicted - won| per type placed often enough
MIN_PLACED = 2_000


def default_profile(rules, play: str = "goal") -> str:
    """The profile of the on-policy refit and the in-game check: `ev` cashing in at 4 (at the
    track's last position if shorter) playing ``play`` (the model's play policy), every seat."""
    cash = f"cash{min(4, rules.track_win - 1)}" if rules.track_win > 1 else "never"
    return f"ev:{play}:{cash} x{rules.players}"


def onpolicy_counts(rules, model: SuccessModel, profile: str, games: int, seed: int,
                    progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(bets, wins) per model cell of the bets ``profile`` holds when betting ends, over ``games`` games."""
    strategies = parse_profile(profile, rules)
    board, game_state, money = build_state(rules, strategies, model, rotate=True)
    width = 2 * len(model.bets)
    start = game_arrays(board, game_state, money)
    batch = KernelBatch("sponsio_sim.kernels.game.fit", "onpolicy_chunks", seed, start,
                        np.int64(stats_size(rules.players, start.rules[RULES.entries])), np.int64(width),
                        *switches(game_state))
    totals = run_chunked(batch, games, chunk_size=GAME_CHUNK, progress=progress).totals
    return totals[0::2].copy(), totals[1::2].copy()


def blend(off: SuccessModel, on_bets: np.ndarray, on_wins: np.ndarray, meta: dict) -> SuccessModel:
    """On-policy counts plus at most ``OFF_PRIOR`` off-policy pseudo-bets per cell (module docstring)."""
    scale = np.minimum(1.0, OFF_PRIOR / np.maximum(off.bets, 1.0))
    return SuccessModel(off.fingerprint, off.hand_size, on_bets + scale * off.bets, on_wins + scale * off.wins,
                        dict(meta))


def ingame_calibration(rules, model: SuccessModel, *, profile: str | None = None, n: int = 20_000,
                       seed: int = 1, progress: Progress | None = None) -> pd.DataFrame:
    """Per bet type (and per profile of a ';'-separated list): placed, mean predicted P,
    observed success with Wilson CI, gap (pp), the largest gap at one seat among the
    seats that placed it ``MIN_PLACED`` times (``seat_gap_pp``, at ``seat``, which
    placed it ``seat_placed`` times), and
    whether both are within the target."""
    profile = profile or default_profile(rules)
    frames = []
    for prof in [p.strip() for p in profile.split(";") if p.strip()] if isinstance(profile, str) else [profile]:
        frames.append(_ingame_one(rules, model, prof, n, seed, progress))
    return pd.concat(frames, ignore_index=True)


def ingame_meta(ingame: pd.DataFrame, profile: str, games: int) -> dict:
    """The model file's record of an in-game check (``ingame_calibration``'s table): per profile and
    type the gap in pp, and the largest gaps overall and at one seat among the types judged."""
    judged = ingame[ingame["within"].isin(("yes", "no"))]
    return {"profile": profile, "games": int(games),
            "gap_pp": {f"{r.profile}: {r.bet_type}": (None if np.isnan(r.gap_pp) else round(float(r.gap_pp), 3))
                       for r in ingame.itertuples()},
            "max_abs_gap_pp": float(judged["gap_pp"].abs().max()) if len(judged) else None,
            "max_abs_seat_gap_pp": (float(judged["seat_gap_pp"].abs().max())
                                    if judged["seat_gap_pp"].notna().any() else None)}


def seat_bets(totals: np.ndarray, rules) -> pd.DataFrame:
    """Per seat, whatever strategy sat there: per bet type the bets placed, their success rate and
    the model's mean predicted chance (``KIND_placed``, ``KIND_won``, ``KIND_predicted``)."""
    rows = named_stats(totals, rules.players)["rows"]
    kinds = np.array([KINDS.index(b.kind) for b in rows_of(rules)])
    out = []
    for s in range(rules.players):
        row = {"seat": s}
        for k, kind in enumerate(KINDS):
            idx = np.flatnonzero(kinds == k)
            placed = rows["placed"][s, idx].sum()
            row[f"{kind}_placed"] = int(placed)
            row[f"{kind}_won"] = rows["won"][s, idx].sum() / placed if placed else np.nan
            row[f"{kind}_predicted"] = rows["predicted"][s, idx].sum() / placed if placed else np.nan
        out.append(row)
    return pd.DataFrame(out)


def _ingame_one(rules, model, profile, n, seed, progress) -> pd.DataFrame:
    strategies = parse_profile(profile, rules)
    text = strategies.text()
    totals = run_games(rules, strategies, n, rotate=False, seed=seed, model=model, progress=progress)
    # per seat: an entry is a seat, unless seats draw from a field
    df = entry_table(totals, strategies, False, rules) if strategies.field is None else seat_bets(totals, rules)
    rows = []
    for kind in KINDS:
        if kind not in rules.bets:
            continue
        placed = float(df[f"{kind}_placed"].sum())
        if placed == 0:
            rows.append({"profile": text, "bet_type": kind, "placed": 0, "predicted": np.nan, "won": np.nan,
                         "won_low": np.nan, "won_high": np.nan, "gap_pp": np.nan, "seat_gap_pp": np.nan,
                         "seat": -1, "seat_placed": 0, "within": ""})
            continue
        pred = float((df[f"{kind}_predicted"] * df[f"{kind}_placed"]).sum() / placed)
        wins = float((df[f"{kind}_won"] * df[f"{kind}_placed"]).sum())
        p, lo, hi = wilson(wins, placed)
        gap = 100.0 * (pred - p)
        seats = df[df[f"{kind}_placed"] >= MIN_PLACED]
        seat_gaps = 100.0 * (seats[f"{kind}_predicted"] - seats[f"{kind}_won"]).to_numpy(dtype=float)
        at = int(np.argmax(np.abs(seat_gaps))) if len(seats) else -1
        seat_gap = float(seat_gaps[at]) if at >= 0 else np.nan
        judged = placed >= MIN_PLACED
        ok = abs(gap) <= TOLERANCE_PP and (at < 0 or abs(seat_gap) <= TOLERANCE_PP)
        rows.append({"profile": text, "bet_type": kind, "placed": int(placed), "predicted": pred, "won": p,
                     "won_low": lo, "won_high": hi, "gap_pp": gap, "seat_gap_pp": seat_gap,
                     "seat": int(seats["seat"].iloc[at]) if at >= 0 else -1,
                     "seat_placed": int(seats[f"{kind}_placed"].iloc[at]) if at >= 0 else 0,
                     "within": ("yes" if ok else "no") if judged else "too few"})
    return pd.DataFrame(rows)


def _seed(seed: int, it: int, j: int, n_profiles: int) -> int:
    return derive_seed(seed, "onpolicy", it) if n_profiles == 1 else derive_seed(seed, "onpolicy", it, j)


def refit_on_policy(rules, off: SuccessModel, *, profile: str | None = None, iterations: int = DEFAULT_ITERATIONS,
                    games: int = DEFAULT_GAMES, seed: int = 1,
                    progress: Progress | None = None) -> tuple[SuccessModel, pd.DataFrame]:
    """Iterate play -> count -> blend (module docstring): ``iterations`` refits, each
    model judged on ``games`` games of its own. Returns the model kept and one row per
    model with its in-game gap (pp) per bet type."""
    profile = profile or default_profile(rules)
    profiles = [p.strip() for p in profile.split(";") if p.strip()] if isinstance(profile, str) else [profile]
    on_bets = np.zeros_like(off.bets)
    on_wins = np.zeros_like(off.wins)
    model = off
    history = []
    models = []
    meta = dict(off.meta)
    min_placed = MIN_PLACED * games / CHECK_GAMES
    for it in range(iterations + 1):
        if progress is not None:
            progress.set_label(f"fit: on-policy iteration {it}/{iterations}")
        b = np.zeros_like(off.bets)
        w = np.zeros_like(off.wins)
        for j, prof in enumerate(profiles):   # the games split over the profiles, counts pooled
            share = games // len(profiles) + (1 if j < games % len(profiles) else 0)
            bj, wj = onpolicy_counts(rules, model, prof, share, _seed(seed, it, j, len(profiles)), progress)
            b += bj
            w += wj
        pred = model.p
        row = {"iteration": it, "games": games}
        worst = 0.0
        for k, (o, size) in enumerate(zip(model.offsets, model_sizes(rules.hand_size))):
            placed = b[o:o + size].sum()
            gap = (100.0 * ((b[o:o + size] * pred[o:o + size]).sum() - w[o:o + size].sum())
                   / placed) if placed else np.nan
            if KINDS[k] in rules.bets:
                row[f"{KINDS[k]}_gap_pp"] = gap
            if placed >= min_placed:
                worst = max(worst, abs(gap))
        row["max_gap_pp"] = worst
        history.append(row)
        models.append(model)
        if it == iterations:
            break
        fresh = b > 0   # a cell the games no longer reach keeps its counts (no drift back to off-policy)
        on_bets = np.where(fresh, DECAY * on_bets + b, on_bets)
        on_wins = np.where(fresh, DECAY * on_wins + w, on_wins)
        text = profile if isinstance(profile, str) else profile.text()
        meta.update(on_policy={"profile": text, "iterations": it + 1, "games_per_iteration": int(games),
                               "seed": int(seed), "off_prior": OFF_PRIOR, "decay": DECAY})
        model = blend(off, on_bets, on_wins, meta)
    # iteration i's row judges model i (0: the off-policy fit) on the games it played itself:
    # keep the model whose own games agreed best with it
    hist = pd.DataFrame(history)
    best = int(hist.loc[hist["iteration"] > 0, "max_gap_pp"].idxmin()) if iterations else 0
    chosen = models[best]
    chosen.meta["on_policy"] = dict(chosen.meta.get("on_policy", {}), chosen_iteration=best)
    hist["chosen"] = ["yes" if i == best else "" for i in hist["iteration"]]
    return chosen, hist
