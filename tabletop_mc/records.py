"""Statistics vectors read by name.

Kernels add to plain float64 vectors at module-constant offsets (numba
compiles the offsets in). The analysis layer reads the same memory by name
through a numpy record dtype built from those offsets, without a copy:
``named(totals, dtype)["games"]``. One mechanism for both games.
"""

from __future__ import annotations

import math

import numpy as np


def record_dtype(fields, size: int) -> np.dtype:
    """A record dtype over ``size`` float64 slots. ``fields`` are ``(name,
    offset, shape)`` or ``(name, offset, shape, record)`` (a nested record
    dtype, e.g. one block per seat); shape ``()`` is one value. Every slot must
    be named exactly once, so the names and the kernel's offsets cannot drift
    apart silently."""
    names, formats, offsets, slots = [], [], [], []
    for name, at, shape, *sub in fields:
        base = sub[0] if sub else np.dtype(np.float64)
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
    """``vector`` (one statistics vector of ``dtype.itemsize // 8`` float64s) as a record:
    a view, so it reads (and writes) the vector's own memory."""
    vector = np.ascontiguousarray(vector, dtype=np.float64)
    if vector.nbytes != dtype.itemsize:
        raise ValueError(f"a statistics vector of {vector.size} values; this record has {dtype.itemsize // 8}")
    return vector.view(dtype)[0]
