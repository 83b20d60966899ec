"""Double-dummy solver building blocks: workspace layout, keys, goals.

The search itself is in ``dd.search``, its bounds in ``dd.bounds``, the bet
goals in ``dd.goals``; this module holds the workspace and the move codes.
Everything is scalar or plain arrays (numba only).

Workspace (``dd.context.Workspace``, one per thread, reused across solves):
- ``plies[d, F_*]`` int64 per ply: who moves, trick state, the move list;
- ``ply_cards[d, U_*]`` uint64 per ply: cards in the current trick, the
  winning ranks gathered so far, the position words of a trick boundary;
- ``tally[t, :]`` int64 per completed-trick count ``t``: tricks per seat,
  captured cards per seat and colour, nines-ok flag, the winners of the
  last and the first trick (-1 before any);
- ``table``: the transposition table of ``dd.tt`` (winning ranks, relative
  ranks). An entry is live only under the caller's current ``stamp``, so no
  clearing between solves is needed. Its move hint is the last move that
  decided the node (colour x 9 + relative rank + 1, 0 for none), tried
  first when the position comes back.

Two extra key words carry the leader and, for bet goals, the accumulated
state those bets still depend on (``goals.bet_extra_keys``).
"""

import numba as nb
import numpy as np

from sponsio_sim.kernels.bits import RANKS, U0, U1, bit, lowest, popcount
from sponsio_sim.kernels.dd.context import Workspace
from sponsio_sim.kernels.dd.tt import U_REL0, new_table
from sponsio_sim.kernels.layout import MAX_PLAYERS

# Search modes.
MODE_TRICKS, MODE_BET = 0, 1
MAX_MOVES = 18                 # a hand holds at most 36 / 2 cards
# Per-ply int fields.
# F_MAX_SIDE: the seat to move is on the maximising side; F_TRICKS_DONE: tricks completed (the tally row).
F_SEAT, F_POS, F_LEADER, F_BEST, F_BEST_SEAT, F_LED, F_TRICKS_DONE, F_N_MOVES, F_NEXT_MOVE, F_SLOT, F_NEED, \
    F_MAX_SIDE, F_EXPANDED, F_HINT = range(14)
F_MOV0 = 14
F_SC0 = F_MOV0 + MAX_MOVES
N_FIELDS = F_SC0 + MAX_MOVES
# Per-ply uint64 fields: trick mask, winning ranks so far, the position
# words the transposition table reads (``dd.tt``), then the moves found
# equivalent to one already tried (``dd.moves.skip_small``).
U_TMASK, U_WIN_RANKS = 0, 1
U_SKIP = U_REL0 + MAX_PLAYERS
N_UFIELDS = U_SKIP + 1
TT_BITS = 16


@nb.njit(cache=True, inline="always")
def tally_layout(players, n_colours):
    """Column offsets in a ``tally`` row: (captured, nines_ok, last, first, width)."""
    captured = players
    nines_ok = captured + players * n_colours
    return captured, nines_ok, nines_ok + 1, nines_ok + 2, nines_ok + 3


@nb.njit(cache=True, inline="always")
def tally_advance(tally, tricks_done, win, tm, best, colmask, nines, players, full):
    """``tally[tricks_done + 1]``: row ``tricks_done`` after seat ``win``
    takes the trick ``tm`` (top card ``best``); ``full``: the bet counters
    too, else tricks only."""
    n_col = colmask.shape[0]
    captured, nines_ok, last, first, width = tally_layout(players, n_col)
    for j in range(width if full else players):
        tally[tricks_done + 1, j] = tally[tricks_done, j]
    tally[tricks_done + 1, win] += 1
    if full:
        for col in range(n_col):
            tally[tricks_done + 1, captured + win * n_col + col] += popcount(tm & colmask[col])
        if (tm & nines & ~bit(best)) != U0:
            tally[tricks_done + 1, nines_ok] = 0
        tally[tricks_done + 1, last] = win
        if tally[tricks_done + 1, first] < 0:
            tally[tricks_done + 1, first] = win


@nb.njit(cache=True)
def new_workspace(players, n_colours, max_cards, tt_bits):
    """A ``Workspace`` for one thread's solves (see module docstring)."""
    n_plies = max_cards + 2
    width = tally_layout(players, n_colours)[4]
    plies = np.zeros((n_plies, N_FIELDS), dtype=np.int64)
    ply_cards = np.zeros((n_plies, N_UFIELDS), dtype=np.uint64)
    tally = np.zeros((max_cards // max(players, 1) + 2, width), dtype=np.int64)
    return Workspace(plies, ply_cards, tally, new_table(players, tt_bits))


@nb.njit(cache=True, inline="always")
def side_tricks(row, side, players):
    """Tricks the seats in mask ``side`` have won (``row``: a ``tally`` row)."""
    n = 0
    for t in range(players):
        if (side >> t) & 1:
            n += row[t]
    return n


@nb.njit(cache=True, inline="always")
def rel_move(c, in_play):
    """A card as colour x 9 + its rank among the colour's cards in play, + 1."""
    base = (c // RANKS) * RANKS
    return base + popcount(in_play & (bit(c) - U1) & ~(bit(base) - U1)) + 1


@nb.njit(cache=True, inline="always")
def abs_move(move, hand, in_play):
    """The card of ``hand`` that ``rel_move`` encoded as ``move`` (-1: none)."""
    if move == 0:
        return -1
    base = ((move - 1) // RANKS) * RANKS
    k = move - 1 - base
    m = in_play & (np.uint64(0x1FF) << np.uint64(base))
    for _ in range(k):
        if m == U0:
            return -1
        m &= m - U1
    if m == U0:
        return -1
    c = lowest(m)
    return c if (hand & bit(c)) != U0 else -1


