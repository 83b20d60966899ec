"""`sponsio advise` after a round's settlement: cash the streak in, or keep it?

The state is the settlement as `sponsio game --verbose` prints it: every
seat's coins and track position after the round (a seat whose strategy
cashed in is put back on its position before its cash-in, so the advised
seat decides afresh). Both choices are played to the game's end on the same
streams (``kernels.advise.evaluate.evaluate_cash``, the game engine's
``rollout_game``) by ``--profile``; the answer is each choice's win share
with its paired difference.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.jitcache import COMPILE_NOTE, needs_compile
from tabletop_mc.progress import Progress
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import derive_seed
from sponsio_sim.analysis.advise.result import BATCH, Advice, mean_eff
from sponsio_sim.analysis.advise.state import TableState
from sponsio_sim.analysis.game.setup import build_state, rulebook
from sponsio_sim.kernels.advise.evaluate import evaluate_cash
from sponsio_sim.kernels.layout import GAME, MONEY, MONEY_RULES, stats_size


def cash_table(st: TableState, strategies, model):
    """The game's arrays after the round's scoring, before the advised seat's cash-in."""
    r = st.rules
    if st.seat is None:
        raise UserError("the excerpt ends after the settlement: give --seat (whose cash-in to advise on)")
    coins, pos, cashed = st.settled[st.seat]
    if not 0 < pos < r.track_win:
        raise UserError(f"seat {st.seat} is on track position {pos} after the round: nothing to cash in "
                        f"(positions 1..{r.track_win - 1} have a value)")
    board, game_state, money = build_state(r, strategies, model)
    game_state[GAME.round] = st.round - 1
    game_state[GAME.dealer] = st.dealer
    for s in range(r.players):
        c, p, paid = st.settled[s]
        game_state[GAME.seat_entry + s] = s
        money[MONEY.coins + s] = c - paid if s == st.seat else c
        game_state[GAME.track + s] = p if (s == st.seat or paid == 0) else 0
    return board, game_state, money


def advise_cash(st: TableState, strategies, model, *, n: int, seed: int, progress: bool | None = None) -> Advice:
    """Keep the track position or cash it in, each played out ``n`` times."""
    r = st.rules
    board, game_state, money = cash_table(st, strategies, model)
    s = st.seat
    pos = int(game_state[GAME.track + s])
    value = float(rulebook(game_state)[1][MONEY_RULES.track_values + pos])
    share = np.zeros((2, n))
    key = seed_key(derive_seed(seed, "advise", "cash"))
    row0 = np.zeros(stats_size(r.players))
    with Progress(2 * n, "advise", enabled=progress) as prog:
        if needs_compile(evaluate_cash):
            prog.note(COMPILE_NOTE)
        for r0 in range(0, n, BATCH):
            r1 = min(r0 + BATCH, n)
            evaluate_cash(np.int64(s), key, np.int64(r0), np.int64(r1), board, game_state, money, row0, share)
            prog.advance(2 * (r1 - r0))
    rows = []
    for c, label in ((0, f"keep track position {pos}"), (1, f"cash in {value:g} coins (track back to 0)")):
        w, wl, wh = mean_eff(share[c], 1.0, lower=0.0, upper=1.0)
        d, dl, dh = mean_eff(share[c] - share[0], 1.0)
        rows.append(dict(action=label, coins_now=float(money[MONEY.coins + s]) + (value if c else 0.0), win=w,
                         win_low=wl, win_high=wh, win_vs_keep=d, win_vs_keep_low=dl, win_vs_keep_high=dh,
                         rollouts=n))
    df = pd.DataFrame(rows).sort_values("win", ascending=False, kind="stable").reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    best, other = df.iloc[0], df.iloc[1]
    d = rows[1]
    sure = d["win_vs_keep_low"] > 0 or d["win_vs_keep_high"] < 0
    text = (f"Advice for seat {s}: {best['action']} (win chance {best['win']:.3f} against {other['win']:.3f}; "
            + ("the difference is clear" if sure else "no evidence either way: the difference's CI includes 0")
            + f", {d['win_vs_keep']:+.3f} [{d['win_vs_keep_low']:+.3f}, {d['win_vs_keep_high']:+.3f}] for cashing in)")
    meta = dict(seat=s, decision="cash-in", track=pos, value=value, profile=[x.text for x in strategies],
                rollouts=int(n), rules=r.summary())
    return Advice(df, pd.DataFrame(), text, ["both choices played to the game's end on the same streams"], meta,
                  (1 if df.iloc[0]["action"].startswith("cash") else 0,))
