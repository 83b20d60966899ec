"""The trick phase's state arrays: fresh ones (``new_state``), a deal loaded
into them (``set_round``), and where a seat's relevance entry sits
(``rel_at``). Their layouts (``BOARD``, ``TRICK_STATE``, ``TRICK_MONEY``) are
the vocabulary's (``kernels.layout``).
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.bits import RANKS, U0, colour_masks, nines_mask
from sponsio_sim.kernels.layout import BOARD, MAX_REL, REL_FIELDS, TRICK_MONEY, TRICK_RULES, TRICK_STATE


@nb.njit(cache=True, inline="always")
def rel_at(s, j, field):
    """Offset in ``game_state`` of field ``field`` of seat s's j-th relevance entry."""
    return TRICK_STATE.rel + (s * MAX_REL + j) * REL_FIELDS + field


@nb.njit(cache=True)
def new_state(n_colours, flags=0):
    """Fresh (board, game_state, money) arrays with the deck's constant masks, the state reading a
    rulebook of its own with the trick phase's rule flags ``flags`` (``layout.TRICK_RULES``): one
    buffer holds both, so the rulebook lives as long as the state (``kernels.rulebook``; a whole
    game's state is bound to its whole rulebook instead, ``analysis.game.setup.bind``)."""
    board = np.zeros(BOARD.size, dtype=np.uint64)
    masks = colour_masks(n_colours)
    for c in range(n_colours):
        board[BOARD.colour_masks + c] = masks[c]
    board[BOARD.deck] = (np.uint64(1) << np.uint64(n_colours * RANKS)) - np.uint64(1)
    board[BOARD.nine_cards] = nines_mask(n_colours)
    raw = np.zeros(TRICK_STATE.size + TRICK_RULES.size, dtype=np.int64)
    game_state = raw[:TRICK_STATE.size]
    rules = raw[TRICK_STATE.size:]
    rules[TRICK_RULES.flags] = flags
    game_state[TRICK_STATE.rules_at] = rules.ctypes.data
    money = np.zeros(TRICK_MONEY.size, dtype=np.float64)
    return board, game_state, money


@no_refcount
def set_round(board, game_state, hands, talon, revealed):
    """Load a deal: hands, talon and revealed cards; clear tricks, won, voids."""
    for s in range(hands.shape[0]):
        board[BOARD.hands + s] = hands[s]
        board[BOARD.won + s] = U0
        game_state[TRICK_STATE.tricks_won + s] = 0
        game_state[TRICK_STATE.void + s] = 0
    board[BOARD.talon] = talon
    board[BOARD.revealed] = revealed
    board[BOARD.played] = U0
