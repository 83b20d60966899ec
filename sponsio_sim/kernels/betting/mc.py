"""The ``mc`` betting policy: every decision by playing the rest of the round.

At a betting step, seat s first plays the round out ``PILOT`` times as if it
passed; these pilot rollouts estimate, for every catalogue bet but ``fail``,
how often seat s would win it. Its candidate actions are then: pass; for each
bet type it may still place, the success model's best bet and the pilot's
best (the highest estimated P x multiplier; ``fail`` bets by the model only);
the best exchange with the talon; and each free token (paid by revealing a
card where it can, else in coins). They are ranked by the gain ``ev`` gives
them (bets by the pilot's estimate where it has one), and pass and the best
``RULES.mc_keep - 1`` others are searched (``game.audit`` measures how often
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
An entry with ``horizon=net`` (``RULES.mc_leaf``) scores every rollout by the
seat's win share where the round ends instead (``scoring.leaf_share``: the
real one if the game ends with the round, else ``net``'s value head), and
its cash-in reads both options' win shares there without rollouts.

The rollouts (``betting.rollout``) draw from streams derived from the game's
random state without advancing it, so the other seats' random draws and the
next rounds' deals do not depend on what ``mc`` searches. Policies see only
public information and their own hand (docs/rules-sponsio.md section 8): the deals are the only
place hidden cards are used.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.betting.candidates import add_candidate, candidate_features, step_candidates
from sponsio_sim.kernels.betting.model import kind_best, prepare_features
from sponsio_sim.kernels.betting.netlabel import label_decision
from sponsio_sim.kernels.betting.phase import betting_place, betting_steps, end_token, entry_of, leader_of
from sponsio_sim.kernels.betting.policies import best_swap
from sponsio_sim.kernels.betting.rollout import deal_world, new_work, pilot_rollouts, rollout, rollout_key, search
from sponsio_sim.kernels.bits import U0
from sponsio_sim.betting_policies import BET_MC
from sponsio_sim.kernels.contexts import Candidates
from sponsio_sim.kernels.layout import (BOARD, CANDIDATE_FEATURES, DECISION_RECORD, DOUBLE_TOKEN, GAME, MAX_BETS,
                                        MAX_CANDS, PASS, REBET_TOKEN, RULES, SWAP_TOKEN)
from sponsio_sim.kernels.rulebook import rules_of

PILOT = 32                            # pass rollouts that estimate each bet's chance (at most R)
_AUDIT = np.uint64(0xA0D17A0D17A0D17)  # the audit's fresh deals


@no_refcount
def is_mc(s, game_state):
    return game_state[GAME.betting_policy + entry_of(s, game_state)] == BET_MC


@no_refcount
def end_candidates(s, t, board, game_state, money, cands, gains):
    """Seat s's candidate uses of token ``t`` as betting ends: not using it
    (candidate 0), the ``ev`` choice, and for double and rebet every bet it
    may name (rebet: the model's best other parameter). Returns their number."""
    rules = rules_of(game_state)
    n = add_candidate(cands, gains, 0, -1, -1, -1, -1, 0.0)
    nbets = game_state[GAME.bet_count + s]
    if t == SWAP_TOKEN:
        prepare_features(board[BOARD.hands + s], board[BOARD.talon], leader_of(game_state) == s,
                         betting_place(s, game_state), board, game_state)
        g, x, y = best_swap(s, leader_of(game_state) == s, board, game_state, money)
        if x >= 0:
            n = add_candidate(cands, gains, n, -1, x, y, -1, g)
    elif t == DOUBLE_TOKEN:
        for i in range(nbets):
            n = add_candidate(cands, gains, n, -1, i, -1, -1, 0.0)
    elif t == REBET_TOKEN:
        prepare_features(board[BOARD.hands + s], board[BOARD.talon], leader_of(game_state) == s,
                         betting_place(s, game_state), board, game_state)
        for i in range(nbets):
            row = game_state[GAME.bet_row + s * MAX_BETS + i]
            v, r = kind_best(rules[RULES.catalogue + 3 * row], s, game_state, money)
            if r >= 0 and r != row:
                n = add_candidate(cands, gains, n, -1, i, r, -1, 0.0)
    return n


@no_refcount
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
def _decide(step, s, n, cand, board, game_state, money, work, key, pre_gain):
    """Search the kept candidates of the ``n`` in ``cand`` (a ``contexts.Candidates``);
    under audit also every candidate, counting the decisions where that picks
    another one and what that costs: the two choices' difference in mean
    round gain over R fresh rollouts (milli-coins). Returns (the chosen index,
    how many candidates were searched: ``cand.order[:m]``, with ``search``'s
    ``cand.summary``)."""
    rules = rules_of(game_state)
    if n == 1:
        return 0, 0
    cands = cand.acts
    m = _keep(n, cand.gains, rules[RULES.mc_keep], cand.order)
    best = search(step, s, cand, m, board, game_state, money, work, key, pre_gain)
    if rules[RULES.mc_audit]:
        game_state[GAME.mc_decisions] += 1
        if m < n:
            scratch = np.zeros((3, MAX_CANDS), dtype=np.float64)
            full_order = np.arange(MAX_CANDS)
            full = search(step, s, Candidates(cands, cand.gains, full_order, scratch), n, board, game_state, money,
                          work, key, pre_gain)
            if full != best:
                game_state[GAME.mc_pruned] += 1
                # what the pruned choice loses, on fresh deals (the searches' own means favour their picks)
                fresh = key ^ _AUDIT
                pair = np.array([full, best])
                loss = 0.0
                rs_start = np.empty(4, dtype=np.uint64)
                rs = work.scratch.rng
                for r in range(rules[RULES.mc_rollouts + entry_of(s, game_state)]):
                    deal_world(r, fresh, work)
                    rs_start[:] = rs
                    for c in range(2):
                        i = pair[c]
                        g = rollout(step, s, (cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3]), board,
                                    game_state, money, work, rs_start)[0]
                        loss += g if c == 0 else -g
                rollouts = rules[RULES.mc_rollouts + entry_of(s, game_state)]
                game_state[GAME.mc_regret] += np.int64(round(1000.0 * loss / rollouts))
    return best, m


@nb.njit(cache=True)
def choose_mc(step, s, board, game_state, money, state, record, labels):
    """Seat s's betting action ``(act, x, y, rv)`` at betting step ``step``;
    with a ``record`` of more than one row, the decision is recorded there
    (``record_decision``). In a labelling run ``labels`` is the record
    ``netlabel.label_decision`` writes and the seat plays as the taught policy;
    elsewhere it is None, and numba compiles the labelling out."""
    rules = rules_of(game_state)
    cands = np.empty((MAX_CANDS, 4), dtype=np.int64)
    gains = np.empty(MAX_CANDS, dtype=np.float64)
    if (board[BOARD.hands + s] & ~board[BOARD.revealed]) == U0:
        return PASS, -1, -1, -1   # nothing left to reveal: pass is the only action
    if labels is not None:
        return label_decision(step, s, board, game_state, money, state, labels)
    work = new_work(s, board, game_state, money)
    key = rollout_key(state)
    pre_n = min(PILOT, rules[RULES.mc_rollouts + entry_of(s, game_state)])
    pre_gain = np.empty(pre_n, dtype=np.float64)
    pilot = pilot_rollouts(step, s, pre_n, key, board, game_state, money, work, pre_gain)
    n = step_candidates(s, board, game_state, money, pilot, cands, gains)
    cand = Candidates(cands, gains, np.empty(MAX_CANDS, dtype=np.int64), np.zeros((3, MAX_CANDS), dtype=np.float64))
    i, m = _decide(step, s, n, cand, board, game_state, money, work, key, pre_gain)
    if record.shape[0] > 1 and m > 1:
        record_decision(s, i, m, cand, board, game_state, money, record)
    return cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3]


@nb.njit(cache=True)
def record_decision(s, chosen, m, cand, board, game_state, money, record):
    """One row per searched candidate of ``cand`` (a ``contexts.Candidates``,
    the first ``m`` of its order) into ``record`` (``kernels.layout.REC_*``;
    row 0 counts the rows used and the decisions): the decision's number,
    whether it was chosen, its paired mean round gain over pass and the
    rollouts behind it, its model gain and its features (``CANDIDATE_FEATURES.size``). A full
    record drops further decisions."""
    cands, gains, order, summary = cand
    used = np.int64(record[0, 0])
    if used + m >= record.shape[0]:
        return
    prepare_features(board[BOARD.hands + s], board[BOARD.talon], leader_of(game_state) == s,
                     betting_place(s, game_state), board, game_state)
    decision = record[0, 1]
    for c in range(m):
        i = order[c]
        row = record[1 + used + c]
        row[DECISION_RECORD.decision] = decision
        row[DECISION_RECORD.chosen] = 1.0 if i == chosen else 0.0
        row[DECISION_RECORD.advantage] = summary[1, i]
        row[DECISION_RECORD.rollouts] = summary[2, i]
        row[DECISION_RECORD.gain] = gains[i]
        candidate_features(s, cands[i, 0], cands[i, 1], cands[i, 2], gains[i], board, game_state, money,
                           row[DECISION_RECORD.features:DECISION_RECORD.features + CANDIDATE_FEATURES.size])
    record[0, 0] = used + m
    record[0, 1] = decision + 1.0


@nb.njit(cache=True)
def choose_mc_end(j, s, board, game_state, money, state):
    """How seat s uses the j-th end-of-betting token (``END_TOKENS``):
    ``(x, y)`` as ``betting.apply_end_token`` takes them, (-1, -1) for no use."""
    cands = np.empty((MAX_CANDS, 4), dtype=np.int64)
    gains = np.empty(MAX_CANDS, dtype=np.float64)
    n = end_candidates(s, end_token(j), board, game_state, money, cands, gains)
    if n == 1:
        return -1, -1
    work = new_work(s, board, game_state, money)
    cand = Candidates(cands, gains, np.empty(MAX_CANDS, dtype=np.int64), np.zeros((3, MAX_CANDS), dtype=np.float64))
    i, m = _decide(betting_steps(game_state) + j, s, n, cand, board, game_state, money, work, rollout_key(state),
                   np.empty(0, dtype=np.float64))
    return cands[i, 1], cands[i, 2]
