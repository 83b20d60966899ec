"""DD odds kernels: double-dummy brackets and PIMC play over conditional deals.

For every dealt round and every row (a set of the asking seat's bets) it
asks the solver two questions: is the row possible when all seats
cooperate (best case), and, if so, can the seat make it against all the
others (worst case)? Chunk ``first_chunk + i`` draws from stream
``(seed, first_chunk + i)``; the counts do not depend on the thread count.
Per chunk it returns ``out[i, row] = (worst successes, best successes)``.
``pimc_odds_chunks`` plays the rounds instead, the asking seat on PIMC.
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state
from tabletop_mc.spans import each_span, on_threads
from tabletop_mc.workshare import new_ticket, take
from sponsio_sim.kernels.bits import RANKS, U0, colour_masks, nines_mask
from sponsio_sim.kernels.dd.context import BetQuestion
from sponsio_sim.kernels.dd.solve import fresh_counters, solve_bets
from sponsio_sim.kernels.dd.core import TT_BITS, new_workspace
from sponsio_sim.kernels.dd.goals import same_family
from sponsio_sim.kernels.deal import deal
from sponsio_sim.kernels.bets import counted_nines, settle
from sponsio_sim.kernels.contexts import trick_round
from sponsio_sim.kernels.play.pimc import pimc_context, pimc_play
from sponsio_sim.kernels.play.policies import build_relevance
from sponsio_sim.kernels.trickstate import set_round
from sponsio_sim.kernels.layout import NINES_OWN


# A worker's table: it answers about a hundred questions per deal over
# hundreds of deals, some of a million nodes, so it gets 4x the solver's
# default (27 MB): 5 % fewer best-case and 4 % fewer worst-case nodes on the
# --help example's deals, about 4 % less time; 16x cost more time than it
# saved in nodes.
ODDS_TT_BITS = TT_BITS + 2


def dd_odds_chunks(seed, first_chunk, counts, conditions, query, rows, row_counts):
    """``conditions``, ``query``: ``contexts.DealConditions`` and
    ``contexts.QueryArrays`` (the asking seat's bets are replaced by each row's
    ``rows[r, :row_counts[r]]``).

    The chunks' deals are drawn first (each from its own stream), then
    solved by workers that each take the next unsolved deal
    (``tabletop_mc.workshare``) until none is left: a deal's solve time is
    heavy-tailed, and a static split of whole chunks left one thread idle
    while the other finished its slow deals. A deal's answers do not depend
    on which worker solved it, so neither do the counts."""
    players = conditions.fixed.shape[0]
    n_chunks = counts.shape[0]
    start = np.zeros(n_chunks + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    hands = np.empty((start[n_chunks], players), dtype=np.uint64)
    each_span(lambda lo, hi: deal_span(seed, first_chunk, start, lo, hi, conditions, hands), n_chunks)
    ok = np.zeros((start[n_chunks], 1, rows.shape[0], 2), dtype=np.bool_)
    solve_deals(hands, new_ticket(), query, np.zeros(0, dtype=np.int64), fresh_counters(players, query.n_colours),
                np.zeros(1, dtype=np.uint64), rows, row_counts, ok)
    made = np.zeros((start[n_chunks] + 1, rows.shape[0], 2), dtype=np.int64)   # running totals over the deals
    np.cumsum(ok[:, 0], axis=0, out=made[1:])
    return made[start[1:]] - made[start[:-1]]


def solve_deals(deals, ticket, query, trick, ctr0, roots, rows, row_counts, ok):
    """``dd_odds_worker`` on every thread (``tabletop_mc.spans.on_threads``): each takes the
    next unsolved deal from ``ticket`` until none is left."""
    on_threads(lambda: dd_odds_worker(deals, ticket, query, trick, ctr0, roots, rows, row_counts, ok))


@nb.njit(cache=True, nogil=True)
def deal_span(seed, first_chunk, start, lo, hi, conditions, out):
    """Chunks ``lo..hi-1``' deals: chunk i's ``start[i + 1] - start[i]`` deals from stream
    ``(seed, first_chunk + i)`` into rows ``start[i]..start[i + 1] - 1`` of ``out``."""
    for i in range(lo, hi):
        deal_chunk(seed, first_chunk + i, conditions, out[start[i]:start[i + 1]])


@nb.njit(cache=True)
def chunk_stream(seed, stream, pool):
    """A chunk's random stream and its own copy of the deal pool."""
    state = np.empty(4, dtype=np.uint64)
    seed_state(seed, stream, state)
    return state, pool.copy()


@nb.njit(cache=True, inline="always")
def deal_chunk(seed, stream, conditions, out):
    """The chunk's deals under ``conditions`` (``contexts.DealConditions``),
    from stream ``(seed, stream)``, into the rows of ``out``."""
    state, my_pool = chunk_stream(seed, stream, conditions.pool)
    fixed = conditions.fixed
    hands = np.empty(fixed.shape[0], dtype=np.uint64)
    for k in range(out.shape[0]):
        deal(state, my_pool, fixed, conditions.need, conditions.talon_fixed, conditions.talon_need, hands)
        out[k, :] = hands


@nb.njit(cache=True, nogil=True)
def dd_odds_worker(deals, ticket, query, trick, ctr0, roots, rows, row_counts, ok):
    """Solve the deals of ``deals`` that ``ticket`` hands out until none is
    left: ``ok[k, q, r]`` = (row r made in the worst case, possible in the
    best case) on deal k when the seat to move plays a card of ``roots[q]``
    (0: any card). The deals are the hands left, ``trick`` the cards already
    in the current trick from ``query.leader`` on and ``ctr0`` the solver's
    counters so far (``dd.solve.fresh_counters`` before the first trick)."""
    k = take(ticket)
    if k >= deals.shape[0]:
        return
    ask, leader, n_colours = query.ask, query.leader, query.n_colours
    nines_own = (query.flags & NINES_OWN) != 0
    players = deals.shape[1]
    colmask = colour_masks(n_colours)
    nines = nines_mask(n_colours)
    work = new_workspace(players, n_colours, n_colours * RANKS, ODDS_TT_BITS)
    hands = np.empty(players, dtype=np.uint64)
    table = query.codes.copy()
    tcounts = query.bcounts.copy()
    everyone = (np.int64(1) << players) - 1
    # A fresh pair of stamps (best, worst) per deal, root and goal family:
    # rows next to each other that differ only in their numbers
    # (``tricks=0..8``, ``colour:R=0..9``) share the table, whose entries are
    # keyed by what each counter still needs (``dd.goals.same_family``).
    # Entries kept across deals would be valid too, but they fill the
    # buckets the probes scan (measured 12% slower).
    stamp = np.uint64(0)
    counted = U0
    while k < deals.shape[0]:
        hands[:] = deals[k]
        for q in range(roots.shape[0]):
            for r in range(rows.shape[0]):
                for j in range(row_counts[r]):
                    for f in range(rows.shape[2]):
                        table[ask, j, f] = rows[r, j, f]
                tcounts[ask] = row_counts[r]
                before = counted
                counted = counted_nines(table, tcounts, hands, trick, leader, nines, nines_own)
                if r == 0 or counted != before or not same_family(rows[r - 1], row_counts[r - 1], rows[r],
                                                                    row_counts[r]):
                    stamp += np.uint64(2)
                ok_b, _ = solve_bets(hands, leader, trick, ctr0, colmask, counted,
                                     BetQuestion(table, tcounts, ask, everyone, roots[q]), work, stamp - np.uint64(1))
                if not ok_b:
                    continue
                ok[k, q, r, 1] = True
                ok_w, _ = solve_bets(hands, leader, trick, ctr0, colmask, counted,
                                     BetQuestion(table, tcounts, ask, np.int64(1) << ask, roots[q]), work, stamp)
                ok[k, q, r, 0] = ok_w
        k = take(ticket)


def pimc_odds_chunks(seed, first_chunk, counts, conditions, query, policy, worlds):
    """Rounds played with ``kernels.play.pimc.pimc_play`` (``worlds`` layouts per
    decision); per chunk, successes of each of the asking seat's bets and of
    all of them (last column). The chunks run on threads (``tabletop_mc.spans``)."""
    out = np.zeros((counts.shape[0], query.bcounts[query.ask] + 1), dtype=np.int64)
    each_span(lambda lo, hi: pimc_odds_span(seed, first_chunk, counts, lo, hi, conditions, query, policy, worlds,
                                            out), counts.shape[0])
    return out


@nb.njit(cache=True, nogil=True)
def pimc_odds_span(seed, first_chunk, counts, lo, hi, conditions, query, policy, worlds, out):
    """Chunks ``lo..hi-1`` of ``pimc_odds_chunks``."""
    for i in range(lo, hi):
        pimc_odds_chunk(seed, first_chunk + i, counts[i], conditions, query, policy, worlds, out[i])


@nb.njit(cache=True, inline="always")
def pimc_odds_chunk(seed, stream, rounds, conditions, query, policy, worlds, row):
    ask, leader, codes, bcounts, n_colours = query.ask, query.leader, query.codes, query.bcounts, query.n_colours
    fixed = conditions.fixed
    players = fixed.shape[0]
    state, my_pool = chunk_stream(seed, stream, conditions.pool)
    hands = np.empty(players, dtype=np.uint64)
    rnd = trick_round(n_colours, query.flags, state, codes, bcounts)
    board, game_state, result, failed = rnd.board, rnd.game_state, rnd.result, rnd.failed
    build_relevance(codes, bcounts, game_state)
    stamps = np.zeros(2, dtype=np.uint64)
    ctx = pimc_context(codes, bcounts, worlds, n_colours,
                       new_workspace(players, n_colours, n_colours * RANKS, TT_BITS), stamps)
    for _ in range(rounds):
        talon = deal(state, my_pool, fixed, conditions.need, conditions.talon_fixed, conditions.talon_need, hands)
        set_round(board, game_state, hands, talon, conditions.revealed)
        stamps[0] += np.uint64(2)
        stamps[1] = stamps[0] + np.uint64(1)
        last, nine_lost = pimc_play(players, leader, policy, rnd, ctx)
        settle(codes, bcounts, board, game_state, nine_lost, result, failed)
        for j in range(bcounts[ask]):
            row[j] += result[ask, j]
        if bcounts[ask] > 0 and not failed[ask]:
            row[bcounts[ask]] += 1


# the compiled kernels each batch function runs (``tabletop_mc.jitcache.needs_compile``)
dd_odds_chunks.kernel = dd_odds_worker
pimc_odds_chunks.kernel = pimc_odds_span
