"""Which betting policy decides a seat's action: dispatch on its entry's policy code."""

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.betting.phase import entry_of
from sponsio_sim.kernels.betting.policies import choose_ev, choose_random
from sponsio_sim.kernels.betting.net import choose_net
from sponsio_sim.kernels.betting.scored import choose_distilled, choose_soft
from sponsio_sim.betting_policies import BET_DISTILLED, BET_EV, BET_MC, BET_NET, BET_RANDOM, BET_TROLL
from sponsio_sim.kernels.layout import GAME, MONEY_RULES, PASS
from sponsio_sim.kernels.rulebook import money_rules_of


@no_refcount
def choose_action(s, board, game_state, money, state):
    """Seat s's betting action ``(act, x, y, rv)`` under its entry's policy
    (``troll`` always passes; ``mc`` seats are searched by the caller,
    ``betting.mc``)."""
    money_rules = money_rules_of(game_state)
    e = entry_of(s, game_state)
    pol = game_state[GAME.betting_policy + e]
    if pol == BET_EV:
        if money_rules[MONEY_RULES.temperature + e] > 0.0:
            return choose_soft(s, board, game_state, money, state)
        return choose_ev(s, board, game_state, money)
    if pol == BET_RANDOM:
        return choose_random(s, board, game_state, money, state)
    if pol == BET_DISTILLED:
        return choose_distilled(s, board, game_state, money, state)
    if pol == BET_TROLL:
        return PASS, -1, -1, -1
    if pol == BET_NET:
        return choose_net(s, board, game_state, money, state)
    if pol == BET_MC:
        raise ValueError("choose_action: an mc seat decides by its search (betting.mc), or bets by ev in one")
    raise ValueError("unknown betting policy")
