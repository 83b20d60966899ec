"""Hand-built Circus Maximus states for kernel tests, and slow reference code."""

from __future__ import annotations

import itertools

import numpy as np

from caesar_sim.kernels import api
from caesar_sim.kernels import layout as L
from caesar_sim.profile import policy_weights
from caesar_sim.rules import kernel_rules, load_rules

PP = policy_weights()


class Table:
    """A game state built by hand: displays, hands, rows; steps through kernel entry points."""

    def __init__(self, players=4, overrides=None, phase=0, start=0, policy=L.VALUE):
        self.R = kernel_rules(load_rules(overrides=overrides), players)
        self.S = np.zeros(L.S_SIZE, dtype=np.int64)
        self.lg = np.zeros((L.LOG_MAX, L.LOGW), dtype=np.int64)
        self.lg[0, 1] = L.LOG_MAX
        self.st = np.zeros(L.ST_SIZE)
        self.st[L.ST_ON] = 1
        self.rng = np.array([1, 2, 3, 4], dtype=np.uint64)
        S = self.S
        S[L.S_N] = players
        S[L.S_PHASE] = phase
        S[L.S_START] = start
        S[L.S_TURN] = start
        S[L.S_CAESAR] = -1
        S[L.S_COINS] = self.R[L.R_NCOIN]
        for p in range(players):
            S[L.S_HAND + p] = (1 << L.NVAL) - 1
            S[L.S_POL + p] = policy

    # --- displays
    def favours(self, boost=0, double=0, gold=0, start_card=True):
        self.S[L.S_FDISP:L.S_FDISP + 3] = boost, double, gold
        self.S[L.S_SPAV] = int(start_card)

    def tickets(self, *venue_coin_index):
        """Display tickets given as (venue, index into tickets.coins)."""
        for i, (x, k) in enumerate(venue_coin_index):
            self.S[L.S_TDX + i] = x
            self.S[L.S_TDC + i] = self.R[L.R_TCOIN + k]
        self.S[L.S_TDN] = len(venue_coin_index)

    def visitors(self, x, coins):
        coins = sorted(coins, reverse=True)
        self.S[L.S_VD + x * L.DISP:L.S_VD + x * L.DISP + len(coins)] = coins
        self.S[L.S_VDN + x] = len(coins)

    def give_ticket(self, p, x, coin, origin=0):
        h = p * L.NVEN + x
        n = self.S[L.S_PTN + h]
        vals = sorted(list(self.S[L.S_PT + h * L.HOLD:L.S_PT + h * L.HOLD + n]) + [coin], reverse=True)
        self.S[L.S_PT + h * L.HOLD:L.S_PT + h * L.HOLD + n + 1] = vals
        self.S[L.S_PTN + h] = n + 1

    def give_visitor(self, p, x, coin):
        h = p * L.NVEN + x
        n = self.S[L.S_PVN + h]
        vals = sorted(list(self.S[L.S_PV + h * L.HOLD:L.S_PV + h * L.HOLD + n]) + [coin], reverse=True)
        self.S[L.S_PV + h * L.HOLD:L.S_PV + h * L.HOLD + n + 1] = vals
        self.S[L.S_PVN + h] = n + 1

    # --- steps
    def play(self, p, v, venue=None, fav=0):
        row = self.S[L.S_PHASE] if venue is None else 2 + venue
        api.k_apply(self.R, self.S, p, (v - 1) + L.NVAL * row + L.NVAL * L.NROW * fav, self.lg, self.st)

    def resolve(self):
        api.k_resolve(self.R, PP, self.S, self.rng, self.lg, self.st)

    def score(self):
        api.k_score(self.R, self.S, self.lg, self.st)
        return self.totals()

    # --- reading
    def totals(self):
        return list(self.S[L.S_TOT:L.S_TOT + self.S[L.S_N]])

    def row(self, row):
        n = self.S[L.S_ROWN + row]
        b = row * L.ROWCAP
        return [(int(self.S[L.S_ROWO + b + i]), int(self.S[L.S_ROWV + b + i]), int(self.S[L.S_ROWE + b + i]))
                for i in range(n)]

    def card_items(self):
        """Items won by each card played today, in play order: (owner, value, items)."""
        return [(int(self.S[L.S_DCW + c]), int(self.S[L.S_DCV + c]), int(self.S[L.S_DCK + c]))
                for c in range(self.S[L.S_DCN])]

    def fav(self, p):
        return list(self.S[L.S_FAV + p * 3:L.S_FAV + p * 3 + 3])

    def held_tickets(self, p, x):
        h = p * L.NVEN + x
        return list(self.S[L.S_PT + h * L.HOLD:L.S_PT + h * L.HOLD + self.S[L.S_PTN + h]])

    def held_visitors(self, p, x):
        h = p * L.NVEN + x
        return list(self.S[L.S_PV + h * L.HOLD:L.S_PV + h * L.HOLD + self.S[L.S_PVN + h]])

    def events(self, ev):
        rows = self.lg[1:self.lg[0, 0] + 1]
        return [tuple(int(v) for v in r[1:9]) for r in rows if r[0] == ev]


# --- slow, obviously right references

def ref_row(bids, boost, double_items, n_items):
    """Row order and items per card for bids [(owner, value, favour)] in play order."""
    eff = [v + (boost if f == 1 else 0) for (_, v, f) in bids]
    order = sorted(range(len(bids)), key=lambda i: -eff[i])  # stable: equal values stay in play order
    left = n_items
    got = [0] * len(bids)
    for i in order:
        want = double_items if bids[i][2] == 2 else 1
        got[i] = min(want, left)
        left -= got[i]
    return [(bids[i][0], bids[i][1], eff[i]) for i in order], got


def ref_venue_score(tickets, visitors, favours_plain=0, favours_gold=0, allow=0, gold_coins=2):
    """Best coins from one venue by brute force over every matching (favours as 0-coin tickets)."""
    best = -10 ** 9
    for k1 in range(favours_plain + 1):
        for k2 in range(favours_gold + 1):
            if k1 + k2 > allow:
                continue
            slots = [("t", t) for t in tickets] + [("f", 0)] * (k1 + k2)
            for m in range(min(len(slots), len(visitors)) + 1):
                for tk in itertools.combinations(range(len(slots)), m):
                    for vs in itertools.permutations(range(len(visitors)), m):
                        used_f = sum(1 for i in tk if slots[i][0] == "f")
                        if used_f != k1 + k2:
                            continue
                        coins = sum(slots[i][1] for i in tk) + sum(visitors[j] for j in vs)
                        best = max(best, coins - k2 * gold_coins)
    return best
