"""Which betting policy decides a seat's action: dispatch on its entry's policy code.

The scored policies (``ev``, its softmax, ``random``, ``distilled``) are compiled
only into runs where an entry that can be seated bets by one (``scored`` not
None, ``scored_in_play``): a game of ``net`` and ``troll`` seats, as the
reference fields are, does not compile them (a quarter of its first run).
"""

import numba as nb

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.betting.phase import entry_of
from sponsio_sim.kernels.betting.policies import choose_ev, choose_random
from sponsio_sim.kernels.betting.net import choose_net
from sponsio_sim.kernels.betting.scored import choose_distilled, choose_soft
from sponsio_sim.betting_policies import BET_DISTILLED, BET_EV, BET_MC, BET_NET, BET_RANDOM, BET_TROLL
from sponsio_sim.kernels.layout import GAME, MONEY_RULES, PASS, RULES
from sponsio_sim.kernels.field import seatable
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of


@nb.njit(cache=True, inline="always")
def is_scored(pol):
    """Whether betting policy code ``pol`` is one compiled only where ``scored`` is not None."""
    return pol == BET_EV or pol == BET_RANDOM or pol == BET_DISTILLED


@no_refcount
def choose_action(s, board, game_state, money, state, scored):
    """Seat s's betting action ``(act, x, y, rv)`` under its entry's policy
    (``troll`` always passes; ``mc`` seats are searched by the caller,
    ``betting.mc``). ``scored`` is None where no entry bets by a scored policy
    (``scored_in_play``): numba's dead-branch pruning then leaves them out of
    the compiled code; a boolean keeps them (``np.bool_(True)`` in a kernel)."""
    e = entry_of(s, game_state)
    pol = game_state[GAME.betting_policy + e]
    if scored is not None:
        if pol == BET_EV:
            if money_rules_of(game_state)[MONEY_RULES.temperature + e] > 0.0:
                return choose_soft(s, board, game_state, money, state)
            return choose_ev(s, board, game_state, money)
        if pol == BET_RANDOM:
            return choose_random(s, board, game_state, money, state)
        if pol == BET_DISTILLED:
            return choose_distilled(s, board, game_state, money, state)
    elif is_scored(pol):
        raise ValueError("choose_action: a scored betting policy in a run compiled without them (scored_in_play)")
    if pol == BET_TROLL:
        return PASS, -1, -1, -1
    if pol == BET_NET:
        return choose_net(s, board, game_state, money, state)
    if pol == BET_MC:
        raise ValueError("choose_action: an mc seat decides by its search (betting.mc), or bets by ev in one")
    raise ValueError("unknown betting policy")


@nb.njit(cache=True)
def scored_in_play(game_state):
    """Whether a run from ``game_state`` (bound to its rulebook) may call a
    scored policy: some entry that can be seated (``field.seatable``) bets by
    one, or some entry bets by ``mc``, whose rollouts play it by
    ``RULES.mc_self_policy`` (``ev`` or ``distilled``)."""
    rules = rules_of(game_state)
    if rules[RULES.mc_any]:
        return True
    for e in range(rules[RULES.entries]):
        if seatable(e, game_state) and is_scored(game_state[GAME.betting_policy + e]):
            return True
    return False
