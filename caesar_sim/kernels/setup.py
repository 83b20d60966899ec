"""Game and day set-up on the flat state vector ``S`` (numba): the decks, the day's displays.

Also the small helpers every engine module shares: the event log, shuffling and sorted inserts.
"""

import numba as nb

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow
from caesar_sim.kernels.layout import *  # noqa: F401,F403  (index constants only)


@nb.njit(cache=True, inline="always")
def log(lg, ev, a=0, b=0, c=0, d=0, e=0, f=0, g=0, h=0):
    """Append an event row to log ``lg`` (row 0: count, capacity); no-op if the capacity is 0."""
    i = lg[0] + 1
    if i >= lg[1]:
        return
    lg[0] = i
    o = i * LOGW
    lg[o], lg[o + 1], lg[o + 2], lg[o + 3], lg[o + 4] = ev, a, b, c, d
    lg[o + 5], lg[o + 6], lg[o + 7], lg[o + 8] = e, f, g, h


@no_refcount
def shuffle(S, off, n, rng):
    for i in range(n - 1, 0, -1):
        j = off + randbelow(rng, i + 1)
        t = S[off + i]
        S[off + i] = S[j]
        S[j] = t


@nb.njit(cache=True, inline="always")
def insert_desc(S, off, cnt, value, ooff=-1, origin=0):
    """Insert ``value`` into the descending list S[off:off+cnt] (origins alongside); return new count."""
    i = cnt
    while i > 0 and S[off + i - 1] < value:
        S[off + i] = S[off + i - 1]
        if ooff >= 0:
            S[ooff + i] = S[ooff + i - 1]
        i -= 1
    S[off + i] = value
    if ooff >= 0:
        S[ooff + i] = origin
    return cnt + 1


@no_refcount
def deal(R, S, rng, lg):
    """Build and shuffle the ticket, visitor and favour decks; the cards the rule set removes for
    this player count stay out (logged as EV_REMOVE)."""
    tpv = R[R_TPV]
    k = 0
    for i in range(NVEN * tpv):  # cards the rule set removes for this player count stay out
        if R[R_RM_TIX] >> i & 1:
            log(lg, EV_REMOVE, RM_TICKET, i // tpv, R[R_TCOIN + i % tpv])
        else:
            S[S_TDECK + k] = i
            k += 1
    S[S_NT] = k
    k = 0
    for i in range(R[R_NVIS] + (1 if R[R_CAESAR] else 0)):
        if i < R[R_NVIS] and R[R_RM_VIS] >> i & 1:
            log(lg, EV_REMOVE, RM_VISITOR, 0, R[R_VCOIN + i])
        else:
            S[S_VDECK + k] = i
            k += 1
    S[S_NVD] = k
    k = 0
    for t in range(NFT):
        for j in range(R[R_FCOUNT + t]):
            if j < R[R_RM_FAV + t]:
                log(lg, EV_REMOVE, RM_FAVOUR, t)
            else:
                S[S_FDECK + k] = t
                k += 1
    S[S_NF] = k
    shuffle(S, S_TDECK, S[S_NT], rng)
    shuffle(S, S_VDECK, S[S_NVD], rng)
    shuffle(S, S_FDECK, S[S_NF], rng)


@no_refcount
def lay_visitor(R, S, x, lg):
    """Lay the next visitor card beside venue ``x`` (the Caesar card brings extra ones); return how
    many visitor cards were due but missing (the deck ran out)."""
    todo = 1
    while todo > 0 and S[S_VPTR] < S[S_NVD]:
        todo -= 1
        c = S[S_VDECK + S[S_VPTR]]
        S[S_VPTR] += 1
        if c == R[R_NVIS]:
            S[S_CAESAR] = x
            todo += R[R_CAESAR_EXTRA]
            log(lg, EV_CAESAR, x)
        else:
            coin = R[R_VCOIN + c]
            S[S_VDN + x] = insert_desc(S, S_VD + x * DISP, S[S_VDN + x], coin)
            log(lg, EV_VISITOR, x, coin)
    return todo


@no_refcount
def draw_ticket(R, S, lg, special):
    """Lay the next ticket on the forum display; its venue, or -1 if the deck is empty."""
    if S[S_TPTR] >= S[S_NT] or S[S_TDN] >= DISP:
        return -1
    tid = S[S_TDECK + S[S_TPTR]]
    S[S_TPTR] += 1
    x, coin = tid // R[R_TPV], R[R_TCOIN + tid % R[R_TPV]]
    S[S_TDX + S[S_TDN]] = x
    S[S_TDC + S[S_TDN]] = coin
    S[S_TDN] += 1
    log(lg, EV_TICKET, x, coin, special)
    return x


@no_refcount
def setup_day(R, S, lg, st):
    """Clear the day's state and lay favours, tickets, visitors and special events.

    A deck that runs out leaves the day with what is left: logged (EV_SHORT, cards missing) and
    counted in ``st`` (days short of tickets, of visitors, of either).
    """
    n, d = S[S_N], S[S_DAY]
    for p in range(n):
        S[S_HAND + p] = (1 << NVAL) - 1
        S[S_CC + p] = 0
        for t in range(NFT):
            S[S_FAV + p * NFT + t] = 0
        for x in range(NVEN):
            S[S_PTN + p * NVEN + x] = 0
            S[S_PVN + p * NVEN + x] = 0
    for t in range(NFT):
        S[S_FDISP + t] = 0
    for x in range(NVEN):
        S[S_VDN + x] = 0
        S[S_SPEC + x] = 0
    S[S_TDN] = 0
    S[S_CAESAR] = -1
    S[S_DCN] = 0
    S[S_SPAV] = 1
    S[S_PHASE] = 0
    log(lg, EV_DAY, d, S[S_START])
    if R[R_GIFT_TYPE] >= 0:
        S[S_FAV + R[R_GIFT_SEAT] * NFT + R[R_GIFT_TYPE]] += 1
    for _ in range(n):
        if S[S_FPTR] < S[S_NF]:
            S[S_FDISP + S[S_FDECK + S[S_FPTR]]] += 1
            S[S_FPTR] += 1
    log(lg, EV_FDISP, S[S_FDISP], S[S_FDISP + 1], S[S_FDISP + 2])
    miss_t, miss_v = 0, 0
    for _ in range(R[R_TPD]):
        miss_t += draw_ticket(R, S, lg, 0) < 0
    for x in range(NVEN):
        cnt = 0
        for i in range(S[S_TDN]):
            cnt += S[S_TDX + i] == x
        for _ in range(cnt - 1):
            miss_v += lay_visitor(R, S, x, lg)
    for _ in range(R[R_SPEC + d]):
        x = draw_ticket(R, S, lg, 1)
        if x >= 0:
            S[S_SPEC + x] += 1
            miss_v += lay_visitor(R, S, x, lg)
        else:
            miss_t += 1
    if miss_t > 0:
        log(lg, EV_SHORT, SHORT_TICKETS, miss_t)
    if miss_v > 0:
        log(lg, EV_SHORT, SHORT_VISITORS, miss_v)
    if st[ST_ON] > 0:
        st[ST_SHORT] += miss_t > 0
        st[ST_SHORT + 1] += miss_v > 0
        st[ST_SHORT + 2] += (miss_t > 0) | (miss_v > 0)
    begin_phase(S, lg)


@no_refcount
def begin_phase(S, lg):
    for p in range(S[S_N]):
        S[S_PASS + p] = 0
    for r in range(NROW):
        S[S_ROWN + r] = 0
    S[S_TURN] = S[S_START]
    log(lg, EV_PHASE, S[S_DAY], S[S_PHASE], S[S_START])
