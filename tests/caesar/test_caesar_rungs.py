"""The robustness ladder's player models as a page names them: a weights file shipped with the package
is named from the package's folder, never by the absolute path of the machine that built the page."""

from pathlib import Path

import pytest

from caesar_sim.analysis.robust import rungs, shown


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_rung_is_shown_without_the_build_machines_path(players):
    for rung, profile in rungs(players).items():
        text = shown(profile)
        for member in text.split(","):
            if "@" in member:
                weights = member.split("@", 1)[1].split()[0]
                assert not Path(weights).is_absolute() and weights.startswith("caesar_sim/fields/"), text
                assert (Path(__file__).resolve().parents[2] / weights).is_file(), text
    assert shown("mc:8 x4") == "mc:8 x4"
