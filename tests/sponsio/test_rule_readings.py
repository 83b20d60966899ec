"""Fail bets that wait on each other (docs/rules-sponsio.md section 4, "Settling fail bets") and the
readings the seed leaves open (``nines_scope``, ``fail_target``,
``round_bonus_basis``, ``track_top``): each settled by hand, on the kernels'
own entry points, and the settlement kernel against the plain reference."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sponsio_sim.bets import ANY_SEAT, Bet, catalogue, parse_bet
from sponsio_sim.kernels.layout import END_TRACK, MAX_BETS
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.bets import BET_FIELDS, settle
from sponsio_sim.kernels.game.engine import end_check
from sponsio_sim.rules import load_rules
from tabletop_mc.errors import UserError

from sponsio_reference import settle_reference
from sponsio_helpers import outcome, play_deal_raw
from test_game_rules import Table

R4 = load_rules("standard-4p")


def settle_placed(placed, lost=(), players=4, rules=R4, nine_lost=0):
    """Settle bets given in placement order as (seat, bet text); every plain
    bet in ``lost`` (seat, text) fails, every other plain bet is made to win.
    Returns the outcomes in placement order."""
    codes = np.zeros((players, MAX_BETS, BET_FIELDS), dtype=np.int64)
    counts = np.zeros(players, dtype=np.int64)
    where = []
    for rank, (seat, text) in enumerate(placed):
        bet = parse_bet(text, rules, seat)
        i = counts[seat]
        codes[seat, i, :3] = bet.code()
        codes[seat, i, 3] = rank
        counts[seat] += 1
        where.append((seat, i))
    # Plain bets: tricks=N wins iff the seat took N tricks; make it lose by taking N + 1.
    tricks = np.zeros(players, dtype=np.int64)
    for seat, text in placed:
        bet = parse_bet(text, rules, seat)
        if bet.kind == "tricks":
            tricks[seat] = bet.a + (1 if (seat, text) in lost else 0)
    board, game_state = outcome(rules, tricks)
    result = np.zeros((players, MAX_BETS), dtype=np.int64)
    failed = np.zeros(players, dtype=np.bool_)
    settle(codes, counts, board, game_state, nine_lost, result, failed)
    return [bool(result[s, i]) for s, i in where]


# ---- fail bets that wait on each other --------------------------------------------------------

def test_chain_of_three_settles_as_the_definition_says():
    # 0 bets on 1, 1 bets on 2, 2 holds a plain bet.
    bets = [(0, "fail:1"), (1, "fail:2"), (2, "tricks=2")]
    assert settle_placed(bets, lost=[(2, "tricks=2")]) == [False, True, False]   # 2 failed, so 1 is clean
    assert settle_placed(bets) == [True, False, True]                          # 2 clean: 1 failed, 0 wins
    # The same chain placed the other way round settles the same: a chain has no cycle.
    assert settle_placed(bets[::-1]) == [True, False, True][::-1]


def test_mutual_pair_the_earliest_placed_bet_loses_in_both_orders():
    a_first = [(3, "tricks=1"), (1, "tricks=2"), (3, "fail:1"), (1, "fail:3")]
    assert settle_placed(a_first) == [True, True, False, True]
    b_first = [(3, "tricks=1"), (1, "tricks=2"), (1, "fail:3"), (3, "fail:1")]
    assert settle_placed(b_first) == [True, True, False, True]
    # A failed plain bet decides the pair without breaking a cycle.
    assert settle_placed(a_first, lost=[(1, "tricks=2")]) == [True, False, True, False]


def test_three_seat_cycle_breaks_at_its_earliest_bet():
    cycle = [(0, "fail:1"), (1, "fail:2"), (2, "fail:0")]
    # 0's bet loses (earliest), so 0 failed: 2's bet on 0 wins, 2 is clean: 1's bet on 2 loses.
    assert settle_placed(cycle) == [False, False, True]
    rotated = [(1, "fail:2"), (2, "fail:0"), (0, "fail:1")]
    assert settle_placed(rotated) == [False, False, True]     # now 1's bet is the earliest


def test_a_bet_that_waits_on_a_cycle_is_never_the_one_broken():
    # Seat 0's fail:1, placed before the pair's bets, waits on the 1 <-> 2 cycle without being on it:
    # the pair breaks at its own earliest bet (1's fail:2 loses), so seat 1 failed and 0's bet wins.
    before = [(0, "fail:1"), (1, "tricks=2"), (2, "tricks=1"), (1, "fail:2"), (2, "fail:1")]
    assert settle_placed(before) == [True, True, True, False, True]
    after = before[1:] + before[:1]      # placed after the cycle's bets: the very same outcome
    assert settle_placed(after) == [True, True, False, True, True]
    # ... and a plain bet of seat 1 that fails decides everything without a cycle to break
    assert settle_placed(before, lost=[(1, "tricks=2")]) == [True, False, True, False, True]


def test_the_spec_mutual_pair_with_a_third_seat_placed_before_both():
    # A = seat 1 (fail:B placed first), B = seat 2 (fail:A later), every other bet of both won;
    # C = seat 0 placed its bet before both: it settles by the definition.
    pair = [(1, "tricks=2"), (2, "tricks=1"), (1, "fail:2"), (2, "fail:1")]
    assert settle_placed([(0, "fail:1")] + pair) == [True, True, True, False, True]    # C's fail:A wins
    assert settle_placed([(0, "fail:2")] + pair) == [False, True, True, False, True]   # C's fail:B loses


def test_a_bet_waiting_on_a_three_seat_cycle():
    placed = [(3, "fail:0"), (0, "fail:1"), (1, "fail:2"), (2, "fail:0")]
    # 0's fail:1 is the cycle's earliest bet: 0 failed, so 2's and 3's fail:0 win; 2 is clean: 1's loses
    assert settle_placed(placed) == [True, False, False, True]


def test_fail_bet_on_a_troll_loses_and_is_never_paid_while_the_target_failed_nothing():
    assert settle_placed([(0, "fail:2"), (1, "tricks=0")]) == [False, True]
    assert settle_placed([(0, "fail:1"), (1, "tricks=0")]) == [False, True]


FAIL_SEAT = st.tuples(st.integers(0, 3), st.integers(0, 3)).filter(lambda p: p[0] != p[1])


@settings(max_examples=300, deadline=None)
@given(fails=st.lists(FAIL_SEAT, max_size=8, unique_by=lambda p: p[0]),
       plain=st.lists(st.tuples(st.integers(0, 3), st.booleans()), max_size=4, unique_by=lambda p: p[0]),
       order=st.randoms(use_true_random=False))
def test_kernel_settlement_matches_the_reference(fails, plain, order):
    placed = [(s, f"fail:{t}") for s, t in fails] + [(s, "tricks=1") for s, _ in plain]
    order.shuffle(placed)
    lost = [(s, "tricks=1") for s, ok in plain if not ok]
    got = settle_placed(placed, lost=lost)
    ref = settle_reference([(s, ("fail", int(t[5:])) if t.startswith("fail") else ("tricks", 1))
                            for s, t in placed],
                           lambda s, b: (s, "tricks=1") not in lost, 4)
    assert got == ref
    for (s, text), won in zip(placed, got):
        if text.startswith("fail") and won:     # never paid while its target failed nothing
            target = int(text[5:])
            assert any(not w for (t2, _), w in zip(placed, got) if t2 == target)


# ---- nines_scope --------------------------------------------------------------------------------

def test_nines_scope_own_judges_only_the_bettors_nines():
    r = load_rules("standard-4p", overrides=["hand_size=1"])
    own = load_rules("standard-4p", overrides=["hand_size=1", "nines_scope=own"])
    # Seat 0 leads R9 (wins); seat 1 cannot follow and discards B9, which loses.
    _, _, _, nine_lost = play_deal_raw(r, ["R9", "B9", "R1", "R2"])
    assert nine_lost == 0b0010
    assert settle_placed([(0, "nines")], rules=r, nine_lost=nine_lost) == [False]
    assert settle_placed([(0, "nines")], rules=own, nine_lost=nine_lost) == [True]
    assert settle_placed([(1, "nines")], rules=own, nine_lost=nine_lost) == [False]


# ---- fail_target --------------------------------------------------------------------------------

def test_fail_target_any_is_written_fail_and_wins_when_any_other_seat_fails():
    anyr = load_rules("standard-4p", overrides=["fail_target=any"])
    assert parse_bet("fail", anyr, 0) == Bet("fail", ANY_SEAT)
    with pytest.raises(UserError, match="write 'fail'"):
        parse_bet("fail:1", anyr, 0)
    with pytest.raises(UserError, match="name the seat"):
        parse_bet("fail", R4, 0)
    assert [b.notation(anyr) for b in catalogue(anyr, 0) if b.kind == "fail"] == ["fail"]
    bets = [(0, "fail"), (2, "tricks=1"), (3, "tricks=2")]
    assert settle_placed(bets, rules=anyr) == [False, True, True]
    assert settle_placed(bets, lost=[(3, "tricks=2")], rules=anyr) == [True, True, False]
    # Against seats that only hold fail bets on each other, the cycle rule applies as for fail:S.
    assert settle_placed([(0, "fail"), (1, "fail")], rules=anyr) == [False, True]


# ---- round_bonus_basis --------------------------------------------------------------------------

def _bonus(rules):
    t = Table(rules=rules)
    t.bet(0, "tricks=2", "R9")        # wins: payout 3, stake 1
    t.bet(0, "last", "R8")            # wins: payout 2, stake 1 -> gross 5, net 3
    t.bet(1, "tricks=0", "R1")        # loses
    t.bet(1, "last", "R2")            # loses: troll pay 2 x 2 = 4 to seats 2 and 3 (net 4)
    t.score([2, 1, 3, 2], last=0)
    return [t.ledger(s)["bonus_paid"] for s in range(4)]


def test_round_bonus_on_gross_or_net_gains():
    b = R4.round_bonus
    assert _bonus(R4) == [b, 0, 0, 0]                                           # gross: 5 > 4
    assert _bonus(load_rules("standard-4p", overrides=["round_bonus_basis=net"])) == [0, 0, b, b]   # net: 3 < 4


# ---- track_top ----------------------------------------------------------------------------------

@pytest.mark.parametrize("top, winners", [("wins", 0b0001), ("ends", 0b0100)])
def test_track_top_decides_who_wins_when_a_player_reaches_nine(top, winners):
    t = Table(rules=load_rules("standard-4p", overrides=[f"track_top={top}"]))
    t.set_track(9, 3, 0, 0)
    t.set_coins(every=[12, 15, 20, 5])
    assert end_check(t.game_state, t.w) == (END_TRACK, winners)


def test_options_are_validated_and_shipped_sets_keep_the_defaults():
    assert (R4.nines_scope, R4.fail_target, R4.round_bonus_basis, R4.track_top) == ("all", "seat", "gross", "wins")
    with pytest.raises(UserError, match="'nines_scope' must be one of 'all', 'own'"):
        load_rules("standard-4p", overrides=["nines_scope=mine"])
    assert FAIL == 4


# ---- the narration replayed against the reference -------------------------------------------

def _replay_round(events, rules):
    """Tricks from the narrated trick events, bets from the narrated actions (and
    rebets), settled by the reference: {seat: [won?, ...]} in the seat's bet order."""
    from sponsio_sim.cards import parse_cards
    n = rules.players
    tricks, won, last, nine_lost, placed = [0] * n, [[] for _ in range(n)], -1, set(), []
    for ev in events:
        if ev["event"] == "action" and ev["action"] == "bet":
            placed.append([ev["seat"], ev["bet"]])
        elif ev["event"] == "end_token" and ev["token"] == "rebet":
            mine = [p for p in placed if p[0] == ev["seat"]]
            mine[ev["bet_index"]][1] = ev["bet"]
        elif ev["event"] == "trick":
            cards = [(c["seat"], parse_cards(c["card"], rules)[0]) for c in ev["cards"]]
            led = cards[0][1] // 9
            winner = max((c, s) for s, c in cards if c // 9 == led)[1]
            assert winner == ev["winner"]
            lost = [s for s, c in cards if c % 9 == 8 and c // 9 != led]
            assert sorted(parse_cards(" ".join(ev["nines_lost"]), rules)) == sorted(
                c for s, c in cards if s in lost)
            nine_lost |= set(lost)
            tricks[winner] += 1
            won[winner] += [c for _, c in cards]
            last = winner

    def plain(seat, bet):
        if bet.kind == "tricks":
            return tricks[seat] == bet.a
        if bet.kind == "colour":
            return sum(1 for c in won[seat] if c // 9 == bet.a) == bet.b
        if bet.kind == "last":
            return last == seat
        return seat not in nine_lost if rules.nines_scope == "own" else not nine_lost

    bets = [(s, parse_bet(t, rules, s)) for s, t in placed]
    ref = settle_reference([(s, ("fail", None if b.a == ANY_SEAT else b.a) if b.kind == "fail" else (b.kind, b))
                            for s, b in bets], lambda s, tup: plain(s, tup[1]), n)
    out = {s: [] for s in range(n)}
    for (s, _), ok in zip(bets, ref):
        out[s].append(ok)
    return out


@pytest.mark.parametrize("overrides", [[], ["nines_scope=own", "fail_target=any"],
                                       ["round_bonus_basis=net", "track_top=ends"]])
def test_narrated_games_settle_as_the_reference_says(overrides):
    from sponsio_sim.analysis.game.narrate import narrate_game
    rules = load_rules("standard-4p", overrides=overrides)
    fail_bets = 0
    for seed in range(1, 9):
        g = narrate_game("ev:goal:cash4, random0.3:goal, ev:goal:never, random:greedy", seed=seed,
                         overrides=overrides)
        for rnd in sorted({e["round"] for e in g.events}):
            events = [e for e in g.events if e["round"] == rnd]
            ref = _replay_round(events, rules)
            for e in events:
                if e["event"] == "settle":
                    assert [note.split()[1] == "won" for note in e["bets"]] == ref[e["seat"]]
                    fail_bets += sum(note.startswith("fail") for note in e["bets"])
    assert fail_bets > 0


def test_double_dummy_nines_bet_under_each_scope():
    from sponsio_sim.analysis.dd import Question, solve
    # 2 cards each. Seat 0 holds both its 9s' colours' tops; seat 1 holds B9 but no red, and
    # red is led twice: seat 1 must throw B9 away, where it loses.
    deal = "R9 R8 | B9 B1 | R2 R3 | R4 R5"
    for scope, worst in (("all", False), ("own", True)):
        r = solve(deal, Question(lead=0, seat=0, bets="nines"), rules="standard-4p", overrides=["hand_size=2",
                  f"nines_scope={scope}"]).table
        assert bool(r["worst"].iloc[0]) is worst, scope
    # Under own scope the solver refuses two nines bettors at once rather than judge them together.
    with pytest.raises(UserError, match="one nines bettor"):
        solve(deal, Question(lead=0, seat=0, bets="nines", others="1:nines"), rules="standard-4p",
              overrides=["hand_size=2", "nines_scope=own"]).table
