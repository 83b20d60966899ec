"""The trick phase (docs/rules-sponsio.md section 5): follow colour, no trumps, winner leads."""

import numba as nb
import numpy as np
from numba import types
from numba.extending import overload

from sponsio_sim.kernels.bets import bet_decided
from sponsio_sim.kernels.bits import RANKS, U0, U1, beats, bit, lowest, popcount
from sponsio_sim.kernels.contexts import Trick
from sponsio_sim.kernels.play.policies import GOAL, GREEDY, RANDOM, choose_random, choose_scored
from sponsio_sim.kernels.layout import BOARD, TRICK_STATE


HOOKED = 3  # policy codes from here on choose through ``choose_hooked``


def choose_hooked(ctx, s, legal, trick, order, nine_lost, board, game_state, state):
    """The card of a seat whose policy code is >= ``HOOKED``.

    Resolved at compile time by the type of ``ctx``: a module adding such a
    policy registers a ``numba.extending.overload`` of this function for its
    own context type (a namedtuple class, see ``pimc``). A static call, unlike
    a function passed as an argument, keeps the callers cacheable."""
    raise NotImplementedError("choose_hooked is resolved inside jitted code")


@overload(choose_hooked, jit_options={"cache": True})
def _choose_hooked_none(   # types the call for ctx None; never runs (play_tricks compiles the branch out)
        ctx, s, legal, trick, order, nine_lost, board, game_state, state):
    if isinstance(ctx, types.NoneType):
        def impl(ctx, s, legal, trick, order, nine_lost, board, game_state, state):
            if legal != U0:   # always: a seat chooses among its legal cards (the test keeps the type int)
                raise ValueError("a policy code >= HOOKED needs its context")
            return -1
        return impl
    return None


@nb.njit(cache=True)   # counts references: a hook (``pimc``) allocates
def play_tricks(players, leader, policy, board, game_state, money, state, ctx, stop):
    """Play every trick of the deal loaded in ``board`` (see ``trickstate.set_round``).

    ``policy[s]`` picks seat s's policy: the shared ones (``policies``), or,
    for codes >= ``HOOKED``, ``choose_hooked(ctx, s, legal, trick, order,
    nine_lost, board, game_state, state)``, resolved at compile time by the
    type of ``ctx`` (``None``: no hook; the hook's bookkeeping is then
    compiled out). ``trick`` is the trick so far (``contexts.Trick``);
    ``order`` packs its cards, 6 bits each from the leader's.

    Hands are emptied; tricks won and cards won end up in ``game_state[TRICK_STATE.tricks_won + s]``
    and ``board[BOARD.won + s]``, the cards in play order in ``game_state[TRICK_STATE.seq:]``, trick
    t's winner in ``game_state[TRICK_STATE.winners + t]`` and the number of tricks in
    ``game_state[TRICK_STATE.n_played]`` (the outcome ``bets.settle`` reads). Returns
    ``(last_trick_winner, nine_lost)``, ``nine_lost`` the bitmask of seats that
    played a 9 that lost its trick (only a discarded 9 can: a 9 is the top
    rank of its colour).

    ``stop`` (an int64 array: kind, a, b, seat; kind < 0 for none) ends the
    round at the first trick boundary where that bet is settled
    (``bets.bet_decided``): the outcome then holds for that bet only, and
    ``game_state[TRICK_STATE.n_played]`` counts the tricks played. ``None``: the check is
    compiled out.
    """
    return play_scripted(players, leader, policy, board, game_state, money, state, ctx, stop, None)


@nb.njit(cache=True)
def play_scripted(players, leader, policy, board, game_state, money, state, ctx, stop, script):
    """``play_tricks``, the trick phase's first cards given by ``script``
    (None: none, compiled out), an int64 array ``(n, halt, card, card, ...)``:
    its ``n`` cards are played first, in order from the first lead (a trick
    phase so far, replayed: who wins, voids shown, 9s lost), then the
    policies play on. ``halt`` -1 plays to the end; -2 stops right after the
    scripted cards; a seat ``s >= 0`` stops when s is next to play after
    them. A stop may fall inside a trick: its cards so far are in
    ``game_state[TRICK_STATE.seq:]`` and out of the hands, ``game_state[TRICK_STATE.n_played]`` counts the
    finished tricks, and the return value's first item is the trick's leader.
    The scripted cards are not checked: the caller gives legal play, and
    voids are read from the cards (a card not of the led colour shows one)."""
    n_tricks = popcount(board[BOARD.hands + leader])
    nines = board[BOARD.nine_cards]
    nine_lost = 0
    k = 0
    n_script = 0
    halt = -1
    if script is not None:   # pruned at compile time when None
        n_script = script[0]
        halt = script[1]
    for t in range(n_tricks):
        tricks_left = n_tricks - t
        trick_mask = U0
        order = U0
        led = -1
        led_mask = U0
        best = -1
        best_seat = -1
        s = leader - 1
        for pos in range(players):
            s += 1
            if s == players:
                s = np.int64(0)
            h = board[BOARD.hands + s]
            if script is not None and k >= n_script and halt != -1 and (halt == -2 or halt == s):
                game_state[TRICK_STATE.n_played] = t
                return leader, nine_lost
            if script is not None and k < n_script:
                c = script[2 + k]
                if pos > 0 and (bit(c) & led_mask) == U0:
                    game_state[TRICK_STATE.void + s] |= np.int64(1) << led
            else:
                if pos == 0:
                    legal = h
                else:
                    legal = h & led_mask
                    if legal == U0:
                        legal = h
                        game_state[TRICK_STATE.void + s] |= np.int64(1) << led
                pol = policy[s]
                if pol == RANDOM:
                    c = choose_random(legal, state)
                elif (legal & (legal - U1)) == U0:
                    c = lowest(legal)
                elif pol == GREEDY or pol == GOAL:
                    c = choose_scored(s, pol == GOAL, legal,
                                      Trick(players, leader, pos, led, best, best_seat, trick_mask, tricks_left),
                                      board, game_state, money)
                elif ctx is not None and pol >= HOOKED:
                    c = choose_hooked(ctx, s, legal,
                                      Trick(players, leader, pos, led, best, best_seat, trick_mask, tricks_left),
                                      order, nine_lost, board, game_state, state)
                else:
                    raise ValueError("unknown play policy (or a hooked one without its context)")
            b = bit(c)
            board[BOARD.hands + s] = h & ~b
            board[BOARD.revealed] &= ~b
            game_state[TRICK_STATE.seq + k] = c
            k += 1
            trick_mask |= b
            if ctx is not None:   # pruned at compile time: only a hook reads the trick so far
                order |= np.uint64(c) << np.uint64(6 * pos)
            if pos == 0:
                led = c // RANKS
                led_mask = board[BOARD.colour_masks + led]
                best = c
                best_seat = s
            elif beats(c, best):
                best = c
                best_seat = s
            elif (b & nines) != U0:   # a 9 that does not take the trick was discarded: it loses
                nine_lost |= 1 << s
        game_state[TRICK_STATE.winners + t] = best_seat
        game_state[TRICK_STATE.tricks_won + best_seat] += 1
        board[BOARD.won + best_seat] |= trick_mask
        board[BOARD.played] |= trick_mask
        leader = best_seat
        if stop is not None:   # pruned at compile time when None
            if stop[0] >= 0 and bet_decided(stop[0], stop[1], stop[2], stop[3], players, board, game_state, nine_lost):
                game_state[TRICK_STATE.n_played] = t + 1
                return leader, nine_lost
    game_state[TRICK_STATE.n_played] = n_tricks
    return leader, nine_lost


# ``play_scripted`` inlined into its caller and so compiled under the caller's flags: a
# ``no_refcount`` round loop plays its tricks without counting references to the state arrays
# (``play_tricks`` counts them at each call: a hook may allocate). Inlined only, never compiled
# alone, so never cached under ``play_scripted``'s name.
play_borrowed = nb.njit(inline="always")(play_scripted.py_func)
