"""Labelled decisions for `caesar train` (numba): field games in which `mc` values sampled decisions.

The games are field games as in ``kernels.game.engine`` (every seat's member drawn per game, every game
on streams of its own). At each decision, with chance ``rate`` (drawn from a stream of its own,
(``label_key``, g), so which decisions are labelled does not depend on anything else), the
acting seat's decision is labelled:

- its inputs from its own side (``kernels.play.encode``, measured from the ``reference`` rules);
- for every legal action (pass first): its `distilled` features (``kernels.play.scan``, with the label
  row's item weights), its mean rollout outcome, the rollouts behind it and the sum of squares of
  its rollouts' differences from the pass's on the same random numbers (``kernels.play.mc.mc_values``
  with the label row as the mover's row: its rollout policy, rollout field, horizon, pruning).

`mc` rolls out on a stream of its own, (``mc_key``, decision), and the game goes on from where it
was with the seat's own policy: a labelled game is the same game as an unlabelled one (the field
plays as it plays), and two labellings with different ``mc_key`` value the same decisions (`mc`'s
noise ceiling). At the game's end every labelled decision of the game gets its seat's final win
share (ties shared).
"""

from collections import namedtuple

import numba as nb
import numpy as np

from tabletop_mc.pointers import as_ptr, hold
from tabletop_mc.rng import seed_state, uniform
from tabletop_mc.spans import each_span
from caesar_sim.kernels.contexts import game_ptrs, rollout_ptrs
from caesar_sim.kernels.play.encode import INPUTS, encode
from caesar_sim.kernels.game.engine import decide, seat_members
from caesar_sim.kernels.layout import (ACTIONS, MAX_ACTIONS, MAX_PLAYERS, NET_ACTIONS, N_FEATURES, RULES, SCRATCH,
                                       STATE, STATS)
from caesar_sim.kernels.play.mc import mc_values, win_share
from caesar_sim.kernels.play.scan import action_features
from caesar_sim.kernels.play.state import advance, new_game

# a labelled decision (``LabelOut.decisions``): its game, seat, day, phase, actions, first action row,
# the seat's final win share
DEC_GAME, DEC_SEAT, DEC_DAY, DEC_PHASE, DEC_ACTIONS, DEC_FIRST, DEC_SHARE = range(7)
DEC_COLS = 7
# an action of a labelled decision (``LabelOut.actions``): its decision row, fixed-list index (code + 1), mean
# rollout outcome, rollouts, paired sum of squares, then its N_FEATURES features
ACT_DECISION, ACT_INDEX, ACT_MEAN, ACT_ROLLOUTS, ACT_SQ = range(5)
ACT_COLS = 5 + N_FEATURES
LabelOut = namedtuple("LabelOut", "inputs decisions actions")
# how a batch labels: the label row (weight_table row of the `mc` strategy that values), its rollouts, the
# chance to label a decision, the stream keys of those draws and of `mc`'s rollouts, the reference rule vector
# of the inputs
Labelling = namedtuple("Labelling", "row rollouts rate key mc_key reference")


LABELS_PER_GAME = 4096


def decision_bound(players: int, days: int) -> int:
    """The most decisions of one game (a seat acts at most once per merchant card plus a pass per phase)."""
    return players * days * 3 * 9


@nb.njit(cache=True, inline="always")
def _label(rulebook, weight_table, seats, how, g0, count, out, d0, a0):
    """Games ``g0 .. g0+count-1``: labelled decisions from row ``d0`` of ``out.decisions`` (and ``out.inputs``),
    their actions from row ``a0`` of ``out.actions``; returns (decision rows, action rows) written."""
    n = rulebook[RULES.players]
    game_state, rollout_state = np.zeros(STATE.size, np.int64), np.zeros(STATE.size, np.int64)
    actions, scratch = np.zeros(ACTIONS.size, np.int64), np.zeros(SCRATCH.size)
    F = np.zeros(MAX_ACTIONS * N_FEATURES)
    slot = np.full(NET_ACTIONS, -1, np.int64)
    idx = np.zeros(INPUTS.size, np.int64)
    game_log, game_stats = np.zeros(2, np.int64), np.zeros(STATS.size)
    rng, lrng = np.empty(4, np.uint64), np.empty(4, np.uint64)
    seat = np.zeros(MAX_PLAYERS, np.int64)
    pols, ks, rows = np.zeros(MAX_PLAYERS, np.int64), np.zeros(MAX_PLAYERS, np.int64), np.zeros(MAX_PLAYERS, np.int64)
    t = game_ptrs(rulebook, weight_table, game_state, scratch, actions, rng, game_log, game_stats)
    ro = rollout_ptrs(t, as_ptr(rollout_state), t.game_log, t.game_stats)
    d, r = d0, a0
    for j in range(count):
        g = g0 + j
        seat_members(seats, g, n, seat)
        for s in range(n):
            pols[s], ks[s], rows[s] = seats.policy[seat[s]], seats.rollouts[seat[s]], seat[s]
        seed_state(seats.game_key, g, rng)
        seed_state(how.key, g, lrng)
        new_game(t, as_ptr(pols), as_ptr(ks), as_ptr(rows))
        first = d
        while game_state[STATE.over] == 0:
            p = game_state[STATE.turn]
            if uniform(lrng) < how.rate:
                game_state[STATE.weight_row + p] = how.row   # the label row values and encodes the features
                s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
                seed_state(how.mc_key, g * LABELS_PER_GAME + d - first, rng)   # rollouts of their own: the game
                cnt = mc_values(t.game_state, ro, how.rollouts)                 # goes on as if unlabelled
                rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
                m = action_features(t.rulebook, t.game_state, t.weight_table, p, t.scratch, t.actions, 0, as_ptr(F))
                game_state[STATE.weight_row + p] = rows[p]
                for i in range(cnt):
                    slot[actions[MAX_ACTIONS + i] + 1] = i
                encode(t.rulebook, as_ptr(how.reference), t.game_state, p, as_ptr(out.inputs[d]), as_ptr(idx))
                out.decisions[d, DEC_GAME], out.decisions[d, DEC_SEAT] = g, p
                out.decisions[d, DEC_DAY], out.decisions[d, DEC_PHASE] = game_state[STATE.day], game_state[STATE.phase]
                out.decisions[d, DEC_ACTIONS], out.decisions[d, DEC_FIRST] = m, r
                for i in range(m):
                    a = actions[i]
                    c = slot[a + 1]
                    out.actions[r, ACT_DECISION], out.actions[r, ACT_INDEX] = d, a + 1
                    out.actions[r, ACT_MEAN] = scratch[SCRATCH.rollout_mean + c]
                    out.actions[r, ACT_ROLLOUTS] = scratch[SCRATCH.rollout_n + c]
                    out.actions[r, ACT_SQ] = scratch[SCRATCH.rollout_sq + c]
                    for k in range(N_FEATURES):
                        out.actions[r, 5 + k] = F[i * N_FEATURES + k]
                    r += 1
                d += 1
            advance(t, decide(t, ro))
        for e in range(first, d):
            out.decisions[e, DEC_SHARE] = win_share(game_state, int(out.decisions[e, DEC_SEAT]))
    hold((rulebook, weight_table, game_state, rollout_state, actions, scratch, F, idx, rng, game_log, game_stats, pols,
          ks, rows))   # read through pointers until here (inlined: the arguments are the caller's variables)
    return d - d0, r - a0


def label_batch(rulebook, weight_table, seats, how, first_chunk, counts, chunk_size, out, caps, used):
    """Chunks ``first_chunk + i`` of ``counts[i]`` games: chunk i writes from decision row ``i * caps[0]`` and
    action row ``i * caps[1]`` of ``out`` (``LabelOut``), its counts into ``used[i]``. The chunks run on
    threads (``tabletop_mc.spans``)."""
    each_span(lambda lo, hi: label_span(rulebook, weight_table, seats, how, first_chunk, counts, chunk_size, out,
                                        caps, used, lo, hi), counts.shape[0])


@nb.njit(cache=True, nogil=True)
def label_span(rulebook, weight_table, seats, how, first_chunk, counts, chunk_size, out, caps, used, lo, hi):
    """Chunks ``lo..hi-1`` of ``label_batch``."""
    for ci in range(lo, hi):
        nd, na = _label(rulebook, weight_table, seats, how, (first_chunk + ci) * chunk_size, counts[ci], out,
                        ci * caps[0], ci * caps[1])
        used[ci, 0], used[ci, 1] = nd, na


label_batch.kernel = label_span   # the compiled kernel (``tabletop_mc.jitcache.needs_compile``)
