"""The ev policy's success model: fitting, calibration, files, shipped models."""

import numpy as np
import pytest

from mcsim.errors import UserError
from sponsio_sim.analysis.fit import fit
from sponsio_sim.analysis.game_model import SuccessModel, find_model, fingerprint, shipped
from sponsio_sim.rules import load_rules


@pytest.fixture(scope="module")
def small_fit():
    return fit("standard-4p", n=12_000, holdout=6_000, seed=2)


def test_fit_counts_every_bet_and_calibrates(small_fit):
    model, deciles, summary = small_fit
    assert model.fingerprint == "4p-4c-8h"
    assert model.wins.sum() <= model.bets.sum()
    # 12 000 rounds, 4 seats, 75% bettors with 1..3 bets: about 72 000 samples
    assert 60_000 < model.bets.sum() < 85_000
    assert (model.p >= 0).all() and (model.p <= 1).all()
    assert len(deciles) >= 8 and deciles["predicted"].is_monotonic_increasing
    # a small fit is already calibrated to within its noise (a few points)
    assert summary.set_index("bet_type").loc["all", "mae"] < 0.04
    assert ((deciles["ci_low"] <= deciles["observed"]) & (deciles["observed"] <= deciles["ci_high"])).all()


def test_model_file_round_trip(small_fit, tmp_path):
    model = small_fit[0]
    path = model.save(tmp_path / "m.npz")
    back = SuccessModel.load(path)
    assert back.fingerprint == model.fingerprint
    np.testing.assert_array_equal(back.p, model.p)
    r = load_rules("standard-4p")
    assert find_model(r, path).fingerprint == fingerprint(r)
    with pytest.raises(UserError, match="fitted for deal 4p-4c-8h"):
        find_model(load_rules("standard-3p"), path)
    with pytest.raises(UserError, match="no such file"):
        find_model(r, tmp_path / "missing.npz")
    (tmp_path / "bad.npz").write_text("not a model")
    with pytest.raises(UserError, match="not a success-model file"):
        find_model(r, tmp_path / "bad.npz")


@pytest.mark.parametrize("name", ["standard-4p", "standard-3p"])
def test_shipped_models_meet_the_calibration_target(name):
    r = load_rules(name)
    model = shipped(r)
    assert model is not None and model.fingerprint == fingerprint(r)
    assert model.meta["calibration_mae"] <= 0.02
    assert model.meta["rounds"] >= 1_000_000


def test_model_ignores_multipliers_but_not_the_deal():
    base = load_rules("standard-4p")
    assert fingerprint(load_rules("standard-4p", overrides=["multiplier.last=5"])) == fingerprint(base)
    assert fingerprint(load_rules("standard-4p", overrides=["hand_size=6"])) != fingerprint(base)
