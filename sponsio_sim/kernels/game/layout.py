"""Where the full game keeps its state: offsets into the packed arrays.

The full-game kernels extend the trick phase's packed state (``table``)
instead of adding arrays, so every hot call takes the same four arrays
``(board, game_state, money, rng)`` as ``play_tricks``:

- ``game_state`` (int64) = the trick-phase part (``table.INTS_SIZE``), then the
  game's integer configuration (rule numbers, catalogue rows, policies, model
  offsets) and integer state (round, dealer, tokens, bets, track, scratch);
- ``money`` (float64) = the goal policy's scratch (``table.MAX_PLAYERS``),
  then the money configuration (stake, token cost, troll pay, bonus, track
  values, multipliers, policy parameters), the coins and the round's ledger,
  and last the fitted success model (variable length, offsets in ``game_state``).
- ``board`` (uint64) is ``table``'s unchanged: hands, talon, revealed cards.

Offsets are module constants, which numba compiles in.
"""

from math import prod

from tabletop_mc.records import named, record_dtype
from sponsio_sim.bet_kinds import BY_NAME, KINDS, MAX_BETS, N_KINDS, model_shape
from sponsio_sim.kernels.table import INTS_SIZE, MAX_PLAYERS

MAX_ROWS = 72          # catalogue rows: tricks 0..H, colour C x 0..9, last, nines, fail S
MAX_TRACK = 32         # streak track positions (track_win <= MAX_TRACK - 1)
N_TOKENS = 4
MAX_ROUNDS = (1 << 16) - 1   # rounds per game (each round draws from its own stream, game.round_stream)
MAX_ENTRIES = 16       # profile entries: one per seat, or the members of a field (seats draw them per game)

# bet kinds: sponsio_sim.bet_kinds; tokens (rules.TOKENS order)
LEAD_TOKEN, DOUBLE_TOKEN, REBET_TOKEN, SWAP_TOKEN = 0, 1, 2, 3
# betting policies (``ev`` with a temperature samples, ``betting.scored``); cash-in "never" is a threshold
# no position reaches
BET_TROLL, BET_RANDOM, BET_EV, BET_MC, BET_DISTILLED = 0, 1, 2, 3, 4
CASH_NEVER = 1 << 30
# actions of the betting phase
PASS, BET, TOKEN, SWAP = 0, 1, 2, 3
# the order in which tokens take effect when betting ends (spec 3)
END_TOKENS = (SWAP_TOKEN, REBET_TOKEN, DOUBLE_TOKEN)
# the distilled policy's features of a candidate action (``betting.candidates``; pass: all 0),
# per bet kind k or token t where marked
DIST_BET = 0                                # + k: 1 for a bet of kind k
DIST_PAY = DIST_BET + N_KINDS               # + k: the model's expected payout P x multiplier x stake
DIST_P = DIST_PAY + N_KINDS                 # + k: the model's P
DIST_FORGONE = DIST_P + N_KINDS             # a first bet: the troll pay it gives up (model)
DIST_HELD = DIST_FORGONE + 1                # a bet: bets already held
DIST_STREAK = DIST_HELD + 1                 # a bet: the value of the seat's track position (lost if a bet fails)
DIST_SWAP = DIST_STREAK + 1                 # an exchange: 1, and the model's gain
DIST_SWAP_GAIN = DIST_SWAP + 1
DIST_TOKEN = DIST_SWAP_GAIN + 1             # + t: 1 for token t
DIST_TOKEN_GAIN = DIST_TOKEN + N_TOKENS     # + t: the model's gain of token t
DIST_TOKEN_COST = DIST_TOKEN_GAIN + N_TOKENS   # a token: the coins it costs
DIST_HIDDEN = DIST_TOKEN_COST + 1           # any action (it reveals a card): own cards still hidden before it
DIST_TURNS_LEFT = DIST_HIDDEN + 1           # any action: betting turns left after this one
N_DIST = DIST_TURNS_LEFT + 1
# a recorded mc decision, one row per searched candidate (betting.mc.record_decision)
REC_DECISION, REC_CHOSEN, REC_ADVANTAGE, REC_ROLLOUTS, REC_GAIN, REC_FEATURES = range(6)
REC_WIDTH = REC_FEATURES + N_DIST
MAX_CANDS = 24   # candidate actions of one decision: more than any lists (1 + 2 x kinds + swap + tokens)
# end reasons (spec 7, in priority order)
END_TRACK, END_COINS, END_ROUNDS = 1, 2, 3


class _Alloc:
    def __init__(self, start):
        self.at = start

    def take(self, n=1):
        start = self.at
        self.at += n
        return start


_i = _Alloc(INTS_SIZE)
I_PLAYERS = _i.take()
I_NCOL = _i.take()
I_HAND = _i.take()
I_TURNS = _i.take()
I_TRACK_WIN = _i.take()
I_MAX_ROUNDS = _i.take()
I_TOKENS = _i.take()        # bitmask of the rule set's tokens
I_NROWS = _i.take()         # catalogue rows in use
I_ROTATE = _i.take()        # 1: the profile rotates over the seats game by game
I_BONUS_NET = _i.take()     # 1: round_bonus_basis = net
I_TRACK_ENDS = _i.take()    # 1: track_top = ends
I_NENTRIES = _i.take()      # profile entries (statistics blocks): the seats, or a field's members
I_FIELD = _i.take()         # 1: every game, each seat draws its entry from the field's weights (W_MIX)
I_FOCAL = _i.take()         # field: the entry the focal seat (game g: seat g % players) plays; -1: it draws too
I_FOCAL_SEAT = _i.take()    # field: this game's focal seat (-1 outside a field)
I_MODEL_AT = _i.take(N_KINDS)   # model table offsets (into money), per bet kind
I_BETPOL = _i.take(MAX_ENTRIES)   # per profile entry
I_PLAYPOL = _i.take(MAX_ENTRIES)
I_CASHK = _i.take(MAX_ENTRIES)
I_BANNED = _i.take(MAX_ENTRIES)   # per entry: bitmask of bet kinds the policy never places (restricted play)
I_MC_R = _i.take(MAX_ENTRIES)     # per entry: mc rollouts per candidate
I_MC_ANY = _i.take()              # 1: some entry bets by mc (its cash-in is searched, game.mc_cash_ins)
I_MC_KEEP = _i.take()             # mc: candidates kept after the model's ranking (pass included)
I_MC_SELF = _i.take()             # mc: the betting policy an mc seat's own later decisions follow in rollouts
I_MC_AUDIT = _i.take()            # 1: every mc decision also searches every candidate (betting.mc.audit)
I_MC_DECISIONS = _i.take()        # audit counts: decisions with more than one candidate,
I_MC_PRUNED = _i.take()           # and those where searching every candidate picks another action,
I_MC_REGRET = _i.take()           # with the round gain it estimates the pruned choice loses (milli-coins)
I_MC_SEARCHES = _i.take()         # searches run, and the rollouts (round play-outs) they played
I_MC_ROLLOUTS = _i.take()
I_ROWS = _i.take(3 * MAX_ROWS)    # (kind, a, b) per catalogue row
I_ROW_OF = _i.take(N_KINDS)       # first row of each kind (-1: not in the rule set)
# game state
I_ROUND = _i.take()         # rounds finished
I_DEALER = _i.take()
I_ENTRY = _i.take(MAX_PLAYERS)    # seat -> profile entry this game
I_TRACK = _i.take(MAX_PLAYERS)
# round state
I_TOKEN_OWNER = _i.take(N_TOKENS)      # token owner, -1 while in the pool
I_NBETS = _i.take(MAX_PLAYERS)
I_KINDS_HELD = _i.take(MAX_PLAYERS)     # bitmask of bet kinds held
I_BET_ROW = _i.take(MAX_PLAYERS * MAX_BETS)    # catalogue row of each bet
I_BET_RANK = _i.take(MAX_PLAYERS * MAX_BETS)  # placement rank of each bet this round
I_NPLACED = _i.take()             # bets placed this round
I_STEPS_DONE = _i.take()          # betting actions taken this round, passes included (betting.phase.apply_action)
I_DOUBLED = _i.take(MAX_PLAYERS)  # index of the doubled bet, -1
I_RESULT = _i.take(MAX_PLAYERS * MAX_BETS)  # 1 won, 0 lost (after settlement)
I_SWAPS = _i.take(MAX_PLAYERS)
I_MOVED = _i.take(MAX_PLAYERS)    # track position after moving, before cashing in
I_LEADERS = _i.take()             # bitmask of the richest seats after the last round
I_LAST_R1 = _i.take()             # bitmask of the poorest seats after round 1
I_LEADCH = _i.take()              # lead changes so far this game
I_TOKEN_TAKEN = _i.take(MAX_PLAYERS * N_TOKENS)  # seat took token t this round
I_BET_CELL = _i.take(MAX_PLAYERS * MAX_BETS)   # model cell (from W_MODEL) of each bet when betting ends
# success-model features of the hand being evaluated (scratch)
I_F_SURE = _i.take()
I_F_HIGH = _i.take()
I_F_NOWN = _i.take()
I_F_NINPLAY = _i.take()
I_F_LEAD = _i.take()
I_F_PLACE = _i.take()       # place in the betting order (0..PLACES-1)
I_F_COL = _i.take(4)
I_F_SC = _i.take(4)         # per colour: sure winners, high cards
I_F_HI = _i.take(4)
# best catalogue row (max P x multiplier) per tricks cell, and per colour and colour cell
I_BEST_T = _i.take(prod(BY_NAME["tricks"].cells))
I_BEST_C = _i.take(4 * prod(BY_NAME["colour"].cells))
I_CANDS = _i.take(4 * MAX_CANDS)  # scratch: a decision's candidate actions (act, x, y, rv) (betting.scored)
INTS_GAME = _i.at

_w = _Alloc(MAX_PLAYERS)
W_STAKE = _w.take()
W_TOKEN_COST = _w.take()
W_TROLL_PAY = _w.take()
W_BONUS = _w.take()
W_COINS_END = _w.take()
W_START = _w.take()
W_TRACKV = _w.take(MAX_TRACK)
W_MULT = _w.take(MAX_ROWS)
W_BASE = _w.take(MAX_ROWS)        # model's unconditional success rate per row
W_PASS = _w.take(MAX_ENTRIES)     # random: pass share, per entry
W_THRESH = _w.take(MAX_ENTRIES)   # ev: EV threshold in coins, per entry
W_TEMP = _w.take(MAX_ENTRIES)     # ev: softmax temperature in coins, per entry (0: always the best action)
W_MIX = _w.take(MAX_ENTRIES)      # field: cumulative weights of the entries (the last is 1)
W_DIST = _w.take(N_DIST)          # distilled: the weight of each feature (DIST_*) in a candidate's score
W_NOPILOT = _w.take(MAX_ROWS)     # -1 per catalogue row: no pilot estimates (betting.candidates)
W_GAINS = _w.take(MAX_CANDS)      # scratch: the candidates' gains or scores (betting.scored)
W_PHI = _w.take(N_DIST)           # scratch: one candidate's features
W_COINS = _w.take(MAX_PLAYERS)
# the round's ledger, per seat (coins)
W_STAKES = _w.take(MAX_PLAYERS)
W_FEES = _w.take(MAX_PLAYERS)
W_PAYOUT = _w.take(MAX_PLAYERS)
W_TROLLPAID = _w.take(MAX_PLAYERS)
W_BONUSPAID = _w.take(MAX_PLAYERS)
W_CASHED = _w.take(MAX_PLAYERS)
W_PRED = _w.take(MAX_PLAYERS * MAX_BETS)  # model P of each bet when betting ends
W_MODEL = _w.at                   # the success model's tables start here

# success-model table shapes (feature cells x parameter, ``bet_kinds``); see betting.model.cell_of
TRICKS_CELLS = BY_NAME["tricks"].cells    # sure winners (0..5+), high cards (0..4+), leads
COLOUR_CELLS = BY_NAME["colour"].cells    # own cards of C (0..6+), talon's C (0..3+), own sure C (0..2+), place
COLOUR_PARAMS = 10                        # N = 0..9
LAST_CELLS = BY_NAME["last"].cells        # sure winners (0..3+), own 9s (0..2+), leads
NINES_CELLS = BY_NAME["nines"].cells      # 9s not in the talon, own 9s
FAIL_CELLS = BY_NAME["fail"].cells        # the target's bets (0..5+), place in the betting order


def model_shapes(hand_size):
    """Shape of each kind's table (``bet_kinds`` order), parameter last where there is one."""
    return [model_shape(kind, hand_size) for kind in KINDS]


def model_sizes(hand_size):
    """Flat size of each kind's table."""
    return [prod(shape) for shape in model_shapes(hand_size)]


# statistics per chunk (float64): game totals, then one block per profile entry
S_GAMES, S_ROUNDS, S_ROUNDS_SQ, S_END = 0, 1, 2, 3   # S_END + reason - 1
S_HEAD = S_END + 3
E_WIN, E_SHARE, E_SHARE_SQ, E_COINS, E_COINS_SQ, E_ROUNDS = 0, 1, 2, 3, 4, 5
E_TROLL, E_TROLLPAY, E_TROLLPAY_SQ = 6, 7, 8
E_BETS = 9                 # + kind: bets placed
E_WON = E_BETS + N_KINDS   # + kind: bets won
E_PAYOUT = E_WON + N_KINDS
E_STAKES = E_PAYOUT + 1
E_CASH_N = E_STAKES + 1
E_CASH = E_CASH_N + 1
E_BONUS_N = E_CASH + 1
E_TOKENS = E_BONUS_N + 1   # + token
E_SWAPS = E_TOKENS + N_TOKENS
E_TRACKWIN = E_SWAPS + 1
E_PRED = E_TRACKWIN + 1    # + kind: the model's P of the bets placed, summed
E_GAMES = E_PRED + N_KINDS   # seat-games the entry played (a field's members: how often they were drawn)
E_SIZE = E_GAMES + 1


# then, per seat and catalogue row, the bets placed there: placed, won, payout, payout squared, and the
# success model's P summed (as betting ended)
R_PLACED, R_WON, R_PAY, R_PAY_SQ, R_PRED = 0, 1, 2, 3, 4
R_FIELDS = 5


def rows_head(players, entries=None):
    """Start of the per-seat, per-catalogue-row bet statistics (after one block per entry;
    ``entries`` defaults to one per seat)."""
    return S_HEAD + (players if entries is None else entries) * E_SIZE


def troll_hist_head(players, entries=None):
    """Start of the histogram of failed bets in troll rounds (one count per troll and round)."""
    return rows_head(players, entries) + players * MAX_ROWS * R_FIELDS


MAX_FAILED = (MAX_PLAYERS - 1) * MAX_BETS + 1   # 0..(players-1) x 5 failed bets

# then the games' shape: rounds per game (1..MAX_ROUNDS_HIST, the last bin
# also counts longer games), comebacks (a winner was last after round 1) and
# lead changes (the richest players after a round share none with those
# after the round before; counted from round 2).
MAX_ROUNDS_HIST = 16
G_RHIST = 0
G_COMEBACK = MAX_ROUNDS_HIST
G_LEADCH = G_COMEBACK + 1
G_LEADCH_SQ = G_LEADCH + 1
G_FOCAL = G_LEADCH_SQ + 1       # a field: the focal seat's win share, and its square (kernels.game.field)
G_FOCAL_SQ = G_FOCAL + 1
G_SIZE = G_FOCAL_SQ + 1

# then one block per seat, whatever entry sat there: wins, win share and its square, final coins
SEAT_WIN, SEAT_SHARE, SEAT_SHARE_SQ, SEAT_COINS, SEAT_COINS_SQ = range(5)
SEAT_SIZE = 5


def shape_head(players, entries=None):
    """Start of the games' shape statistics (``G_*``)."""
    return troll_hist_head(players, entries) + MAX_FAILED


def seat_head(players, entries=None):
    """Start of the per-seat results (``SEAT_*``)."""
    return shape_head(players, entries) + G_SIZE


def stats_size(players, entries=None):
    return seat_head(players, entries) + players * SEAT_SIZE


# the statistics by name, for the analysis layer (tabletop_mc.records): (name, offset, shape)
ENTRY_FIELDS = (("win", E_WIN, ()), ("share", E_SHARE, ()), ("share_sq", E_SHARE_SQ, ()), ("coins", E_COINS, ()),
                ("coins_sq", E_COINS_SQ, ()), ("rounds", E_ROUNDS, ()), ("troll_rounds", E_TROLL, ()),
                ("troll_pay", E_TROLLPAY, ()), ("troll_pay_sq", E_TROLLPAY_SQ, ()), ("bets", E_BETS, (N_KINDS,)),
                ("won", E_WON, (N_KINDS,)), ("payout", E_PAYOUT, ()), ("stakes", E_STAKES, ()),
                ("cash_ins", E_CASH_N, ()), ("cash", E_CASH, ()), ("bonus_rounds", E_BONUS_N, ()),
                ("tokens", E_TOKENS, (N_TOKENS,)), ("swaps", E_SWAPS, ()), ("track_wins", E_TRACKWIN, ()),
                ("predicted", E_PRED, (N_KINDS,)), ("games", E_GAMES, ()))
ROW_FIELDS = (("placed", R_PLACED, ()), ("won", R_WON, ()), ("pay", R_PAY, ()), ("pay_sq", R_PAY_SQ, ()),
              ("predicted", R_PRED, ()))
SEAT_FIELDS = (("win", SEAT_WIN, ()), ("share", SEAT_SHARE, ()), ("share_sq", SEAT_SHARE_SQ, ()),
               ("coins", SEAT_COINS, ()), ("coins_sq", SEAT_COINS_SQ, ()))
ENTRY_DTYPE = record_dtype(ENTRY_FIELDS, E_SIZE)
ROW_DTYPE = record_dtype(ROW_FIELDS, R_FIELDS)
SEAT_DTYPE = record_dtype(SEAT_FIELDS, SEAT_SIZE)


def stats_dtype(players, entries=None):
    """The record dtype of one statistics vector (``stats_size(players, entries)``
    float64s): ``games``, ``rounds``, ``rounds_sq``, ``ended`` (by track,
    coins, rounds), ``entry[e]`` (``ENTRY_FIELDS``), ``rows[seat, row]``
    (``ROW_FIELDS``), ``troll_failed`` (troll rounds by bets failed),
    ``rounds_hist``, ``comebacks``, ``lead_changes``, ``lead_changes_sq``,
    ``focal_share``, ``focal_share_sq`` (a field's focal seat), ``seat[s]`` (``SEAT_FIELDS``)."""
    e = players if entries is None else entries
    g = shape_head(players, e)
    return record_dtype((("games", S_GAMES, ()), ("rounds", S_ROUNDS, ()), ("rounds_sq", S_ROUNDS_SQ, ()),
                         ("ended", S_END, (3,)), ("entry", S_HEAD, (e,), ENTRY_DTYPE),
                         ("rows", rows_head(players, e), (players, MAX_ROWS), ROW_DTYPE),
                         ("troll_failed", troll_hist_head(players, e), (MAX_FAILED,)),
                         ("rounds_hist", g + G_RHIST, (MAX_ROUNDS_HIST,)), ("comebacks", g + G_COMEBACK, ()),
                         ("lead_changes", g + G_LEADCH, ()), ("lead_changes_sq", g + G_LEADCH_SQ, ()),
                         ("focal_share", g + G_FOCAL, ()), ("focal_share_sq", g + G_FOCAL_SQ, ()),
                         ("seat", seat_head(players, e), (players,), SEAT_DTYPE)),
                        stats_size(players, e))


def named_stats(totals, players, entries=None):
    """``totals`` (one statistics vector) read by name, without a copy: ``s["games"]``,
    ``s["entry"][e]["win"]``, ``s["rows"]["placed"][seat, row]``, ``s["seat"][s]["share"]``
    (see ``stats_dtype``; ``entries`` defaults to what the vector's length holds)."""
    if entries is None:
        entries = (len(totals) - stats_size(players, 0)) // E_SIZE
    return named(totals, stats_dtype(players, entries))


# narration log: one float64 row of LOG_FIELDS per event
LOG_FIELDS = 8   # round, event, seat, a, b, c, d, e
(EV_ROUND, EV_HAND, EV_TALON, EV_ACTION, EV_END_TOKEN, EV_LEAD, EV_TRICKS, EV_BET, EV_SCORE, EV_TRACK,
 EV_END, EV_TRICK) = range(12)
