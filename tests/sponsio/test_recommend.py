"""`sponsio recommend`: the staged search finds the table only it can find, and says why none fits."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.balance.criteria import Band, Bands
from sponsio_sim.analysis.balance.objective import axis_text, judge
from sponsio_sim.analysis.balance.recommend import (SearchSpace, Stages, axes_of, current_table, parse_param,
                                                     recommend, side_by_side, table_rules, verdict)
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.runs import run_games
from sponsio_sim.analysis.game.setup import parse_profile
from sponsio_sim.analysis.settings import Run
from sponsio_sim.bet_kinds import KIND_CODE
from sponsio_sim.cli import main
from sponsio_sim.kernels.layout import named_stats
from sponsio_sim.rules import load_rules

R4 = load_rules(None, 4)
FIXED = "ev:goal:cash4 x4"
N = 240


def wide(last_share: Band) -> Bands:
    """Every band wide open but the share of `last` bets."""
    return Bands(rp={"*": Band(-1.0, 1.0)}, share={"*": Band(0.0, 1.0), "last": last_share},
                 troll=Band(0.0, 1.0), rounds=Band(0.0, 100.0))


@pytest.fixture(scope="module")
def last_shares():
    """The share of `last` bets at x2..x5, each from its own tournament on the search's seed."""
    model = find_model(R4)
    out = {}
    for m in (2, 3, 4, 5):
        rules = load_rules(R4, overrides={"multiplier.last": m})
        stats = named_stats(run_games(rules, parse_profile(FIXED, rules), N, rotate=True, seed=4, model=model), 4)
        bets = sum(stats["entry"][e]["bets"] for e in range(4))
        out[m] = bets[KIND_CODE["last"]] / bets.sum()
    return out


def test_finds_the_only_table_that_meets_every_band(last_shares):
    """A band around x3's share of `last` bets, between its neighbours: only x3 is feasible."""
    values = sorted(last_shares.values())
    s3 = last_shares[3]
    i = values.index(s3)
    lo = (values[i - 1] + s3) / 2 if i > 0 else s3 / 2
    hi = (values[i + 1] + s3) / 2 if i + 1 < len(values) else (s3 + 1) / 2
    rec = recommend(FIXED, bands=wide(Band(lo, hi)),
                    space=SearchSpace(only=["last"]),
                    stages=Stages(n=N, screen_n=N, shortlist=4, top=4), run=Run(seed=4, cache=False))
    best = rec.finalists[0]
    assert best.table == {"last": 3} and best.judged.feasible
    assert best.measures[("share", "last")][0] == pytest.approx(s3)
    assert len(rec.finalists) == 4 and not any(c.judged.feasible for c in rec.finalists[1:])
    assert {c.judged.binding for c in rec.finalists[1:]} == {"last share of bets"}
    assert rec.current.table == {"last": 2}
    assert verdict(rec)[0].startswith("recommended: last x3")
    reach = rec.attainable.set_index("constraint").loc["last share of bets"]
    assert reach["meeting"] == 1 and reach["reason"] == ""
    table = side_by_side(rec)
    assert list(table.columns[:4]) == ["measure", "band", "current", "#1"]
    assert table.set_index("measure").loc["multiplier last", "#1"] == "x3"


def test_the_current_table_competes_with_the_finalists(last_shares):
    """A band only the rules' own x2 meets, searched over x3..x5: the search says none does better."""
    s2, s3 = last_shares[2], last_shares[3]
    band = Band(s2 - abs(s3 - s2) / 2, s2 + abs(s3 - s2) / 2)
    rec = recommend(FIXED, bands=wide(band),
                    space=SearchSpace(only=["last"], mult_range="3..5"),
                    stages=Stages(n=N, screen_n=N, shortlist=3, top=2), run=Run(seed=4, cache=False))
    assert rec.current.table == {"last": 2} and rec.finalists[0].table == {"last": 2}
    assert rec.finalists[0].judged.feasible and not any(c.judged.feasible for c in rec.finalists[1:])
    assert verdict(rec)[0].startswith("no table searched does better than the current one, last x2")


def test_says_why_no_table_meets_a_band_out_of_reach(last_shares):
    rec = recommend(FIXED, bands=wide(Band(0.95, 1.0)),
                    space=SearchSpace(only=["last"]),
                    stages=Stages(n=N, screen_n=N, shortlist=2, top=2), run=Run(seed=4, cache=False))
    lines = verdict(rec)
    assert lines[0].startswith("no table of the 4 searched meets every constraint")
    reason = [x for x in lines if "no table meets last share of bets" in x]
    assert reason and "every table measured lies below the band" in reason[0]
    assert f"{max(last_shares.values()):.3f}" in reason[0]


def test_objective_ranks_by_violation_then_margin():
    bands = Bands(rp={"*": Band(0.0, 1.0)}, share={"*": Band(0.0, 1.0)}, troll=Band(0.2, 0.4), rounds=Band(2, 4))
    inside = judge({("troll", None): (0.3, 0.29, 0.31), ("rounds", None): (2.2, 2.1, 2.3)}, bands)
    roomy = judge({("troll", None): (0.3, 0.29, 0.31), ("rounds", None): (3.0, 2.9, 3.1)}, bands)
    outside = judge({("troll", None): (0.5, 0.49, 0.51), ("rounds", None): (3.0, 2.9, 3.1)}, bands)
    assert inside.feasible and roomy.feasible and not outside.feasible
    assert sorted([outside, inside, roomy], key=lambda j: j.key()) == [roomy, inside, outside]
    assert inside.binding == "rounds per game" and outside.binding == "troll share"
    assert outside.violation == pytest.approx(0.5)


def test_axes_and_parameters():
    axes = axes_of(R4, "2..5", ["colour N=0", "fail:1"])
    assert [a.name for a in axes] == [*R4.bets, "colour N=0", "fail S=1"]
    assert axes[5].key == "multiplier_param.colour.0" and axes[5].values == (2, 3, 4, 5)
    assert parse_param("colour:R0", R4) == ("colour N=R0", "multiplier_param.colour.R0")
    assert [axis_text(*a) for a in (("colour N=0", 4), ("last", 2), ("troll_pay", 1))] == \
        ["colour N=0 x4", "last x2", "troll_pay=1"]
    for bad, needle in (("last N=1", "TYPE N=VALUE"), ("colour N=12", "multiplier_param.colour.12"),
                        ("sixes N=1", "TYPE N=VALUE")):
        with pytest.raises(UserError, match=needle):
            parse_param(bad, R4)
    with pytest.raises(UserError, match="more than"):
        axes_of(R4, "1..9", ["colour N=0", "tricks N=1"])
    lever = axes_of(R4, "2..3", only=["last"], levers=["troll_pay=1,3", "track_value.scale=0.5,2"])
    assert [a.name for a in lever] == ["last", "troll_pay", "track_value.scale"]
    rules = table_rules(R4, lever, {"last": 3, "troll_pay": 1, "track_value.scale": 2})
    assert (rules.multiplier["last"], rules.troll_pay, rules.track_value[2]) == (3, 1, 2 * R4.track_value[2])
    assert current_table(R4, lever) == {"last": 2, "troll_pay": 2, "track_value.scale": 1}
    for bad, needle in (("multiplier.last=2,3", "searched already"), ("hand_size=7", "changes the deal")):
        with pytest.raises(UserError, match=needle):
            axes_of(R4, "2..3", only=["last"], levers=[bad])


def test_cli_json():
    """(Bad input: tests/test_cli_hygiene.py.)"""
    res = CliRunner().invoke(main, ["recommend", "--profile", FIXED, "--only", "last", "--range", "2..3", "-n", "240",
                                    "--screen-n", "240", "--top", "2", "--format", "json", "--no-cache",
                                    "--share-band", "last=0..1", "--lever", "troll_pay=1,2"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {r["rank"] for r in data["finalists"]} == {0, 1, 2} and data["search"]["tables"] == 4
    assert any("troll_pay=1" in r["table"] for r in data["finalists"])
    assert np.isfinite([r["value"] for r in data["finalists"] if r["value"] is not None]).all()


def test_adapt_plays_each_finalist_by_the_field_re_solved_for_its_rules():
    """With ``Stages.adapt`` the finalists and the current table are played by the field's weights
    re-solved for each table's rules (the re-solver's own answer for those rules), the screen by the
    shipped ones; a profile that is not a field is refused."""
    from sponsio_sim.analysis.balance.adapt import field_adapter
    from sponsio_sim.analysis.balance.objective import table_text
    from sponsio_sim.analysis.balance.recommend import table_rules

    r3 = load_rules(None, 3)
    stages = Stages(screen_n=60, n=120, top=1, adapt=20)
    space = SearchSpace(mult_range="2..2", only=["last"], levers=("troll_pay=0,2",))
    rec = recommend("reference", players=3, space=space, stages=stages, bands=wide(Band(0.0, 1.0)),
                    run=Run(seed=6, cache=False))
    field = parse_profile("reference", r3)
    resolver = field_adapter(r3, field, games=20, seed=6, model=find_model(r3, variant="reference"), cache=False)
    axes = axes_of(r3, space.mult_range, space.params, space.only, space.levers)
    measured = [rec.current, *rec.finalists]
    assert all(c.adapted for c in measured)
    for c in measured:
        expected = resolver(table_rules(r3, axes, c.table)).weights
        assert np.allclose(c.choice.profile.weights, expected)
    assert set(rec.meta["adapted"]) == {table_text(c.table) for c in measured}
    assert any("against the re-solved field" in name for name in side_by_side(rec)["measure"])
    with pytest.raises(UserError, match="field"):
        recommend(FIXED, players=4, space=space, stages=stages, run=Run(seed=6, cache=False))
