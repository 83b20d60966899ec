"""The ``mc`` betting policy: every decision by playing the rest of the round.

At a betting step, seat s first plays the round out ``PILOT`` times as if it
passed; these pilot rollouts estimate, for every catalogue bet but ``fail``,
how often seat s would win it. Its candidate actions are then: pass; for each
bet type it may still place, the success model's best bet and the pilot's
best (the highest estimated P x multiplier; ``fail`` bets by the model only);
the best exchange with the talon; and each free token (paid by revealing a
card where it can, else in coins). They are ranked by the gain ``ev`` gives
them (bets by the pilot's estimate where it has one), and pass and the best
``I_MC_KEEP - 1`` others are searched (``mc_audit`` measures how often
searching every candidate would pick otherwise). Each is played out R times from the
state as seat s sees it: the other seats' unrevealed cards are dealt again at
random (their revealed cards and hand sizes kept, the talon is public), the
rest of the betting is played by every seat's own policy (``mc`` seats, s
included, by ``ev`` with threshold 0 and their strategy's cash-in), then the
end-of-betting tokens, the tricks and the scoring (``scoring.play_out``).
The action with the highest mean round gain in coins (payouts, troll pay,
round bonus and cash-in, less stakes and fees) is taken; ties go to the
earlier candidate, pass first. Every candidate meets the same deals and
random streams (common random numbers), so the gains are paired: every
``RACE_EVERY`` rollouts a candidate more than ``RACE_Z`` paired standard
errors behind the leader is dropped (a race), and the search stops when one
is left or after R. A token held when betting ends is used the same way:
not using it, the model's choice and every other bet it may name (double,
rebet) are played out. Cash-in is decided on the game's scale
(``game.mc_cash_ins``): by the mean win share when the game is played out.

The rollouts draw from streams derived from the game's random state without
advancing it, so the other seats' random draws and the next rounds' deals do
not depend on what ``mc`` searches. Policies see only public information and
their own hand (spec 8): the deals are the only place hidden cards are used.
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.bets import BET_FIELDS, plain_bet_won
from sponsio_sim.kernels.betting import (actor, apply_action, apply_end_token, betting_steps, end_token, entry_of,
                                         leader_of, token_free)
from sponsio_sim.kernels.betting_model import kind_best, prepare_features
from sponsio_sim.kernels.betting_policies import (allowed_kind, best_swap, cheap_card, choose_action,
                                                  choose_end_token, payment, token_gain, troll_income)
from sponsio_sim.kernels.bits import U0, U1, lowest, popcount
from sponsio_sim.kernels.deal import deal
from sponsio_sim.kernels.game_layout import (BET, BET_EV, BET_MC, DOUBLE_TOKEN, FAIL, I_BETPOL, I_BROW, I_HELD,
                                             I_MC_AUDIT, I_MC_DECISIONS, I_MC_KEEP, I_MC_PRUNED, I_MC_R,
                                             I_MC_REGRET, I_MC_ROLLOUTS, I_MC_SEARCHES, I_NBETS, I_NCOL, I_NROWS,
                                             I_PLAYERS, I_ROWS, I_ROW_OF, I_TOKOWN, LEAD_TOKEN, MAX_BETS, N_KINDS,
                                             N_TOKENS, PASS, REBET_TOKEN, SWAP, SWAP_TOKEN, TOKEN, W_COINS, W_MODEL,
                                             W_MULT, W_STAKE, W_THRESH)
from sponsio_sim.kernels.scoring import play_out
from sponsio_sim.kernels.table import COLMASK, FLAGS, HANDS, NINES_OWN, REVEALED, TALON, TRICKS, WON

MAX_CANDS = 24                        # more than any decision lists (1 + 2 x kinds + swap + tokens)
PILOT = 32                            # pass rollouts that estimate each bet's chance (at most R)
RACE_EVERY = 10                       # rollouts between two races (``_race``)
RACE_Z = 2.0                          # a candidate this many paired SEs behind the leader is dropped
_MIX = np.uint64(0x9E3779B97F4A7C15)  # rollout key from the game's random state (not advanced)
_AUDIT = np.uint64(0xA0D17A0D17A0D17)  # the audit's fresh deals


@nb.njit(cache=True)
def is_mc(s, ints):
    return ints[I_BETPOL + entry_of(s, ints)] == BET_MC


@nb.njit(cache=True)
def _add(cands, gains, n, act, x, y, rv, g):
    cands[n, 0] = act
    cands[n, 1] = x
    cands[n, 2] = y
    cands[n, 3] = rv
    gains[n] = g
    return n + 1


@nb.njit(cache=True)
def step_candidates(s, tab, ints, weight, pilot, cands, gains):
    """Seat s's candidate betting actions (module docstring) and the gain of
    each; candidate 0 is pass. ``pilot[row]``: the pilot's estimate of
    P(win) of a catalogue row, or -1 where it has none. Returns their number."""
    n = _add(cands, gains, 0, PASS, -1, -1, -1, weight[W_THRESH + entry_of(s, ints)])
    hand = tab[HANDS + s]
    unrev = hand & ~tab[REVEALED]
    if unrev == U0:
        return n
    lead = leader_of(ints) == s
    prepare_features(hand, tab[TALON], lead, tab, ints)
    rv = cheap_card(unrev)
    stake = weight[W_STAKE]
    nbets = ints[I_NBETS + s]
    forgone = troll_income(s, ints, weight) if nbets == 0 else 0.0
    if weight[W_COINS + s] > 0 and weight[W_COINS + s] >= stake:
        for kind in range(N_KINDS):
            if (ints[I_ROW_OF + kind] < 0 or (ints[I_HELD + s] >> kind) & 1 != 0
                    or not allowed_kind(s, kind, ints)):
                continue
            v, row = kind_best(kind, s, ints, weight)
            prow = _pilot_best(kind, pilot, ints, weight)
            if row >= 0:
                if pilot[row] >= 0.0:
                    v = pilot[row] * weight[W_MULT + row]
                n = _add(cands, gains, n, BET, row, -1, rv, v * stake - stake - forgone)
            if prow >= 0 and prow != row:
                n = _add(cands, gains, n, BET, prow, -1, rv,
                         pilot[prow] * weight[W_MULT + prow] * stake - stake - forgone)
    g, x, y = best_swap(s, lead, tab, ints, weight)
    if x >= 0:
        n = _add(cands, gains, n, SWAP, x, y, x if (unrev & (U1 << np.uint64(x))) != U0 else rv, g)
    pay, cost = payment(s, rv, tab, weight)
    if pay > -2:
        for t in range(N_TOKENS):
            if not token_free(t, ints) or (t == LEAD_TOKEN and lead):
                continue
            tg = token_gain(s, t, g, ints, weight) if nbets > 0 else 0.0
            n = _add(cands, gains, n, TOKEN, t, pay, rv, tg - cost)
    return n


@nb.njit(cache=True)
def _pilot_best(kind, pilot, ints, weight):
    """The row of ``kind`` with the highest pilot P x multiplier (-1: none estimated)."""
    best = -1.0
    brow = -1
    row = ints[I_ROW_OF + kind]
    while row >= 0 and row < ints[I_NROWS] and ints[I_ROWS + 3 * row] == kind:
        if pilot[row] >= 0.0 and pilot[row] * weight[W_MULT + row] > best:
            best = pilot[row] * weight[W_MULT + row]
            brow = row
        row += 1
    return brow


@nb.njit(cache=True)
def end_candidates(s, t, tab, ints, weight, cands, gains):
    """Seat s's candidate uses of token ``t`` as betting ends: not using it
    (candidate 0), the ``ev`` choice, and for double and rebet every bet it
    may name (rebet: the model's best other parameter). Returns their number."""
    n = _add(cands, gains, 0, -1, -1, -1, -1, 0.0)
    nbets = ints[I_NBETS + s]
    if t == SWAP_TOKEN:
        prepare_features(tab[HANDS + s], tab[TALON], leader_of(ints) == s, tab, ints)
        g, x, y = best_swap(s, leader_of(ints) == s, tab, ints, weight)
        if x >= 0:
            n = _add(cands, gains, n, -1, x, y, -1, g)
    elif t == DOUBLE_TOKEN:
        for i in range(nbets):
            n = _add(cands, gains, n, -1, i, -1, -1, 0.0)
    elif t == REBET_TOKEN:
        prepare_features(tab[HANDS + s], tab[TALON], leader_of(ints) == s, tab, ints)
        for i in range(nbets):
            row = ints[I_BROW + s * MAX_BETS + i]
            v, r = kind_best(ints[I_ROWS + 3 * row], s, ints, weight)
            if r >= 0 and r != row:
                n = _add(cands, gains, n, -1, i, r, -1, 0.0)
    return n


@nb.njit(cache=True)
def _keep(n, gains, keep, order):
    """Candidate 0 and the ``keep - 1`` others with the highest gain (ties:
    listed first), in list order. Returns how many are kept."""
    order[0] = 0
    m = 1
    for i in range(1, n):
        rank = 0
        for j in range(1, n):
            if gains[j] > gains[i] or (gains[j] == gains[i] and j < i):
                rank += 1
        if rank < keep - 1:
            order[m] = i
            m += 1
    return m


@nb.njit(cache=True)
def _finish(step, tab, ints, weight, state, hands, codes, counts, result, failed, playpol):
    """Play the round on from betting step ``step`` (steps past the betting are
    the end tokens, ``END_TOKENS`` order) by the seats' own policies, then
    the tricks and the scoring; returns ``play_out``'s (leader, last, nine_lost, failed bets)."""
    n_bet = betting_steps(ints)
    for k in range(step, n_bet):
        s = actor(k, ints)
        act, x, y, rv = choose_action(s, tab, ints, weight, state)
        apply_action(s, act, x, y, rv, tab, ints, weight)
    for j in range(max(step - n_bet, 0), 3):
        t = end_token(j)
        s = ints[I_TOKOWN + t]
        if s >= 0:
            x, y = choose_end_token(s, t, tab, ints, weight, state)
            apply_end_token(s, t, x, y, tab, ints)
    return play_out(tab, ints, weight, state, hands, codes, counts, result, failed, playpol)


@nb.njit(cache=True)
def new_work(s, tab, ints, weight):
    """Scratch for seat s's rollouts: the hidden cards and what stays fixed
    in a deal, the rollout state and the round's work arrays."""
    players = ints[I_PLAYERS]
    known = tab[REVEALED]
    fixed = np.zeros(players, dtype=np.uint64)
    need = np.zeros(players, dtype=np.int64)
    n_hidden = 0
    for t in range(players):
        if t != s:
            n_hidden += popcount(tab[HANDS + t] & ~known)
    pool = np.empty(n_hidden, dtype=np.int64)
    k = 0
    for t in range(players):
        if t == s:
            fixed[t] = tab[HANDS + t]
            continue
        fixed[t] = tab[HANDS + t] & known
        hid = tab[HANDS + t] & ~known
        need[t] = popcount(hid)
        while hid:
            pool[k] = lowest(hid)
            k += 1
            hid &= hid - U1
    return (pool, fixed, need, np.zeros(players, dtype=np.uint64), tab.copy(), ints.copy(), weight.copy(),
            np.empty(4, dtype=np.uint64), np.zeros(players, dtype=np.uint64),
            np.zeros((players, MAX_BETS, BET_FIELDS), dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros((players, MAX_BETS), dtype=np.int64), np.zeros(players, dtype=np.bool_),
            np.zeros(players, dtype=np.int64))


@nb.njit(cache=True)
def _deal(r, key, work):
    """Rollout r's deal of the hidden cards into ``work``; its stream is left
    in ``rs`` for the play that follows."""
    pool, fixed, need, dealt, tab2, ints2, w2, rs, hands, codes, counts, result, failed, playpol = work
    seed_state(key, np.uint64(r), rs)
    deal(rs, pool, fixed, need, U0, 0, dealt)


@nb.njit(cache=True)
def _rollout(step, s, act, x, y, rv, tab, ints, weight, work, rs_start):
    """Seat s takes the candidate at ``step`` in the dealt world of ``work``
    and the round is played out; returns seat s's round gain in coins, the
    last trick's winner and the seats whose 9 lost a trick."""
    pool, fixed, need, dealt, tab2, ints2, w2, rs, hands, codes, counts, result, failed, playpol = work
    players = ints[I_PLAYERS]
    n_bet = betting_steps(ints)
    tab2[:] = tab
    ints2[:] = ints
    w2[:W_MODEL] = weight[:W_MODEL]   # the success model (from W_MODEL) is never written
    for t in range(players):
        tab2[HANDS + t] = dealt[t]
        if ints2[I_BETPOL + t] == BET_MC:
            ints2[I_BETPOL + t] = BET_EV
    rs[:] = rs_start
    if step < n_bet:
        apply_action(s, act, x, y, rv, tab2, ints2, w2)
    elif x >= 0:
        apply_end_token(s, end_token(step - n_bet), x, y, tab2, ints2)
    leader, last, nine_lost, n_failed = _finish(step + 1, tab2, ints2, w2, rs, hands, codes, counts, result,
                                                failed, playpol)
    ints[I_MC_ROLLOUTS] += 1
    return w2[W_COINS + s] - weight[W_COINS + s], last, nine_lost


@nb.njit(cache=True)
def pilot_rollouts(step, s, n, key, tab, ints, weight, work, pass_gain):
    """Seat s passes at ``step`` in ``n`` rollouts (the search's first ``n``
    deals): its gains into ``pass_gain``, and per catalogue row the share of
    them in which seat s would have won that bet (-1 for ``fail`` rows)."""
    pool, fixed, need, dealt, tab2, ints2, w2, rs, hands, codes, counts, result, failed, playpol = work
    players = ints[I_PLAYERS]
    nrows = ints[I_NROWS]
    wins = np.zeros(nrows, dtype=np.float64)
    rs_start = np.empty(4, dtype=np.uint64)
    nines_own = (ints[FLAGS] & NINES_OWN) != 0
    for r in range(n):
        _deal(r, key, work)
        rs_start[:] = rs
        pass_gain[r], last, nine_lost = _rollout(step, s, PASS, -1, -1, -1, tab, ints, weight, work, rs_start)
        for row in range(nrows):
            kind = ints[I_ROWS + 3 * row]
            if kind != FAIL and plain_bet_won(kind, ints[I_ROWS + 3 * row + 1], ints[I_ROWS + 3 * row + 2], s,
                                              ints2[TRICKS:TRICKS + players], tab2[WON:WON + players],
                                              last, nine_lost, nines_own, tab2[COLMASK:COLMASK + ints[I_NCOL]]):
                wins[row] += 1.0
    for row in range(nrows):
        wins[row] = wins[row] / n if ints[I_ROWS + 3 * row] != FAIL else -1.0
    return wins


@nb.njit(cache=True)
def search(step, s, cands, order, m, tab, ints, weight, work, key, pre_n, pre_gain, means):
    """Index (into ``cands``) of the candidate among ``order[:m]`` with the
    highest mean round gain for seat s over at most its entry's R rollouts,
    raced (module docstring). Candidates apply at betting step ``step``;
    candidate 0 (pass) already has its gains of the first ``pre_n`` rollouts
    in ``pre_gain`` (the pilot's). ``means[i]``: candidate i's mean gain over
    the rollouts it got (a dropped candidate: those before it was dropped)."""
    rollouts = ints[I_MC_R + entry_of(s, ints)]
    pool, fixed, need, dealt, tab2, ints2, w2, rs, hands, codes, counts, result, failed, playpol = work
    gain = np.zeros((m, rollouts), dtype=np.float64)
    alive = np.ones(m, dtype=np.bool_)
    upto = np.zeros(m, dtype=np.int64)
    n_alive = m
    rs_start = np.empty(4, dtype=np.uint64)
    r = 0
    while r < rollouts and n_alive > 1:
        _deal(r, key, work)
        rs_start[:] = rs
        for c in range(m):
            if not alive[c]:
                continue
            i = order[c]
            if i == 0 and r < pre_n:
                gain[c, r] = pre_gain[r]
            else:
                gain[c, r] = _rollout(step, s, cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3], tab, ints,
                                      weight, work, rs_start)[0]
        r += 1
        if r % RACE_EVERY == 0 and r < rollouts:
            n_alive = race(gain, r, alive)
            for c in range(m):
                if not alive[c] and upto[c] == 0:
                    upto[c] = r
    ints[I_MC_SEARCHES] += 1
    best = -1
    for c in range(m):
        means[order[c]] = gain[c, :upto[c] if upto[c] else r].mean()
        if alive[c] and (best < 0 or gain[c, :r].sum() > gain[best, :r].sum()):
            best = c
    return order[best]


@nb.njit(cache=True)
def race(gain, r, alive):
    """Drop every candidate whose paired mean gain over the first ``r``
    rollouts is below the leader's by more than ``RACE_Z`` standard errors
    (the rollouts share deals, so the differences are paired). Returns how
    many are left."""
    m = gain.shape[0]
    lead = -1
    for c in range(m):
        if alive[c] and (lead < 0 or gain[c, :r].sum() > gain[lead, :r].sum()):
            lead = c
    left = 0
    for c in range(m):
        if not alive[c]:
            continue
        if c != lead:
            d = gain[lead, :r] - gain[c, :r]
            mean = d.mean()
            sd = np.sqrt(((d - mean) ** 2).sum() / (r - 1))
            if mean > 0.0 and mean > RACE_Z * sd / np.sqrt(r):
                alive[c] = False
                continue
        left += 1
    return left


@nb.njit(cache=True)
def _decide(step, s, n, cands, gains, tab, ints, weight, work, key, pre_n, pre_gain):
    """Search the kept candidates; under audit also every candidate, counting
    the decisions where that picks another one and what that costs: the two
    choices' difference in mean round gain over R fresh rollouts
    (milli-coins). Returns the chosen index."""
    if n == 1:
        return 0
    order = np.empty(MAX_CANDS, dtype=np.int64)
    means = np.zeros(MAX_CANDS, dtype=np.float64)
    m = _keep(n, gains, ints[I_MC_KEEP], order)
    best = search(step, s, cands, order, m, tab, ints, weight, work, key, pre_n, pre_gain, means)
    if ints[I_MC_AUDIT]:
        ints[I_MC_DECISIONS] += 1
        if m < n:
            for i in range(n):
                order[i] = i
            full = search(step, s, cands, order, n, tab, ints, weight, work, key, pre_n, pre_gain, means)
            if full != best:
                ints[I_MC_PRUNED] += 1
                # what the pruned choice loses, on fresh deals (the searches' own means favour their picks)
                fresh = key ^ _AUDIT
                order[0] = full
                order[1] = best
                loss = 0.0
                rs_start = np.empty(4, dtype=np.uint64)
                rs = work[7]
                for r in range(ints[I_MC_R + entry_of(s, ints)]):
                    _deal(r, fresh, work)
                    rs_start[:] = rs
                    for c in range(2):
                        i = order[c]
                        g = _rollout(step, s, cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3], tab, ints,
                                     weight, work, rs_start)[0]
                        loss += g if c == 0 else -g
                ints[I_MC_REGRET] += np.int64(round(1000.0 * loss / ints[I_MC_R + entry_of(s, ints)]))
    return best


@nb.njit(cache=True, inline="always")
def rollout_key(state):
    """The rollouts' key: from the game's random state, which is not advanced."""
    return state[0] ^ (state[2] * _MIX)


@nb.njit(cache=True)
def choose_mc(step, s, tab, ints, weight, state):
    """Seat s's betting action ``(act, x, y, rv)`` at betting step ``step``."""
    cands = np.empty((MAX_CANDS, 4), dtype=np.int64)
    gains = np.empty(MAX_CANDS, dtype=np.float64)
    if (tab[HANDS + s] & ~tab[REVEALED]) == U0:
        return PASS, -1, -1, -1   # nothing left to reveal: pass is the only action
    work = new_work(s, tab, ints, weight)
    key = rollout_key(state)
    pre_n = min(PILOT, ints[I_MC_R + entry_of(s, ints)])
    pre_gain = np.empty(pre_n, dtype=np.float64)
    pilot = pilot_rollouts(step, s, pre_n, key, tab, ints, weight, work, pre_gain)
    n = step_candidates(s, tab, ints, weight, pilot, cands, gains)
    i = _decide(step, s, n, cands, gains, tab, ints, weight, work, key, pre_n, pre_gain)
    return cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3]


@nb.njit(cache=True)
def choose_mc_end(j, s, tab, ints, weight, state):
    """How seat s uses the j-th end-of-betting token (``END_TOKENS``):
    ``(x, y)`` as ``betting.apply_end_token`` takes them, (-1, -1) for no use."""
    cands = np.empty((MAX_CANDS, 4), dtype=np.int64)
    gains = np.empty(MAX_CANDS, dtype=np.float64)
    n = end_candidates(s, end_token(j), tab, ints, weight, cands, gains)
    if n == 1:
        return -1, -1
    work = new_work(s, tab, ints, weight)
    i = _decide(betting_steps(ints) + j, s, n, cands, gains, tab, ints, weight, work, rollout_key(state), 0,
                np.empty(0, dtype=np.float64))
    return cands[i, 1], cands[i, 2]
