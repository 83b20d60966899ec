"""Bidding policies on the state vector (numba): legal actions, greedy, and the row scans value uses.

``random`` picks uniformly from ``legal_actions``; `value`, `tuned` and `distilled` live in
``scan.py``, ``mc`` in ``mc.py``.
Action codes as in ``state``: -1 pass, else ``(v-1) + 8*row + 40*favour``.
"""

import numba as nb

from tabletop_mc.bits import lowest
from tabletop_mc.jit import no_refcount
from caesar_sim.kernels.items import WEIGHTS, favour_util, ticket_utils, wrow
from caesar_sim.kernels.layout import BOOST, NFT, NROW, NVAL, NVEN, ROWCAP, RULES, START_CARD, STATE, W_SHARE, W_ID
from caesar_sim.kernels.state import n_items


@nb.njit(cache=True, inline="always")
def phase_rows(ph):
    """First and one-past-last row of phase ``ph``."""
    return (2, NROW) if ph == 2 else (ph, ph + 1)


@no_refcount
def legal_actions(S, p, A, off):
    """Fill ``A[off:]`` with seat ``p``'s legal actions (pass first); return their number."""
    ph, hand = S[STATE.phase], S[STATE.hand + p]
    r0, r1 = phase_rows(ph)
    A[off] = -1
    cnt = 1
    for f in range(3):
        if f > 0 and (ph == 0 or S[STATE.favours + p * NFT + f - 1] == 0):
            continue
        for row in range(r0, r1):
            for v in range(NVAL):
                if hand >> v & 1:
                    A[off + cnt] = v + NVAL * row + NVAL * NROW * f
                    cnt += 1
    return cnt


@nb.njit(cache=True, inline="always")
def visitor_slots(R, S, p, x):
    """Visitors at venue ``x`` that seat ``p`` could still score (open tickets, Caesar favours)."""
    h = p * NVEN + x
    cap = S[STATE.tickets_held + h] - S[STATE.visitors_held + h]
    if x == S[STATE.caesar]:
        fav = STATE.favours + p * NFT
        cap += min(R[RULES.caesar_favour_tickets], S[fav] + S[fav + 1] + S[fav + 2])
    return cap


@nb.njit(cache=True, inline="always")
def row_scan(R, S, row, p):
    """(items on display, items ``p`` wins as the row stands, least effective value that wins one,
    items the row's cards claim)."""
    nit = n_items(S, row)
    took = 0
    mine = 0
    tau = 1
    for e in range(S[STATE.row_cards + row]):
        j = row * ROWCAP + e
        t = R[RULES.double_items] if S[STATE.row_favour + j] == 2 else 1
        mine += max(0, min(t, nit - took)) * (S[STATE.row_owner + j] == p)
        took += t
        if took >= nit and tau == 1:
            tau = S[STATE.row_effective + j] + 1
    return nit, mine, tau, took


@nb.njit(cache=True, inline="always")
def cheapest(hand, tau):
    """Lowest merchant value in ``hand`` that is at least ``tau`` (NVAL + 1 if none)."""
    if tau > NVAL:
        return NVAL + 1
    m = hand >> (max(tau, 1) - 1) << (max(tau, 1) - 1)
    return NVAL + 1 if m == 0 else lowest(m) + 1


@no_refcount
def greedy_action(R, S, PP, p):
    """The cheapest merchant that, as the rows stand, wins an item ``p`` wants (boost if needed)."""
    ph, hand = S[STATE.phase], S[STATE.hand + p]
    r0, r1 = phase_rows(ph)
    boost = R[RULES.boost_value] if ph > 0 and S[STATE.favours + p * NFT + BOOST] > 0 else -1
    best, bestv, bestb = -1, NVAL + 1, NVAL + 1
    for row in range(r0, r1):
        if n_items(S, row) == 0:
            continue
        if row == 0:
            cap = 1
        elif row == 1:
            cap = 0
            for i in range(S[STATE.tickets_shown]):
                if S[STATE.visitors_shown + S[STATE.ticket_venue + i]] > 0:
                    cap = int(PP[wrow(S, p) + WEIGHTS.greedy_tickets])
                    break
        else:
            cap = visitor_slots(R, S, p, row - 2)
        if cap <= 0:
            continue
        nit, have, tau, _ = row_scan(R, S, row, p)
        if have >= cap:
            continue
        v = cheapest(hand, tau)
        if v < bestv:
            best, bestv = v - 1 + NVAL * row, v
        if boost >= 0 and bestv > NVAL:
            v = cheapest(hand, tau - boost)
            if v < bestb:
                best, bestb = v - 1 + NVAL * row + NVAL * NROW, v
    return best


@nb.njit(cache=True, inline="always")
def row_utils(R, S, PP, o, p, row, W, ids):
    """Fill W[0:n] with what each item of row 0/1 is worth to ``p``, best first; return n. With ``ids``,
    each item's id (row 0: favour type or START_CARD; row 1: display ticket) and visitor share (row 1)
    move with it at W[W_ID:] and W[W_SHARE:]."""
    m = 0
    if row == 0:
        for t in range(NFT + 1):
            cnt = S[STATE.start_card_shown] if t == START_CARD else S[STATE.favours_shown + t]
            for _ in range(cnt):
                W[m] = favour_util(R, PP, o, t)
                if ids:
                    W[W_ID + m] = t
                m += 1
    else:
        ticket_utils(R, S, PP, p, W, ids)
        m = S[STATE.tickets_shown]
    for i in range(1, m):
        u = W[i]
        d, a = 0.0, 0.0
        if ids:
            d, a = W[W_ID + i], W[W_SHARE + i]
        j = i
        while j > 0 and W[j - 1] < u:
            W[j] = W[j - 1]
            if ids:
                W[W_ID + j], W[W_SHARE + j] = W[W_ID + j - 1], W[W_SHARE + j - 1]
            j -= 1
        W[j] = u
        if ids:
            W[W_ID + j], W[W_SHARE + j] = d, a
    return m
