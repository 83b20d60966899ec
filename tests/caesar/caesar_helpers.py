"""Hand-built Circus Maximus states for kernel tests (the slow references: ``caesar_reference``)."""

from __future__ import annotations

import numpy as np

from caesar_sim.kernels import api
from caesar_sim.kernels import layout
from caesar_sim.profile import policy_weights
from caesar_sim.rules import kernel_rules, load_rules

weight_table = policy_weights()


class Table:
    """A game state built by hand: displays, hands, rows; steps through kernel entry points.

    ``state`` is the state vector by name (``layout.STATE.dtype``), a view that
    reads and writes ``game_state``: ``t.state["favours"][1, layout.DOUBLE] = 1``."""

    def __init__(self, players=4, overrides=None, phase=0, start=0, policy=layout.VALUE):
        self.rulebook = kernel_rules(load_rules(overrides=overrides), players)
        self.game_state = np.zeros(layout.STATE.size, dtype=np.int64)
        self.state = layout.STATE.named(self.game_state)
        self.rules = layout.RULES.named(self.rulebook)
        self.game_log = np.zeros((layout.MAX_LOG_ROWS, layout.LOG_FIELDS), dtype=np.int64)
        self.game_log[0, 1] = layout.MAX_LOG_ROWS
        self.game_stats = np.zeros(layout.STATS.size)
        self.stats = layout.STATS.named(self.game_stats)
        self.stats["on"] = 1
        self.rng = np.array([1, 2, 3, 4], dtype=np.uint64)
        s = self.state
        s["players"] = players
        s["phase"] = phase
        s["start"] = start
        s["turn"] = start
        s["caesar"] = -1
        s["bank_coins"] = self.rules["coin_cards"]
        s["hand"][:players] = (1 << layout.MERCHANT_VALUES) - 1     # every merchant 1..8 in hand
        s["policy"][:players] = policy

    # --- displays
    def favours(self, boost=0, double=0, gold=0, start_card=True):
        self.state["favours_shown"] = boost, double, gold
        self.state["start_card_shown"] = int(start_card)

    def tickets(self, *venue_coin_index):
        """Display tickets given as (venue, index into tickets.coins)."""
        for i, (x, k) in enumerate(venue_coin_index):
            self.state["ticket_venue"][i] = x
            self.state["ticket_coins"][i] = self.rules["ticket_coins"][k]
        self.state["tickets_shown"] = len(venue_coin_index)

    def visitors(self, x, coins):
        coins = sorted(coins, reverse=True)
        self.state["visitor_coins"][x, :len(coins)] = coins
        self.state["visitors_shown"][x] = len(coins)

    def give_ticket(self, p, x, coin):
        _insert(self.state["held_ticket_coins"][p, x], self.state["tickets_held"][p], x, coin)

    def give_visitor(self, p, x, coin):
        _insert(self.state["held_visitor_coins"][p, x], self.state["visitors_held"][p], x, coin)

    def hand(self, p, *values):
        """Seat p holds the merchants ``values`` (1..8)."""
        self.state["hand"][p] = sum(1 << (v - 1) for v in values)

    def give_favours(self, p, boost=0, double=0, gold=0):
        self.state["favours"][p] = boost, double, gold

    # --- steps
    def play(self, p, v, venue=None, fav=0):
        row = self.state["phase"] if venue is None else 2 + venue
        api.k_apply(self.rulebook, self.game_state, p,
                    (v - 1) + layout.MERCHANT_VALUES * row + layout.MERCHANT_VALUES * layout.ROWS * fav, self.game_log, self.game_stats)

    def resolve(self):
        api.k_resolve(self.rulebook, weight_table, self.game_state, self.rng, self.game_log, self.game_stats)

    def score(self):
        api.k_score(self.rulebook, self.game_state, self.game_log, self.game_stats)
        return self.totals()

    # --- reading
    def totals(self):
        return list(self.state["score"][:self.state["players"]])

    def row(self, row):
        s, n = self.state, self.state["row_cards"][row]
        return [(int(s["row_owner"][row, i]), int(s["row_value"][row, i]), int(s["row_effective"][row, i]))
                for i in range(n)]

    def card_items(self):
        """Items won by each card played today, in play order: (owner, value, items)."""
        s = self.state
        return [(int(s["card_owner"][c]), int(s["card_value"][c]), int(s["card_items"][c]))
                for c in range(s["cards_played"])]

    def fav(self, p):
        return list(self.state["favours"][p])

    def held_tickets(self, p, x):
        return list(self.state["held_ticket_coins"][p, x, :self.state["tickets_held"][p, x]])

    def held_visitors(self, p, x):
        return list(self.state["held_visitor_coins"][p, x, :self.state["visitors_held"][p, x]])

    def events(self, ev):
        rows = self.game_log[1:self.game_log[0, 0] + 1]
        return [tuple(int(v) for v in r[1:9]) for r in rows if r[0] == ev]


def _insert(coins, counts, x, coin):
    """Add ``coin`` to a seat's items of venue x, kept in descending order."""
    n = counts[x]
    coins[:n + 1] = sorted(list(coins[:n]) + [coin], reverse=True)
    counts[x] = n + 1
