"""The goal policy's bet terms: what each bet a seat plays for or against is
worth in the trick being played, one branch per bet kind (``bet_kinds``).

``goal_weights`` folds every relevance entry (``policies.build_relevance``)
into ``money[o]``, the value to the seat of owner o taking the trick, and
returns the per-card terms ``policies.choose_scored`` adds; ``colour_terms``
scores a card for the colour-count bets. The weights are heuristic constants,
not rules.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import COLOUR, FAIL, FIRST, LAST, NINES, TRICKS
from sponsio_sim.kernels.bits import RANKS, U0, U1, bit, highest, popcount
from sponsio_sim.kernels.trickstate import rel_at
from sponsio_sim.kernels.layout import BOARD, MAX_COLOURS, TRICK_STATE
from sponsio_sim.kernels.rulebook import nines_own

_PACE = 0.25       # mild wish to spread the tricks a tricks=N bet still needs
_AVOID = 0.7       # a tricks=N bettor whose sure winners suffice avoids other tricks
_LAST_LEAD = 0.3   # win the second-to-last trick to lead the last
_COLOUR_GAIN = 0.5  # gaining cards of a colour a colour bet still needs
_VOID_GUESS = 0.1  # chance a seat not known to be void in the led colour is void


@nb.njit(cache=True, inline="always")
def goal_weights(s, players, tricks_left, trick_mask, board, game_state, money):
    """Fold seat s's trick-count and last-trick terms into ``money[o]``: the
    value to s of owner o winning this trick rather than losing it. Returns
    (keep, own_last, colour terms, nines sign, bank) for the per-card terms.

    A seat whose own ``tricks=N`` bet can be filled by its sure winners
    (``sure_winners``) avoids other tricks; winning with a sure winner is
    then neutral: ``bank`` is the weight to give back for such a card.
    """
    for t in range(players):
        money[t] = 0.0
    bank = 0.0
    keep = 0.0
    own_last = False
    n_colour = 0
    nine_sign = 0.0
    for j in range(game_state[TRICK_STATE.n_rel + s]):
        kind = game_state[rel_at(s, j, 0)]
        owner = game_state[rel_at(s, j, 3)]
        sign = game_state[rel_at(s, j, 4)]
        if kind == TRICKS:
            need = game_state[rel_at(s, j, 1)] - game_state[TRICK_STATE.tricks_won + owner]
            if need < 0 or need > tricks_left:
                continue
            if need == 0:
                money[owner] -= sign
            elif need == tricks_left:
                money[owner] += sign
            elif owner == s:
                sure = sure_winners(board[BOARD.hands + s], board[BOARD.played] | board[BOARD.talon] | trick_mask,
                                    board)
                if need > sure:
                    money[s] += _PACE * 2.0 * min(1.0, (need - sure) / max(1, tricks_left - sure))
                else:
                    money[s] -= _AVOID
                    bank += _AVOID
            else:
                money[owner] += sign * _PACE * (2.0 * need - tricks_left) / tricks_left
            if owner == s:
                keep += 1.0 if need > 0 else -1.0
        elif kind == LAST:
            if tricks_left == 1:
                money[owner] += 2.0 * sign
            elif tricks_left == 2:
                money[owner] += sign * _LAST_LEAD
            if owner == s:
                own_last = True
        elif kind == COLOUR:
            n_colour += 1   # scored card by card (``colour_terms``)
        elif kind == FIRST:
            if board[BOARD.played] == U0:   # no trick done yet: this one decides it
                money[owner] += 2.0 * sign
        elif kind == NINES:
            if owner == s or not nines_own(game_state):
                nine_sign += sign  # under nines_scope = own, only the bettor's own 9s count
        elif kind == FAIL:
            raise ValueError("goal_weights: a fail bet enters the relevance table as its targets' bets")
        else:
            raise ValueError("unknown bet kind")
    return keep, own_last, n_colour, nine_sign, bank


@nb.njit(cache=True, inline="always")
def sure_winners(hand, gone, board):
    """Cards of ``hand`` that win whenever led: per colour, the own cards in
    the run from the top down made only of own and gone cards."""
    n = 0
    for col in range(MAX_COLOURS):
        cmask = board[BOARD.colour_masks + col]
        if cmask == U0:
            break
        shift = np.uint64(col * RANKS)
        holes = ~((hand | gone) >> shift) & np.uint64(0x1FF)
        top_run = np.uint64(0x1FF) if holes == U0 else (np.uint64(0x1FF) & ~((bit(highest(holes)) << U1) - U1))
        n += popcount(hand & (top_run << shift))
    return n


@no_refcount
def colour_terms(c, s, trick, lead_col, hold, top_seat, n_can, unknown, board, game_state):
    """Value of playing ``c`` in ``trick`` (a ``contexts.Trick``) for the
    colour-count bets seat s plays for or against.

    The seats still to play add to the trick a card of the led colour each if
    they can follow; seats that cannot (known voids, or a small guessed
    chance) discard, a card of colour C in proportion to C's unknown cards.
    """
    tmask = trick.cards | bit(c)
    gone = board[BOARD.talon] | board[BOARD.played]
    n_rem = trick.players - 1 - trick.pos
    n_unknown = popcount(unknown)
    discards = (n_rem - n_can) + _VOID_GUESS * n_can
    score = 0.0
    for j in range(game_state[TRICK_STATE.n_rel + s]):
        if game_state[rel_at(s, j, 0)] != COLOUR:
            continue
        col = game_state[rel_at(s, j, 1)]
        cmask = board[BOARD.colour_masks + col]
        owner = game_state[rel_at(s, j, 3)]
        need = game_state[rel_at(s, j, 2)] - popcount(board[BOARD.won + owner] & cmask)
        avail = popcount(cmask & ~gone)
        if need < 0 or need > avail:
            continue
        m_c = popcount(tmask & cmask)
        if col == lead_col:
            m_c = min(m_c + n_can, avail)
            extra = 0.0
        elif n_unknown > 0:
            extra = discards * popcount(unknown & cmask) / n_unknown
        else:
            extra = 0.0
        if m_c > need:
            u_win = -1.0
        elif need == 0:
            u_win = -min(1.0, extra)
        else:
            u_win = _COLOUR_GAIN * min(m_c + extra, need) / need
        u_lose = -1.0 if need > avail - m_c else 0.0
        po = hold if owner == top_seat else 0.0
        for k in range(n_can):
            if game_state[TRICK_STATE.can + k] == owner:
                po += (1.0 - hold) / n_can
        score += game_state[rel_at(s, j, 4)] * (po * u_win + (1.0 - po) * u_lose)
    return score
