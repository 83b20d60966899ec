"""The full game (spec 2, 3, 6, 7): rounds of betting, tricks and scoring
until one of the three end conditions, many games per chunk.

State lives in the packed arrays of ``game_layout`` (built once per run by
``analysis.game_setup``); each chunk copies them, plays every round
from its own stream ``(seed, chunk, game, round)`` and adds its games'
statistics (``game_layout.E_*``) to its row, so totals do not depend on the
thread count, and runs that differ in one seat's strategy share their
deals. A chunk given a log array with more than one row also writes every event (``game_layout.EV_*``) there:
the narrated game is the same code path as the tournament.
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.bets import BET_FIELDS
from sponsio_sim.kernels.betting import (actor, apply_action, apply_end_token, betting_steps, end_token, leader_of)
from sponsio_sim.kernels.betting_mc import choose_mc, choose_mc_end, is_mc
from sponsio_sim.kernels.betting_model import prepare_features, row_cell
from sponsio_sim.kernels.betting_policies import choose_action, choose_end_token
from sponsio_sim.kernels.bits import RANKS, popcount
from sponsio_sim.kernels.deal import deal
from sponsio_sim.kernels.game_layout import (END_COINS, END_ROUNDS, END_TRACK, EV_ACTION, EV_BET, EV_END,
                                             EV_END_TOKEN, EV_HAND, EV_LEAD, EV_ROUND, EV_SCORE, EV_TALON, EV_TRACK,
                                             EV_TRICK, EV_TRICKS, I_BROW, I_DEALER, I_DOUBLED, I_ENTRY, I_HAND,
                                             I_HELD, I_LAST_R1, I_LEADCH, I_LEADERS, I_MAX_ROUNDS, I_MOVED, I_NBETS,
                                             I_NCOL, I_NPLACED, I_PCELL, I_PLAYERS, I_RESULT, I_ROTATE, I_ROUND,
                                             I_SWAPS, I_TOKOWN, I_TOKTAKEN, I_TRACK, I_TRACK_ENDS, I_TRACK_WIN,
                                             MAX_BETS, N_TOKENS, W_BONUSPAID, W_CASHED, W_COINS, W_COINS_END,
                                             W_FEES, W_MODEL, W_PAYOUT, W_PRED, W_STAKES, W_START, W_TROLLPAID)
from sponsio_sim.kernels.game_record import record_game, record_round, track_standings
from sponsio_sim.kernels.scoring import play_out
from sponsio_sim.kernels.table import HANDS, REVEALED, SEQ, TALON, TRICKS, WON


@nb.njit(cache=True)
def log_event(log, rnd, ev, seat, a, b, c, d, e):
    """Append one event; row 0 holds the count (a 1-row log records nothing)."""
    n = np.int64(log[0, 0]) + 1
    if log.shape[0] <= 1 or n >= log.shape[0]:
        return
    log[0, 0] = n
    log[n, 0] = rnd
    log[n, 1] = ev
    log[n, 2] = seat
    log[n, 3] = a
    log[n, 4] = b
    log[n, 5] = c
    log[n, 6] = d
    log[n, 7] = e


@nb.njit(cache=True)
def start_game(g, ints, weight):
    """Coins, track and seat order for game ``g`` of a chunk; dealer = last seat."""
    players = ints[I_PLAYERS]
    for s in range(players):
        ints[I_ENTRY + s] = (s + g) % players if ints[I_ROTATE] else s
        weight[W_COINS + s] = weight[W_START]
        ints[I_TRACK + s] = 0
    ints[I_ROUND] = 0
    ints[I_DEALER] = players - 1
    ints[I_LEADERS] = 0
    ints[I_LAST_R1] = 0
    ints[I_LEADCH] = 0


@nb.njit(cache=True)
def start_round(tab, ints, weight):
    """Clear the round's tokens, bets, swaps and ledger."""
    for t in range(N_TOKENS):
        ints[I_TOKOWN + t] = -1
    ints[I_NPLACED] = 0
    for s in range(ints[I_PLAYERS]):
        ints[I_NBETS + s] = 0
        ints[I_HELD + s] = 0
        ints[I_DOUBLED + s] = -1
        ints[I_SWAPS + s] = 0
        for t in range(N_TOKENS):
            ints[I_TOKTAKEN + s * N_TOKENS + t] = 0
        for f in (W_STAKES, W_FEES, W_PAYOUT, W_TROLLPAID, W_BONUSPAID, W_CASHED):
            weight[f + s] = 0.0
    tab[REVEALED] = 0


@nb.njit(cache=True)
def betting_phase(tab, ints, weight, state, log):
    """Spec 2: ``turns`` turns, each seat acting once from left of the dealer;
    then the swap, rebet and double tokens take effect (spec 3)."""
    players = ints[I_PLAYERS]
    rnd = ints[I_ROUND] + 1
    n_bet = betting_steps(ints)
    for k in range(n_bet):
        s = actor(k, ints)
        if is_mc(s, ints):
            act, x, y, rv = choose_mc(k, s, tab, ints, weight, state)
        else:
            act, x, y, rv = choose_action(s, tab, ints, weight, state)
        if not apply_action(s, act, x, y, rv, tab, ints, weight):
            act, x, y, rv = 0, -1, -1, -1  # pragma: no cover - policies only choose legal actions
        log_event(log, rnd, EV_ACTION, s, k // players, act, x, y, rv)
    for j in range(3):
        t = end_token(j)
        s = ints[I_TOKOWN + t]
        if s < 0:
            continue
        if is_mc(s, ints):
            x, y = choose_mc_end(j, s, tab, ints, weight, state)
        else:
            x, y = choose_end_token(s, t, tab, ints, weight, state)
        if apply_end_token(s, t, x, y, tab, ints):
            log_event(log, rnd, EV_END_TOKEN, s, t, x, y, 0, 0)


@nb.njit(cache=True)
def predict_bets(tab, ints, weight):
    """The success model's P of every bet held when betting ends (any policy),
    so tournaments can set the model against what happens in real games."""
    for s in range(ints[I_PLAYERS]):
        if ints[I_NBETS + s] == 0:
            continue
        prepare_features(tab[HANDS + s], tab[TALON], leader_of(ints) == s, tab, ints)
        for i in range(ints[I_NBETS + s]):
            cell = row_cell(ints[I_BROW + s * MAX_BETS + i], s, ints)
            ints[I_PCELL + s * MAX_BETS + i] = cell - W_MODEL
            weight[W_PRED + s * MAX_BETS + i] = weight[cell]


@nb.njit(cache=True)
def end_check(ints, weight):
    """Spec 7, in priority order: (reason, bitmask of winners) or (0, 0).
    A track end is won by the richest player on the top position, or of
    all players under ``track_top = ends``."""
    players = ints[I_PLAYERS]
    cand = 0
    for s in range(players):
        if ints[I_TRACK + s] >= ints[I_TRACK_WIN]:
            cand |= 1 << s
    reason = END_TRACK if cand else 0
    if cand and ints[I_TRACK_ENDS]:
        cand = (1 << players) - 1
    if reason == 0:
        for s in range(players):
            if weight[W_COINS + s] >= weight[W_COINS_END]:
                reason = END_COINS
        if reason == 0 and ints[I_ROUND] >= ints[I_MAX_ROUNDS]:
            reason = END_ROUNDS
        if reason == 0:
            return 0, 0
        cand = (1 << players) - 1
    best = -1e300
    for s in range(players):
        if (cand >> s) & 1 and weight[W_COINS + s] > best:
            best = weight[W_COINS + s]
    winners = 0
    for s in range(players):
        if (cand >> s) & 1 and weight[W_COINS + s] == best:
            winners |= 1 << s
    return reason, winners


@nb.njit(cache=True)
def play_round(tab, ints, weight, state, pool, fixed, need, hands, codes, counts, result, failed, playpol,
               row, log):
    """Deal, bet, play and score one round; then rotate the dealer.
    Returns (end reason, winners) of the end check after scoring."""
    players = ints[I_PLAYERS]
    rnd = ints[I_ROUND] + 1
    talon = deal(state, pool, fixed, need, np.uint64(0), pool.shape[0] - players * ints[I_HAND], hands)
    start_round(tab, ints, weight)
    for s in range(players):
        tab[HANDS + s] = hands[s]
    tab[TALON] = talon
    if log.shape[0] > 1:
        log_event(log, rnd, EV_ROUND, ints[I_DEALER], leader_of(ints), 0, 0, 0, 0)
        for s in range(players):
            log_event(log, rnd, EV_HAND, s, hands[s], weight[W_COINS + s], ints[I_TRACK + s], 0, 0)
        log_event(log, rnd, EV_TALON, -1, talon, 0, 0, 0, 0)
    betting_phase(tab, ints, weight, state, log)
    predict_bets(tab, ints, weight)
    log_event(log, rnd, EV_LEAD, leader_of(ints), tab[REVEALED], tab[TALON], 0, 0, 0)
    leader, last, nine_lost, n_failed = play_out(tab, ints, weight, state, hands, codes, counts, result,
                                                 failed, playpol)
    ints[I_ROUND] = rnd
    record_round(ints, weight, n_failed, row)
    track_standings(ints, weight)
    if log.shape[0] > 1:
        log_tricks(log, rnd, players, leader, hands, ints)
        for s in range(players):
            log_event(log, rnd, EV_TRICKS, s, ints[TRICKS + s], tab[WON + s], 1 if last == s else 0,
                      1 if (nine_lost >> s) & 1 == 0 else 0, 1 if nine_lost == 0 else 0)
        for s in range(players):
            for i in range(counts[s]):
                log_event(log, rnd, EV_BET, s, ints[I_BROW + s * MAX_BETS + i], result[s, i],
                          1 if ints[I_DOUBLED + s] == i else 0, 0, 0)
            log_event(log, rnd, EV_SCORE, s, weight[W_PAYOUT + s], weight[W_TROLLPAID + s],
                      weight[W_BONUSPAID + s], weight[W_CASHED + s], weight[W_COINS + s])
            log_event(log, rnd, EV_TRACK, s, ints[I_MOVED + s], ints[I_TRACK + s], weight[W_STAKES + s],
                      weight[W_FEES + s], 0)
    ints[I_DEALER] = (ints[I_DEALER] + 1) % players
    return end_check(ints, weight)


@nb.njit(cache=True)
def log_tricks(log, rnd, players, leader, hands, ints):
    """One ``EV_TRICK`` event per trick from the cards in play order
    (``table.SEQ``) and the hands they came from: seat = leader, a = trick
    number, b = the cards packed 6 bits each from the leader's, c = winner,
    d = bitmask of the seats whose 9 lost the trick."""
    n_tricks = popcount(hands[leader])
    k = 0
    for t in range(n_tricks):
        cards = 0
        led = ints[SEQ + k] // RANKS
        best = -1
        winner = leader
        lost9 = 0
        s = leader
        for pos in range(players):
            c = ints[SEQ + k]
            k += 1
            cards |= c << (6 * pos)
            if c // RANKS == led:
                if c > best:
                    best = c
                    winner = s
            elif c % RANKS == RANKS - 1:
                lost9 |= 1 << s
            s = s + 1 if s + 1 < players else 0
        log_event(log, rnd, EV_TRICK, leader, t, cards, winner, lost9, 0)
        leader = winner


@nb.njit(cache=True)
def round_arrays(ints):
    """A chunk's work arrays: deck pool and deal constraints, hands, bets in
    ``settle``'s form, results, and the seats' play policies."""
    players = ints[I_PLAYERS]
    pool = np.arange(ints[I_NCOL] * RANKS).astype(np.int64)
    fixed = np.zeros(players, dtype=np.uint64)
    need = np.full(players, ints[I_HAND], dtype=np.int64)
    hands = np.zeros(players, dtype=np.uint64)
    codes = np.zeros((players, MAX_BETS, BET_FIELDS), dtype=np.int64)
    counts = np.zeros(players, dtype=np.int64)
    result = np.zeros((players, MAX_BETS), dtype=np.int64)
    failed = np.zeros(players, dtype=np.bool_)
    playpol = np.zeros(players, dtype=np.int64)
    return pool, fixed, need, hands, codes, counts, result, failed, playpol


@nb.njit(cache=True)
def game_chunk(seed, stream, games, tab0, ints0, weight0, row, log):
    """Play ``games`` games from random stream ``(seed, stream)``; statistics into ``row``."""
    tab = tab0.copy()
    ints = ints0.copy()
    weight = weight0.copy()
    state = np.empty(4, dtype=np.uint64)
    pool, fixed, need, hands, codes, counts, result, failed, playpol = round_arrays(ints)
    nocells = np.zeros(1, dtype=np.float64)
    for g in range(games):
        reason, winners = play_game(seed, stream, g, tab, ints, weight, state, pool, fixed, need, hands,
                                    codes, counts, result, failed, playpol, row, log, nocells)
        record_game(reason, winners, ints, weight, row)
        log_event(log, ints[I_ROUND], EV_END, -1, reason, winners, 0, 0, 0)


@nb.njit(cache=True, inline="always")
def round_stream(chunk, g, rnd):
    """Random stream of round ``rnd`` of game ``g`` of chunk ``chunk``: every
    round draws from its own stream, so two runs of the same seed that differ
    in one seat's strategy deal the same cards in every round both reach
    (common random numbers, ``kernels.exploit``)."""
    return (np.int64(chunk) << np.int64(32)) | (np.int64(g) << np.int64(16)) | np.int64(rnd)


@nb.njit(cache=True)
def play_game(seed, chunk, g, tab, ints, weight, state, pool, fixed, need, hands, codes, counts, result,
              failed, playpol, row, log, cells):
    """Game ``g`` of chunk ``chunk``, every round from its own stream; returns (end reason, winners).
    A ``cells`` array longer than 1 counts every bet held when betting ended by
    its model cell: ``cells[2 * cell]`` += 1, ``cells[2 * cell + 1]`` += won
    (the on-policy fit, ``game_fit.onpolicy_chunks``)."""
    start_game(g, ints, weight)
    reason, winners = 0, 0
    while reason == 0:
        seed_state(seed, round_stream(chunk, g, ints[I_ROUND]), state)
        for i in range(pool.shape[0]):  # the deal shuffles the pool in place: start each round afresh
            pool[i] = i
        reason, winners = play_round(tab, ints, weight, state, pool, fixed, need, hands, codes, counts,
                                     result, failed, playpol, row, log)
        if cells.shape[0] > 1:
            for s in range(ints[I_PLAYERS]):
                for i in range(ints[I_NBETS + s]):
                    c = ints[I_PCELL + s * MAX_BETS + i]
                    cells[2 * c] += 1.0
                    cells[2 * c + 1] += ints[I_RESULT + s * MAX_BETS + i]
    return reason, winners


@nb.njit(parallel=True, cache=True)
def game_chunks(seed, first_chunk, counts, tab0, ints0, weight0, n_stats):
    """Per-chunk statistics of ``counts[i]`` games for chunk ``first_chunk + i``."""
    out = np.zeros((counts.shape[0], n_stats), dtype=np.float64)
    for i in nb.prange(counts.shape[0]):
        nolog = np.zeros((1, 8), dtype=np.float64)
        game_chunk(seed, first_chunk + i, counts[i], tab0, ints0, weight0, out[i], nolog)
    return out
