"""Index layout of the flat arrays the kernels share.

``R`` (int64) carries the rule set, ``S`` (int64) the whole game state (so a
rollout copies it with one slice assignment), ``ST`` (float64) the summed
statistics of a chunk, and the log (int64 rows of ``LOGW``) a narrated game.
These are array shapes, not rule numbers: every rule number arrives in ``R``.
"""

import numpy as np

from tabletop_mc.records import named, record_dtype

P = 5            # most seats
NVAL = 8         # merchant values 1..8 (bit v-1 of a hand mask)
NVEN = 3         # venues: Circus Maximus, Pompeius Theater, Colosseum
NROW = 5         # rows: 0 villa, 1 forum, 2..4 the venues
NFT = 3          # favour types
BOOST, DOUBLE, GOLD = 0, 1, 2
SP_ITEM = 3      # item code of the start-player card in phase 1
RANDOM, GREEDY, VALUE, MC, TUNED, DISTILLED = 0, 1, 2, 3, 4, 5   # TUNED: value's features, its own weights;
NPOL = 6                                                          # DISTILLED: a linear score (kernels.scan)
TPV_MAX = 12     # tickets per venue
VIS_MAX = 40     # visitor cards (incl. Caesar)
FAV_MAX = 60     # favour cards
DAYS_MAX = 6
HOLD = 16        # items of one venue a player can hold
DISP = 24        # items on one display
ROWCAP = P * NVAL
ACT_MAX = 1 + NVAL * NVEN * 3

_next = 0


def _f(size=1):
    global _next
    start = _next
    _next += size
    return start


# --- rule vector R
R_PLAYERS = _f()
R_DAYS = _f()
R_TPD = _f()
R_FIRST = _f()
R_BOOST = _f()
R_DOUBLE = _f()
R_GOLD = _f()
R_TPV = _f()
R_NVIS = _f()
R_NCOIN = _f()
R_COINVAL = _f()
R_CAESAR = _f()
R_CAESAR_EXTRA = _f()
R_FAVTIX = _f()
R_GIFT_TYPE = _f()   # experiment: favour type given to R_GIFT_SEAT each day (-1 = none)
R_GIFT_SEAT = _f()
R_RM_FAV = _f(NFT)   # favours of each type removed before the game
R_RM_TIX = _f()      # bit i set: ticket card i (venue i // TPV, coin index i % TPV) removed
R_RM_VIS = _f()      # bit i set: visitor card i removed
R_SPEC = _f(DAYS_MAX)
R_MCOIN = _f(NVAL)
R_FCOUNT = _f(NFT)
R_TCOIN = _f(TPV_MAX)
R_VCOIN = _f(VIS_MAX)
R_SIZE = _next

# --- state vector S (short kernel names; S_DTYPE below names every field in words)
_next = 0
S_N = _f()
S_DAY = _f()
S_PHASE = _f()
S_START = _f()
S_TURN = _f()
S_COINS = _f()
S_SPAV = _f()
S_CAESAR = _f()
S_OVER = _f()
S_NT = _f()
S_NVD = _f()
S_NF = _f()
S_TPTR = _f()
S_VPTR = _f()
S_FPTR = _f()
S_DCN = _f()
S_HAND = _f(P)
S_PASS = _f(P)
S_POL = _f(P)
S_K = _f(P)
S_WROW = _f(P)       # row of the weight matrix PP each seat reads (mc rollouts: the mc seat's row)
S_TOT = _f(P)
S_CC = _f(P)
S_FAV = _f(P * NFT)
S_FDISP = _f(NFT)
S_SPEC = _f(NVEN)
S_TDN = _f()
S_TDX = _f(DISP)       # display tickets: venue
S_TDC = _f(DISP)       # display tickets: coins
S_VDN = _f(NVEN)
S_VD = _f(NVEN * DISP)
S_PTN = _f(P * NVEN)
S_PT = _f(P * NVEN * HOLD)
S_PTO = _f(P * NVEN * HOLD)
S_PVN = _f(P * NVEN)
S_PV = _f(P * NVEN * HOLD)
S_PVO = _f(P * NVEN * HOLD)
S_ROWN = _f(NROW)
S_ROWO = _f(NROW * ROWCAP)
S_ROWV = _f(NROW * ROWCAP)
S_ROWE = _f(NROW * ROWCAP)
S_ROWF = _f(NROW * ROWCAP)
S_ROWC = _f(NROW * ROWCAP)
S_DCV = _f(ROWCAP)     # day's played cards: value, row, seat order, owner, items won, item, net coins
S_DCR = _f(ROWCAP)
S_DCO = _f(ROWCAP)
S_DCW = _f(ROWCAP)
S_DCK = _f(ROWCAP)
S_DCI = _f(ROWCAP)
S_DCG = _f(ROWCAP)
S_TDECK = _f(3 * TPV_MAX)
S_VDECK = _f(VIS_MAX)
S_FDECK = _f(FAV_MAX)
S_SIZE = _next
# the state vector by name, for tests and narration (tabletop_mc.records): ``named_state(S)["hand"][seat]``
S_DTYPE = record_dtype((
    ("players", S_N, ()), ("day", S_DAY, ()), ("phase", S_PHASE, ()), ("start", S_START, ()),
    ("turn", S_TURN, ()), ("bank_coins", S_COINS, ()), ("start_card_shown", S_SPAV, ()),
    ("caesar", S_CAESAR, ()), ("over", S_OVER, ()), ("tickets_dealt", S_NT, ()), ("visitors_dealt", S_NVD, ()),
    ("favours_dealt", S_NF, ()), ("next_ticket", S_TPTR, ()), ("next_visitor", S_VPTR, ()),
    ("next_favour", S_FPTR, ()), ("cards_played", S_DCN, ()), ("hand", S_HAND, (P,)), ("passed", S_PASS, (P,)),
    ("policy", S_POL, (P,)), ("rollouts", S_K, (P,)), ("weight_row", S_WROW, (P,)), ("score", S_TOT, (P,)),
    ("coin_cards", S_CC, (P,)), ("favours", S_FAV, (P, NFT)), ("favours_shown", S_FDISP, (NFT,)),
    ("specials", S_SPEC, (NVEN,)), ("tickets_shown", S_TDN, ()), ("ticket_venue", S_TDX, (DISP,)),
    ("ticket_coins", S_TDC, (DISP,)), ("visitors_shown", S_VDN, (NVEN,)),
    ("visitor_coins", S_VD, (NVEN, DISP)), ("tickets_held", S_PTN, (P, NVEN)),
    ("held_ticket_coins", S_PT, (P, NVEN, HOLD)), ("held_ticket_card", S_PTO, (P, NVEN, HOLD)),
    ("visitors_held", S_PVN, (P, NVEN)), ("held_visitor_coins", S_PV, (P, NVEN, HOLD)),
    ("held_visitor_card", S_PVO, (P, NVEN, HOLD)), ("row_cards", S_ROWN, (NROW,)),
    ("row_owner", S_ROWO, (NROW, ROWCAP)), ("row_value", S_ROWV, (NROW, ROWCAP)),
    ("row_effective", S_ROWE, (NROW, ROWCAP)), ("row_favour", S_ROWF, (NROW, ROWCAP)),
    ("row_card", S_ROWC, (NROW, ROWCAP)), ("card_value", S_DCV, (ROWCAP,)), ("card_row", S_DCR, (ROWCAP,)),
    ("card_order", S_DCO, (ROWCAP,)), ("card_owner", S_DCW, (ROWCAP,)), ("card_items", S_DCK, (ROWCAP,)),
    ("card_item", S_DCI, (ROWCAP,)), ("card_net_coins", S_DCG, (ROWCAP,)),
    ("ticket_deck", S_TDECK, (3 * TPV_MAX,)), ("visitor_deck", S_VDECK, (VIS_MAX,)),
    ("favour_deck", S_FDECK, (FAV_MAX,))), S_SIZE, slot=np.int64)

# --- statistics vector ST (float64, summed over games)
_next = 0
ST_ON = _f()                 # 1 in a live statistics vector, 0 in a dummy (rollouts)
BIN_STATS = 4    # cards played, cards winning >= 1 item, sum net coins, sum net coins^2
ST_BIDS = _f(NPOL * P * NROW * NVAL * BIN_STATS)
NCOMP = 5        # score parts: merchants, visitors, tickets, coin cards, gold
ST_COMP = _f(P * NCOMP * 2)
ST_UNCL = _f(4 * 2)          # unclaimed per day: favours, start card, tickets, visitors (sum, sum sq)
ST_DAYS = _f()
ST_SP = _f(3)                # start card: taken by choice, to leftmost merchant, stayed
ST_FAVS = _f(NFT * 4)        # per type: taken, used in play, used as Caesar ticket, unused at day end
ST_SHORT = _f(3)             # days short of: tickets, visitors, either (a deck ran out at set-up)
ST_SIZE = _next
# the statistics vector by name, for the analysis layer (tabletop_mc.records)
ST_DTYPE = record_dtype((("on", ST_ON, ()), ("bids", ST_BIDS, (NPOL, P, NROW, NVAL, BIN_STATS)),
                         ("score_parts", ST_COMP, (P, NCOMP, 2)), ("unclaimed", ST_UNCL, (4, 2)),
                         ("days", ST_DAYS, ()), ("start_card", ST_SP, (3,)), ("favours", ST_FAVS, (NFT, 4)),
                         ("short", ST_SHORT, (3,))), ST_SIZE)


def named_state(S):
    """The state vector read and written by name, without a copy (``S_DTYPE``):
    ``s["hand"][seat]`` (a mask of values 1..8), ``s["favours"][seat, BOOST]``."""
    return named(S, S_DTYPE)


def named_stats(stats):
    """A statistics vector read by name, without a copy (``ST_DTYPE``): ``s["days"]``,
    ``s["favours"][type, what]``, ``s["score_parts"][seat, part]`` (sum, sum of squares)."""
    return named(stats, ST_DTYPE)

# --- log: rows of LOGW; row 0 holds (events written, capacity); capacity 0 = logging off
LOGW = 10
LOG_MAX = 4096

# --- scratch floats W: item utilities at 0.. with each item's id (favour type or display ticket) at W_ID and
# a ticket's visitor share at W_AUX (``row_utils``), one action's bid features at W_FEAT, every action's score at
# W_SCORE (the policies), every candidate's mean rollout outcome at W_Q (`mc`, which the policies leave alone)
W_ID = DISP
W_AUX = 2 * DISP
W_FEAT = 3 * DISP
W_SCORE = W_FEAT + 16
W_Q = W_SCORE + ACT_MAX
W_SIZE = W_Q + ACT_MAX + 8
A_SIZE = 2 * ACT_MAX             # ints: legal actions (rollouts), mc's own list
EV_DAY, EV_FDISP, EV_TICKET, EV_VISITOR, EV_BID, EV_PASS, EV_TAKE, EV_NOTHING, EV_SPFALL, \
    EV_SCORE, EV_FAVTIX, EV_CAESAR, EV_PHASE, EV_REMOVE, EV_SHORT = range(15)
RM_FAVOUR, RM_TICKET, RM_VISITOR = range(3)   # EV_REMOVE kinds (a: kind, b: type or venue, c: coins)
SHORT_TICKETS, SHORT_VISITORS = range(2)      # EV_SHORT kinds (a: kind, b: wanted, c: laid)
