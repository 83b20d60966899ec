"""Slow, obviously-right Sponsio reference: plain Python, no bitboards.

Cards are (colour, rank) tuples. ``random_play_distribution`` enumerates
every deal of the hidden cards and every legal play sequence, weighting a
sequence by the product of 1/|legal cards| (the random policy), and returns
the exact distribution of the asking seat's outcome.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import combinations


def legal_cards(hand, led_colour):
    if led_colour is None:
        return sorted(hand)
    follow = [c for c in hand if c[0] == led_colour]
    return sorted(follow) if follow else sorted(hand)


def trick_winner(plays):
    """plays: list of (seat, card) in order; highest card of the led colour wins."""
    led = plays[0][1][0]
    return max((p for p in plays if p[1][0] == led), key=lambda p: p[1][1])[0]


def play_all(hands, leader, choose):
    """Play out ``hands`` (list of lists); ``choose(seat, legal, history)`` picks a card.

    Returns (tricks won per seat, cards won per seat, last winner, nines_ok).
    """
    hands = [list(h) for h in hands]
    n = len(hands)
    tricks = [0] * n
    won = [[] for _ in range(n)]
    nines_ok = True
    history = []
    for _ in range(len(hands[leader])):
        plays = []
        led = None
        for k in range(n):
            seat = (leader + k) % n
            card = choose(seat, legal_cards(hands[seat], led), history)
            hands[seat].remove(card)
            plays.append((seat, card))
            if led is None:
                led = card[0]
        w = trick_winner(plays)
        winning_card = dict(plays)[w]
        if any(c[1] == 9 and c != winning_card for _, c in plays):
            nines_ok = False
        tricks[w] += 1
        won[w] += [c for _, c in plays]
        history.append(plays)
        leader = w
    return tricks, won, leader, nines_ok


def settle_reference(bets, plain_won, players):
    """Spec 4, "Settling fail bets", written out plainly.

    ``bets``: list of (seat, bet tuple) in the order they were placed, a fail
    bet being ("fail", S) or ("fail", None) for any other seat;
    ``plain_won(seat, bet)`` judges every other bet. Returns the list of
    outcomes (True won) in the same order.
    """
    result = {}
    for k, (seat, bet) in enumerate(bets):
        if bet[0] != "fail":
            result[k] = plain_won(seat, bet)

    def targets(k):
        seat, bet = bets[k]
        return [bet[1]] if bet[1] is not None else [t for t in range(players) if t != seat]

    def has_failed(t):
        return any(result.get(j) is False for j, (s, _) in enumerate(bets) if s == t)

    def all_settled(t):
        return all(j in result for j, (s, _) in enumerate(bets) if s == t)

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
        else:
            result[pending[0]] = False      # a cycle: its earliest placed bet loses
    return [result[k] for k in range(len(bets))]


def bet_won(bet, seat, tricks, won, last, nines_ok, failed_seats, first=None):
    kind = bet[0]
    if kind == "tricks":
        return tricks[seat] == bet[1]
    if kind == "colour":
        return sum(1 for c in won[seat] if c[0] == bet[1]) == bet[2]
    if kind == "last":
        return last == seat
    if kind == "nines":
        return nines_ok
    if kind == "first":
        return first == seat
    if kind == "fail":
        return bet[1] in failed_seats
    raise ValueError(bet)


def _sequences(hands, leader, n_players):
    """Yield (probability, outcome) for every random-policy play sequence."""
    def rec(hands, leader, plays, prob, tricks, won, nines_ok, first):
        if not any(hands):
            yield prob, (tuple(tricks), tuple(tuple(sorted(w)) for w in won), leader, nines_ok, first)
            return
        k = len(plays)
        seat = (leader + k) % n_players
        led = plays[0][1][0] if plays else None
        legal = legal_cards(hands[seat], led)
        for card in legal:
            new_hands = [list(h) for h in hands]
            new_hands[seat].remove(card)
            new_plays = plays + [(seat, card)]
            p = prob / len(legal)
            if len(new_plays) == n_players:
                w = trick_winner(new_plays)
                wc = dict(new_plays)[w]
                ok = nines_ok and not any(c[1] == 9 and c != wc for _, c in new_plays)
                t2 = list(tricks)
                t2[w] += 1
                w2 = [list(x) for x in won]
                w2[w] += [c for _, c in new_plays]
                yield from rec(new_hands, w, [], p, t2, w2, ok, w if first is None else first)
            else:
                yield from rec(new_hands, leader, new_plays, p, tricks, won, nines_ok, first)
    yield from rec(hands, leader, [], Fraction(1), [0] * n_players, [[] for _ in range(n_players)], True, None)


def random_play_distribution(players, colours, hand, talon, seat, leader, hand_size, stat):
    """Exact P(stat(outcome) = v) over uniform deals and random play.

    ``stat(tricks, won, last, nines_ok, first)`` maps an outcome to a hashable
    value (``first``: the first trick's winner).
    """
    deck = [(c, r) for c in colours for r in range(1, 10)]
    known = set(hand) | set(talon)
    hidden = [c for c in deck if c not in known]
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
