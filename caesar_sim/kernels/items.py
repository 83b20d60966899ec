"""What an item is worth to a seat, and which item a seat takes (numba)."""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.records import layout
from tabletop_mc.rng import randbelow
from caesar_sim.kernels.layout import (BOOST, DISP, DISTILLED, DOUBLE, GOLD, GREEDY, HOLD, MC, NFT, NVEN, RANDOM, RULES,
                                       START_CARD, STATE, TUNED, VALUE, W_ID, W_SHARE)

# policy weights PP: one row of WEIGHTS.size floats per weight set; seat p reads row S[STATE.weight_row + p],
# i.e. PP[wrow(S, p) + WEIGHTS.*]. The named weights (their meanings and `value`'s defaults:
# caesar_sim.weights), then `distilled`'s feature weights, then the control slots.
# `distilled`: a linear score per action over features (kernels.scan): NB bid features per phase, then
# NPASS pass features per phase
NB = 14
NPASS = 4
NFEAT = 3 * (NB + NPASS)
WEIGHTS = layout(np.float64, tuple((name, ()) for name in (
    "boost", "double", "start_card", "need_phase1", "strength", "short", "risk", "phase3_card", "favour_keep",
    "villa_decay", "need_phase2", "risk_visitors", "greedy_tickets", "mc_epsilon", "mc_horizon", "ban_rows",
    "ban_items", "temperature")) + (
    ("features", NFEAT),          # `distilled`'s linear score per action over features (kernels.scan)
    ("rollout_policy", ()),       # policy code a row plays by in `mc` rollouts (0 = value's features)
    ("field_first", ()),          # `mc` row: first PP row of its rollout field (members drawn per rollout)
    ("field_size", ()),           # ... and the field's member count (0 = every seat rolls out with this row)
    ("field_cum", ()),            # a field member row: cumulative weight (draw u picks the first row with u < cum)
), name="Weights")
BANNED = -1e9   # utility of an item type a restricted player never takes (WEIGHTS.ban_items bit set)


@nb.njit(cache=True, inline="always")
def wrow(S, p):
    """Offset in PP of seat ``p``'s weight row."""
    return S[STATE.weight_row + p] * WEIGHTS.size


@nb.njit(cache=True, inline="always")
def favour_util(R, PP, o, t):
    """Expected coins of favour type ``t`` (or the start card) to its taker (weight row at ``o``)."""
    if int(PP[o + WEIGHTS.ban_items]) >> t & 1:
        return BANNED
    if t == BOOST:
        return PP[o + WEIGHTS.boost]
    if t == DOUBLE:
        return PP[o + WEIGHTS.double]
    if t == GOLD:
        return float(R[RULES.gold_coins])
    return PP[o + WEIGHTS.start_card]


@nb.njit(cache=True, inline="always")
def venue_terms(R, S, PP, p, x, held):
    """(base, per_coin): a display ticket of venue ``x`` worth c coins is worth base + per_coin * c to ``p``.

    ``held``: the venue's tickets in play (display and seats). Coin cards of special events are
    certain; ticket and visitor coins count with the share of the venue's visitors per ticket
    in play, net of the phase-3 merchant the visitor costs.
    """
    c3 = PP[wrow(S, p) + WEIGHTS.phase3_card]
    cc = min(S[STATE.specials + x], S[STATE.bank_coins]) * R[RULES.coin_card_value]
    vis = S[STATE.visitors_shown + x]
    if vis <= S[STATE.tickets_held + p * NVEN + x]:
        return float(cc), 0.0
    tot = 0
    for i in range(vis):
        tot += S[STATE.visitor_coins + x * DISP + i]
    if vis >= held:  # share 1 (saves a division)
        return cc + float(tot) / vis - c3, 1.0
    share = min(1.0, vis / max(held, 1))
    return cc + share * float(tot) / vis - c3, share


@no_refcount
def ticket_utils(R, S, PP, p, W, ids):
    """W[i] = what display ticket i is worth to seat ``p`` (coins); returns the index of the best. With
    ``ids``: also W[W_ID + i] = i and W[W_SHARE + i] = the ticket venue's visitor share (its per-coin worth)."""
    nt = S[STATE.tickets_shown]
    k0, k1, k2 = 0, 0, 0  # tickets of each venue on display
    for i in range(nt):
        x = S[STATE.ticket_venue + i]
        k0 += x == 0
        k1 += x == 1
        k2 += x == 2
    h0, h1, h2 = k0, k1, k2  # ... and in play
    for q in range(S[STATE.players]):
        h0 += S[STATE.tickets_held + q * NVEN]
        h1 += S[STATE.tickets_held + q * NVEN + 1]
        h2 += S[STATE.tickets_held + q * NVEN + 2]
    b0, m0 = venue_terms(R, S, PP, p, 0, h0) if k0 > 0 else (0.0, 0.0)
    b1, m1 = venue_terms(R, S, PP, p, 1, h1) if k1 > 0 else (0.0, 0.0)
    b2, m2 = venue_terms(R, S, PP, p, 2, h2) if k2 > 0 else (0.0, 0.0)
    best, bu = 0, -1e18
    for i in range(nt):
        x, c = S[STATE.ticket_venue + i], S[STATE.ticket_coins + i]
        u = b0 + m0 * c if x == 0 else (b1 + m1 * c if x == 1 else b2 + m2 * c)
        W[i] = u
        if ids:
            W[W_ID + i] = i
            W[W_SHARE + i] = m0 if x == 0 else (m1 if x == 1 else m2)
        if u > bu:
            best, bu = i, u
    return best


@nb.njit(cache=True, inline="always")
def visitor_util(R, S, p, x, coin, ahead):
    """Coins a visitor worth ``coin`` at venue ``x`` scores for ``p``, who wins ``ahead`` others there first."""
    k = S[STATE.visitors_held + p * NVEN + x] + ahead
    if k < S[STATE.tickets_held + p * NVEN + x]:
        return float(coin + S[STATE.held_ticket_coins + (p * NVEN + x) * HOLD + k])
    if x == S[STATE.caesar]:
        spare = k - S[STATE.tickets_held + p * NVEN + x]
        if spare < R[RULES.caesar_favour_tickets]:
            f = S[STATE.favours + p * NFT + BOOST] + S[STATE.favours + p * NFT + DOUBLE]
            if spare < f:
                return float(coin)
            if spare < f + S[STATE.favours + p * NFT + GOLD] and coin > R[RULES.gold_coins]:
                return float(coin - R[RULES.gold_coins])
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
    at_random = takes_at_random(S[STATE.policy + p])
    if row == 0:
        best, bu, cnt = -1, -1e9, 0
        for t in range(NFT + 1):
            avail = S[STATE.start_card_shown] if t == START_CARD else S[STATE.favours_shown + t]
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
        nt = S[STATE.tickets_shown]
        if at_random:
            return randbelow(rng, nt)
        return ticket_utils(R, S, PP, p, W, False)
    nv = S[STATE.visitors_shown + row - 2]
    if at_random:
        return randbelow(rng, nv)
    return 0  # visitors are kept sorted, best first
