"""The ``net`` policy's network for a rule set: its feature spec, its weights, its kernel arrays.

The spec (``net_spec``) names the inputs of ``kernels.betting.netlayout`` and
the action list for the rule set's catalogue (a ``fail`` bet by the seat it
names counted clockwise, ``fail:+1``); a network is trained for one spec,
so a rule set with another catalogue (hand size, colours, bet types,
``fail_target``) or token set needs its own, while every lever the reports
sweep (multipliers, troll pay, round bonus, coins to end, rounds, track
values) is an input and keeps the spec. The shipped networks are
``sponsio_sim/nets/net-<players>p.npz`` (``sponsio train``, with the command
and seeds that made them inside).
"""

from __future__ import annotations

from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.net import NetSpec, NetWeights, load_weights
from tabletop_mc.net.forward import as_float64_slots
from sponsio_sim.bets import catalogue
from sponsio_sim.kernels.betting.netlayout import MAX_HIDDEN, NET_INPUTS, SCRATCH_SLOTS, VERSION
from sponsio_sim.kernels.layout import MAX_PLAYERS, MAX_ROWS, RULES
from sponsio_sim.rules import TOKENS, RuleSet

GAME_NAME = "sponsio"
MAX_DEPTH = 8                      # RULES.net_dims: inputs, hidden layers, actions


def bet_slots(rules: RuleSet) -> list[str]:
    """The name of each bet action (``MAX_ROWS`` of them; '' where the catalogue has none)."""
    rows = catalogue(rules, seat=-1)
    names = [""] * MAX_ROWS
    k = 0
    for r, bet in enumerate(rows):
        if bet.kind == "fail" and bet.a >= 0:
            k += 1
            if k < rules.players:
                names[r] = f"fail:+{k}"
        else:
            names[r] = bet.notation(rules)
    return names


def slot_rows(rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    """Per seat: the catalogue row of each bet action (-1: none), and the bet action of each row
    (the kernels' ``net.slot_row`` and ``net.row_slot``, as tables: names and tests)."""
    rows = catalogue(rules, seat=-1)
    by_slot = np.full((MAX_PLAYERS, MAX_ROWS), -1, dtype=np.int64)
    by_row = np.full((MAX_PLAYERS, MAX_ROWS), -1, dtype=np.int64)
    fail_rows = [r for r, b in enumerate(rows) if b.kind == "fail" and b.a >= 0]
    for s in range(rules.players):
        for r, bet in enumerate(rows):
            if not (bet.kind == "fail" and bet.a >= 0):
                by_slot[s, r] = r
                by_row[s, r] = r
        for k in range(1, rules.players if fail_rows else 1):   # fail:+k: the row naming seat (s + k) % players
            slot = fail_rows[k - 1]
            row = next(r for r in fail_rows if rows[r].a == (s + k) % rules.players)
            by_slot[s, slot] = row
            by_row[s, row] = slot
    return by_slot, by_row


def net_spec(rules: RuleSet) -> NetSpec:
    """The network's feature spec for ``rules`` (module docstring)."""
    inputs = tuple((name, int(np.prod(NET_INPUTS.dtype.fields[name][0].shape, dtype=int)))
                   for name in NET_INPUTS.dtype.names)
    tokens = tuple(f"token:{t}" if t in rules.tokens else "" for t in TOKENS)
    return NetSpec(GAME_NAME, rules.players, VERSION, inputs, ("pass", *bet_slots(rules), *tokens, "swap"))


def shipped_path(rules: RuleSet) -> Path:
    return Path(str(resources.files("sponsio_sim.nets").joinpath(f"net-{rules.players}p.npz")))


_IN_FORCE: list[NetWeights] = []    # ``using_net``'s stack


@contextmanager
def using_net(weights: NetWeights):
    """Within the block, ``net`` plays ``weights`` wherever their spec fits the rule set instead of the
    shipped network (expert iteration solves fields and measures gains with the network being trained)."""
    _IN_FORCE.append(weights)
    try:
        yield weights
    finally:
        _IN_FORCE.pop()


def find_net(rules: RuleSet, path: str | Path | None = None) -> NetWeights:
    """The network ``net`` plays under ``rules``: the file ``path``, else the one ``using_net`` puts in
    force, else the shipped one for the player count; one ``UserError`` line when there is none or it
    was made for another spec."""
    spec = net_spec(rules)
    if path is not None:
        return load_weights(path, spec)
    for weights in reversed(_IN_FORCE):
        if weights.spec.digest() == spec.digest():
            return weights
    shipped = shipped_path(rules)
    if not shipped.is_file():
        raise UserError(f"net: no shipped network for {rules.players} players (shipped: "
                        f"{', '.join(shipped_players()) or 'none'}); train one with `sponsio train --players "
                        f"{rules.players} --out FILE`")
    try:
        return load_weights(shipped, spec, "shipped network")
    except UserError as exc:
        raise UserError(f"net: rule set {rules.name} has another catalogue or token set than the shipped "
                        f"{rules.players}-player network was trained for ({exc}); train one with `sponsio train "
                        f"--players {rules.players}`") from None


def shipped_players() -> list[str]:
    folder = resources.files("sponsio_sim.nets")
    return sorted(p.name[4:-5] for p in folder.iterdir() if p.name.startswith("net-") and p.name.endswith("p.npz"))


def append_net(rules: RuleSet, book: np.ndarray, money: np.ndarray, money_rules: np.ndarray,
               weights: NetWeights | None) -> tuple[np.ndarray, np.ndarray]:
    """(``money`` grown by the network's decision scratch, ``money_rules`` grown by its packed weights),
    and the rulebook's ``net_*`` fields (``book``, ``RULES``) set to find them (``kernels.betting.net``);
    ``weights`` None: the scratch alone (the encoder without a network, as a labelling run before the
    first network needs it)."""
    book[RULES.net_scratch] = len(money)
    book[RULES.net_at] = -1
    money = np.concatenate([money, np.zeros(SCRATCH_SLOTS)])
    if weights is None:
        return money, money_rules
    dims = weights.dims()
    if len(dims) > MAX_DEPTH or max(weights.hidden) > MAX_HIDDEN:
        raise UserError(f"net: at most {MAX_DEPTH - 2} hidden layers of at most {MAX_HIDDEN} units "
                        f"(this network: {list(weights.hidden)})")
    packed = as_float64_slots(weights.packed(np.float32))
    book[RULES.net_at] = len(money_rules)
    book[RULES.net_size] = len(packed)
    book[RULES.net_depth] = len(dims)
    book[RULES.net_dims:RULES.net_dims + len(dims)] = dims
    return money, np.concatenate([money_rules, packed])
