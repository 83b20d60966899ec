"""Worlds of the trick phase: uniform layouts of the hidden cards under
voids against brute-force enumeration, the trick loop's script replay, and
the inference's seat-by-seat likelihood against the joint one."""

from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from sponsio_sim.analysis.advise.infer import assumed_arrays, seat_logliks
from sponsio_sim.analysis.advise.state import table_state
from sponsio_sim.analysis.advise.trickphase import _layouts, build_trick_phase
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.narrate import narrate_game
from sponsio_sim.analysis.game.setup import parse_profile
from sponsio_sim.kernels.advise.infer import world_logliks
from sponsio_sim.kernels.advise.layouts import propose_layouts
from sponsio_sim.kernels.advise.tricks import HALT_AFTER
from sponsio_sim.kernels.play.tricks import play_scripted, play_tricks
from sponsio_sim.kernels.trickstate import new_state, set_round
from sponsio_sim.kernels.layout import BOARD, TRICK_STATE
from sponsio_sim.rules import RANKS, load_rules
from tabletop_mc.rng import new_state as new_rng

RULES = load_rules(None, 4)


def layouts_by_hand(rules, fixed, voids, talon, viewer=0):
    """Every layout of the hidden cards that respects the voids, by brute force: (hands per layout)."""
    lay = _layouts(rules, viewer, fixed, voids, talon)
    hidden = [int(c) for c in lay.pool]
    seats = [s for s in range(rules.players) if lay.need[s] > 0]
    out = []

    def rec(i, left, hands):
        if i == len(seats):
            out.append(tuple(hands))
            return
        s = seats[i]
        for pick in combinations(sorted(left), int(lay.need[s])):
            if any((voids[s] >> (c // RANKS)) & 1 for c in pick):
                continue
            h = list(hands)
            h[s] |= sum(1 << c for c in pick)
            rec(i + 1, left - set(pick), h)

    rec(0, set(hidden), [int(f) for f in fixed])
    return lay, out


@pytest.mark.parametrize("voids", [[0, 0, 0, 0], [0, 0b0011, 0b0100, 0], [0, 0b0110, 0b0011, 0b1001]])
def test_layouts_are_uniform_over_every_layout_that_respects_the_voids(voids):
    # seat 0 sees its hand; seats 1-3 hold 3 hidden cards each (one known card each), 9 hidden cards in all
    rules = load_rules(None, 4, ["hand_size=4"])
    rng = np.random.default_rng(7)
    cards = rng.permutation(36)
    fixed = [sum(1 << int(c) for c in cards[:4])] + [1 << int(cards[4 + s]) for s in range(3)]
    talon = sum(1 << int(c) for c in cards[16:])
    lay, every = layouts_by_hand(rules, fixed, voids, talon)
    assert lay.counts[0, int((lay.need * lay.strides).sum())] == len(every) > 1
    m = 60 * len(every) if len(every) < 500 else 30_000
    out = np.zeros((m, 4), dtype=np.uint64)
    propose_layouts(lay, np.uint64(3), out)
    seen = Counter(tuple(int(h) for h in row) for row in out)
    assert set(seen) <= set(every)   # every drawn layout is legal
    # uniform: each seat's chance to hold each hidden card matches the enumeration's (binomial SE bound)
    for s in (1, 2, 3):
        for c in (int(x) for x in lay.pool):
            truth = sum((h[s] >> c) & 1 for h in every) / len(every)
            got = float(((out[:, s] >> np.uint64(c)) & np.uint64(1)).mean())
            assert abs(got - truth) <= 4.5 * np.sqrt(max(truth * (1 - truth), 1e-9) / m) + 1e-12, (s, c)


def narrated_cards(text, rnd=1):
    """The cards of round ``rnd``'s trick lines, in play order, with their seats."""
    block = text.split(f"Round {rnd}:", 1)[1].split("Round ", 1)[0]
    cards, seats = [], []
    for line in block.splitlines():
        line = line.strip()
        if line.startswith("trick ") and "leads" in line:
            for item in line.split("leads", 1)[1].split("->")[0].split("),"):
                card, who = item.strip().split(" (seat ")
                cards.append(card)
                seats.append(int(who.split(",")[0].rstrip(")")))
    return cards, seats


def test_a_scripted_replay_is_the_policies_own_play():
    # play a deal by the goal policy, then replay its cards as a script: same winners, voids and cards won;
    # halting right after k cards leaves the first k cards played
    from sponsio_sim.cards import mask_of
    rng = np.random.default_rng(3)
    cards = rng.permutation(36)
    hands = np.array([mask_of(cards[s * 8:(s + 1) * 8]) for s in range(4)], dtype=np.uint64)
    pol = np.full(4, 2, dtype=np.int64)

    def fresh():
        board, game_state, money = new_state(4, 0)
        set_round(board, game_state, hands, np.uint64(mask_of(cards[32:])), np.uint64(0))
        return board, game_state, money

    board, game_state, money = fresh()
    play_tricks(4, 1, pol, board, game_state, money, new_rng(1), None, None)
    seq = game_state[TRICK_STATE.seq:TRICK_STATE.seq + 32].copy()
    for k in (0, 5, 12, 32):
        t2, i2, w2 = fresh()
        script = np.array([k, HALT_AFTER if k < 32 else -1, *seq[:k]], dtype=np.int64)
        play_scripted(4, 1, pol, t2, i2, w2, new_rng(1), None, None, script)
        assert list(i2[TRICK_STATE.seq:TRICK_STATE.seq + k]) == list(seq[:k])
        assert int(i2[TRICK_STATE.n_played]) == k // 4
        done = k // 4
        assert list(TRICK_STATE.named(i2)["winners"][:done]) == list(TRICK_STATE.named(game_state)["winners"][:done])
    # a script that plays on by the policies from 12 cards ends as the policies alone do
    t2, i2, w2 = fresh()
    play_scripted(4, 1, pol, t2, i2, w2, new_rng(1), None, None, np.array([12, -1, *seq[:12]], dtype=np.int64))
    for f, n in ((BOARD.won, 4),):
        assert list(t2[f:f + n]) == list(board[f:f + n])
    for name in ("tricks_won", "void"):
        assert list(TRICK_STATE.named(i2)[name][:4]) == list(TRICK_STATE.named(game_state)[name][:4])


def test_seat_by_seat_likelihoods_equal_the_joint_replay():
    text = narrate_game("ev:goal x4", seed=3, rules=RULES).text
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Round 1"))
    stop = next(i for i, ln in enumerate(lines) if ln.strip().startswith("trick 5:"))
    st = table_state(RULES, "\n".join(lines[start:stop]))
    strategies = parse_profile("ev:goal x4", RULES)
    tt = build_trick_phase(st, strategies, find_model(RULES))
    lay = tt.layouts
    props = np.zeros((3000, 4), dtype=np.uint64)
    propose_layouts(lay, np.uint64(11), props)
    start_arrays = assumed_arrays(tt.arrays.start, tt.arrays.seat, None, RULES, strategies)
    joint = np.empty(len(props))
    others = 0b1111 & ~(1 << tt.arrays.seat)
    world_logliks(np.int64(others), tt.arrays.hist, np.int64(len(tt.arrays.hist)), 0.05, *start_arrays, props, joint)
    memo = {}
    split = seat_logliks(tt.arrays, start_arrays, props, 0.05, memo)
    assert 0 < len(memo) < len(props)   # seat by seat: each distinct hand once
    assert np.isfinite(joint).all() and len(set(joint.round(9))) > 1
    assert np.allclose(split, joint, rtol=0, atol=1e-9)
    assert np.array_equal(seat_logliks(tt.arrays, start_arrays, props, 0.05, memo), split)   # from the memo
