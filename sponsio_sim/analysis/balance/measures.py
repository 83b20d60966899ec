"""The game measures of a multi-play run (``plays``): levels per play and paired effects between plays.

A measure is a smooth function of the means of the per-game measures
(``kernels.layout.GAME_MEASURES``); its level in play j and its effect from
play j0 to play j (the same games: paired) get 95 % intervals from the
moments (``tabletop_mc.moments``): exact t intervals for means and
differences of means, the delta method for ratios of sums (troll share,
a type's share of the bets), Wilson for a share of games (levels only).

Measures (``game_measures``): the seat gap (seat 0's win share against the
fair share; the largest gap between two seats' win shares, the seats as
estimated in each play), rounds per game, troll share of seat-rounds, each
bet type's share of the bets placed, lead changes per game, the comeback
rate (games won by a player last after round 1) and the end reasons.
"""

from __future__ import annotations

import numpy as np

from tabletop_mc.stats import wilson
from sponsio_sim.analysis.balance.plays import PlayRun
from sponsio_sim.kernels.layout import GAME_MEASURES, SEAT_SHARE_MEASURES
from sponsio_sim.bet_kinds import KIND_CODE, N_KINDS

END_NAMES = ("track", "coins", "rounds")
# (measure, column of GAME_MEASURES) read as a share of games: Wilson level
GAME_SHARES = {"comeback rate": GAME_MEASURES.comeback,
               **{f"ended by {r}": GAME_MEASURES.ended + i for i, r in enumerate(END_NAMES)}}
SEAT_GAP = ("seat 0 - fair share", "largest seat gap")


def game_measures(rules) -> list[str]:
    """The measures of a sweep, in print order."""
    return [*SEAT_GAP, "rounds per game", "troll share",
            *(f"{k} share of bets" for k in rules.bets), "lead changes per game", *GAME_SHARES]


def value_grad(run: PlayRun, j: int, name: str) -> tuple[float, np.ndarray, str]:
    """(value, gradient in the means, detail) of measure ``name`` in play j."""
    mom, players = run.moments, run.plays[j].rules.players
    at = lambda i: run.at(j, i)  # noqa: E731
    if name == "seat 0 - fair share":
        return float(mom.mean[at(SEAT_SHARE_MEASURES)]) - 1.0 / players, mom.coef(at(SEAT_SHARE_MEASURES)), ""
    if name == "largest seat gap":
        shares = mom.mean[[at(SEAT_SHARE_MEASURES + s) for s in range(players)]]
        a, b = int(np.argmax(shares)), int(np.argmin(shares))
        g = mom.coef(at(SEAT_SHARE_MEASURES + a), (at(SEAT_SHARE_MEASURES + b), -1.0))
        return float(shares[a] - shares[b]), g, f"seat {a} - seat {b}"
    if name == "troll share":
        num, den = mom.coef(at(GAME_MEASURES.troll_seat_rounds)), mom.coef((at(GAME_MEASURES.rounds), float(players)))
    elif name.endswith(" share of bets"):
        kind = name.split(" ", 1)[0]
        num = mom.coef(at(GAME_MEASURES.bets + KIND_CODE[kind]))
        den = mom.coef([at(GAME_MEASURES.bets + k) for k in range(N_KINDS)])
    else:
        col = {"rounds per game": GAME_MEASURES.rounds, "lead changes per game": GAME_MEASURES.lead_changes,
               **GAME_SHARES}[name]
        return float(mom.mean[at(col)]), mom.coef(at(col)), ""
    value, grad = mom.ratio_grad(num, den)
    return value, grad, ""


def level(run: PlayRun, j: int, name: str) -> dict:
    """The measure in play j: value, 95 % interval, n (games), detail."""
    value, grad, detail = value_grad(run, j, name)
    if name in GAME_SHARES:
        _, lo, hi = wilson(round(value * run.moments.n), run.moments.n)
    elif not np.isfinite(value):
        lo = hi = float("nan")
    else:
        clip = {"lower": 0.0} if name != "seat 0 - fair share" else {}
        _, lo, hi = run.moments.delta(value, grad, **clip)
    return {"n": int(run.moments.n), "level": value, "level_low": lo, "level_high": hi, "detail": detail}


def effect(run: PlayRun, j: int, j0: int, name: str) -> dict:
    """The measure in play j less the same in play j0, paired game by game; ``moved``:
    the 95 % interval excludes 0."""
    v1, g1, d1 = value_grad(run, j, name)
    v0, g0, _ = value_grad(run, j0, name)
    if not (np.isfinite(v1) and np.isfinite(v0)):
        return {"effect": float("nan"), "effect_low": float("nan"), "effect_high": float("nan"), "moved": False}
    e, lo, hi = run.moments.delta(v1 - v0, g1 - g0)
    return {"effect": e, "effect_low": lo, "effect_high": hi, "moved": bool(lo > 0 or hi < 0)}


def focal_value(run: PlayRun, base: int, other: int) -> tuple[float, float, float]:
    """The deviating player's win share in play ``base`` less in play ``other`` (paired)."""
    return run.moments.diff(run.at(base, GAME_MEASURES.focal_share), run.at(other, GAME_MEASURES.focal_share))


def focal_share(run: PlayRun, j: int) -> tuple[float, float, float]:
    return run.moments.mean_of(run.at(j, GAME_MEASURES.focal_share), lower=0.0, upper=1.0)


COIN_SOURCES = (("bet payouts", GAME_MEASURES.payout, 1.0), ("troll pay", GAME_MEASURES.troll_pay, 1.0),
                ("round bonus", GAME_MEASURES.bonus, 1.0), ("cash-ins", GAME_MEASURES.cash, 1.0),
                ("stakes", GAME_MEASURES.stakes, -1.0), ("token fees", GAME_MEASURES.fees, -1.0))


def coin_flow(run: PlayRun, j: int = 0) -> list[dict]:
    """Coins per seat and round by source (inflows positive, stakes and fees negative) and net:
    ratios of sums over the games, delta-method intervals."""
    mom, players = run.moments, run.plays[j].rules.players
    den = mom.coef((run.at(j, GAME_MEASURES.rounds), float(players)))
    rows = []
    for name, col, sign in COIN_SOURCES:
        v, lo, hi = mom.ratio(mom.coef((run.at(j, col), sign)), den)
        rows.append({"source": name, "direction": "in" if sign > 0 else "out", "n": int(mom.n),
                     "coins_per_seat_round": v, "ci_low": lo, "ci_high": hi})
    net = mom.coef(*[(run.at(j, col), sign) for _, col, sign in COIN_SOURCES])
    v, lo, hi = mom.ratio(net, den)
    rows.append({"source": "net", "direction": "net", "n": int(mom.n), "coins_per_seat_round": v,
                 "ci_low": lo, "ci_high": hi})
    return rows
