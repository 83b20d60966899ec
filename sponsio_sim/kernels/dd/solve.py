"""Double-dummy questions on known deals (the solver's entry points).

- ``solve_coalition``: the most tricks the seats in mask ``coalition`` can
  take from here against the others (zero-window searches, bounds kept in
  the transposition table between them).
- ``solve_bets``: can seat ``ask`` win all its bets (``codes``/``bcounts``
  rows as in ``kernels.bets``) when the seats in ``maxside`` help it and the
  rest play to defeat it (a ``dd.context.BetQuestion``)? Worst case:
  ``maxside = 1 << ask``; best case (everyone cooperates): every seat, searched first with restarts in shaken
  move orders under growing node budgets (``COOP_RESTARTS``).
- ``batch_*``: the same over many deals in parallel (workers on every
  thread take the next deal, ``tabletop_mc.workshare``; one workspace per
  worker).

Deals are ``hands[s]`` uint64 masks; ``trick`` the cards already played to
the current trick from ``leader`` on (empty at a trick boundary);
``start_tally`` the ``tally`` row so far (``fresh_counters``); ``work`` a
``dd.context.Workspace``. ``stamp`` identifies the question for the
transposition table: callers give a new stamp whenever the goal changes, and
may keep one stamp across deals with the same goal.
"""

import time

import numba as nb
import numpy as np

from tabletop_mc.spans import on_threads
from tabletop_mc.jit import no_refcount
from tabletop_mc.workshare import take
from sponsio_sim.kernels.bets import BET_FIELDS, counted_nines
from sponsio_sim.kernels.bits import U0, U1
from sponsio_sim.kernels.dd.bounds import side_quick_tricks
from sponsio_sim.kernels.dd.context import BetQuestion
from sponsio_sim.kernels.dd.core import MAX_PLAYERS, MODE_BET, MODE_TRICKS, TT_BITS, tally_layout, new_workspace
from sponsio_sim.kernels.dd.goals import bet_flags, relevant_seats
from sponsio_sim.kernels.dd.tt import UNKNOWN, YES
from sponsio_sim.kernels.dd.search import search, setup_root

_BET_SLOTS = 5
# Best-case questions: restarts before the unlimited search, and the first
# one's node budget (doubled each time). Best-case nodes over the whole
# catalogue: 21 % fewer on random deals (``bench_dd.py --only best``), 27 %
# on the --help example's conditional deals. Restarts made the worst case
# (seat alone) search 46 % more nodes there, so it has none. A first budget
# of 125 rather than 500: 5-8 % fewer best-case nodes on two samples of the
# --help example's deals (500 and 800), 2-9 % on two of random deals.
COOP_RESTARTS = 10
COOP_BUDGET = 125


@nb.njit(cache=True)
def fresh_counters(players, n_colours):
    """The ``tally`` row of a trick phase that has not started: nothing won, nines ok."""
    captured, nines_ok, last, first, width = tally_layout(players, n_colours)
    row = np.zeros(width, dtype=np.int64)
    row[nines_ok] = 1
    row[last] = -1
    row[first] = -1
    return row


@nb.njit(cache=True)
def _scratch(players):
    """The scratch rows ``search`` settles a bet goal in (``bet_results``, ``seat_failed``)."""
    return np.zeros((players, _BET_SLOTS), dtype=np.int64), np.zeros(players, dtype=np.int64)


@nb.njit(cache=True)
def solve_coalition(hands, leader, trick, colmask, nines, coalition, work, stamp):
    """(most tricks coalition ``coalition`` takes of the tricks left, nodes);
    ``work``: a ``dd.context.Workspace``."""
    plies, ply_cards, tally, table = work
    players = hands.shape[0]
    n_col = colmask.shape[0]
    start_tally = fresh_counters(players, n_col)
    codes = np.zeros((players, _BET_SLOTS, BET_FIELDS), dtype=np.int64)
    bcounts = np.zeros(players, dtype=np.int64)
    bet_results, seat_failed = _scratch(players)
    to_move = (leader + trick.shape[0]) % players
    left = 0
    h = hands[to_move]
    while h != U0:
        h &= h - U1
        left += 1
    lo = 0
    hi = left
    if trick.shape[0] == 0:
        in_play = U0
        for t in range(players):
            in_play |= hands[t]
        if (coalition >> leader) & 1:
            lo = side_quick_tricks(hands, players, leader, coalition, in_play, colmask)[0]
        else:
            hi = left - side_quick_tricks(hands, players, leader, ((np.int64(1) << players) - 1) & ~coalition,
                                          in_play, colmask)[0]
    # Zero-window tests from the middle of [lo, hi], then one trick at a
    # time towards the answer (fewer nodes than bisection: the tests near
    # the answer are the costly ones, and they share the table).
    nodes = 0
    t = min(max((lo + hi + 1) // 2, lo + 1), hi)
    while lo < hi:
        setup_root(hands, leader, trick, start_tally, work)
        ok, k = search(hands, colmask, np.uint64(nines), np.int64(MODE_TRICKS), np.int64(t), np.int64(coalition),
                       np.int64(coalition), codes, bcounts, np.int64(0), np.int64(0), np.bool_(False),
                       np.bool_(False), np.uint64(0), plies, ply_cards, tally, table, np.uint64(stamp), bet_results,
                       seat_failed, np.int64(0), U0)
        nodes += k
        if ok == YES:
            lo = t
            t += 1
        else:
            hi = t - 1
            t -= 1
    return lo, nodes


@nb.njit(cache=True)
def solve_bets(hands, leader, trick, start_tally, colmask, nines, question, work, stamp):
    """(True if seat ``question.ask`` wins all its bets under the
    ``question`` (a ``dd.context.BetQuestion``), nodes); ``work``: a
    ``dd.context.Workspace``."""
    codes, bcounts, ask, maxside, root_mask = question
    plies, ply_cards, tally, table = work
    players = hands.shape[0]
    deciding_seats = relevant_seats(codes, bcounts, ask)
    any_fail, any_nines = bet_flags(codes, bcounts, deciding_seats)
    bet_results, seat_failed = _scratch(players)
    # Every seat helping: the search is one of OR nodes only, and its cost
    # is heavy-tailed (one early wrong card costs an exhaustive refutation).
    # Restarts in shaken orders with growing budgets first; the table keeps
    # what each proved, and the last attempt has no limit.
    restarts = COOP_RESTARTS if maxside == (np.int64(1) << players) - 1 else 0
    budget = np.int64(COOP_BUDGET)
    nodes = 0
    ok = UNKNOWN
    for attempt in range(restarts + 1):
        last = attempt == restarts
        setup_root(hands, leader, trick, start_tally, work)
        # Every argument typed the same way as in ``solve_coalition`` (no
        # literals, nines as uint64), so ``search`` compiles once.
        ok, k = search(hands, colmask, np.uint64(nines), np.int64(MODE_BET), np.int64(0), np.int64(maxside),
                       np.int64(0), codes, bcounts, np.int64(ask), np.int64(deciding_seats), np.bool_(any_fail),
                       np.bool_(any_nines), np.uint64(root_mask), plies, ply_cards, tally, table, np.uint64(stamp),
                       bet_results, seat_failed, np.int64(0) if last else budget,
                       U0 if last or attempt == 0 else np.uint64(attempt))
        nodes += k
        if ok != UNKNOWN:
            break
        budget *= 2
    return ok == YES, nodes


@no_refcount
def wall_ms():
    """Wall-clock milliseconds (monotonic), for per-deal solve times; the
    batch kernels release the GIL (``nogil``) so that this brief object-mode
    call does not wait for the caller's thread."""
    with nb.objmode(t="float64"):
        t = time.perf_counter() * 1e3
    return t


def workspace(players, n_colours, max_cards, tt_bits=TT_BITS):
    """A fresh ``dd.context.Workspace`` for one thread."""
    if players > MAX_PLAYERS:
        raise ValueError(f"the solver handles at most {MAX_PLAYERS} players")
    return new_workspace(players, n_colours, max_cards, tt_bits)


def batch_coalition(deals, colmask, nines, coalition, max_cards, ticket, answers):
    """``solve_coalition`` for each deal of ``deals`` (a ``dd.context.Positions``);
    ``ticket`` (``workshare.new_ticket()``) hands out the deals
    (``tabletop_mc.workshare``: a thread that drew slow deals does not hold
    up the others). Fills ``answers`` (a ``dd.context.CoalitionAnswers``);
    each deal's answer and nodes do not depend on the thread that solved it
    (a fresh table stamp per deal). One worker per thread (``tabletop_mc.spans.on_threads``)."""
    on_threads(lambda: _coalition_worker(deals, colmask, nines, coalition, max_cards, ticket, answers))


@nb.njit(cache=True, nogil=True)
def _coalition_worker(deals, colmask, nines, coalition, max_cards, ticket, answers):
    hands, leaders, tricks, trick_len = deals
    out, nodes, ms = answers
    i = take(ticket)
    if i >= hands.shape[0]:
        return
    players = hands.shape[1]
    work = new_workspace(players, colmask.shape[0], max_cards, TT_BITS)
    h = np.empty(players, dtype=np.uint64)
    while i < hands.shape[0]:
        h[:] = hands[i]
        t0 = wall_ms()
        out[i], nodes[i] = solve_coalition(h, leaders[i], tricks[i, :trick_len[i]], colmask, nines, coalition, work,
                                           np.uint64(i + 1))
        ms[i] = wall_ms() - t0
        i = take(ticket)


def batch_bets(deals, colmask, nines, codes, bcounts, ask, max_cards, ticket, answers, nines_own=False):
    """Worst- and best-case ``solve_bets`` for each deal of ``deals`` (a
    ``dd.context.Positions``) into ``answers`` (a ``dd.context.BetAnswers``;
    ``ticket`` as in ``batch_coalition``; ``nines_own``: nines bets judge
    their bettor's 9s, ``bets.counted_nines``).
    A deal whose best case fails cannot succeed in the worst case either,
    and one that succeeds in the worst case succeeds in the best case. One worker per thread
    (``tabletop_mc.spans.on_threads``)."""
    on_threads(lambda: _bets_worker(deals, colmask, nines, codes, bcounts, ask, max_cards, ticket, answers,
                                    bool(nines_own)))


@nb.njit(cache=True, nogil=True)
def _bets_worker(deals, colmask, nines, codes, bcounts, ask, max_cards, ticket, answers, nines_own):
    hands, leaders, tricks, trick_len = deals
    worst, best, nodes, ms = answers
    i = take(ticket)
    if i >= hands.shape[0]:
        return
    players = hands.shape[1]
    everyone = (np.int64(1) << players) - 1
    work = new_workspace(players, colmask.shape[0], max_cards, TT_BITS)
    h = np.empty(players, dtype=np.uint64)
    start_tally = fresh_counters(players, colmask.shape[0])
    while i < hands.shape[0]:
        h[:] = hands[i]
        tr = tricks[i, :trick_len[i]]
        counted = counted_nines(codes, bcounts, h, tr, leaders[i], nines, nines_own)
        t0 = wall_ms()
        ok_b, k_b = solve_bets(h, leaders[i], tr, start_tally, colmask, counted,
                               BetQuestion(codes, bcounts, ask, everyone, U0), work, np.uint64(2 * i + 1))
        ok_w = False
        k_w = 0
        if ok_b:
            ok_w, k_w = solve_bets(h, leaders[i], tr, start_tally, colmask, counted,
                                   BetQuestion(codes, bcounts, ask, np.int64(1) << ask, U0), work,
                                   np.uint64(2 * i + 2))
        ms[i] = wall_ms() - t0
        worst[i] = ok_w
        best[i] = ok_b
        nodes[i] = k_b + k_w
        i = take(ticket)


# the compiled kernels the batch functions run (``tabletop_mc.jitcache.needs_compile``)
batch_coalition.kernel = _coalition_worker
batch_bets.kernel = _bets_worker
