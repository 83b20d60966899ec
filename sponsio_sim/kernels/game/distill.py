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

from tabletop_mc.spans import each_span

from sponsio_sim.kernels.game.engine import game_chunk
from sponsio_sim.kernels.layout import DECISION_RECORD
from sponsio_sim.kernels.game.log import no_log


def record_chunks(seed, first_chunk, counts, tab0, ints0, weight0, n_stats, capacity):
    """Per chunk ``first_chunk + i`` of ``counts[i]`` games: its record (row 0: rows
    used, decisions; then up to ``capacity`` rows of ``DECISION_RECORD.size``) and its statistics
    (on threads: ``tabletop_mc.spans``)."""
    records = np.zeros((counts.shape[0], capacity + 1, DECISION_RECORD.size), dtype=np.float64)
    stats = np.zeros((counts.shape[0], n_stats), dtype=np.float64)
    each_span(lambda lo, hi: record_span(seed, first_chunk, counts, lo, hi, tab0, ints0, weight0, stats, records),
              counts.shape[0])
    return records, stats


@nb.njit(cache=True, nogil=True)
def record_span(seed, first_chunk, counts, lo, hi, tab0, ints0, weight0, stats, records):
    """Chunks ``lo..hi-1`` of ``record_chunks``."""
    for i in range(lo, hi):
        game_chunk(seed, first_chunk + i, counts[i], tab0, ints0, weight0, stats[i], no_log(), np.bool_(True),
                   records[i])


record_chunks.kernel = record_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)
