"""Value's row scan (numba): `value`, `tuned`, their softmax versions, `distilled`, and the features.

One scan visits every legal bid of the acting seat (row, favour, merchant) and knows, for each,
what it wins as the rows stand: the items' worth to the seat (``u``, from the row's item
weights), whether opponents who can still outbid threaten them, the merchant's unplayed coins,
the cards it leaves short for later phases. What it does with a bid depends on ``mode``:

- ``BEST``: `value`'s choice, the bid with the largest ``keep * u - cost`` (pass scores 0),
  pruning bids that cannot beat the best so far;
- ``SCORES``: every legal action (pass first) with that score, at ``W[W_SCORE + i]``;
- ``LINEAR``: every legal action with `distilled`'s score, a linear function of the bid's
  features (weights ``PP[o + PP_X ...]``, per phase);
- ``FEATURES``: every legal action's feature vector into row i of ``F`` (``NFEAT`` floats).

Actions go to ``A[off + i]`` in the non-``BEST`` modes; banned rows (restricted players) are
left out. A positive ``temperature`` weight samples the action from a softmax over the scores.
"""

import math

import numba as nb

from tabletop_mc.bits import highest, lowest, popcount
from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import uniform
from caesar_sim.kernels.items import (
    NB, NFEAT, PP_ALPHA, PP_BAN_ROWS, PP_FAVKEEP, PP_NEED1, PP_NEED2, PP_RISK, PP_RISK3, PP_SHORT, PP_TEMP,
    PP_VILLA_DECAY, PP_X, visitor_util, wrow,
)
from caesar_sim.kernels.layout import *  # noqa: F401,F403  (index constants only)
from caesar_sim.kernels.policies import cheapest, phase_rows, row_scan, row_utils, visitor_slots

BEST, SCORES, LINEAR, FEATURES = 0, 1, 2, 3
F_PASS = 3 * NB   # feature index of the pass bias of phase 1 (then phases 2, 3, then pass x cards in hand)


@nb.njit(cache=True, inline="always")
def _emit(PP, o, W, A, off, F, mode, i, a, ph, u, keep, cost, fcost, mcoin, v, shortn, f, nothing, threat, items):
    """List action ``a`` as action ``i`` with its score (``SCORES``, ``LINEAR``) or features (``FEATURES``)."""
    A[off + i] = a
    if mode == SCORES:
        W[W_SCORE + i] = keep * u - cost - fcost
        return
    b0 = u if keep == 1.0 else 0.0
    b1 = u - b0
    if mode == LINEAR:
        x = PP_X + ph * NB
        W[W_SCORE + i] = (PP[o + x] * b0 + PP[o + x + 1] * b1 + PP[o + x + 2] * mcoin + PP[o + x + 3] * v
                          + PP[o + x + 4] * shortn + PP[o + x + 5] * (f == 1) + PP[o + x + 6] * (f == 2)
                          + PP[o + x + 7] * nothing + PP[o + x + 8] * threat + PP[o + x + 9] * items)
        return
    r = i * NFEAT
    for k in range(NFEAT):
        F[r + k] = 0.0
    r += ph * NB
    F[r], F[r + 1], F[r + 2], F[r + 3], F[r + 4] = b0, b1, mcoin, v, shortn
    F[r + 5], F[r + 6], F[r + 7], F[r + 8], F[r + 9] = f == 1, f == 2, nothing, threat, items


@nb.njit(cache=True, inline="always")
def _scan(R, S, PP, p, W, A, off, F, mode):
    """`value`'s scan (module docstring): ``BEST`` returns the action, the other modes the count."""
    ph, hand, n = S[S_PHASE], S[S_HAND + p], S[S_N]
    o = wrow(S, p)
    ban = int(PP[o + PP_BAN_ROWS])
    cnt = 0
    if mode != BEST:  # pass first
        A[off] = -1
        cnt = 1
        c = popcount(hand)
        if mode == SCORES:
            W[W_SCORE] = 0.0
        elif mode == LINEAR:
            W[W_SCORE] = PP[o + PP_X + F_PASS + ph] + PP[o + PP_X + F_PASS + 3 + ph] * c
        else:
            for k in range(NFEAT):
                F[k] = 0.0
            F[F_PASS + ph] = 1.0
            F[F_PASS + 3 + ph] = c
    if hand == 0:
        return -1 if mode == BEST else cnt
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
    shortn = max(0.0, need - left) if ph < 2 else 0.0
    short = shortn * PP[o + PP_SHORT] if ph < 2 else 0.0
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
        if mode == BEST:
            if nit == 0 or (row >= 2 and visitor_slots(R, S, p, row - 2) <= ahead):
                continue
        if row < 2:
            if nit > 0:
                row_utils(R, S, PP, o, p, row, W)
                if row == 0 and ahead > 0:
                    for i in range(nit):
                        W[i] /= 1.0 + PP[o + PP_VILLA_DECAY] * ahead
            top = W[0]
        else:
            top = visitor_util(R, S, p, row - 2, S[S_VD + (row - 2) * DISP], ahead)
        if mode == BEST and top * min(most, nit) - cheap <= bg:  # even the best items for the cheapest card lose
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
                a = v - 1 + NVAL * row + NVAL * NROW * f
                mcoin = R[R_MCOIN + v - 1]
                if s >= nit:
                    if mode != BEST:
                        _emit(PP, o, W, A, off, F, mode, cnt, a, ph, 0.0, 1.0, mcoin + short + alpha * v, fcost,
                              mcoin, v, shortn, f, 1.0, 0.0, 0.0)
                        cnt += 1
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
                if mode != BEST:
                    _emit(PP, o, W, A, off, F, mode, cnt, a, ph, u, keep, mcoin + short + alpha * v, fcost, mcoin,
                          v, shortn, f, 0.0, float(max(0, threats - (nit - s - takes))),
                          float(min(takes, nit - s)))
                    cnt += 1
                    continue
                g = keep * u - (mcoin + short + alpha * v) - fcost
                if g > bg:
                    best, bg = a, g
                if s == 0 and keep == 1.0 and rising:
                    break  # higher merchants win nothing more and cost more
    return best if mode == BEST else cnt


@no_refcount
def value_action(R, S, PP, p, W):
    """`value` and `tuned` (the same features, each with its own weight row). Best bid by expected item
    coins minus the card's unplayed coins and later needs; else pass.

    For each row, favour and merchant: the item(s) the card would win as the row stands
    (phase 1: favours by their weights, halved per item already won there; phase 2: tickets
    by ``ticket_utils``; phase 3: visitors that fill an open ticket), times the chance to
    keep them against opponents who can still outbid, minus the card's unplayed coins,
    a favour's keep value, and (phases 1-2) its strength and any shortfall of cards needed later.
    A row whose bit is set in the ``PP_BAN_ROWS`` weight is never bid at (restricted players).
    """
    return _scan(R, S, PP, p, W, W, 0, W, BEST)


@no_refcount
def value_scores(R, S, PP, p, W, A, off):
    """Every legal action of ``p`` (pass first) into ``A[off:]`` and value's score into ``W[W_SCORE:]``; the count."""
    return _scan(R, S, PP, p, W, A, off, W, SCORES)


@no_refcount
def linear_scores(R, S, PP, p, W, A, off):
    """Every legal action of ``p`` into ``A[off:]`` and `distilled`'s score into ``W[W_SCORE:]``; the count."""
    return _scan(R, S, PP, p, W, A, off, W, LINEAR)


@no_refcount
def action_features(R, S, PP, p, W, A, off, F):
    """Every legal action of ``p`` into ``A[off:]`` and its features into row i of ``F`` (NFEAT floats)."""
    return _scan(R, S, PP, p, W, A, off, F, FEATURES)


@no_refcount
def pick(W, cnt, temp, rng):
    """Index of the action to play from scores ``W[W_SCORE:W_SCORE+cnt]``: the first best if
    ``temp <= 0``, else a draw from the softmax at temperature ``temp``."""
    best, bg = 0, W[W_SCORE]
    for i in range(1, cnt):
        if W[W_SCORE + i] > bg:
            best, bg = i, W[W_SCORE + i]
    if temp <= 0.0:
        return best
    tot = 0.0
    for i in range(cnt):
        tot += math.exp((W[W_SCORE + i] - bg) / temp)
    x = uniform(rng) * tot
    for i in range(cnt):
        x -= math.exp((W[W_SCORE + i] - bg) / temp)
        if x < 0.0:
            return i
    return best


@no_refcount
def scored_action(R, S, PP, p, W, A, rng, linear):
    """The action of a seat that plays by scores: `distilled` (``linear``) or `value`/`tuned`, each
    the best or (weight ``temperature`` > 0) sampled from the softmax over its scores."""
    temp = PP[wrow(S, p) + PP_TEMP]
    if not linear and temp <= 0.0:
        return value_action(R, S, PP, p, W)
    cnt = linear_scores(R, S, PP, p, W, A, 0) if linear else value_scores(R, S, PP, p, W, A, 0)
    return A[pick(W, cnt, temp, rng)]
