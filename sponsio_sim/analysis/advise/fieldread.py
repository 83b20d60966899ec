"""Advice against a field: which member each other seat is playing, read from its actions.

In a field every seat draws its strategy per game; the advised seat does not
see the draws. Advice plays one strategy per seat, so each other seat is read
as the member its public actions make most likely: the posterior of member m
for seat t is proportional to the field's weight of m times the mean, over
``READ_WORLDS`` uniform layouts of the hidden cards, of the likelihood of t's
actions under m (the history replayed with t playing m, each action m would
not take costing the tremble, as inference does). A seat that has not acted
is read as the field's heaviest member, and so is the advised seat itself
(its own later play; the advice is what it follows now).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop_mc.rng import seed_key
from tabletop_mc.runner import derive_seed
from sponsio_sim.analysis.advise.arrays import betting_arrays, betting_done, build_state_arrays
from sponsio_sim.analysis.advise.trickphase import build_trick_phase
from sponsio_sim.analysis.game.setup import Profile, copy_arrays, set_entry
from sponsio_sim.kernels.advise.actions import END_USE
from sponsio_sim.kernels.advise.infer import propose_worlds, world_logliks

READ_WORLDS = 2_000


@dataclass(frozen=True)
class FieldReading:
    seats: Profile              # one strategy per seat
    posterior: np.ndarray       # (players, members): each seat's posterior over the field's members
    note: str


def read_field(field: Profile, st, model, *, tremble: float, seed: int) -> FieldReading:
    """Each seat's strategy for advice in the field ``field`` at the table state ``st``."""
    rules = st.rules
    w = np.asarray(field.weights, dtype=float)
    heaviest = int(np.argmax(w))
    start, now, hist, viewer = _betting_view(st, Profile([field[heaviest]] * rules.players), model)
    post = np.tile(w, (rules.players, 1))
    acted = {h[0] for h in hist if h[1] != END_USE}
    others = [t for t in range(rules.players) if t != viewer and t in acted]
    if others:
        props = np.zeros((READ_WORLDS, rules.players), dtype=np.uint64)
        propose_worlds(np.int64(viewer), *now, seed_key(derive_seed(seed, "advise", "field")), props)
        ll = np.empty(READ_WORLDS)
        for t in others:
            score = np.full(len(field), -np.inf)
            for m in np.flatnonzero(w > 0):
                board, game_state, money = copy_arrays(start)
                set_entry(game_state, t, field[m])
                world_logliks(np.int64(1 << t), hist, np.int64(len(hist)), float(tremble), board, game_state,
                              money, props, ll)
                top = ll.max()
                if np.isfinite(top):
                    score[m] = np.log(w[m]) + top + np.log(np.mean(np.exp(ll - top)))
            if np.isfinite(score).any():
                post[t] = np.exp(score - score[np.isfinite(score)].max())
                post[t] /= post[t].sum()
    pick = [int(np.argmax(post[t])) if t in others else heaviest for t in range(rules.players)]
    seats = Profile([field[m] for m in pick])
    read = "; ".join(f"seat {t} read as {field[pick[t]].text} ({post[t, pick[t]]:.2f})" for t in others)
    note = (f"{field.text()}: each other seat read as the member its actions make most likely"
            + (f" ({read}); " if read else "; ") + f"seats without actions and seat {viewer} as "
            f"{field[heaviest].text}")
    return FieldReading(seats, post, note)


def _betting_view(st, seats: Profile, model):
    """(round-start arrays, arrays as betting stands, betting history rows, viewing seat) at ``st``,
    in any phase: the betting decision's table, or the betting as it ended (tricks, cash-in)."""
    if st.after_round():
        start, now, hist = betting_arrays(st, seats, model)
        return start, now, hist, st.seat
    arrays = (build_trick_phase(st, seats, model).arrays if st.in_tricks() or betting_done(st)
              else build_state_arrays(st, seats, model))
    return arrays.start, arrays.now, arrays.hist, arrays.seat
