"""The trick phase's state, packed into three flat arrays.

numba reference-counts every array passed to a function, and a call that
takes ten arrays costs more than a whole trick, so the kernels keep a
round's state in three arrays, each declared once with
``tabletop_mc.records.layout`` (``BOARD``, ``TRICK_STATE``, ``TRICK_MONEY``):
kernels index them at compiled-in offsets (``board[BOARD.hands + s]``), the
analysis layer and the tests read them by name (``BOARD.named(board)["hands"]``).

- ``board`` (uint64): hands, won cards, colour masks and public masks;
- ``game_state`` (int64): tricks won, voids, scratch seats, the relevance
  table (which bets each seat plays for or against, see policies), the
  cards of the trick phase in play order, the rule flags, and each
  trick's winner (what bets are settled on, with ``board``'s won cards);
- ``money`` (float64): the goal policy's scratch.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.records import layout
from sponsio_sim.kernels.bits import RANKS, U0, colour_masks, nines_mask
from sponsio_sim.rules import NINES_OWN_FLAG

MAX_PLAYERS = 6
MAX_COLOURS = 4
MAX_REL = 16
REL_FIELDS = 5  # kind, a, b, owner, sign
MAX_CARDS = MAX_COLOURS * RANKS
MAX_TRICKS = MAX_CARDS // 2
NINES_OWN = NINES_OWN_FLAG   # rule flag: a nines bet judges only its bettor's 9s (``nines_scope = own``)

# the cards (uint64 bit masks)
BOARD = layout(np.uint64, (
    ("hands", MAX_PLAYERS), ("won", MAX_PLAYERS),
    ("colour_masks", MAX_COLOURS),   # the deck's cards of each colour
    ("talon", ()), ("revealed", ()), ("played", ()),
    ("deck", ()),                    # every card of the rule set
    ("nine_cards", ()),              # the deck's 9s
), name="Board")

# the trick phase's integers
TRICK_STATE = layout(np.int64, (
    ("tricks_won", MAX_PLAYERS),
    ("void", MAX_PLAYERS),           # per seat: bit c set, known void in colour c
    ("can", MAX_PLAYERS),            # scratch seats
    ("n_rel", MAX_PLAYERS),          # relevance entries per seat
    ("rel", (MAX_PLAYERS, MAX_REL, REL_FIELDS)),   # per seat, the bets it plays for or against (``rel_at``)
    ("seq", MAX_CARDS),              # cards in play order (set by play_tricks)
    ("flags", ()),                   # rule flags (NINES_OWN)
    ("winners", MAX_TRICKS),         # the winner of each trick, in play order (set by play_tricks)
    ("n_played", ()),                # tricks play_tricks played
), name="TrickState")

# the goal policy's scratch: one value per seat (``play.policies``)
TRICK_MONEY = layout(np.float64, (("goal_scratch", MAX_PLAYERS),), name="TrickMoney")


@nb.njit(cache=True, inline="always")
def rel_at(s, j, field):
    """Offset in ``game_state`` of field ``field`` of seat s's j-th relevance entry."""
    return TRICK_STATE.rel + (s * MAX_REL + j) * REL_FIELDS + field


@nb.njit(cache=True)
def new_state(n_colours, flags=0):
    """Fresh (board, game_state, money) arrays with the deck's constant masks and the rule flags set."""
    board = np.zeros(BOARD.size, dtype=np.uint64)
    masks = colour_masks(n_colours)
    for c in range(n_colours):
        board[BOARD.colour_masks + c] = masks[c]
    board[BOARD.deck] = (np.uint64(1) << np.uint64(n_colours * RANKS)) - np.uint64(1)
    board[BOARD.nine_cards] = nines_mask(n_colours)
    game_state = np.zeros(TRICK_STATE.size, dtype=np.int64)
    game_state[TRICK_STATE.flags] = flags
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
