"""Dynamic work sharing between threads: an atomic ticket counter.

numba's ``prange`` hands each thread a fixed, contiguous share of the
iterations (its OpenMP and workqueue layers ignore ``parallel_chunksize``
for this: the chunks are still dealt out statically). That is fine when
items cost alike, but double-dummy solves are heavy-tailed: on the
``--help`` example's 2000 deals a few deals take as long as hundreds of
others, and whichever thread drew them finishes last.

``take(ticket)`` returns the next item number and advances the counter
atomically, so workers (one per thread: ``tabletop_mc.spans.on_threads``, or
the iterations of a ``prange``) can pull items one at a time until they run
out:

    @njit(parallel=True)
    def solve_all(n, workers, ticket):        # ticket = new_ticket()
        for w in prange(workers):
            while True:
                k = take(ticket)
                if k >= n:
                    break
                ...item k...

The ticket must come from outside the function whose ``prange`` takes
from it: numba does not see the intrinsic write to it, and an array
created in that function reads back its initial value after the loop.
Which worker takes which item then depends on timing; a kernel using it
must make each item's result independent of the worker (its own output
slot, no state carried between items that changes answers).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from tabletop_mc.jitcache import configure_shared

configure_shared()   # the kernels below are cached keyed by their sources


@nb.njit(cache=True)
def new_ticket():
    """A fresh ticket (its first ``take`` gives item 0); one per run of
    workers, since a spent ticket hands out nothing more."""
    return np.zeros(1, dtype=np.int64)


@intrinsic
def take(typingctx, ticket):
    """The next item number: ``ticket[0]`` (an int64 array), incremented
    atomically; jitted code only."""
    if not (isinstance(ticket, types.Array) and ticket.dtype == types.int64):
        return None

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [context.get_constant(types.intp, 0)])
        return builder.atomic_rmw("add", ptr, context.get_constant(types.int64, 1), "seq_cst")

    return types.int64(ticket), codegen
