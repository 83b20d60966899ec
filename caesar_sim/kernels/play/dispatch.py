"""A seat's action under a policy that decides at once (numba): the one place every move of
`random`, `greedy`, `value`, `tuned`, `distilled` and `net` goes through, in games (``kernels.game.engine.decide``)
and in `mc`'s rollouts (``mc.rollout_action``). `mc` itself searches (``mc.mc_action``)."""

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow
from caesar_sim.kernels.layout import DISTILLED, GREEDY, MC, NET, RANDOM, TUNED, VALUE
from caesar_sim.kernels.play.net import net_action
from caesar_sim.kernels.play.policies import greedy_action, legal_actions
from caesar_sim.kernels.play.scan import scored_action


@no_refcount
def fast_action(t, p, pol):
    """Seat ``p``'s action on pointers ``t`` (``kernels.contexts``) under policy ``pol``."""
    if pol == RANDOM:
        return t.actions[randbelow(t.rng, legal_actions(t.game_state, p, t.actions, 0))]
    if pol == GREEDY:
        return greedy_action(t.rulebook, t.game_state, t.weight_table, p)
    if pol == VALUE or pol == TUNED or pol == DISTILLED:
        return scored_action(t.rulebook, t.game_state, t.weight_table, p, t.scratch, t.actions, t.rng, pol == DISTILLED)
    if pol == NET:
        return net_action(t, p)
    if pol == MC:
        raise ValueError("fast_action: mc searches (mc_action); its rollouts are played by another policy")
    raise ValueError("unknown Circus policy")
