"""The end of a round (docs/rules-sponsio.md sections 5-7): the bets as the settlement takes them, the
trick phase, the scoring and the end check. Shared by the full game (``game.engine.play_game``)
and the ``mc`` policy's rollouts (``betting.mc``), so both finish a round
by the same code; ``leaf_share`` values a round's end for ``mc``'s
``horizon=net``."""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.bets import settle
from sponsio_sim.kernels.betting.phase import entry_of, leader_of
from sponsio_sim.betting_policies import BET_MC
from sponsio_sim.kernels.betting.net import encode, evaluate, net_cash_in, scratch_of
from sponsio_sim.kernels.bits import popcount
from sponsio_sim.kernels.layout import (BOARD, CASH_NET, END_COINS, END_ROUNDS, END_TRACK, GAME, MAX_BETS, MONEY,
                                        MONEY_RULES, RULES)
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of
from sponsio_sim.kernels.play.tricks import play_tricks
from sponsio_sim.kernels.play.policies import build_relevance
from sponsio_sim.kernels.trickstate import set_round


@no_refcount
def load_bets(game_state, codes, counts):
    """Bets as ``settle``/``build_relevance`` take them: codes[s, i] = (kind, a, b, placed)."""
    rules = rules_of(game_state)
    for s in range(rules[RULES.players]):
        counts[s] = game_state[GAME.bet_count + s]
        for i in range(counts[s]):
            row = game_state[GAME.bet_row + s * MAX_BETS + i]
            for f in range(3):
                codes[s, i, f] = rules[RULES.catalogue + 3 * row + f]
            codes[s, i, 3] = game_state[GAME.bet_rank + s * MAX_BETS + i]


@no_refcount
def score_round(nine_lost, board, game_state, money, codes, counts, result, failed):
    """docs/rules-sponsio.md section 6: bet payouts (``double`` doubles one), troll pay, the round bonus
    (on gross gains, or net of the round's stakes and token fees), the streak
    track and cash-in (by the strategy's threshold, or by the network's value
    head once every other seat has moved; ``mc`` seats decide later,
    ``game.mc_cash_ins``). Returns the number of failed bets."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    players = rules[RULES.players]
    settle(codes, counts, board, game_state, nine_lost, result, failed)
    n_failed = 0
    for s in range(players):
        for i in range(counts[s]):
            game_state[GAME.bet_won + s * MAX_BETS + i] = result[s, i]
            if result[s, i] == 0:
                n_failed += 1
    net = rules[RULES.bonus_net] != 0
    top = 0.0
    for s in range(players):
        pay = 0.0
        for i in range(counts[s]):
            if result[s, i]:
                m = (money_rules[MONEY_RULES.multiplier + game_state[GAME.bet_row + s * MAX_BETS + i]]
                     * money_rules[MONEY_RULES.stake])
                pay += 2.0 * m if game_state[GAME.doubled_bet + s] == i else m
        troll = money_rules[MONEY_RULES.troll_pay] * n_failed if counts[s] == 0 else 0.0
        money[MONEY.payout + s] = pay
        money[MONEY.troll_paid + s] = troll
        money[MONEY.coins + s] += pay + troll
        top = max(top, round_gain(s, net, money))
    track_win = rules[RULES.track_win]
    for s in range(players):
        if top > 0.0 and round_gain(s, net, money) == top:
            money[MONEY.bonus_paid + s] = money_rules[MONEY_RULES.bonus]
            money[MONEY.coins + s] += money_rules[MONEY_RULES.bonus]
        pos = game_state[GAME.track + s]
        if counts[s] == 0:
            pos += n_failed
        elif failed[s]:
            pos = 0
        else:
            pos += counts[s]
        pos = min(pos, track_win)
        game_state[GAME.track_moved + s] = pos
        e = entry_of(s, game_state)
        if (0 < pos < track_win and game_state[GAME.betting_policy + e] != BET_MC
                and pos >= rules[RULES.cash_in_at + e]):
            cash_in(s, pos, game_state, money)
            pos = 0
        game_state[GAME.track + s] = pos
    for s in range(players):   # the value head decides once every seat's coins and track are known
        e = entry_of(s, game_state)
        pos = game_state[GAME.track + s]
        if (rules[RULES.cash_in_at + e] == CASH_NET and game_state[GAME.betting_policy + e] != BET_MC
                and 0 < pos < track_win and net_cash_in(s, board, game_state, money)):
            cash_in(s, pos, game_state, money)
            game_state[GAME.track + s] = 0
    return n_failed


@nb.njit(cache=True, inline="always")
def cash_in(s, pos, game_state, money):
    """Seat s cashes in the value of track position ``pos`` (the caller resets its position)."""
    money_rules = money_rules_of(game_state)
    money[MONEY.cashed + s] = money_rules[MONEY_RULES.track_values + pos]
    money[MONEY.coins + s] += money_rules[MONEY_RULES.track_values + pos]


@nb.njit(cache=True, inline="always")
def round_gain(s, net, money):
    """What the round bonus compares (docs/rules-sponsio.md section 6.3): payouts and troll pay,
    less stakes and fees if ``net``."""
    gain = money[MONEY.payout + s] + money[MONEY.troll_paid + s]
    if net:
        gain -= money[MONEY.stakes + s] + money[MONEY.fees + s]
    return gain


@no_refcount
def ready_tricks(board, game_state, hands, codes, counts, playpol):
    """Betting is over: load the bets and who plays for or against them, keep
    the hands the tricks start from in ``hands`` and each seat's play policy
    in ``playpol``, and clear the trick state; returns the first leader."""
    rules = rules_of(game_state)
    load_bets(game_state, codes, counts)
    build_relevance(codes, counts, game_state)
    for s in range(rules[RULES.players]):
        hands[s] = board[BOARD.hands + s]
        playpol[s] = rules[RULES.play_policy + entry_of(s, game_state)]
    set_round(board, game_state, hands, board[BOARD.talon], board[BOARD.revealed])
    return leader_of(game_state)


@nb.njit(cache=True)
def play_out(board, game_state, money, state, hands, codes, counts, result, failed, playpol):
    """Betting is over: load the bets, play the tricks and score the round
    (the arrays of a ``contexts.GameRound``, passed one by one: the round's
    hot path, where reading a context's fields costs reference counts; see
    ``game.engine.play_game``). ``hands`` ends with the hands the tricks
    started from. Returns (first leader, last trick's winner, nine_lost,
    failed bets)."""
    rules = rules_of(game_state)
    leader = ready_tricks(board, game_state, hands, codes, counts, playpol)
    last, nine_lost = play_tricks(rules[RULES.players], leader, playpol, board, game_state, money, state, None,
                                  None)
    n_failed = score_round(nine_lost, board, game_state, money, codes, counts, result, failed)
    return leader, last, nine_lost, n_failed


@nb.njit(cache=True, inline="always")
def play_out_round(rnd):
    """``play_out`` in ``rnd`` (a ``contexts.GameRound``)."""
    return play_out(rnd.board, rnd.game_state, rnd.money, rnd.rng, rnd.hands, rnd.codes, rnd.counts, rnd.result,
                    rnd.failed, rnd.playpol)


@no_refcount
def end_check(game_state, money):
    """docs/rules-sponsio.md section 7, in priority order: (reason, bitmask of winners) or (0, 0).
    A track end is won by the richest player on the top position, or of
    all players under ``track_top = ends``."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    players = rules[RULES.players]
    cand = 0
    for s in range(players):
        if game_state[GAME.track + s] >= rules[RULES.track_win]:
            cand |= 1 << s
    reason = END_TRACK if cand else 0
    if cand and rules[RULES.track_ends]:
        cand = (1 << players) - 1
    if reason == 0:
        for s in range(players):
            if money[MONEY.coins + s] >= money_rules[MONEY_RULES.coins_to_end]:
                reason = END_COINS
        if reason == 0 and game_state[GAME.round] >= rules[RULES.max_rounds]:
            reason = END_ROUNDS
        if reason == 0:
            return 0, 0
        cand = (1 << players) - 1
    best = -1e300
    for s in range(players):
        if (cand >> s) & 1 and money[MONEY.coins + s] > best:
            best = money[MONEY.coins + s]
    winners = 0
    for s in range(players):
        if (cand >> s) & 1 and money[MONEY.coins + s] == best:
            winners |= 1 << s
    return reason, winners


@nb.njit(cache=True)
def leaf_share(s, board, game_state, money):
    """Seat s's win share at the end of a round's scoring, before the round is counted: the real
    one (1/k of a k-way shared win) when the game ends with this round, else ``net``'s value head
    on the position as it stands (``net.encode`` of the round's end: coins, track, rounds)."""
    game_state[GAME.round] += 1   # what the round's count (engine.close_round) checks the end on
    reason, winners = end_check(game_state, money)
    game_state[GAME.round] -= 1
    if reason:
        return 1.0 / popcount(np.uint64(winners)) if (winners >> s) & 1 else 0.0
    x, q, legal, hidden = scratch_of(game_state, money)
    encode(s, np.bool_(True), board, game_state, money, x)
    return np.float64(evaluate(game_state, money, x, q, hidden))


@nb.njit(cache=True)
def option_share(s, cash, board, game_state, money):
    """``leaf_share`` of seat s after it cashes its streak in (``cash``) or keeps it; the state is left
    as it was."""
    pos = game_state[GAME.track + s]
    coins, cashed = money[MONEY.coins + s], money[MONEY.cashed + s]
    if cash:
        cash_in(s, pos, game_state, money)
        game_state[GAME.track + s] = 0
    v = leaf_share(s, board, game_state, money)
    game_state[GAME.track + s] = pos
    money[MONEY.coins + s], money[MONEY.cashed + s] = coins, cashed
    return v
