"""Profiles of the meta-game (`sponsio meta`): per game, each strategy's mean win share.

A profile seats N entries (``analysis.game.meta``), turned one seat per game
(``RULES.rotate``); ``groups[e]`` names the population member entry e plays.
For every game, each member seated there gets one sample: the mean win share
of its seats (a k-way shared win counts 1/k), so samples are independent
games and their spread gives the payoff table's standard errors
(``tabletop_mc.metagame``). Every profile is played from the same streams
(common random numbers): games of two profiles deal the same cards in every
round both reach.
"""

import numba as nb
import numpy as np

from tabletop_mc.spans import each_span

from sponsio_sim.kernels.betting.phase import entry_of
from sponsio_sim.kernels.game.engine import game_round, play_game
from sponsio_sim.kernels.layout import RULES
from sponsio_sim.kernels.rulebook import copy_game, rules_of
from sponsio_sim.kernels.game.log import no_log


@nb.njit(cache=True, inline="always")
def profile_chunk(seed, chunk, games, start, groups, n_stats, out, scored, mc_seats):
    """``games`` games of chunk ``chunk`` from ``start`` (``contexts.GameArrays``); per
    member j: out[j] += y, out[K + j] += y * y, out[2K + j] += 1 for every game where j
    sits (K = len(out) // 3)."""
    board, game_state, money = copy_game(start)
    rnd = game_round(board, game_state, money, np.empty(4, dtype=np.uint64))
    game_state = rnd.game_state
    rules = rules_of(game_state)
    row = np.zeros(n_stats, dtype=np.float64)
    nolog = no_log()
    nocells = np.zeros(1, dtype=np.float64)
    k = out.shape[0] // 3
    acc = np.zeros(k, dtype=np.float64)
    seats = np.zeros(k, dtype=np.int64)
    players = rules[RULES.players]
    for g in range(games):
        reason, winners = play_game(seed, chunk, g, rnd, row, nolog, nocells, scored, mc_seats, None)
        n_win = 0
        for s in range(players):
            n_win += (winners >> s) & 1
        acc[:] = 0.0
        seats[:] = 0
        for s in range(players):
            j = groups[entry_of(s, game_state)]
            acc[j] += ((winners >> s) & 1) / n_win
            seats[j] += 1
        for j in range(k):
            if seats[j]:
                y = acc[j] / seats[j]
                out[j] += y
                out[k + j] += y * y
                out[2 * k + j] += 1.0


def profile_chunks(seed, first_chunk, counts, start, groups, n_members, n_stats, scored, mc_seats):
    """Per-chunk member samples (``profile_chunk``) for chunks ``first_chunk + i`` (on threads:
    ``tabletop_mc.spans``)."""
    out = np.zeros((counts.shape[0], 3 * n_members), dtype=np.float64)
    each_span(lambda lo, hi: profile_span(seed, first_chunk, counts, lo, hi, start, groups, n_stats, out, scored,
                                          mc_seats), counts.shape[0])
    return out


@nb.njit(cache=True, nogil=True)
def profile_span(seed, first_chunk, counts, lo, hi, start, groups, n_stats, out, scored, mc_seats):
    """Chunks ``lo..hi-1`` of ``profile_chunks``."""
    for i in range(lo, hi):
        profile_chunk(seed, first_chunk + i, counts[i], start, groups, n_stats, out[i], scored, mc_seats)


profile_chunks.kernel = profile_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)
