"""Contexts: the arrays that travel together through the kernels, named.

Each is a namedtuple of arrays and scalars (numba passes one as a single
argument), built once per query, chunk or game and handed down instead of
long signatures, as vectorbt's simulation contexts are:

- ``GameArrays``: a full game's packed state as ``analysis.game.setup``
  builds it (``board``, ``game_state``, ``money``: ``kernels.layout``) and its
  rulebook (``rules``, ``money_rules``: ``kernels.rulebook``), which the chunk
  kernels copy and bind (``rulebook.copy_game``); for several plays, one row
  of each per play;
- ``DealConditions``: what every deal of an odds query is conditioned on
  (``deal.deal``'s constraints and the revealed cards);
- ``QueryArrays``: the round an odds query asks about (the asking seat, the
  leader, every seat's bets, the rules' colours and flags);
- ``TrickRound``: one chunk's arrays for playing and settling trick phases
  (the packed state of ``kernels.layout``, the random stream, the bets and their
  results);
- ``GameRound``: the same for whole rounds of the full game
  (``game.engine.game_round``): the packed state of ``kernels.layout``, the
  random stream, what a deal is conditioned on, the hands dealt, the bets
  and their results, the seats' play policies;
- ``Trick``: the trick so far (scalars) as the play policies and a hooked
  policy read it when a seat chooses its card;
- ``RolloutWork``: a seat's betting rollouts (``betting.rollout.new_work``):
  the ``GameRound`` they play in (its deal: the cards the seat cannot see)
  and the hands of the world dealt;
- ``Candidates``: an ``mc`` decision's candidate actions (``betting.mc``):
  each one's (act, x, y, rv), the model's gain, the search order and the
  search's summary;
- ``GameRollout``: games played out to their end (``game.engine.rollout_game``):
  the ``GameRound`` they play in, a statistics row and a log.

A context costs nothing in a ``no_refcount`` kernel; a reference-counted
one counts a reference per array of the tuple at each call and per field
read (atomic operations, ``tabletop_mc.jit``). So the game's per-round
kernels take the round's arrays one by one, read from its ``GameRound``
once per game (``game.engine.play_game``): reading the context there costs
a measurable share of a game (``scripts/ab_game_speed.py``; the figure is
in ``scripts/README.md``).

The batch kernels run their chunks on threads (``tabletop_mc.spans``), not
in numba's ``parallel=True`` loops, where a context argument would only
reach the loop's body as an argument of a (not inlined) ``njit`` function
called there: numba 0.68 loses the writes to a context's arrays made in the
body itself, whether the context is unpacked before the loop or read in it
(``tests/sponsio/test_contexts.py`` keeps that finding checked).

Other contexts live beside the one kernel family that uses them:
``dd.context`` (the solver's ``Workspace``, questions, positions and answers), ``play.pimc.PimcCtx`` (the pimc
seat's hook), ``odds.grading.Grading``, ``advise.layouts.Layouts`` and
``advise.tricks.CardQuestion``/``CardOutcomes``,
``advise.evaluate.ActionQuestion``/``ActionOutcomes``.
"""

from collections import namedtuple

import numba as nb
import numpy as np

from sponsio_sim.kernels.trickstate import new_state

# board/game_state/money: analysis.game.setup.build_state's, rules/money_rules: its rulebook
# (analysis.game.setup.game_arrays; one row per play for several plays)
GameArrays = namedtuple("GameArrays", ["board", "game_state", "money", "rules", "money_rules"])
# pool: the hidden card ids; seat s holds fixed[s] plus need[s] of them, the
# talon talon_fixed plus talon_need; revealed: the cards shown (public)
DealConditions = namedtuple("DealConditions", ["pool", "fixed", "need", "talon_fixed", "talon_need", "revealed"])
# ask: the asking seat; codes/bcounts: every seat's bets (bets.encode_table); flags: the rule flags (layout.TRICK_RULES.flags)
QueryArrays = namedtuple("QueryArrays", ["ask", "leader", "codes", "bcounts", "n_colours", "flags"])
# board/game_state/money: trickstate.new_state; rng: a tabletop_mc.rng state; result/failed: bets.settle's outputs
TrickRound = namedtuple("TrickRound", ["board", "game_state", "money", "rng", "codes", "bcounts", "result",
                                       "failed"])
# pool/fixed/need: a deal.deal's constraints (the talon: the rest); playpol: each seat's play policy
GameRound = namedtuple("GameRound", ["board", "game_state", "money", "rng", "pool", "fixed", "need", "hands", "codes",
                                     "counts", "result", "failed", "playpol"])
# the trick so far as the seat about to play sees it (``play.tricks.play_scripted``):
# players at the table, the seat that led, the cards in it before this one (pos: this
# card's place), the colour led and the top card and its seat (-1 before the lead), the
# trick's cards (a mask) and the tricks left in the round, this one included
Trick = namedtuple("Trick", ["players", "leader", "pos", "led", "best", "best_seat", "cards", "left"])
RolloutWork = namedtuple("RolloutWork", ["scratch", "dealt"])
GameRollout = namedtuple("GameRollout", ["scratch", "row", "log"])
# acts[i]: candidate i's (act, x, y, rv); gains: the model's gain; order/summary: betting.rollout.search's
Candidates = namedtuple("Candidates", ["acts", "gains", "order", "summary"])


@nb.njit(cache=True, inline="always")
def on_state(rnd, board, game_state, money):
    """``rnd`` (a ``GameRound``) over another game state: the same random
    stream and work arrays (plays that share deals, one after the other)."""
    return GameRound(board, game_state, money, rnd.rng, rnd.pool, rnd.fixed, rnd.need, rnd.hands, rnd.codes,
                     rnd.counts, rnd.result, rnd.failed, rnd.playpol)


def deal_conditions(arrays: dict) -> DealConditions:
    """The ``DealConditions`` of ``Situation.kernel_arrays()``, typed as the kernels take them."""
    return DealConditions(arrays["pool"], arrays["fixed"], arrays["need"], np.uint64(arrays["talon_fixed"]),
                          np.int64(arrays["talon_need"]), np.uint64(arrays["revealed"]))


@nb.njit(cache=True)
def trick_round(n_colours, flags, rng, codes, bcounts):
    """A ``TrickRound`` with fresh state (``trickstate.new_state``) and result arrays for ``codes``' bet slots."""
    board, game_state, money = new_state(n_colours, flags)
    players = bcounts.shape[0]
    return TrickRound(board, game_state, money, rng, codes, bcounts,
                      np.zeros((players, codes.shape[1]), dtype=np.int64), np.zeros(players, dtype=np.bool_))
