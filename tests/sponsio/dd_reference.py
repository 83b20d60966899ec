"""Brute-force double-dummy reference: plain Python minimax, no pruning.

Cards are ids (colour x 9 + rank - 1). A position is (hands as sets,
leader, cards already in the current trick). Bets are judged by the real
settlement kernel's rules, re-implemented here on plain lists.
"""

from __future__ import annotations

RANKS = 9


def legal(hand, trick):
    if not trick:
        return sorted(hand)
    led = trick[0] // RANKS
    follow = [c for c in hand if c // RANKS == led]
    return sorted(follow) if follow else sorted(hand)


def start_trick(rng, hands, leader):
    """Play 1..players-1 random legal cards of the first trick out of ``hands``; returns them."""
    players = len(hands)
    trick = []
    for j in range(rng.randrange(1, players)):
        seat = (leader + j) % players
        c = rng.choice(legal(hands[seat], trick))
        hands[seat].remove(c)
        trick.append(c)
    return trick


def _winner(trick, leader, players):
    led = trick[0] // RANKS
    best = max((c for c in trick if c // RANKS == led))
    return (leader + trick.index(best)) % players, best


def minimax(hands, leader, trick, maximisers, leaf):
    """Value of the position: seats in ``maximisers`` pick the child with the
    highest value, the others the lowest. ``leaf(outcome)`` scores a finished
    trick phase; outcome = (tricks per seat, won cards per seat, last winner,
    nines_ok, first trick's winner)."""
    players = len(hands)
    hands = [set(h) for h in hands]
    tricks = [0] * players
    won = [[] for _ in range(players)]

    def rec(leader, trick, nines_ok, last, first):
        if len(trick) == players:
            w, best = _winner(trick, leader, players)
            ok = nines_ok and all(c % RANKS != RANKS - 1 or c == best for c in trick)
            tricks[w] += 1
            won[w].extend(trick)
            v = rec(w, [], ok, w, w if first < 0 else first)
            tricks[w] -= 1
            del won[w][-players:]
            return v
        seat = (leader + len(trick)) % players
        if not hands[seat]:
            return leaf((list(tricks), [list(x) for x in won], last, nines_ok, first))
        vals = []
        for c in legal(hands[seat], trick):
            hands[seat].remove(c)
            vals.append(rec(leader, trick + [c], nines_ok, last, first))
            hands[seat].add(c)
        return max(vals) if seat in maximisers else min(vals)

    return rec(leader, list(trick), True, -1, -1)


def settle(bets, outcome, players):
    """{seat: [bet tuples]} -> set of seats that failed a bet, by the spec's
    fail-bet settlement (``reference.settle_reference``), bets placed seat by
    seat from seat 0 as ``bets.encode_table`` ranks them."""
    from reference import settle_reference

    tricks, won, last, nines_ok, first = outcome
    placed = [(s, b) for s in sorted(bets) for b in bets[s]]
    res = settle_reference(placed, lambda s, b: _plain(b, s, tricks, won, last, nines_ok, first), players)
    return {s for (s, _), ok in zip(placed, res) if not ok}


def _plain(b, s, tricks, won, last, nines_ok, first):
    if b[0] == "tricks":
        return tricks[s] == b[1]
    if b[0] == "colour":
        return sum(1 for c in won[s] if c // RANKS == b[1]) == b[2]
    if b[0] == "last":
        return last == s
    if b[0] == "first":
        return first == s
    return nines_ok


def coalition_tricks(hands, leader, coalition, trick=()):
    return minimax(hands, leader, trick, set(coalition),
                   lambda o: sum(o[0][s] for s in coalition))


def bet_question(hands, leader, seat, bets, worst, trick=()):
    """Can ``seat`` win all of bets[seat] (worst: others defeat; else all help)?"""
    players = len(hands)
    maxi = {seat} if worst else set(range(players))
    return bool(minimax(hands, leader, trick, maxi,
                        lambda o: int(bool(bets.get(seat)) and seat not in settle(bets, o, players))))
