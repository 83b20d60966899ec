"""Sponsio's designer views on a few seeded games: the PAR sheet is `sponsio balance`'s bet table
with its shares and contributions, the logged rounds add up to the coins, the tables carry CIs and n."""

import numpy as np
import pytest

from sponsio_sim.analysis import views
from sponsio_sim.analysis.balance.run import run_balance
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.analysis.game.runs import run_games
from sponsio_sim.rules import load_rules

CI = ["n", "value", "ci_low", "ci_high"]


@pytest.fixture(scope="module")
def field():
    rules = load_rules(None, 4)
    return rules, resolve("reference", rules)


def test_par_sheet_is_the_balance_bet_table_with_shares_that_add_up(field):
    rules, lineup = field
    totals = run_games(rules, lineup.strategies, 300, rotate=False, seed=3, model=lineup.model)
    par = views.par_sheet(totals, rules)
    bets = run_balance(rules, "reference", 300, seed=3, model=lineup.model, cache=False, rotate=False).bets
    same = par.set_index("bet").loc[bets["bet"]]
    np.testing.assert_allclose(same["hit"], bets["hit"].to_numpy())
    np.testing.assert_allclose(same["hit_low"], bets["hit_low"].to_numpy())
    assert (same["placed"].to_numpy() == bets["placed"].to_numpy()).all()
    assert par["share_of_bets"].sum() == pytest.approx(1.0) and par["share_of_payouts"].sum() == pytest.approx(1.0)
    placed = par["placed"].to_numpy(dtype=float)
    overall_ev = (par["ev_per_coin"] * placed).sum() / placed.sum()
    assert par["contribution_to_return"].sum() == pytest.approx(overall_ev)
    assert (par["hit_low"] <= par["hit"]).all() and (par["hit"] <= par["hit_high"]).all()
    assert par["multiplier"].dtype.kind == "i" and (par["break_even"] == 1 / par["multiplier"]).all()
    seats, line = views.seat_view(totals, 4)
    assert seats["win_share"].sum() == pytest.approx(1.0)
    assert list(seats["rank"]).count("best") == 1 and "best seat" in line and "worst seat" in line


def test_logged_rounds_add_up_to_the_coins_and_the_tables_carry_intervals(field):
    rules, lineup = field
    pl = views.played(rules, lineup.strategies, lineup.model, 40, seed=5)
    start = np.full((len(pl.rounds), 1, 4), pl.start)
    gained = np.diff(np.concatenate([start, pl.coins], axis=1), axis=1).sum(axis=2)
    np.testing.assert_allclose(gained, pl.ledger.sum(axis=2) * 4, atol=1e-9)   # the ledger explains every coin
    final = pl.coins[np.arange(40), pl.rounds - 1]
    coins_end = pl.reason == views.END_REASONS.index("coins")
    assert (final[coins_end].max(axis=1) >= pl.coins_to_end).all()
    assert pl.winners.any(axis=1).all()
    ends = views.end_reasons(pl)
    assert ends[ends["measure"].str.startswith("ended")]["value"].sum() == pytest.approx(1.0)
    for table in (views.money_by_round(pl), ends, views.drama(pl), views.flow_by_round(pl)):
        assert set(CI) <= set(table.columns)
        ok = table.dropna(subset=["ci_low"])
        assert len(ok) and ((ok["ci_low"] <= ok["value"] + 1e-12) & (ok["value"] <= ok["ci_high"] + 1e-12)).all()
    margins = views.drama(pl)
    assert margins[margins["statistic"] == "share of games"]["value"].sum() == pytest.approx(1.0)
