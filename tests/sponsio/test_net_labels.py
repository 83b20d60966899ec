"""Expert iteration's labels (``kernels.betting.netlabel``, ``analysis.game.netlabels``): what a labelling
run records, that another salt labels the same states again independently, the race, and the targets."""

import numpy as np
import pytest

from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.netlabels import (Labelling, betting_rows, choices, decision_match, label,
                                                 train_set)
from sponsio_sim.analysis.game.setup import parse_profile
from sponsio_sim.kernels.betting.netlayout import (A_PASS, N_ACTIONS, NET_INPUTS, NET_RECORD, ROW_BETTING, ROW_CASH,
                                                   ROW_OUTCOME)
from sponsio_sim.kernels.betting.netlabel import RACE_EVERY, RACE_FIRST
from sponsio_sim.kernels.game.netrecord import OUTCOME_SE
from sponsio_sim.rules import load_rules

R4 = load_rules("standard-4p")


@pytest.fixture(scope="module")
def runs():
    field = parse_profile("reference", R4)
    model = find_model(R4, variant="reference")
    how = Labelling(games=6, rollouts=RACE_FIRST + 2 * RACE_EVERY, seed=9,   # the race: after RACE_FIRST rollouts
                    mc_self="distilled", cash="cash5", race=0.0, threads=1)
    first = label(R4, field, model, None, how)
    again = label(R4, field, model, None, Labelling(**{**how.__dict__, "salt": 1}))
    raced = label(R4, field, model, None, Labelling(**{**how.__dict__, "race": 3.0}))   # the default race
    return first, again, raced


def test_a_labelling_run_records_decisions_and_positions(runs):
    rows = runs[0]
    kinds = set(rows[:, NET_RECORD.kind].astype(int))
    assert ROW_BETTING in kinds and ROW_OUTCOME in kinds
    b = betting_rows(rows)
    mask = b[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS] > 0
    assert mask[:, A_PASS].all() and (mask.sum(1) >= 2).all()       # pass and at least one other action
    q = b[:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS]
    assert (q[:, A_PASS] == 0).all() and (q[~mask] == 0).all()      # values are gains over passing
    assert (b[:, NET_RECORD.q_se + A_PASS] == 0).all()
    assert (b[:, NET_RECORD.x + NET_INPUTS.cash_phase] == 0).all()
    ends = rows[rows[:, NET_RECORD.kind] != ROW_BETTING]
    assert (ends[:, NET_RECORD.x + NET_INPUTS.cash_phase] == 1).all()
    assert ((ends[:, NET_RECORD.v] >= 0) & (ends[:, NET_RECORD.v] <= 1)).all()
    out = rows[rows[:, NET_RECORD.kind] == ROW_OUTCOME]
    assert set(np.round(out[:, NET_RECORD.v] * 12).astype(int)) <= {0, 3, 4, 6, 12}   # 0, 1/k of a shared win
    assert (out[:, NET_RECORD.v_se] == np.float32(OUTCOME_SE)).all()
    cash = rows[rows[:, NET_RECORD.kind] == ROW_CASH]
    assert len(cash) % 2 == 0                                        # both options of each cash-in decision


def test_another_salt_labels_the_same_states_independently(runs):
    first, again, _ = runs
    assert first.shape == again.shape
    for f in (NET_RECORD.kind, NET_RECORD.game, NET_RECORD.seat, NET_RECORD.chosen):
        np.testing.assert_array_equal(first[:, f], again[:, f])
    np.testing.assert_array_equal(first[:, NET_RECORD.x:NET_RECORD.x + NET_INPUTS.size],
                                  again[:, NET_RECORD.x:NET_RECORD.x + NET_INPUTS.size])
    q1 = betting_rows(first)[:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS]
    q2 = betting_rows(again)[:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS]
    assert not np.array_equal(q1, q2)


def test_the_race_stops_clearly_worse_actions_only(runs):
    first, _, raced = runs
    b, r = betting_rows(first), betting_rows(raced)
    np.testing.assert_array_equal(b[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS],
                                  r[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS])
    mask = b[:, NET_RECORD.mask:NET_RECORD.mask + N_ACTIONS] > 0
    q, qr = (x[:, NET_RECORD.q:NET_RECORD.q + N_ACTIONS] for x in (b, r))
    # the race only shortens an action's rollouts (its value: the mean of a prefix of the same paired
    # gains), and the leader always runs to the end: the best action stays the best almost always
    assert (choices(q, mask) == choices(qr, mask)).mean() > 0.9
    assert (qr[mask] != q[mask]).any()


def test_targets_weigh_values_by_their_errors():
    rows = np.zeros((3, NET_RECORD.size), np.float32)
    rows[:, NET_RECORD.kind] = [ROW_BETTING, ROW_CASH, ROW_OUTCOME]
    rows[0, NET_RECORD.mask + np.array([A_PASS, 5])] = 1
    rows[0, NET_RECORD.q + 5], rows[0, NET_RECORD.q_se + 5] = 1.5, 0.5
    rows[1:, NET_RECORD.v], rows[1:, NET_RECORD.v_se] = [0.4, 0.25], [0.1, 0.5]
    ts = train_set(rows)
    assert ts.q[0, 5] == 1.5 and ts.q_weight[0, 5] == pytest.approx(1 / (0.25 + 0.0625))
    assert ts.q_weight[0, A_PASS] == pytest.approx(1 / 0.0625) and ts.q_weight[0, 7] == 0
    assert ts.v_weight[0] == 0 and (ts.q_weight[1:] == 0).all()
    assert ts.v_weight[1] == pytest.approx(1 / (0.01 + 0.0025)) and ts.v[2] == pytest.approx(0.25)


def test_regret_and_agreement():
    rows = np.zeros((2, NET_RECORD.size))
    rows[:, NET_RECORD.mask + np.array([0, 3, 4])] = 1
    rows[0, NET_RECORD.q + 3], rows[0, NET_RECORD.q + 4] = 2.0, 1.0
    rows[1, NET_RECORD.q + 3], rows[1, NET_RECORD.q + 4] = -1.0, -2.0
    m = decision_match(rows, np.array([4, 0]))
    assert m["decisions"] == 2 and m["regret"] == pytest.approx(0.5) and m["agree"] == pytest.approx(0.5)
