"""Bidding policies on the state vector (numba): legal actions, greedy, value.

``random`` picks uniformly from ``legal_actions``; ``mc`` lives in ``mc.py``.
Action codes as in ``state``: -1 pass, else ``(v-1) + 8*row + 40*favour``.
"""

import numba as nb

from tabletop_mc.bits import highest, lowest, popcount
from tabletop_mc.jit import no_refcount
from caesar_sim.kernels.items import (
    PP_ALPHA, PP_BAN_ROWS, PP_FAVKEEP, PP_GREEDY_TIX, PP_NEED1, PP_NEED2, PP_RISK, PP_RISK3, PP_SHORT,
    PP_VILLA_DECAY, favour_util, ticket_utils, visitor_util, wrow,
)
from caesar_sim.kernels.layout import *  # noqa: F401,F403  (index constants only)
from caesar_sim.kernels.state import n_items


@nb.njit(cache=True, inline="always")
def phase_rows(ph):
    """First and one-past-last row of phase ``ph``."""
    return (2, NROW) if ph == 2 else (ph, ph + 1)


@no_refcount
def legal_actions(S, p, A, off):
    """Fill ``A[off:]`` with seat ``p``'s legal actions (pass first); return their number."""
    ph, hand = S[S_PHASE], S[S_HAND + p]
    r0, r1 = phase_rows(ph)
    A[off] = -1
    cnt = 1
    for f in range(3):
        if f > 0 and (ph == 0 or S[S_FAV + p * NFT + f - 1] == 0):
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
    cap = S[S_PTN + h] - S[S_PVN + h]
    if x == S[S_CAESAR]:
        cap += min(R[R_FAVTIX], S[S_FAV + p * NFT] + S[S_FAV + p * NFT + 1] + S[S_FAV + p * NFT + 2])
    return cap


@nb.njit(cache=True, inline="always")
def row_scan(R, S, row, p):
    """(items on display, items ``p`` wins as the row stands, least effective value that wins one,
    items the row's cards claim)."""
    nit = n_items(S, row)
    took = 0
    mine = 0
    tau = 1
    for e in range(S[S_ROWN + row]):
        j = row * ROWCAP + e
        t = R[R_DOUBLE] if S[S_ROWF + j] == 2 else 1
        mine += max(0, min(t, nit - took)) * (S[S_ROWO + j] == p)
        took += t
        if took >= nit and tau == 1:
            tau = S[S_ROWE + j] + 1
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
    ph, hand = S[S_PHASE], S[S_HAND + p]
    r0, r1 = phase_rows(ph)
    boost = R[R_BOOST] if ph > 0 and S[S_FAV + p * NFT + BOOST] > 0 else -1
    best, bestv, bestb = -1, NVAL + 1, NVAL + 1
    for row in range(r0, r1):
        if n_items(S, row) == 0:
            continue
        if row == 0:
            cap = 1
        elif row == 1:
            cap = 0
            for i in range(S[S_TDN]):
                if S[S_VDN + S[S_TDX + i]] > 0:
                    cap = int(PP[wrow(S, p) + PP_GREEDY_TIX])
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
def _row_utils(R, S, PP, o, p, row, W):
    """Fill W[0:n] with what each item of row 0/1 is worth to ``p``, best first; return n."""
    m = 0
    if row == 0:
        for t in range(NFT + 1):
            cnt = S[S_SPAV] if t == SP_ITEM else S[S_FDISP + t]
            for _ in range(cnt):
                W[m] = favour_util(R, PP, o, t)
                m += 1
    else:
        ticket_utils(R, S, PP, p, W)
        m = S[S_TDN]
    for i in range(1, m):
        u = W[i]
        j = i
        while j > 0 and W[j - 1] < u:
            W[j] = W[j - 1]
            j -= 1
        W[j] = u
    return m



@no_refcount
def value_action(R, S, PP, p, W):
    """`value` and `tuned` (the same features, each with its own weight row). Best bid by expected item coins minus the card's unplayed coins and later needs; else pass.

    For each row, favour and merchant: the item(s) the card would win as the row stands
    (phase 1: favours by their weights, halved per item already won there; phase 2: tickets
    by ``ticket_utils``; phase 3: visitors that fill an open ticket), times the chance to
    keep them against opponents who can still outbid, minus the card's unplayed coins,
    a favour's keep value, and (phases 1-2) its strength and any shortfall of cards needed later.
    A row whose bit is set in the ``PP_BAN_ROWS`` weight is never bid at (restricted players).
    """
    ph, hand, n = S[S_PHASE], S[S_HAND + p], S[S_N]
    o = wrow(S, p)
    ban = int(PP[o + PP_BAN_ROWS])
    if hand == 0:
        return -1
    r0, r1 = phase_rows(ph)
    boost, dbl = R[R_BOOST], R[R_DOUBLE]
    # threats: bit-sliced counters (t0 + 2 t1 + 4 t2 at bit e) of active opponents who can play above e
    t0, t1, t2 = 0, 0, 0
    for q in range(n):  # branch-free: x = 0 adds nothing
        hq = S[S_HAND + q]
        top = highest(hq | 1) + 1 + boost * ((ph > 0) & (S[S_FAV + q * NFT + BOOST] > 0))
        x = ((1 << top) - 1) * ((q != p) & (S[S_PASS + q] == 0) & (hq != 0))
        c = t0 & x
        t0 ^= x
        t2 |= t1 & c
        t1 ^= c
    need = PP[o + PP_NEED1]
    if ph == 1:
        nit1, ahead1, _, total1 = row_scan(R, S, 1, p)
        need = PP[o + PP_NEED2] + ahead1
        for x in range(NVEN):
            need += S[S_PTN + p * NVEN + x]
    left = popcount(hand) - 1  # cards left after this one
    short = max(0.0, need - left) * PP[o + PP_SHORT] if ph < 2 else 0.0
    alpha = PP[o + PP_ALPHA] if ph < 2 else 0.0
    risk = PP[o + PP_RISK3] if ph == 2 else PP[o + PP_RISK]  # a card's cost: R[R_MCOIN + v - 1] + short + alpha * v
    mono = 0.0 <= alpha <= 1e300 and -1e300 <= short <= 1e300  # then costs rise with v if the coins do
    for v in range(1, NVAL):
        mono = mono and R[R_MCOIN + v] >= R[R_MCOIN + v - 1]
    v = lowest(hand) + 1
    cheap, rising = min(1e18, R[R_MCOIN + v - 1] + short + alpha * v), True
    if not mono:
        prev, m = R[R_MCOIN + v - 1] + short + alpha * v, hand & (hand - 1)
        while m:
            v = lowest(m) + 1
            m &= m - 1
            c = R[R_MCOIN + v - 1] + short + alpha * v
            cheap = min(cheap, c)
            rising = rising and c >= prev
            prev = c
    best, bg = -1, 0.0
    most = dbl if ph > 0 and S[S_FAV + p * NFT + DOUBLE] > 0 else 1
    for row in range(r0, r1):
        if ban >> row & 1:
            continue
        if ph == 1:
            nit, ahead, total = nit1, ahead1, total1
        else:
            nit, ahead, _, total = row_scan(R, S, row, p)
        if nit == 0 or (row >= 2 and visitor_slots(R, S, p, row - 2) <= ahead):
            continue
        if row < 2:
            _row_utils(R, S, PP, o, p, row, W)
            if row == 0 and ahead > 0:
                for i in range(nit):
                    W[i] /= 1.0 + PP[o + PP_VILLA_DECAY] * ahead
            top = W[0]
        else:
            top = visitor_util(R, S, p, row - 2, S[S_VD + (row - 2) * DISP], ahead)
        if top * min(most, nit) - cheap <= bg:  # even the best items for the cheapest card lose
            continue
        base, rown = row * ROWCAP, S[S_ROWN + row]
        for f in range(3):
            if f > 0 and (ph == 0 or S[S_FAV + p * NFT + f - 1] == 0):
                continue
            takes = dbl if f == 2 else 1
            fcost = PP[o + PP_FAVKEEP] if f > 0 and ph == 1 else 0.0
            bonus = boost if f == 1 else 0
            last, u = -1, 0.0
            i, s, m = rown, total, hand  # s: items taken before the card (equal cards stay left)
            while m:
                v = lowest(m) + 1
                m &= m - 1
                eff = v + bonus
                while i > 0 and S[S_ROWE + base + i - 1] < eff:
                    i -= 1
                    s -= dbl if S[S_ROWF + base + i] == 2 else 1
                if s >= nit:
                    continue
                if s != last:
                    last, u = s, 0.0
                    for k in range(min(takes, nit - s)):
                        if row < 2:
                            u += W[s + k]
                        else:
                            u += visitor_util(R, S, p, row - 2, S[S_VD + (row - 2) * DISP + s + k], ahead + k)
                threats = ((t0 >> eff) & 1) + 2 * ((t1 >> eff) & 1) + 4 * ((t2 >> eff) & 1)
                keep = 1.0 if threats <= nit - s - takes else risk
                g = keep * u - (R[R_MCOIN + v - 1] + short + alpha * v) - fcost
                if g > bg:
                    best, bg = v - 1 + NVAL * row + NVAL * NROW * f, g
                if s == 0 and keep == 1.0 and rising:
                    break  # higher merchants win nothing more and cost more
    return best
