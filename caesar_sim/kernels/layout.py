"""Circus's vocabulary: the codes and the flat arrays' layouts that kernels and analysis
share, each declared once (``tabletop_mc.records.layout``).

``rulebook`` (int64, ``RULES``) carries the rule set, ``game_state`` (int64, ``STATE``) the
whole game state (so a rollout copies it with one slice assignment), ``weight_table``
(float64, rows of ``WEIGHTS``) each seat's policy weights, ``game_stats``
(float64, ``STATS``) the summed statistics of a chunk, the log (int64
rows of ``LOG_FIELDS``) a narrated game, and ``REC_*`` the columns of a recorded `mc` decision.
Kernels index a vector at its layout's offsets (``game_state[STATE.hand + p]``), the analysis layer and the tests by name
(``STATE.named(game_state)["hand"][p]``). These are array shapes, not rule numbers:
every rule number arrives in ``rulebook``. This module sits at the bottom of the kernels and
imports none of them (``tests/test_layers.py``).
"""

import numpy as np

from tabletop_mc.records import layout

MAX_PLAYERS = 5                # most seats
MERCHANT_VALUES = 8            # merchant values 1..8 (bit v-1 of a hand mask)
VENUES = 3                     # venues: Circus Maximus, Pompeius Theater, Colosseum
ROWS = 5                       # rows: 0 villa, 1 forum, 2..4 the venues
FAVOUR_TYPES = 3               # favour types
BOOST, DOUBLE, GOLD = 0, 1, 2
START_CARD = 3                 # item code of the start-player card in phase 1
# TUNED: value's features, its own weights; DISTILLED: a linear score (kernels.play.scan); NET: a learned network
RANDOM, GREEDY, VALUE, MC, TUNED, DISTILLED, NET = 0, 1, 2, 3, 4, 5, 6   # over what the seat knows (kernels.play.net)
N_POLICIES = 7                 # policy codes
MAX_TICKETS_PER_VENUE = 12     # tickets per venue
MAX_VISITOR_CARDS = 40         # visitor cards (incl. Caesar)
MAX_FAVOUR_CARDS = 60          # favour cards
MAX_DAYS = 6                   # days of a game
MAX_HELD_ITEMS = 16            # items of one venue a player can hold
MAX_DISPLAY_ITEMS = 24         # items on one display
MAX_ROW_CARDS = MAX_PLAYERS * MERCHANT_VALUES   # cards played in a day (so in one row)
MAX_ACTIONS = 1 + MERCHANT_VALUES * VENUES * 3  # legal actions of one decision
NET_ACTIONS = 1 + MERCHANT_VALUES * ROWS * 3   # the network's fixed action list: pass, then every action code + 1
NET_IO = 1024                  # float32 values of a network's inputs, hidden work and action values (SCRATCH.net)
MC_PAIRED = 64   # `mc`: rollouts of the first candidate kept, for every candidate's paired differences from it

# --- the rule vector R (int64): the rule set's numbers, named as ``caesar_sim.rules.RuleSet`` names them
RULES = layout(np.int64, (
    ("players", ()), ("days", ()), ("tickets_per_day", ()), ("first_start_seat", ()), ("boost_value", ()),
    ("double_items", ()), ("gold_coins", ()),
    ("tickets_per_venue", ()), ("visitor_cards", ()),
    ("coin_cards", ()), ("coin_card_value", ()), ("caesar", ()), ("caesar_extra_visitors", ()),
    ("caesar_favour_tickets", ()),
    ("gift_type", ()),            # experiment: favour type given to seat gift_seat each day (-1 = none)
    ("gift_seat", ()),
    ("removed_favours", FAVOUR_TYPES),     # favours of each type removed before the game
    ("removed_tickets", ()),      # bit i set: ticket card i (venue i // tickets_per_venue, coin index
                                  # i % tickets_per_venue) removed
    ("removed_visitors", ()),     # bit i set: visitor card i removed
    ("special_tickets", MAX_DAYS), ("merchant_coins", MERCHANT_VALUES), ("favour_counts", FAVOUR_TYPES),
    ("ticket_coins", MAX_TICKETS_PER_VENUE), ("visitor_coins", MAX_VISITOR_CARDS),
), name="Rules")

# --- the state vector S (int64): the whole game, so a rollout copies it with one slice assignment
STATE = layout(np.int64, (
    ("players", ()), ("day", ()), ("phase", ()), ("start", ()), ("turn", ()), ("bank_coins", ()),
    ("start_card_shown", ()), ("caesar", ()), ("over", ()),
    ("tickets_dealt", ()), ("visitors_dealt", ()), ("favours_dealt", ()),
    ("next_ticket", ()), ("next_visitor", ()), ("next_favour", ()), ("cards_played", ()),
    ("hand", MAX_PLAYERS),                  # merchants in hand: bit v-1 for value v
    ("passed", MAX_PLAYERS), ("policy", MAX_PLAYERS), ("rollouts", MAX_PLAYERS),
    ("weight_row", MAX_PLAYERS),            # row of the weight table each seat reads (mc rollouts: the mc seat's row)
    ("score", MAX_PLAYERS), ("coin_cards", MAX_PLAYERS), ("favours", (MAX_PLAYERS, FAVOUR_TYPES)),
    ("favours_shown", FAVOUR_TYPES), ("specials", VENUES),
    ("tickets_shown", ()), ("ticket_venue", MAX_DISPLAY_ITEMS), ("ticket_coins", MAX_DISPLAY_ITEMS),
    ("visitors_shown", VENUES), ("visitor_coins", (VENUES, MAX_DISPLAY_ITEMS)),
    ("tickets_held", (MAX_PLAYERS, VENUES)), ("held_ticket_coins", (MAX_PLAYERS, VENUES, MAX_HELD_ITEMS)),
    ("held_ticket_card", (MAX_PLAYERS, VENUES, MAX_HELD_ITEMS)),
    ("visitors_held", (MAX_PLAYERS, VENUES)), ("held_visitor_coins", (MAX_PLAYERS, VENUES, MAX_HELD_ITEMS)),
    ("held_visitor_card", (MAX_PLAYERS, VENUES, MAX_HELD_ITEMS)),
    ("row_cards", ROWS), ("row_owner", (ROWS, MAX_ROW_CARDS)), ("row_value", (ROWS, MAX_ROW_CARDS)),
    ("row_effective", (ROWS, MAX_ROW_CARDS)), ("row_favour", (ROWS, MAX_ROW_CARDS)),
    ("row_card", (ROWS, MAX_ROW_CARDS)),
    # the day's played cards, in play order: value, row, seat order, owner, items won, item, net coins
    ("card_value", MAX_ROW_CARDS), ("card_row", MAX_ROW_CARDS), ("card_order", MAX_ROW_CARDS),
    ("card_owner", MAX_ROW_CARDS), ("card_items", MAX_ROW_CARDS), ("card_item", MAX_ROW_CARDS),
    ("card_net_coins", MAX_ROW_CARDS),
    ("ticket_deck", 3 * MAX_TICKETS_PER_VENUE), ("visitor_deck", MAX_VISITOR_CARDS), ("favour_deck", MAX_FAVOUR_CARDS),
), name="State")

# --- the statistics vector (float64, summed over games)
BIN_STATS = 4    # per bid: cards played, cards winning >= 1 item, sum net coins, sum net coins^2
SCORE_PARTS = 5        # score parts: merchants, visitors, tickets, coin cards, gold
STATS = layout(np.float64, (
    ("on", ()),                   # 1 in a live statistics vector, 0 in a dummy (rollouts)
    ("bids", (N_POLICIES, MAX_PLAYERS, ROWS, MERCHANT_VALUES, BIN_STATS)),
    ("score_parts", (MAX_PLAYERS, SCORE_PARTS, 2)),
    ("unclaimed", (4, 2)),        # per day: favours, start card, tickets, visitors (sum, sum sq)
    ("days", ()),
    ("start_card", 3),            # taken by choice, to leftmost merchant, stayed
    ("favours", (FAVOUR_TYPES, 4)),        # per type: taken, used in play, used as Caesar ticket, unused at day end
    ("short", 3),                 # days short of: tickets, visitors, either (a deck ran out at set-up)
), name="Stats")

# --- log: rows of LOG_FIELDS; row 0 holds (events written, capacity); capacity 0 = logging off
LOG_FIELDS = 10
MAX_LOG_ROWS = 4096

# --- scratch: the floats (SCRATCH) and ints (ACTIONS) a decision works in. ``row_utils`` writes each item's
# utility, its id (favour type or display ticket) and a ticket's visitor share; the policies one action's
# bid features and every action's score; `mc` (which the policies leave alone) every candidate's mean
# rollout outcome. ACTIONS holds the legal actions (rollouts) and then `mc`'s own list.
SCRATCH = layout(np.float64, (
    ("utility", MAX_DISPLAY_ITEMS),
    ("item_id", MAX_DISPLAY_ITEMS),
    ("share", MAX_DISPLAY_ITEMS),
    ("features", 16),
    ("score", MAX_ACTIONS),
    ("rollout_mean", MAX_ACTIONS),
    ("slack", 8),
    ("rollout_sq", MAX_ACTIONS),      # `mc`: every candidate's sum of squared rollout differences from the first's,
    ("rollout_n", MAX_ACTIONS),       # ... its rollouts (fewer when pruned),
    ("rollout_first", MC_PAIRED),  # ... and the first candidate's first rollouts' outcomes
    ("net", NET_IO // 2),         # `net`: its inputs, hidden work and action values, as float32 (kernels.play.net)
))
ACTIONS = layout(np.int64, (
    ("legal", MAX_ACTIONS),
    ("mc_own", MAX_ACTIONS),
    ("net_only", MAX_ACTIONS),        # `net`: the fixed-list index of each legal action (kernels.play.net),
    ("net_nz", NET_IO),           # ... and the indices of its nonzero inputs
))
EV_DAY, EV_FAVOURS_SHOWN, EV_TICKET, EV_VISITOR, EV_BID, EV_PASS, EV_TAKE, EV_NOTHING, EV_START_CARD_FALLS, \
    EV_SCORE, EV_FAVOUR_TICKET, EV_CAESAR, EV_PHASE, EV_REMOVE, EV_SHORT = range(15)
RM_FAVOUR, RM_TICKET, RM_VISITOR = range(3)   # EV_REMOVE kinds (a: kind, b: type or venue, c: coins)
SHORT_TICKETS, SHORT_VISITORS = range(2)      # EV_SHORT kinds (a: kind, b: wanted, c: laid)

# policy weights (weight_table): one row of WEIGHTS.size floats per weight set; seat p reads row game_state[STATE.weight_row + p],
# i.e. weight_table[items.wrow(game_state, p) + WEIGHTS.*]. The named weights (their meanings and `value`'s defaults:
# caesar_sim.weights), then `distilled`'s feature weights, then the control slots.
# `distilled`: a linear score per action over features (kernels.play.scan): N_BID_FEATURES bid features per phase, then
# N_PASS_FEATURES pass features per phase
N_BID_FEATURES = 14
N_PASS_FEATURES = 4
N_FEATURES = 3 * (N_BID_FEATURES + N_PASS_FEATURES)
WEIGHTS = layout(np.float64, tuple((name, ()) for name in (
    "boost", "double", "start_card", "need_phase1", "strength", "short", "risk", "phase3_card", "favour_keep",
    "villa_decay", "need_phase2", "risk_visitors", "greedy_tickets", "mc_epsilon", "mc_horizon", "ban_rows",
    "ban_items", "temperature")) + (
    ("features", N_FEATURES),          # `distilled`'s linear score per action over features (kernels.play.scan)
    ("rollout_policy", ()),       # policy code a row plays by in `mc` rollouts (0 = value's features)
    ("field_first", ()),          # `mc` row: first weight_table row of its rollout field (members drawn per rollout)
    ("field_size", ()),           # ... and the field's member count (0 = every seat rolls out with this row)
    ("field_cum", ()),            # a field member row: cumulative weight (draw u picks the first row with u < cum)
    ("mc_prune", ()),             # `mc`: after half the rollouts, drop the candidates this far below the best (0: never)
    ("net_id", ()),               # `net`: its network (``caesar_sim.net``'s key; 0 = none), which ``kernel_matrix``
    ("net_at", ()),               # ... appends after the rows: its block's first slot in weight_table (kernels.net)
), name="Weights")

# a recorded `mc` decision (kernels.game.distill): one row per legal action, these columns, then the action's
# N_FEATURES features
REC_DECISION, REC_ACTION, REC_Q, REC_CHOSEN, REC_PHASE, REC_DAY = range(6)
REC_COLS = 6 + N_FEATURES
MAX_ROWS_PER_GAME = 3 * 9 * MAX_DAYS * MAX_ACTIONS   # a bound: decisions per day x days x actions
