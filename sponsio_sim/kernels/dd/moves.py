"""Double-dummy move generation: legal cards, equivalence classes, ordering.

Cards adjacent among the cards still in play (the trick's cards other than
its current top card are gone) are one move; ``gen_moves`` lists the lowest
card of each class, best first: the move that decided this position before,
then cards that let the trick go to a seat the mover wants to win it
(estimated from who holds the top cards still to come), then low cards.
``close_classes`` keeps the winning ranks sound when classes were merged;
``skip_small`` drops, during the search, cards that the winning ranks of a
tried move show to be equal to it.
"""

import numba as nb
import numpy as np

from sponsio_sim.kernels.bits import RANKS, U0, U1, beats, bit, highest, lowest, popcount
from sponsio_sim.kernels.dd.core import (
    F_BEST, F_BEST_SEAT, F_HINT, F_NEXT_MOVE, F_LED, F_MOV0, F_N_MOVES, F_POS, F_SC0, F_SEAT, F_TRICKS_DONE,
    MODE_TRICKS, U_SKIP, U_TMASK, U_WIN_RANKS,
)
from sponsio_sim.kernels.dd.avoid import colour_ducks
from sponsio_sim.kernels.dd.goals import colour_bet, desire, has_last

_TOP_DISCARD = 20   # ordering: keep a colour's top card rather than discard it
_WINNER = 64        # ordering: the trick goes to a seat the mover wants to win it
_HINTED = 1000      # ordering: the move that decided this position before
_OWN_FIRST = 10     # ordering: a leader cashes its own winners before leading to a partner's
_LEAD_HIGH = 4      # ordering: a leader whose card wins the trick for its side leads its highest one
_FORCE = 6          # ordering: a card only an opponent's top card still to come beats (draws it)
_SHED = 8           # ordering: a bettor who wants to lose tricks plays its highest card that loses
_THROW = 30         # ordering: discards of the colour a bettor must not capture (by it, or onto its trick)
_PRESS = 40         # ordering: leads against a bettor alone that wants to lose, in a colour it may not duck
SHAKE = 200         # ordering: range of a restart's random perturbation (``shaken``)
_FEED = 30          # ordering: cards of the colour a bettor must capture more of, onto its trick (or kept)


@nb.njit(cache=True, inline="always")
def shaken(shake, c, d):
    """A pseudo-random score in [0, ``SHAKE``) for card ``c`` at ply ``d``
    under restart ``shake`` (a splitmix64 finaliser): its range is larger
    than any one ordering weight but the table's hint, so each restart of
    ``dd.solve.solve_bets`` tries a near-random order that still plays the
    move that decided a position before first."""
    z = shake * np.uint64(0x9E3779B97F4A7C15) + np.uint64(c * 64 + d)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return np.int64(z % np.uint64(SHAKE))


@nb.njit(cache=True, inline="always")
def _owner(hands, players, c):
    b = bit(c)
    for t in range(players):
        if hands[t] & b:
            return t
    return -1


@nb.njit(cache=True, inline="always")
def legal_cards(d, hands, colmask, root_mask, plies):
    s = plies[d, F_SEAT]
    h = hands[s]
    legal = h
    if plies[d, F_POS] > 0:
        legal = h & colmask[plies[d, F_LED]]
        if legal == U0:
            legal = h
    if d == 0 and root_mask != U0:
        legal &= root_mask
    return legal


@nb.njit(cache=True, inline="always")
def close_classes(W, d, hands, players, colmask, any_nines, root_mask, plies):
    """Winning ranks of a node that tried all its moves. The move list
    skipped cards equal in power to the next lower card of the mover; if
    such a run of cards reaches from W's lowest card of a colour downwards,
    the run's lower cards must count too, or a matching position could split
    the run (and its skipped cards would not have been tried)."""
    legal = legal_cards(d, hands, colmask, root_mask, plies)
    in_play = bit(plies[d, F_BEST]) if plies[d, F_POS] > 0 else U0
    for t in range(players):
        in_play |= hands[t]
    out = W
    for col in range(colmask.shape[0]):
        w = W & colmask[col]
        if w == U0:
            continue
        t = lowest(w)
        if (legal & bit(t)) == U0 or (any_nines and t % RANKS == RANKS - 1):
            continue
        while True:
            below = in_play & colmask[col] & (bit(t) - U1)
            if below == U0 or (legal & bit(highest(below))) == U0:
                break
            t = highest(below)
        out |= bit(t)
    return out


# Hot core: plain arguments (dd.search docstring: a context cost 4.0 % per coalition solve, scripts/bench_dd.py).
@nb.njit(cache=True, inline="always")
def gen_moves(d, hands, players, colmask, mode, maxside, coalition, codes, bcounts, ask, any_nines, root_mask,
               plies, ply_cards, tally, shake):
    """Fill ply d's move list: one card per equivalence class, best first
    (with ``shake`` non-zero, in a perturbed order: ``shaken``)."""
    n_col = colmask.shape[0]
    allmask = (np.int64(1) << players) - 1
    s = plies[d, F_SEAT]
    pos = plies[d, F_POS]
    h = hands[s]
    # Cards that separate two of the mover's cards: those still in hands and
    # the trick's current top card. The trick's other cards are gone after
    # this trick and cannot win it, so they separate nothing.
    best = plies[d, F_BEST]
    in_play = bit(best) if pos > 0 else U0
    for t in range(players):
        in_play |= hands[t]
    led = plies[d, F_LED]
    legal = legal_cards(d, hands, colmask, root_mask, plies)
    later = U0
    t = s
    for _ in range(pos + 1, players):
        t += 1
        if t == players:
            t = 0
        later |= hands[t]
    shed = False
    bet_colour = -1
    feed = -1
    press = U0
    if mode == MODE_TRICKS:
        want = coalition if (coalition >> s) & 1 else allmask & ~coalition
    else:
        lean = desire(codes, bcounts, ask, tally[plies[d, F_TRICKS_DONE]], players, n_col, popcount(h))
        if (lean > 0) == (((maxside >> s) & 1) == 1):
            want = np.int64(1) << ask
        else:
            want = allmask & ~(np.int64(1) << ask)
        # A seat that must not win tricks (or capture a colour) sheds its
        # highest cards while someone else takes the trick; not a seat that
        # keeps a winner for the last trick.
        shed = s == ask and lean < 0 and pos > 0 and not has_last(codes, bcounts, ask)
        # Its colour bet's colour: the seat discards it where it can (a
        # discard never wins), the others throw it onto the seat's trick.
        bet_colour = colour_bet(codes, bcounts, ask) if lean < 0 else -1
        # The converse: a seat that wants the bettor to capture more of its
        # colour plays that colour onto the bettor's tricks and keeps it
        # out of the others'.
        if lean > 0 and (want >> ask) & 1:
            feed = colour_bet(codes, bcounts, ask)
        # The others lead against the seat alone that wants to lose: first
        # the colours where it may not be able to play under every lead
        # (``dd.avoid.colour_ducks``).
        if lean < 0 and pos == 0 and s != ask and maxside == np.int64(1) << ask:
            for col in range(n_col):
                if (hands[ask] & colmask[col]) != U0 and (in_play & colmask[col] & ~hands[ask]) != U0 \
                        and not colour_ducks(hands, players, ask, in_play, colmask[col]):
                    press |= np.uint64(1) << np.uint64(col)
    bseat = plies[d, F_BEST_SEAT]
    # Every seat helping a bettor that must capture more of a colour: while
    # a trick holds no card of that colour (the card tried included), a card
    # earns nothing for sending the trick to the bettor (taking it would
    # spend the bettor's winners for nothing). Measured on the best-case
    # questions of the whole catalogue: 11 % fewer nodes on random deals,
    # 23 % on the colour bets near the top for the ``--help`` example's hand.
    coopfeed = feed >= 0 and maxside == allmask
    n = 0
    m = legal
    while m != U0:
        c = lowest(m)
        m &= m - U1
        b = bit(c)
        col = c // RANKS
        rank = c - col * RANKS
        cm = colmask[col]
        below = in_play & cm & (b - U1)
        if below != U0 and (legal & bit(highest(below))) != U0 and not (any_nines and rank == RANKS - 1):
            continue  # same power as the next lower card, already listed
        force = False
        if pos == 0:
            oth = in_play & cm & ~h
            win = s
            if oth != U0:
                top = highest(oth)
                if top > c:
                    win = _owner(hands, players, top)
        else:
            cur = best
            win = bseat
            if beats(c, cur):
                cur = c
                win = s
            rl = later & colmask[led]
            if rl != U0:
                top = highest(rl)
                if top > cur:
                    win = _owner(hands, players, top)
                    if beats(c, best):
                        r2 = rl & ~bit(top)
                        force = r2 == U0 or c > highest(r2)
        score = -rank
        if shed and win != s:
            score += _SHED * rank
        if pos > 0 and col != led and col == bet_colour and (s == ask or (want >> win) & 1):
            score += _THROW
        if col == feed and (pos > 0 or s != ask):
            score += _FEED if win == ask else -_FEED
        if (press >> np.uint64(col)) & U1:
            score += _PRESS
        if force and not (want >> win) & 1:
            score += _FORCE
        hint = plies[d, F_HINT]
        if pos == 0 and hint >= c and hint // RANKS == col \
                and (in_play & ~h & (bit(hint) - U1) & ~((b << U1) - U1)) == U0:
            score += _HINTED
        neutral = coopfeed and ((ply_cards[d, U_TMASK] | b) & colmask[feed]) == U0
        if (want >> win) & 1 and not neutral:
            score += _WINNER
            if pos == 0:
                score += _LEAD_HIGH * rank
                if win != s:
                    score -= _OWN_FIRST
        if pos > 0 and col != led and (in_play & cm & ~((b << U1) - U1)) == U0:
            score -= _TOP_DISCARD
        if shake != U0:
            score += shaken(shake, c, d)
        j = n
        while j > 0 and plies[d, F_SC0 + j - 1] < score:
            plies[d, F_MOV0 + j] = plies[d, F_MOV0 + j - 1]
            plies[d, F_SC0 + j] = plies[d, F_SC0 + j - 1]
            j -= 1
        plies[d, F_MOV0 + j] = c
        plies[d, F_SC0 + j] = score
        n += 1
    plies[d, F_N_MOVES] = n
    plies[d, F_NEXT_MOVE] = 0


@nb.njit(cache=True, inline="always")
def skip_small(d, c, colmask, keep, plies, ply_cards):
    """After move ``c`` failed to cut at ply d: if ``c`` lies below the
    lowest winning rank of its colour found so far (``U_WIN_RANKS``), which small
    card of the colour was played did not matter, so the mover's other
    cards of the colour below that rank are the same move and are skipped
    (as DDS does; set once per colour and ply, flag bit ``36 + colour``).
    Cards in ``keep`` (the 9s, when a nines bet is at stake: a 9 played
    deeper in the search leaves no trace in the winning ranks) are never
    skipped and never stand for other cards. Moves ``plies[d, F_NEXT_MOVE]`` on
    past skipped moves."""
    col = c // RANKS
    flag = bit(36 + col)
    skip = ply_cards[d, U_SKIP]
    if (skip & flag) == U0 and (keep & bit(c)) == U0:
        w = ply_cards[d, U_WIN_RANKS] & colmask[col]
        low = lowest(w) if w != U0 else (col + 1) * RANKS
        if c < low:
            skip |= flag | (colmask[col] & (bit(low) - U1) & ~keep)
            ply_cards[d, U_SKIP] = skip
    i = plies[d, F_NEXT_MOVE]
    n = plies[d, F_N_MOVES]
    while i < n and (skip & bit(plies[d, F_MOV0 + i])) != U0:
        i += 1
    plies[d, F_NEXT_MOVE] = i
