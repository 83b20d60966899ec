"""Policy decisions on hand-built tables."""

from caesar_sim.kernels import api
from caesar_sim.kernels import layout
from caesar_helpers import weight_table, Table


def decide(t, p):
    t.state["turn"] = p
    return int(api.k_decide(t.rulebook, weight_table, t.game_state, t.rng))


def decode(a):
    return (a % layout.MERCHANT_VALUES + 1, (a // layout.MERCHANT_VALUES) % layout.ROWS,
            a // (layout.MERCHANT_VALUES * layout.ROWS)) if a >= 0 else None


def test_greedy_bids_the_cheapest_card_that_still_wins():
    t = Table(phase=2, policy=layout.GREEDY)
    t.visitors(1, [3, 2])
    t.give_ticket(0, 1, 1)
    t.play(1, 6, venue=1)
    t.play(2, 4, venue=1)                         # two visitors, both claimed: need more than 4
    t.state["hand"][0] = 0b10110011                # holds 1, 2, 5, 6, 8
    assert decode(decide(t, 0)) == (5, 3, 0)      # 5 goes between the 6 and the 4
    t.state["hand"][0] = 0b00001111                # only 1..4: nothing wins -> pass
    assert decide(t, 0) == -1
    t.state["favours"][0, layout.BOOST] = 1                          # with a boost, 2 + 3 = 5 wins
    assert decode(decide(t, 0)) == (2, 3, 1)


def test_greedy_and_value_want_no_visitor_without_a_ticket():
    for pol in (layout.GREEDY, layout.VALUE):
        t = Table(phase=2, policy=pol)
        t.visitors(0, [3, 3])
        assert decide(t, 0) == -1


def test_value_takes_a_visitor_that_fills_its_ticket_cheaply():
    t = Table(phase=2, policy=layout.VALUE)
    t.visitors(2, [3])
    t.give_ticket(1, 2, 2)
    for p in (0, 2, 3):
        t.state["passed"][p] = 1                     # nobody else can still outbid
    v, row, fav = decode(decide(t, 1))
    assert row == 4 and fav == 0 and v == 1       # 1 coin-free merchant wins 3 + 2 coins


def test_no_favours_in_phase_one_and_random_actions_are_legal():
    t = Table(phase=0, policy=layout.RANDOM)
    t.favours(boost=2, double=2)
    t.state["favours"][0] = 1, 1, 1
    t.state["hand"][0] = 0b00100100                    # 3 and 6 only
    seen = set()
    for _ in range(200):
        a = decide(t, 0)
        seen.add(a)
    assert seen == {-1, 2, 5}                     # pass, 3 or 6 at the villa; never with a favour
    t.state["phase"] = 2
    seen = {decode(decide(t, 0)) for _ in range(600)}
    assert {d for d in seen if d and d[2] == 2} and all(d is None or (d[0] in (3, 6) and d[1] >= 2) for d in seen)
    assert not any(d and d[2] == 3 for d in seen)
    assert len(seen) == 1 + 2 * 3 * 3
