"""Expert iteration's labels: the ``mc`` lookahead values every action ``net`` weighs.

In a labelling run (``game.netrecord``, which hands ``engine.play_game`` its
record as ``labels``) an ``mc`` seat plays as the policy it is being taught
(``RULES.mc_self_policy``: the current ``net``, or ``distilled`` before there
is one), so the states recorded are the ones that policy reaches; at each
of its betting decisions it first encodes the state as ``net`` sees it
(``net.encode``), marks the actions ``net`` weighs
(``net.weighed``) and plays each one out R times (the entry's rollouts) on
the same deals and random streams (``rollout.rollout``: the other seats'
hidden cards dealt again, every seat then playing its own policy, its own
later decisions by the taught policy). It records the inputs, the actions
weighed, and each action's mean round gain over passing with its standard
error (``netlayout.NET_RECORD``). With ``RULES.net_label_race`` (z, in
tenths) the actions race as ``mc``'s candidates do: one clearly worse than
the best (z paired standard errors, checked every few rollouts) stops early
with the rollouts it got, so the labels cost less where the choice is clear
and the fit weighs those values by their wider errors. The rollouts' streams are keyed by
``RULES.net_label_salt`` too: the same games labelled with another salt give
independent labels of the same states (the lookahead's own noise).

At the end of a round (``engine.mc_cash_ins``) it records the position as
``net``'s value head sees it: each cash-in option with the mean win share of
playing the game out that way (``record_cash``), and the position it keeps
(``record_outcome``), whose value, the seat's final win share, the chunk
fills in when the game ends (``game.netrecord``).
"""

import numba as nb
import numpy as np

from sponsio_sim.kernels.betting.dispatch import choose_action
from sponsio_sim.kernels.betting.net import action_index, action_of, encode, net_cash_in, scratch_of, weighed
from sponsio_sim.kernels.betting.netlayout import N_ACTIONS, NET_INPUTS, NET_RECORD, ROW_BETTING, ROW_CASH, ROW_OUTCOME
from sponsio_sim.kernels.betting.phase import entry_of
from sponsio_sim.kernels.betting.rollout import deal_world, new_work, rollout, rollout_key
from sponsio_sim.kernels.layout import CASH_NET, GAME, MONEY_RULES, RULES
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of

GAME_SLOT = 2        # record[0]: rows used, decisions, the game being played (set by the chunk)
RACE_FIRST = 16      # the race: first after this many rollouts, then every RACE_EVERY
RACE_EVERY = 8


@nb.njit(cache=True)
def _new_row(kind, s, record):
    """The next free row of ``record`` (cleared, its kind, game and seat set), or -1 when full."""
    used = np.int64(record[0, 0])
    if used + 1 >= record.shape[0]:
        return -1
    row = used + 1
    record[row, :] = 0.0
    record[row, NET_RECORD.kind] = kind
    record[row, NET_RECORD.game] = record[0, GAME_SLOT]
    record[row, NET_RECORD.seat] = s
    record[0, 0] = row
    return row


@nb.njit(cache=True)
def label_decision(step, s, board, game_state, money, state, record):
    """Seat s's betting action at ``step`` as the taught policy takes it, every action ``net`` weighs
    valued and recorded first (module docstring): ``(act, x, y, rv)``."""
    rules = rules_of(game_state)
    x, q, legal, hidden = scratch_of(game_state, money)
    encode(s, np.bool_(False), board, game_state, money, x)
    weighed(s, board, game_state, money, x, legal)
    n = 0
    for a in range(N_ACTIONS):
        if legal[a] != 0.0:
            n += 1
    if n == 1:
        return taught_action(s, board, game_state, money, state)
    ids = np.empty(n, dtype=np.int64)
    acts = np.empty((n, 4), dtype=np.int64)
    c = 0
    for a in range(N_ACTIONS):
        if legal[a] != 0.0:
            ids[c] = a
            act, ax, ay, rv = action_of(s, a, board, game_state, money)
            acts[c, 0] = act
            acts[c, 1] = ax
            acts[c, 2] = ay
            acts[c, 3] = rv
            c += 1
    rollouts = rules[RULES.mc_rollouts + entry_of(s, game_state)]
    gains = np.empty((n, rollouts), dtype=np.float64)
    got = np.full(n, rollouts, dtype=np.int64)   # rollouts each action got (a dropped one: fewer)
    z = rules[RULES.net_label_race] / 10.0
    work = new_work(s, board, game_state, money)
    key = rollout_key(state) ^ np.uint64(rules[RULES.net_label_salt])
    rs_start = np.empty(4, dtype=np.uint64)
    for r in range(rollouts):
        deal_world(r, key, work)
        rs_start[:] = work.scratch.rng
        for c in range(n):
            if got[c] > r:
                gains[c, r] = rollout(step, s, (acts[c, 0], acts[c, 1], acts[c, 2], acts[c, 3]), board, game_state,
                                      money, work, rs_start)[0]
        if z > 0.0 and r + 1 >= RACE_FIRST and (r + 1) % RACE_EVERY == 0 and r + 1 < rollouts:
            _race(gains, r + 1, got, z)
    row = _new_row(ROW_BETTING, s, record)
    if row >= 0:
        for c in range(n):
            k = got[c]
            d = gains[c, :k] - gains[0, :k]    # paired with pass (action 0 of the list, weighed always)
            record[row, NET_RECORD.mask + ids[c]] = 1.0
            record[row, NET_RECORD.q + ids[c]] = d.mean()
            record[row, NET_RECORD.q_se + ids[c]] = d.std() / np.sqrt(k) if k > 1 else 0.0
        for i in range(NET_INPUTS.size):
            record[row, NET_RECORD.x + i] = x[i]
        record[0, 1] += 1.0
    act, ax, ay, rv = taught_action(s, board, game_state, money, state)
    if row >= 0:
        record[row, NET_RECORD.chosen] = action_index(s, act, ax, game_state)
    return act, ax, ay, rv


@nb.njit(cache=True)
def _race(gains, r, got, z):
    """Stop valuing every action (pass, action 0, excepted) whose paired mean gain over the first ``r``
    rollouts is below the best one's by more than ``z`` paired standard errors: it keeps the ``r``
    rollouts it got (``got``), a wider standard error and so a smaller weight in the fit."""
    n = gains.shape[0]
    lead = 0
    for c in range(1, n):
        if got[c] >= r and gains[c, :r].sum() > gains[lead, :r].sum():
            lead = c
    for c in range(1, n):
        if c == lead or got[c] < r:
            continue
        d = gains[lead, :r] - gains[c, :r]
        mean = d.mean()
        sd = np.sqrt(((d - mean) ** 2).sum() / (r - 1))
        if mean > z * sd / np.sqrt(r):
            got[c] = r


@nb.njit(cache=True)
def taught_action(s, board, game_state, money, state):
    """Seat s's betting action as the taught policy (``RULES.mc_self_policy``) takes it."""
    rules = rules_of(game_state)
    e = entry_of(s, game_state)
    own = game_state[GAME.betting_policy + e]
    game_state[GAME.betting_policy + e] = rules[RULES.mc_self_policy]
    act, ax, ay, rv = choose_action(s, board, game_state, money, state, np.bool_(True))
    game_state[GAME.betting_policy + e] = own
    return act, ax, ay, rv


@nb.njit(cache=True)
def _position_row(kind, s, board, game_state, money, record, cash):
    """A row with seat s's end-of-round inputs (after cashing in when ``cash``); its row index or -1."""
    money_rules = money_rules_of(game_state)
    x = scratch_of(game_state, money)[0]
    encode(s, np.bool_(True), board, game_state, money, x)
    if cash:
        pos = game_state[GAME.track + s]
        x[NET_INPUTS.coins] += money_rules[MONEY_RULES.track_values + pos]
        x[NET_INPUTS.track] = 0.0
        x[NET_INPUTS.track_value_own] = money_rules[MONEY_RULES.track_values]
    row = _new_row(kind, s, record)
    if row >= 0:
        for i in range(NET_INPUTS.size):
            record[row, NET_RECORD.x + i] = x[i]
    return row


@nb.njit(cache=True)
def record_cash(s, share, r, board, game_state, money, record):
    """Seat s's two cash-in options (keep, cash in; its position unmoved yet), each with the mean and
    standard error of the win shares of its first ``r`` game rollouts (``share[option]``)."""
    for c in range(2):
        row = _position_row(ROW_CASH, s, board, game_state, money, record, c == 1)
        if row >= 0:
            record[row, NET_RECORD.v] = share[c, :r].mean()
            record[row, NET_RECORD.v_se] = share[c, :r].std() / np.sqrt(r) if r > 1 else 1.0


@nb.njit(cache=True)
def record_outcome(s, board, game_state, money, record):
    """Seat s's position after its cash-in decision; the chunk writes its value (the final win share)."""
    _position_row(ROW_OUTCOME, s, board, game_state, money, record, np.bool_(False))


def record_rows(capacity: int) -> np.ndarray:
    """An empty record of ``capacity`` rows (row 0: rows used, decisions, the game)."""
    return np.zeros((capacity + 1, NET_RECORD.size), dtype=np.float64)


@nb.njit(cache=True)
def taught_cash_in(s, pos, board, game_state, money):
    """Whether seat s, on track position ``pos``, cashes in as its strategy's cash-in says (a threshold,
    or ``net``'s value head)."""
    rules = rules_of(game_state)
    at = rules[RULES.cash_in_at + entry_of(s, game_state)]
    if at == CASH_NET:
        return net_cash_in(s, board, game_state, money)
    return pos >= at
