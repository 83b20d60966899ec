"""Slow, obviously-right Circus Maximus references: plain Python, by brute force.

- ``ref_row``: a row's resolution (highest effective value first, ties in
  play order, a double favour takes two items);
- ``ref_venue_score``: a venue's best score over every matching of tickets
  (and favours used as tickets) with visitors.
"""

from __future__ import annotations

import itertools


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
