"""The numba decorator for kernels that only borrow the arrays they are given.

numba counts references to every array handed to a compiled function, with
an atomic instruction at the call and another at the return, and its pruning
pass removes only the pairs it can see within one function. In the game and
odds kernels, which pass the state arrays (``board``, ``game_state``, ``money``)
through thousands of small calls per round, those atomics were about half of
the run time (``perf`` on ``ev:goal x4``).

A kernel that allocates nothing and returns no array it was given needs no
counting: the caller holds the arrays for the whole call. ``no_refcount``
compiles such a kernel without it (numba's ``_nrt=False``). numba refuses to
compile one that allocates or returns an array it created, so breaking the
contract is a compile error, not a leak; returning an argument array is the
one thing it cannot catch, and no kernel marked so does it
(``tests/plumbing/test_no_refcount.py``).

This is the first half of the kernel-call idiom both games use. The second
half, for kernels that pass several arrays through many small calls, is to
pass typed data pointers instead of the arrays (``tabletop_mc.pointers``):
without counting, an array argument still costs seven machine words per
call, a pointer one.
"""

from __future__ import annotations

import numba as nb

NO_REFCOUNT = {"cache": True, "_nrt": False}


def no_refcount(fn):
    """``numba.njit(cache=True)`` without reference counting (module docstring)."""
    return nb.njit(**NO_REFCOUNT)(fn)
