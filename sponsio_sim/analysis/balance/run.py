"""The bet tables of full games: every bet as the strategies place it.

From the summed statistics of one profile's games: for every catalogue bet
(type and parameter) the bets placed, hit rate, EV per coin staked, fair
multiplier, RTP and volatility index, overall and by seat position; the same
per type and per parameter family; troll economics. ``run_balance`` plays
the games and builds them (``choice`` adds the choice-balance measures).

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

from tabletop_mc.stats import CI_METHOD, Z95, mean_ci, wilson
from sponsio_sim.analysis.game.setup import parse_profile, rows_of
from sponsio_sim.analysis.game.runs import entry_table, game_table, run_games
from sponsio_sim.kernels.layout import MAX_FAILED, named_stats
from sponsio_sim.bet_kinds import BY_NAME
from sponsio_sim.rules import RuleSet

VOLATILITY_Z = Z95
DOMINANT_FAMILY = 0.5   # a family dominates its type when its share of the type's bets lies above this


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
    tables: dict = field(default_factory=dict)   # `sponsio balance`: every table it prints (``choice``)
    choice: object = None                         # and the measurement behind them (``choice.Choice``)


def row_block(totals: np.ndarray, players: int) -> np.ndarray:
    """(seat, catalogue row, field) array of the per-row bet statistics: placed, won, payout, payout squared."""
    rows = named_stats(totals, players)["rows"]
    return np.stack([rows[name] for name in ("placed", "won", "pay", "pay_sq")], axis=-1)


def bet_rows(totals: np.ndarray, rules: RuleSet, seat: int | None = None) -> pd.DataFrame:
    """Per catalogue row (one seat, or all seats summed): the bet measures."""
    rows = rows_of(rules)
    players = rules.players
    block = row_block(totals, players)
    data = block[seat] if seat is not None else block.sum(axis=0)
    rounds = named_stats(totals, players)["rounds"]
    out = []
    for r, bet in enumerate(rows):
        placed, won, pay, pay_sq = data[r]
        out.append(_measures(bet.notation(rules), bet.kind, placed, won, pay, pay_sq,
                             rules.multiplier_for(bet), rules.stake, rounds * players))
    return pd.DataFrame(out)


def seat_rows(totals: np.ndarray, rules: RuleSet) -> pd.DataFrame:
    """``bet_rows`` per seat position (bets placed there only)."""
    by_seat = pd.concat([bet_rows(totals, rules, seat=s).assign(seat=s) for s in range(rules.players)],
                        ignore_index=True)
    by_seat = by_seat[by_seat["placed"] > 0][["seat", *[c for c in by_seat.columns if c != "seat"]]]
    return by_seat.reset_index(drop=True)


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
    seat_rounds = named_stats(totals, players)["rounds"] * players
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
    stats = named_stats(totals, players)
    hist = stats["troll_failed"]
    troll_rounds = hist.sum()
    seat_rounds = stats["rounds"] * players
    share, share_lo, share_hi = wilson(troll_rounds, seat_rounds)
    failed = np.arange(MAX_FAILED)
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
    entries = entry_table(totals, strategies, rotate, ruleset)
    trolls, troll_pay = troll_tables(totals, ruleset, strategies, entries)
    return Balance(bets=bets[bets["placed"] > 0].reset_index(drop=True), kinds=kind_rows(bets, ruleset, totals),
                   by_seat=seat_rows(totals, ruleset), trolls=trolls, troll_pay=troll_pay, entries=entries,
                   games=game_table(totals, ruleset.players),
                   meta={"rules": ruleset.summary(), "profile": ", ".join(s.text for s in strategies),
                         "n": n, "seed": seed, "model": model.source, "ci": CI_METHOD,
                         "volatility": "1.96 x SD of payout per stake"})


def _family(kind: str, bet, seat: int, players: int) -> str | None:
    """A bet's parameter family: its count (colour: whatever the colour), or the target seat
    counted clockwise from the bettor; None for a kind without parameters."""
    spec = BY_NAME[kind]
    if spec.param_axis:
        return f"N={spec.axis_value(bet.a, bet.b)}"
    if spec.params == ("seat",):
        return "any other seat" if bet.a < 0 else f"seat +{(bet.a - seat) % players}"
    return None


def family_rows(totals: np.ndarray, rules: RuleSet, dominant: float = DOMINANT_FAMILY) -> pd.DataFrame:
    """Per bet type with a parameter, per family (``_family``; colour N = 0 is "none of colour C"):
    bets placed, their share of the type's bets (Wilson), hit rate, EV per coin staked and RTP;
    ``dominates`` when the share's interval lies above ``dominant``."""
    players = rules.players
    block = row_block(totals, players)
    seat_rounds = named_stats(totals, players)["rounds"] * players
    rows = rows_of(rules)
    groups: dict[tuple[str, str], list] = {}
    for s in range(players):
        for r, bet in enumerate(rows):
            fam = _family(bet.kind, bet, s, players)
            if fam is not None and block[s, r, 0] > 0:
                g = groups.setdefault((bet.kind, fam), [np.zeros(4), 0.0])
                g[0] += block[s, r]
                g[1] += block[s, r, 0] * rules.multiplier_for(bet)
    out = []
    for kind in rules.bets:
        fams = sorted(((f, v) for (k, f), v in groups.items() if k == kind),
                      key=lambda p: (len(p[0]), p[0]))
        total = sum(v[0][0] for _, v in fams)
        for fam, (sums, mult) in fams:
            placed, won, pay, pay_sq = sums
            m = _measures(kind, kind, placed, won, pay, pay_sq, mult / placed, rules.stake, seat_rounds)
            share, lo, hi = wilson(placed, total)
            out.append({"type": kind, "family": fam, "placed": int(placed), "share_of_type": share,
                        "share_of_type_low": lo, "share_of_type_high": hi, "multiplier": m["multiplier"],
                        "hit": m["hit"], "hit_low": m["hit_low"], "hit_high": m["hit_high"],
                        "ev_per_coin": m["ev_per_coin"], "ev_low": m["ev_low"], "ev_high": m["ev_high"],
                        "rtp": m["rtp"], "dominates": bool(lo > dominant)})
    return pd.DataFrame(out, columns=["type", "family", "placed", "share_of_type", "share_of_type_low",
                                      "share_of_type_high", "multiplier", "hit", "hit_low", "hit_high",
                                      "ev_per_coin", "ev_low", "ev_high", "rtp", "dominates"])
