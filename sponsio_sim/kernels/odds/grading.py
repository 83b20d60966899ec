"""Grading kernel: random hands, the bet ``goal`` would pick, every policy on it.

For each hand (a uniformly random deal, random leader) the asking seat
first picks its bet as the goal policy's player would: for every candidate
bet it plays ``pick_rounds`` goal-policy rounds over deals consistent with
what the seat knows (its hand and the talon, which the play policies
treat as public), other
seats without bets playing goal as trolls against it, and takes the bet
with the highest estimated EV = P x multiplier - stake (ties: the earlier
candidate). Then, on the real deal, with that bet: one round with the seat
on ``random``, one on ``goal``, one on ``pimc`` (others goal in each), and
the double-dummy worst and best cases.

Hand ``h`` of chunk ``c`` draws from stream ``(seed, c)``; the chunk's
hands are independent of the thread count. Per hand it writes
``out[h] = (bet index, random, goal, pimc, worst, best, leader)`` with 0/1
outcomes, and ``ev[h]`` the picked bet's estimated EV.
"""

from collections import namedtuple

import numba as nb
import numpy as np

from tabletop_mc.rng import randbelow
from tabletop_mc.spans import each_span
from sponsio_sim.kernels.bets import BET_FIELDS, counted_nines, settle
from sponsio_sim.kernels.bits import RANKS, U0, bit, colour_masks, nines_mask
from sponsio_sim.kernels.contexts import trick_round
from sponsio_sim.kernels.dd.core import TT_BITS, new_workspace
from sponsio_sim.kernels.dd.context import BetQuestion
from sponsio_sim.kernels.dd.solve import fresh_counters, solve_bets
from sponsio_sim.kernels.odds.dd import chunk_stream
from sponsio_sim.kernels.deal import deal
from sponsio_sim.kernels.play.pimc import PIMC, pimc_context, pimc_play
from sponsio_sim.kernels.play.tricks import play_tricks
from sponsio_sim.kernels.play.policies import GOAL, RANDOM, build_relevance
from sponsio_sim.kernels.trickstate import set_round
from sponsio_sim.kernels.layout import NINES_OWN

OUT_FIELDS = 7
F_BET, F_RANDOM, F_GOAL, F_PIMC, F_WORST, F_BEST, F_LEADER = range(OUT_FIELDS)


# What a grading run asks: the asking seat, the rules' shape (players,
# colours, hand and talon sizes, the rule flags: layout.TRICK_RULES.flags), the candidate bets
# ``cand[j]`` = (kind, a, b) with multipliers ``mult[j]`` and the stake,
# goal-policy rounds per candidate and PIMC worlds per decision.
Grading = namedtuple("Grading", ["ask", "players", "n_colours", "hand_size", "talon_size", "cand", "mult", "stake",
                                 "pick_rounds", "worlds", "flags"])


def grade_chunks(seed, first_chunk, counts, grading):
    """``counts[i]`` hands for chunk ``first_chunk + i`` (``grading``: a
    ``Grading``). Returns (out, ev) for every hand, chunk by chunk; the chunks
    run on threads (``tabletop_mc.spans``)."""
    starts = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    out = np.zeros((starts[-1], OUT_FIELDS), dtype=np.int64)
    ev = np.zeros(starts[-1], dtype=np.float64)
    each_span(lambda lo, hi: grade_span(seed, first_chunk, counts, starts, lo, hi, grading, out, ev),
              counts.shape[0])
    return out, ev


@nb.njit(cache=True, nogil=True)
def grade_span(seed, first_chunk, counts, starts, lo, hi, grading, out, ev):
    """Chunks ``lo..hi-1`` of ``grade_chunks``: chunk i's hands into rows ``starts[i]..starts[i + 1] - 1``."""
    for i in range(lo, hi):
        grade_chunk(seed, first_chunk + i, counts[i], grading, out[starts[i]:starts[i + 1]],
                    ev[starts[i]:starts[i + 1]])


grade_chunks.kernel = grade_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)


@nb.njit(cache=True)
def _play_one(rnd, leader, policy, hands, talon, ask):
    """One round of the deal in ``hands`` under ``policy`` (``rnd``: a
    ``contexts.TrickRound``): did ``ask`` win its bets?"""
    board, game_state = rnd.board, rnd.game_state
    set_round(board, game_state, hands, talon, U0)
    last, nine_lost = play_tricks(hands.shape[0], leader, policy, board, game_state, rnd.money, rnd.rng, None, None)
    settle(rnd.codes, rnd.bcounts, board, game_state, nine_lost, rnd.result, rnd.failed)
    return not rnd.failed[ask]


@nb.njit(cache=True)
def pick_bet(rnd, grading, leader, hand, talon):
    """(index of the candidate with the best estimated goal-policy EV, that EV)."""
    ask, players, hand_size, cand, pick_rounds = (grading.ask, grading.players, grading.hand_size, grading.cand,
                                                  grading.pick_rounds)
    codes, bcounts = rnd.codes, rnd.bcounts
    deck = grading.n_colours * RANKS
    known = hand | talon
    pool = np.empty(deck, dtype=np.int64)
    n_pool = 0
    for c in range(deck):
        if (known & bit(c)) == U0:
            pool[n_pool] = c
            n_pool += 1
    pool = pool[:n_pool]
    fixed = np.zeros(players, dtype=np.uint64)
    need = np.full(players, hand_size, dtype=np.int64)
    fixed[ask] = hand
    need[ask] = 0
    policy = np.full(players, GOAL, dtype=np.int64)
    hands = np.empty(players, dtype=np.uint64)
    best_j = 0
    best_ev = -1e300
    for j in range(cand.shape[0]):
        bcounts[:] = 0
        bcounts[ask] = 1
        for f in range(3):
            codes[ask, 0, f] = cand[j, f]
        build_relevance(codes, bcounts, rnd.game_state)
        wins = 0
        for _ in range(pick_rounds):
            t = deal(rnd.rng, pool, fixed, need, talon, np.int64(0), hands)
            if _play_one(rnd, leader, policy, hands, t, ask):
                wins += 1
        e = wins / pick_rounds * grading.mult[j] - grading.stake
        if e > best_ev:
            best_ev = e
            best_j = j
    return best_j, best_ev


@nb.njit(cache=True, inline="always")
def grade_chunk(seed, stream, n_hands, grading, out, ev):
    ask, players, n_colours, hand_size, cand = (grading.ask, grading.players, grading.n_colours, grading.hand_size,
                                                grading.cand)
    state, pool = chunk_stream(seed, stream, np.arange(n_colours * RANKS))
    hands = np.empty(players, dtype=np.uint64)
    solver = new_workspace(players, n_colours, n_colours * RANKS, TT_BITS)
    fixed = np.zeros(players, dtype=np.uint64)
    need = np.full(players, hand_size, dtype=np.int64)
    work = np.empty(players, dtype=np.uint64)
    codes = np.zeros((players, 5, BET_FIELDS), dtype=np.int64)
    bcounts = np.zeros(players, dtype=np.int64)
    rnd = trick_round(n_colours, grading.flags, state, codes, bcounts)
    board, game_state, failed = rnd.board, rnd.game_state, rnd.failed
    colmask = colour_masks(n_colours)
    nines_own = (grading.flags & NINES_OWN) != 0
    ctr0 = fresh_counters(players, n_colours)
    policy = np.full(players, GOAL, dtype=np.int64)
    stamps = np.zeros(2, dtype=np.uint64)
    pimc = pimc_context(codes, bcounts, grading.worlds, n_colours, solver, stamps)
    stamp = np.uint64(0)
    empty = np.zeros(0, dtype=np.int64)
    everyone = (np.int64(1) << players) - 1
    for h in range(n_hands):
        talon = deal(state, pool, fixed, need, U0, grading.talon_size, hands)
        leader = randbelow(state, players)
        j, e = pick_bet(rnd, grading, leader, hands[ask], talon)
        bcounts[:] = 0
        bcounts[ask] = 1
        for f in range(3):
            codes[ask, 0, f] = cand[j, f]
        build_relevance(codes, bcounts, game_state)
        out[h, F_BET] = j
        out[h, F_LEADER] = leader
        ev[h] = e
        for k in range(2):
            policy[ask] = RANDOM if k == 0 else GOAL
            work[:] = hands
            ok = _play_one(rnd, leader, policy, work, talon, ask)
            out[h, F_RANDOM + k] = 1 if ok else 0
        policy[ask] = PIMC
        set_round(board, game_state, hands, talon, U0)
        stamps[0] = stamp + np.uint64(1)
        stamps[1] = stamp + np.uint64(2)
        last, nine_lost = pimc_play(players, leader, policy, rnd, pimc)
        settle(codes, bcounts, board, game_state, nine_lost, rnd.result, failed)
        nines = counted_nines(codes, bcounts, hands, empty, leader, nines_mask(n_colours), nines_own)
        out[h, F_PIMC] = 0 if failed[ask] else 1
        policy[ask] = GOAL
        work[:] = hands
        ok_b, _ = solve_bets(work, leader, empty, ctr0, colmask, nines, BetQuestion(codes, bcounts, ask, everyone, U0),
                             solver, stamp + np.uint64(3))
        ok_w = False
        if ok_b:
            ok_w, _ = solve_bets(work, leader, empty, ctr0, colmask, nines,
                                 BetQuestion(codes, bcounts, ask, np.int64(1) << ask, U0), solver, stamp + np.uint64(4))
        out[h, F_WORST] = 1 if ok_w else 0
        out[h, F_BEST] = 1 if ok_b else 0
        stamp += np.uint64(4)
