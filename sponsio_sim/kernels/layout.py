"""Sponsio's vocabulary: the flat vectors' layouts and the codes that kernels
and analysis share, each declared once (``tabletop_mc.records.layout``).

numba reference-counts every array passed to a function, and a call that
takes ten arrays costs more than a whole trick, so the kernels keep a round's
state, and a whole game's, in a few flat arrays; every hot call takes the
same four ``(board, game_state, money, rng)`` as ``play_tricks``:

- ``board`` (uint64) = ``BOARD``: hands, won cards, colour masks and public
  masks (talon, revealed and played cards);
- ``game_state`` (int64) = ``TRICK_STATE``: where the rulebook is, tricks
  won, voids, scratch seats, the relevance table (which bets each seat plays
  for or against, ``play.policies``), the cards of the trick phase in play
  order, and each trick's winner (what bets are settled on, with ``board``'s
  won cards); in whole games followed by ``GAME``: where the rest of the
  rulebook is, and the game's integer state (each entry's betting policy,
  round, dealer, tokens, bets, track, audit counters, scratch);
- ``money`` (float64) = ``TRICK_MONEY``: the goal policy's scratch; in whole
  games followed by ``MONEY``: the coins, the round's ledger and scratch (a
  game with the network: then its decision scratch).

The rules live in a rulebook that no kernel writes (``kernels.rulebook``,
found through the addresses in ``game_state``), never in the state:

- ``rules`` (int64) = ``TRICK_RULES``, the trick phase's rule flags (all an
  odds query's, a DD solve's or a PIMC seat's state reads:
  ``trickstate.new_state`` gives such a state a rulebook of its own), then in
  whole games ``RULES``: the rule numbers, the catalogue, each profile
  entry's play policy, cash-in and search settings, the run's settings, the
  best catalogue rows per model cell;
- ``money_rules`` (float64, whole games) = ``MONEY_RULES``: the money rules
  (stake, token cost, troll pay, bonus, track values, multipliers, policy
  parameters), then from ``MODEL_START`` the fitted success model (variable
  length, offsets in ``RULES.model_at``) and the network's packed weights
  (``RULES.net_at``).

Each layout's fields are offsets numba compiles in (``board[BOARD.hands + s]``,
``game_state[GAME.track + s]``, ``rules[RULES.players]``); the analysis layer and the tests read the
same memory by name (``GAME.named(game_state)["track"][s]``, ``RULES.named(rules)["players"]``,
``named_stats(totals, players)``). The statistics (``STATS_HEAD``,
``ENTRY_STATS``, ...), the distilled policy's features
(``CANDIDATE_FEATURES``), a recorded ``mc`` decision (``DECISION_RECORD``)
and ``sponsio exploit``'s pair block (``PAIR_STATS``) are declared the same
way. This module sits at the bottom of the kernels: it imports no kernel
but ``bits`` (``tests/test_layers.py``).
"""

from functools import lru_cache
from math import prod

import numpy as np

from tabletop_mc.records import layout, named, record_dtype
from sponsio_sim.bet_kinds import BY_NAME, KINDS, MAX_BETS, N_KINDS, model_shape
from sponsio_sim.kernels.bits import RANKS
from sponsio_sim.rules import NINES_OWN_FLAG

# the trick phase
MAX_PLAYERS = 6
MAX_COLOURS = 4
MAX_REL = 16
REL_FIELDS = 5  # kind, a, b, owner, sign
MAX_CARDS = MAX_COLOURS * RANKS
MAX_TRICKS = MAX_CARDS // 2
NINES_OWN = NINES_OWN_FLAG   # rule flag: a nines bet judges only its bettor's 9s (``nines_scope = own``)

# the cards (uint64 bit masks)
BOARD = layout(np.uint64, (
    ("hands", MAX_PLAYERS), ("won", MAX_PLAYERS),
    ("colour_masks", MAX_COLOURS),   # the deck's cards of each colour
    ("talon", ()), ("revealed", ()), ("played", ()),
    ("deck", ()),                    # every card of the rule set
    ("nine_cards", ()),              # the deck's 9s
), name="Board")

# the trick phase's integers
TRICK_STATE = layout(np.int64, (
    ("rules_at", ()),                # where the rulebook is (``kernels.rulebook``): the address of ``rules``
    ("tricks_won", MAX_PLAYERS),
    ("void", MAX_PLAYERS),           # per seat: bit c set, known void in colour c
    ("can", MAX_PLAYERS),            # scratch seats
    ("n_rel", MAX_PLAYERS),          # relevance entries per seat
    ("rel", (MAX_PLAYERS, MAX_REL, REL_FIELDS)),   # per seat, the bets it plays for or against (``rel_at``)
    ("seq", MAX_CARDS),              # cards in play order (set by play_tricks)
    ("winners", MAX_TRICKS),         # the winner of each trick, in play order (set by play_tricks)
    ("n_played", ()),                # tricks play_tricks played
), name="TrickState")

# the trick phase's rules: the head of every rulebook (``rules``), all a trick-phase state reads
# (``trickstate.new_state`` gives a state of its own a rulebook of this size; a game's ``RULES`` continues it)
TRICK_RULES = layout(np.int64, (
    ("flags", ()),                   # rule flags (NINES_OWN)
), name="TrickRules")

# the goal policy's scratch: one value per seat (``play.policies``)
TRICK_MONEY = layout(np.float64, (("goal_scratch", MAX_PLAYERS),), name="TrickMoney")

# the whole game
MAX_ROWS = 72          # catalogue rows: tricks 0..H, colour C x 0..9, last, nines, fail S
MAX_TRACK = 32         # streak track positions (track_win <= MAX_TRACK - 1)
N_TOKENS = 4
MAX_ROUNDS = (1 << 16) - 1   # rounds per game (each round draws from its own stream, game.round_stream)
MAX_ENTRIES = 16       # profile entries: one per seat, or the members of a field (seats draw them per game)

# bet kinds: sponsio_sim.bet_kinds; tokens (rules.TOKENS order)
LEAD_TOKEN, DOUBLE_TOKEN, REBET_TOKEN, SWAP_TOKEN = 0, 1, 2, 3
# betting policies: ``sponsio_sim.betting_policies``; cash-in "never" is a threshold no position reaches;
# "net": the network's value head decides (``betting.net.net_cash_ins``), also past every threshold
CASH_NEVER = 1 << 30
CASH_NET = CASH_NEVER + 1
# actions of the betting phase
PASS, BET, TOKEN, SWAP = 0, 1, 2, 3
# the order in which tokens take effect when betting ends (docs/rules-sponsio.md section 3)
END_TOKENS = (SWAP_TOKEN, REBET_TOKEN, DOUBLE_TOKEN)
# the distilled policy's features of a candidate action (``betting.candidates``; pass: all 0),
# per bet kind k or token t where marked
CANDIDATE_FEATURES = layout(np.float64, (
    ("bet", N_KINDS),             # 1 for a bet of kind k
    ("pay", N_KINDS),             # the model's expected payout P x multiplier x stake of a bet of kind k
    ("p", N_KINDS),               # the model's P of a bet of kind k
    ("forgone", ()),              # a first bet: the troll pay it gives up (model)
    ("held", ()),                 # a bet: bets already held
    ("streak", ()),               # a bet: the value of the seat's track position (lost if a bet fails)
    ("swap", ()),                 # an exchange: 1, and the model's gain
    ("swap_gain", ()),
    ("token", N_TOKENS),          # 1 for token t
    ("token_gain", N_TOKENS),     # the model's gain of token t
    ("token_cost", ()),           # a token: the coins it costs
    ("hidden", ()),               # any action (it reveals a card): own cards still hidden before it
    ("turns_left", ()),           # any action: betting turns left after this one
), name="Features")
# a recorded mc decision, one row per searched candidate (betting.mc.record_decision)
DECISION_RECORD = layout(np.float64, (
    ("decision", ()), ("chosen", ()), ("advantage", ()), ("rollouts", ()), ("gain", ()),
    ("features", CANDIDATE_FEATURES.size),
), name="DecisionRecord")
MAX_CANDS = 24   # candidate actions of one decision: more than any lists (1 + 2 x kinds + swap + tokens)
# end reasons (docs/rules-sponsio.md section 7, in priority order)
END_TRACK, END_COINS, END_ROUNDS = 1, 2, 3


# The whole game's rulebook: what a game reads and no kernel writes during it (``kernels.rulebook``).
# rules (int64), after TRICK_RULES: the rule set's integer numbers, the catalogue, each profile entry's policies and the
# run's settings (mc, the network's shape, labelling)
RULES = layout(np.int64, (
    ("players", ()), ("colours", ()), ("hand_size", ()),
    ("betting_turns", ()),
    ("track_win", ()), ("max_rounds", ()),
    ("tokens", ()),               # bitmask of the rule set's tokens
    ("catalogue_rows", ()),       # catalogue rows in use
    ("rotate", ()),               # 1: the profile rotates over the seats game by game
    ("bonus_net", ()),            # 1: round_bonus_basis = net
    ("track_ends", ()),           # 1: track_top = ends
    ("entries", ()),              # profile entries (statistics blocks): the seats, or a field's members
    ("field", ()),                # 1: every game, each seat draws its entry by the field's weights (MONEY_RULES.field_mix)
    ("focal_entry", ()),          # field: the entry the focal seat (game g: seat g % players) plays; -1: it draws too
    ("model_at", N_KINDS),        # model table offsets (from MODEL_START, into money_rules), per bet kind
    ("play_policy", MAX_ENTRIES),   # per profile entry
    ("cash_in_at", MAX_ENTRIES),  # per entry: the track position from which it cashes in (CASH_NEVER: never)
    ("banned_kinds", MAX_ENTRIES),     # per entry: bitmask of bet kinds the policy never places (restricted play)
    ("mc_rollouts", MAX_ENTRIES),      # per entry: mc rollouts per candidate
    ("mc_any", ()),               # 1: some entry bets by mc (its cash-in is searched, game.mc_cash_ins)
    ("mc_keep", ()),              # mc: candidates kept after the model's ranking (pass included)
    ("mc_self_policy", ()),       # mc: the betting policy an mc seat's own later decisions follow in rollouts
    ("mc_audit", ()),             # 1: every mc decision also searches every candidate (betting.mc.audit)
    # the learned policy (``betting.net``): where its packed float32 weights sit in ``money_rules`` and how
    # many float64 slots they fill (-1: no network loaded), where its scratch sits in ``money``, its layer widths
    ("net_at", ()), ("net_size", ()), ("net_scratch", ()), ("net_depth", ()), ("net_dims", 8),
    ("net_label_salt", ()),       # labelling: mixed into the rollouts' key (independent labels of the same games)
    ("net_label_race", ()),       # labelling: an action z paired SEs behind the best stops early (z in tenths; 0: never)
    ("catalogue", (MAX_ROWS, 3)),   # (kind, a, b) per catalogue row
    ("kind_first_row", N_KINDS),  # first row of each kind (-1: not in the rule set)
    # best catalogue row (max P x multiplier) per tricks cell, and per colour and colour cell
    # (``betting.model.precompute_best``, as the rulebook is built)
    ("best_tricks_row", prod(BY_NAME["tricks"].cell_sizes)),
    ("best_colour_row", (4, prod(BY_NAME["colour"].cell_sizes))),
    ("mc_leaf", MAX_ENTRIES),     # per entry: 1: mc rollouts stop where the round ends, valued by net's value head
), start=TRICK_RULES.size, name="Rules")

# money_rules (float64): the money rules and policy parameters, then from MODEL_START the fitted success
# model (variable length, offsets in ``RULES.model_at``), then the network's packed weights (``RULES.net_at``)
MONEY_RULES = layout(np.float64, (
    ("stake", ()), ("token_cost", ()), ("troll_pay", ()), ("bonus", ()),
    ("coins_to_end", ()), ("start_coins", ()),
    ("track_values", MAX_TRACK),
    ("multiplier", MAX_ROWS),     # per catalogue row
    ("base_rate", MAX_ROWS),      # model's unconditional success rate per row
    ("pass_share", MAX_ENTRIES),  # random: pass share, per entry
    ("ev_threshold", MAX_ENTRIES),   # ev: EV threshold in coins, per entry
    ("temperature", MAX_ENTRIES),    # ev: softmax temperature in coins, per entry (0: always the best action)
    ("field_mix", MAX_ENTRIES),   # field: cumulative weights of the entries (the last is 1)
    ("distilled_weights",
     CANDIDATE_FEATURES.size),   # distilled: the weight of each feature (CANDIDATE_FEATURES) in a candidate's score
), name="MoneyRules")
MODEL_START = MONEY_RULES.size    # the success model's tables start here

# game_state (int64): the trick phase's part (``TRICK_STATE``), then the game's state
GAME = layout(np.int64, (
    # where the rest of this game's rulebook is (``kernels.rulebook``; ``rules`` is at
    # ``TRICK_STATE.rules_at``): the address and length of ``money_rules``
    ("money_rules_at", ()), ("money_rules_size", ()),
    ("focal_seat", ()),           # field: this game's focal seat (-1 outside a field)
    ("betting_policy", MAX_ENTRIES),   # per profile entry (a rollout plays mc entries by RULES.mc_self_policy)
    ("mc_decisions", ()),         # audit counts: decisions with more than one candidate,
    ("mc_pruned", ()),            # and those where searching every candidate picks another action,
    ("mc_regret", ()),            # with the round gain it estimates the pruned choice loses (milli-coins)
    ("mc_searches_run", ()),      # searches run, and the rollouts (round play-outs) they played
    ("mc_rollouts_run", ()),
    ("net_top", 4),               # scratch: a bet type's best rows while the network's actions are weighed
    # game state
    ("round", ()),                # rounds finished
    ("dealer", ()),
    ("seat_entry", MAX_PLAYERS),  # seat -> profile entry this game
    ("track", MAX_PLAYERS),
    # round state
    ("token_owner", N_TOKENS),    # token owner, -1 while in the pool
    ("bet_count", MAX_PLAYERS),
    ("kinds_held", MAX_PLAYERS),  # bitmask of bet kinds held
    ("bet_row", (MAX_PLAYERS, MAX_BETS)),    # catalogue row of each bet
    ("bet_rank", (MAX_PLAYERS, MAX_BETS)),   # placement rank of each bet this round
    ("bets_placed", ()),          # bets placed this round
    ("betting_steps", ()),        # betting actions taken this round, passes included (betting.phase.apply_action)
    ("doubled_bet", MAX_PLAYERS),   # index of the doubled bet, -1
    ("bet_won", (MAX_PLAYERS, MAX_BETS)),    # 1 won, 0 lost (after settlement)
    ("swaps", MAX_PLAYERS),
    ("track_moved", MAX_PLAYERS),   # track position after moving, before cashing in
    ("leaders", ()),              # bitmask of the richest seats after the last round
    ("last_after_round1", ()),    # bitmask of the poorest seats after round 1
    ("lead_changes", ()),         # lead changes so far this game
    ("token_taken", (MAX_PLAYERS, N_TOKENS)),   # seat took token t this round
    ("bet_cell", (MAX_PLAYERS, MAX_BETS)),      # model cell (from MODEL_START) of each bet when betting ends
    # success-model features of the hand being evaluated (scratch, ``betting.model``)
    ("sure_winners", ()), ("high_cards", ()), ("own_nines", ()), ("nines_in_play", ()), ("leads", ()),
    ("betting_place", ()),        # place in the betting order (0..PLACES-1)
    ("colour_cell", 4),           # per colour: the colour bet's feature cell
    ("colour_sure", 4),           # per colour: sure winners, high cards
    ("colour_high", 4),
    ("candidates", (MAX_CANDS, 4)),   # scratch: a decision's candidate actions (act, x, y, rv) (betting.scored)
), start=TRICK_STATE.size, name="Game")

# money (float64): the goal policy's scratch (``TRICK_MONEY``), then the coins, the round's ledger and
# scratch; a game with the network continues with its decision scratch (``RULES.net_scratch``)
MONEY = layout(np.float64, (
    ("gains", MAX_CANDS),         # scratch: the candidates' gains or scores (betting.scored)
    ("features", CANDIDATE_FEATURES.size),  # scratch: one candidate's features
    ("coins", MAX_PLAYERS),
    # the round's ledger, per seat (coins)
    ("stakes", MAX_PLAYERS), ("fees", MAX_PLAYERS), ("payout", MAX_PLAYERS), ("troll_paid", MAX_PLAYERS),
    ("bonus_paid", MAX_PLAYERS), ("cashed", MAX_PLAYERS),
    ("bet_p", (MAX_PLAYERS, MAX_BETS)),   # model P of each bet when betting ends
), start=TRICK_MONEY.size, name="Money")

# success-model table shapes (feature cells x parameter, ``bet_kinds``); see betting.model.cell_of
TRICKS_CELLS = BY_NAME["tricks"].cell_sizes    # sure winners (0..5+), high cards (0..4+), leads
COLOUR_CELLS = BY_NAME["colour"].cell_sizes    # own cards of C (0..6+), talon's C (0..3+), own sure C (0..2+), place
COLOUR_PARAMS = 10                        # N = 0..9
LAST_CELLS = BY_NAME["last"].cell_sizes        # sure winners (0..3+), own 9s (0..2+), leads
NINES_CELLS = BY_NAME["nines"].cell_sizes      # 9s not in the talon, own 9s
FAIL_CELLS = BY_NAME["fail"].cell_sizes        # the target's bets (0..5+), place in the betting order


@lru_cache(maxsize=None)
def model_shapes(hand_size):
    """Shape of each kind's table (``bet_kinds`` order), parameter last where there is one (a tuple,
    kept per hand size: every game's setup reads it)."""
    return tuple(model_shape(kind, hand_size) for kind in KINDS)


@lru_cache(maxsize=None)
def model_sizes(hand_size):
    """Flat size of each kind's table."""
    return tuple(prod(shape) for shape in model_shapes(hand_size))


# statistics per chunk (float64): game totals (STATS_HEAD), one block per profile entry (ENTRY_STATS),
# per seat and catalogue row the bets placed there (ROW_STATS), the histogram of failed bets in troll
# rounds (one count per troll and round), the games' shape (SHAPE_STATS), then one block per seat (SEAT_STATS)
STATS_HEAD = layout(np.float64, (
    ("games", ()), ("rounds", ()), ("rounds_sq", ()),
    ("ended", 3),                 # games ended by track, coins, rounds (ended + reason - 1)
), name="StatsHead")
ENTRY_STATS = layout(np.float64, (
    ("win", ()), ("share", ()), ("share_sq", ()), ("coins", ()), ("coins_sq", ()), ("rounds", ()),
    ("troll_rounds", ()), ("troll_pay", ()), ("troll_pay_sq", ()),
    ("bets", N_KINDS),            # per kind: bets placed
    ("won", N_KINDS),             # per kind: bets won
    ("payout", ()), ("stakes", ()), ("cash_ins", ()), ("cash", ()), ("bonus_rounds", ()),
    ("tokens", N_TOKENS), ("swaps", ()), ("track_wins", ()),
    ("predicted", N_KINDS),       # per kind: the model's P of the bets placed, summed
    ("games", ()),                # seat-games the entry played (a field's members: how often they were drawn)
), name="EntryStats")
# per seat and catalogue row: placed, won, payout, payout squared, and the success model's P summed
# (as betting ended)
ROW_STATS = layout(np.float64, (("placed", ()), ("won", ()), ("pay", ()), ("pay_sq", ()), ("predicted", ())),
                   name="RowStats")
MAX_FAILED = (MAX_PLAYERS - 1) * MAX_BETS + 1   # 0..(players-1) x 5 failed bets
# the games' shape: rounds per game (1..MAX_ROUNDS_HIST, the last bin also counts longer games), comebacks
# (a winner was last after round 1) and lead changes (the richest players after a round share none with
# those after the round before; counted from round 2)
MAX_ROUNDS_HIST = 16
SHAPE_STATS = layout(np.float64, (
    ("rounds_hist", MAX_ROUNDS_HIST), ("comebacks", ()), ("lead_changes", ()), ("lead_changes_sq", ()),
    ("focal_share", ()), ("focal_share_sq", ()),   # a field: the focal seat's win share (kernels.field)
), name="ShapeStats")
# one block per seat, whatever entry sat there: wins, win share and its square, final coins
SEAT_STATS = layout(np.float64, (("win", ()), ("share", ()), ("share_sq", ()), ("coins", ()), ("coins_sq", ())),
                    name="SeatStats")


def rows_head(players, entries=None):
    """Start of the per-seat, per-catalogue-row bet statistics (after one block per entry;
    ``entries`` defaults to one per seat)."""
    return STATS_HEAD.size + (players if entries is None else entries) * ENTRY_STATS.size


def troll_hist_head(players, entries=None):
    """Start of the histogram of failed bets in troll rounds (one count per troll and round)."""
    return rows_head(players, entries) + players * MAX_ROWS * ROW_STATS.size


def shape_head(players, entries=None):
    """Start of the games' shape statistics (``SHAPE_STATS``)."""
    return troll_hist_head(players, entries) + MAX_FAILED


def seat_head(players, entries=None):
    """Start of the per-seat results (``SEAT_STATS``)."""
    return shape_head(players, entries) + SHAPE_STATS.size


def stats_size(players, entries=None):
    return seat_head(players, entries) + players * SEAT_STATS.size


def stats_dtype(players, entries=None):
    """The record dtype of one statistics vector (``stats_size(players, entries)``
    float64s): ``STATS_HEAD``'s fields, ``entry[e]`` (``ENTRY_STATS``),
    ``rows[seat, row]`` (``ROW_STATS``), ``troll_failed`` (troll rounds by bets
    failed), ``SHAPE_STATS``'s fields, ``seat[s]`` (``SEAT_STATS``)."""
    e = players if entries is None else entries
    g = shape_head(players, e)
    head = [(name, getattr(STATS_HEAD, name), STATS_HEAD.dtype.fields[name][0].shape)
            for name in STATS_HEAD.dtype.names]
    shape = [(name, g + getattr(SHAPE_STATS, name), SHAPE_STATS.dtype.fields[name][0].shape)
             for name in SHAPE_STATS.dtype.names]
    return record_dtype((*head, ("entry", STATS_HEAD.size, (e,), ENTRY_STATS.dtype),
                         ("rows", rows_head(players, e), (players, MAX_ROWS), ROW_STATS.dtype),
                         ("troll_failed", troll_hist_head(players, e), (MAX_FAILED,)), *shape,
                         ("seat", seat_head(players, e), (players,), SEAT_STATS.dtype)),
                        stats_size(players, e))


def named_stats(totals, players, entries=None):
    """``totals`` (one statistics vector) read by name, without a copy: ``s["games"]``,
    ``s["entry"][e]["win"]``, ``s["rows"]["placed"][seat, row]``, ``s["seat"][s]["share"]``
    (see ``stats_dtype``; ``entries`` defaults to what the vector's length holds)."""
    if entries is None:
        entries = (len(totals) - stats_size(players, 0)) // ENTRY_STATS.size
    return named(totals, stats_dtype(players, entries))


# one play's game measures (``game.multiplay``, per game): rounds, troll seat-rounds, lead changes, comeback
# (0/1), end reason (one-hot: track, coins, rounds), coins by source over all seats (bet payouts, troll pay,
# round bonus, cash-ins, stakes, token fees), the focal entry's (a field: the focal seat's) win share and coins
# gained per round, bets placed per kind; then from SEAT_SHARE_MEASURES each seat's win share
GAME_MEASURES = layout(np.float64, (
    ("rounds", ()), ("troll_seat_rounds", ()), ("lead_changes", ()), ("comeback", ()), ("ended", 3),
    ("payout", ()), ("troll_pay", ()), ("bonus", ()), ("cash", ()), ("stakes", ()), ("fees", ()),
    ("focal_share", ()), ("focal_coins", ()), ("bets", N_KINDS),
), name="GameMeasures")
SEAT_SHARE_MEASURES = GAME_MEASURES.size

# what `scripts/bench_mc.py` reads from ``game.audit.audit_chunk``: mc decisions with more than one
# candidate, those where searching every candidate picks another action, searches, rollouts, and the round
# gain (coins) the pruned choices lose
AUDIT_COUNTS = layout(np.float64, (("decisions", ()), ("pruned", ()), ("searches", ()), ("rollouts", ()),
                                   ("regret", ())), name="AuditCounts")

# `sponsio exploit`'s pair block (kernels.game.exploit): games, then per measure (win share, coins per
# round) the sums of the deviating play, its square, the base play, its square, the difference, its square
PAIRED = layout(np.float64, (("dev", ()), ("dev_sq", ()), ("base", ()), ("base_sq", ()), ("diff", ()),
                             ("diff_sq", ())), name="Paired")
PAIR_STATS = layout(np.float64, (("games", ()), ("share", PAIRED.size), ("coins_per_round", PAIRED.size)),
                    name="PairStats")


# narration log: one float64 row of LOG_FIELDS per event
LOG_FIELDS = 8   # round, event, seat, a, b, c, d, e
(EV_ROUND, EV_HAND, EV_TALON, EV_ACTION, EV_END_TOKEN, EV_LEAD, EV_TRICKS, EV_BET, EV_SCORE, EV_TRACK,
 EV_END, EV_TRICK) = range(12)
