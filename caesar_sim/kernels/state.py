"""The rules of play on the flat state vector ``S`` (numba).

A game is a state machine: ``new_game`` deals and sets up day 1 and stops at
the first decision; ``advance(a)`` applies the acting seat's action and runs
everything that follows without a decision (passes of empty hands, phase
resolution with item choices, day scoring, next day's set-up) up to the next
decision or the game end (``S[S_OVER]``). Actions: -1 pass, else
``(v - 1) + 8 * row + 40 * favour`` (favour 0 none, 1 boost, 2 double).
"""

import numba as nb

from tabletop_mc.jit import no_refcount
from caesar_sim.kernels.items import choose_item
from caesar_sim.kernels.layout import *  # noqa: F401,F403  (index constants only)
from caesar_sim.kernels.setup import begin_phase, deal, insert_desc, log, setup_day


@no_refcount
def new_game(R, S, PP, W, pols, ks, rows, rng, lg, st):
    """Deal a fresh game for the seats' policies (seat p: policy ``pols[p]``, rollouts ``ks[p]``,
    weight row ``rows[p]``) and stop at the first decision."""
    n = R[R_PLAYERS]
    for i in range(S_FDISP):  # scalars and per-seat fields; day and phase set-up reset the rest
        S[i] = 0
    S[S_N] = n
    deal(R, S, rng, lg)
    S[S_COINS] = R[R_NCOIN]
    S[S_START] = R[R_FIRST] % n
    for p in range(n):
        S[S_POL + p] = pols[p]
        S[S_K + p] = ks[p]
        S[S_WROW + p] = rows[p]
    setup_day(R, S, lg, st)
    settle(R, S, PP, W, rng, lg, st)


@nb.njit(cache=True, inline="always")
def n_items(S, row):
    """Items on the display of ``row``."""
    if row == 0:
        return S[S_FDISP] + S[S_FDISP + 1] + S[S_FDISP + 2] + S[S_SPAV]
    if row == 1:
        return S[S_TDN]
    return S[S_VDN + row - 2]


@no_refcount
def consumed(R, S, row, eff):
    """Items taken before a card of effective value ``eff`` played now (equal cards stay left)."""
    took = 0
    for i in range(S[S_ROWN + row]):
        j = row * ROWCAP + i
        if S[S_ROWE + j] < eff:
            break
        took += R[R_DOUBLE] if S[S_ROWF + j] == 2 else 1
    return took


@no_refcount
def apply_action(R, S, p, a, lg, st):
    """Seat ``p`` passes (a < 0) or plays a merchant (with a favour) into a row."""
    if a < 0:
        S[S_PASS + p] = 1
        log(lg, EV_PASS, p, 0)
        return
    v, row, f = a % NVAL + 1, (a // NVAL) % NROW, a // (NVAL * NROW)
    S[S_HAND + p] &= ~(1 << (v - 1))
    eff = v
    if f == 1:
        eff += R[R_BOOST]
    if f > 0:
        S[S_FAV + p * NFT + f - 1] -= 1
        if st[ST_ON] > 0:
            st[ST_FAVS + (f - 1) * 4 + 1] += 1
    c = S[S_DCN]
    S[S_DCN] = c + 1
    order = p - S[S_START]
    S[S_DCV + c], S[S_DCR + c], S[S_DCO + c] = v, row, order + S[S_N] if order < 0 else order
    S[S_DCW + c], S[S_DCK + c], S[S_DCI + c], S[S_DCG + c] = p, 0, -1, -R[R_MCOIN + v - 1]
    base = row * ROWCAP
    i = S[S_ROWN + row]
    while i > 0 and S[S_ROWE + base + i - 1] < eff:
        j = base + i
        S[S_ROWO + j], S[S_ROWV + j], S[S_ROWE + j] = S[S_ROWO + j - 1], S[S_ROWV + j - 1], S[S_ROWE + j - 1]
        S[S_ROWF + j], S[S_ROWC + j] = S[S_ROWF + j - 1], S[S_ROWC + j - 1]
        i -= 1
    S[S_ROWO + base + i], S[S_ROWV + base + i], S[S_ROWE + base + i] = p, v, eff
    S[S_ROWF + base + i], S[S_ROWC + base + i] = f, c
    S[S_ROWN + row] += 1
    log(lg, EV_BID, p, v, row, f, eff, i)


@no_refcount
def take_item(R, S, PP, W, p, row, c, rng, lg, st):
    """Seat ``p`` takes one item from ``row`` for day card ``c``."""
    i = choose_item(R, S, PP, p, row, rng, W)
    S[S_DCK + c] += 1
    if row == 0:
        S[S_DCI + c] = i
        if i == SP_ITEM:
            S[S_SPAV] = 0
            S[S_START] = p
            if st[ST_ON] > 0:
                st[ST_SP] += 1
        else:
            S[S_FDISP + i] -= 1
            S[S_FAV + p * NFT + i] += 1
            if st[ST_ON] > 0:
                st[ST_FAVS + i * 4] += 1
        log(lg, EV_TAKE, p, S[S_DCV + c], row, i)
        return
    if row == 1:
        x, coin = S[S_TDX + i], S[S_TDC + i]
        S[S_TDN] -= 1
        S[S_TDX + i] = S[S_TDX + S[S_TDN]]
        S[S_TDC + i] = S[S_TDC + S[S_TDN]]
        h = (p * NVEN + x)
        S[S_PTN + h] = insert_desc(S, S_PT + h * HOLD, S[S_PTN + h], coin, S_PTO + h * HOLD, c)
        k = min(S[S_SPEC + x], S[S_COINS])
        S[S_COINS] -= k
        S[S_CC + p] += k
        S[S_DCG + c] += k * R[R_COINVAL]
        log(lg, EV_TAKE, p, S[S_DCV + c], row, x, coin, k)
        return
    x = row - 2
    off = S_VD + x * DISP
    coin = S[off + i]
    S[S_VDN + x] -= 1
    for j in range(i, S[S_VDN + x]):
        S[off + j] = S[off + j + 1]
    h = (p * NVEN + x)
    S[S_PVN + h] = insert_desc(S, S_PV + h * HOLD, S[S_PVN + h], coin, S_PVO + h * HOLD, c)
    log(lg, EV_TAKE, p, S[S_DCV + c], row, x, coin)


@no_refcount
def resolve_phase(R, S, PP, W, rng, lg, st):
    """Hand out the items of the phase's rows, left to right."""
    ph = S[S_PHASE]
    r0 = 2 if ph == 2 else ph
    r1 = NROW if ph == 2 else ph + 1
    for row in range(r0, r1):
        base = row * ROWCAP
        for e in range(S[S_ROWN + row]):
            p, c = S[S_ROWO + base + e], S[S_ROWC + base + e]
            takes = R[R_DOUBLE] if S[S_ROWF + base + e] == 2 else 1
            for _ in range(takes):
                if n_items(S, row) > 0:
                    take_item(R, S, PP, W, p, row, c, rng, lg, st)
            if S[S_DCK + c] == 0:
                log(lg, EV_NOTHING, p, S[S_DCV + c], row)
    if ph == 0:
        if S[S_SPAV] and S[S_ROWN] > 0:
            S[S_START] = S[S_ROWO]
            log(lg, EV_SPFALL, S[S_START])
        if st[ST_ON] > 0:
            if S[S_SPAV] == 1:
                st[ST_SP + (1 if S[S_ROWN] > 0 else 2)] += 1
            u = S[S_FDISP] + S[S_FDISP + 1] + S[S_FDISP + 2]
            st[ST_UNCL] += u
            st[ST_UNCL + 1] += u * u
            st[ST_UNCL + 2] += S[S_SPAV]
            st[ST_UNCL + 3] += S[S_SPAV]
        S[S_SPAV] = 0
    elif st[ST_ON] > 0:
        u = S[S_TDN] if ph == 1 else S[S_VDN] + S[S_VDN + 1] + S[S_VDN + 2]
        st[ST_UNCL + 2 * (ph + 1)] += u
        st[ST_UNCL + 2 * (ph + 1) + 1] += u * u


@no_refcount
def score_day(R, S, lg, st):
    """Phase 4: assign visitors to tickets, score every seat, record the day's statistics."""
    n = S[S_N]
    for p in range(n):
        merch = 0
        for v in range(NVAL):
            if S[S_HAND + p] >> v & 1:
                merch += R[R_MCOIN + v]
        vis = 0
        tix = 0
        for x in range(NVEN):
            h = p * NVEN + x
            nt, nv = S[S_PTN + h], S[S_PVN + h]
            k = min(nt, nv)
            for i in range(k):
                tix += S[S_PT + h * HOLD + i]
                vis += S[S_PV + h * HOLD + i]
                S[S_DCG + S[S_PTO + h * HOLD + i]] += S[S_PT + h * HOLD + i]
                S[S_DCG + S[S_PVO + h * HOLD + i]] += S[S_PV + h * HOLD + i]
            if x == S[S_CAESAR]:
                allow = R[R_FAVTIX]
                for i in range(k, nv):
                    coin = S[S_PV + h * HOLD + i]
                    t = BOOST if S[S_FAV + p * NFT + BOOST] > 0 else DOUBLE
                    if S[S_FAV + p * NFT + t] == 0:
                        t = GOLD
                    if allow == 0 or S[S_FAV + p * NFT + t] == 0 or (t == GOLD and coin <= R[R_GOLD]):
                        break
                    allow -= 1
                    S[S_FAV + p * NFT + t] -= 1
                    vis += coin
                    S[S_DCG + S[S_PVO + h * HOLD + i]] += coin
                    log(lg, EV_FAVTIX, p, x, coin, t)
                    if st[ST_ON] > 0:
                        st[ST_FAVS + t * 4 + 2] += 1
        gold_left = S[S_FAV + p * NFT + GOLD]
        gold = gold_left * R[R_GOLD]
        for c in range(S[S_DCN]):
            if gold_left > 0 and S[S_DCW + c] == p and S[S_DCR + c] == 0 and S[S_DCI + c] == GOLD:
                S[S_DCG + c] += R[R_GOLD]
                gold_left -= 1
        cc = S[S_CC + p] * R[R_COINVAL]
        day = merch + vis + tix + cc + gold
        S[S_TOT + p] += day
        log(lg, EV_SCORE, p, merch, vis, tix, cc, gold, day, S[S_TOT + p])
        if st[ST_ON] > 0:
            comp = (merch, vis, tix, cc, gold)
            for j in range(NCOMP):
                st[ST_COMP + (p * NCOMP + j) * 2] += comp[j]
                st[ST_COMP + (p * NCOMP + j) * 2 + 1] += comp[j] * comp[j]
            for t in range(NFT):
                st[ST_FAVS + t * 4 + 3] += S[S_FAV + p * NFT + t]
    if st[ST_ON] > 0:
        st[ST_DAYS] += 1
        for c in range(S[S_DCN]):
            own = S[S_DCW + c]
            b = ST_BIDS + ((((S[S_POL + own] * P + S[S_DCO + c]) * NROW + S[S_DCR + c]) * NVAL
                            + S[S_DCV + c] - 1) * BIN_STATS)
            g = S[S_DCG + c]
            st[b] += 1
            st[b + 1] += S[S_DCK + c] > 0
            st[b + 2] += g
            st[b + 3] += g * g


@no_refcount
def settle(R, S, PP, W, rng, lg, st):
    """Run everything up to the next decision (``S[S_TURN]`` to act) or the game end."""
    n = S[S_N]
    while S[S_OVER] == 0:
        q = S[S_TURN]
        for _ in range(n):
            if S[S_PASS + q] == 0:
                if S[S_HAND + q] != 0:
                    S[S_TURN] = q
                    return
                S[S_PASS + q] = 1
                log(lg, EV_PASS, q, 1)
            q = q + 1 if q + 1 < n else 0
        resolve_phase(R, S, PP, W, rng, lg, st)
        if S[S_PHASE] < 2:
            S[S_PHASE] += 1
            begin_phase(S, lg)
        else:
            score_day(R, S, lg, st)
            S[S_DAY] += 1
            if S[S_DAY] >= R[R_DAYS]:
                S[S_OVER] = 1
                return
            setup_day(R, S, lg, st)


@no_refcount
def advance(R, S, PP, W, a, rng, lg, st):
    """The acting seat plays ``a``; then run on to the next decision."""
    p = S[S_TURN]
    apply_action(R, S, p, a, lg, st)
    S[S_TURN] = p + 1 if p + 1 < S[S_N] else 0
    settle(R, S, PP, W, rng, lg, st)
