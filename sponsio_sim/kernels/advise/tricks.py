"""Kernels of trick-phase advice: the trick phase so far replayed, and every
candidate card played out in the same worlds.

The trick phase so far is a script of cards in play order from the first
lead (``play.tricks.play_scripted``): replayed on any hands it gives who won
each trick, the voids shown, the cards each seat won and the 9s lost, all
public. A world is every seat's hand as betting ended (``layouts``); in it
the round is replayed from the start of the trick phase, the candidate card
is played and every seat plays on by its own policy (the deciding seat by
PIMC in ``play_cards_pimc``), then the round is scored. Candidate i meets
world r with stream ``(key, r)``, as every other candidate does: the
outcomes are paired.
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.bets import bet_decided
from sponsio_sim.kernels.bits import RANKS
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.betting.rollout import load_scratch
from sponsio_sim.kernels.dd.core import TT_BITS, new_workspace
from sponsio_sim.kernels.game.engine import round_arrays
from sponsio_sim.kernels.game.layout import GAME, MAX_BETS, MONEY
from sponsio_sim.kernels.game.scoring import ready_tricks, score_round
from sponsio_sim.kernels.play.pimc import PIMC, pimc_context
from sponsio_sim.kernels.play.tricks import play_scripted
from sponsio_sim.kernels.table import BOARD

BLOCKS = 8          # worlds of a call split into this many blocks per candidate (jobs for the threads)
HALT_AFTER = -2     # ``play_scripted``: stop right after the scripted cards
PLAY_ON = -1        # ``play_scripted``: play on to the end of the round


@nb.njit(cache=True)
def replay_script(script, halt, board, game_state, money, hands, codes, counts, playpol):
    """Betting over (``board``, ``game_state``, ``money`` as it ended, hands
    included): ready the tricks and play ``script`` (cards in play order),
    stopping as ``halt`` says (``play_scripted``). Returns (the current
    trick's leader, nine_lost); ``hands`` keeps the hands the tricks started from."""
    leader = ready_tricks(board, game_state, hands, codes, counts, playpol)
    run = np.empty(script.shape[0] + 2, dtype=np.int64)
    run[0] = script.shape[0]
    run[1] = halt
    run[2:] = script
    state = np.zeros(4, dtype=np.uint64)
    return play_scripted(game_state[GAME.players], leader, playpol, board, game_state, money, state, None, None, run)


@nb.njit(cache=True)
def decided_bets(codes, counts, board, game_state, nine_lost, out):
    """``out[s, i]``: seat s's bet i is settled whatever the tricks left
    bring (``bets.bet_decided``, read at a trick boundary); a fail bet when a
    bet of its target is (it wins if that bet loses: the caller reads which)."""
    players = counts.shape[0]
    for s in range(players):
        for i in range(counts[s]):
            if codes[s, i, 0] != FAIL:
                out[s, i] = bet_decided(codes[s, i, 0], codes[s, i, 1], codes[s, i, 2], s, players, board, game_state,
                                        nine_lost)


@nb.njit(cache=True, inline="always")
def _play_world(s, card, script, r, worlds, key, board, game_state, money, scratch, ctx, coins, results, i):
    """World r with candidate ``card`` (-1: none): replay, play on, score;
    seat s's coins from the round into ``coins[i, r]``, every bet's result
    into ``results[i, r]``."""
    tab2, ints2, w2, state, hands, codes, counts, result, failed, playpol, run = scratch
    players = game_state[GAME.players]
    load_scratch(board, game_state, money, tab2, ints2, w2)
    for t in range(players):
        tab2[BOARD.hands + t] = worlds[r, t]
    leader = ready_tricks(tab2, ints2, hands, codes, counts, playpol)
    if ctx is not None:
        playpol[s] = PIMC
    n = script.shape[0]
    run[0] = n + (1 if card >= 0 else 0)
    run[1] = PLAY_ON
    run[2:2 + n] = script
    run[2 + n] = card
    seed_state(key, np.uint64(r), state)
    last, nine_lost = play_scripted(players, leader, playpol, tab2, ints2, w2, state, ctx, None, run)
    score_round(nine_lost, tab2, ints2, w2, codes, counts, result, failed)
    coins[i, r] = w2[MONEY.payout + s] + w2[MONEY.troll_paid + s] + w2[MONEY.bonus_paid + s]
    for t in range(players):
        for b in range(MAX_BETS):
            results[i, r, t, b] = result[t, b] if b < counts[t] else -1


@nb.njit(cache=True)
def _scratch(board, game_state, money, n_script):
    pool, fixed, need, hands, codes, counts, result, failed, playpol = round_arrays(game_state)
    return (board.copy(), game_state.copy(), money.copy(), np.empty(4, dtype=np.uint64), hands, codes, counts, result,
            failed, playpol, np.zeros(n_script + 3, dtype=np.int64))


@nb.njit(cache=True, parallel=True)
def play_cards(s, cards, script, r0, r1, worlds, key, board, game_state, money, coins, results):
    """Each candidate ``cards[i]`` of seat s (-1: none, the odds) in worlds
    ``r0 .. r1-1``, every seat playing on by its policy (module docstring).
    ``coins[i, r]``: seat s's payouts, troll pay and round bonus;
    ``results[i, r, t, b]``: seat t's bet b won (1), lost (0), none (-1).
    Threads take (candidate, block of worlds) jobs; a world's outcome does
    not depend on which."""
    for job in nb.prange(cards.shape[0] * BLOCKS):
        i = job // BLOCKS
        scratch = _scratch(board, game_state, money, script.shape[0])
        for r in range(r0 + job % BLOCKS, r1, BLOCKS):
            _play_world(s, cards[i], script, r, worlds, key, board, game_state, money, scratch, None, coins, results, i)


@nb.njit(cache=True, parallel=True)
def play_cards_pimc(s, cards, script, r0, r1, worlds, key, board, game_state, money, n_worlds, coins, results):
    """``play_cards`` with seat s playing its later cards by PIMC
    (``play.pimc``, ``n_worlds`` layouts per decision), the others by their
    policies (each job its own solver workspace; the solver's answers are
    exact, so a world's outcome does not depend on which thread played it)."""
    players = game_state[GAME.players]
    n_colours = game_state[GAME.colours]
    for job in nb.prange(cards.shape[0] * BLOCKS):
        i = job // BLOCKS
        scratch = _scratch(board, game_state, money, script.shape[0])
        PL, PU, CT, TT = new_workspace(players, n_colours, n_colours * RANKS, TT_BITS)
        stamps = np.zeros(2, dtype=np.uint64)
        ctx = pimc_context(players, scratch[5], scratch[6], n_worlds, n_colours, PL, PU, CT, TT, stamps)
        for r in range(r0 + job % BLOCKS, r1, BLOCKS):
            stamps[0] += np.uint64(2)
            stamps[1] = stamps[0] + np.uint64(1)
            _play_world(s, cards[i], script, r, worlds, key, board, game_state, money, scratch, ctx, coins, results, i)
