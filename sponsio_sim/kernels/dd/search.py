"""Double-dummy search: one boolean question, iterative alpha-beta.

The question is always "can the max side reach the goal?": seats in the
``maxside`` mask choose cards to make it true (OR nodes), the others to make
it false (AND nodes). Two goals:

- ``MODE_TRICKS``: the coalition ``coalition`` wins at least ``target`` tricks
  (a zero-window test; ``dd.solve_coalition`` finds the exact maximum);
- ``MODE_BET``: seat ``ask`` wins all its bets (``codes``/``bcounts`` as in
  ``kernels.bets.settle``, other seats' bets matter through ``fail``).

The search keeps an explicit stack of plies (no recursion, no calls with
array arguments in the hot loop apart from inlined helpers). At every trick
boundary it first tries to decide the node without searching: the goal's
three-valued bound (target reached / out of reach, bets settled either
way), the sure tricks of either side, the sweep bound of a side that needs
every trick (and, when every seat helps the bettor, ``dd.coop``'s sweep
bound), then the transposition table (``dd.tt``, winning ranks).
Inside a trick, a coalition goal is decided early when the trick's winner
is already certain and that settles it (``dd.bounds.trick_decides``). Moves come
from ``dd.moves``; a move found equal to one already tried is skipped
(``dd.moves.skip_small``).

Helpers run on every node are inlined; those run at most once per trick
boundary (sure tricks, table stores, settling a bet goal's last trick) are
compiled out of line without reference counting: inlining them as well
cost more compile time for no measurable speed.

The hot core keeps plain arguments (a long signature stays where a context
costs): ``search``, ``_boundary``, ``gen_moves``, ``tt_probe`` and
``tt_store`` taking one context of the search (deal, goal, workspace, stamp,
scratch) made the coalition and best-case bet solves slower
(``python scripts/bench_dd.py``; the figures are in ``scripts/README.md``).
Their callees on a trick boundary (``goal_verdict``, ``_last_bets``) were
measured with them.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.bits import RANKS, U0, beats, bit, lowest, popcount
from sponsio_sim.kernels.dd.avoid import ducks_all, ducks_trick, frozen_bets
from sponsio_sim.kernels.dd.bounds import (
    bet_trick_decides, forced_lead, last_trick, side_quick_tricks, sweep_bound, tops_against,
    trick_decides,
)
from sponsio_sim.kernels.dd.coop import coop_bound
from sponsio_sim.kernels.dd.core import (
    F_BEST, F_BEST_SEAT, F_EXPANDED, F_NEXT_MOVE, F_MAX_SIDE, F_LED, F_LEADER, F_MOV0, F_NEED, F_N_MOVES, F_POS,
    F_SEAT, F_SLOT, F_TRICKS_DONE, F_HINT, MODE_TRICKS, U_SKIP, U_TMASK, U_WIN_RANKS, abs_move, tally_advance, rel_move,
    side_tricks,
)
from sponsio_sim.kernels.dd.goals import bet_extra_keys, goal_verdict, trick_bet
from sponsio_sim.kernels.dd.moves import close_classes, gen_moves, skip_small
from sponsio_sim.kernels.dd.tt import (
    NO, UNKNOWN, YES, U_OWN, U_TAG, U_X1, U_X2, bucket_of, position_words, rank_mask, top_owners, tt_probe,
    tt_store,
)


# Hot core: plain arguments (module docstring: a context cost 2.5 % per best-case bet solve).
@no_refcount
def _last_bets(hands, players, leader, colmask, nines, codes, bcounts, ask, any_fail, tally, tricks_done,
               bet_results, seat_failed):
    """(YES or NO, winning ranks) of a bet goal when every seat holds one
    card: play the last trick into ``tally[tricks_done + 1]`` and settle."""
    win, w = last_trick(hands, players, leader)
    tm = U0
    for t in range(players):
        tm |= hands[t]
    best = lowest(hands[win])
    n_col = colmask.shape[0]
    tally_advance(tally, tricks_done, win, tm, best, colmask, nines, players, True)
    v = goal_verdict(codes, bcounts, ask, any_fail, tally[tricks_done + 1], players, n_col, np.int64(0), hands,
                     U0, colmask, U0, bet_results, seat_failed)
    return v, w


@nb.njit(cache=True, inline="always")
def _trick_rank(tm, best, colmask):
    """Winning rank of a finished trick (cards ``tm``, top card ``best``):
    the top card if it beat another card of its colour, else none (any card
    of the led colour would have won)."""
    if popcount(tm & colmask[best // RANKS]) > 1:
        return bit(best)
    return U0


@no_refcount
def setup_root(hands, leader, trick, start_tally, work):
    """Root ply of the ``work`` arrays (a ``dd.context.Workspace``): ``trick``
    holds the cards already played to the current trick, from ``leader`` on;
    ``start_tally`` is the ``tally`` row so far."""
    plies, ply_cards, tally = work.plies, work.ply_cards, work.tally
    players = hands.shape[0]
    k = trick.shape[0]
    tm = U0
    best = -1
    bseat = -1
    led = -1
    for j in range(k):
        c = trick[j]
        seat = (leader + j) % players
        tm |= bit(c)
        if j == 0:
            led = c // RANKS
            best = c
            bseat = seat
        elif beats(c, best):
            best = c
            bseat = seat
    plies[0, F_POS] = k
    plies[0, F_LEADER] = leader
    plies[0, F_SEAT] = (leader + k) % players
    plies[0, F_TRICKS_DONE] = 0
    plies[0, F_BEST] = best
    plies[0, F_BEST_SEAT] = bseat
    plies[0, F_LED] = led
    ply_cards[0, U_TMASK] = tm
    for j in range(start_tally.shape[0]):
        tally[0, j] = start_tally[j]


# Hot core: plain arguments (module docstring: a context cost 4.0 % per coalition solve, python scripts/bench_dd.py).
@nb.njit(cache=True, inline="always")
def _boundary(d, hands, players, colmask, nines, mode, target, maxside, coalition, codes, bcounts, ask,
              deciding_seats, any_fail, any_nines, root_mask, plies, ply_cards, tally, table, stamp, bet_results,
              seat_failed):
    """Try to decide the trick-boundary node at ply d without searching:
    (YES or NO, its winning ranks); else record its key, bucket and need,
    and return (UNKNOWN, 0)."""
    n_col = colmask.shape[0]
    in_play = U0
    for t in range(players):
        in_play |= hands[t]
    leader = plies[d, F_SEAT]
    left = popcount(hands[leader])
    tricks_done = plies[d, F_TRICKS_DONE]
    # A root restricted to some cards asks another question than the
    # position's: only the goal's own bounds apply there.
    free = d > 0 or root_mask == U0
    if mode == MODE_TRICKS:
        need = target - side_tricks(tally[tricks_done], coalition, players)
        if need <= 0:
            return YES, U0
        if need > left:
            return NO, U0
        if not free:
            return UNKNOWN, U0
        if left == 1:
            win, w = last_trick(hands, players, leader)
            return (YES if (coalition >> win) & 1 else NO), w
        rest = ((np.int64(1) << players) - 1) & ~coalition
        if (coalition >> leader) & 1:
            qt, w = side_quick_tricks(hands, players, leader, coalition, in_play, colmask)
            if qt >= need:
                return YES, w
            qo, w = tops_against(hands, players, leader, coalition, in_play, colmask)
            if left - qo < need:
                return NO, w
            if need == left:
                sw, w = sweep_bound(hands, players, coalition, in_play, colmask)
                if sw < left:
                    return NO, w
        else:
            qt, w = side_quick_tricks(hands, players, leader, rest, in_play, colmask)
            if left - qt < need:
                return NO, w
            qc, w = tops_against(hands, players, leader, rest, in_play, colmask)
            if qc >= need:
                return YES, w
            if need == 1:
                sw, w = sweep_bound(hands, players, rest, in_play, colmask)
                if sw < left:
                    return YES, w
        x1 = np.uint64(leader)
        x2 = U0
    else:
        v = goal_verdict(codes, bcounts, ask, any_fail, tally[tricks_done], players, n_col, left, hands, in_play,
                         colmask, nines, bet_results, seat_failed)
        if v != UNKNOWN or not free:
            return v, U0
        if left == 1:
            return _last_bets(hands, players, leader, colmask, nines, codes, bcounts, ask, any_fail, tally,
                              tricks_done, bet_results, seat_failed)
        if maxside == (np.int64(1) << players) - 1:
            v, w = coop_bound(codes, bcounts, ask, tally[tricks_done], hands, players, left, colmask)
            if v == NO:
                return NO, w
        alone = maxside == np.int64(1) << ask
        if alone and not any_fail and frozen_bets(codes, bcounts, ask, tally[tricks_done], players, n_col):
            # The seat's bets hold as they stand: it wins if it can lose
            # every trick left.
            ok, w = ducks_all(hands, players, leader, ask, in_play, colmask, (np.int64(1) << players) - 1)
            if ok:
                return YES, w
        if alone:
            v, w = forced_lead(hands, players, leader, colmask, codes, bcounts, ask, tally[tricks_done])
            if v == NO:
                return NO, w
        a = trick_bet(codes, bcounts, ask)
        if a > tally[tricks_done, ask]:
            if not (maxside >> leader) & 1:
                # The side against the bets leads: cashing its sure tricks may
                # leave too few for the asking seat's trick bet.
                qt, w = side_quick_tricks(hands, players, leader, ((np.int64(1) << players) - 1) & ~maxside,
                                          in_play, colmask)
                if tally[tricks_done, ask] + left - qt < a:
                    return NO, w
            elif alone:
                # The seat alone leads: the others' sure tricks after its
                # lead, and the sweep bound when it needs every trick left.
                qo, w = tops_against(hands, players, leader, maxside, in_play, colmask)
                if tally[tricks_done, ask] + left - qo < a:
                    return NO, w
                if a - tally[tricks_done, ask] == left:
                    sw, w = sweep_bound(hands, players, maxside, in_play, colmask)
                    if sw < left:
                        return NO, w
        need = 1
        x1, x2 = bet_extra_keys(codes, bcounts, deciding_seats, tally[tricks_done], players, n_col, leader,
                                in_play, nines, any_nines)
    position_words(hands, players, in_play, colmask, ply_cards, d)
    ply_cards[d, U_X1] = x1
    ply_cards[d, U_X2] = x2
    b, tag = bucket_of(table, ply_cards, d)
    ply_cards[d, U_TAG] = tag
    ply_cards[d, U_OWN] = top_owners(hands, players, in_play, colmask)
    status, w, move = tt_probe(table, b, tag, ply_cards, d, players, stamp, need, in_play, colmask)
    plies[d, F_HINT] = abs_move(move, hands[leader], in_play)
    if status != UNKNOWN:
        return status, w
    plies[d, F_SLOT] = b
    plies[d, F_NEED] = need
    return UNKNOWN, U0


# Hot core: plain arguments (module docstring: a context cost 4.0 % per coalition solve, python scripts/bench_dd.py).
@no_refcount
def search(hands, colmask, nines, mode, target, maxside, coalition, codes, bcounts, ask, deciding_seats,
           any_fail, any_nines, root_mask, plies, ply_cards, tally, table, stamp, bet_results, seat_failed, budget,
           shake):
    """Answer the question from the root set up by ``setup_root``.

    ``root_mask`` (non-zero) restricts the root's moves to those cards.
    Returns (YES or NO, nodes searched), or (UNKNOWN, nodes) once more than
    ``budget`` nodes (0: no limit) were searched; what the table learnt
    stays valid. ``shake`` (non-zero) perturbs the move order
    (``dd.moves.shaken``). ``hands`` is restored on return.
    Each resolved node hands its winning ranks (``dd.tt``) to its parent:
    a cut passes on the deciding move's, a node that tried every move the
    union of all of them; a finished trick adds its winning rank.

    Compiled without reference counting (``tabletop_mc.jit``): the
    atomic counts of the arrays handed to its helpers were a fifth of the
    time per node.
    """
    players = hands.shape[0]
    # The asking seat alone against every other seat: the forced-trick
    # bounds of its bets apply (``dd.bounds.forced_win``).
    alone = mode != MODE_TRICKS and maxside == np.int64(1) << ask
    tbet = trick_bet(codes, bcounts, ask) if alone else -1
    keep = nines if any_nines else U0
    nodes = 0
    d = np.int64(0)
    pending = -1
    pending_w = U0
    entering = True
    cut = False
    while True:
        if entering:
            if budget > 0 and nodes > budget:
                for k in range(d):   # put back the card each ply above has played
                    hands[plies[k, F_SEAT]] |= bit(plies[k, F_MOV0 + plies[k, F_NEXT_MOVE] - 1])
                return UNKNOWN, nodes
            entering = False
            plies[d, F_EXPANDED] = 0
            plies[d, F_MAX_SIDE] = (maxside >> plies[d, F_SEAT]) & 1
            ply_cards[d, U_WIN_RANKS] = U0
            ply_cards[d, U_SKIP] = U0
            status = UNKNOWN
            w = U0
            if plies[d, F_POS] == 0:
                status, w = _boundary(d, hands, players, colmask, nines, mode, target, maxside, coalition, codes,
                                      bcounts, ask, deciding_seats, any_fail, any_nines, root_mask, plies,
                                      ply_cards, tally, table, stamp, bet_results, seat_failed)
            elif mode == MODE_TRICKS and (d > 0 or root_mask == U0):
                status, w = trick_decides(d, hands, players, colmask, target, coalition, plies, tally)
            elif alone and (d > 0 or root_mask == U0):
                if not any_fail and frozen_bets(codes, bcounts, ask, tally[plies[d, F_TRICKS_DONE]], players,
                                                colmask.shape[0]):
                    ok, w = ducks_trick(d, hands, players, ask, colmask, plies)
                    if ok:
                        status = YES
                if status == UNKNOWN:
                    status, w = bet_trick_decides(d, hands, players, colmask, codes, bcounts, ask, plies, ply_cards,
                                                  tally)
                if status == UNKNOWN and tbet > tally[plies[d, F_TRICKS_DONE], ask]:
                    # The seat needs more tricks: the coalition bound of the
                    # seat alone, where it shows the tricks out of reach.
                    status, w = trick_decides(d, hands, players, colmask, tbet, maxside, plies, tally)
                    if status == YES:
                        status, w = UNKNOWN, U0
            if status != UNKNOWN:
                if d == 0:
                    return status, nodes
                if any_nines:
                    for t in range(players):
                        w |= hands[t] & nines
                pending = status
                pending_w = w
                d -= 1
                continue
            gen_moves(d, hands, players, colmask, mode, maxside, coalition, codes, bcounts, ask, any_nines,
                       root_mask, plies, ply_cards, tally, shake)
            plies[d, F_EXPANDED] = 1
        if pending >= 0:
            c = plies[d, F_MOV0 + plies[d, F_NEXT_MOVE] - 1]
            hands[plies[d, F_SEAT]] |= bit(c)
            if plies[d, F_POS] == players - 1:
                best = plies[d, F_BEST]
                if beats(c, best):
                    best = c
                pending_w |= _trick_rank(ply_cards[d, U_TMASK] | bit(c), best, colmask)
            if (plies[d, F_MAX_SIDE] == 1) == (pending == YES):
                resolved = pending
                cut = True
            else:
                ply_cards[d, U_WIN_RANKS] |= pending_w
                resolved = -1
                pending = -1
                skip_small(d, c, colmask, keep, plies, ply_cards)
        else:
            resolved = -1
        if resolved < 0 and plies[d, F_NEXT_MOVE] >= plies[d, F_N_MOVES]:
            resolved = NO if plies[d, F_MAX_SIDE] == 1 else YES
            cut = False
            pending_w = close_classes(ply_cards[d, U_WIN_RANKS], d, hands, players, colmask, any_nines, root_mask,
                                      plies)
        if resolved >= 0:
            if plies[d, F_EXPANDED] == 1 and plies[d, F_POS] == 0 and (d > 0 or root_mask == U0):
                h_all = U0
                for t in range(players):
                    h_all |= hands[t]
                if any_nines:
                    pending_w |= h_all & nines
                top = popcount(hands[plies[d, F_SEAT]]) if mode == MODE_TRICKS else 1
                move = np.int64(0)
                if cut:
                    move = rel_move(plies[d, F_MOV0 + plies[d, F_NEXT_MOVE] - 1], h_all)
                tt_store(table, plies[d, F_SLOT], ply_cards[d, U_TAG], ply_cards, d, players, stamp, plies[d, F_NEED],
                         resolved == YES, top, move, rank_mask(pending_w, h_all, colmask), colmask)
            if d == 0:
                return resolved, nodes
            pending = resolved
            d -= 1
            continue
        i = plies[d, F_NEXT_MOVE]
        plies[d, F_NEXT_MOVE] = i + 1
        c = plies[d, F_MOV0 + i]
        s = plies[d, F_SEAT]
        b = bit(c)
        hands[s] &= ~b
        nodes += 1
        pos = plies[d, F_POS]
        tm = ply_cards[d, U_TMASK] | b
        if pos == 0:
            led = c // RANKS
            best = c
            bseat = s
            leader = s
        else:
            led = plies[d, F_LED]
            best = plies[d, F_BEST]
            bseat = plies[d, F_BEST_SEAT]
            leader = plies[d, F_LEADER]
            if beats(c, best):
                best = c
                bseat = s
        tricks_done = plies[d, F_TRICKS_DONE]
        e = d + 1
        if pos + 1 == players:
            tally_advance(tally, tricks_done, bseat, tm, best, colmask, nines, players, mode != MODE_TRICKS)
            plies[e, F_SEAT] = bseat
            plies[e, F_POS] = 0
            plies[e, F_LEADER] = bseat
            plies[e, F_TRICKS_DONE] = tricks_done + 1
            plies[e, F_BEST] = -1
            plies[e, F_BEST_SEAT] = -1
            plies[e, F_LED] = -1
            ply_cards[e, U_TMASK] = U0
        else:
            nxt = s + 1
            if nxt == players:
                nxt = 0
            plies[e, F_SEAT] = nxt
            plies[e, F_POS] = pos + 1
            plies[e, F_LEADER] = leader
            plies[e, F_TRICKS_DONE] = tricks_done
            plies[e, F_BEST] = best
            plies[e, F_BEST_SEAT] = bseat
            plies[e, F_LED] = led
            ply_cards[e, U_TMASK] = tm
        d = e
        entering = True
