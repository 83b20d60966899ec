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

from collections import namedtuple

import numba as nb
import numpy as np

from tabletop_mc.spans import each_span
from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.bets import bet_decided
from sponsio_sim.kernels.bits import RANKS
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.betting.rollout import load_scratch
from sponsio_sim.kernels.dd.core import TT_BITS, new_workspace
from sponsio_sim.kernels.game.engine import game_round
from sponsio_sim.kernels.layout import BOARD, MAX_BETS, MONEY, RULES
from sponsio_sim.kernels.rulebook import rules_of
from sponsio_sim.kernels.betting.scoring import ready_tricks, score_round
from sponsio_sim.kernels.play.pimc import PIMC, pimc_context
from sponsio_sim.kernels.play.tricks import play_scripted

BLOCKS = 8          # worlds of a call split into this many blocks per candidate (jobs for the threads)
HALT_AFTER = -2     # ``play_scripted``: stop right after the scripted cards
PLAY_ON = -1        # ``play_scripted``: play on to the end of the round


@nb.njit(cache=True)
def replay_script(script, halt, board, game_state, money, hands, codes, counts, playpol):
    """Betting over (``board``, ``game_state``, ``money`` as it ended, hands
    included): ready the tricks and play ``script`` (cards in play order),
    stopping as ``halt`` says (``play_scripted``). Returns (the current
    trick's leader, nine_lost); ``hands`` keeps the hands the tricks started from."""
    rules = rules_of(game_state)
    leader = ready_tricks(board, game_state, hands, codes, counts, playpol)
    run = np.empty(script.shape[0] + 2, dtype=np.int64)
    run[0] = script.shape[0]
    run[1] = halt
    run[2:] = script
    state = np.zeros(4, dtype=np.uint64)
    return play_scripted(rules[RULES.players], leader, playpol, board, game_state, money, state, None, None, run)


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


# What ``play_cards`` asks: seat ``seat`` plays each of ``cards`` (-1: none) after
# ``script`` (the cards so far, in play order), in the worlds ``worlds[r]`` (every
# seat's hands as betting ended), world r on stream ``(key, r)``.
CardQuestion = namedtuple("CardQuestion", ["seat", "cards", "script", "worlds", "key"])
# ``coins[i, r]``: the seat's payouts, troll pay and round bonus; ``results[i, r, t, b]``:
# seat t's bet b won (1), lost (0), none (-1); with candidate i in world r.
CardOutcomes = namedtuple("CardOutcomes", ["coins", "results"])


@nb.njit(cache=True)
def _play_world(question, i, r, board, game_state, money, scratch, ctx, out):
    """World r with candidate ``question.cards[i]`` (-1: none): replay, play
    on, score, into ``out`` (a ``CardOutcomes``); ``scratch``: ``_scratch``'s."""
    rules = rules_of(game_state)
    s, card, script = question.seat, question.cards[i], question.script
    rnd, run = scratch
    tab2, ints2, w2, state, hands, playpol = rnd.board, rnd.game_state, rnd.money, rnd.rng, rnd.hands, rnd.playpol
    codes, counts, result = rnd.codes, rnd.counts, rnd.result
    players = rules[RULES.players]
    load_scratch(board, game_state, money, tab2, ints2, w2)
    for t in range(players):
        tab2[BOARD.hands + t] = question.worlds[r, t]
    leader = ready_tricks(tab2, ints2, hands, codes, counts, playpol)
    if ctx is not None:
        playpol[s] = PIMC
    n = script.shape[0]
    run[0] = n + (1 if card >= 0 else 0)
    run[1] = PLAY_ON
    run[2:2 + n] = script
    run[2 + n] = card
    seed_state(question.key, np.uint64(r), state)
    last, nine_lost = play_scripted(players, leader, playpol, tab2, ints2, w2, state, ctx, None, run)
    score_round(nine_lost, tab2, ints2, w2, codes, counts, result, rnd.failed)
    out.coins[i, r] = w2[MONEY.payout + s] + w2[MONEY.troll_paid + s] + w2[MONEY.bonus_paid + s]
    for t in range(players):
        for b in range(MAX_BETS):
            out.results[i, r, t, b] = result[t, b] if b < counts[t] else -1


@nb.njit(cache=True)
def _scratch(board, game_state, money, n_script):
    """A job's scratch: a ``contexts.GameRound`` over copies of the state, and the script's run."""
    return (game_round(board.copy(), game_state.copy(), money.copy(), np.empty(4, dtype=np.uint64)),
            np.zeros(n_script + 3, dtype=np.int64))


def play_cards(question, r0, r1, board, game_state, money, out):
    """Each candidate of ``question`` (a ``CardQuestion``) in worlds ``r0 ..
    r1-1``, every seat playing on by its policy (module docstring), into
    ``out`` (a ``CardOutcomes``). Threads take (candidate, block of worlds)
    jobs (``tabletop_mc.spans``); a world's outcome does not depend on which."""
    each_span(lambda lo, hi: cards_span(question, r0, r1, board, game_state, money, out, lo, hi),
              question.cards.shape[0] * BLOCKS)


@nb.njit(cache=True, nogil=True)
def cards_span(question, r0, r1, board, game_state, money, out, lo, hi):
    """Jobs ``lo..hi-1`` of ``play_cards``: job j plays candidate j // BLOCKS in every BLOCKS-th world
    from ``r0 + j % BLOCKS``."""
    n_script = question.script.shape[0]
    for job in range(lo, hi):
        i = job // BLOCKS
        scratch = _scratch(board, game_state, money, n_script)
        for r in range(r0 + job % BLOCKS, r1, BLOCKS):
            _play_world(question, i, r, board, game_state, money, scratch, None, out)


def play_cards_pimc(question, r0, r1, board, game_state, money, n_worlds, out):
    """``play_cards`` with the seat playing its later cards by PIMC
    (``play.pimc``, ``n_worlds`` layouts per decision), the others by their
    policies (each job its own solver workspace; the solver's answers are
    exact, so a world's outcome does not depend on which thread played it)."""
    each_span(lambda lo, hi: pimc_cards_span(question, r0, r1, board, game_state, money, n_worlds, out, lo, hi),
              question.cards.shape[0] * BLOCKS)


@nb.njit(cache=True, nogil=True)
def pimc_cards_span(question, r0, r1, board, game_state, money, n_worlds, out, lo, hi):
    """Jobs ``lo..hi-1`` of ``play_cards_pimc`` (as ``cards_span``'s)."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    n_colours = rules[RULES.colours]
    n_script = question.script.shape[0]
    for job in range(lo, hi):
        i = job // BLOCKS
        rnd, run = _scratch(board, game_state, money, n_script)
        stamps = np.zeros(2, dtype=np.uint64)
        ctx = pimc_context(rnd.codes, rnd.counts, n_worlds, n_colours,
                           new_workspace(players, n_colours, n_colours * RANKS, TT_BITS), stamps)
        scratch = (rnd, run)
        for r in range(r0 + job % BLOCKS, r1, BLOCKS):
            stamps[0] += np.uint64(2)
            stamps[1] = stamps[0] + np.uint64(1)
            _play_world(question, i, r, board, game_state, money, scratch, ctx, out)


# the compiled kernels the batch functions run (``tabletop_mc.jitcache.needs_compile``)
play_cards.kernel = cards_span
play_cards_pimc.kernel = pimc_cards_span
