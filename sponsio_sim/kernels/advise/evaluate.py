"""Every candidate action of a table decision played out in the same worlds.

Candidate i meets world r with the same random stream for the rest of the
round (and, with ``with_game``, the same deals for the rounds after it) as
every other candidate: the gains are paired (common random numbers). A
rollout is ``betting.rollout.rollout`` from the world's hands; the game is
then played to its end by ``game.engine.rollout_game``.
"""

from collections import namedtuple

import numba as nb
import numpy as np

from tabletop_mc.spans import each_span
from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.betting.rollout import new_work, rollout
from sponsio_sim.kernels.game.engine import game_rollout, rollout_game
from sponsio_sim.kernels.layout import GAME, MAX_BETS

_GAME = np.uint64(0x6A3E5D1C0B2F4E97)   # the later rounds' streams, from the rollouts' key
# What ``evaluate`` asks: seat ``seat``'s actions ``acts[pick[i]]`` (act, x, y, rv) at
# betting step ``step``, in the worlds ``worlds[r]`` (every seat's hands), world r on
# stream ``(key, r)``.
ActionQuestion = namedtuple("ActionQuestion", ["step", "seat", "acts", "pick", "worlds", "key"])
# Per picked action i and rollout r (``evaluate``'s docstring).
ActionOutcomes = namedtuple("ActionOutcomes", ["gain", "won", "final", "share"])


def evaluate(question, r0, r1, with_game, board, game_state, money, row0, out):
    """For each ``i``, the action ``acts[pick[i]]`` of ``question`` (an
    ``ActionQuestion``) in rollouts ``r0 .. r1-1``, into ``out`` (an
    ``ActionOutcomes``): the seat's round gain in coins into ``gain[i, r]``,
    the bitmask of its bets won into ``won[i, r]``, the catalogue rows of its
    bets as they stand when scored (a later rebet may have changed one; -1
    past its last bet) into ``final[i, r]`` and, with ``with_game``, its
    share of the game's win (1/k of a k-way shared win) into ``share[i, r]``.
    ``row0``: an empty statistics row of the game's size (the later rounds
    count into a copy). The picked actions run on threads (``tabletop_mc.spans``)."""
    each_span(lambda lo, hi: evaluate_span(question, r0, r1, with_game, board, game_state, money, row0, out, lo, hi),
              question.pick.shape[0])


@nb.njit(cache=True, nogil=True)
def evaluate_span(question, r0, r1, with_game, board, game_state, money, row0, out, lo, hi):
    """Picked actions ``lo..hi-1`` of ``evaluate``."""
    for i in range(lo, hi):
        _evaluate_one(question, i, r0, r1, with_game, board, game_state, money, row0, out)


evaluate.kernel = evaluate_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)


@nb.njit(cache=True, inline="always")
def _evaluate_one(question, i, r0, r1, with_game, board, game_state, money, row0, out):
    """``evaluate``'s work for the picked action ``i``."""
    step, s, acts, pick, worlds, key = question
    gain, won, final, share = out
    a = pick[i]
    mine = game_state.copy()
    work = new_work(s, board, mine, money)
    gwork = game_rollout(board, mine, money, row0)
    rs_start = np.empty(4, dtype=np.uint64)
    dealt = work.dealt
    played = work.scratch
    for r in range(r0, r1):
        dealt[:] = worlds[r]
        seed_state(key, np.uint64(r), rs_start)
        gain[i, r] = rollout(step, s, (acts[a, 0], acts[a, 1], acts[a, 2], acts[a, 3]), board, mine, money, work,
                             rs_start)[0]
        ints2 = played.game_state
        m = 0
        for b in range(MAX_BETS):
            final[i, r, b] = -1
        for b in range(ints2[GAME.bet_count + s]):
            if ints2[GAME.bet_won + s * MAX_BETS + b]:
                m |= 1 << b
            final[i, r, b] = ints2[GAME.bet_row + s * MAX_BETS + b]
        won[i, r] = m
        if with_game:
            share[i, r] = rollout_game(s, np.bool_(False), key ^ _GAME, np.int64(r), played.board, ints2, played.money,
                                       gwork)


def evaluate_cash(s, key, r0, r1, board, game_state, money, row0, share):
    """After a round's scoring, seat s keeps its track position (c = 0) or
    cashes it in (c = 1) and the game is played to its end in rollouts
    ``r0 .. r1-1`` (both on the same streams): its win share into ``share[c, r]``
    (the two choices on threads: ``tabletop_mc.spans``)."""
    each_span(lambda lo, hi: cash_span(s, key, r0, r1, board, game_state, money, row0, share, lo, hi), 2)


@nb.njit(cache=True, nogil=True)
def cash_span(s, key, r0, r1, board, game_state, money, row0, share, lo, hi):
    """Choices ``lo..hi-1`` (0: keep, 1: cash in) of ``evaluate_cash``."""
    for c in range(lo, hi):
        mine = game_state.copy()
        gwork = game_rollout(board, mine, money, row0)
        for r in range(r0, r1):
            share[c, r] = rollout_game(s, c == 1, key, np.int64(r), board, mine, money, gwork)


evaluate_cash.kernel = cash_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)
