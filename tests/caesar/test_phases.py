"""Hand-built phases: row placement, resolution, start card, favours, specials, scoring, Caesar."""

import numpy as np
from hypothesis import given, settings, strategies as st

from caesar_sim.kernels import layout
from caesar_helpers import Table
from caesar_reference import ref_row, ref_venue_score


def test_equal_values_go_to_the_right_and_rows_descend():
    t = Table(phase=1)
    t.tickets((0, 0), (1, 0), (2, 0))
    t.play(0, 5)
    t.play(1, 7)
    t.play(2, 5)
    t.play(3, 6)
    t.play(0, 7)
    assert t.row(1) == [(1, 7, 7), (0, 7, 7), (3, 6, 6), (0, 5, 5), (2, 5, 5)]


def test_items_run_out_and_later_cards_get_nothing():
    t = Table(phase=1)
    t.tickets((0, 0), (1, 4))
    t.visitors(0, [2])
    t.visitors(1, [3])
    for p, v in ((0, 3), (1, 8), (2, 5), (3, 1)):
        t.play(p, v)
    t.resolve()
    items = {(p, v): k for p, v, k in t.card_items()}
    assert items == {(1, 8): 1, (2, 5): 1, (0, 3): 0, (3, 1): 0}
    assert t.state["tickets_shown"] == 0
    assert len(t.events(layout.EV_NOTHING)) == 2


def test_unclaimed_items_stay_and_are_counted():
    t = Table(phase=2)
    t.visitors(0, [1, 2, 3])
    t.visitors(2, [3])
    t.give_ticket(0, 0, 1)
    t.play(0, 4, venue=0)
    t.resolve()
    assert t.held_visitors(0, 0) == [3]          # the taker picks the best visitor
    assert t.state["visitors_shown"][0] == 2 and t.state["visitors_shown"][2] == 1
    assert t.stats["unclaimed"][3, 0] == 3               # three visitors left unclaimed today


def test_start_card_goes_to_leftmost_merchant_when_nobody_takes_it():
    t = Table(phase=0, start=2)
    t.favours(boost=1, double=0, gold=1)
    t.play(2, 2)
    t.play(3, 6)
    t.resolve()                                   # two cards, two favours: the start card is left over
    assert t.fav(3)[2] == 1 and t.fav(2)[0] == 1  # 6 takes gold (2 coins), 2 takes boost
    assert t.state["start"] == 3                    # owner of the leftmost card (the 6)
    assert t.events(layout.EV_START_CARD_FALLS) == [(3, 0, 0, 0, 0, 0, 0, 0)]
    assert t.stats["start_card"][1] == 1


def test_start_card_taken_as_an_item_and_stays_when_nobody_bids():
    t = Table(phase=0, start=1)
    t.favours(start_card=True)
    t.play(0, 3)
    t.resolve()
    assert t.state["start"] == 0 and t.stats["start_card"][0] == 1
    t = Table(phase=0, start=1)
    t.favours(boost=2)
    t.resolve()
    assert t.state["start"] == 1 and t.stats["start_card"][2] == 1


def test_boost_counts_higher_and_double_takes_two_items():
    t = Table(phase=1)
    t.tickets((0, 0), (0, 1), (1, 4), (2, 5))
    for x in range(3):
        t.visitors(x, [2, 2])
    t.state["favours"][0, layout.BOOST] = 1                  # seat 0 holds a boost
    t.state["favours"][1, layout.DOUBLE] = 1                  # seat 1 holds a double
    t.play(2, 7)
    t.play(0, 5, fav=1)                           # counts 8: left of the 7
    t.play(1, 6, fav=2)
    t.play(3, 2)
    assert [o for o, _, _ in t.row(1)] == [0, 2, 1, 3]
    assert t.fav(0)[0] == 0 and t.fav(1)[1] == 0  # favours are used up
    t.resolve()
    items = {p: k for p, v, k in t.card_items()}
    assert items == {0: 1, 2: 1, 1: 2, 3: 0}
    assert t.game_stats[layout.STATS.favours + 1] == 1 and t.game_stats[layout.STATS.favours + 4 + 1] == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 8), st.integers(0, 2)), min_size=0, max_size=12),
       st.integers(0, 6))
def test_resolution_matches_reference(bids, n_items):
    """Row order and items per card agree with a plain sort-and-deal reference."""
    t = Table(phase=1)
    t.tickets(*[(i % 3, i % 6) for i in range(n_items)])
    for x in range(3):
        t.visitors(x, [1, 2, 3])
    used = set()
    clean = []
    for p, v, f in bids:
        if (p, v) in used:
            continue
        used.add((p, v))
        t.state["favours"][p, f - 1] += f > 0
        t.play(p, v, fav=f)
        clean.append((p, v, f))
    order, got = ref_row(clean, int(t.rules["boost_value"]), int(t.rules["double_items"]), n_items)
    assert t.row(1) == order
    t.resolve()
    assert [k for _, _, k in t.card_items()] == got
    assert t.state["tickets_shown"] == n_items - sum(got)


def test_special_events_give_coin_cards_two_on_one_venue_and_supply_runs_out():
    t = Table(phase=1, overrides=["coin_cards.count=3"])
    t.state["specials"][2] = 2                         # two special events at the Colosseum
    t.state["specials"][0] = 1
    t.state["bank_coins"] = 3
    t.tickets((2, 0), (2, 1), (0, 0), (1, 0))
    t.play(0, 8)
    t.play(1, 7)
    t.play(2, 6)
    t.play(3, 5)
    t.rules["coin_cards"] = 3
    t.state["policy"][:4] = layout.RANDOM           # take tickets in whatever order
    t.resolve()
    cc = [int(t.state["coin_cards"][p]) for p in range(4)]
    venue_of = {p: [x for x in range(3) if t.held_tickets(p, x)][0] for p in range(4)}
    want, left = [], 3
    for p in range(4):                            # resolution order is seats 0..3 (8, 7, 6, 5)
        k = min({2: 2, 0: 1, 1: 0}[venue_of[p]], left)
        want.append(k)
        left -= k
    assert cc == want and t.state["bank_coins"] == left


def test_day_setup_special_ticket_lays_a_visitor_at_its_venue():
    t = Table(players=3, overrides=["special_tickets=[0,1,2]"])
    t.state["day"] = 2
    t.state["tickets_dealt"] = 18
    t.state["ticket_deck"][:18] = [0, 6, 12, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    t.state["ticket_deck"][3] = 13                       # specials: Colosseum twice
    t.state["ticket_deck"][4] = 14
    t.state["visitors_dealt"] = 15
    t.state["visitor_deck"][:15] = np.arange(15)
    from caesar_sim.kernels import api
    api.k_setup_day(t.rulebook, t.game_state, t.game_log, t.game_stats)
    assert t.state["tickets_shown"] == 5
    assert list(t.state["specials"][:3]) == [0, 0, 2]
    assert list(t.state["visitors_shown"][:3]) == [0, 0, 2]   # 1 ticket per venue -> 0 visitors, +2 specials


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 2), max_size=3), st.lists(st.integers(1, 3), max_size=4),
       st.integers(0, 2), st.integers(0, 2), st.booleans(), st.integers(0, 255), st.integers(0, 3))
def test_scoring_matches_brute_force(tickets, visitors, plain, gold, caesar, hand, cc):
    """Visitor assignment, unplayed merchants, coin cards, gold and Caesar favour tickets."""
    t = Table(players=3, phase=2, overrides=["caesar=true"])
    for c in tickets:
        t.give_ticket(1, 0, c)
    for c in visitors:
        t.give_visitor(1, 0, c)
    t.state["favours"][1] = plain, 0, gold
    t.state["hand"][1] = hand
    t.state["coin_cards"][1] = cc
    t.state["caesar"] = 0 if caesar else -1
    coins = [0, 0, 1, 1, 2, 2, 3, 3]
    merch = sum(coins[v] for v in range(8) if hand >> v & 1)
    allow = int(t.rules["caesar_favour_tickets"]) if caesar else 0
    want = merch + cc + 2 * gold + ref_venue_score(tickets, visitors, plain if caesar else 0,
                                                   gold if caesar else 0, allow)
    assert t.score()[1] == want


def test_unplayed_merchants_score_their_coins():
    t = Table(players=3, phase=2)
    t.state["hand"][0] = 0b10100001                # 1, 6 and 8 unplayed: 0 + 2 + 3
    assert t.score()[0] == 5
    assert t.score()[2] == 2 * 12                 # full hand (12 coins) scored twice: totals add up


def test_caesar_card_brings_two_more_visitors():
    t = Table(players=3, overrides=["caesar=true"])
    t.state["tickets_dealt"] = 18
    t.state["ticket_deck"][:3] = [0, 1, 2]      # three Circus Maximus tickets -> 2 visitors
    t.state["visitors_dealt"] = 16
    t.state["visitor_deck"][:16] = [15, 14, 13, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]  # 15 = Caesar
    from caesar_sim.kernels import api
    api.k_setup_day(t.rulebook, t.game_state, t.game_log, t.game_stats)
    assert t.state["caesar"] == 0
    assert t.state["visitors_shown"][0] == 3                      # Caesar took a slot; 2 extra + 1 more visitor
    assert t.state["next_visitor"] == 4
