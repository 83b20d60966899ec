"""The ``mc`` policy's rollouts (``betting.mc``): from a betting step (or
an end-of-betting token), deal the other seats' unrevealed cards again, play
the round out by every seat's own policy (``mc`` seats by ``ev``) and score
it; the pilot that estimates each bet's chance from pass rollouts; and the
raced search over candidates on paired rollouts.

The rollouts draw from streams keyed from the game's random state
(``rollout_key``) without advancing it, so the other seats' draws and the
next rounds' deals do not depend on what ``mc`` searches.
"""

import numba as nb
import numpy as np

from tabletop_mc.rng import seed_state
from sponsio_sim.kernels.bets import BET_FIELDS, bet_won
from sponsio_sim.kernels.betting.phase import (actor, apply_action, apply_end_token, betting_steps, end_token,
                                               entry_of)
from sponsio_sim.kernels.betting.dispatch import choose_action
from sponsio_sim.kernels.betting.policies import choose_end_token
from sponsio_sim.kernels.bits import U0, U1, lowest, popcount
from sponsio_sim.kernels.contexts import GameRound, RolloutWork
from sponsio_sim.kernels.deal import deal
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.field import FIELD_KEY, redraw_others
from sponsio_sim.betting_policies import BET_MC
from sponsio_sim.kernels.layout import BOARD, END_TOKENS, GAME, MAX_BETS, MONEY, PASS, RULES
from sponsio_sim.kernels.rulebook import rules_of
from sponsio_sim.kernels.betting.scoring import leaf_share, play_out_round

RACE_EVERY = 10                       # rollouts between two races (``race``)
RACE_Z = 2.0                          # a candidate this many paired SEs behind the leader is dropped
_MIX = np.uint64(0x9E3779B97F4A7C15)  # rollout key from the game's random state (not advanced)


@nb.njit(cache=True, inline="always")
def _finish(step, rnd):
    """Play the round in ``rnd`` (a ``contexts.GameRound``) on from betting
    step ``step`` (steps past the betting are the end tokens, ``END_TOKENS``
    order) by the seats' own policies, then the tricks and the scoring;
    returns ``play_out``'s (leader, last, nine_lost, failed bets). The scored
    policies are compiled in: an ``mc`` seat rolls out by ``ev`` or ``distilled``,
    and ``advise`` may judge any field (``betting.dispatch``)."""
    board, game_state, money, state = rnd.board, rnd.game_state, rnd.money, rnd.rng
    n_bet = betting_steps(game_state)
    for k in range(step, n_bet):
        s = actor(k, game_state)
        act, x, y, rv = choose_action(s, board, game_state, money, state, np.bool_(True))
        apply_action(s, act, x, y, rv, board, game_state, money)
    for j in range(max(step - n_bet, 0), len(END_TOKENS)):
        t = end_token(j)
        s = game_state[GAME.token_owner + t]
        if s >= 0:
            x, y = choose_end_token(s, t, board, game_state, money, state, np.bool_(True))
            apply_end_token(s, t, x, y, board, game_state)
    return play_out_round(rnd)


@nb.njit(cache=True)
def load_scratch(board, game_state, money, tab2, ints2, w2):
    """Copy the game state into a rollout's scratch arrays, every ``mc``
    entry betting by ``RULES.mc_self_policy`` there (``ev``, or ``distilled`` in
    expert iteration: a rollout never searches)."""
    rules = rules_of(game_state)
    tab2[:] = board
    ints2[:] = game_state
    w2[:MONEY.size] = money[:MONEY.size]   # the network's decision scratch past it is per decision
    for e in range(rules[RULES.entries]):
        if ints2[GAME.betting_policy + e] == BET_MC:
            ints2[GAME.betting_policy + e] = rules[RULES.mc_self_policy]


@nb.njit(cache=True)
def new_work(s, board, game_state, money):
    """Scratch for seat s's rollouts (``contexts.RolloutWork``): a
    ``GameRound`` over copies of the state whose deal is of the cards seat s
    cannot see (what stays fixed: its hand and the revealed cards), and the
    world dealt."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    known = board[BOARD.revealed]
    fixed = np.zeros(players, dtype=np.uint64)
    need = np.zeros(players, dtype=np.int64)
    n_hidden = 0
    for t in range(players):
        if t != s:
            n_hidden += popcount(board[BOARD.hands + t] & ~known)
    pool = np.empty(n_hidden, dtype=np.int64)
    k = 0
    for t in range(players):
        if t == s:
            fixed[t] = board[BOARD.hands + t]
            continue
        fixed[t] = board[BOARD.hands + t] & known
        hid = board[BOARD.hands + t] & ~known
        need[t] = popcount(hid)
        while hid:
            pool[k] = lowest(hid)
            k += 1
            hid &= hid - U1
    scratch = GameRound(board.copy(), game_state.copy(), money.copy(), np.empty(4, dtype=np.uint64), pool, fixed,
                        need, np.zeros(players, dtype=np.uint64),
                        np.zeros((players, MAX_BETS, BET_FIELDS), dtype=np.int64), np.zeros(players, dtype=np.int64),
                        np.zeros((players, MAX_BETS), dtype=np.int64), np.zeros(players, dtype=np.bool_),
                        np.zeros(players, dtype=np.int64))
    return RolloutWork(scratch, np.zeros(players, dtype=np.uint64))


@nb.njit(cache=True)
def deal_world(r, key, work):
    """Rollout r's deal of the hidden cards into ``work``; its stream is left
    in ``work.scratch.rng`` for the play that follows. The pool is put back
    in card order first (``deal`` shuffles it in place), so rollout r deals
    the same cards whichever rollouts came before it: the pilot's and the
    search's agree."""
    rnd = work.scratch
    rnd.pool.sort()
    seed_state(key, np.uint64(r), rnd.rng)
    deal(rnd.rng, rnd.pool, rnd.fixed, rnd.need, U0, np.int64(0), work.dealt)


@nb.njit(cache=True)
def rollout(step, s, action, board, game_state, money, work, rs_start):
    """Seat s takes the candidate ``action`` (``(act, x, y, rv)`` as
    ``phase.apply_action`` takes them) at ``step`` in the dealt world of
    ``work`` and the round is played out; returns seat s's round gain in
    coins (an entry with ``horizon=net``: its win share where the round ends,
    ``scoring.leaf_share``), the last trick's winner and the seats whose 9
    lost a trick."""
    rules = rules_of(game_state)
    act, x, y, rv = action
    rnd, dealt = work.scratch, work.dealt
    tab2, ints2, w2, rs = rnd.board, rnd.game_state, rnd.money, rnd.rng
    n_bet = betting_steps(game_state)
    load_scratch(board, game_state, money, tab2, ints2, w2)
    for t in range(rules[RULES.players]):
        tab2[BOARD.hands + t] = dealt[t]
    if rules[RULES.field]:   # the others' members, unknown to seat s: drawn per rollout, the same for every candidate
        rs[:] = rs_start
        rs[0] ^= FIELD_KEY
        redraw_others(s, ints2, w2, rs)
    rs[:] = rs_start
    if step < n_bet:
        apply_action(s, act, x, y, rv, tab2, ints2, w2)
    elif x >= 0:
        apply_end_token(s, end_token(step - n_bet), x, y, tab2, ints2)
    leader, last, nine_lost, n_failed = _finish(step + 1, rnd)
    game_state[GAME.mc_rollouts_run] += 1
    if rules[RULES.mc_leaf + entry_of(s, game_state)]:
        return leaf_share(s, tab2, ints2, w2), last, nine_lost
    return w2[MONEY.coins + s] - money[MONEY.coins + s], last, nine_lost


@nb.njit(cache=True, inline="always")
def pilot_rollouts(step, s, n, key, board, game_state, money, work, pass_gain):
    """Seat s passes at ``step`` in ``n`` rollouts (the search's first ``n``
    deals): its gains into ``pass_gain``, and per catalogue row the share of
    them in which seat s would have won that bet (-1 for ``fail`` rows)."""
    rules = rules_of(game_state)
    tab2, ints2, rs = work.scratch.board, work.scratch.game_state, work.scratch.rng
    nrows = rules[RULES.catalogue_rows]
    wins = np.zeros(nrows, dtype=np.float64)
    rs_start = np.empty(4, dtype=np.uint64)
    for r in range(n):
        deal_world(r, key, work)
        rs_start[:] = rs
        no = np.int64(-1)   # typed, not literal: the search's own calls share this compiled rollout
        pass_gain[r], last, nine_lost = rollout(step, s, (np.int64(PASS), no, no, no), board, game_state, money,
                                                work, rs_start)
        for row in range(nrows):
            kind = rules[RULES.catalogue + 3 * row]
            if kind != FAIL and bet_won(kind, rules[RULES.catalogue + 3 * row + 1],
                                        rules[RULES.catalogue + 3 * row + 2], s,
                                        tab2, ints2, nine_lost):
                wins[row] += 1.0
    for row in range(nrows):
        wins[row] = wins[row] / n if rules[RULES.catalogue + 3 * row] != FAIL else -1.0
    return wins


@nb.njit(cache=True)
def search(step, s, cand, m, board, game_state, money, work, key, pre_gain):
    """Index (into ``cand.acts``; ``cand``: a ``contexts.Candidates``) of the
    candidate among ``cand.order[:m]`` with the highest mean round gain for
    seat s over at most its entry's R rollouts, raced (module docstring).
    Candidates apply at betting step ``step``; candidate 0 (pass) already has
    its gains of the first ``len(pre_gain)`` rollouts in ``pre_gain`` (the
    pilot's). ``cand.summary[:, i]``: candidate i's mean gain over the
    rollouts it got (a dropped candidate: those before it was dropped), its
    paired mean difference to ``order[0]`` over the same rollouts, and their
    number."""
    rules = rules_of(game_state)
    cands, order, summary = cand.acts, cand.order, cand.summary
    pre_n = pre_gain.shape[0]
    rollouts = rules[RULES.mc_rollouts + entry_of(s, game_state)]
    rs = work.scratch.rng
    gain = np.zeros((m, rollouts), dtype=np.float64)
    alive = np.ones(m, dtype=np.bool_)
    upto = np.zeros(m, dtype=np.int64)
    n_alive = m
    rs_start = np.empty(4, dtype=np.uint64)
    r = np.int64(0)
    while r < rollouts and n_alive > 1:
        deal_world(r, key, work)
        rs_start[:] = rs
        for c in range(m):
            if not alive[c]:
                continue
            i = order[c]
            if i == 0 and r < pre_n:
                gain[c, r] = pre_gain[r]
            else:
                gain[c, r] = rollout(step, s, (cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3]), board,
                                     game_state, money, work, rs_start)[0]
        r += 1
        if r % RACE_EVERY == 0 and r < rollouts:
            n_alive = race(gain, r, alive)
            for c in range(m):
                if not alive[c] and upto[c] == 0:
                    upto[c] = r
    game_state[GAME.mc_searches_run] += 1
    best = -1
    for c in range(m):
        got = upto[c] if upto[c] else r
        summary[0, order[c]] = gain[c, :got].mean()
        summary[1, order[c]] = (gain[c, :got] - gain[0, :got]).mean()
        summary[2, order[c]] = got
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


@nb.njit(cache=True, inline="always")
def rollout_key(state):
    """The rollouts' key: from the game's random state, which is not advanced."""
    return state[0] ^ (state[2] * _MIX)
