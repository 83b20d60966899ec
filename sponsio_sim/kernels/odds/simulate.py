"""Odds kernel: conditional deal + trick phase + settlement, many rounds.

One call simulates a batch of chunks in parallel (``prange``); chunk
``first_chunk + i`` draws from random stream ``(seed, first_chunk + i)``, so
the counts do not depend on the thread count. Per chunk it returns counts
in the ``stats_layout`` order: the asking seat's tricks histogram (0..H),
per colour its captured-card histogram (0..9), last, nines, fail per seat
(that seat failed a bet), and the joint success of all the asking seat's
bets. ``flags`` are the rule flags of ``table.FLAGS``.
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.bets import ANY_SEAT, FAIL, nines_won, settle
from sponsio_sim.kernels.bits import RANKS, colour_masks, popcount
from sponsio_sim.kernels.deal import deal
from sponsio_sim.kernels.play.tricks import play_tricks
from sponsio_sim.kernels.play.policies import build_relevance
from sponsio_sim.kernels.table import NINES_OWN, TRICKS, WON, new_state, set_round


def stats_layout(hand_size, n_colours, players):
    """Offsets of each statistic in the kernel's count vector."""
    colour = hand_size + 1
    last = colour + n_colours * (RANKS + 1)
    nines = last + 1
    fail = nines + 1                # + target seat; + players for ``fail`` (any seat)
    joint = fail + players + 1
    return {"tricks": 0, "colour": colour, "last": last, "nines": nines, "fail": fail,
            "joint": joint, "size": joint + 1}


@nb.njit(parallel=True, cache=True)
def odds_chunks(seed, first_chunk, counts, pool, fixed, need, talon_fixed, talon_need, revealed,
                leader, policy, codes, bcounts, ask, n_colours, hand_size, flags):
    """Simulate ``counts[i]`` rounds for each chunk; return per-chunk counts."""
    players = fixed.shape[0]
    n_stats = hand_size + 1 + n_colours * (RANKS + 1) + 4 + players
    out = np.zeros((counts.shape[0], n_stats), dtype=np.int64)
    for i in nb.prange(counts.shape[0]):
        odds_chunk(seed, first_chunk + i, counts[i], pool, fixed, need, talon_fixed, talon_need, revealed,
                   leader, policy, codes, bcounts, ask, n_colours, hand_size, flags, out[i])
    return out


@nb.njit(cache=True)
def odds_chunk(seed, stream, rounds, pool, fixed, need, talon_fixed, talon_need, revealed,
               leader, policy, codes, bcounts, ask, n_colours, hand_size, flags, row):
    """One chunk: ``rounds`` rounds from random stream ``(seed, stream)``, counted into ``row``."""
    players = fixed.shape[0]
    colour0 = hand_size + 1
    last_i = colour0 + n_colours * (RANKS + 1)
    fail0 = last_i + 2
    joint_i = fail0 + players + 1
    colmask = colour_masks(n_colours)
    state = np.empty(4, dtype=np.uint64)
    seed_state(seed, stream, state)
    my_pool = pool.copy()
    hands = np.empty(players, dtype=np.uint64)
    tab, ints, weight = new_state(n_colours, flags)
    nines_own = (flags & NINES_OWN) != 0
    build_relevance(codes, bcounts, ints)
    tricks = ints[TRICKS:TRICKS + players]
    won = tab[WON:WON + players]
    result = np.zeros((players, codes.shape[1]), dtype=np.int64)
    failed = np.zeros(players, dtype=np.bool_)
    for _ in range(rounds):
        talon = deal(state, my_pool, fixed, need, talon_fixed, talon_need, hands)
        set_round(tab, ints, hands, talon, revealed)
        last, nine_lost = play_tricks(players, leader, policy, tab, ints, weight, state, None)
        mine = won[ask]
        row[tricks[ask]] += 1
        for col in range(n_colours):
            row[colour0 + col * (RANKS + 1) + popcount(mine & colmask[col])] += 1
        if last == ask:
            row[last_i] += 1
        if nines_won(ask, nine_lost, nines_own):
            row[last_i + 1] += 1
        settle(codes, bcounts, tricks, won, last, nine_lost, nines_own, colmask, result, failed)
        count_fail_bets(codes, bcounts, ask, result, failed, row[fail0:joint_i])
        if bcounts[ask] > 0 and not failed[ask]:
            row[joint_i] += 1


@nb.njit(cache=True, inline="always")
def count_fail_bets(codes, bcounts, ask, result, failed, out):
    """Successes of a fail bet of ``ask`` on each target (``out[t]``; ``out[players]``:
    any other seat): the held bet's own result, else whether the target failed."""
    players = bcounts.shape[0]
    held = -2
    for i in range(bcounts[ask]):
        if codes[ask, i, 0] == FAIL:
            held = codes[ask, i, 1]
            if result[ask, i]:
                out[held if held >= 0 else players] += 1
    any_failed = False
    for t in range(players):
        if t != ask and bcounts[t] > 0 and failed[t]:
            any_failed = True
            if t != held:
                out[t] += 1
    if any_failed and held != ANY_SEAT:
        out[players] += 1
