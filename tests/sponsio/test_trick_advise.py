"""Odds and card advice in the trick phase: states read back from narrated
games (every policy, 3 and 4 players, cut at every card), exact odds once
the tricks are played, double-dummy advice against a brute-force minimax,
and bad input."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from sponsio_reference import bet_tuple, minimax, plain_won, settle_reference
from tabletop_mc.errors import UserError
from sponsio_sim.analysis.advise.infer import Reading
from sponsio_sim.analysis.advise.state import RoundFacts, hands_now, table_state
from sponsio_sim.analysis.advise.trickplay import CardPlay, rank_cards, trick_odds
from sponsio_sim.analysis.advise.trickphase import build_trick_phase
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.narrate import narrate_game
from sponsio_sim.analysis.game.setup import parse_profile, rows_of
from sponsio_sim.bets import parse_bet
from sponsio_sim.cards import card_name, parse_cards
from sponsio_sim.cli import main
from sponsio_sim.kernels.layout import BET, TRICK_STATE
from sponsio_sim.rules import RANKS, load_rules

# every betting policy but mc (whose games narrate the same way) and every play policy, 3 and 4 players (ev seats
# play goal: the model's play policy, analysis.game.lineup)
# REF4 at seed 3 is the game (`sponsio game --profile reference --seed 3 --verbose` when the reference
# was one strategy at every seat, before the reference field)
REF4, REF3 = "ev0.5:goal:cash3 x4", "ev0.5:goal:cash3 x3"
GAMES = [(4, "ev:goal x4", 3), (4, "random:random x4", 5),
         (4, "troll:greedy, ev0.5:goal:cash3, random0.2:greedy, troll:random", 2), (4, REF4, 3), (3, "ev:goal x3", 4),
         (3, "random:greedy, troll:random, ev0.25:goal", 1), (3, REF3, 2)]


def standard_model(players):
    """The shipped standard model's file: narrations made with it stay the same whatever the reference is."""
    from importlib import resources
    return str(resources.files("sponsio_sim.models").joinpath(f"standard-{players}p.npz"))


def game(players, profile, seed):
    rules = load_rules(None, players)
    return rules, narrate_game(profile, seed=seed, rules=rules, model=standard_model(players))


def cut(g, rnd: int, k: int) -> str:
    """Round ``rnd`` of a narrated game up to its k-th trick card (a trick in progress written as far as it goes)."""
    lines = g.text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"Round {rnd}:"))
    first = next(i for i in range(start, len(lines)) if lines[i].strip().startswith("trick 1:"))
    out = lines[start:first]
    tricks = [e for e in g.events if e["round"] == rnd and e["event"] == "trick"]
    players = len(tricks[0]["cards"])
    for t, e in enumerate(tricks):
        cards = e["cards"][:max(0, min(players, k - t * players))]
        if not cards:
            break
        line = f"    trick {t + 1}: seat {e['leader']} leads " + ", ".join(f"{c['card']} (seat {c['seat']})"
                                                                         for c in cards)
        out.append(line + (f" -> seat {e['winner']} wins" if len(cards) == players else ""))
    return "\n".join(out)


def truth(g, rules, rnd):
    """(every seat's hand as betting ended, the round's cards with their seats) of a narrated round."""
    st = table_state(rules, cut(g, rnd, 0), RoundFacts(seat=0))
    hands = [int(h) for h in hands_now(st.hands, st.history, rules.players)]
    plays = [(parse_cards(c["card"], rules)[0], c["seat"]) for e in g.events
             if e["round"] == rnd and e["event"] == "trick" for c in e["cards"]]
    return hands, plays


@pytest.mark.parametrize("players,profile,seed", GAMES)
def test_every_cut_of_the_trick_phase_reads_back_as_it_was_played(players, profile, seed):
    rules, g = game(players, profile, seed)
    strategies = parse_profile(profile, rules)
    model = find_model(rules)
    voids_seen = 0
    for rnd in sorted({e["round"] for e in g.events if e["event"] == "trick"})[:2]:
        hands, plays = truth(g, rules, rnd)
        for k in range(len(plays)):
            seat = plays[k][1]
            tt = build_trick_phase(table_state(rules, cut(g, rnd, k)), strategies, model)
            assert tt.arrays.seat == tt.to_play == seat
            assert tt.seats == [s for _, s in plays[:k]]
            played = [sum(1 << c for c, s in plays[:k] if s == t) for t in range(players)]
            assert tt.hand == hands[seat] & ~played[seat]
            # voids are what not following showed, and every seat's real remaining hand respects them
            pos = k % players
            for t in range(players):
                void = int(tt.public[1][TRICK_STATE.void + t])
                shown = 0
                for j, (c, s) in enumerate(plays[:k]):
                    led = plays[j - j % players][0] // RANKS
                    if s == t and j % players and c // RANKS != led:
                        shown |= 1 << led
                assert void == shown
                left = hands[t] & ~played[t]
                assert all(not (void >> (c // RANKS)) & 1 for c in range(rules.n_colours * RANKS) if (left >> c) & 1)
                voids_seen += bin(void).count("1")
                # the real deal is one of the worlds: the known cards are the seat's, the others are hidden slots
                lay = tt.layouts
                assert int(lay.fixed[t]) & ~hands[t] == 0
                assert bin(hands[t]).count("1") - bin(int(lay.fixed[t])).count("1") == lay.need[t]
            trick = [c for c, _ in plays[k - pos:k]]
            follow = [c for c in range(rules.n_colours * RANKS) if (tt.hand >> c) & 1
                      and pos and c // RANKS == trick[0] // RANKS]
            assert sorted(tt.legal) == (follow or [c for c in range(rules.n_colours * RANKS) if (tt.hand >> c) & 1])
            assert plays[k][0] in tt.legal
    assert voids_seen > 0


def settled_bets(g, rnd):
    """{seat: [(bet notation, won)]} from the round's settlement."""
    out = {}
    for e in g.events:
        if e["round"] == rnd and e["event"] == "settle":
            out[e["seat"]] = [(b.split()[0], b.split()[1] == "won") for b in e["bets"]]
    return out


@pytest.mark.parametrize("players,profile,seed", [GAMES[3], GAMES[4]])
def test_odds_after_the_last_trick_are_exact_and_are_the_settlement(players, profile, seed):
    rules, g = game(players, profile, seed)
    strategies = parse_profile(profile, rules)
    st = table_state(rules, cut(g, 1, players * rules.hand_size), RoundFacts(seat=0))
    tt = build_trick_phase(st, strategies, find_model(rules))
    assert tt.over
    df = trick_odds(tt, rules, strategies, n=40, seed=2).table
    settled = settled_bets(g, 1)
    rows = {(r.seat, r.bet): r for r in df.itertuples()}
    for seat, bets in settled.items():
        for bet, won in bets:
            r = rows[(seat, bet)]
            assert r.exact and r.p == r.ci_low == r.ci_high == float(won), (seat, bet)
    assert df["exact"].all() and set(df["p"]) <= {0.0, 1.0}
    assert len(df) >= sum(len(b) for b in settled.values())


def test_a_bet_the_tricks_already_settle_is_exact_mid_round():
    rules, g = game(*GAMES[3])
    strategies = parse_profile(REF4 if rules.players == 4 else REF3, rules)
    # seat 0 bet colour:G=0 and took G2 in trick 1: lost from then on (the example)
    df = trick_odds(build_trick_phase(table_state(rules, cut(g, 1, 14), RoundFacts(seat=0)), strategies,
                                      find_model(rules)), rules, strategies, n=200).table
    row = df.set_index(["seat", "bet"]).loc[(0, "colour:G=0")]
    assert row["exact"] and row["p"] == row["ci_high"] == 0.0
    assert df.set_index(["seat", "bet"]).loc[(2, "fail:0"), "p"] == 1.0   # seat 2's fail:0 has won
    live = df[~df["exact"]]
    assert len(live) and (live["ci_low"] < live["ci_high"]).all()


def bet_tuples(st, rules):
    """Every bet as the reference settles it, in placing order: [(seat, tuple)]."""
    rows = rows_of(rules)
    out = []
    for seat, kind, a, b, c in st.history:
        if kind == BET:
            out.append((seat, bet_tuple(rows[a])))
    return out


def dd_values(tt, st, rules, hands, plays):
    """{card: (worst, best)} for the seat to play, by brute-force minimax over the cards left."""
    players = rules.players
    k = len(plays)
    seat = tt.to_play
    left = [{c for c in range(rules.n_colours * RANKS) if (hands[t] >> c) & 1} - {c for c, _ in plays}
            for t in range(players)]
    tricks0, won0 = [0] * players, [[] for _ in range(players)]
    nines0, first0 = True, -1
    for t in range(k // players):
        trick = plays[t * players:(t + 1) * players]
        w = tt.winners[t]
        tricks0[w] += 1
        won0[w] += [c for c, _ in trick]
        best = max(c for c, _ in trick if c // RANKS == trick[0][0] // RANKS)
        nines0 = nines0 and all(c % RANKS != RANKS - 1 or c == best for c, _ in trick)
        first0 = tt.winners[0]
    placed = bet_tuples(st, rules)
    mine = [i for i, (s, _) in enumerate(placed) if s == seat]

    def leaf(o):
        tricks, won, last, ok, first = o
        T = [a + b for a, b in zip(tricks0, tricks)]
        W = [a + b for a, b in zip(won0, won)]
        f = first0 if first0 >= 0 else first
        res = settle_reference(placed, lambda s, b: plain_won(b, s, (T, W, last, nines0 and ok, f)), players)
        return int(all(res[i] for i in mine))

    trick = [c for c, _ in plays[k - k % players:]]
    out = {}
    for c in tt.legal:
        hs = [set(h) for h in left]
        hs[seat].discard(c)
        worst = minimax(hs, tt.leader, trick + [c], {seat}, leaf)
        best = minimax(hs, tt.leader, trick + [c], set(range(players)), leaf)
        out[c] = (worst, best)
    return out


def test_with_every_hand_known_dd_advice_is_the_minimax_optimum():
    decisive = 0
    for players, profile, seed in [(4, "ev:goal x4", 3), (4, "ev:goal x4", 7), (3, "ev:goal x3", 4)]:
        rules, g = game(players, profile, seed)
        strategies = parse_profile(profile, rules)
        model = find_model(rules)
        hands, plays = truth(g, rules, 1)
        start = players * (rules.hand_size - 3)   # three cards left per seat: minimax is quick
        for k in range(start, start + 2 * players):
            seat = plays[k][1]
            tt = build_trick_phase(table_state(rules, cut(g, 1, k)), strategies, model, open_hands=True)
            if not tt.counts[seat] or len(tt.legal) < 2:
                continue
            a = rank_cards(tt, rules, strategies, card_play=CardPlay("dd"), reading=Reading(infer=False), n=3, seed=1)
            values = dd_values(tt, table_state(rules, cut(g, 1, k)), rules, hands, plays[:k])
            assert values[a.choice[0]] == max(values.values()), (seed, k, card_name(a.choice[0], rules), values)
            for row in a.table.itertuples():   # every card's worst and best case is the minimax's
                c = parse_cards(row.card, rules)[0]
                assert (row.p_worst, row.p_best) == tuple(float(v) for v in values[c]), (seed, k, row.card)
            decisive += len(set(values.values())) > 1
    assert decisive >= 2   # cuts where the card matters


def run(*args, input=None):
    r = CliRunner().invoke(main, [str(a) for a in args], input=input)
    return r.exit_code, r.stdout, r.stderr


SEED3 = dict(hand="R9 R5 R2 B6 G6 Y8 Y3 Y1", talon="R3 B9 G7 G5", dealer=3)


@pytest.fixture(scope="module")
def seed3():
    """The issue's game: `sponsio game --profile reference --seed 3 --verbose`, round 1."""
    rules, g = game(*GAMES[3])
    st = table_state(rules, cut(g, 1, 0), RoundFacts(seat=0))
    history = "; ".join(("end " if h[1] == 4 else "") + f"{h[0]}: " + _describe(h, rules) for h in st.history)
    return rules, g, history


def _describe(h, rules):
    from sponsio_sim.analysis.advise.state import describe
    return describe(h, rules)


def oneshot(cmd, history, tricks, *extra):
    return run(*cmd.split(), "--hand", SEED3["hand"], "--talon", SEED3["talon"], "--dealer", SEED3["dealer"], "--seat", 0,
               "--history", history, "--tricks", tricks, *extra)


@pytest.mark.parametrize("tricks,needle", [
    ("trick 1: seat 0 leads B6, B4, B1, G2; trick 2: seat 0 leads B6", "B6 is played twice (trick 1 and trick 2)"),
    ("trick 1: seat 0 leads B6, B4, Y1", "seat 2 plays Y1, which is in seat 0's hand"),
    ("trick 1: seat 0 leads B6, B4, G1, G2", "seat 2 plays G1 to trick 1, led B, but holds B1 (revealed): a revoke"),
    ("trick 1: seat 0 leads Y1, Y6, Y2, G2; trick 2: seat 1 leads B4, B1, Y4",
     "seat 3 plays G2 to trick 1, led Y, but holds Y4 (plays it in trick 2): a revoke"),
    ("trick 1: seat 0 leads B6, B4, B1, G2; trick 2: seat 0 leads R2, R4, R7, R1; trick 3: seat 2 leads G1, G3, Y3",
     "seat 0 plays Y3 to trick 3, led G, but holds G6 (in its hand): a revoke"),
    ("trick 1: seat 0 leads B6, B4, B1, G2; trick 2: seat 1 leads Y6", "trick 2 is led by seat 0 (it won trick 1), not seat 1"),
    ("trick 1: seat 1 leads B4", "trick 1 is led by seat 0 (left of dealer seat 3), not seat 1"),
    ("trick 1: seat 0 leads B6, B4, B1, G2 -> seat 2 wins", "seat 0 wins this trick, not seat 2"),
    ("trick 1: seat 0 leads B6 (seat 0), B4 (seat 2)", "B4 is played by seat 1 (in turn from the leader), not seat 2"),
    ("trick 1: seat 0 leads B6, B4; trick 3: R2", "this is trick 1 (its card 3), not trick 3"),
    ("trick 1: seat 0 leads B6, R3", "R3 is in the talon"),
])
def test_bad_trick_play_is_one_line_and_exit_2(seed3, tricks, needle):
    rules, g, history = seed3
    for cmd in ("odds state", "advise"):
        code, out, err = oneshot(cmd, history, tricks)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (cmd, err)
        assert needle in err, err


def test_a_state_past_the_round_is_one_line_and_exit_2(seed3, tmp_path):
    rules, g, history = seed3
    whole = cut(g, 1, 32)
    lines = whole.splitlines()
    played = ";".join(ln.split("->")[0] for ln in lines if re.match(r"^trick \d+:", ln.strip()))
    code, out, err = oneshot("odds state", history, played + "; R3")
    assert code == 2 and "33 cards played: a round has 8 tricks of 4 cards" in err
    code, out, err = oneshot("advise", history, played)
    assert code == 2 and "every card of the round is played" in err
    full = narrate_game(REF4, seed=3, rules=rules, model=standard_model(4)).text.split("Round 2:")[0].split("Round 1:", 1)[1]
    path = tmp_path / "s.txt"
    path.write_text("Round 1:" + full)
    code, out, err = run("odds", "state", "--state", path)
    assert code == 2 and "ends after the round's settlement" in err and len(err.strip().splitlines()) == 1


def test_the_cli_reads_a_mid_trick_excerpt_and_pairs_the_cards(seed3, tmp_path):
    rules, g, history = seed3
    path = tmp_path / "s.txt"
    path.write_text(cut(g, 1, 14))   # trick 4, seat 0 to play after G1 G3: it must follow with G6
    code, out, err = run("advise", "--state", path, "-n", 300, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert [r["card"] for r in doc["actions"]] == ["G6"] and doc["meta"]["seat"] == 0
    path.write_text(cut(g, 1, 16))   # trick 5: seat 0 leads, four cards to choose from
    code, out, err = run("advise", "--state", path, "-n", 300, "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["actions"]
    assert len(rows) >= 2 and rows[0]["vs_best"] == 0
    assert all(r["vs_best_low"] <= r["vs_best"] <= min(r["vs_best_high"], 0) for r in rows[1:])
    assert all(r["rollouts"] == 300 for r in rows)
    code, out2, err = run("advise", "--state", path, "-n", 300, "--format", "json", "--threads", 1)
    assert code == 0 and json.loads(out2)["actions"] == rows   # the same on any thread count
    code, out, err = run("advise", "--state", path, "-n", 300, "--format", "json", "--no-infer")
    assert code == 0 and any("no inference" in note for note in json.loads(out)["meta"]["notes"])


def test_the_card_play_driver_is_the_engine_when_the_seat_plays_its_policy():
    from sponsio_sim.analysis.advise.duel import play
    from sponsio_sim.analysis.advise.trickduel import Audit, card_tricks
    from sponsio_sim.analysis.game.lineup import resolve
    for players, profile in ((4, REF4), (3, "troll:greedy, ev:goal, troll:goal")):
        rules = load_rules(None, players)
        lineup = resolve(profile, rules)
        for g in range(3):
            seat = g % players
            engine = play(lineup, rules, game=g, seat=seat, seed=2, bet_advice=False)
            steps = card_tricks(rules, lineup.strategies, seat, seed=2, game=g, n=10, by="policy")
            assert play(lineup, rules, game=g, seat=seat, seed=2, bet_advice=False, tricks=steps) == engine
    # by advice, with every decision judged against the double-dummy optimum
    rules = load_rules(None, 4)
    profile = REF4 if rules.players == 4 else REF3
    lineup = resolve(profile, rules)
    audit = Audit()
    steps = card_tricks(rules, lineup.strategies, 0, seed=2, game=0, n=40, reading=Reading(proposals=5000), audit=audit)
    advised = play(lineup, rules, game=0, seat=0, seed=2, bet_advice=False, tricks=steps)
    assert advised.decisions > 0 and audit.decisions["all"] > 0
    assert all(audit.agree[(who, "all")] <= audit.decisions["all"] for who in ("open advice", "advice", "policy"))


def test_pimc_play_on_is_the_same_on_any_thread_count():
    from tabletop_mc.runner import set_threads
    rules, g = game(*GAMES[3])
    strategies = parse_profile(REF4 if rules.players == 4 else REF3, rules)
    tt = build_trick_phase(table_state(rules, cut(g, 1, 23)), strategies, find_model(rules))
    assert tt.to_play == 2 and tt.counts[2] > 0 and len(tt.legal) >= 2
    out = []
    for threads in (1, 2):
        set_threads(threads)
        a = rank_cards(tt, rules, strategies, card_play=CardPlay("pimc", worlds=3), n=6, seed=5)
        out.append(a.table)
    set_threads(None)
    assert out[0].equals(out[1])
    assert set(out[0]["card"]) == {card_name(c, rules) for c in tt.legal}
    assert ((out[0]["p_all"] >= 0) & (out[0]["p_all"] <= 1)).all()


CYCLE_STATE = """Round 1: dealer seat 3, seat 0 acts first
  seat 0 (10 coins, track 0): R9 R7 R2 B8 B5 G6 G1 Y3
  seat 1 (10 coins, track 0): R8 R6 R4 B7 B4 G4 Y6 Y1
  seat 2 (10 coins, track 0): R5 B6 B3 B2 B1 G9 Y8 Y2
  seat 3 (10 coins, track 0): R1 G8 G3 G2 Y9 Y7 Y5 Y4
  talon: R3 B9 G7 G5
  betting:
    turn 1, seat 0: passes
    turn 1, seat 1: reveals R4, bets fail:2 (1 coin stake)
    turn 1, seat 2: reveals B1, bets fail:1 (1 coin stake)
    turn 1, seat 3: passes
    turn 2, seat 0: reveals Y3, bets fail:1 (1 coin stake)
""" + "".join(f"    turn {t}, seat {s}: passes\n" for t in (2, 3, 4) for s in range(4) if (t, s) != (2, 0)) + \
    "  trick phase: seat 0 leads\n"


def test_a_fail_bet_placed_after_a_cycle_settles_as_one_placed_before_it(tmp_path):
    """Seat 0's fail:1 placed after the 1 <-> 2 cycle's bets: the cycle breaks at seat 1's bet, so
    seat 1 fails and seat 0's bet wins, as it does placed before them (tests/sponsio/test_cli.py)."""
    path = tmp_path / "cycle.txt"
    path.write_text(CYCLE_STATE)
    code, out, err = run("odds", "state", "--state", path, "-n", 400, "--format", "json")
    assert code == 0, err
    assert [(r["seat"], r["bet"], r["n"], r["p"]) for r in json.loads(out)["rows"]] == [
        (0, "fail:1", 400, 1.0), (1, "fail:2", 400, 0.0), (2, "fail:1", 400, 1.0)]
