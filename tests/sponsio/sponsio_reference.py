"""Slow, obviously-right Sponsio reference: plain Python, no bitboards.

Cards are ids as the kernels number them: colour x 9 + rank - 1 (``colour``
and ``rank`` below), so the nine of a colour is the id whose rank is 9. A
trick is the list of its cards in play order from its leader. An outcome of
a trick phase is ``(tricks per seat, cards won per seat, last trick's
winner, nines_ok, first trick's winner)``, nines_ok meaning no 9 lost a
trick.

- ``random_play_distribution``: every deal of the hidden cards and every
  legal play sequence, weighted by the random policy (1/|legal cards| per
  card), for the exact distribution of an outcome statistic;
- ``minimax``: the value of a position when some seats maximise a score of
  the outcome and the others minimise it (``coalition_tricks``,
  ``bet_question``: the double-dummy questions);
- ``settle_reference``: docs/rules-sponsio.md section 4's settlement of fail bets, written out plainly.

A bet is a tuple: ``("tricks", N)``, ``("colour", C, N)``, ``("last",)``,
``("nines",)``, ``("first",)``, ``("fail", S)`` (S None: any other seat).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import combinations

from sponsio_sim.bet_kinds import RANKS


def colour(card: int) -> int:
    return card // RANKS


def rank(card: int) -> int:
    return card % RANKS + 1


def legal(hand, trick):
    """The cards of ``hand`` that may follow ``trick`` (any card when leading)."""
    if not trick:
        return sorted(hand)
    follow = [c for c in hand if colour(c) == colour(trick[0])]
    return sorted(follow) if follow else sorted(hand)


def trick_winner(trick, leader, players):
    """(winning seat, winning card): the highest card of the led colour."""
    best = max(c for c in trick if colour(c) == colour(trick[0]))
    return (leader + trick.index(best)) % players, best


def nines_lost(trick, best):
    """A 9 in the trick that did not win it: a discarded 9 loses."""
    return any(rank(c) == RANKS and c != best for c in trick)


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


# ---- random play, enumerated

def _sequences(hands, leader, players):
    """Yield (probability, outcome) for every random-policy play sequence."""
    def rec(hands, leader, trick, prob, tricks, won, nines_ok, last, first):
        if not any(hands):
            yield prob, (tuple(tricks), tuple(tuple(sorted(w)) for w in won), last, nines_ok, first)
            return
        seat = (leader + len(trick)) % players
        cards = legal(hands[seat], trick)
        for card in cards:
            new_hands = [list(h) for h in hands]
            new_hands[seat].remove(card)
            p = prob / len(cards)
            if len(trick) + 1 == players:
                done = trick + [card]
                w, best = trick_winner(done, leader, players)
                t2 = list(tricks)
                t2[w] += 1
                w2 = [list(x) for x in won]
                w2[w] += done
                yield from rec(new_hands, w, [], p, t2, w2, nines_ok and not nines_lost(done, best), w,
                               w if first is None else first)
            else:
                yield from rec(new_hands, leader, trick + [card], p, tricks, won, nines_ok, last, first)
    yield from rec(hands, leader, [], Fraction(1), [0] * players, [[] for _ in range(players)], True, None, None)


def random_play_distribution(players, n_colours, hand, talon, seat, leader, hand_size, stat):
    """Exact P(stat(outcome) = v) over uniform deals of the cards not in
    ``hand`` or ``talon`` (ids) and random play; ``stat(tricks, won, last,
    nines_ok, first)`` maps an outcome to a hashable value."""
    known = set(hand) | set(talon)
    hidden = [c for c in range(n_colours * RANKS) if c not in known]
    others = [s for s in range(players) if s != seat]
    dist = defaultdict(Fraction)
    deals = list(_deals(hidden, len(others), hand_size))
    for deal in deals:
        hands = [None] * players
        hands[seat] = list(hand)
        for s, h in zip(others, deal):
            hands[s] = list(h)
        for prob, outcome in _sequences(hands, leader, players):
            dist[stat(*outcome)] += prob / len(deals)
    return dict(dist)


def _deals(cards, n_hands, size):
    if n_hands == 0:
        yield ()
        return
    for first in combinations(cards, size):
        rest = [c for c in cards if c not in first]
        for tail in _deals(rest, n_hands - 1, size):
            yield (first,) + tail


# ---- double dummy: minimax over every card

def minimax(hands, leader, trick, maximisers, leaf):
    """Value of the position (``trick``: the cards already played to the
    current trick from ``leader``): seats in ``maximisers`` pick the child
    with the highest value, the others the lowest; ``leaf(outcome)`` scores
    a finished trick phase."""
    players = len(hands)
    hands = [set(h) for h in hands]
    tricks = [0] * players
    won = [[] for _ in range(players)]

    def rec(leader, trick, nines_ok, last, first):
        if len(trick) == players:
            w, best = trick_winner(trick, leader, players)
            tricks[w] += 1
            won[w].extend(trick)
            v = rec(w, [], nines_ok and not nines_lost(trick, best), w, w if first < 0 else first)
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


def coalition_tricks(hands, leader, coalition, trick=()):
    """The most tricks the seats of ``coalition`` win together, every other seat against them."""
    return minimax(hands, leader, trick, set(coalition), lambda o: sum(o[0][s] for s in coalition))


def bet_question(hands, leader, seat, bets, worst, trick=()):
    """Can ``seat`` win all of ``bets[seat]`` ({seat: [bet tuples]}): against
    every other seat (``worst``), or with every seat helping?"""
    players = len(hands)
    maxi = {seat} if worst else set(range(players))
    return bool(minimax(hands, leader, trick, maxi,
                        lambda o: int(bool(bets.get(seat)) and seat not in failed_seats(bets, o, players))))


# ---- settling bets

def plain_won(bet, seat, outcome):
    """Did ``seat``'s bet (any kind but fail) win, given the outcome?"""
    tricks, won, last, nines_ok, first = outcome
    kind = bet[0]
    if kind == "tricks":
        return tricks[seat] == bet[1]
    if kind == "colour":
        return sum(1 for c in won[seat] if colour(c) == bet[1]) == bet[2]
    if kind == "last":
        return last == seat
    if kind == "first":
        return first == seat
    if kind == "nines":
        return nines_ok
    raise ValueError(f"no plain reading of {bet}")


def failed_seats(bets, outcome, players):
    """{seat: [bet tuples]} -> the seats that failed a bet, fail bets settled
    by the rules (``settle_reference``), placed seat by seat from seat 0 as
    ``bets.encode_table`` ranks them."""
    placed = [(s, b) for s in sorted(bets) for b in bets[s]]
    res = settle_reference(placed, lambda s, b: plain_won(b, s, outcome), players)
    return {s for (s, _), ok in zip(placed, res) if not ok}


def settle_reference(bets, plain, players):
    """docs/rules-sponsio.md section 4, "Settling fail bets", written out plainly.

    ``bets``: list of (seat, bet tuple) in the order they were placed;
    ``plain(seat, bet)`` judges every bet but fail. Returns the list of
    outcomes (True won) in the same order.
    """
    result = {}
    for k, (seat, bet) in enumerate(bets):
        if bet[0] != "fail":
            result[k] = plain(seat, bet)

    def targets(k):
        seat, bet = bets[k]
        return [bet[1]] if bet[1] is not None else [t for t in range(players) if t != seat]

    def has_failed(t):
        return any(result.get(j) is False for j, (s, _) in enumerate(bets) if s == t)

    def all_settled(t):
        return all(j in result for j, (s, _) in enumerate(bets) if s == t)

    def waits_on(k, pending):
        """The pending bets bet k waits on: every pending bet of the seats it names."""
        return [j for j in pending if bets[j][0] in targets(k)]

    def on_cycle(k, pending):
        """Does bet k wait, through any chain of pending bets, on itself?"""
        seen, todo = set(), waits_on(k, pending)
        while todo:
            j = todo.pop()
            if j == k:
                return True
            if j not in seen:
                seen.add(j)
                todo += waits_on(j, pending)
        return False

    while len(result) < len(bets):
        pending = [k for k in range(len(bets)) if k not in result]
        settled = {}
        for k in pending:
            ts = targets(k)
            if any(has_failed(t) for t in ts):
                settled[k] = True
            elif all(all_settled(t) for t in ts):
                settled[k] = False
        if settled:
            result.update(settled)
        else:   # only waiting bets: the earliest placed bet on a cycle loses (never one that only waits on it)
            result[next(k for k in pending if on_cycle(k, pending))] = False
    return [result[k] for k in range(len(bets))]


def bet_tuple(bet):
    """A ``sponsio_sim.bets.Bet`` as this module's tuple."""
    if bet.kind == "tricks":
        return ("tricks", bet.a)
    if bet.kind == "colour":
        return ("colour", bet.a, bet.b)
    if bet.kind == "fail":
        return ("fail", None if bet.a < 0 else bet.a)
    return (bet.kind,)
