"""docs/rules-circus.md sections 1, 3.2 and 5: cards removed per player count, short decks, Caesar favour tickets."""

import json
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from tabletop_mc.errors import UserError
from caesar_sim.analysis import RunSettings, narrated_game, run_games
from caesar_sim.analysis.game.simulation import short_table
from caesar_sim.cli import main
from caesar_sim.kernels import api
from caesar_sim.kernels import layout
from caesar_sim.rules import Removal, kernel_rules, load_rules
from caesar_helpers import weight_table, Table

VENUE_TICKETS = [1, 1, 1, 1, 2, 2]
VISITORS = [1] * 6 + [2] * 5 + [3] * 4


def new_game(players, overrides=None, seed=1):
    """A freshly dealt game (stopped at the first decision): (R, S, log rows)."""
    rulebook = kernel_rules(load_rules(overrides=overrides), players)
    game_state = np.zeros(layout.STATE.size, np.int64)
    game_log = np.zeros((layout.MAX_LOG_ROWS, layout.LOG_FIELDS), np.int64)
    game_log[0, 1] = layout.MAX_LOG_ROWS
    rng = np.array([seed, 2, 3, 4], np.uint64)
    pols = np.full(layout.MAX_PLAYERS, layout.VALUE, np.int64)
    api.k_new_game(rulebook, weight_table, game_state, pols, np.ones(layout.MAX_PLAYERS, np.int64),
                   np.zeros(layout.MAX_PLAYERS, np.int64), rng, game_log,
                   np.zeros(layout.STATS.size))
    return rulebook, game_state, game_log[1:game_log[0, 0] + 1]


def decks(rulebook, game_state):
    """The dealt decks as multisets: tickets (venue, coins), visitors (coins, Caesar = 'C'), favour types."""
    r = layout.RULES.named(rulebook)
    tpv = r["tickets_per_venue"]
    s = layout.STATE.named(game_state)
    tix = Counter((int(i // tpv), int(r["ticket_coins"][i % tpv])) for i in s["ticket_deck"][:s["tickets_dealt"]])
    vis = Counter("C" if i == r["visitor_cards"] else int(r["visitor_coins"][i])
                  for i in s["visitor_deck"][:s["visitors_dealt"]])
    fav = Counter(int(t) for t in s["favour_deck"][:s["favours_dealt"]])
    return tix, vis, fav


# --- point 5: removal

def test_standard_rules_remove_one_of_each_for_three_players_only():
    r = load_rules()
    assert r.removal(3) == Removal((1, 1, 1), ((1,), (1,), (1,)), (1, 2, 3))
    assert r.removal(4).empty() and r.removal(5).empty()
    assert "removed with 3 players" in r.summary() and "removed with 4" not in r.summary()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_dealt_decks_are_the_full_decks_minus_the_removed_cards(players):
    rulebook, game_state, log = new_game(players, ["caesar=true"])
    tix, vis, fav = decks(rulebook, game_state)
    full_tix = Counter((x, c) for x in range(3) for c in VENUE_TICKETS)
    full_vis = Counter(VISITORS + ["C"])
    if players == 3:
        full_tix -= Counter({(0, 1): 1, (1, 1): 1, (2, 1): 1})
        full_vis -= Counter({1: 1, 2: 1, 3: 1})
        assert (sum(tix.values()), sum(vis.values()), sum(fav.values())) == (15, 13, 15)
    assert tix == full_tix and vis == full_vis
    assert fav == Counter({t: 6 - (players == 3) for t in range(3)})
    removed = log[log[:, 0] == layout.EV_REMOVE][:, 1:4].tolist()
    want = ([[layout.RM_TICKET, x, 1] for x in range(3)] + [[layout.RM_VISITOR, 0, c] for c in (1, 2, 3)]
            + [[layout.RM_FAVOUR, t, 0] for t in range(3)]) if players == 3 else []
    assert removed == want


def test_removal_is_a_rule_field_per_player_count():
    rulebook, game_state, log = new_game(4, ["remove.4.visitors=[3,3]", "remove.4.tickets=[[],[2,2],[]]",
                             "remove.4.favours.gold=6"])
    tix, vis, fav = decks(rulebook, game_state)
    assert vis[3] == 2 and sum(vis.values()) == 13
    assert tix[(1, 2)] == 0 and tix[(1, 1)] == 4 and sum(tix.values()) == 16
    assert fav[2] == 0 and sum(fav.values()) == 12
    rulebook, game_state, _ = new_game(3, ["remove.3.visitors=[]", "remove.3.favours.boost=0"])
    tix, vis, fav = decks(rulebook, game_state)
    assert sum(vis.values()) == 15 and fav[0] == 6 and sum(tix.values()) == 15


@pytest.mark.parametrize("override,msg", [
    ("remove.3.visitors=[4]", "remove.3.visitors"),
    ("remove.3.visitors=[3,3,3,3,3]", "remove.3.visitors"),
    ("remove.3.tickets=[[3],[],[]]", "Circus Maximus has no tickets"),
    ("remove.3.tickets=[[1]]", "3 lists of ticket coins"),
    ("remove.3.favours.boost=7", "remove.3.favours.boost"),
    ("remove.4.cards=1", "unknown rule key"),
])
def test_bad_removals_name_the_problem(override, msg):
    # a malformed removal fails as the rule set loads; one that does not fit the decks, in games of its player count
    with pytest.raises(UserError, match=msg):
        load_rules(overrides=[override]).removal(3)


def test_removal_checked_against_an_overridden_deck():
    rules = load_rules(overrides=["tickets.coins=[2,2,3]"])
    with pytest.raises(UserError, match=r"Circus Maximus has no tickets \[1\] to remove"):
        rules.removal(3)
    assert rules.removal(4) == load_rules().removal(4)   # 4-player games remove nothing of it


def test_game_narrates_the_removed_cards():
    res = CliRunner().invoke(main, ["game", "--players", "3", "--verbose", "--seed", "3"])
    assert res.exit_code == 0, res.output
    assert ("Removed before the game: favours boost, double, gold; tickets Circus Maximus 1, Pompeius Theater 1, "
            "Colosseum 1; visitors worth 1, 2, 3.") in res.output
    assert res.output.index("Removed before") < res.output.index("=== Day 1")
    text, _, _ = narrated_game(4, "value x4", seed=3)
    assert "Removed" not in text


# --- point 6: short decks

def setup_table(players=3, overrides=None, tickets=(), visitors=(), day=0):
    """A table whose decks hold exactly ``tickets`` (card ids) and ``visitors`` (card ids), set up for ``day``."""
    t = Table(players=players, overrides=overrides)
    t.state["day"] = day
    t.state["tickets_dealt"] = len(tickets)
    t.state["ticket_deck"][:len(tickets)] = tickets
    t.state["visitors_dealt"] = len(visitors)
    t.state["visitor_deck"][:len(visitors)] = visitors
    api.k_setup_day(t.rulebook, t.game_state, t.game_log, t.game_stats)
    return t


def test_ticket_deck_runs_out_the_day_shows_what_is_left():
    t = setup_table(tickets=[0, 6], visitors=list(range(10)))   # 3 wanted, 2 left
    assert t.state["tickets_shown"] == 2
    assert t.events(layout.EV_SHORT) == [(layout.SHORT_TICKETS, 1, 0, 0, 0, 0, 0, 0)]
    assert list(t.game_stats[layout.STATS.short:layout.STATS.short + 3]) == [1, 0, 1]


def test_special_ticket_missing_counts_as_short():
    t = setup_table(tickets=[0, 6, 12], visitors=list(range(10)), day=2)  # day 3: 3 + 2 specials wanted
    assert t.state["tickets_shown"] == 3 and t.state["specials"][:3].sum() == 0
    assert t.events(layout.EV_SHORT) == [(layout.SHORT_TICKETS, 2, 0, 0, 0, 0, 0, 0)]


def test_visitor_deck_runs_out_including_caesar_extras():
    t = setup_table(tickets=[0, 1, 2], visitors=[3])            # 3 Circus tickets: 2 visitors wanted, 1 left
    assert t.state["visitors_shown"][0] == 1
    assert t.events(layout.EV_SHORT) == [(layout.SHORT_VISITORS, 1, 0, 0, 0, 0, 0, 0)]
    assert list(t.game_stats[layout.STATS.short:layout.STATS.short + 3]) == [0, 1, 1]
    t = setup_table(overrides=["caesar=true"], tickets=[0, 1, 6], visitors=[15, 4])  # Caesar brings 2, 1 left
    assert t.state["caesar"] == 0 and t.state["visitors_shown"][0] == 1
    assert t.events(layout.EV_SHORT) == [(layout.SHORT_VISITORS, 1, 0, 0, 0, 0, 0, 0)]


def test_full_decks_are_never_short_and_narration_is_silent():
    t = setup_table(tickets=list(range(18)), visitors=list(range(15)), day=2)
    assert t.events(layout.EV_SHORT) == [] and t.game_stats[layout.STATS.short + 2] == 0


def test_simulate_reports_the_share_of_short_days():
    # 4 players, 6 tickets a day: 6 + 7 of 18 tickets on days 1-2, so day 3 (8 wanted) is always short
    b = run_games(4, "value x4", 300, RunSettings(seed=2, overrides=["tickets_per_day=6"], progress=False))
    tab = short_table(b).set_index("short_of")
    assert tab.loc["tickets", "share"] == pytest.approx(1 / 3) and tab.loc["tickets", "n_days"] == 900
    assert tab.loc["tickets", "ci_low"] < 1 / 3 < tab.loc["tickets", "ci_high"]
    assert tab.loc["tickets or visitors", "share"] >= tab.loc["tickets", "share"]
    for players in (3, 4, 5):  # the standard decks last three days at every player count
        b = run_games(players, f"value x{players}", 200, RunSettings(seed=2, progress=False))
        assert short_table(b)["share"].max() == 0


def test_narration_says_when_a_deck_runs_out_and_the_day_shows_what_is_left():
    # 3 players after the removal hold 15 tickets; 5 a day + specials 0/1/2 want 18
    text, _, _ = narrated_game(3, "value x3", seed=4, overrides=["tickets_per_day=5"])
    days = text.split("=== Day")[1:]
    assert ["run out" in d for d in days] == [False, False, True]
    assert "the ticket deck has run out: 3 tickets short today" in days[2]
    tickets = [d.split("  tickets: ")[1].split("\n")[0].count(",") + 1 for d in days]
    assert tickets == [5, 6, 4]


# --- point 7: the Caesar card, favours as tickets for every player

def caesar_table(favour_tickets=1, venue=1):
    t = Table(players=3, phase=2, overrides=["caesar=true", f"caesar_card.favour_tickets={favour_tickets}"])
    t.state["caesar"] = venue
    for p in range(3):
        t.state["hand"][p] = 0                     # no merchant coins: the score is the venue's alone
    return t


def test_two_players_use_favours_as_tickets_on_the_same_day():
    t = caesar_table()
    t.give_ticket(0, 1, 1)
    for c in (3, 2):
        t.give_visitor(0, 1, c)                   # seat 0: ticket + visitor 3, favour + visitor 2
    t.state["favours"][0, layout.BOOST] = 1
    t.give_visitor(2, 1, 3)                       # seat 2: no ticket, a gold favour serves for the 3
    t.state["favours"][2, layout.GOLD] = 1
    assert t.score() == [1 + 3 + 2, 0, 3]
    assert t.events(layout.EV_FAVOUR_TICKET) == [(0, 1, 2, layout.BOOST, 0, 0, 0, 0),
                                                 (2, 1, 3, layout.GOLD, 0, 0, 0, 0)]
    assert t.game_stats[layout.STATS.favours + 2] == 1 and t.game_stats[layout.STATS.favours + 8 + 2] == 1


@pytest.mark.parametrize("allow", [0, 1, 2, 3])
def test_a_player_uses_up_to_favour_tickets_favours(allow):
    t = caesar_table(favour_tickets=allow)
    for c in (3, 3, 3):
        t.give_visitor(1, 1, c)
    t.state["favours"][1] = 1, 1, 1        # boost, double and gold (gold is used last)
    gold_left = 1 if allow < 3 else 0
    assert t.score()[1] == 3 * allow + 2 * gold_left
    assert len(t.events(layout.EV_FAVOUR_TICKET)) == allow


def test_gold_is_kept_rather_than_used_for_a_cheap_visitor():
    t = caesar_table(favour_tickets=3)
    for c in (3, 2, 1):
        t.give_visitor(1, 1, c)
    t.state["favours"][1] = 1, 1, 1
    assert t.score()[1] == 3 + 2 + 2              # the 1-coin visitor is not worth the gold favour's 2


def test_favour_tickets_only_at_the_caesar_venue():
    t = caesar_table(venue=0)
    t.give_visitor(1, 1, 3)
    t.state["favours"][1, layout.BOOST] = 1
    assert t.score()[1] == 0 and t.events(layout.EV_FAVOUR_TICKET) == []


def test_players_without_tickets_bid_and_score_at_the_caesar_venue():
    t = caesar_table()
    t.visitors(1, [3, 3, 1])
    for p in range(3):
        t.state["hand"][p] = 0b11111111
        t.state["favours"][p, layout.DOUBLE] = 1              # a double favour each, no tickets
    t.play(0, 8, venue=1)
    t.play(2, 7, venue=1)
    t.resolve()
    t.state["hand"][:3] = 0
    assert t.score() == [3, 0, 3]
    assert [e[0] for e in t.events(layout.EV_FAVOUR_TICKET)] == [0, 2]


@pytest.mark.parametrize("allow", [1, 0])
def test_value_bids_for_a_caesar_visitor_with_a_favour_and_no_ticket(allow):
    t = caesar_table(favour_tickets=allow)
    t.visitors(1, [3])
    t.state["hand"][1] = 0b11111111
    t.state["favours"][1, layout.DOUBLE] = 1                  # a double favour, no ticket
    t.state["passed"][0] = t.state["passed"][2] = 1
    t.state["turn"] = 1
    a = int(api.k_decide(t.rulebook, weight_table, t.game_state, t.rng))
    if allow:
        assert a >= 0 and (a // layout.MERCHANT_VALUES) % layout.ROWS == 3  # row 3: the Pompeius Theater, the Caesar venue
    else:
        assert a == -1


def test_simulate_cli_prints_the_short_decks_table():
    res = CliRunner().invoke(main, ["simulate", "--players", "4", "--profile", "value x4", "-n", "40",
                                    "--no-favour-value", "--set", "tickets_per_day=6", "--format", "json"])
    rows = {r["short_of"]: r for r in json.loads(res.output)["short_decks"]}
    assert rows["tickets"]["share"] == pytest.approx(1 / 3, abs=0.001) and rows["tickets"]["n_days"] == 120
