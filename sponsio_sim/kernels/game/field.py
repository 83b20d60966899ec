"""Equilibrium fields in the full game: which entry each seat plays.

A profile either seats its entries (entry = seat, or turned one seat per
game with ``I_ROTATE``: ``engine.start_game``), or is a **field**
(``I_FIELD``): each game, every
seat draws its entry independently from the cumulative weights ``W_MIX``,
from a stream of its own ``(seed ^ FIELD_KEY, round_stream(chunk, g, 0))``,
so the draws depend on neither the deals nor how the policies use their
random numbers. The focal seat of game g is seat ``g % players``
(``I_FOCAL_SEAT``); with ``I_FOCAL >= 0`` it plays entry ``I_FOCAL`` instead of its draw; the other
seats' draws are unchanged, so a deviation is paired with the base field
game by game (``kernels.game.exploit``). Rollouts of an ``mc`` seat in a
field do not know which members the others drew: each rollout draws them
again (``redraw_others``).
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state, uniform
from sponsio_sim.kernels.game.layout import I_ENTRY, I_FOCAL, I_FOCAL_SEAT, I_NENTRIES, I_PLAYERS, W_MIX

FIELD_KEY = np.uint64(0xF1E1D5EA75F1E1D5)   # the draws' key, apart from every round's stream


@nb.njit(cache=True, inline="always")
def field_entry(u, game_state, money):
    """The entry a uniform ``u`` in [0, 1) picks: the first whose cumulative weight exceeds it."""
    last = game_state[I_NENTRIES] - 1
    for e in range(last):
        if u < money[W_MIX + e]:
            return e
    return last


@nb.njit(cache=True)
def draw_entries(seed, stream, g, game_state, money, state):
    """Every seat's entry for game ``g`` of a field (module docstring); ``stream`` is the
    game's ``round_stream(chunk, g, 0)``. ``state`` is scratch (each round reseeds it)."""
    players = game_state[I_PLAYERS]
    seed_state(np.uint64(seed) ^ FIELD_KEY, np.uint64(stream), state)
    for s in range(players):
        game_state[I_ENTRY + s] = field_entry(uniform(state), game_state, money)
    game_state[I_FOCAL_SEAT] = g % players
    if game_state[I_FOCAL] >= 0:
        game_state[I_ENTRY + g % players] = game_state[I_FOCAL]


@nb.njit(cache=True)
def redraw_others(s, game_state, money, rs):
    """In a field (the caller checks ``I_FIELD``), every seat but s draws its entry
    anew from ``rs``: seat s cannot see which members the others drew."""
    for t in range(game_state[I_PLAYERS]):
        if t != s:
            game_state[I_ENTRY + t] = field_entry(uniform(rs), game_state, money)
