"""Card notation <-> card ids and bitmasks.

Card id = colour index x 9 + (rank - 1); colour index follows the rule set's
colour list (R, B, G, Y by default). A set of cards is a bitmask (Python int
or numpy uint64): bit ``id`` set means the card is in the set.
"""

from __future__ import annotations

import re

import numpy as np

from tabletop_mc.errors import UserError
from sponsio_sim.rules import RANKS, RuleSet

_SPLIT = re.compile(r"[\s,]+")


def card_id(colour_index: int, rank: int) -> int:
    return colour_index * RANKS + rank - 1


def card_name(cid: int, rules: RuleSet) -> str:
    return f"{rules.colours[cid // RANKS]}{cid % RANKS + 1}"


def colour_mask(colour_index: int) -> int:
    return ((1 << RANKS) - 1) << (colour_index * RANKS)


def colour_masks(rules: RuleSet) -> np.ndarray:
    """uint64 mask of each colour's cards (for kernels)."""
    return np.array([colour_mask(c) for c in range(rules.n_colours)], dtype=np.uint64)


def parse_card(token: str, rules: RuleSet, what: str = "card") -> int:
    """Card id of a token such as ``R9`` or ``g3`` (case-insensitive)."""
    t = token.strip().upper()
    if len(t) == 2 and t[0] in rules.colours and t[1] in "123456789":
        return card_id(rules.colours.index(t[0]), int(t[1]))
    if len(t) == 2 and t[0] in "RBGY" and t[1] in "123456789":
        raise UserError(f"{what}: card {token!r} does not exist with colours {''.join(rules.colours)}")
    raise UserError(f"{what}: unknown card {token!r} (cards are a colour "
                    f"{'/'.join(rules.colours)} and a rank 1..9, e.g. R9)")


def parse_cards(text: str | None, rules: RuleSet, what: str = "cards") -> list[int]:
    """Card ids of a list like ``"R9 R7, g3"``; duplicates are an error."""
    if text is None:
        return []
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    ids: list[int] = []
    for tok in tokens:
        cid = parse_card(tok, rules, what)
        if cid in ids:
            raise UserError(f"{what}: card {card_name(cid, rules)} is listed twice")
        ids.append(cid)
    return ids


def mask_of(ids) -> int:
    m = 0
    for cid in ids:
        m |= 1 << int(cid)
    return m


def ids_of(mask: int) -> list[int]:
    out, m = [], int(mask)
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def format_cards(mask_or_ids, rules: RuleSet) -> str:
    """Notation for a mask or id list, highest colour-major order (R9 R7 B8 ...)."""
    ids = ids_of(mask_or_ids) if isinstance(mask_or_ids, (int, np.integer)) else list(mask_or_ids)
    ids.sort(key=lambda c: (c // RANKS, -(c % RANKS)))
    return " ".join(card_name(c, rules) for c in ids)
