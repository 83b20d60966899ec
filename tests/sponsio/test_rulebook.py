"""The rulebook apart from the state (``kernels.rulebook``): the two kinds of vector share no field,
no kernel writes a rule during a game, and a chunk kernel's copies of the state read the rulebook
it was given."""

import pathlib
import re

import numpy as np

from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import build_state, copy_arrays, game_arrays, parse_profile, rulebook
from sponsio_sim.kernels.game.engine import game_chunk, game_chunks, mc_switch
from sponsio_sim.kernels.layout import (GAME, MONEY, MONEY_RULES, RULES, STATS_HEAD, TRICK_MONEY, TRICK_STATE,
                                        stats_size)
from sponsio_sim.rules import load_rules

R4 = load_rules("standard-4p")
# every kind of seat that reads rules: the network (its weights in money_rules), a field-free mc that
# searches (rollouts copy the state), the distilled and ev policies, cash-ins by threshold and by net
PROFILE = "net:goal, distilled:goal:cash3, mc8:goal:cash4, ev0.5:goal:net"
KERNELS = pathlib.Path(__file__).resolve().parents[2] / "sponsio_sim" / "kernels"


def test_rules_and_state_share_no_field():
    assert not set(RULES.dtype.names) & set(GAME.dtype.names) - {"size"}
    assert not set(RULES.dtype.names) & set(TRICK_STATE.dtype.names)
    assert not set(MONEY_RULES.dtype.names) & set(MONEY.dtype.names)
    assert not set(MONEY_RULES.dtype.names) & set(TRICK_MONEY.dtype.names)


def test_no_kernel_assigns_a_rule():
    """Kernels read ``rules[RULES.x]`` and ``money_rules[MONEY_RULES.x]``; the one writer is
    ``betting.model.precompute_best``, which fills the rulebook as the analysis layer builds it, and
    the mc audit, which plays on its own copy of the rules."""
    writes = re.compile(r"\b(rules|money_rules)\[[^\]]*\]\s*([-+*/|&^]?=)(?!=)")
    found = []
    for path in sorted(KERNELS.rglob("*.py")):
        for no, line in enumerate(path.read_text().splitlines(), 1):
            if writes.search(line):
                found.append(f"{path.relative_to(KERNELS)}:{no}: {line.strip()}")
    allowed = ("betting/model.py", "game/audit.py")
    assert [f for f in found if not f.startswith(allowed)] == []


def test_a_game_leaves_the_rulebook_as_it_was():
    """Whole games with every kind of seat (searches and rollouts included) on a state bound to its
    rulebook: the rulebook is the same, byte for byte."""
    board, game_state, money = build_state(R4, parse_profile(PROFILE, R4), find_model(R4))
    rules, money_rules = rulebook(game_state)
    before = rules.tobytes(), money_rules.tobytes()
    row = np.zeros(stats_size(R4.players))
    for g in range(2):
        game_chunk(np.uint64(3), np.int64(g), np.int64(1), board, game_state, money, row, np.zeros((1, 8)),
                   mc_switch(game_state))
    assert row[STATS_HEAD.games] == 2 and row[STATS_HEAD.rounds] > 2
    assert (rules.tobytes(), money_rules.tobytes()) == before


def test_chunks_read_the_rulebook_they_are_given():
    """The chunk kernels bind their copies to ``GameArrays``' rulebook (a pickled batch carries no
    addresses): the same games as the bound state's, and a rule changed in a copy's rulebook (its
    own, ``copy_arrays``) changes them."""
    profile = parse_profile("ev:goal:cash3 x4", R4)
    board, game_state, money = build_state(R4, profile, find_model(R4))
    start = game_arrays(board, game_state, money)
    assert start.game_state[GAME.rules_at] == 0
    size = np.int64(stats_size(R4.players))
    counts = np.array([3, 3], dtype=np.int64)
    out = game_chunks(np.uint64(7), np.int64(0), counts, start, size, None)
    rows = np.zeros((2, size))
    for c in range(2):
        game_chunk(np.uint64(7), np.int64(c), np.int64(3), board, game_state, money, rows[c], np.zeros((1, 8)), None)
    assert np.array_equal(out, rows)
    other = copy_arrays((board, game_state, money))
    rulebook(other[1])[1][MONEY_RULES.start_coins] += 5.0
    changed = game_chunks(np.uint64(7), np.int64(0), counts, game_arrays(*other), size, None)
    assert not np.array_equal(changed, out)
    assert rulebook(game_state)[1][MONEY_RULES.start_coins] == R4.start_coins
