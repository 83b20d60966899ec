"""`sponsio meta`: the payoff-table adapter, PSRO and the command's outputs and errors."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc.field import load_field
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.meta import adapter, best_responses
from sponsio_sim.analysis.game.runs import entry_table, run_games
from sponsio_sim.analysis.game.setup import Profile, mixture_profile, parse_strategy
from sponsio_sim.cli import main
from sponsio_sim.rules import load_rules

R3 = load_rules(None, 3)
POP = ["ev0.5:goal:cash3", "troll:goal:never", "ev0:goal:cash4"]


def test_a_profiles_payoffs_are_its_members_win_shares_in_the_same_games():
    members = [parse_strategy(t, R3) for t in POP]
    model = find_model(R3)
    total, total_sq, n = adapter(R3, members, model, cache=False)((2, 0, 1), 240, 11)
    assert list(n) == [240, 0, 240]
    lineup = Profile([members[0], members[0], members[2]])
    t = entry_table(run_games(R3, lineup, 240, rotate=True, seed=11, model=model), lineup, True, R3)
    assert total[0] / 240 == pytest.approx((t.loc[0, "win_share"] + t.loc[1, "win_share"]) / 2, abs=1e-12)
    assert total[2] / 240 == pytest.approx(t.loc[2, "win_share"], abs=1e-12)
    assert np.all(total_sq <= total + 1e-12)          # y in [0, 1]


def test_best_responses_are_paired_against_the_field():
    members = [parse_strategy(t, R3) for t in POP[:2]]
    field = mixture_profile(members, [0.7, 0.3], "eq", R3)
    df = best_responses(R3, field, find_model(R3), n=60, seed=3)
    assert len(df) > 5 and set(df.columns) >= {"strategy", "gain", "gain_low", "gain_high"}
    assert list(df["gain_low"]) == sorted(df["gain_low"], reverse=True)
    assert not set(df["strategy"]) & {m.text for m in members}


def test_meta_command_tables_json_and_field_file(tmp_path):
    pop = tmp_path / "pop.toml"
    pop.write_text('members = ["ev0.5:goal:cash3", "troll:goal"]\n')
    runner = CliRunner()
    (tmp_path / "m").mkdir()
    (tmp_path / "theirs.json").write_text("theirs")
    (tmp_path / "m" / "field.json").symlink_to(tmp_path / "theirs.json")   # replaced, not written through
    out = runner.invoke(main, ["meta", "--population", str(pop), "--players", "3", "-n", "60", "--seed", "2",
                               "--out", str(tmp_path / "m")])
    assert out.exit_code == 0, out.output
    assert not (tmp_path / "m" / "field.json").is_symlink() and (tmp_path / "theirs.json").read_text() == "theirs"
    assert "verdict: equilibrium:" in out.output and "[mixture]" in out.output and "4 profiles" in out.output
    field = load_field(tmp_path / "m" / "field.json")
    assert field.members == ("ev0.5:goal:cash3", "troll:goal:never") and field.players == 3
    assert "sponsio meta" in field.command and (tmp_path / "m" / "payoffs.csv").is_file()
    js = runner.invoke(main, ["meta", "--population", str(pop), "--players", "3", "-n", "60", "--seed", "2",
                              "--format", "json"])
    data = json.loads(js.output)
    assert data["verdict"].startswith("equilibrium:") and len(data["payoffs"]) == 6   # 4 profiles, 6 entries
    assert abs(sum(r["weight"] for r in data["mixture"]) - 1) < 1e-6
    # the field plays as a profile
    t = runner.invoke(main, ["tournament", "--profile", f"field:{tmp_path / 'm' / 'field.json'}", "--players", "3",
                             "-n", "30"])
    assert t.exit_code == 0 and "every seat draws its strategy per game" in t.output


@pytest.mark.parametrize("members, message", [
    ('["ev0.5:goal:cash3", "nope:goal"]', "unknown betting policy 'nope'"),
    ('["ev0.5:goal:cash3"]', "at least 2 strategies"),
    ('["troll:goal", "troll:goal:never"]', "listed twice"),
])
def test_bad_populations_are_one_line(tmp_path, members, message):
    pop = tmp_path / "pop.toml"
    pop.write_text(f"members = {members}\n")
    out = CliRunner().invoke(main, ["meta", "--population", str(pop), "--players", "3", "-n", "10"])
    assert out.exit_code == 2 and out.output.count("\n") == 1 and message in out.output

