"""Worlds of the hidden cards, and how likely each makes what the others did.

A world is the hands of every seat now (``new_work``'s deal: the deciding
seat's own hand, the others' revealed cards kept, their hidden cards dealt
uniformly over their hidden slots). Its weight under inference is the
likelihood of the round's history given that world: the history is replayed
from the deal (exchanges undone to find the hands as dealt) and at each
betting action of another seat, the assumed policy (``game_state`` of the state
passed in) is asked what it would do; every disagreement multiplies the
likelihood by the tremble (``actions.replay``).
"""

import numba as nb
import numpy as np

from tabletop_mc.spans import each_span
from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.advise.actions import replay, undo_swaps
from sponsio_sim.kernels.betting.rollout import deal_world, new_work
from sponsio_sim.kernels.layout import BOARD, MONEY, RULES
from sponsio_sim.kernels.rulebook import rules_of

BLOCKS = 64    # likelihood work split into this many blocks (threads take whole blocks)


@nb.njit(cache=True)
def propose_worlds(s, board, game_state, money, key, worlds):
    """``worlds[r]`` = the hands of world r, uniform given what seat s sees."""
    work = new_work(s, board, game_state, money)
    for r in range(worlds.shape[0]):
        deal_world(r, key, work)
        worlds[r, :] = work.dealt


def world_logliks(judged, hist, n_hist, tremble, tab0, ints0, weight0, worlds, out):
    """``out[r]``: log-likelihood of ``hist[:n_hist]`` in world r, replayed
    from the round-start state ``(tab0, ints0, weight0)``, the actions of the
    seats in the bitmask ``judged`` judged; -inf where the world cannot have
    played it. Threads take blocks of worlds (``tabletop_mc.spans``)."""
    each_span(lambda lo, hi: logliks_span(judged, hist, n_hist, tremble, tab0, ints0, weight0, worlds, out, lo, hi),
              BLOCKS)


@nb.njit(cache=True, nogil=True)
def logliks_span(judged, hist, n_hist, tremble, tab0, ints0, weight0, worlds, out, lo, hi):
    """Blocks ``lo..hi-1`` of ``world_logliks``: block b replays worlds b, b + BLOCKS, ..."""
    rules = rules_of(ints0)
    n = worlds.shape[0]
    players = rules[RULES.players]
    for blk in range(lo, hi):
        board = tab0.copy()
        game_state = ints0.copy()
        money = weight0.copy()
        hands = np.empty(players, dtype=np.uint64)
        state = np.empty(4, dtype=np.uint64)
        for r in range(blk, n, BLOCKS):
            hands[:] = worlds[r]
            undo_swaps(hist, n_hist, hands)
            board[:] = tab0
            game_state[:] = ints0
            money[:MONEY.size] = weight0[:MONEY.size]   # the network's decision scratch past it is per decision
            for t in range(players):
                board[BOARD.hands + t] = hands[t]
            seed_state(np.uint64(0), np.uint64(r), state)
            bad, ll = replay(hist, n_hist, judged, tremble, board, game_state, money, state)
            out[r] = ll if bad < 0 else -np.inf


world_logliks.kernel = logliks_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)
