"""What a seat knows, as the learned policy's input vector (numba): ``encode``.

Everything on the table is public (docs/rules-circus.md section 8), so a seat knows the whole
state but the order of the decks. The inputs describe it from one seat's side: seats are numbered relative to it (0 = the
seat itself, 1 = the next clockwise, ...; a table of fewer than ``MAX_PLAYERS`` seats leaves the rest 0).
Blocks (``INPUTS``, one value per slot; most are 0 in a given state, which the forward pass
skips):

- ``hands``: the merchant values each seat still holds today (1 per card);
- ``bidding``: the seats still bidding in this phase; ``to_move``: the seat to act;
- ``phase``, ``day`` (one-hot; day 3 and later share the last) and ``days_left`` after today;
- ``order``: the seat's place in the phase's turn order; ``start``: who holds the start card;
  ``seat``: the seat's own number;
- the displays: favours of each type and the start card (``villa``); tickets per venue, count
  and coins (``forum``), and the coin cards a ticket of each venue brings (``specials``);
  visitors per venue, count, coins and the best (``visitors_shown``); the Caesar card's venue;
- ``rows``: per row, items on display, the items the seat's cards win as the row stands, the
  least effective value that wins one (minus 1: 0 while any card does), the items the row's
  cards claim; ``row_seats``: the items each seat's cards win as the rows stand;
- holdings per seat: tickets and their coins, visitors and their coins, per venue; favours of
  each type; coin cards taken today;
- ``scores``: the seat's total, then every other seat's total minus it; ``lead``: its total minus
  the best rival's; ``bank``: coin cards left; ``decks``: tickets, visitors, favours left;
- ``rules``: every rule number (``RULE_INPUTS``) minus the same number of the rule set the
  network was trained around (``reference``): 0 under those rules, so one network plays
  differently when a lever changes the rules, at no cost when none does;
- ``bid_scores``: what the project's linear scorer makes of each of the seat's bids as the rows stand
  (`distilled`'s features, the net row's weights: ``kernels.play.net``), at the action's place in the
  fixed action list (pass, then action code + 1), 0 for the others. ``encode`` leaves this block 0;
  ``kernels.play.net.encode_scored`` fills it.

The same vector is written by a slow plain-Python encoder in the tests, on hand-built states.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.records import layout
from caesar_sim.kernels.layout import (FAVOUR_TYPES, MAX_DISPLAY_ITEMS, MAX_HELD_ITEMS, MAX_PLAYERS, MAX_ROW_CARDS,
                                       MERCHANT_VALUES, NET_ACTIONS, ROWS, RULES, STATE, VENUES)
from caesar_sim.kernels.play.policies import row_scan
from caesar_sim.kernels.play.state import n_items

# the rule numbers the network reads (the experiment's favour gift and the removed cards' bitmasks are not
# numbers a player reads: left out)
RULE_INPUTS = tuple(i for name in RULES._fields[:-1] if name not in ("players", "gift_type", "gift_seat",
                                                                      "removed_tickets", "removed_visitors")
                    for i in range(getattr(RULES, name), getattr(RULES, name) + RULES.dtype[name].itemsize // 8))
N_RULES = len(RULE_INPUTS)
DAY_SLOTS = 3

INPUTS = layout(np.float64, (
    ("hands", (MAX_PLAYERS, MERCHANT_VALUES)), ("bidding", MAX_PLAYERS), ("to_move", MAX_PLAYERS),
    ("phase", 3), ("day", DAY_SLOTS), ("days_left", ()),
    ("order", MAX_PLAYERS), ("start", MAX_PLAYERS), ("seat", MAX_PLAYERS),
    ("villa", FAVOUR_TYPES + 1), ("forum", (VENUES, 2)), ("specials", VENUES), ("visitors_shown", (VENUES, 3)),
    ("caesar", VENUES),
    ("rows", (ROWS, 4)), ("row_seats", (ROWS, MAX_PLAYERS)),
    ("tickets", (MAX_PLAYERS, VENUES, 2)), ("visitors", (MAX_PLAYERS, VENUES, 2)),
    ("favours", (MAX_PLAYERS, FAVOUR_TYPES)), ("coin_cards", MAX_PLAYERS),
    ("scores", MAX_PLAYERS), ("lead", ()), ("bank", ()), ("decks", 3),
    ("rules", N_RULES),
    ("bid_scores", NET_ACTIONS),
), name="Inputs")
RULE_SLOTS = np.array(RULE_INPUTS, dtype=np.int64)


@nb.njit(cache=True, inline="always")
def _put(x, idx, k, i, value):
    """Input ``i`` = ``value``, listed in ``idx`` if nonzero (without a branch); returns the list's length."""
    x[i] = value
    idx[k] = i
    return k + (value != 0)


@nb.njit(cache=True, inline="always")
def _rel(q, p, n):
    """Seat ``q`` numbered from seat ``p``'s side."""
    return q - p if q >= p else q - p + n


@no_refcount
def encode(rulebook, reference, game_state, p, x, idx):
    """Seat ``p``'s inputs (module docstring) into ``x[:INPUTS.size]`` and the indices of the nonzero ones into
    ``idx`` (ascending, each once); returns their number. ``reference``: the rule vector the ``rules``
    block is measured from (``RULES`` layout, any numeric type)."""
    n = game_state[STATE.players]
    for i in range(INPUTS.size):
        x[i] = 0.0
    k = 0
    for r in range(n):
        q = p + r if p + r < n else p + r - n
        hand = game_state[STATE.hand + q]
        for v in range(MERCHANT_VALUES):
            k = _put(x, idx, k, INPUTS.hands + r * MERCHANT_VALUES + v, hand >> v & 1)
    for r in range(n):
        q = p + r if p + r < n else p + r - n
        k = _put(x, idx, k, INPUTS.bidding + r, int(game_state[STATE.passed + q] == 0 and game_state[STATE.hand + q] != 0))
    start = game_state[STATE.start]
    ph, day = game_state[STATE.phase], game_state[STATE.day]
    k = _put(x, idx, k, INPUTS.to_move + _rel(game_state[STATE.turn], p, n), 1)
    k = _put(x, idx, k, INPUTS.phase + ph, 1)
    k = _put(x, idx, k, INPUTS.day + min(day, DAY_SLOTS - 1), 1)
    k = _put(x, idx, k, INPUTS.days_left, max(0, rulebook[RULES.days] - 1 - day))
    k = _put(x, idx, k, INPUTS.order + _rel(p, start, n), 1)
    k = _put(x, idx, k, INPUTS.start + _rel(start, p, n), 1)
    k = _put(x, idx, k, INPUTS.seat + p, 1)
    for t in range(FAVOUR_TYPES):
        k = _put(x, idx, k, INPUTS.villa + t, game_state[STATE.favours_shown + t])
    k = _put(x, idx, k, INPUTS.villa + FAVOUR_TYPES, game_state[STATE.start_card_shown])
    c0, c1, c2, s0, s1, s2 = 0, 0, 0, 0, 0, 0     # tickets on display per venue, and their coins
    for i in range(game_state[STATE.tickets_shown]):
        v, c = game_state[STATE.ticket_venue + i], game_state[STATE.ticket_coins + i]
        c0, c1, c2 = c0 + int(v == 0), c1 + int(v == 1), c2 + int(v == 2)
        s0, s1, s2 = s0 + c * int(v == 0), s1 + c * int(v == 1), s2 + c * int(v == 2)
    k = _put(x, idx, k, INPUTS.forum, c0)
    k = _put(x, idx, k, INPUTS.forum + 1, s0)
    k = _put(x, idx, k, INPUTS.forum + 2, c1)
    k = _put(x, idx, k, INPUTS.forum + 3, s1)
    k = _put(x, idx, k, INPUTS.forum + 4, c2)
    k = _put(x, idx, k, INPUTS.forum + 5, s2)
    bank = game_state[STATE.bank_coins]
    for v in range(VENUES):
        k = _put(x, idx, k, INPUTS.specials + v, min(game_state[STATE.specials + v], bank) * rulebook[RULES.coin_card_value])
    for v in range(VENUES):
        nv = game_state[STATE.visitors_shown + v]
        tot = 0
        for i in range(nv):
            tot += game_state[STATE.visitor_coins + v * MAX_DISPLAY_ITEMS + i]
        k = _put(x, idx, k, INPUTS.visitors_shown + v * 3, nv)
        k = _put(x, idx, k, INPUTS.visitors_shown + v * 3 + 1, tot)
        k = _put(x, idx, k, INPUTS.visitors_shown + v * 3 + 2,
                 game_state[STATE.visitor_coins + v * MAX_DISPLAY_ITEMS] if nv > 0 else 0)
    if game_state[STATE.caesar] >= 0:
        k = _put(x, idx, k, INPUTS.caesar + game_state[STATE.caesar], 1)
    for row in range(ROWS):
        nit, won, tau, took = row_scan(rulebook, game_state, row, p)
        o = INPUTS.rows + row * 4
        k = _put(x, idx, k, o, nit)
        k = _put(x, idx, k, o + 1, won)
        k = _put(x, idx, k, o + 2, tau - 1)
        k = _put(x, idx, k, o + 3, took)
    for row in range(ROWS):   # the items each seat's cards win as the row stands
        nit = n_items(game_state, row)
        claimed = 0
        w0, w1, w2, w3, w4 = 0, 0, 0, 0, 0
        for e in range(game_state[STATE.row_cards + row]):
            j = row * MAX_ROW_CARDS + e
            takes = rulebook[RULES.double_items] if game_state[STATE.row_favour + j] == 2 else 1
            got = max(0, min(takes, nit - claimed))
            claimed += takes
            r = _rel(game_state[STATE.row_owner + j], p, n)
            w0, w1, w2, w3, w4 = (w0 + got * int(r == 0), w1 + got * int(r == 1), w2 + got * int(r == 2),
                                  w3 + got * int(r == 3), w4 + got * int(r == 4))
        o = INPUTS.row_seats + row * MAX_PLAYERS
        k = _put(x, idx, k, o, w0)
        k = _put(x, idx, k, o + 1, w1)
        k = _put(x, idx, k, o + 2, w2)
        k = _put(x, idx, k, o + 3, w3)
        k = _put(x, idx, k, o + 4, w4)
    for block in range(2):    # tickets, then visitors: per seat and venue, the count and the coins
        held, coins = (STATE.tickets_held, STATE.held_ticket_coins) if block == 0 else \
            (STATE.visitors_held, STATE.held_visitor_coins)
        o = INPUTS.tickets if block == 0 else INPUTS.visitors
        for r in range(n):
            q = p + r if p + r < n else p + r - n
            for v in range(VENUES):
                h = q * VENUES + v
                cnt, tot = game_state[held + h], 0
                for i in range(cnt):
                    tot += game_state[coins + h * MAX_HELD_ITEMS + i]
                k = _put(x, idx, k, o + (r * VENUES + v) * 2, cnt)
                k = _put(x, idx, k, o + (r * VENUES + v) * 2 + 1, tot)
    for r in range(n):
        q = p + r if p + r < n else p + r - n
        for t in range(FAVOUR_TYPES):
            k = _put(x, idx, k, INPUTS.favours + r * FAVOUR_TYPES + t, game_state[STATE.favours + q * FAVOUR_TYPES + t])
    for r in range(n):
        q = p + r if p + r < n else p + r - n
        k = _put(x, idx, k, INPUTS.coin_cards + r, game_state[STATE.coin_cards + q])
    mine = game_state[STATE.score + p]
    best = -(1 << 30)
    k = _put(x, idx, k, INPUTS.scores, mine)
    for r in range(1, n):
        q = p + r if p + r < n else p + r - n
        k = _put(x, idx, k, INPUTS.scores + r, game_state[STATE.score + q] - mine)
        best = max(best, game_state[STATE.score + q])
    k = _put(x, idx, k, INPUTS.lead, mine - best)
    k = _put(x, idx, k, INPUTS.bank, bank)
    k = _put(x, idx, k, INPUTS.decks, game_state[STATE.tickets_dealt] - game_state[STATE.next_ticket])
    k = _put(x, idx, k, INPUTS.decks + 1, game_state[STATE.visitors_dealt] - game_state[STATE.next_visitor])
    k = _put(x, idx, k, INPUTS.decks + 2, game_state[STATE.favours_dealt] - game_state[STATE.next_favour])
    for m in range(N_RULES):   # 0 under the reference rules (a branch that predicts well)
        d = rulebook[RULE_SLOTS[m]] - reference[RULE_SLOTS[m]]
        if d != 0:
            k = _put(x, idx, k, INPUTS.rules + m, d)
    return k
