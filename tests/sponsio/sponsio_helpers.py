"""Test helpers: build kernel inputs from card strings, play one deal."""

import numpy as np

from sponsio_sim.bets import encode_table, parse_bet_set
from sponsio_sim.cards import mask_of, parse_cards
from sponsio_sim.kernels.play.tricks import play_tricks
from sponsio_sim.kernels.play.policies import build_relevance
from sponsio_sim.kernels.table import N_PLAYED, TRICKS_WON, WINNERS, WON, new_state, set_round
from tabletop_mc.rng import new_state as new_rng


def play_deal(rules, hands, talon="", leader=0, policy=0, bets=None, seed=0):
    """Play a hand-made deal; return (tricks, won masks, last winner, nines_ok)."""
    tricks, won, last, nine_lost = play_deal_raw(rules, hands, talon, leader, policy, bets, seed)
    return tricks, won, last, nine_lost == 0


def play_deal_raw(rules, hands, talon="", leader=0, policy=0, bets=None, seed=0):
    """Play a hand-made deal; return (tricks, won masks, last winner, seats whose 9 lost as a bitmask)."""
    masks = np.array([mask_of(parse_cards(h, rules)) for h in hands], dtype=np.uint64)
    talon_mask = np.uint64(mask_of(parse_cards(talon, rules)))
    tab, ints, weight = new_state(rules.n_colours, rules.kernel_flags)
    codes, counts = encode_table({s: parse_bet_set(b, rules, s) for s, b in (bets or {}).items()},
                                 rules.players)
    build_relevance(codes, counts, ints)
    set_round(tab, ints, masks, talon_mask, np.uint64(0))
    policies = np.full(rules.players, policy, dtype=np.int64)
    last, nine_lost = play_tricks(rules.players, leader, policies, tab, ints, weight, new_rng(seed), None, None)
    tricks = [int(x) for x in ints[TRICKS_WON:TRICKS_WON + rules.players]]
    won = [int(x) for x in tab[WON:WON + rules.players]]
    return tricks, won, int(last), int(nine_lost)


def write_outcome(tab, ints, rules, tricks, won=None, last=-1, first=-1):
    """Leave in ``tab``/``ints`` the outcome of a trick phase as ``play_tricks``
    would: ``tricks[s]`` won, ``won[s]`` the cards in seat s's tricks (card
    strings), ``last``/``first`` the winners of the last and first trick."""
    p = rules.players
    for s in range(p):
        ints[TRICKS_WON + s] = tricks[s]
        tab[WON + s] = mask_of(parse_cards((won or [""] * p)[s], rules))
    n = max(int(sum(tricks)), 1)
    ints[N_PLAYED] = n
    ints[WINNERS:WINNERS + n] = -1
    ints[WINNERS] = first
    ints[WINNERS + n - 1] = last
    return tab, ints


def outcome(rules, tricks, won=None, last=-1, first=-1):
    """Fresh (tab, ints) holding a trick phase's outcome (``write_outcome``)."""
    tab, ints, _ = new_state(rules.n_colours, rules.kernel_flags)
    return write_outcome(tab, ints, rules, tricks, won, last, first)
