"""What an item is worth to a seat, and which item a seat takes (numba)."""

import numba as nb

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow
from caesar_sim.kernels.layout import (
    BOOST, DOUBLE, GOLD, SP_ITEM, RANDOM, GREEDY, VALUE, MC, TUNED, DISTILLED, NVEN, HOLD, DISP, NFT,
    R_GOLD, R_TPV, R_TCOIN, R_NCOIN, R_COINVAL, R_FAVTIX,
    S_N, S_FAV, S_FDISP, S_SPAV, S_TDN, S_TDX, S_TDC, S_VDN, S_VD, S_PTN, S_PT, S_PVN, S_SPEC,
    S_COINS, S_CAESAR, S_POL, S_WROW, W_ID, W_AUX,
)

# policy weights PP: one row of PP_SIZE floats per weight set (names in caesar_sim.weights);
# seat p reads row S[S_WROW + p], i.e. PP[wrow(S, p) + PP_*]
PP_BOOST, PP_DOUBLE, PP_SP, PP_NEED1, PP_ALPHA, PP_SHORT, PP_RISK, PP_C3, PP_FAVKEEP, \
    PP_VILLA_DECAY, PP_NEED2, PP_RISK3, PP_GREEDY_TIX, PP_EPS, PP_HORIZON, PP_BAN_ROWS, PP_BAN_ITEMS, \
    PP_TEMP = range(18)  # PP_TEMP: softmax temperature over the policy's scores (0 = play the best)
# `distilled`: a linear score per action over features (kernels.scan): NB bid features per phase, then
# NPASS pass features per phase
NB = 14
NPASS = 4
NFEAT = 3 * (NB + NPASS)
PP_X = 18                     # the NFEAT feature weights
PP_NAMED = PP_X + NFEAT       # named weights (caesar_sim.weights.ORDER); control slots follow
PP_RPOL = PP_NAMED            # policy code a row plays by in `mc` rollouts (0 = value's features)
PP_FIELD0 = PP_NAMED + 1      # `mc` row: first PP row of its rollout field (members drawn per rollout)
PP_FIELDN = PP_NAMED + 2      # ... and the field's member count (0 = every seat rolls out with this row)
PP_CUM = PP_NAMED + 3         # a field member row: cumulative weight (draw u picks the first row with u < cum)
PP_SIZE = PP_NAMED + 4
BANNED = -1e9   # utility of an item type a restricted player never takes (PP_BAN_ITEMS bit set)


@nb.njit(cache=True, inline="always")
def wrow(S, p):
    """Offset in PP of seat ``p``'s weight row."""
    return S[S_WROW + p] * PP_SIZE


@nb.njit(cache=True, inline="always")
def favour_util(R, PP, o, t):
    """Expected coins of favour type ``t`` (or the start card) to its taker (weight row at ``o``)."""
    if int(PP[o + PP_BAN_ITEMS]) >> t & 1:
        return BANNED
    if t == BOOST:
        return PP[o + PP_BOOST]
    if t == DOUBLE:
        return PP[o + PP_DOUBLE]
    if t == GOLD:
        return float(R[R_GOLD])
    return PP[o + PP_SP]


@nb.njit(cache=True, inline="always")
def venue_terms(R, S, PP, p, x, held):
    """(base, per_coin): a display ticket of venue ``x`` worth c coins is worth base + per_coin * c to ``p``.

    ``held``: the venue's tickets in play (display and seats). Coin cards of special events are
    certain; ticket and visitor coins count with the share of the venue's visitors per ticket
    in play, net of the phase-3 merchant the visitor costs.
    """
    c3 = PP[wrow(S, p) + PP_C3]
    cc = min(S[S_SPEC + x], S[S_COINS]) * R[R_COINVAL]
    vis = S[S_VDN + x]
    if vis <= S[S_PTN + p * NVEN + x]:
        return float(cc), 0.0
    tot = 0
    for i in range(vis):
        tot += S[S_VD + x * DISP + i]
    if vis >= held:  # share 1 (saves a division)
        return cc + float(tot) / vis - c3, 1.0
    share = min(1.0, vis / max(held, 1))
    return cc + share * float(tot) / vis - c3, share


@no_refcount
def ticket_utils(R, S, PP, p, W, ids):
    """W[i] = what display ticket i is worth to seat ``p`` (coins); returns the index of the best. With
    ``ids``: also W[W_ID + i] = i and W[W_AUX + i] = the ticket venue's visitor share (its per-coin worth)."""
    nt = S[S_TDN]
    k0, k1, k2 = 0, 0, 0  # tickets of each venue on display
    for i in range(nt):
        x = S[S_TDX + i]
        k0 += x == 0
        k1 += x == 1
        k2 += x == 2
    h0, h1, h2 = k0, k1, k2  # ... and in play
    for q in range(S[S_N]):
        h0 += S[S_PTN + q * NVEN]
        h1 += S[S_PTN + q * NVEN + 1]
        h2 += S[S_PTN + q * NVEN + 2]
    b0, m0 = venue_terms(R, S, PP, p, 0, h0) if k0 > 0 else (0.0, 0.0)
    b1, m1 = venue_terms(R, S, PP, p, 1, h1) if k1 > 0 else (0.0, 0.0)
    b2, m2 = venue_terms(R, S, PP, p, 2, h2) if k2 > 0 else (0.0, 0.0)
    best, bu = 0, -1e18
    for i in range(nt):
        x, c = S[S_TDX + i], S[S_TDC + i]
        u = b0 + m0 * c if x == 0 else (b1 + m1 * c if x == 1 else b2 + m2 * c)
        W[i] = u
        if ids:
            W[W_ID + i] = i
            W[W_AUX + i] = m0 if x == 0 else (m1 if x == 1 else m2)
        if u > bu:
            best, bu = i, u
    return best


@nb.njit(cache=True, inline="always")
def visitor_util(R, S, p, x, coin, ahead):
    """Coins a visitor worth ``coin`` at venue ``x`` scores for ``p``, who wins ``ahead`` others there first."""
    k = S[S_PVN + p * NVEN + x] + ahead
    if k < S[S_PTN + p * NVEN + x]:
        return float(coin + S[S_PT + (p * NVEN + x) * HOLD + k])
    if x == S[S_CAESAR]:
        spare = k - S[S_PTN + p * NVEN + x]
        if spare < R[R_FAVTIX]:
            f = S[S_FAV + p * NFT + BOOST] + S[S_FAV + p * NFT + DOUBLE]
            if spare < f:
                return float(coin)
            if spare < f + S[S_FAV + p * NFT + GOLD] and coin > R[R_GOLD]:
                return float(coin - R[R_GOLD])
    return 0.0


@nb.njit(cache=True, inline="always")
def takes_at_random(pol):
    """Does policy ``pol`` take the items it wins at random (else the best for it)?"""
    if pol == RANDOM:
        return True
    if pol == GREEDY or pol == VALUE or pol == MC or pol == TUNED or pol == DISTILLED:
        return False
    raise ValueError("unknown Circus policy")


@no_refcount
def choose_item(R, S, PP, p, row, rng, W):
    """Index of the item seat ``p`` takes from ``row``'s display (phase 1: a type code)."""
    at_random = takes_at_random(S[S_POL + p])
    if row == 0:
        best, bu, cnt = -1, -1e9, 0
        for t in range(NFT + 1):
            avail = S[S_SPAV] if t == SP_ITEM else S[S_FDISP + t]
            if avail <= 0:
                continue
            cnt += 1
            if at_random:
                if randbelow(rng, cnt) == 0:
                    best = t
            else:
                u = favour_util(R, PP, wrow(S, p), t)
                if u > bu:
                    best, bu = t, u
        return best
    if row == 1:
        nt = S[S_TDN]
        if at_random:
            return randbelow(rng, nt)
        return ticket_utils(R, S, PP, p, W, False)
    nv = S[S_VDN + row - 2]
    if at_random:
        return randbelow(rng, nv)
    return 0  # visitors are kept sorted, best first
