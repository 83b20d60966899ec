"""Odds kernel: conditional deal + trick phase + settlement, many rounds.

One call simulates a batch of chunks on threads (``tabletop_mc.spans``); chunk
``first_chunk + i`` draws from random stream ``(seed, first_chunk + i)``, so
the counts do not depend on the thread count. Per chunk it returns counts
in the ``stats_layout`` order: per bet kind, how often the asking seat
would have won each of its rows (the tricks histogram 0..H, per colour the
captured-card histogram 0..9, last, nines, fail per seat), then the joint
success of all the asking seat's bets. ``flags`` are the rule flags of ``TRICK_RULES.flags`` (``kernels.layout``).

``stop`` (kind, a, b; kind < 0 for none) names the one bet a goal row asks
about: a round then ends as soon as that bet is settled
(``bets.bet_decided``), and only that bet's own count is meaningful. The
goal and greedy policies draw no random numbers, so the rounds that follow
are dealt exactly as without the stop; with a ``random`` seat there is no
stop.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import seed_state
from tabletop_mc.spans import each_span
from sponsio_sim.bet_kinds import COLOUR, FAIL, FIRST, KINDS, LAST, NINES, TRICKS, odds_slots
from sponsio_sim.kernels.bets import ANY_SEAT, bet_won, settle
from sponsio_sim.kernels.bits import RANKS, popcount
from sponsio_sim.kernels.contexts import trick_round
from sponsio_sim.kernels.deal import deal
from sponsio_sim.kernels.play.tricks import play_borrowed
from sponsio_sim.kernels.play.policies import RANDOM, build_relevance
from sponsio_sim.kernels.trickstate import set_round
from sponsio_sim.kernels.layout import BOARD, TRICK_STATE


def stats_layout(hand_size, n_colours, players):
    """Offsets of each statistic in the kernel's count vector: per bet kind
    (``bet_kinds`` order) one count per parameter value, then ``joint``."""
    out = {}
    at = 0
    for kind in KINDS:
        out[kind.name] = at
        at += odds_slots(kind, hand_size, n_colours, players)
    out["joint"] = at
    out["size"] = at + 1
    return out


def kind_slots(layout):
    """The kind offsets of a ``stats_layout``, as the kernel's ``slots`` array."""
    return np.array([layout[kind.name] for kind in KINDS], dtype=np.int64)


def odds_chunks(seed, first_chunk, counts, conditions, query, policy, slots, n_stats, stop):
    """Simulate ``counts[i]`` rounds for each chunk; return per-chunk counts
    (``conditions``, ``query``: ``contexts.DealConditions`` and ``contexts.QueryArrays``;
    ``policy[s]``: seat s's play policy; ``slots``, ``n_stats``: ``kind_slots``
    and size of the ``stats_layout``). The chunks run on threads (``tabletop_mc.spans``)."""
    out = np.zeros((counts.shape[0], n_stats), dtype=np.int64)
    each_span(lambda lo, hi: odds_span(seed, first_chunk, counts, lo, hi, conditions, query, policy, slots, stop,
                                       out), counts.shape[0])
    return out


@nb.njit(cache=True, nogil=True)
def odds_span(seed, first_chunk, counts, lo, hi, conditions, query, policy, slots, stop, out):
    """Chunks ``lo..hi-1``: ``counts[i]`` rounds from random stream ``(seed, first_chunk + i)``,
    counted into ``out[i]``; each chunk starts from fresh state."""
    ask, codes, bcounts = query.ask, query.codes, query.bcounts
    players = bcounts.shape[0]
    halt = np.full(4, -1, dtype=np.int64)
    if stop[0] >= 0:
        for j in range(3):   # element by element: a slice assignment compiles its shape-mismatch message
            halt[j] = stop[j]
        halt[3] = ask
        for s in range(players):
            if policy[s] == RANDOM:   # it draws from the stream the next deals use
                halt[0] = -1
    state = np.empty(4, dtype=np.uint64)
    pool = np.empty_like(conditions.pool)
    hands = np.empty(players, dtype=np.uint64)
    for i in range(lo, hi):
        seed_state(seed, first_chunk + i, state)
        rnd = trick_round(query.n_colours, query.flags, state, codes, bcounts)
        build_relevance(codes, bcounts, rnd.game_state)
        for j in range(pool.shape[0]):   # element by element (see above)
            pool[j] = conditions.pool[j]
        odds_rounds(counts[i], conditions, query, policy, slots, halt, rnd, pool, hands, out[i])


odds_chunks.kernel = odds_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)


@no_refcount
def odds_rounds(rounds, conditions, query, policy, slots, halt, rnd, pool, hands, row):
    """``rounds`` rounds on ``rnd`` (a ``contexts.TrickRound``), counted into ``row``: the chunk's
    loop, without reference counting (it only borrows its arrays; ``pool``, ``hands``: scratch)."""
    fixed, need = conditions.fixed, conditions.need
    talon_fixed, talon_need, revealed = conditions.talon_fixed, conditions.talon_need, conditions.revealed
    ask, leader, codes, bcounts, n_colours = query.ask, query.leader, query.codes, query.bcounts, query.n_colours
    board, game_state, money, state, result, failed = rnd.board, rnd.game_state, rnd.money, rnd.rng, rnd.result, \
        rnd.failed
    players = fixed.shape[0]
    joint_i = row.shape[0] - 1
    for _ in range(rounds):
        talon = deal(state, pool, fixed, need, talon_fixed, talon_need, hands)
        set_round(board, game_state, hands, talon, revealed)
        last, nine_lost = play_borrowed(players, leader, policy, board, game_state, money, state, None, halt, None)
        settle(codes, bcounts, board, game_state, nine_lost, result, failed)
        for kind in range(slots.shape[0]):   # the slot of each kind's bet the asking seat would have won
            base = slots[kind]
            if kind == TRICKS:
                row[base + game_state[TRICK_STATE.tricks_won + ask]] += 1
            elif kind == COLOUR:
                for col in range(n_colours):
                    row[base + col * (RANKS + 1)
                        + popcount(board[BOARD.won + ask] & board[BOARD.colour_masks + col])] += 1
            elif kind == FAIL:
                count_fail_bets(codes, bcounts, ask, result, failed, row, base)
            elif kind == LAST or kind == NINES or kind == FIRST:   # one slot: no parameter
                if bet_won(kind, 0, 0, ask, board, game_state, nine_lost):
                    row[base] += 1
            else:
                raise ValueError("unknown bet kind")
        if bcounts[ask] > 0 and not failed[ask]:
            row[joint_i] += 1


@nb.njit(cache=True, inline="always")
def count_fail_bets(codes, bcounts, ask, result, failed, row, base):
    """Successes of a fail bet of ``ask`` on each target, counted into ``row[base + t]``
    (``row[base + players]``: any other seat): the held bet's own result, else whether the
    target failed."""
    players = bcounts.shape[0]
    held = -2
    for i in range(bcounts[ask]):
        if codes[ask, i, 0] == FAIL:
            held = codes[ask, i, 1]
            if result[ask, i]:
                row[base + (held if held >= 0 else players)] += 1
    any_failed = False
    for t in range(players):
        if t != ask and bcounts[t] > 0 and failed[t]:
            any_failed = True
            if t != held:
                row[base + t] += 1
    if any_failed and held != ANY_SEAT:
        row[base + players] += 1
