"""The rulebook, kept apart from the state, and how kernels find it.

The rulebook is two vectors that no kernel writes during a game (Circus
keeps its ``rulebook`` the same way): ``rules`` (int64: the trick phase's
rule flags, ``layout.TRICK_RULES``, then ``layout.RULES``: the rule set's
integer numbers, the catalogue, each profile entry's policies, the run's
settings) and ``money_rules`` (float64,
``layout.MONEY_RULES``: the money rules and policy parameters, then the
fitted success model from ``MODEL_START`` and the network's packed
weights). The state vectors (``game_state``, ``money``) hold what changes.

The hot kernels pass ``(board, game_state, money, rng)`` through thousands
of small calls per round, and every array argument costs seven machine words
a call (``tabletop_mc.jit``), so the rulebook travels inside the state
rather than beside it: ``game_state`` keeps the two vectors' addresses
(``TRICK_STATE.rules_at``, ``GAME.money_rules_at``, and ``GAME.money_rules_size``),
and a kernel reads the rules as ``rules_of(game_state)[RULES.players]``
through a pointer (``tabletop_mc.pointers``), no copy. The trick phase reads
only the head of ``rules`` (``nines_own``), so a trick-phase state outside a
game (an odds query's, a DD solve's, a PIMC seat's) carries a rulebook of
just that head in its own buffer (``trickstate.new_state``). A copy of the state (a chunk's, a
rollout's) reads the same rulebook, so a rollout copies only what changes.
The vectors must outlive every state that points at them, and an address
means nothing in another process: ``analysis.game.setup.bind`` puts all
three in one buffer that the state keeps alive (for calls in this process),
and the chunk kernels, whose arguments may be pickled, take the rulebook as
arrays (``contexts.GameArrays``) and bind their own copies of the state to
it (``copy_game``, ``attach``) while they hold it
(``tests/plumbing/test_pointers_held.py`` reads every kernel that binds one).
"""

import numba as nb
import numpy as np

from tabletop_mc.pointers import at_address
from sponsio_sim.kernels.layout import GAME, NINES_OWN, TRICK_RULES, TRICK_STATE


@nb.njit(cache=True, inline="always")
def rules_of(game_state):
    """The ``rules`` vector (``layout.RULES``) ``game_state`` reads: a pointer to it
    (``rules_of(game_state)[RULES.players]``; ``tabletop_mc.pointers.offset`` for the rest of it from a
    field on). No array is made of it: numba cannot make one in a ``no_refcount`` kernel or under one."""
    return at_address(game_state[TRICK_STATE.rules_at], np.int64)


@nb.njit(cache=True, inline="always")
def nines_own(game_state):
    """Whether a nines bet judges only its bettor's 9s (``nines_scope = own``): the trick phase's one
    rule flag (``TRICK_RULES.flags``)."""
    return (rules_of(game_state)[TRICK_RULES.flags] & NINES_OWN) != 0


@nb.njit(cache=True, inline="always")
def money_rules_of(game_state):
    """The ``money_rules`` vector (``layout.MONEY_RULES``, the success model, the network's weights)
    ``game_state`` reads: a pointer to it (``GAME.money_rules_size`` values)."""
    return at_address(game_state[GAME.money_rules_at], np.float64)


@nb.njit(cache=True)
def copy_game(arrays):
    """Copies of ``arrays``' (a ``contexts.GameArrays``) board, game_state and money to play in, the
    state reading ``arrays``' rulebook (the caller holds ``arrays``): how the chunk kernels start, whose
    arrays may have travelled (pickled, to another process) without the addresses."""
    game_state = arrays.game_state.copy()
    attach(game_state, arrays.rules, arrays.money_rules)
    return arrays.board.copy(), game_state, arrays.money.copy()


@nb.njit(cache=True)
def attach(game_state, rules, money_rules):
    """``game_state`` reads the rulebook ``rules``, ``money_rules`` (the caller keeps both alive)."""
    game_state[TRICK_STATE.rules_at] = rules.ctypes.data
    game_state[GAME.money_rules_at] = money_rules.ctypes.data
    game_state[GAME.money_rules_size] = money_rules.shape[0]
