"""Transposition table with winning ranks (partition search, as in DDS).

A result found at a trick boundary holds for every position that agrees
with it on what the search looked at. The search tracks that as a card set
``W`` (the *winning ranks*): per colour, only the cards from W's lowest card
of that colour upwards had to be where they are; lower cards of the colour
were "small", and any small card of the same colour in the same hand would
have done. So an entry stores:

- the key: the length of every seat's holding in every colour, the leader
  and the goal's extra words (``bet_extra_keys``); positions can only match
  when these are equal;
- the seats' hands in relative ranks (each card's rank among the cards of
  its colour still in play) and a mask ``M`` of the relative ranks that must
  match: per colour, the top ones down to the lowest card of W;
- the bounds ``lower <= value <= upper`` and a move hint.

A probe matches an entry when the keys are equal and every hand agrees with
the stored one on ``M``. The key alone picks a bucket of ``WAYS`` entries
(many positions share a key); a probe scans the bucket's live entries,
whose key tags and filter words (who holds each colour's top two cards,
where ``M`` needs it) sit together in front of them. A full bucket replaces an
entry picked by the position's hash.

Ply words used here (``ply_cards[d, U_*]``): the position's relative hands, its
length words, the extra words, the key tag.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.bits import compress
from sponsio_sim.kernels.bits import RANKS, U0, U1, bit, highest, lowest, popcount, select

NO, YES, UNKNOWN = 0, 1, 2
WAYS = 64
# ply_cards fields of a ply that the table reads.
U_LEN0, U_LEN1, U_X1, U_X2, U_TAG, U_OWN, U_REL0 = 2, 3, 4, 5, 6, 7, 8
# Entry words.
E_LEN0, E_LEN1, E_X1, E_X2, E_MASK, E_META, E_REL0 = range(7)
_H = np.uint64(0x9E3779B97F4A7C15)
_FOUR = np.uint64(4)
_ENT = 1 + 2 * WAYS  # a bucket row: header (stamp << 8 | entries), key tags, filters, entries
_SEVEN = np.uint64(7)
_LOW32 = np.uint64(0xFFFFFFFF)


@nb.njit(cache=True)
def new_table(players, tt_bits):
    """An empty table of ``2**tt_bits`` entries in buckets of ``WAYS`` (at
    least one bucket; a zero stamp is never live)."""
    return np.zeros((max(1, (1 << tt_bits) // WAYS), _ENT + WAYS * (E_REL0 + players)), dtype=np.uint64)


@nb.njit(cache=True, inline="always")
def position_words(hands, players, in_play, colmask, ply_cards, d):
    """Write the seats' relative hands and the length words of ply d's position."""
    n_col = colmask.shape[0]
    l0 = U0
    l1 = U0
    k = 0
    for s in range(players):
        h = hands[s]
        r = U0
        for col in range(n_col):
            cm = colmask[col]
            mine = h & cm
            n = np.uint64(popcount(mine))
            if k < 16:
                l0 |= n << (_FOUR * np.uint64(k))
            else:
                l1 |= n << (_FOUR * np.uint64(k - 16))
            k += 1
            r |= compress(mine, in_play & cm) << np.uint64(col * RANKS)
        ply_cards[d, U_REL0 + s] = r
    ply_cards[d, U_LEN0] = l0
    ply_cards[d, U_LEN1] = l1


@nb.njit(cache=True, inline="always")
def top_owners(hands, players, in_play, colmask):
    """Filter word of a position: per colour, the seats holding its top two
    cards in play (3 bits each, 7 for none)."""
    f = U0
    for col in range(colmask.shape[0]):
        m = in_play & colmask[col]
        for j in range(2):
            o = _SEVEN
            if m != U0:
                b = bit(highest(m))
                m &= ~b
                for s in range(players):
                    if hands[s] & b:
                        o = np.uint64(s)
            f |= o << np.uint64(6 * col + 3 * j)
    return f


@nb.njit(cache=True, inline="always")
def _filter_mask(M, colmask):
    """Which owner fields of ``top_owners`` an entry with mask ``M`` needs."""
    f = U0
    for col in range(colmask.shape[0]):
        n = popcount(M & colmask[col])
        if n >= 1:
            f |= _SEVEN << np.uint64(6 * col)
        if n >= 2:
            f |= _SEVEN << np.uint64(6 * col + 3)
    return f


@nb.njit(cache=True, inline="always")
def bucket_of(table, ply_cards, d):
    """(bucket, key tag) of ply d's key words."""
    h = np.uint64(0x243F6A8885A308D3)
    for k in range(U_LEN0, U_X2 + 1):
        h = (h ^ ply_cards[d, k]) * _H
        h ^= h >> np.uint64(29)
    return np.int64(h >> np.uint64(32)) & (table.shape[0] - 1), h


@no_refcount
def rank_mask(W, in_play, colmask):
    """``M`` for winning ranks ``W``: per colour, the relative ranks from W's
    lowest card of the colour up to the colour's top card in play."""
    M = U0
    for col in range(colmask.shape[0]):
        w = W & colmask[col]
        if w == U0:
            continue
        cm = in_play & colmask[col]
        lo = popcount(cm & (bit(lowest(w)) - U1))
        M |= ((U1 << np.uint64(popcount(cm) - lo)) - U1) << np.uint64(col * RANKS + lo)
    return M


@nb.njit(cache=True, inline="always")
def winning_cards(M, in_play, colmask):
    """The cards of this position that ``M``'s lowest relative rank per colour stands for."""
    W = U0
    for col in range(colmask.shape[0]):
        m = M & colmask[col]
        if m != U0:
            W |= bit(select(in_play & colmask[col], lowest(m) - col * RANKS))
    return W


@nb.njit(cache=True, inline="always")
def _live(table, b, stamp):
    """Entries of bucket ``b`` written under ``stamp``."""
    h = table[b, 0]
    return np.int64(h & np.uint64(0xFF)) if (h >> np.uint64(8)) == stamp else 0


@nb.njit(cache=True, inline="always")
def _matches(table, b, o, ply_cards, d, players):
    for k in range(4):
        if table[b, o + E_LEN0 + k] != ply_cards[d, U_LEN0 + k]:
            return False
    M = table[b, o + E_MASK]
    for s in range(players):
        if ((table[b, o + E_REL0 + s] ^ ply_cards[d, U_REL0 + s]) & M) != U0:
            return False
    return True


# Hot core: plain arguments (dd.search docstring: a context cost 4.0 % per coalition solve, scripts/bench_dd.py).
@nb.njit(cache=True, inline="always")
def tt_probe(table, b, tag, ply_cards, d, players, stamp, need, in_play, colmask):
    """(YES / NO / UNKNOWN for "value >= need", its winning cards, a move hint)."""
    move = np.int64(0)
    ew = E_REL0 + players
    own = ply_cards[d, U_OWN]
    for e in range(_live(table, b, stamp)):
        if table[b, 1 + e] != tag:
            continue
        f = table[b, 1 + WAYS + e]
        if ((f ^ own) & (f >> np.uint64(32))) & _LOW32 != U0:
            continue
        o = _ENT + e * ew
        if not _matches(table, b, o, ply_cards, d, players):
            continue
        meta = table[b, o + E_META]
        lo = np.int64((meta >> np.uint64(8)) & np.uint64(0xFF))
        hi = np.int64(meta & np.uint64(0xFF))
        if move == 0:
            move = np.int64((meta >> np.uint64(16)) & np.uint64(0xFF))
        if lo >= need:
            return YES, winning_cards(table[b, o + E_MASK], in_play, colmask), move
        if hi < need:
            return NO, winning_cards(table[b, o + E_MASK], in_play, colmask), move
    return UNKNOWN, U0, move


# Hot core: plain arguments (dd.search docstring: a context, copied per call, cost 9 % per coalition solve).
@no_refcount
def tt_store(table, b, tag, ply_cards, d, players, stamp, need, ok, top, move, M, colmask):
    """Record "value >= need" (ok) or "value < need" for the positions that
    match ply d on ``M``, with the move that showed it (0: none)."""
    ew = E_REL0 + players
    n = _live(table, b, stamp)
    o = -1
    for e in range(n):
        q = _ENT + e * ew
        if table[b, 1 + e] == tag and table[b, q + E_MASK] == M and _matches(table, b, q, ply_cards, d, players):
            o = q
            break
    if o >= 0:
        meta = table[b, o + E_META]
        lo = np.int64((meta >> np.uint64(8)) & np.uint64(0xFF))
        hi = np.int64(meta & np.uint64(0xFF))
        if move == 0:
            move = np.int64((meta >> np.uint64(16)) & np.uint64(0xFF))
    else:
        if n < WAYS:
            e = n
            table[b, 0] = (stamp << np.uint64(8)) | np.uint64(n + 1)
        else:  # full: replace an entry picked by the position's hash
            h = tag
            for s in range(players):
                h = (h ^ ply_cards[d, U_REL0 + s]) * _H
            e = np.int64(h >> np.uint64(58)) % WAYS
        table[b, 1 + e] = tag
        table[b, 1 + WAYS + e] = ply_cards[d, U_OWN] | (_filter_mask(M, colmask) << np.uint64(32))
        o = _ENT + e * ew
        lo, hi = 0, top
        for k in range(4):
            table[b, o + E_LEN0 + k] = ply_cards[d, U_LEN0 + k]
        for s in range(players):
            table[b, o + E_REL0 + s] = ply_cards[d, U_REL0 + s]
        table[b, o + E_MASK] = M
    if ok:
        lo = max(lo, need)
    else:
        hi = min(hi, need - 1)
    table[b, o + E_META] = ((np.uint64(move) << np.uint64(16)) | (np.uint64(lo) << np.uint64(8))
                         | np.uint64(hi))
