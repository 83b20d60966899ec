"""A ``--profile`` resolved into what plays: its strategies and their success model.

Every command that plays a profile (game, tournament, exploit, balance,
recommend, calibrate, advise, odds, the table session, the duels) resolves
it here: the strategies are ``setup.parse_profile``'s (``reference`` and
``field:FILE`` included) and the model is ``fit.find_model``'s for the
profile's ``setup.model_variant``, so a profile plays with the same model in
every command.

`ev` and `distilled` seats bet by the model's chances, which hold for the
play policy the model was fitted under (``SuccessModel.play_policy``; the
shipped models: goal play). Such a seat playing another policy would bet on
chances its own play does not reach, so it is refused in one line that says
what works (``model.check_play``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.model import SuccessModel, check_play
from sponsio_sim.analysis.game.setup import Profile, model_variant, parse_profile
from sponsio_sim.rules import RuleSet


@dataclass(frozen=True)
class Lineup:
    strategies: Profile
    model: SuccessModel


def resolve(profile, rules: RuleSet, model=None, *, progress: bool | None = False, seed: int = 1) -> Lineup:
    """``profile`` (text or a ``Profile``) and the success model it plays with (module docstring);
    ``model``: a ``SuccessModel``, a ``--model`` path, or None (``find_model`` for its variant)."""
    strategies = parse_profile(profile, rules)
    success = model if isinstance(model, SuccessModel) else find_model(
        rules, model, progress=progress, seed=seed, variant=model_variant(strategies, rules))
    check_play(strategies, success.play_policy, success.source, rules)
    return Lineup(strategies, success)
