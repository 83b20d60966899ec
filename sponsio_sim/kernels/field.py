"""Equilibrium fields in the full game: which entry each seat plays.

A profile either seats its entries (entry = seat, or turned one seat per
game with ``RULES.rotate``: ``game.engine.start_game``), or is a **field**
(``RULES.field``): each game, every
seat draws its entry independently from the cumulative weights ``MONEY_RULES.field_mix``,
from a stream of its own ``(seed ^ FIELD_KEY, round_stream(chunk, g, 0))``,
so the draws depend on neither the deals nor how the policies use their
random numbers. The focal seat of game g is seat ``g % players``
(``GAME.focal_seat``); with ``RULES.focal_entry >= 0`` it plays that entry instead of its draw; the other
seats' draws are unchanged, so a deviation is paired with the base field
game by game (``kernels.game.exploit``). Rollouts of an ``mc`` seat in a
field do not know which members the others drew: each rollout draws them
again (``redraw_others``).
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state, uniform
from sponsio_sim.kernels.layout import GAME, MONEY_RULES, RULES
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of

FIELD_KEY = np.uint64(0xF1E1D5EA75F1E1D5)   # the draws' key, apart from every round's stream


@nb.njit(cache=True, inline="always")
def field_entry(u, game_state, money):
    """The entry a uniform ``u`` in [0, 1) picks: the first whose cumulative weight exceeds it."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    last = rules[RULES.entries] - 1
    for e in range(last):
        if u < money_rules[MONEY_RULES.field_mix + e]:
            return e
    return last


@nb.njit(cache=True)
def seatable(e, game_state):
    """Whether some game can seat entry ``e``: every entry of a seated profile; in a field
    the focal entry, and an entry ``field_entry`` returns for some ``u`` in [0, 1) (one of
    zero weight never, unless it is the last and the cumulative weights stop short of 1)."""
    rules = rules_of(game_state)
    if not rules[RULES.field] or e == rules[RULES.focal_entry]:
        return True
    money_rules = money_rules_of(game_state)
    below = money_rules[MONEY_RULES.field_mix + e - 1] if e > 0 else 0.0
    if e == rules[RULES.entries] - 1:
        return below < 1.0
    return money_rules[MONEY_RULES.field_mix + e] > below


@nb.njit(cache=True)
def draw_entries(seed, stream, g, game_state, money, state):
    """Every seat's entry for game ``g`` of a field (module docstring); ``stream`` is the
    game's ``round_stream(chunk, g, 0)``. ``state`` is scratch (each round reseeds it)."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    seed_state(np.uint64(seed) ^ FIELD_KEY, np.uint64(stream), state)
    for s in range(players):
        game_state[GAME.seat_entry + s] = field_entry(uniform(state), game_state, money)
    game_state[GAME.focal_seat] = g % players
    if rules[RULES.focal_entry] >= 0:
        game_state[GAME.seat_entry + g % players] = rules[RULES.focal_entry]


@nb.njit(cache=True)
def redraw_others(s, game_state, money, rs):
    """In a field (the caller checks ``RULES.field``), every seat but s draws its entry
    anew from ``rs``: seat s cannot see which members the others drew."""
    rules = rules_of(game_state)
    for t in range(rules[RULES.players]):
        if t != s:
            game_state[GAME.seat_entry + t] = field_entry(uniform(rs), game_state, money)
