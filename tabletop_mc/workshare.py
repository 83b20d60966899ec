"""Dynamic work sharing between threads: an atomic ticket counter.

numba's ``prange`` hands each thread a fixed, contiguous share of the
iterations (its OpenMP and workqueue layers ignore ``parallel_chunksize``
for this: the chunks are still dealt out statically). That is fine when
items cost alike, but double-dummy solves are heavy-tailed: on the
``--help`` example's 2000 deals a few deals take as long as hundreds of
others, and whichever thread drew them finishes last.

``take(ticket)`` returns the next item number and advances the counter
atomically, so workers, one per thread, pull items one at a time until
they run out (as ``sponsio_sim.kernels.odds.dd`` solves its deals):

    @njit(nogil=True)
    def worker(deals, ticket, out):
        k = take(ticket)
        while k < deals.shape[0]:
            ...solve deal k into out[k]...
            k = take(ticket)

    ticket = new_ticket()   # one ticket, shared by every worker
    on_threads(lambda: worker(deals, ticket, out))   # tabletop_mc.spans

The iterations of a ``prange`` can take from a ticket too, but it must come
from outside the function whose ``prange`` takes from it: numba does not
see the intrinsic write to it, and an array created in that function reads
back its initial value after the loop.

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
