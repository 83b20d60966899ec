#!/usr/bin/env python
"""Where a Sponsio round's time goes: deal, betting, trick play and scoring.

    python scripts/game_phases.py                              # ev:goal x4 and troll:goal x4
    python scripts/game_phases.py --profile "ev:goal x4" --rounds 200000

Each measured round is the first round of a fresh game (coins and track as
the rules start them; seed k deals round k), played on one thread by the
game's own functions (``engine.start_game``, ``deal``, ``betting_phase``,
``predict_bets``, ``deal_and_bet``, ``play_out``). Three loops over the same rounds: the deal
alone, the deal and the betting phase, and the whole round; the differences
are the betting phase and the trick play with scoring. Figures are
microseconds of process CPU time per round, the best of ``--repeats`` runs
(the machine is shared), JIT compile excluded. Profiles with an ``mc`` seat
are refused: their search would dominate every figure.
"""

from __future__ import annotations

import argparse
import time

import numba as nb
import numpy as np

from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import build_state, parse_profile
from sponsio_sim.kernels.deal import deal
from sponsio_sim.kernels.game import engine
from sponsio_sim.kernels.layout import BOARD, RULES
from sponsio_sim.kernels.rulebook import rules_of
from sponsio_sim.kernels.betting.scoring import play_out_round
from sponsio_sim.rules import load_rules

DEAL, BETTING, ROUND = 0, 1, 2


@nb.njit
def _rounds(n, upto, board, game_state, money, scored):
    """Play ``n`` first rounds up to ``upto`` (DEAL, BETTING or ROUND); returns a checksum
    (``scored``: ``engine.scored_switch``)."""
    state = np.empty(4, dtype=np.uint64)
    rnd = engine.game_round(board, game_state, money, state)
    pool, fixed, need, hands = rnd.pool, rnd.fixed, rnd.need, rnd.hands
    log = np.zeros((1, 8))
    players = rules_of(game_state)[RULES.players]
    check = 0
    for g in range(n):
        engine.start_game(g, game_state, money)
        engine.round_start(np.uint64(1), np.int64(g), state, pool)
        if upto == ROUND:
            engine.deal_and_bet(board, game_state, money, state, pool, fixed, need, hands, log, scored, None, None)
            check += play_out_round(rnd)[0]
            continue
        dealt = players * rules_of(game_state)[RULES.hand_size]
        board[BOARD.talon] = deal(state, pool, fixed, need, np.uint64(0), pool.shape[0] - dealt, hands)
        engine.start_round(board, game_state, money)
        for s in range(players):
            board[BOARD.hands + s] = hands[s]
        if upto == BETTING:
            engine.betting_phase(board, game_state, money, state, log, scored, None, None)
            engine.predict_bets(board, game_state, money)
        check += np.int64(board[BOARD.talon] & np.uint64(0xFF))
    return check


def measure(profile: str, rules_name: str, rounds: int, repeats: int) -> dict[str, float]:
    rules = load_rules(rules_name)
    board, game_state, money = build_state(rules, parse_profile(profile, rules), find_model(rules))
    if engine.mc_switch(game_state) is not None:
        raise SystemExit(f"error: profile {profile!r} has an mc seat; time it with scripts/bench_mc.py")
    scored = engine.scored_switch(game_state)
    out = {}
    for upto, name in ((DEAL, "deal"), (BETTING, "deal+betting"), (ROUND, "whole round")):
        _rounds(10, upto, board.copy(), game_state.copy(), money.copy(), scored)   # compile
        best = float("inf")
        for _ in range(repeats):
            t, i, w = board.copy(), game_state.copy(), money.copy()
            c0 = time.process_time()
            _rounds(rounds, upto, t, i, w, scored)
            best = min(best, time.process_time() - c0)
        out[name] = best / rounds * 1e6
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", action="append", help="a profile (repeatable); default ev:goal x4 and troll:goal x4")
    ap.add_argument("--rules", default="standard-4p")
    ap.add_argument("--rounds", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    opts = ap.parse_args()
    nb.set_num_threads(1)
    print(f"us/round, first rounds of {opts.rounds:,} games, best of {opts.repeats} by process CPU time, 1 thread")
    print(f"{'profile':24s} {'deal':>8s} {'betting':>8s} {'play+score':>11s} {'round':>8s}")
    for profile in opts.profile or ["ev:goal x4", "troll:goal x4"]:
        t = measure(profile, opts.rules, opts.rounds, opts.repeats)
        betting = t["deal+betting"] - t["deal"]
        play = t["whole round"] - t["deal+betting"]
        print(f"{profile:24s} {t['deal']:8.2f} {betting:8.2f} {play:11.2f} {t['whole round']:8.2f}", flush=True)


if __name__ == "__main__":
    main()
