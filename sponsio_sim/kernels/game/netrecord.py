"""Labelling runs for expert iteration: whole games whose ``mc`` seat records ``net``'s training rows.

Games are played as usual (``engine.play_game``) with the record as the
labelling record its ``mc`` seats write (``betting.netlabel``). When a game ends, the
rows it wrote at the ends of its rounds (``ROW_OUTCOME``) get their value:
the seat's win share of that game (1/k of a k-way shared win). Each chunk
has its own record, so chunks run in parallel and a chunk's rows depend
only on its stream.
"""

import numba as nb
import numpy as np

from tabletop_mc.spans import each_span

from sponsio_sim.kernels.betting.netlabel import GAME_SLOT
from sponsio_sim.kernels.betting.netlayout import NET_RECORD, ROW_OUTCOME
from sponsio_sim.kernels.bits import popcount
from sponsio_sim.kernels.game.engine import game_round, play_game
from sponsio_sim.kernels.game.log import no_log
from sponsio_sim.kernels.game.record import record_game

OUTCOME_SE = 0.5     # one game's win share as an estimate of a position's value: its spread, about


@nb.njit(cache=True, inline="always")
def label_chunk(seed, stream, games, tab0, ints0, weight0, row, record):
    """``games`` games of chunk ``stream``, the ``mc`` seats recording into ``record``."""
    rnd = game_round(tab0.copy(), ints0.copy(), weight0.copy(), np.empty(4, dtype=np.uint64))
    nolog = no_log()
    nocells = np.zeros(1, dtype=np.float64)
    for g in range(games):
        first = np.int64(record[0, 0]) + 1
        record[0, GAME_SLOT] = g
        reason, winners = play_game(seed, stream, g, rnd, row, nolog, nocells, np.bool_(True), record, record)
        record_game(reason, winners, rnd.game_state, rnd.money, row)
        k = popcount(np.uint64(winners))
        for r in range(first, np.int64(record[0, 0]) + 1):
            if record[r, NET_RECORD.kind] == ROW_OUTCOME:
                s = np.int64(record[r, NET_RECORD.seat])
                record[r, NET_RECORD.v] = 1.0 / k if (winners >> s) & 1 else 0.0
                record[r, NET_RECORD.v_se] = OUTCOME_SE


def label_chunks(seed, first_chunk, counts, tab0, ints0, weight0, n_stats, capacity):
    """Per chunk ``first_chunk + i`` of ``counts[i]`` games: its record (row 0: rows used, decisions; then
    up to ``capacity`` rows of ``NET_RECORD.size``) and its statistics (on threads: ``tabletop_mc.spans``)."""
    records = np.zeros((counts.shape[0], capacity + 1, NET_RECORD.size), dtype=np.float64)
    stats = np.zeros((counts.shape[0], n_stats), dtype=np.float64)
    each_span(lambda lo, hi: label_span(seed, first_chunk, counts, lo, hi, tab0, ints0, weight0, stats, records),
              counts.shape[0])
    return records, stats


@nb.njit(cache=True, nogil=True)
def label_span(seed, first_chunk, counts, lo, hi, tab0, ints0, weight0, stats, records):
    """Chunks ``lo..hi-1`` of ``label_chunks``."""
    for i in range(lo, hi):
        label_chunk(seed, first_chunk + i, counts[i], tab0, ints0, weight0, stats[i], records[i])


label_chunks.kernel = label_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)
