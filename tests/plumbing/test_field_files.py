"""Populations and field files (tabletop_mc.field)."""

import numpy as np
import pytest

from tabletop_mc.errors import UserError
from tabletop_mc.field import Field, field_from_json, field_to_json, load_population, population_from


def canon(text):
    if text.startswith("bad"):
        raise UserError(f"strategy {text!r}: unknown")
    return text.strip().lower()


def test_population_validates_members():
    assert population_from("p", ["A", "b "], canon, "x").members == ("a", "b")
    with pytest.raises(UserError, match="at least 2"):
        population_from("p", ["a"], canon, "x")
    with pytest.raises(UserError, match="listed twice"):
        population_from("p", ["a", "A"], canon, "x")
    with pytest.raises(UserError, match="unknown"):
        population_from("p", ["a", "bad1"], canon, "x")
    with pytest.raises(UserError, match="must be a list"):
        population_from("p", "a,b", canon, "x")


def test_population_file(tmp_path):
    f = tmp_path / "pop.toml"
    f.write_text('members = ["x", "y", "z"]\n')
    pop = load_population(str(f), "sponsio_sim", canon)
    assert pop.members == ("x", "y", "z") and pop.name == "pop"


def test_field_round_trip_and_draws():
    f = Field("g", 4, "std", ("a", "b", "c"), (0.5, 0.0, 0.5), value=0.25, command="cmd", seed=3)
    back = field_from_json(field_to_json(f), "t")
    assert back == f
    assert f.text() == "0.50 a + 0.50 c"
    c = f.cumulative()
    assert c[-1] == 1.0 and np.searchsorted(c, 0.7, side="right") == 2
    with pytest.raises(UserError, match="sum to 1"):
        Field("g", 4, "std", ("a", "b"), (0.5, 0.6))
    with pytest.raises(UserError, match="not a field file"):
        field_from_json('{"format": "x"}', "t")
