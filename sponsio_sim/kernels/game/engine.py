"""The full game (docs/rules-sponsio.md sections 2, 3, 6, 7): rounds of betting, tricks and scoring
until one of the three end conditions, many games per chunk.

State lives in the packed arrays of ``kernels.layout`` (built once per run by
``analysis.game.setup``); each chunk copies them, plays every round
from its own stream ``(seed, chunk, game, round)`` and adds its games'
statistics (``kernels.layout.ENTRY_STATS``) to its row, so totals do not depend on the
thread count, and runs that differ in one seat's strategy share their
deals. A chunk given a log array with more than one row also writes every event (``kernels.layout.EV_*``) there:
the narrated game is the same code path as the tournament. An ``mc`` seat
on a track position with a value decides whether to cash in by playing the
game out both ways (``mc_cash_ins``), between the round's scoring and its
count (``close_round``).
"""

import numba as nb
import numpy as np

from tabletop_mc.spans import each_span
from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.bets import BET_FIELDS
from sponsio_sim.kernels.betting.phase import (actor, apply_action, apply_end_token, betting_place, betting_steps,
                                               end_token, entry_of, leader_of)
from sponsio_sim.kernels.betting.mc import choose_mc, choose_mc_end, is_mc
from sponsio_sim.kernels.betting.netlabel import record_cash, record_outcome, taught_cash_in
from sponsio_sim.kernels.betting.rollout import RACE_EVERY, load_scratch, race, rollout_key
from sponsio_sim.kernels.betting.model import prepare_features, row_cell
from sponsio_sim.kernels.betting.dispatch import choose_action, scored_in_play
from sponsio_sim.kernels.betting.policies import choose_end_token
from sponsio_sim.kernels.bits import RANKS, popcount
from sponsio_sim.kernels.contexts import GameRollout, GameRound
from sponsio_sim.kernels.deal import deal
from sponsio_sim.kernels.layout import (BOARD, DECISION_RECORD, END_TOKENS, EV_ACTION, EV_END, EV_END_TOKEN, EV_LEAD,
                                        GAME, MAX_BETS, MODEL_START, MONEY, MONEY_RULES, N_TOKENS, PASS, RULES, TRICK_STATE)
from sponsio_sim.kernels.rulebook import copy_game, money_rules_of, rules_of
from sponsio_sim.kernels.field import FIELD_KEY, draw_entries, redraw_others
from sponsio_sim.kernels.game.log import log_deal, log_event, log_scoring, no_log
from sponsio_sim.kernels.game.record import record_game, record_round, track_standings
from sponsio_sim.kernels.betting.scoring import cash_in, end_check, option_share, play_out


@no_refcount
def start_game(g, game_state, money):
    """Coins, track and seat order for game ``g`` of a chunk (a field's draws:
    ``kernels.field.draw_entries``); dealer = last seat."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    players = rules[RULES.players]
    game_state[GAME.focal_seat] = -1
    for s in range(players):
        game_state[GAME.seat_entry + s] = (s + g) % players if rules[RULES.rotate] else s
        money[MONEY.coins + s] = money_rules[MONEY_RULES.start_coins]
        game_state[GAME.track + s] = 0
    game_state[GAME.round] = 0
    game_state[GAME.dealer] = players - 1
    game_state[GAME.leaders] = 0
    game_state[GAME.last_after_round1] = 0
    game_state[GAME.lead_changes] = 0


@no_refcount
def start_round(board, game_state, money):
    """Clear the round's tokens, bets, swaps and ledger."""
    rules = rules_of(game_state)
    for t in range(N_TOKENS):
        game_state[GAME.token_owner + t] = -1
    game_state[GAME.bets_placed] = 0
    game_state[GAME.betting_steps] = 0
    for s in range(rules[RULES.players]):
        game_state[GAME.bet_count + s] = 0
        game_state[GAME.kinds_held + s] = 0
        game_state[GAME.doubled_bet + s] = -1
        game_state[GAME.swaps + s] = 0
        for t in range(N_TOKENS):
            game_state[GAME.token_taken + s * N_TOKENS + t] = 0
        for f in (MONEY.stakes, MONEY.fees, MONEY.payout, MONEY.troll_paid, MONEY.bonus_paid, MONEY.cashed):
            money[f + s] = 0.0
    board[BOARD.revealed] = 0


@nb.njit(cache=True, inline="always")
def betting_phase(board, game_state, money, state, log, scored, mc_seats, labels):
    """docs/rules-sponsio.md section 2: ``turns`` turns, each seat acting once from left of the dealer;
    then the swap, rebet and double tokens take effect (section 3). ``scored``:
    see ``play_game``; ``mc_seats``
    is None when no seat bets by ``mc`` (its search is then compiled out, see
    ``play_game``), else the record ``mc`` seats write their decisions to
    (one row: none recorded; ``betting.mc.record_decision``); ``labels``: see ``play_game``."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    rnd = game_state[GAME.round] + 1
    n_bet = betting_steps(game_state)
    for k in range(n_bet):
        s = actor(k, game_state)
        if mc_seats is not None and is_mc(s, game_state):
            act, x, y, rv = choose_mc(k, s, board, game_state, money, state, mc_seats, labels)
        else:
            act, x, y, rv = choose_action(s, board, game_state, money, state, scored)
        if not apply_action(s, act, x, y, rv, board, game_state, money):
            # never runs: the policies only choose legal actions
            act, x, y, rv = PASS, np.int64(-1), np.int64(-1), np.int64(-1)
        log_event(log, rnd, EV_ACTION, s, k // players, act, x, y, rv)
    for j in range(len(END_TOKENS)):
        t = end_token(j)
        s = game_state[GAME.token_owner + t]
        if s < 0:
            continue
        if mc_seats is not None and is_mc(s, game_state):
            x, y = choose_mc_end(j, s, board, game_state, money, state)
        else:
            x, y = choose_end_token(s, t, board, game_state, money, state, scored)
        if apply_end_token(s, t, x, y, board, game_state):
            log_event(log, rnd, EV_END_TOKEN, s, t, x, y, 0, 0)


@no_refcount
def predict_bets(board, game_state, money):
    """The success model's P of every bet held when betting ends (any policy),
    so tournaments can set the model against what happens in real games."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    for s in range(rules[RULES.players]):
        if game_state[GAME.bet_count + s] == 0:
            continue
        prepare_features(board[BOARD.hands + s], board[BOARD.talon], leader_of(game_state) == s,
                         betting_place(s, game_state), board, game_state)
        for i in range(game_state[GAME.bet_count + s]):
            cell = row_cell(game_state[GAME.bet_row + s * MAX_BETS + i], s, game_state)
            game_state[GAME.bet_cell + s * MAX_BETS + i] = cell - MODEL_START
            money[MONEY.bet_p + s * MAX_BETS + i] = money_rules[cell]


@nb.njit(cache=True, inline="always")
def deal_and_bet(board, game_state, money, state, pool, fixed, need, hands, log, scored, mc_seats, labels):
    """Deal and bet one round (``mc`` seats do not cash in yet:
    ``mc_cash_ins``): the arrays of a ``contexts.GameRound``, passed one by
    one, as to ``play_out``, which plays and scores the round after it (see
    ``play_game``)."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    rnd_no = game_state[GAME.round] + 1
    talon = deal(state, pool, fixed, need, np.uint64(0), pool.shape[0] - players * rules[RULES.hand_size], hands)
    start_round(board, game_state, money)
    for s in range(players):
        board[BOARD.hands + s] = hands[s]
    board[BOARD.talon] = talon
    if log.shape[0] > 1:
        log_deal(log, rnd_no, hands, talon, board, game_state, money)
    betting_phase(board, game_state, money, state, log, scored, mc_seats, labels)
    predict_bets(board, game_state, money)
    log_event(log, rnd_no, EV_LEAD, leader_of(game_state), board[BOARD.revealed], board[BOARD.talon], 0, 0, 0)


@no_refcount
def close_round(leader, last, nine_lost, n_failed, rnd, row, log):
    """Count the round played in ``rnd`` (statistics into ``row``, narration
    into ``log``), rotate the dealer and check the end: (end reason, winners)."""
    game_state, money = rnd.game_state, rnd.money
    rules = rules_of(game_state)
    players = rules[RULES.players]
    rnd_no = game_state[GAME.round] + 1
    game_state[GAME.round] = rnd_no
    record_round(game_state, money, n_failed, row)
    track_standings(game_state, money)
    if log.shape[0] > 1:
        log_scoring(log, rnd_no, leader, last, nine_lost, rnd)
    game_state[GAME.dealer] = (game_state[GAME.dealer] + 1) % players
    return end_check(game_state, money)


@nb.njit(cache=True)
def rollout_game(s, cash, key, r, board, game_state, money, work):
    """From the end of a round's scoring, seat s cashes in now (``cash``) or
    not and the game is played to its end in rollout r (streams from ``key``)
    by every seat's own policy (``mc`` seats by their rollout policy,
    ``RULES.mc_self_policy``, and their cashK), in ``work`` (a ``contexts.GameRollout``);
    returns seat s's win share (1/k of a k-way shared win). No seat searches here, so the
    round is compiled without the ``mc`` search (``mc_seats`` None, see ``play_game``) and
    with the scored policies (an ``mc`` seat's rollout policy may be one), one copy for every
    caller."""
    rules = rules_of(game_state)
    rnd, row2, nolog = work.scratch, work.row, work.log
    tab2, ints2, w2, rs = rnd.board, rnd.game_state, rnd.money, rnd.rng
    pool, fixed, need, hands = rnd.pool, rnd.fixed, rnd.need, rnd.hands
    codes, counts, result, failed, playpol = rnd.codes, rnd.counts, rnd.result, rnd.failed, rnd.playpol
    load_scratch(board, game_state, money, tab2, ints2, w2)
    if rules[RULES.field]:
        seed_state(key ^ FIELD_KEY, np.uint64(r), rs)
        redraw_others(s, ints2, w2, rs)
    if cash:
        cash_in(s, ints2[GAME.track + s], ints2, w2)
        ints2[GAME.track + s] = 0
    zero = np.int64(0)   # the round is scored: what it passes only feeds the rollout's scratch statistics
    reason, winners = close_round(zero, zero, zero, zero, rnd, row2, nolog)
    k = 0
    while reason == 0:
        round_start(key, np.uint64((r << 16) | k), rs, pool)
        # every mc entry bets by its rollout policy here (load_scratch): no mc search is compiled in
        deal_and_bet(tab2, ints2, w2, rs, pool, fixed, need, hands, nolog, np.bool_(True), None, None)
        leader, last, nine_lost, n_failed = play_out(tab2, ints2, w2, rs, hands, codes, counts, result, failed,
                                                     playpol)
        reason, winners = close_round(leader, last, nine_lost, n_failed, rnd, row2, nolog)
        k += 1
    game_state[GAME.mc_rollouts_run] += 1
    return 1.0 / popcount(np.uint64(winners)) if (winners >> s) & 1 else 0.0


@nb.njit(cache=True)
def game_rollout(board, game_state, money, row):
    """A ``contexts.GameRollout`` for ``rollout_game`` from a game's state: its
    own copies of the state, a statistics row shaped like ``row`` and no log."""
    return GameRollout(game_round(board.copy(), game_state.copy(), money.copy(), np.empty(4, dtype=np.uint64)),
                       np.zeros_like(row), no_log())


@nb.njit(cache=True)
def mc_cash_ins(board, game_state, money, state, row, labels):
    """Each ``mc`` seat on a track position with a value decides whether to
    cash in by playing the game out up to R times both ways (the same
    streams for both, raced as ``betting.mc.search`` races) and keeping the
    higher mean win share; ties keep the position. An entry with
    ``horizon=net`` (``RULES.mc_leaf``) reads both win shares where the round
    ends instead (``scoring.option_share``: the real one if the game ends
    there, else ``net``'s value head). In a labelling run (``labels``
    not None) every option gets all R rollouts, the positions are
    recorded in ``labels`` (``betting.netlabel``) and the seat decides as the
    taught policy does (its strategy's cash-in: a threshold or ``net``'s value head);
    elsewhere it is None and numba compiles the labelling out (see ``play_game``)."""
    rules = rules_of(game_state)
    label = labels is not None
    for s in range(rules[RULES.players]):
        if not is_mc(s, game_state):
            continue
        pos = game_state[GAME.track + s]
        if 0 < pos < rules[RULES.track_win] and rules[RULES.mc_leaf + entry_of(s, game_state)] and not label:
            # horizon=net: both options valued where the round ends (no rollouts: nothing is left to draw)
            if option_share(s, np.bool_(True), board, game_state, money) > option_share(s, np.bool_(False), board,
                                                                                     game_state, money):
                cash_in(s, pos, game_state, money)
                game_state[GAME.track + s] = 0
        elif 0 < pos < rules[RULES.track_win]:
            work = game_rollout(board, game_state, money, row)
            rollouts = rules[RULES.mc_rollouts + entry_of(s, game_state)]
            key = rollout_key(state) ^ np.uint64(s) ^ np.uint64(rules[RULES.net_label_salt])
            share = np.zeros((2, rollouts), dtype=np.float64)
            alive = np.ones(2, dtype=np.bool_)
            r = np.int64(0)
            while r < rollouts and alive[0] and alive[1]:
                for c in range(2):
                    share[c, r] = rollout_game(s, c == 1, key, r, board, game_state, money, work)
                r += 1
                if r % RACE_EVERY == 0 and r < rollouts and not label:
                    race(share, r, alive)
            game_state[GAME.mc_searches_run] += 1
            if labels is not None:
                record_cash(s, share, r, board, game_state, money, labels)
                cash = taught_cash_in(s, pos, board, game_state, money)
            else:
                cash = alive[1] and share[1, :r].sum() > share[0, :r].sum()
            if cash:
                cash_in(s, pos, game_state, money)
                game_state[GAME.track + s] = 0
        if labels is not None:
            record_outcome(s, board, game_state, money, labels)


@no_refcount
def round_start(seed, stream, state, pool):
    """A round's random stream, and the deck pool back in card order (the deal
    shuffles it in place), so a round's deal depends on its stream alone."""
    seed_state(seed, stream, state)
    for i in range(pool.shape[0]):
        pool[i] = i


@nb.njit(cache=True)
def game_round(board, game_state, money, rng):
    """A ``contexts.GameRound`` over the given state and random stream, with a
    chunk's work arrays: deck pool and deal constraints, hands, bets in
    ``settle``'s form, results, and the seats' play policies."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    pool = np.arange(rules[RULES.colours] * RANKS).astype(np.int64)
    fixed = np.zeros(players, dtype=np.uint64)
    need = np.full(players, rules[RULES.hand_size], dtype=np.int64)
    hands = np.zeros(players, dtype=np.uint64)
    codes = np.zeros((players, MAX_BETS, BET_FIELDS), dtype=np.int64)
    counts = np.zeros(players, dtype=np.int64)
    result = np.zeros((players, MAX_BETS), dtype=np.int64)
    failed = np.zeros(players, dtype=np.bool_)
    playpol = np.zeros(players, dtype=np.int64)
    return GameRound(board, game_state, money, rng, pool, fixed, need, hands, codes, counts, result, failed, playpol)


@nb.njit(cache=True, inline="always")
def game_chunk(seed, stream, games, tab0, ints0, weight0, row, log, scored, mc_seats):
    """Play ``games`` games from random stream ``(seed, stream)``; statistics into ``row``
    (``scored``, ``mc_seats``: see ``play_game``)."""
    rnd = game_round(tab0.copy(), ints0.copy(), weight0.copy(), np.empty(4, dtype=np.uint64))
    game_state = rnd.game_state
    nocells = np.zeros(1, dtype=np.float64)
    for g in range(games):
        reason, winners = play_game(seed, stream, g, rnd, row, log, nocells, scored, mc_seats, None)
        record_game(reason, winners, game_state, rnd.money, row)
        log_event(log, game_state[GAME.round], EV_END, -1, reason, winners, 0, 0, 0)


@nb.njit(cache=True, inline="always")
def round_stream(chunk, g, rnd):
    """Random stream of round ``rnd`` of game ``g`` of chunk ``chunk``: every
    round draws from its own stream, so two runs of the same seed that differ
    in one seat's strategy deal the same cards in every round both reach
    (common random numbers, ``kernels.game.exploit``)."""
    return (np.int64(chunk) << np.int64(32)) | (np.int64(g) << np.int64(16)) | np.int64(rnd)


@nb.njit(cache=True)
def play_game(seed, chunk, g, rnd, row, log, cells, scored, mc_seats, labels):
    """Game ``g`` of chunk ``chunk`` in ``rnd`` (a ``contexts.GameRound``), every
    round from its own stream; returns (end reason, winners).
    A ``cells`` array longer than 1 counts every bet held when betting ended by
    its model cell: ``cells[2 * cell]`` += 1, ``cells[2 * cell + 1]`` += won
    (the on-policy fit, ``game.fit.onpolicy_chunks``). ``scored`` is None
    when no entry that can be seated bets by a scored policy (``scored_switch``):
    numba then compiles ``ev``, ``random`` and ``distilled`` out of every caller
    (``betting.dispatch``). ``mc_seats`` is None
    when no seat bets by ``mc`` (``mc_switch``): numba then compiles the
    search out of every caller, which halves a cold compile. ``labels`` is
    the record of a labelling run (``betting.netlabel``: ``mc`` seats value
    every action the network weighs and play as the taught policy), None
    elsewhere: the labelling machinery is then compiled out. The round's arrays
    are read from ``rnd`` once per game and passed to the per-round kernels
    one by one: a context's fields read there cost reference counts (atomic
    operations) on every call (measured with ``scripts/ab_game_speed.py``)."""
    board, game_state, money, state = rnd.board, rnd.game_state, rnd.money, rnd.rng
    rules = rules_of(game_state)
    pool, fixed, need, hands = rnd.pool, rnd.fixed, rnd.need, rnd.hands
    codes, counts, result, failed, playpol = rnd.codes, rnd.counts, rnd.result, rnd.failed, rnd.playpol
    start_game(g, game_state, money)
    if rules[RULES.field]:
        draw_entries(seed, round_stream(chunk, g, 0), g, game_state, money, state)
    reason, winners = 0, 0
    while reason == 0:
        round_start(seed, round_stream(chunk, g, game_state[GAME.round]), state, pool)
        deal_and_bet(board, game_state, money, state, pool, fixed, need, hands, log, scored, mc_seats, labels)
        leader, last, nine_lost, n_failed = play_out(board, game_state, money, state, hands, codes, counts, result,
                                                     failed, playpol)
        if mc_seats is not None and rules[RULES.mc_any]:
            mc_cash_ins(board, game_state, money, state, row, labels)
        reason, winners = close_round(leader, last, nine_lost, n_failed, rnd, row, log)
        if cells.shape[0] > 1:
            for s in range(rules[RULES.players]):
                for i in range(game_state[GAME.bet_count + s]):
                    c = game_state[GAME.bet_cell + s * MAX_BETS + i]
                    cells[2 * c] += 1.0
                    cells[2 * c + 1] += game_state[GAME.bet_won + s * MAX_BETS + i]
    return reason, winners


@nb.njit(cache=True, inline="always")
def start_chunk(seed, stream, games, start, row, scored, mc_seats):
    """``game_chunk`` from ``start`` (a ``contexts.GameArrays``), statistics into ``row``."""
    board, game_state, money = copy_game(start)
    game_chunk(seed, stream, games, board, game_state, money, row, no_log(), scored, mc_seats)


def game_chunks(seed, first_chunk, counts, start, n_stats, scored, mc_seats):
    """Per-chunk statistics of ``counts[i]`` games for chunk ``first_chunk + i`` from ``start``
    (a ``contexts.GameArrays``), on threads (``tabletop_mc.spans``)."""
    out = np.zeros((counts.shape[0], n_stats), dtype=np.float64)
    each_span(lambda lo, hi: game_span(seed, first_chunk, counts, lo, hi, start, out, scored, mc_seats),
              counts.shape[0])
    return out


@nb.njit(cache=True, nogil=True)
def game_span(seed, first_chunk, counts, lo, hi, start, out, scored, mc_seats):
    """Chunks ``lo..hi-1`` of ``game_chunks``."""
    for i in range(lo, hi):
        start_chunk(seed, first_chunk + i, counts[i], start, out[i], scored, mc_seats)


game_chunks.kernel = game_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)


@nb.njit(cache=True)
def _mc_any(game_state):
    return rules_of(game_state)[RULES.mc_any]


def mc_switch(game_state, record=None):
    """The ``mc_seats`` argument of the game kernels for a state built by
    ``analysis.game.setup`` (bound to its rulebook): None when no entry bets by ``mc``, else the
    decision record (``record``, or one row: nothing recorded)."""
    if game_state[TRICK_STATE.rules_at] == 0:
        raise ValueError("a game state without its rulebook (analysis.game.setup.bind)")
    if not _mc_any(game_state):
        return None
    return record if record is not None else np.zeros((1, DECISION_RECORD.size), dtype=np.float64)


def scored_switch(*game_states):
    """The ``scored`` argument of the game kernels for a run from ``game_states``
    (each built by ``analysis.game.setup``, bound to its rulebook): None when
    none of them can seat an entry that bets by a scored policy or by ``mc``
    (``betting.dispatch.scored_in_play``), else True."""
    for game_state in game_states:
        if game_state[TRICK_STATE.rules_at] == 0:
            raise ValueError("a game state without its rulebook (analysis.game.setup.bind)")
    return True if any(scored_in_play(game_state) for game_state in game_states) else None


def switches(*game_states):
    """The compile switches ``(scored, mc_seats)`` the game kernels take last for a run from
    ``game_states`` (one, or the several a run plays side by side): ``scored_switch`` over all of
    them, and the first that has an ``mc`` entry's ``mc_switch`` (None where none has)."""
    mc_seats = next((m for m in map(mc_switch, game_states) if m is not None), None)
    return scored_switch(*game_states), mc_seats
