"""The rulebook apart from the state (``kernels.rulebook``): the two kinds of vector share no field,
no kernel writes a rule during a game, a trick-phase state outside a game reads its rule flags from
a rulebook of its own, and a chunk kernel's copies of the state read the rulebook it was given."""

import ctypes
import pathlib
import re

import numpy as np

from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import build_state, copy_arrays, game_arrays, parse_profile, rulebook
from sponsio_sim.kernels.game.engine import game_chunk, game_chunks, mc_switch, scored_switch
from sponsio_sim.kernels.layout import (MONEY, MONEY_RULES, NINES_OWN, RULES, STATS_HEAD, TRICK_MONEY, TRICK_RULES,
                                        TRICK_STATE, GAME, stats_size)
from sponsio_sim.kernels.rulebook import nines_own
from sponsio_sim.kernels.trickstate import new_state
from sponsio_sim.rules import load_rules

R4 = load_rules("standard-4p")
# every kind of seat that reads rules: the network (its weights in money_rules), a field-free mc that
# searches (rollouts copy the state), the distilled and ev policies, cash-ins by threshold and by net
PROFILE = "net:goal, distilled:goal:cash3, mc8:goal:cash4, ev0.5:goal:net"
KERNELS = pathlib.Path(__file__).resolve().parents[2] / "sponsio_sim" / "kernels"


def test_rules_and_state_share_no_field():
    assert RULES[0] == TRICK_RULES.size   # rules: TRICK_RULES, then RULES
    for rules in (RULES, TRICK_RULES):
        assert not set(rules.dtype.names) & set(GAME.dtype.names) - {"size"}
        assert not set(rules.dtype.names) & set(TRICK_STATE.dtype.names)
    assert not set(MONEY_RULES.dtype.names) & set(MONEY.dtype.names)
    assert not set(MONEY_RULES.dtype.names) & set(TRICK_MONEY.dtype.names)


def test_no_kernel_assigns_a_rule():
    """Kernels read ``rules[RULES.x]`` and ``money_rules[MONEY_RULES.x]``; the writers are
    ``betting.model.precompute_best``, which fills the rulebook as the analysis layer builds it,
    the mc audit, which plays on its own copy of the rules, and ``trickstate.new_state``, which
    writes a fresh trick-phase state's own rulebook."""
    writes = re.compile(r"\b(rules|money_rules)\[[^\]]*\]\s*([-+*/|&^]?=)(?!=)")
    found = []
    for path in sorted(KERNELS.rglob("*.py")):
        for no, line in enumerate(path.read_text().splitlines(), 1):
            if writes.search(line):
                found.append(f"{path.relative_to(KERNELS)}:{no}: {line.strip()}")
    allowed = ("betting/model.py", "game/audit.py", "trickstate.py")
    assert [f for f in found if not f.startswith(allowed)] == []


def _rules_at(game_state, size):
    return np.ctypeslib.as_array((ctypes.c_int64 * size).from_address(int(game_state[TRICK_STATE.rules_at])))


def test_the_trick_phase_reads_its_rule_flags_from_the_rulebook():
    """A trick-phase state of its own (``new_state``) and a whole game's state (``build_state``) both
    find ``nines_scope`` at the head of the rulebook they point at, never in the state."""
    for flags in (0, NINES_OWN):
        _, game_state, _ = new_state(4, flags)
        assert len(game_state) == TRICK_STATE.size and game_state[TRICK_STATE.rules_at] != 0
        assert _rules_at(game_state, TRICK_RULES.size)[TRICK_RULES.flags] == flags
        assert list(rulebook(game_state)[0]) == [flags] and len(rulebook(game_state)[1]) == 0
        assert nines_own(game_state) == (flags == NINES_OWN)
    for scope in ("all", "own"):
        rules = load_rules("standard-4p", overrides=[f"nines_scope={scope}"])
        _, game_state, _ = build_state(rules, parse_profile("ev:goal x4", rules), find_model(R4))
        book, _ = rulebook(game_state)
        assert book.ctypes.data == game_state[TRICK_STATE.rules_at]
        assert book[TRICK_RULES.flags] == rules.kernel_flags and nines_own(game_state) == (scope == "own")
        assert _rules_at(game_state, RULES.size)[RULES.players] == 4


def test_a_game_leaves_the_rulebook_as_it_was():
    """Whole games with every kind of seat (searches and rollouts included) on a state bound to its
    rulebook: the rulebook is the same, byte for byte."""
    board, game_state, money = build_state(R4, parse_profile(PROFILE, R4), find_model(R4))
    rules, money_rules = rulebook(game_state)
    before = rules.tobytes(), money_rules.tobytes()
    row = np.zeros(stats_size(R4.players))
    for g in range(2):
        game_chunk(np.uint64(3), np.int64(g), np.int64(1), board, game_state, money, row, np.zeros((1, 8)),
                   scored_switch(game_state), mc_switch(game_state))
    assert row[STATS_HEAD.games] == 2 and row[STATS_HEAD.rounds] > 2
    assert (rules.tobytes(), money_rules.tobytes()) == before


def test_chunks_read_the_rulebook_they_are_given():
    """The chunk kernels bind their copies to ``GameArrays``' rulebook (a pickled batch carries no
    addresses): the same games as the bound state's, and a rule changed in a copy's rulebook (its
    own, ``copy_arrays``) changes them."""
    profile = parse_profile("ev:goal:cash3 x4", R4)
    board, game_state, money = build_state(R4, profile, find_model(R4))
    start = game_arrays(board, game_state, money)
    assert start.game_state[TRICK_STATE.rules_at] == 0
    size = np.int64(stats_size(R4.players))
    counts = np.array([3, 3], dtype=np.int64)
    scored = scored_switch(game_state)
    out = game_chunks(np.uint64(7), np.int64(0), counts, start, size, scored, None)
    rows = np.zeros((2, size))
    for c in range(2):
        game_chunk(np.uint64(7), np.int64(c), np.int64(3), board, game_state, money, rows[c], np.zeros((1, 8)), scored,
                   None)
    assert np.array_equal(out, rows)
    other = copy_arrays((board, game_state, money))
    rulebook(other[1])[1][MONEY_RULES.start_coins] += 5.0
    changed = game_chunks(np.uint64(7), np.int64(0), counts, game_arrays(*other), size, scored, None)
    assert not np.array_equal(changed, out)
    assert rulebook(game_state)[1][MONEY_RULES.start_coins] == R4.start_coins
