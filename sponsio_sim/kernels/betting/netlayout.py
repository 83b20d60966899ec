"""What the ``net`` betting policy reads and decides: its input vector and its action list.

The inputs (``NET_INPUTS``) are what a seat knows, seen from its own chair:
its hand (the cards it has shown marked), the talon, the cards the other
seats have shown, each other seat's bet types, who holds which token, the
coins and track positions (its own first, then clockwise), the round and the
betting turn; the knowledge the project already has (the success model's P
and ``ev``'s gain of every bet it could place, ``ev``'s gain of each token,
the troll pay the bets on the table promise); and the rule numbers the
levers change (the multipliers, troll pay, round bonus, coins to end, the
rounds, the streak track's values), so the same weights play differently
when a rule changes. At the end of a round (``cash_phase`` 1, the cash-in
decision) only the public numbers are filled in.

The actions (``NET_ACTIONS``): pass, one bet per catalogue row (a ``fail``
bet by the seat it names counted clockwise from the bettor: ``fail:+1`` is
the next seat), each token, and the best exchange with the talon. Widths
are the kernels' maxima, so the offsets are compile-time constants; slots a
rule set does not use stay 0 and their actions are never legal.
"""

import numpy as np

from tabletop_mc.records import layout
from sponsio_sim.bet_kinds import N_KINDS
from sponsio_sim.kernels.layout import MAX_CARDS, MAX_COLOURS, MAX_PLAYERS, MAX_ROWS, N_TOKENS

OTHERS = MAX_PLAYERS - 1
NET_TRACK = 10            # track positions whose values are inputs (0..9; a longer track's tail is not read)
MAX_HIDDEN = 256          # the widest hidden layer a weights file may have (the kernels' scratch)
TOP_PER_KIND = 3          # bets the policy weighs per bet type: the model's best three legal ones
VERSION = 1               # raise whenever an input's meaning changes without its name or width changing

NET_INPUTS = layout(np.float64, (
    ("cash_phase", ()),                 # 1: the end of a round (cash-in); 0: a betting decision
    ("hand", MAX_CARDS),                # own cards
    ("hand_shown", MAX_CARDS),          # own cards the others know (revealed, or taken from the talon)
    ("talon", MAX_CARDS),
    ("others_shown", MAX_CARDS),        # cards known to be in another seat's hand
    ("others_shown_colours", (OTHERS, MAX_COLOURS)),   # per other seat (clockwise): its known cards per colour
    ("others_hidden", OTHERS),          # per other seat: its cards still hidden
    ("bet_p", MAX_ROWS),                # per bet action: the success model's P for this hand
    ("bet_gain", MAX_ROWS),             # per bet action: ev's gain in coins (P x multiplier x stake - stake - forgone)
    ("bet_held", MAX_ROWS),             # per bet action: 1 if held
    ("others_kinds", (OTHERS, N_KINDS)),   # per other seat: the bet types it holds
    ("others_fail_me", OTHERS),         # per other seat: it holds a fail bet on this seat
    ("token_free", N_TOKENS), ("token_mine", N_TOKENS),
    ("token_gain", N_TOKENS),           # ev's gain of taking each free token (bets held; the swap token: 0)
    ("coins", MAX_PLAYERS),             # own, then clockwise
    ("track", MAX_PLAYERS),             # own, then clockwise
    ("track_value_own", ()),            # coins a cash-in would take now
    ("rounds_done", ()), ("rounds_left", ()),
    ("turns_done", ()), ("turns_left", ()),
    ("place", MAX_PLAYERS),             # one-hot place in the betting order
    ("leads", ()),                      # 1: this seat leads the first trick
    ("hidden", ()),                     # own cards still hidden
    ("bets_held", ()),
    ("troll_income", ()),               # the troll pay the bets on the table promise (model)
    ("multiplier", N_KINDS),            # each bet type's multiplier (its first row's)
    ("troll_pay", ()), ("round_bonus", ()), ("coins_to_end", ()), ("max_rounds", ()),
    ("track_values", NET_TRACK), ("track_win", ()), ("stake", ()), ("token_cost", ()),
), name="NetInputs")

# the action list: pass, a bet per catalogue slot, each token, the exchange
A_PASS = 0
A_BET = 1
A_TOKEN = A_BET + MAX_ROWS
A_SWAP = A_TOKEN + N_TOKENS
N_ACTIONS = A_SWAP + 1

# a decision's scratch in ``money`` (``RULES.net_scratch``), read as float32 (``tabletop_mc.net.forward``):
# the inputs, the action values, the actions weighed (1.0) and the hidden layers, at these float32 offsets
F_X = 0
F_Q = F_X + NET_INPUTS.size
F_LEGAL = F_Q + N_ACTIONS
F_HIDDEN = F_LEGAL + N_ACTIONS
F_END = F_HIDDEN + 2 * MAX_HIDDEN
SCRATCH_SLOTS = (F_END + 1) // 2     # float64 slots of ``money``

# one recorded decision of expert iteration (``betting.netlabel``): the action the taught policy took
# (its index in the list), its inputs, which actions were weighed, their values (mean round gain over
# passing, coins) and standard errors; or, at the end of a round, the position's value (win share)
# and its standard error
ROW_BETTING, ROW_CASH, ROW_OUTCOME = 0, 1, 2     # a betting decision; a cash-in option valued by rollouts;
#                                                   a round's end valued by the game's outcome
NET_RECORD = layout(np.float64, (
    ("kind", ()), ("game", ()), ("seat", ()), ("chosen", ()),
    ("v", ()), ("v_se", ()),
    ("x", NET_INPUTS.size), ("mask", N_ACTIONS), ("q", N_ACTIONS), ("q_se", N_ACTIONS),
), name="NetRecord")
