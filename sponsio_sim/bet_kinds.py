"""The bet kinds: one row per kind, and every per-kind constant the layers use.

A row says what a kind is (name, notation, parameters), how the success
model sees it (the values of each feature, ``cell_sizes``) and, for a kind the specification does not
have, its default payout multiplier (the shipped rule sets, whose ``bets``
list the catalogue, leave such a kind off). From the rows come the kind
codes kernels compile in (``TRICKS`` ...), ``BET_TYPES``, the catalogue's
shape, the odds statistics' slots and the model's table shapes.

Parameter types: ``tricks`` (0..hand size), ``colour`` (a colour of the
rule set), ``cards`` (0..9 cards of that colour), ``seat`` (another seat, or
any other seat under ``fail_target = any``).

Adding a kind (``tests/test_registries.py`` keeps this list true):

1. a row at the end of ``KINDS`` and its name in the codes line below it;
2. a branch of its own in each per-kind kernel function (each raises for a
   code it does not know; a kind may share another's branch, as ``first``
   shares ``last``'s in ``cell_of``, where a branch more slowed whole games):

   - ``kernels.bets``: ``bet_won`` (settling it), ``bet_decided`` (settled
     before the round ends, so that odds rounds stop early);
   - ``kernels.play.goals``: ``goal_weights`` (how the goal policy plays for
     or against it);
   - ``kernels.dd.goals``: ``_bet_verdict`` (its double-dummy goal), ``_clash``
     (bets that cannot all win), ``bet_extra_keys`` (the table's key),
     ``family_field``, ``desire`` (move ordering);
   - ``kernels.dd.avoid``: ``frozen_bets``;
   - ``kernels.dd.bounds``: ``bet_room``;
   - ``kernels.dd.coop``: ``coop_bound``;
   - ``kernels.betting.model``: ``cell_of`` (its success-model cell),
     ``kind_best``;
   - ``kernels.odds.simulate``: ``odds_rounds`` (its odds slots).

Parsing, notation, the catalogue, multipliers, odds, games, balance and the
model's tables follow from the row.
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = 9
PLACES = 4    # places in the betting order the success model tells apart (0..3+)


@dataclass(frozen=True)
class Kind:
    name: str
    notation: str                 # N: a count, C: a colour letter, S: a seat
    params: tuple[str, ...]       # parameter types of (a, b), see the module docstring
    meaning: str                  # what a bet of this kind wins on
    cell_sizes: tuple[int, ...]   # values of each success-model feature (``kernels.betting.model``)
    multiplier: float | None = None   # default payout multiplier; None: a spec kind, every rule file gives it

    @property
    def param_axis(self) -> str | None:
        """The parameter the model table keeps as its last axis (a count), or None."""
        counts = [p for p in self.params if p in ("tricks", "cards")]
        return counts[0] if counts else None

    def axis_value(self, a: int, b: int) -> int:
        """A bet's value of ``param_axis`` (0 for a kind without one)."""
        axis = self.param_axis
        return (a, b)[self.params.index(axis)] if axis else 0


KINDS = (
    Kind("tricks", "tricks=N", ("tricks",), "wins exactly N tricks", (6, 5, 2)),
    Kind("colour", "colour:C=N", ("colour", "cards"), "captures exactly N cards of colour C", (7, 4, 3, PLACES)),
    Kind("last", "last", (), "wins the last trick", (4, 3, 2)),
    Kind("nines", "nines", (), "every 9 played wins its trick", (5, 5)),
    Kind("fail", "fail:S", ("seat",), "seat S (any other seat under fail_target = any) fails a bet",
         (6, PLACES)),
    Kind("first", "first", (), "wins the first trick", (4, 5, 2), multiplier=2.0),
)
TRICKS, COLOUR, LAST, NINES, FAIL, FIRST = range(len(KINDS))   # kernel codes, in row order

N_KINDS = len(KINDS)
MAX_BETS = N_KINDS            # one bet per kind (docs/rules-sponsio.md section 2.2)
BET_TYPES = tuple(k.name for k in KINDS)
KIND_CODE = {k.name: i for i, k in enumerate(KINDS)}
BY_NAME = {k.name: k for k in KINDS}


def param_values(param: str, hand_size: int, n_colours: int, players: int) -> int:
    """How many values a parameter type takes (a seat: every seat, plus "any")."""
    return {"tricks": hand_size + 1, "colour": n_colours, "cards": RANKS + 1, "seat": players + 1}[param]


def odds_slots(kind: Kind, hand_size: int, n_colours: int, players: int) -> int:
    """Count slots of a kind in the odds kernel's statistics: one per parameter value."""
    n = 1
    for p in kind.params:
        n *= param_values(p, hand_size, n_colours, players)
    return n


def model_shape(kind: Kind, hand_size: int) -> tuple[int, ...]:
    """The model table's shape for a kind: its feature cells, then its count parameter's values."""
    axis = kind.param_axis
    return kind.cell_sizes + ((param_values(axis, hand_size, 0, 0),) if axis else ())


def param_slot(kind: Kind, values: tuple[int, ...], hand_size: int, n_colours: int, players: int) -> int:
    """A bet's slot among its kind's ``odds_slots``: its parameter values in
    mixed radix, first parameter most significant (a seat of -1, any, is ``players``)."""
    slot = 0
    for param, value in zip(kind.params, values):
        if param == "seat" and value < 0:
            value = players
        slot = slot * param_values(param, hand_size, n_colours, players) + value
    return slot
