"""PIMC play: a seat that samples the hidden cards and asks the DD solver.

At each of its decisions the ``pimc`` seat draws ``worlds`` layouts of the
cards it cannot see, consistent with everything public (its own hand, the
talon, revealed cards and who holds them, cards played, voids shown in
play), and for each legal card asks in each world whether it still makes
all its bets against every other seat (worst case). It plays the card that
succeeds in the most worlds; when no card succeeds in any world it counts
best-case successes instead (the card most likely to leave a chance);
remaining ties go to the cheapest card (lowest rank, then lowest id).
Cards adjacent among the cards still in hands are one choice.

``pimc_play`` runs the trick loop of ``play.play_tricks`` with this
seat's choice as the hook; other seats play through the shared policies.
"""

from collections import namedtuple

import numba as nb
import numpy as np
from numba.extending import overload

from tabletop_mc.rng import randbelow
from sponsio_sim.kernels.bits import RANKS, U0, U1, bit, highest, lowest, popcount
from sponsio_sim.kernels.bets import counted_nines, nine_bettors
from sponsio_sim.kernels.dd.context import BetQuestion
from sponsio_sim.kernels.dd.solve import solve_bets
from sponsio_sim.kernels.dd.core import tally_layout
from sponsio_sim.kernels.play.tricks import HOOKED, choose_hooked, play_tricks
from sponsio_sim.kernels.layout import BOARD, TRICK_STATE
from sponsio_sim.kernels.rulebook import nines_own

PIMC = HOOKED
# What the pimc seat's hook needs besides the public state.
# ``solver``: a ``dd.context.Workspace``; ``stamps``: (worst-case, best-case) table stamps;
# the rest is scratch: the solver's counters, the trick so far, a card pool, a world, the candidates' scores.
PimcCtx = namedtuple("PimcCtx", ["codes", "bcounts", "worlds", "n_colours", "solver", "stamps", "ctr", "trick",
                                 "pool", "world", "score"])
_REJECT_TRIES = 200


@nb.njit(cache=True)
def sample_world(s, players, board, game_state, state, pool, out):
    """Fill ``out`` with one layout of the hands seat s cannot see.

    Uniform over layouts respecting voids (rejection); if 200 tries fail,
    cards of the colours some seat is void in are placed first, each into a
    random free slot of a seat that may hold it (close to uniform)."""
    revealed = board[BOARD.revealed]
    n = np.int64(0)
    for t in range(players):
        if t == s:
            continue
        m = board[BOARD.hands + t] & ~revealed
        while m != U0:
            pool[n] = lowest(m)
            m &= m - U1
            n += 1
    for attempt in range(_REJECT_TRIES + 1):
        for i in range(n - 1):
            j = i + randbelow(state, n - i)
            x = pool[i]
            pool[i] = pool[j]
            pool[j] = x
        if attempt == _REJECT_TRIES:
            _constrained_order(s, players, board, game_state, state, pool, n)
        pos = 0
        ok = True
        for t in range(players):
            h = board[BOARD.hands + t]
            if t == s:
                out[t] = h
                continue
            w = h & revealed
            for _ in range(popcount(h & ~revealed)):
                c = pool[pos]
                pos += 1
                if (game_state[TRICK_STATE.void + t] >> (c // RANKS)) & 1:
                    ok = False
                w |= bit(c)
            out[t] = w
        if ok:
            return


@nb.njit(cache=True)
def _constrained_order(s, players, board, game_state, state, pool, n):
    """Reorder ``pool`` so that dealing it seat by seat respects voids."""
    revealed = board[BOARD.revealed]
    free = np.zeros(players, dtype=np.int64)
    for t in range(players):
        if t != s:
            free[t] = popcount(board[BOARD.hands + t] & ~revealed)
    seat_of = np.full(n, -1, dtype=np.int64)
    for phase in range(2):
        for i in range(n):
            col = pool[i] // RANKS
            restricted = False
            for t in range(players):
                if t != s and (game_state[TRICK_STATE.void + t] >> col) & 1:
                    restricted = True
            if (phase == 0) != restricted or seat_of[i] >= 0:
                continue
            slots = 0
            for t in range(players):
                if t != s and not (game_state[TRICK_STATE.void + t] >> col) & 1:
                    slots += free[t]
            if slots == 0:
                continue
            k = randbelow(state, slots)
            for t in range(players):
                if t != s and not (game_state[TRICK_STATE.void + t] >> col) & 1:
                    if k < free[t]:
                        seat_of[i] = t
                        free[t] -= 1
                        break
                    k -= free[t]
    order = pool[:n].copy()
    pos = 0
    for t in range(players):
        for i in range(n):
            if seat_of[i] == t:
                pool[pos] = order[i]
                pos += 1
    for i in range(n):
        if seat_of[i] < 0:
            pool[pos] = order[i]
            pos += 1


@nb.njit(cache=True, inline="always")
def pimc_choose(ctx, s, legal, leader, n_trick, best, board, game_state, state):
    """The pimc seat's card (see module docstring). ``ctx.trick[:n_trick]``
    are the cards already in the trick, ``ctx.ctr`` the solver's counters so
    far (``PimcCtx``)."""
    codes, bcounts, worlds, n_colours, score = ctx.codes, ctx.bcounts, ctx.worlds, ctx.n_colours, ctx.score
    players = bcounts.shape[0]
    colmask = board[BOARD.colour_masks:BOARD.colour_masks + n_colours].copy()
    own9 = nines_own(game_state)
    in_play = U0
    for t in range(players):
        in_play |= board[BOARD.hands + t]
    if n_trick > 0:
        in_play |= bit(best)
    # one candidate per class of cards adjacent among the cards in play
    n = 0
    m = legal
    while m != U0:
        c = lowest(m)
        m &= m - U1
        cm = board[BOARD.colour_masks + c // RANKS]
        below = in_play & cm & (bit(c) - U1)
        if below != U0 and (legal & bit(highest(below))) != U0:
            continue
        score[n, 0] = c
        score[n, 1] = 0
        score[n, 2] = 0
        n += 1
    if n == 1:
        return score[0, 0]
    tr = ctx.trick[:n_trick]
    everyone = (np.int64(1) << players) - 1
    # A card whose count cannot reach the leader's with the worlds left is
    # never picked: it is not solved any more (same choice, fewer solves).
    top = 0
    for q in range(2):  # worst case; best case only if no card succeeds in any world
        if q == 1 and top > 0:
            break
        maxside = np.int64(1) << s if q == 0 else everyone
        for i in range(worlds):
            sample_world(s, players, board, game_state, state, ctx.pool, ctx.world)
            nines = counted_nines(codes, bcounts, ctx.world, tr, leader, board[BOARD.nine_cards], own9)
            for k in range(n):
                if score[k, 1 + q] + worlds - i < top:
                    continue
                ok, _ = solve_bets(ctx.world, leader, tr, ctx.ctr, colmask, nines,
                                   BetQuestion(codes, bcounts, s, maxside, bit(score[k, 0])), ctx.solver, ctx.stamps[q])
                if ok:
                    score[k, 1 + q] += 1
                    top = max(top, score[k, 1 + q])
    pick = 0
    for k in range(1, n):
        if _better(score[k, 1], score[k, 2], score[k, 0], score[pick, 1], score[pick, 2], score[pick, 0]):
            pick = k
    return score[pick, 0]


@nb.njit(cache=True, inline="always")
def _better(w1, b1, c1, w2, b2, c2):
    """More worst-case wins, then more best-case wins, then the cheaper card."""
    if w1 != w2:
        return w1 > w2
    if b1 != b2:
        return b1 > b2
    if c1 % RANKS != c2 % RANKS:
        return c1 % RANKS < c2 % RANKS
    return c1 < c2


@nb.njit(cache=True, inline="always")
def trick_counters(ctr, players, n_colours, codes, bcounts, nine_lost, board, game_state):
    """The solver's ``tally`` row (``dd.core.tally_layout``) for the trick phase so
    far, from the public state ``play_tricks`` keeps: tricks and cards of
    each colour won, whether the 9s the nines bets judge are all still
    unbeaten (``nine_lost``: the seats whose 9 lost a trick) and the first
    trick's winner; the last trick is not decided yet."""
    cc0, nok, last_i, first_i, _ = tally_layout(players, n_colours)
    tricks_done = 0
    for q in range(players):
        ctr[q] = game_state[TRICK_STATE.tricks_won + q]
        tricks_done += ctr[q]
        for col in range(n_colours):
            ctr[cc0 + q * n_colours + col] = popcount(board[BOARD.won + q] & board[BOARD.colour_masks + col])
    if nines_own(game_state):   # only the nines bettors' own 9s count
        nine_lost &= nine_bettors(codes, bcounts)
    ctr[nok] = 1 if nine_lost == 0 else 0
    ctr[last_i] = -1
    ctr[first_i] = game_state[TRICK_STATE.winners] if tricks_done > 0 else -1


@nb.njit(cache=True, inline="always")
def _pimc_hook(ctx, s, legal, trick, order, nine_lost, board, game_state, state):
    """``play.play_tricks``'s hook: the solver's counters and the
    trick so far from the public state, then ``pimc_choose``."""
    cards = ctx.trick
    trick_counters(ctx.ctr, ctx.bcounts.shape[0], ctx.n_colours, ctx.codes, ctx.bcounts, nine_lost, board,
                   game_state)
    for j in range(trick.pos):
        cards[j] = np.int64((order >> np.uint64(6 * j)) & np.uint64(63))
    return pimc_choose(ctx, s, legal, trick.leader, trick.pos, trick.best, board, game_state, state)


@overload(choose_hooked, jit_options={"cache": True})
def _choose_hooked_pimc(ctx, s, legal, trick, order, nine_lost, board, game_state, state):
    if getattr(ctx, "instance_class", None) is PimcCtx:
        def impl(ctx, s, legal, trick, order, nine_lost, board, game_state, state):
            return _pimc_hook(ctx, s, legal, trick, order, nine_lost, board, game_state, state)
        return impl
    return None


@nb.njit(cache=True)
def pimc_context(codes, bcounts, worlds, n_colours, solver, stamps):
    """The hook's context for ``play.play_tricks`` (``PimcCtx``): the bets,
    ``worlds`` layouts per decision, a solver workspace (``dd.context.Workspace``),
    the stamps and scratch (every decision overwrites what it reads, so one
    context serves any number of rounds)."""
    players = bcounts.shape[0]
    width = tally_layout(players, n_colours)[4]
    return PimcCtx(codes, bcounts, worlds, n_colours, solver, stamps, np.zeros(width, dtype=np.int64),
                   np.zeros(players, dtype=np.int64), np.zeros(n_colours * RANKS, dtype=np.int64),
                   np.zeros(players, dtype=np.uint64), np.zeros((n_colours * RANKS, 3), dtype=np.int64))


@nb.njit(cache=True)
def pimc_play(players, leader, policy, rnd, ctx):
    """Play every trick of the deal loaded in ``rnd`` (a ``contexts.TrickRound``)
    like ``play.play_tricks``; seats with policy PIMC decide with ``pimc_choose``
    from ``ctx`` (``pimc_context``). Returns ``(last_trick_winner, nine_lost)``
    as ``play.play_tricks``."""
    return play_tricks(players, leader, policy, rnd.board, rnd.game_state, rnd.money, rnd.rng, ctx, None)
