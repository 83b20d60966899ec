"""Array-in, array-out entry points to single engine steps (tests, tools).

Each takes NumPy arrays (``R`` rules, ``PP`` weights, ``S`` state, ``rng``
state, ``lg`` 2-d log, ``st`` statistics; layouts in ``layout``) and runs one
step of ``state``/``policies`` on pointers to them.
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from caesar_sim.kernels.layout import W_SIZE, A_SIZE, S_TURN, S_POL, S_K
from caesar_sim.kernels.game import decide
from caesar_sim.kernels.ptr import as_ptr
from caesar_sim.kernels.setup import setup_day
from caesar_sim.kernels.state import advance, apply_action, new_game, resolve_phase, score_day


@nb.njit(cache=True)
def k_new_game(R, PP, S, pols, ks, rows, rng, lg, st):
    """Deal and set up a game; stop at the first decision."""
    W = np.zeros(W_SIZE)
    new_game(as_ptr(R), as_ptr(S), as_ptr(PP), as_ptr(W), as_ptr(pols), as_ptr(ks), as_ptr(rows), as_ptr(rng),
             as_ptr(lg), as_ptr(st))
    return W[0]


@no_refcount
def k_setup_day(R, S, lg, st):
    """Lay out the day's displays for day ``S[S_DAY]`` from the decks in ``S``."""
    setup_day(as_ptr(R), as_ptr(S), as_ptr(lg), as_ptr(st))


@no_refcount
def k_apply(R, S, p, a, lg, st):
    """Seat ``p`` plays action ``a`` (no turn handling, no resolution)."""
    apply_action(as_ptr(R), as_ptr(S), p, a, as_ptr(lg), as_ptr(st))


@nb.njit(cache=True)
def k_resolve(R, PP, S, rng, lg, st):
    """Resolve the rows of phase ``S[S_PHASE]``."""
    W = np.zeros(W_SIZE)
    resolve_phase(as_ptr(R), as_ptr(S), as_ptr(PP), as_ptr(W), as_ptr(rng), as_ptr(lg), as_ptr(st))
    return W[0]


@no_refcount
def k_score(R, S, lg, st):
    """Score the day (phase 4) into the totals."""
    score_day(as_ptr(R), as_ptr(S), as_ptr(lg), as_ptr(st))


@nb.njit(cache=True)
def k_advance(R, PP, S, a, rng, lg, st):
    """The acting seat plays ``a``; run on to the next decision."""
    W = np.zeros(W_SIZE)
    advance(as_ptr(R), as_ptr(S), as_ptr(PP), as_ptr(W), a, as_ptr(rng), as_ptr(lg), as_ptr(st))
    return W[0]


@nb.njit(cache=True)
def k_decide(R, PP, S, rng):
    """The action the acting seat's policy chooses now (state unchanged except the rng)."""
    B = np.zeros(S.shape[0], np.int64)
    A = np.zeros(A_SIZE, np.int64)
    W = np.zeros(W_SIZE)
    lg = np.zeros(2, np.int64)
    st = np.zeros(1)
    a = decide(as_ptr(R), as_ptr(S), as_ptr(PP), as_ptr(rng), as_ptr(B), as_ptr(A), as_ptr(W),
               as_ptr(lg), as_ptr(st))
    return a + 0 * (B[0] + A[0] + lg[0]) + int(0 * (W[0] + st[0]))
