"""The trick phase's state, packed into three flat arrays.

numba reference-counts every array passed to a function, and a call that
takes ten arrays costs more than a whole trick, so the kernels keep a
round's state in three arrays with fixed offsets:

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
from sponsio_sim.kernels.bits import RANKS, U0, colour_masks, nines_mask
from sponsio_sim.rules import NINES_OWN_FLAG

MAX_PLAYERS = 6
MAX_COLOURS = 4
MAX_REL = 16
REL_FIELDS = 5  # kind, a, b, owner, sign
MAX_CARDS = MAX_COLOURS * RANKS
NINES_OWN = NINES_OWN_FLAG   # rule flag: a nines bet judges only its bettor's 9s (``nines_scope = own``)

# board (uint64) offsets
HANDS = 0
WON = HANDS + MAX_PLAYERS
COLMASK = WON + MAX_PLAYERS
TALON = COLMASK + MAX_COLOURS
REVEALED = TALON + 1
PLAYED = REVEALED + 1
DECK = PLAYED + 1
NINE_CARDS = DECK + 1
TAB_SIZE = NINE_CARDS + 1

# game_state (int64) offsets
TRICKS_WON = 0
VOID = TRICKS_WON + MAX_PLAYERS
CAN = VOID + MAX_PLAYERS
NREL = CAN + MAX_PLAYERS
REL = NREL + MAX_PLAYERS
SEQ = REL + MAX_PLAYERS * MAX_REL * REL_FIELDS   # cards in play order (set by play_tricks)
FLAGS = SEQ + MAX_CARDS     # rule flags (NINES_OWN)
MAX_TRICKS = MAX_CARDS // 2
WINNERS = FLAGS + 1         # the winner of each trick, in play order (set by play_tricks)
N_PLAYED = WINNERS + MAX_TRICKS   # tricks play_tricks played
INTS_SIZE = N_PLAYED + 1


@nb.njit(cache=True, inline="always")
def rel_at(s, j, field):
    """Offset in ``game_state`` of field ``field`` of seat s's j-th relevance entry."""
    return REL + (s * MAX_REL + j) * REL_FIELDS + field


@nb.njit(cache=True)
def new_state(n_colours, flags=0):
    """Fresh (board, game_state, money) arrays with the deck's constant masks and the rule flags set."""
    board = np.zeros(TAB_SIZE, dtype=np.uint64)
    masks = colour_masks(n_colours)
    for c in range(n_colours):
        board[COLMASK + c] = masks[c]
    board[DECK] = (np.uint64(1) << np.uint64(n_colours * RANKS)) - np.uint64(1)
    board[NINE_CARDS] = nines_mask(n_colours)
    game_state = np.zeros(INTS_SIZE, dtype=np.int64)
    game_state[FLAGS] = flags
    money = np.zeros(MAX_PLAYERS, dtype=np.float64)
    return board, game_state, money


@no_refcount
def set_round(board, game_state, hands, talon, revealed):
    """Load a deal: hands, talon and revealed cards; clear tricks, won, voids."""
    for s in range(hands.shape[0]):
        board[HANDS + s] = hands[s]
        board[WON + s] = U0
        game_state[TRICKS_WON + s] = 0
        game_state[VOID + s] = 0
    board[TALON] = talon
    board[REVEALED] = revealed
    board[PLAYED] = U0
