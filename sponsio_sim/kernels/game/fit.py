"""Fitting the success model by simulation, and checking its calibration.

Off-policy (``fit_chunks``, below) and on-policy (``onpolicy_chunks``: the
bets a profile really holds when betting ends in whole games, by model cell).

Each simulated round deals at random, picks a random leader, gives every
seat either no bet (a troll, with share ``troll_share``) or 1..3 random
catalogue bets of distinct types, plays the tricks with the given play
policy and settles. Every bet held is one sample: its model cell (from the
holder's dealt hand, the talon, whether it led, its place in the betting order
(its seat: bets are placed in seat order), the fail target's bets) and
whether it won.

- mode 0 (fit): ``row[2 * cell]`` += 1, ``row[2 * cell + 1]`` += won.
- mode 1 (calibration of the model loaded in ``money``): per bet kind and
  per fine bin of the predicted P, ``row[3 * (kind * bins + bin) + k]`` +=
  (1, predicted P, won).
"""

import numba as nb
import numpy as np

from tabletop_mc.spans import each_span
from tabletop_mc.rng import randbelow, seed_state, uniform
from sponsio_sim.kernels.bets import settle, target_bets
from sponsio_sim.kernels.betting.phase import add_bet, bet_legal
from sponsio_sim.kernels.betting.model import cell_of, prepare_features
from sponsio_sim.kernels.deal import deal
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.layout import GAME, MODEL_START, MONEY, N_KINDS, RULES
from sponsio_sim.kernels.rulebook import copy_game, money_rules_of, rules_of
from sponsio_sim.kernels.game.engine import game_round, play_game
from sponsio_sim.kernels.betting.scoring import load_bets
from sponsio_sim.kernels.game.log import no_log
from sponsio_sim.kernels.play.tricks import play_tricks
from sponsio_sim.kernels.play.policies import build_relevance
from sponsio_sim.kernels.trickstate import set_round

MAX_FIT_BETS = 3


@nb.njit(cache=True, inline="always")
def fit_chunk(seed, stream, rounds, start, mode, policy, troll_share, bins, row):
    """One chunk of ``rounds`` sample rounds from ``start`` (``contexts.GameArrays``;
    module docstring)."""
    board, game_state, money = copy_game(start)
    rules = rules_of(game_state)
    state = np.empty(4, dtype=np.uint64)
    seed_state(seed, stream, state)
    players = rules[RULES.players]
    rnd = game_round(board, game_state, money, state)
    pool, fixed, need, hands, codes, counts, result, failed, pol = (rnd.pool, rnd.fixed, rnd.need, rnd.hands,
                                                                    rnd.codes, rnd.counts, rnd.result, rnd.failed,
                                                                    rnd.playpol)
    pol[:] = policy
    for s in range(players):
        money[MONEY.coins + s] = 1e9
    n_rows = rules[RULES.catalogue_rows]
    n_kinds = 0
    for k in range(N_KINDS):
        if rules[RULES.kind_first_row + k] >= 0:
            n_kinds += 1
    for _ in range(rounds):
        talon = deal(state, pool, fixed, need, np.uint64(0), pool.shape[0] - players * rules[RULES.hand_size],
                     hands)
        lead = randbelow(state, players)
        game_state[GAME.bets_placed] = 0
        for s in range(players):
            game_state[GAME.bet_count + s] = 0
            game_state[GAME.kinds_held + s] = 0
        for s in range(players):
            if uniform(state) < troll_share:
                continue
            for _ in range(min(1 + randbelow(state, MAX_FIT_BETS), n_kinds)):
                r = randbelow(state, n_rows)
                while not bet_legal(s, r, game_state, money):
                    r = randbelow(state, n_rows)
                add_bet(s, r, game_state)
        load_bets(game_state, codes, counts)
        build_relevance(codes, counts, game_state)
        set_round(board, game_state, hands, talon, np.uint64(0))
        last, nine_lost = play_tricks(players, lead, pol, board, game_state, money, state, None, None)
        settle(codes, counts, board, game_state, nine_lost, result, failed)
        for s in range(players):
            if counts[s] == 0:
                continue
            # bets are placed in seat order here: seat s is s-th in the betting order
            prepare_features(hands[s], talon, s == lead, s, board, game_state)
            for i in range(counts[s]):
                kind = codes[s, i, 0]
                a = codes[s, i, 1]
                tb = target_bets(s, a, counts, 0, players) if kind == FAIL else 0
                cell = cell_of(kind, a, codes[s, i, 2], tb, game_state) - MODEL_START
                won = result[s, i]
                if mode == 0:
                    row[2 * cell] += 1.0
                    row[2 * cell + 1] += won
                else:
                    p = money_rules_of(game_state)[MODEL_START + cell]
                    b = min(int(p * bins), bins - 1)
                    k = 3 * (kind * bins + b)
                    row[k] += 1.0
                    row[k + 1] += p
                    row[k + 2] += won


def fit_chunks(seed, first_chunk, counts, start, mode, policy, troll_share, bins, width):
    """Per-chunk rows of ``width`` sums for chunks ``first_chunk + i`` (on threads: ``tabletop_mc.spans``)."""
    out = np.zeros((counts.shape[0], width), dtype=np.float64)
    each_span(lambda lo, hi: fit_span(seed, first_chunk, counts, lo, hi, start, mode, policy, troll_share, bins, out),
              counts.shape[0])
    return out


@nb.njit(cache=True, nogil=True)
def fit_span(seed, first_chunk, counts, lo, hi, start, mode, policy, troll_share, bins, out):
    """Chunks ``lo..hi-1`` of ``fit_chunks``."""
    for i in range(lo, hi):
        fit_chunk(seed, first_chunk + i, counts[i], start, mode, policy, troll_share, bins, out[i])


fit_chunks.kernel = fit_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)


@nb.njit(cache=True, inline="always")
def onpolicy_chunk(seed, stream, games, start, n_stats, row, scored, mc_seats):
    """``games`` whole games of the configured profile (``start``, a ``contexts.GameArrays``); every
    bet held when betting ends is one sample of its model cell (``game.play_game``)."""
    board, game_state, money = copy_game(start)
    rnd = game_round(board, game_state, money, np.empty(4, dtype=np.uint64))
    stats = np.zeros(n_stats, dtype=np.float64)
    nolog = no_log()
    for g in range(games):
        play_game(seed, stream, g, rnd, stats, nolog, row, scored, mc_seats, None)


def onpolicy_chunks(seed, first_chunk, counts, start, n_stats, width, scored, mc_seats):
    """Per-chunk (bets, wins) per model cell from chunks ``first_chunk + i`` of whole games (on
    threads: ``tabletop_mc.spans``)."""
    out = np.zeros((counts.shape[0], width), dtype=np.float64)
    each_span(lambda lo, hi: onpolicy_span(seed, first_chunk, counts, lo, hi, start, n_stats, out, scored, mc_seats),
              counts.shape[0])
    return out


@nb.njit(cache=True, nogil=True)
def onpolicy_span(seed, first_chunk, counts, lo, hi, start, n_stats, out, scored, mc_seats):
    """Chunks ``lo..hi-1`` of ``onpolicy_chunks``."""
    for i in range(lo, hi):
        onpolicy_chunk(seed, first_chunk + i, counts[i], start, n_stats, out[i], scored, mc_seats)


onpolicy_chunks.kernel = onpolicy_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)
