"""The scored betting policies (``ev``, its softmax, ``random``, ``distilled``) are compiled only
into runs that can seat one (``kernels.betting.dispatch``): which entries a field can seat, the
switch each profile gets, and the same numbers with them compiled in or out."""

import numpy as np
import pytest

from tabletop_mc.field import Field
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.analysis.game.setup import Profile, build_state, parse_strategy, rulebook
from sponsio_sim.kernels.betting.dispatch import choose_action
from sponsio_sim.kernels.betting.policies import choose_end_token
from sponsio_sim.kernels.field import field_entry, seatable
from sponsio_sim.kernels.game.engine import game_chunk, mc_switch, scored_switch, start_game, switches
from sponsio_sim.kernels.layout import DOUBLE_TOKEN, MONEY_RULES, STATS_HEAD, stats_size
from sponsio_sim.rules import load_rules

R4 = load_rules(None, 4)
NET = "net:goal:net"


def field(members, weights):
    f = Field("sponsio", 4, "standard-4p", tuple(parse_strategy(m, R4).text for m in members), tuple(weights))
    return Profile([parse_strategy(m, R4) for m in members], f, "test field")


def state(profile, focal=-1):
    lineup = resolve(profile, R4)
    return build_state(R4, lineup.strategies, lineup.model, rotate=True, focal=focal)


def draws(game_state, money, entries):
    """Every entry ``field_entry`` returns over a fine grid of u and at each cumulative weight's edges."""
    cum = rulebook(game_state)[1][MONEY_RULES.field_mix:MONEY_RULES.field_mix + entries]
    us = [0.0, 1.0 - 2.0 ** -53, *np.linspace(0.0, 1.0, 20001)[:-1]]
    for c in cum:
        if 0.0 < c <= 1.0:
            us += [float(c), float(np.nextafter(c, 0.0))]
    return {int(field_entry(u, game_state, money)) for u in us if u < 1.0}


@pytest.mark.parametrize("weights", [(0.0, 0.5, 0.0, 0.5, 0.0), (0.1, 0.2, 0.7, 0.0, 0.0),
                                     (0.3, 0.0, 0.0, 0.0, 0.7), (1.0, 0.0, 0.0, 0.0, 0.0)])
def test_a_field_seats_exactly_the_entries_a_draw_can_return(weights):
    members = ("ev0.5:goal:cash3", NET, "distilled:goal:cash3", "troll:goal", "random:goal")
    _, game_state, money = state(field(members, weights))
    can = {e for e in range(len(members)) if seatable(np.int64(e), game_state)}
    assert draws(game_state, money, len(members)) <= can                    # never one a draw can return and the check misses
    assert {e for e, w in enumerate(weights) if w > 0} == can  # and no zero-weight entry here
    _, focal_state, _ = state(field(members, weights), focal=len(members) - 1)
    assert seatable(np.int64(len(members) - 1), focal_state)  # the focal entry, whatever its weight


@pytest.mark.parametrize("profile, on", [
    (f"{NET} x4", False),
    ("reference", False),                                     # the shipped 4-player field: net alone
    (f"troll:goal:cash5 x2, {NET} x2", False),
    ("ev:goal:cash3 x4", True),
    (f"{NET} x3, random:goal", True),
    (f"{NET} x3, ev0.5:goal:cash3:temp=0.5", True),
    (f"mc:goal:cash5, {NET} x3", True),                       # an mc seat's rollouts bet by ev
])
def test_the_switch_is_on_only_where_a_scored_policy_can_bet(profile, on):
    _, game_state, _ = state(profile)
    assert scored_switch(game_state) is (True if on else None)


def test_a_run_of_several_states_switches_on_if_any_needs_it():
    _, net_state, _ = state(f"{NET} x4")
    _, ev_state, _ = state("ev:goal:cash3 x4")
    assert scored_switch(net_state, net_state) is None
    assert scored_switch(net_state, ev_state) is True
    _, mc_state, _ = state(f"mc:goal:cash5, {NET} x3")
    assert switches(net_state) == (None, None)
    scored, mc_seats = switches(net_state, mc_state)           # the first state with an mc entry gives its record
    assert scored is True and mc_seats is not None and mc_seats.shape[0] == 1
    with pytest.raises(ValueError, match="rulebook"):
        scored_switch(np.zeros_like(net_state))


def test_compiled_out_or_in_a_field_plays_the_same_games():
    """A field whose zero-weight members bet by ev and distilled: the games are the same with the
    scored policies compiled out (its switch) and in."""
    members = (NET, "ev0.5:goal:cash3", "troll:goal:cash5", "distilled:goal:cash3")
    board, game_state, money = state(field(members, (0.6, 0.0, 0.4, 0.0)))
    assert scored_switch(game_state) is None
    rows = []
    for scored in (None, True):
        row = np.zeros(stats_size(4, len(members)))
        game_chunk(np.uint64(11), np.int64(0), np.int64(6), board.copy(), game_state.copy(), money.copy(), row,
                   np.zeros((1, 8)), scored, mc_switch(game_state))
        rows.append(row)
    assert rows[0][STATS_HEAD.games] == 6
    assert np.array_equal(rows[0], rows[1])


def test_a_scored_seat_in_a_run_compiled_without_them_is_refused():
    for profile in ("ev:goal:cash3 x4", "random:goal x4"):
        board, game_state, money = state(profile)
        start_game(np.int64(0), game_state, money)
        rng = np.array([1, 2, 3, 4], dtype=np.uint64)
        with pytest.raises(ValueError, match="compiled without them"):
            choose_action(np.int64(0), board, game_state, money, rng, None)
        if profile.startswith("random"):   # ev, distilled and net use their tokens alike (ev_end_token)
            with pytest.raises(ValueError, match="compiled without them"):
                choose_end_token(np.int64(0), DOUBLE_TOKEN, board, game_state, money, rng, None)
