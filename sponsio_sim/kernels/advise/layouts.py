"""Layouts of the hidden cards, uniform given what is public, voids included.

The hidden cards (``pool``, grouped by colour: colour c's are
``pool[start[c]:start[c + 1]]``) go to the seats' hidden slots, ``need[t]``
each; a seat void in a colour (it did not follow it) holds none of it.
Every layout that respects the voids is equally likely (a rejection
sampler needs thousands of tries once two seats show voids).

A colour's cards are split over the seats by one of its ``splits`` (rows
``first[c] .. first[c + 1] - 1``: how many cards each seat gets, only seats
that may hold the colour, never more than their slots), a split of m cards
into k_t per seat in m! / prod(k_t!) ways (``ways``). ``layout_counts``
counts, colour by colour from the last, the layouts of that colour and the
ones after it for every vector of slots still free (a mixed-radix index,
``strides``); ``propose_layouts`` walks the colours drawing each split with
probability proportional to its count, then deals the colour's cards over
it (``deal.deal``).
"""

from collections import namedtuple

import numba as nb
import numpy as np

from tabletop_mc.spans import each_span
from tabletop_mc.rng import seed_state, uniform
from sponsio_sim.kernels.deal import deal

# What ``propose_layouts`` deals a world from (module docstring): ``pool``
# (hidden cards, by colour: colour c's are pool[start[c]:start[c + 1]]),
# ``splits`` ((k, players): cards of a colour per seat; colour c's are rows
# first[c] .. first[c + 1] - 1), ``ways`` (in how many ways each split deals
# its colour), ``need`` (hidden slots per seat), ``strides`` (mixed-radix
# index of free slots), ``counts`` (``layout_counts``), ``fixed`` (per seat,
# the cards it is known to have held as betting ended).
Layouts = namedtuple("Layouts", ["pool", "start", "splits", "first", "ways", "need", "strides", "counts", "fixed"])


@nb.njit(cache=True)
def layout_counts(splits, first, ways, need, strides):
    """``counts[c, i]``: the layouts of colours c.. into the free slots whose
    mixed-radix index is i (``counts[0, index(need)]``: all layouts)."""
    n_col = first.shape[0] - 1
    seats = need.shape[0]
    size = 1
    for t in range(seats):
        size *= need[t] + 1
    counts = np.zeros((n_col + 1, size), dtype=np.float64)
    counts[n_col, 0] = 1.0
    free = np.empty(seats, dtype=np.int64)
    for c in range(n_col - 1, -1, -1):
        for i in range(size):
            rest = i
            for t in range(seats - 1, -1, -1):
                free[t] = rest // strides[t]
                rest -= free[t] * strides[t]
            total = 0.0
            for j in range(first[c], first[c + 1]):
                ok = True
                after = i
                for t in range(seats):
                    if splits[j, t] > free[t]:
                        ok = False
                        break
                    after -= splits[j, t] * strides[t]
                if ok:
                    total += ways[j] * counts[c + 1, after]
            counts[c, i] = total
    return counts


BLOCKS = 64   # proposals split into this many blocks (threads take whole blocks; each proposal has its own stream)


def propose_layouts(lay, key, out):
    """``out[r]``: world r's hands, ``lay.fixed`` plus a uniform layout of the
    hidden cards (``lay``: a ``Layouts``; stream ``(key, r)``: the same on any
    thread count). Threads take blocks of worlds (``tabletop_mc.spans``)."""
    each_span(lambda lo, hi: layouts_span(lay, key, out, lo, hi), BLOCKS)


@nb.njit(cache=True, nogil=True)
def layouts_span(lay, key, out, lo, hi):
    """Blocks ``lo..hi-1`` of ``propose_layouts``: block b draws worlds b, b + BLOCKS, ..."""
    pool, splits, need, strides = lay.pool, lay.splits, lay.need, lay.strides
    seats = need.shape[0]
    shift = np.zeros(splits.shape[0], dtype=np.int64)   # each split's step in the mixed-radix index
    for j in range(splits.shape[0]):
        for t in range(seats):
            shift[j] += splits[j, t] * strides[t]
    top = 0
    for t in range(seats):
        top += need[t] * strides[t]
    for blk in range(lo, hi):
        state = np.empty(4, dtype=np.uint64)
        hands = np.empty(seats, dtype=np.uint64)
        free = np.empty(seats, dtype=np.int64)
        cards = np.empty(pool.shape[0], dtype=np.int64)
        for r in range(blk, out.shape[0], BLOCKS):
            seed_state(key, np.uint64(r), state)
            hands[:] = lay.fixed
            cards[:] = pool   # the deal shuffles in place: every world starts from the same order
            _draw(top, lay, shift, state, hands, free, cards)
            out[r, :] = hands


propose_layouts.kernel = layouts_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)


@nb.njit(cache=True, inline="always")
def _draw(i, lay, shift, state, hands, free, cards):
    """One layout of ``lay`` (a ``Layouts``) into ``hands``: per colour a split
    drawn by its count, then the colour's cards dealt over it."""
    start, splits, first, ways, strides, counts = lay.start, lay.splits, lay.first, lay.ways, lay.strides, lay.counts
    seats = lay.need.shape[0]
    for c in range(first.shape[0] - 1):
        rest = i
        for t in range(seats - 1, -1, -1):
            free[t] = rest // strides[t]
            rest -= free[t] * strides[t]
        goal = uniform(state) * counts[c, i]
        pick = -1
        acc = 0.0
        for j in range(first[c], first[c + 1]):
            ok = True
            for t in range(seats):
                if splits[j, t] > free[t]:
                    ok = False
                    break
            if not ok:
                continue
            w = ways[j] * counts[c + 1, i - shift[j]]
            if w > 0.0:
                pick = j
                acc += w
                if acc > goal:
                    break
        i -= shift[pick]
        deal(state, cards[start[c]:start[c + 1]], hands, splits[pick], np.uint64(0), np.int64(0), hands)
