"""Every candidate action of a table decision played out in the same worlds.

Candidate i meets world r with the same random stream for the rest of the
round (and, with ``with_game``, the same deals for the rounds after it) as
every other candidate: the gains are paired (common random numbers). A
rollout is ``betting.rollout.rollout`` from the world's hands; the game is
then played to its end by ``game.engine.rollout_game``.
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.betting.rollout import new_work, rollout
from sponsio_sim.kernels.game.engine import round_arrays, rollout_game
from sponsio_sim.kernels.game.layout import GAME, LOG_FIELDS, MAX_BETS

_GAME = np.uint64(0x6A3E5D1C0B2F4E97)   # the later rounds' streams, from the rollouts' key


@nb.njit(cache=True, parallel=True)
def evaluate(step, s, acts, pick, r0, r1, worlds, key, with_game, board, game_state, money, row0, gain, won, final,
             share):
    """For each ``i``, action ``acts[pick[i]]`` of seat s at ``step`` in
    rollouts ``r0 .. r1-1`` (world r, stream ``(key, r)``): seat s's round
    gain in coins into ``gain[i, r]``, the bitmask of its bets won into
    ``won[i, r]``, the catalogue rows of its bets as they stand when scored
    (a later rebet may have changed one; -1 past its last bet) into
    ``final[i, r]`` and, with ``with_game``, its share of the game's win
    (1/k of a k-way shared win) into ``share[i, r]``. ``row0``: an empty
    statistics row of the game's size (the later rounds count into a copy)."""
    for i in nb.prange(pick.shape[0]):
        a = pick[i]
        mine = game_state.copy()
        work = new_work(s, board, mine, money)
        pool, fixed, need, hands, codes, counts, result, failed, playpol = round_arrays(mine)
        gwork = (board.copy(), mine.copy(), money.copy(), np.empty(4, dtype=np.uint64), pool, fixed, need, hands,
                 codes, counts, result, failed, playpol, row0.copy(), np.zeros((1, LOG_FIELDS), dtype=np.float64))
        rs_start = np.empty(4, dtype=np.uint64)
        dealt = work[3]
        for r in range(r0, r1):
            dealt[:] = worlds[r]
            seed_state(key, np.uint64(r), rs_start)
            gain[i, r] = rollout(step, s, acts[a, 0], acts[a, 1], acts[a, 2], acts[a, 3], board, mine, money, work,
                                 rs_start)[0]
            ints2 = work[5]
            m = 0
            for b in range(MAX_BETS):
                final[i, r, b] = -1
            for b in range(ints2[GAME.bet_count + s]):
                if ints2[GAME.bet_won + s * MAX_BETS + b]:
                    m |= 1 << b
                final[i, r, b] = ints2[GAME.bet_row + s * MAX_BETS + b]
            won[i, r] = m
            if with_game:
                share[i, r] = rollout_game(s, False, key ^ _GAME, np.int64(r), work[4], work[5], work[6], gwork,
                                           None)


@nb.njit(cache=True, parallel=True)
def evaluate_cash(s, key, r0, r1, board, game_state, money, row0, share):
    """After a round's scoring, seat s keeps its track position (c = 0) or
    cashes it in (c = 1) and the game is played to its end in rollouts
    ``r0 .. r1-1`` (both on the same streams): its win share into ``share[c, r]``."""
    for c in nb.prange(2):
        mine = game_state.copy()
        pool, fixed, need, hands, codes, counts, result, failed, playpol = round_arrays(mine)
        gwork = (board.copy(), mine.copy(), money.copy(), np.empty(4, dtype=np.uint64), pool, fixed, need, hands,
                 codes, counts, result, failed, playpol, row0.copy(), np.zeros((1, LOG_FIELDS), dtype=np.float64))
        for r in range(r0, r1):
            share[c, r] = rollout_game(s, c == 1, key, np.int64(r), board, mine, money, gwork, None)
