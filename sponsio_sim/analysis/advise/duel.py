"""Whole games in which one seat plays by `sponsio advise`.

The game is the engine's (``kernels.game.engine``) driven one step at a
time from Python: the same deals (round streams ``(seed, 0, game, round)``),
the other seats' betting and every seat's tricks, scoring and cash-in by
their strategies, and at each betting decision of the advised seat (and each
end-of-betting token it holds) the action ``analysis.advise.ranking.rank``
puts first, with or without inference. Runs that differ only in how the
advised seat decides meet the same deals while they make the same choices
(common random numbers).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import derive_seed
from sponsio_sim.analysis.advise.infer import Reading
from sponsio_sim.analysis.advise.ranking import Rollouts, rank
from sponsio_sim.analysis.advise.arrays import StateArrays
from sponsio_sim.analysis.game.lineup import Lineup, resolve
from sponsio_sim.analysis.game.setup import build_state
from sponsio_sim.kernels.advise.actions import END_USE
from sponsio_sim.kernels.betting.phase import actor, apply_action, apply_end_token, betting_steps, end_token
from sponsio_sim.kernels.betting.dispatch import choose_action
from sponsio_sim.kernels.betting.policies import choose_end_token
from sponsio_sim.kernels.deal import deal
from sponsio_sim.kernels.layout import BOARD, END_TOKENS, GAME, LOG_FIELDS, MAX_BETS, MONEY, stats_size
from sponsio_sim.kernels.game.engine import (close_round, game_round, round_start, round_stream, start_game,
                                             start_round)
from sponsio_sim.kernels.betting.scoring import play_out_round


@dataclass
class DuelGame:
    share: float        # the advised seat's share of the game's win
    coins: float        # its coins at the end
    decisions: int      # decisions it took by advice
    bets: int = 0       # bets it held when betting ended, over the game
    bets_won: int = 0
    rounds_bet: int = 0     # rounds in which it held bets
    rounds_all_won: int = 0   # and won every one


DUEL_ROLLOUTS = Rollouts(n=200, screen=50, keep=4)   # per decision of the advised seat (scripts/advise_strength.py)


def play(lineup: Lineup, rules, *, game: int, seat: int, seed: int, reading: Reading = Reading(),
         rollouts: Rollouts = DUEL_ROLLOUTS, bet_advice: bool = True, tricks=None) -> DuelGame:
    """Game ``game`` of ``lineup`` (``analysis.game.lineup.resolve``) with
    seat ``seat`` deciding by advice (module docstring: ``ranking.rank``'s
    ``reading`` and ``rollouts``); without ``bet_advice`` it bets by its
    strategy. ``tricks(start, hist,
    (rnd, tab, ints, weight, state, hands, codes, counts, result, failed,
    playpol))``, when given, plays each round's tricks and scores them as
    ``betting.scoring.play_out`` does (``analysis.advise.trickduel``: the seat's
    cards by advice); it returns play_out's tuple and the decisions it took."""
    strategies, success = lineup.strategies, lineup.model
    if any(st.betting == "mc" for st in strategies):   # the other seats decide by their policy alone
        raise UserError(f"profile {strategies.text()!r}: an advised game's other seats cannot bet by mc (use ev)")
    board, game_state, money = build_state(rules, strategies, success)
    players = rules.players
    key = seed_key(seed)
    state = np.empty(4, dtype=np.uint64)
    played = game_round(board, game_state, money, state)
    pool, fixed, need, hands, codes, counts, result, failed, playpol = played[4:]
    row = np.zeros(stats_size(players))
    nolog = np.zeros((1, LOG_FIELDS))
    start_game(np.int64(game), game_state, money)
    reason, winners, decisions = 0, 0, 0
    held = [0, 0, 0, 0]   # bets, bets won, rounds with bets, rounds all won
    while reason == 0:
        rnd = int(game_state[GAME.round])
        round_start(key, round_stream(0, game, rnd), state, pool)
        talon = deal(state, pool, fixed, need, np.uint64(0), pool.shape[0] - players * rules.hand_size, hands)
        start_round(board, game_state, money)
        for s in range(players):
            board[BOARD.hands + s] = hands[s]
        board[BOARD.talon] = talon
        start = (board.copy(), game_state.copy(), money.copy())
        hist: list[tuple] = []

        def advice(step, token):
            arrays = StateArrays(start, (board.copy(), game_state.copy(), money.copy()),
                                 np.array(hist, dtype=np.int64).reshape(-1, 5), seat, step, token)
            a = rank(arrays, rules, strategies, reading=reading, rollouts=rollouts,
                     seed=derive_seed(seed, game, rnd, step), with_game=False, reveals=False, progress=False)
            return a.choice

        n_bet = int(betting_steps(game_state))
        for k in range(n_bet):
            s = int(actor(np.int64(k), game_state))
            if s == seat and bet_advice:
                act, x, y, rv = advice(k, None)
                decisions += 1
            else:
                act, x, y, rv = choose_action(np.int64(s), board, game_state, money, state, True)
            if not apply_action(np.int64(s), np.int64(act), np.int64(x), np.int64(y), np.int64(rv), board, game_state,
                                money):
                raise RuntimeError(f"illegal action {(act, x, y, rv)} of seat {s}")  # pragma: no cover
            hist.append((s, int(act), int(x), int(y), int(rv)))
        for j in range(len(END_TOKENS)):
            t = int(end_token(j))
            s = int(game_state[GAME.token_owner + t])
            if s < 0:
                continue
            if s == seat and bet_advice:
                _, x, y, _ = advice(n_bet + j, t)
                decisions += 1
            else:
                x, y = choose_end_token(np.int64(s), np.int64(t), board, game_state, money, state, True)
            if apply_end_token(np.int64(s), np.int64(t), np.int64(x), np.int64(y), board, game_state):
                hist.append((s, END_USE, t, int(x), int(y)))
        work = (rnd, board, game_state, money, state, hands, codes, counts, result, failed, playpol)
        if tricks is None:
            leader, last, nine_lost, n_failed = play_out_round(played)
        else:
            (leader, last, nine_lost, n_failed), taken = tricks(start, np.array(hist, dtype=np.int64).reshape(-1, 5),
                                                                work)
            decisions += taken
        mine = int(game_state[GAME.bet_count + seat])
        hits = sum(int(game_state[GAME.bet_won + seat * MAX_BETS + i]) for i in range(mine))
        held = [held[0] + mine, held[1] + hits, held[2] + (mine > 0), held[3] + (mine > 0 and hits == mine)]
        reason, winners = close_round(leader, last, nine_lost, n_failed, played, row, nolog)
    won = (int(winners) >> seat) & 1
    k = bin(int(winners)).count("1")
    return DuelGame(won / k, float(money[MONEY.coins + seat]), decisions, *held)


def duel(profile: str, rules, games: int, *, seed: int = 1, reading: Reading = Reading(),
         rollouts: Rollouts = DUEL_ROLLOUTS, progress: bool | None = None) -> list[DuelGame]:
    """``games`` games of ``play``, the advised seat rotating over the seats (game g: seat g mod players)."""
    lineup = resolve(profile, rules)
    out = []
    with Progress(games, "games", enabled=progress) as prog:
        for g in range(games):
            out.append(play(lineup, rules, game=g, seat=g % rules.players, seed=seed, reading=reading,
                            rollouts=rollouts))
            prog.advance(1)
    return out
