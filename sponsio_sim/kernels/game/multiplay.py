"""Several plays of the same games: common random numbers across line-ups and rule sets.

A *play* is a line-up under a rule set, packed by ``analysis.game.setup.build_state``
(every play of a run has the same deal shape and success model, so the packed arrays
stack). Each game of a chunk is played once per play from the same random streams
(``engine.round_stream``): the plays deal the same cards in every round they both
reach and, in a field, draw the same members (``kernels.field``), so per-game
differences between plays are paired. Per play, the row gets the standard
statistics (``kernels.layout``: exactly what a tournament of that play and seed sums);
per game, every play's vector of game measures (``kernels.layout.GAME_MEASURES``, then
each seat's win share) goes side by side into one vector whose sums and outer
products (``tabletop_mc.moments``) give the analysis layer the mean and 95 %
interval of any paired difference or ratio.
"""

import numba as nb
import numpy as np

from tabletop_mc.spans import each_span
from tabletop_mc.moments import add_moments
from sponsio_sim.bet_kinds import N_KINDS
from sponsio_sim.kernels.contexts import on_state
from sponsio_sim.kernels.game.engine import game_round, play_game
from sponsio_sim.kernels.game.exploit import entry_result
from sponsio_sim.kernels.layout import (ENTRY_STATS, GAME, GAME_MEASURES, MONEY, MONEY_RULES, RULES,
                                        SEAT_SHARE_MEASURES, STATS_HEAD)
from sponsio_sim.kernels.rulebook import attach, money_rules_of, rules_of
from sponsio_sim.kernels.game.record import record_game
from sponsio_sim.kernels.game.log import no_log

# per-entry sums read before and after a game: troll rounds, payouts, troll pay, bonus rounds,
# cash-in coins, stakes, bets per kind
_SUMMED = (ENTRY_STATS.troll_rounds, ENTRY_STATS.payout, ENTRY_STATS.troll_pay, ENTRY_STATS.bonus_rounds,
           ENTRY_STATS.cash, ENTRY_STATS.stakes)
N_SUMMED = len(_SUMMED) + N_KINDS


def measures_size(players):
    """Game measures per play (``GAME_MEASURES``, then each seat's win share)."""
    return SEAT_SHARE_MEASURES + players


@nb.njit(cache=True)
def entry_sums(game_state, stats, out):
    """The per-round statistics of every entry summed (``_SUMMED``, then bets per kind)."""
    rules = rules_of(game_state)
    for f in range(N_SUMMED):
        out[f] = 0.0
    for e in range(rules[RULES.entries]):
        b = STATS_HEAD.size + e * ENTRY_STATS.size
        out[0] += stats[b + ENTRY_STATS.troll_rounds]
        out[1] += stats[b + ENTRY_STATS.payout]
        out[2] += stats[b + ENTRY_STATS.troll_pay]
        out[3] += stats[b + ENTRY_STATS.bonus_rounds]
        out[4] += stats[b + ENTRY_STATS.cash]
        out[5] += stats[b + ENTRY_STATS.stakes]
        for k in range(N_KINDS):
            out[6 + k] += stats[b + ENTRY_STATS.bets + k]


@nb.njit(cache=True)
def game_measures(reason, winners, focal, game_state, money, stats, before, after, x):
    """Fill ``x`` (``GAME_MEASURES``, then each seat's win share) for the game just played and recorded into ``stats``;
    ``before`` holds ``entry_sums`` from before the game (it is updated)."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    players = rules[RULES.players]
    entry_sums(game_state, stats, after)
    for f in range(N_SUMMED):
        d = after[f] - before[f]
        before[f] = after[f]
        after[f] = d
    x[GAME_MEASURES.rounds] = game_state[GAME.round]
    x[GAME_MEASURES.troll_seat_rounds] = after[0]
    x[GAME_MEASURES.lead_changes] = game_state[GAME.lead_changes]
    x[GAME_MEASURES.comeback] = 1.0 if winners & game_state[GAME.last_after_round1] else 0.0
    for r in range(3):
        x[GAME_MEASURES.ended + r] = 1.0 if reason == r + 1 else 0.0
    x[GAME_MEASURES.payout] = after[1]
    x[GAME_MEASURES.troll_pay] = after[2]
    x[GAME_MEASURES.bonus] = after[3] * money_rules[MONEY_RULES.bonus]
    x[GAME_MEASURES.cash] = after[4]
    x[GAME_MEASURES.stakes] = after[5]
    coins = 0.0
    n_win = 0
    for s in range(players):
        coins += money[MONEY.coins + s]
        n_win += (winners >> s) & 1
    # token fees: the only other way coins leave a seat (start + gains - stakes - fees = final coins)
    x[GAME_MEASURES.fees] = (players * money_rules[MONEY_RULES.start_coins] + after[1] + after[2]
                             + x[GAME_MEASURES.bonus] + after[4] - after[5] - coins)
    share, gained = entry_result(focal, winners, game_state, money)
    x[GAME_MEASURES.focal_share] = share
    x[GAME_MEASURES.focal_coins] = gained
    for k in range(N_KINDS):
        x[GAME_MEASURES.bets + k] = after[6 + k]
    for s in range(players):
        x[SEAT_SHARE_MEASURES + s] = ((winners >> s) & 1) / n_win


@nb.njit(cache=True, inline="always")
def multi_chunk(seed, stream, games, plays, focal, n_stats, n_meas, row, scored, mc_seats):
    """``games`` games of chunk ``stream``, each played by every play (the rows of
    ``plays``, a ``contexts.GameArrays``); ``focal[j]``: the entry whose win share play j
    measures. ``row``: each play's statistics, then the games' moments block."""
    n_plays = plays.board.shape[0]
    board = plays.board.copy()
    game_state = plays.game_state.copy()
    money = plays.money.copy()
    for j in range(n_plays):
        attach(game_state[j], plays.rules[j], plays.money_rules[j])
    rnd = game_round(board[0], game_state[0], money[0], np.empty(4, dtype=np.uint64))
    nolog = no_log()
    nocells = np.zeros(1, dtype=np.float64)
    before = np.zeros((n_plays, N_SUMMED), dtype=np.float64)
    after = np.zeros(N_SUMMED, dtype=np.float64)
    m = n_plays * n_meas
    x = np.zeros(m, dtype=np.float64)
    mom = n_plays * n_stats
    for g in range(games):
        for j in range(n_plays):
            stats = row[j * n_stats:(j + 1) * n_stats]
            reason, winners = play_game(seed, stream, g, on_state(rnd, board[j], game_state[j], money[j]), stats,
                                        nolog, nocells, scored, mc_seats, None)
            record_game(reason, winners, game_state[j], money[j], stats)
            game_measures(reason, winners, focal[j], game_state[j], money[j], stats, before[j], after,
                          x[j * n_meas:(j + 1) * n_meas])
        row[mom] += 1.0
        add_moments(x, row[mom + 1:mom + 1 + m], row[mom + 1 + m:mom + 1 + m + m * m])


def multi_chunks(seed, first_chunk, counts, plays, focal, n_stats, n_meas, width, scored, mc_seats):
    """Per-chunk rows (``multi_chunk``) for chunks ``first_chunk + i`` (on threads: ``tabletop_mc.spans``)."""
    out = np.zeros((counts.shape[0], width), dtype=np.float64)
    each_span(lambda lo, hi: multi_span(seed, first_chunk, counts, lo, hi, plays, focal, n_stats, n_meas, out,
                                        scored, mc_seats), counts.shape[0])
    return out


@nb.njit(cache=True, nogil=True)
def multi_span(seed, first_chunk, counts, lo, hi, plays, focal, n_stats, n_meas, out, scored, mc_seats):
    """Chunks ``lo..hi-1`` of ``multi_chunks``."""
    for i in range(lo, hi):
        multi_chunk(seed, first_chunk + i, counts[i], plays, focal, n_stats, n_meas, out[i], scored, mc_seats)


multi_chunks.kernel = multi_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)
