"""Recorded ``mc`` decisions for distillation (``analysis.game.distill``).

Whole games are played as usual; every decision of an ``mc`` seat is
written to its chunk's record (``betting.mc.record_decision``: per searched
candidate, the paired round-gain advantage over pass, the rollouts behind
it, the model gain and the ``distilled`` features). Each chunk has its own
record, so chunks run in parallel and a chunk's rows depend only on its
stream; a full record keeps its first decisions.
"""

import numba as nb
import numpy as np

from sponsio_sim.kernels.game.engine import game_chunk
from sponsio_sim.kernels.layout import DECISION_RECORD
from sponsio_sim.kernels.game.log import no_log


@nb.njit(parallel=True, cache=True)
def record_chunks(seed, first_chunk, counts, tab0, ints0, weight0, n_stats, capacity):
    """Per chunk ``first_chunk + i`` of ``counts[i]`` games: its record (row 0: rows
    used, decisions; then up to ``capacity`` rows of ``DECISION_RECORD.size``) and its statistics."""
    records = np.zeros((counts.shape[0], capacity + 1, DECISION_RECORD.size), dtype=np.float64)
    stats = np.zeros((counts.shape[0], n_stats), dtype=np.float64)
    for i in nb.prange(counts.shape[0]):
        nolog = no_log()
        game_chunk(seed, first_chunk + i, counts[i], tab0, ints0, weight0, stats[i], nolog, records[i])
    return records, stats
