"""Balance of the payout table as the strategies actually bet: `sponsio balance`.

Full games of one profile; for every catalogue bet (type and parameter) the
bets placed, hit rate, EV per coin staked, fair multiplier, RTP and
volatility index, overall and by seat position; troll economics; and, with
a sweep, the same games rerun per value of any rule-set number.

Definitions (per bet, payout in stakes): RTP = mean payout / stake (the
``double`` token included); EV per coin = RTP - 1; fair multiplier =
multiplier / RTP (the multiplier at which EV = 0 for the same bets);
volatility index = 1.96 x standard deviation of the payout per stake, as
slot PAR sheets define it at 95 % confidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from tabletop_mc.backend import use_backend
from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.runner import set_threads
from tabletop_mc.stats import CI_METHOD, Z95, mean_ci, wilson
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import Strategy, model_variant, parse_profile, rows_of
from sponsio_sim.analysis.game.runs import entry_table, game_table, run_games
from sponsio_sim.kernels.game import layout as L
from sponsio_sim.rules import RuleSet, load_rules

VOLATILITY_Z = Z95


@dataclass
class Balance:
    """Tables of one balance run (each a DataFrame; see module docstring)."""

    bets: pd.DataFrame
    kinds: pd.DataFrame
    by_seat: pd.DataFrame
    trolls: pd.DataFrame
    troll_pay: pd.DataFrame
    entries: pd.DataFrame
    games: pd.DataFrame
    meta: dict = field(default_factory=dict)


def row_block(totals: np.ndarray, players: int) -> np.ndarray:
    """(seat, catalogue row, field) array of the per-row bet statistics: placed, won, payout, payout squared."""
    rows = L.named_stats(totals, players)["rows"]
    return np.stack([rows[name] for name in ("placed", "won", "pay", "pay_sq")], axis=-1)


def bet_rows(totals: np.ndarray, rules: RuleSet, seat: int | None = None) -> pd.DataFrame:
    """Per catalogue row (one seat, or all seats summed): the bet measures."""
    rows = rows_of(rules)
    players = rules.players
    block = row_block(totals, players)
    data = block[seat] if seat is not None else block.sum(axis=0)
    rounds = L.named_stats(totals, players)["rounds"]
    out = []
    for r, bet in enumerate(rows):
        placed, won, pay, pay_sq = data[r]
        out.append(_measures(bet.notation(rules), bet.kind, placed, won, pay, pay_sq,
                             rules.multiplier_for(bet), rules.stake, rounds * players))
    return pd.DataFrame(out)


def _measures(name, kind, placed, won, pay, pay_sq, multiplier, stake, seat_rounds) -> dict:
    hit, hit_lo, hit_hi = wilson(won, placed)
    rtp, rtp_lo, rtp_hi = mean_ci(pay / stake, pay_sq / stake ** 2, placed, lower=0.0)
    sd = np.sqrt(max(pay_sq / stake ** 2 / placed - rtp ** 2, 0.0)) if placed > 0 else np.nan
    return {"bet": name, "type": kind, "placed": int(placed), "placed_per_round": placed / max(seat_rounds, 1),
            "hit": hit if placed else np.nan, "hit_low": hit_lo if placed else np.nan,
            "hit_high": hit_hi if placed else np.nan, "multiplier": multiplier,
            "ev_per_coin": rtp - 1.0 if placed else np.nan, "ev_low": rtp_lo - 1.0 if placed > 1 else np.nan,
            "ev_high": rtp_hi - 1.0 if placed > 1 else np.nan,
            "fair_multiplier": multiplier / rtp if placed and rtp > 0 else np.nan,
            "rtp": rtp if placed else np.nan, "volatility_index": VOLATILITY_Z * sd}


def kind_rows(bets: pd.DataFrame, rules: RuleSet, totals: np.ndarray) -> pd.DataFrame:
    """The bet measures pooled over each type's parameters."""
    players = rules.players
    pooled = row_block(totals, players).sum(axis=0)
    seat_rounds = L.named_stats(totals, players)["rounds"] * players
    rows = rows_of(rules)
    out = []
    for kind in rules.bets:
        idx = [r for r, b in enumerate(rows) if b.kind == kind]
        placed, won, pay, pay_sq = pooled[idx].sum(axis=0)
        mult = float(np.average([rules.multiplier_for(rows[r]) for r in idx], weights=pooled[idx, 0] + 1e-12))
        out.append(_measures(kind, kind, placed, won, pay, pay_sq, mult, rules.stake, seat_rounds))
    return pd.DataFrame(out)


def troll_tables(totals: np.ndarray, rules: RuleSet, strategies, entries: pd.DataFrame):
    """Troll economics: share of troll rounds and pay per round (overall), and
    the distribution of a troll's pay per round (failed bets x troll pay)."""
    players = rules.players
    stats = L.named_stats(totals, players)
    hist = stats["troll_failed"]
    troll_rounds = hist.sum()
    seat_rounds = stats["rounds"] * players
    share, share_lo, share_hi = wilson(troll_rounds, seat_rounds)
    failed = np.arange(L.MAX_FAILED)
    pay = failed * rules.troll_pay
    mean, lo, hi = mean_ci((hist * pay).sum(), (hist * pay ** 2).sum(), troll_rounds, lower=0.0)
    summary = pd.DataFrame([
        {"measure": "troll share of seat-rounds", "n": int(seat_rounds), "value": share, "ci_low": share_lo,
         "ci_high": share_hi},
        {"measure": "troll pay per troll round (coins)", "n": int(troll_rounds), "value": mean, "ci_low": lo,
         "ci_high": hi},
        {"measure": "troll pay per seat-round (coins)", "n": int(seat_rounds),
         "value": (hist * pay).sum() / max(seat_rounds, 1), "ci_low": np.nan, "ci_high": np.nan},
    ])
    keep = int(max(np.nonzero(hist)[0].max() + 1 if troll_rounds else 1, 1))
    p, plo, phi = wilson(hist[:keep], troll_rounds)
    dist = pd.DataFrame({"failed_bets": failed[:keep], "troll_pay": pay[:keep], "rounds": hist[:keep].astype(int),
                         "share": p, "ci_low": plo, "ci_high": phi})
    return summary, dist


def run_balance(ruleset: RuleSet, profile: str, n: int, *, seed: int, model, progress=None,
                cache: bool = True, rotate: bool = True) -> Balance:
    """Play ``n`` games of ``profile`` (seats rotated unless ``rotate`` is False) and build every
    balance table. A profile of one strategy in every seat plays the same games either way; unrotated,
    ``entries`` gives each seat's own win share."""
    strategies = parse_profile(profile, ruleset)
    totals = run_games(ruleset, strategies, n, rotate=rotate, seed=seed, model=model, progress=progress,
                       cache=cache)
    bets = bet_rows(totals, ruleset)
    by_seat = pd.concat([bet_rows(totals, ruleset, seat=s).assign(seat=s) for s in range(ruleset.players)],
                        ignore_index=True)
    by_seat = by_seat[by_seat["placed"] > 0][["seat", *[c for c in by_seat.columns if c != "seat"]]]
    entries = entry_table(totals, strategies, rotate, ruleset)
    trolls, troll_pay = troll_tables(totals, ruleset, strategies, entries)
    return Balance(bets=bets[bets["placed"] > 0].reset_index(drop=True), kinds=kind_rows(bets, ruleset, totals),
                   by_seat=by_seat.reset_index(drop=True), trolls=trolls, troll_pay=troll_pay, entries=entries,
                   games=game_table(totals, ruleset.players),
                   meta={"rules": ruleset.summary(), "profile": ", ".join(s.text for s in strategies),
                         "n": n, "seed": seed, "model": model.source, "ci": CI_METHOD,
                         "volatility": "1.96 x SD of payout per stake"})


def troll_vs_bettor(ruleset: RuleSet, profile: str, n: int, *, seed: int, model, progress=None,
                    cache: bool = True) -> pd.DataFrame:
    """Win rate of one pure troll against the profile's other seats, beside the
    profile's first strategy in the same seat (rotated). The troll plays and
    cashes in as that strategy does: a troll moves up the streak track with
    every failed bet of the others, so one that never cashes in gives away
    most of what trolling earns (``sponsio exploit`` tries every cash-in)."""
    strategies = parse_profile(profile, ruleset)
    troll = Strategy("troll", strategies[0].play, strategies[0].cash)
    rows = []
    for label, first in (("troll", troll), ("bettor", strategies[0])):
        lineup = [first] + strategies[1:]
        totals = run_games(ruleset, lineup, n, rotate=True, seed=seed, model=model, progress=progress, cache=cache)
        t = entry_table(totals, lineup, True, ruleset).iloc[0]
        rows.append({"seat_0_strategy": first.text, "role": label, "against": ", ".join(s.text for s in lineup[1:]),
                     "games": t["games"], "win": t["win"], "win_low": t["win_low"], "win_high": t["win_high"],
                     "coins": t["coins"], "coins_low": t["coins_low"], "coins_high": t["coins_high"]})
    return pd.DataFrame(rows)


def parse_sweep(text: str, ruleset: RuleSet) -> tuple[str, list]:
    """``KEY=A..B`` (integers, step 1), ``KEY=A..B:STEP`` or ``KEY=v1,v2,...``."""
    if "=" not in text:
        raise UserError(f"--sweep {text!r}: expected KEY=A..B or KEY=v1,v2")
    key, spec = (p.strip() for p in text.split("=", 1))
    try:
        if ".." in spec:
            rng, _, step = spec.partition(":")
            a, b = (float(x) for x in rng.split(".."))
            step = float(step) if step else 1.0
            if step <= 0 or b < a:
                raise ValueError
            values = list(np.arange(a, b + step / 2, step))
        else:
            values = [float(v) for v in spec.split(",") if v.strip()]
    except ValueError:
        raise UserError(f"--sweep {text!r}: values must be numbers, as A..B, A..B:STEP or v1,v2") from None
    if not values or len(values) > 50:
        raise UserError(f"--sweep {text!r}: give 1 to 50 values")
    values = [int(v) if float(v).is_integer() else v for v in values]
    for v in values:
        load_rules(ruleset, overrides={key: v})  # unknown key or invalid value: one-line error now
    return key, values


def sweep(ruleset: RuleSet, profile: str, key: str, values: list, n: int, *, seed: int, model,
          progress=None, cache: bool = True) -> pd.DataFrame:
    """Rerun the profile's games per value of ``key``: win rates, game length, bet mix."""
    out = []
    for v in values:
        rules_v = load_rules(ruleset, overrides={key: v})
        strategies = parse_profile(profile, rules_v)
        totals = run_games(rules_v, strategies, n, rotate=True, seed=seed, model=model, progress=progress,
                           cache=cache)
        entries = entry_table(totals, strategies, True, rules_v)
        games = game_table(totals, rules_v.players).set_index("measure")
        kinds = kind_rows(bet_rows(totals, rules_v), rules_v, totals).set_index("type")
        for _, e in entries.iterrows():
            row = {"key": key, "value": v, "entry": e["entry"], "strategy": e["strategy"], "games": e["games"],
                   "win": e["win"], "win_low": e["win_low"], "win_high": e["win_high"],
                   "rounds_per_game": games.loc["rounds per game", "value"],
                   "rounds_low": games.loc["rounds per game", "ci_low"],
                   "rounds_high": games.loc["rounds per game", "ci_high"],
                   "troll_share": e["troll_share"]}
            for kind in rules_v.bets:
                row[f"{kind}_per_round"] = kinds.loc[kind, "placed_per_round"]
                row[f"{kind}_ev"] = kinds.loc[kind, "ev_per_coin"]
            out.append(row)
    return pd.DataFrame(out)


def balance(profile: str = "reference", *, players: int | None = None, n: int = 200_000, seed: int = 1,
            rules=None, overrides=None, sweep_spec: str | None = None, threads: int | None = None, model=None,
            progress: bool | None = False, scheduler: str | None = None, workers: int | None = None,
            cache: bool = True) -> Balance:
    """The balance tables for ``profile`` (module docstring); ``sweep_spec``
    adds ``meta['sweep']``, a table per value of a rule-set number."""
    ruleset = load_rules(rules, players, overrides)
    parse_profile(profile, ruleset)
    if n < 1:
        raise UserError(f"-n {n}: the number of games must be at least 1")
    key_values = parse_sweep(sweep_spec, ruleset) if sweep_spec else None
    success = find_model(ruleset, model, progress=progress, variant=model_variant(profile, ruleset))
    set_threads(threads)
    runs = 3 + (len(key_values[1]) if key_values else 0)
    with Progress(n * runs, "sponsio balance", enabled=progress) as bar, use_backend(scheduler, workers):
        result = run_balance(ruleset, profile, n, seed=seed, model=success, progress=bar, cache=cache)
        result.meta["troll_vs_bettor"] = troll_vs_bettor(ruleset, profile, n, seed=seed, model=success,
                                                         progress=bar, cache=cache)
        if key_values:
            result.meta["sweep"] = sweep(ruleset, profile, *key_values, n, seed=seed, model=success,
                                         progress=bar, cache=cache)
    return result
