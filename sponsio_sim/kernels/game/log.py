"""The narration log of the full game: one float64 row of ``LOG_FIELDS``
per event (``kernels.layout.EV_*``); row 0 holds the count. ``analysis.game.narrate``
turns it into text and JSON."""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.betting.phase import leader_of
from sponsio_sim.kernels.bits import RANKS, popcount
from sponsio_sim.kernels.layout import (BOARD, EV_BET, EV_HAND, EV_ROUND, EV_SCORE, EV_TALON, EV_TRACK, EV_TRICK,
                                        EV_TRICKS, GAME, MAX_BETS, MONEY, RULES, TRICK_STATE)
from sponsio_sim.kernels.rulebook import rules_of
from sponsio_sim.kernels.layout import LOG_FIELDS


@nb.njit(cache=True)
def no_log():
    """A log of one row: ``log_event`` writes nothing to it (games played unnarrated)."""
    return np.zeros((1, LOG_FIELDS), dtype=np.float64)


@no_refcount
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


@no_refcount
def log_deal(log, rnd, hands, talon, board, game_state, money):
    """The round's start: dealer and first leader, every hand with its seat's coins, track and
    profile entry (a field's member drawn for the game), the talon."""
    rules = rules_of(game_state)
    log_event(log, rnd, EV_ROUND, game_state[GAME.dealer], leader_of(game_state), 0, 0, 0, 0)
    for s in range(rules[RULES.players]):
        log_event(log, rnd, EV_HAND, s, hands[s], money[MONEY.coins + s], game_state[GAME.track + s],
                  game_state[GAME.seat_entry + s],
                  0)
    log_event(log, rnd, EV_TALON, -1, talon, 0, 0, 0, 0)


@no_refcount
def log_scoring(log, rnd, leader, last, nine_lost, played):
    """The round's end (``played``: the ``contexts.GameRound`` it was played
    in): every trick, each seat's tricks, bets, score and track."""
    board, game_state, money = played.board, played.game_state, played.money
    rules = rules_of(game_state)
    hands, counts, result = played.hands, played.counts, played.result
    players = rules[RULES.players]
    log_tricks(log, rnd, players, leader, hands, game_state)
    for s in range(players):
        log_event(log, rnd, EV_TRICKS, s, game_state[TRICK_STATE.tricks_won + s], board[BOARD.won + s],
                  1 if last == s else 0,
                  1 if (nine_lost >> s) & 1 == 0 else 0, 1 if nine_lost == 0 else 0)
    for s in range(players):
        for i in range(counts[s]):
            log_event(log, rnd, EV_BET, s, game_state[GAME.bet_row + s * MAX_BETS + i], result[s, i],
                      1 if game_state[GAME.doubled_bet + s] == i else 0, 0, 0)
        log_event(log, rnd, EV_SCORE, s, money[MONEY.payout + s], money[MONEY.troll_paid + s],
                  money[MONEY.bonus_paid + s], money[MONEY.cashed + s], money[MONEY.coins + s])
        log_event(log, rnd, EV_TRACK, s, game_state[GAME.track_moved + s], game_state[GAME.track + s],
                  money[MONEY.stakes + s],
                  money[MONEY.fees + s], 0)


@no_refcount
def log_tricks(log, rnd, players, leader, hands, game_state):
    """One ``EV_TRICK`` event per trick from the cards in play order
    (``table.SEQ``) and the hands they came from: seat = leader, a = trick
    number, b = the cards packed 6 bits each from the leader's, c = winner,
    d = bitmask of the seats whose 9 lost the trick."""
    n_tricks = popcount(hands[leader])
    k = 0
    for t in range(n_tricks):
        cards = 0
        led = game_state[TRICK_STATE.seq + k] // RANKS
        best = -1
        winner = leader
        lost9 = 0
        s = leader
        for pos in range(players):
            c = game_state[TRICK_STATE.seq + k]
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
