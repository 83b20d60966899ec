"""Slow, obviously-right Circus Maximus references: plain Python, by brute force.

- ``ref_row``: a row's resolution (highest effective value first, ties in
  play order, a double favour takes two items);
- ``ref_venue_score``: a venue's best score over every matching of tickets
  (and favours used as tickets) with visitors;
- ``ref_inputs``: the `net` policy's inputs, block by block.
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


def ref_inputs(state, rules, reference, p):
    """The `net` policy's inputs for seat ``p`` (``kernels.play.encode``), written slowly by name: ``state`` and
    ``rules`` are the named state and rule vectors (``STATE.named``, ``RULES.named``), ``reference`` the named
    rule vector the ``rules`` block is measured from. Returns a dict of blocks (numpy arrays)."""
    import numpy as np

    from caesar_sim.kernels.play.encode import INPUTS, RULE_INPUTS
    from caesar_sim.kernels.layout import RULES

    x = {name: np.zeros(INPUTS.dtype[name].shape) for name in INPUTS._fields[:-1]}
    n = int(state["players"])
    seats = [(p + r) % n for r in range(n)]                  # relative seat r -> absolute seat
    rel = {q: r for r, q in enumerate(seats)}
    for r, q in enumerate(seats):
        x["hands"][r] = [(int(state["hand"][q]) >> v) & 1 for v in range(8)]
        x["bidding"][r] = float(state["passed"][q] == 0 and state["hand"][q] != 0)
        for v in range(3):
            nt, nv = int(state["tickets_held"][q, v]), int(state["visitors_held"][q, v])
            x["tickets"][r, v] = nt, sum(state["held_ticket_coins"][q, v, :nt])
            x["visitors"][r, v] = nv, sum(state["held_visitor_coins"][q, v, :nv])
        x["favours"][r] = state["favours"][q]
        x["coin_cards"][r] = state["coin_cards"][q]
        x["scores"][r] = state["score"][q] if r == 0 else state["score"][q] - state["score"][p]
    x["lead"] = state["score"][p] - max(state["score"][q] for q in seats[1:])
    x["to_move"][rel[int(state["turn"])]] = 1
    x["start"][rel[int(state["start"])]] = 1
    x["order"][(p - int(state["start"])) % n] = 1
    x["seat"][p] = 1
    x["phase"][int(state["phase"])] = 1
    x["day"][min(int(state["day"]), 2)] = 1
    x["days_left"] = max(0, int(rules["days"]) - 1 - int(state["day"]))
    x["villa"] = [*state["favours_shown"], state["start_card_shown"]]
    for i in range(int(state["tickets_shown"])):
        v = int(state["ticket_venue"][i])
        x["forum"][v] += (1, state["ticket_coins"][i])
    for v in range(3):
        x["specials"][v] = min(int(state["specials"][v]), int(state["bank_coins"])) * rules["coin_card_value"]
        coins = list(state["visitor_coins"][v, :int(state["visitors_shown"][v])])
        x["visitors_shown"][v] = len(coins), sum(coins), max(coins, default=0)
    if state["caesar"] >= 0:
        x["caesar"][int(state["caesar"])] = 1
    for row in range(5):
        shown = (sum(state["favours_shown"]) + state["start_card_shown"] if row == 0 else
                 state["tickets_shown"] if row == 1 else state["visitors_shown"][row - 2])
        cards = [(int(state["row_owner"][row, e]), int(state["row_effective"][row, e]), int(state["row_favour"][row, e]))
                 for e in range(int(state["row_cards"][row]))]
        left, claims, threshold = int(shown), 0, 0
        for owner, eff, fav in cards:         # left to right: each card takes its items while they last
            takes = rules["double_items"] if fav == 2 else 1
            got = max(0, min(takes, left))
            left -= got
            claims += takes
            x["row_seats"][row, rel[owner]] += got
            if claims >= shown and threshold == 0:
                threshold = eff                  # a new card must beat this one to win an item
        x["rows"][row] = shown, x["row_seats"][row, 0], threshold, claims
    x["bank"] = state["bank_coins"]
    x["decks"] = (state["tickets_dealt"] - state["next_ticket"], state["visitors_dealt"] - state["next_visitor"],
                  state["favours_dealt"] - state["next_favour"])
    raw = np.frombuffer(rules.tobytes(), dtype=np.int64)       # every rule number but the seats, the gift
    ref = np.frombuffer(reference.tobytes(), dtype=np.int64)   # experiment and the removed cards' bitmasks
    assert raw.size == RULES.size
    x["rules"] = [raw[i] - ref[i] for i in RULE_INPUTS]
    return x
