"""Flat kernel vectors read by name.

Kernels keep statistics and state in plain float64 or int64 vectors at
module-constant offsets (numba compiles the offsets in). The analysis layer
and the tests read and write the same memory by name through a numpy record
dtype built from those offsets, without a copy: ``named(totals,
dtype)["games"]``. One mechanism for both games.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np


def record_dtype(fields, size: int, slot=np.float64) -> np.dtype:
    """A record dtype over ``size`` slots of 8 bytes (``slot``: float64 or
    int64). ``fields`` are ``(name, offset, shape)`` or ``(name, offset,
    shape, record)`` (a nested record dtype, e.g. one block per seat); shape
    ``()`` is one value. Every slot must be named exactly once, so the names
    and the kernel's offsets cannot drift apart silently."""
    names, formats, offsets, slots = [], [], [], []
    for name, at, shape, *sub in fields:
        base = sub[0] if sub else np.dtype(slot)
        width = base.itemsize // 8 * math.prod(shape)
        names.append(name)
        formats.append((base, shape) if shape else base)
        offsets.append(8 * at)
        slots.extend(range(at, at + width))
    if sorted(slots) != list(range(size)):
        missing = sorted(set(range(size)) - set(slots))[:5]
        raise ValueError(f"record fields must cover slots 0..{size - 1} once (missing {missing}, "
                         f"{len(slots) - len(set(slots))} named twice)")
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": 8 * size})


def named(vector, dtype: np.dtype):
    """``vector`` (``dtype.itemsize // 8`` values of 8 bytes) as a record: a
    view, so it reads and writes the vector's own memory (a vector that is
    not contiguous 8-byte values is refused rather than copied)."""
    vector = np.asarray(vector)
    if vector.dtype != _slot(dtype) or not vector.flags.c_contiguous:
        raise ValueError(f"a contiguous vector of {_slot(dtype)}, not {vector.dtype} (contiguous: "
                         f"{vector.flags.c_contiguous})")
    if vector.nbytes != dtype.itemsize:
        raise ValueError(f"a vector of {vector.size} values; this record has {dtype.itemsize // 8}")
    return vector.view(dtype)[0]


def _slot(dtype: np.dtype) -> np.dtype:
    """The slot type of a record dtype (its first plain field's)."""
    while dtype.fields is not None:
        dtype = dtype.fields[dtype.names[0]][0]
    return dtype.base


RESERVED = ("size", "dtype", "named", "count", "index")


def layout(slot, fields, start: int = 0, name: str = "Layout"):
    """A flat vector's fields declared once, in order, as ``(name, shape)``:
    shape ``()`` is one value, ``n`` or a tuple an array of them (row-major);
    the first field is at slot ``start`` (a vector may continue another
    layout's). Returns the offsets as an instance of a named tuple class, one
    field per name plus ``size`` (one past the last slot), which numba
    compiles in as constants (``S[STATE.hand + p]``); the class also
    carries ``dtype``, the vector's record dtype (slots before ``start``
    unnamed), and ``named(vector)``, the vector read by name without a copy
    (``STATE.named(S)["hand"][p]``). ``slot``: np.float64, np.int64 or
    np.uint64, the vector's values."""
    names, at, rows = [], start, []
    for field, shape in fields:
        if field in RESERVED or field.startswith("_"):
            raise ValueError(f"{name}: field name {field!r} is reserved")
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        names.append(field)
        rows.append((field, at, shape))
        at += math.prod(shape)
    cls = namedtuple(name, names + ["size"])
    dtype = np.dtype({"names": [r[0] for r in rows], "formats": [(np.dtype(slot), r[2]) if r[2] else np.dtype(slot)
                                                                  for r in rows],
                      "offsets": [8 * r[1] for r in rows], "itemsize": 8 * at})
    offsets = type(name, (cls,), {"__slots__": (), "dtype": dtype,
                                  "named": lambda self, vector: named(vector, self.dtype)})
    return offsets(*[r[1] for r in rows], at)
