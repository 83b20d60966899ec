"""One seat's strategy, as text -> what the kernels need (policy code, rollouts, weight row).

Notation (``parse_strategy``):

- ``random``, ``greedy``;
- ``value``, ``tuned``, ``tuned@FILE``, ``distilled``, ``distilled@FILE`` (value's features with
  hand-set, shipped tuned or file weights; `distilled`: a linear score fitted to `mc`'s choices),
  ``net``, ``net@FILE`` (the learned policy: a network over what the seat knows, shipped or from a
  ``caesar train`` file, ``caesar_sim.nets``), each optionally ``:temp=T``: sample the action from a
  softmax over the policy's scores at temperature 0 < T <= 100 coins (``tuned:temp=0.5``; the same
  notation as Sponsio's);
- ``mc[:K][:ROLLOUT][:FIELD]``: flat Monte Carlo, K rollouts per action, in which the mover plays
  ROLLOUT (``tuned`` by default, ``value``, ``tuned@FILE``, ``distilled``, ``distilled@FILE``,
  ``net``, ``net@FILE``) and,
  with FIELD = ``reference`` (the shipped reference field) or ``field:FILE``, every other seat a
  member drawn from that field per rollout; without FIELD every seat plays ROLLOUT.

A field file's members may name weights files relative to the field file's folder
(``distilled@br-4p.json`` beside ``field.json``; the shipped fields' beside them in
``caesar_sim/fields``), so a field and its weights travel together.

A **rollout field** becomes extra weight rows after the seats' rows (``kernel_matrix``): one per
member, holding the member's rollout row (an `mc` member rolls out as its ROLLOUT) and its
cumulative weight; the `mc` row points at them (``WEIGHTS.field_first``, ``WEIGHTS.field_size``).

Adding a Circus policy (``tests/test_registries.py`` keeps this list true):

1. its code in ``kernels/layout.py`` (the next one; ``N_POLICIES`` one more) and its name at that index
   of ``POLICIES`` below, with its notation in ``parse_strategy`` and ``HELP``;
2. its move, a kernel function beside the others (``kernels/play/policies.py``, ``kernels/play/scan.py``,
   ``kernels/play/net.py``), and a branch of its own in each per-policy kernel function (each raises
   for a code it does not know):

   - ``kernels.play.dispatch``: ``fast_action`` (its move, in games and in `mc`'s rollouts);
   - ``kernels.play.items``: ``takes_at_random`` (how it picks among the items it wins);

   (a policy that searches, as `mc` does, is called by ``kernels/game/engine.py``'s decide instead);
3. its name and what it does in the list of strategies per seat of ``docs/caesar.md`` (its first
   paragraph).

The statistics by policy, profiles, fields, exploit, meta and the reports follow from the code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.field import Field, load_field, shipped_field
from caesar_sim import nets
from caesar_sim import weights as WT
from caesar_sim.kernels import layout

POLICIES = ("random", "greedy", "value", "mc", "tuned", "distilled", "net")   # index = kernel policy code
assert (POLICIES.index("tuned") == layout.TUNED and POLICIES.index("mc") == layout.MC
        and POLICIES.index("distilled") == layout.DISTILLED and POLICIES.index("net") == layout.NET)
DEFAULT_ROLLOUTS = 8
MAX_ROLLOUTS = 4096
HORIZONS = ("day", "game", "net")   # `mc` rolls out to the day's, the game's or the phase's end (then its net's value)
FIELD_PREFIX = "field:"
MAX_TEMP = WT.MAX_TEMP
TEMP = "temp="
PACKAGE = "caesar_sim"
SCORED = ("value", "tuned", "distilled", "net")
WITH_FILE = ("tuned", "distilled", "net")     # take @FILE
HELP = ("random, greedy, value, tuned, tuned@FILE, distilled, distilled@FILE, net, net@FILE (each of the last "
        "seven with :temp=T for softmax play at temperature T coins), mc[:K][:ROLLOUT][:reference|:field:FILE]")


@dataclass(frozen=True)
class Strategy:
    """One seat's strategy: canonical label, kernel policy code, `mc` rollouts, weight row, rollout field."""

    label: str
    code: int
    rollouts: int
    row: np.ndarray
    field: object = ""       # `mc` only: 'reference', 'field:FILE', a Field or a FieldPlay (drawn in rollouts)


@lru_cache(maxsize=None)
def _shipped_row(kind: str, players: int) -> tuple[float, ...]:
    return tuple(WT.vector(WT.shipped(players, kind)["weights"]))


@lru_cache(maxsize=32)
def _file_row(path: str, kind: str, players: int) -> tuple[float, ...]:
    data = WT.load(path, players)
    if data.get("policy", "tuned") != kind:
        raise UserError(f"weights file {path}: holds {data.get('policy')!r} weights, not {kind!r}")
    return tuple(WT.vector(data["weights"]))


def _beside(path: str, base: Path | None) -> str:
    """``path``, or ``base / path`` if ``path`` is relative and that file exists (a field's own weights)."""
    if base is not None and path and not Path(path).is_absolute() and (base / path).is_file():
        return str(base / path)
    return path


def weights_row(spec: str, players: int, base: Path | None = None) -> np.ndarray:
    """The weight row of ``value``, ``tuned[@FILE]``, ``distilled[@FILE]`` or ``net[@FILE]`` (rollout policy
    set); a relative FILE is looked up beside a field file first (``base``)."""
    name, at, path = spec.partition("@")
    name = name.lower()
    path = _beside(path, base)
    if name == "value" and not at:
        return WT.vector()
    if at and not path and name in WITH_FILE:
        raise UserError(f"--profile: '{spec}' needs a file after @")
    if name == "net":
        return nets.row(nets.load(str(Path(path).resolve()), players) if at else nets.shipped(players))
    if name in ("tuned", "distilled"):
        row = np.array(_file_row(path, name, players) if at else _shipped_row(name, players))
        row[layout.WEIGHTS.rollout_policy] = layout.DISTILLED if name == "distilled" else layout.VALUE
        return row
    raise UserError(f"--profile: bad weights '{spec}' (use value, tuned, tuned@FILE, distilled, distilled@FILE, net "
                    "or net@FILE)")


def _temperature(token: str, part: str) -> float:
    text = token[len(TEMP):] if token.lower().startswith(TEMP) else ""
    try:
        t = float(text) if text and text[0] not in "+- " else math.nan
    except ValueError:
        t = math.nan
    if not (math.isfinite(t) and 0 < t <= MAX_TEMP):
        raise UserError(f"--profile: bad temperature '{token}' in '{part}' (use e.g. {part.split(':')[0]}:temp=0.5, "
                        f"0 < T <= {MAX_TEMP:g} coins)")
    return t


def parse_strategy(part: str, players: int, base: Path | None = None) -> Strategy:
    """Parse one strategy (module docstring); a one-line UserError names what is wrong. ``base``: the
    folder of the field file the strategy comes from (its weights files may sit there)."""
    part = part.strip()
    tokens = part.split(":")
    head, rest = tokens[0], tokens[1:]
    name, at, _ = head.partition("@")
    name = name.lower()
    if name in ("random", "greedy") and not rest and not at:
        return Strategy(name, POLICIES.index(name), DEFAULT_ROLLOUTS, _with_rpol(WT.vector(), POLICIES.index(name)))
    if name in SCORED and len(rest) <= 1 and not (at and name == "value"):
        row = weights_row(head, players, base)
        label = head if at else name
        if rest:
            t = _temperature(rest[0], part)
            row[layout.WEIGHTS.temperature] = t
            label += f":{TEMP}{t:g}"
        return Strategy(label, POLICIES.index(name), DEFAULT_ROLLOUTS, row)
    if name == "mc" and not at:
        return _mc(part, rest, players, base)
    if name in POLICIES:
        raise UserError(f"--profile: bad entry '{part}' (only mc takes :K, K = 1..{MAX_ROLLOUTS}; value, tuned, "
                        "distilled and net take :temp=T; only tuned, distilled and net take @FILE)")
    raise UserError(f"--profile: unknown policy '{name}' (known: {', '.join(POLICIES)})")


def _with_rpol(row: np.ndarray, code: int) -> np.ndarray:
    row[layout.WEIGHTS.rollout_policy] = code
    return row


def _mc(part: str, rest: list[str], players: int, base: Path | None) -> Strategy:
    k, roll, fld = DEFAULT_ROLLOUTS, "tuned", ""
    toks = list(rest)
    if toks and toks[0].isdigit():
        k = int(toks.pop(0))
        if not 1 <= k <= MAX_ROLLOUTS:
            raise UserError(f"--profile: bad entry '{part}' (only mc takes :K, K = 1..{MAX_ROLLOUTS})")
    if toks and toks[-1].lower() == "reference":
        fld = toks.pop().lower()
    elif len(toks) >= 2 and toks[-2].lower() == "field":
        path = toks.pop()
        toks.pop()
        fld = FIELD_PREFIX + path
    if toks:
        roll = toks.pop(0)
    if toks or not roll:
        raise UserError(f"--profile: bad entry '{part}' (use mc[:K][:ROLLOUT][:reference|:field:FILE], e.g. "
                        "mc:8, mc:8:value, mc:8:distilled:reference, mc:8:net:reference)")
    row = weights_row(roll, players, base)
    if fld:
        field_spec(fld, players)   # fails early on a missing field
    roll_label = roll if "@" in roll else roll.lower()
    label = f"mc:{k}" + ("" if roll_label == "tuned" else f":{roll_label}") + (f":{fld}" if fld else "")
    return Strategy(label, layout.MC, k, row, fld)


def field_base(spec: str) -> Path | None:
    """The folder a field's member weights files are looked up in: the shipped fields' or the file's."""
    if spec.lower() == "reference":
        return Path(str(resources.files(PACKAGE).joinpath("fields")))
    path = spec[len(FIELD_PREFIX):] if spec.lower().startswith(FIELD_PREFIX) else ""
    return Path(path).resolve().parent if path else None


def canonical(text: str, players: int) -> str:
    """The canonical label of a strategy (a population file's members are compared by it)."""
    return parse_strategy(text, players).label


def field_spec(spec: str, players: int) -> Field:
    """``reference`` (the shipped field for ``players``) or ``field:FILE``, checked against ``players``."""
    if spec.lower() == "reference":
        f = shipped_field(PACKAGE, players)
        if f is None:
            raise UserError(f"no shipped reference field for {players} players (run `caesar meta --players "
                            f"{players}` and pass field:FILE)")
        return f
    path = spec[len(FIELD_PREFIX):] if spec.lower().startswith(FIELD_PREFIX) else ""
    if not path:
        raise UserError(f"--profile: '{spec}' needs a file after {FIELD_PREFIX}")
    f = load_field(path)
    if f.players != players:
        raise UserError(f"field file {path}: a field for {f.players} players, not {players}")
    if f.game != "caesar":
        raise UserError(f"field file {path}: a {f.game} field, not a caesar one")
    return f


def rollout_rows(f: Field, players: int, base: Path | None = None) -> np.ndarray:
    """One weight row per member of positive weight, as the member plays in `mc` rollouts, with its
    cumulative weight in ``WEIGHTS.field_cum`` (member weights files looked up beside the field, ``base``)."""
    support = [(m, w) for m, w in zip(f.members, f.weights) if w > 0]
    return member_rows([parse_strategy(m, players, base) for m, _ in support], [w for _, w in support])


def member_rows(strategies, weights) -> np.ndarray:
    """The rollout rows of ``strategies`` (positive ``weights``) with cumulative weights in ``WEIGHTS.field_cum``."""
    rows = []
    cum = 0.0
    for i, (s, w) in enumerate(zip(strategies, weights)):
        row = s.row.copy()
        cum += w
        row[layout.WEIGHTS.field_cum] = 1.0 if i == len(strategies) - 1 else cum
        row[layout.WEIGHTS.field_first] = row[layout.WEIGHTS.field_size] = 0.0
        rows.append(row)
    return np.array(rows)


def kernel_matrix(strategies, players: int, mc_horizon: str = "day", pad: int = layout.MAX_PLAYERS) -> np.ndarray:
    """The flat ``weight_table`` the kernels read: row i = ``strategies[i]`` (padded to ``pad`` rows with `value`),
    then the rollout fields' rows (a strategy's ``field``: a spec or a ``Field``), then the networks the rows
    play (``nets.with_blocks``); `mc` rolls out to the day's or the game's end, or to the phase's and reads
    its network's value head there (``net``)."""
    if mc_horizon not in HORIZONS:
        raise UserError(f"--mc-horizon {mc_horizon}: use one of {', '.join(HORIZONS)}")
    if mc_horizon == "net":
        for s in strategies:
            if s.code == layout.MC and s.row[layout.WEIGHTS.net_id] == 0:
                raise UserError(f"--mc-horizon net: {s.label} rolls out without a network to value the phase's end "
                                "(use mc:K:net or mc:K:net@FILE)")
    rows = [s.row.copy() for s in strategies] + [WT.vector() for _ in range(pad - len(strategies))]
    blocks: dict = {}   # field (spec or Field) -> (first row, rows)
    extra = []
    at = len(rows)
    for i, s in enumerate(strategies):
        if not s.field:
            continue
        key = s.field if isinstance(s.field, str) else id(s.field)
        if key not in blocks:
            if isinstance(s.field, str):
                blk = rollout_rows(field_spec(s.field, players), players, field_base(s.field))
            elif isinstance(s.field, Field):
                blk = rollout_rows(s.field, players)
            else:  # a field of parsed strategies (caesar_sim.fieldplay.FieldPlay)
                blk = member_rows(s.field.members, s.field.weights)
            blocks[key] = (at, len(blk))
            extra.append(blk)
            at += len(blk)
        rows[i][layout.WEIGHTS.field_first], rows[i][layout.WEIGHTS.field_size] = blocks[key]
    w = np.vstack(rows + extra)
    w[:, layout.WEIGHTS.mc_horizon] = HORIZONS.index(mc_horizon)
    return nets.with_blocks(w)
