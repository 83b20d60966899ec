"""Worlds of the hidden cards for a decision, weighted by what the others did.

Proposals are uniform given what the deciding seat sees; with inference
each gets the likelihood of the round's history under the assumed betting
policy (``kernels.advise.infer``), and the worlds the ranking plays are
drawn from the weighted proposals (systematic resampling). The effective
sample size of the weights says how much the history narrowed the deal;
when it would fall below ``MIN_ESS`` the log-likelihoods are tempered
(scaled down) until it does not, and only if no tempering helps (every
proposal but a few is impossible) are the worlds left uniform; the note
says which.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import derive_seed
from sponsio_sim.analysis.advise.fieldread import read_field
from sponsio_sim.analysis.game.lineup import Lineup, resolve
from sponsio_sim.analysis.game.setup import Profile, copy_arrays, parse_strategy, set_entry
from sponsio_sim.kernels.advise.actions import END_USE
from sponsio_sim.kernels.advise.infer import propose_worlds, world_logliks
from sponsio_sim.kernels.layout import BOARD

MIN_ESS = 50           # fewer effective proposals than this: no inference (uniform worlds)
PROPOSALS_PER_WORLD = 50   # proposals per world played (at least MIN_PROPOSALS): more proposals, a larger effective sample
MIN_PROPOSALS = 50_000
DEFAULT_TREMBLE = 0.05 # P-weight of an action the assumed policy would not take (scripts/advise_calibration.py)


@dataclass(frozen=True)
class Reading:
    """How the other seats' actions are read as evidence about their hands: ``infer`` (False: every
    consistent deal equally likely), under the betting policy ``assume`` (None: each seat's own),
    an action that policy would not take weighted ``tremble``, over ``proposals`` deals (None: a
    number per world played, at least ``MIN_PROPOSALS``)."""
    infer: bool = True
    assume: str | None = None
    tremble: float = DEFAULT_TREMBLE
    proposals: int | None = None


@dataclass
class Worlds:
    hands: np.ndarray        # (n, players) uint64: the worlds the ranking plays
    proposals: np.ndarray    # (m, players) uint64: the uniform proposals
    weights: np.ndarray      # (m,) normalised weights of the proposals (uniform without inference)
    ess: float               # effective sample size of the weights
    note: str                # how the worlds were drawn, in words


def seat_strategies(profile, rules, model=None, state=None, *, tremble: float = DEFAULT_TREMBLE, seed: int = 1):
    """(profile, its ``Lineup``: one strategy per seat and their success model) from
    ``--profile`` (default: ``reference``, the reference field), resolved as every
    command resolves one (``analysis.game.lineup``). Advice reads and plays each seat
    by one strategy: in a field, the member each other seat's actions at ``state``
    make most likely (``fieldread``; without a state, the field's heaviest member at
    every seat); the reading's note is the seats' ``Profile.name``."""
    profile = profile or "reference"
    lineup = resolve(profile, rules, model)
    field = lineup.strategies
    if field.field is None:
        return profile, lineup
    if state is None:
        heaviest = field[int(np.argmax(field.weights))]
        seats = Profile([heaviest] * rules.players, name=f"{field.text()}: every seat read as {heaviest.text}")
    else:
        reading = read_field(field, state, lineup.model, tremble=tremble, seed=seed)
        seats = reading.seats
        seats.name = reading.note
    return profile, Lineup(seats, lineup.model)


def assumed_strategy(text: str, rules):
    """``--assume``: a betting policy that reads its hand (``ev``, ``evT``;
    a whole strategy such as ``ev0.25:goal`` is fine too)."""
    st = parse_strategy(text if ":" in text else f"{text}:goal", rules)
    if st.betting not in ("ev", "mc"):
        raise UserError(f"--assume {text}: inference needs a betting policy that reads its hand "
                        "(ev or evT, e.g. ev0.25)")
    return st


def assumed_arrays(start, seat: int, assume: str | None, rules, strategies):
    """The round-start arrays with every other seat betting by the assumed
    policy (None: its own strategy's; ``mc`` read as ``ev``, the policy its
    rollouts play for it; a ``troll`` reads nothing from its hand, so its
    passes weigh every deal alike)."""
    board, game_state, money = copy_arrays(start)
    for s in range(rules.players):
        if s == seat:
            continue
        st = assumed_strategy(assume, rules) if assume is not None else strategies[s]
        if st.betting == "random":
            raise UserError(f"seat {s} plays {st.text}: inference needs a betting policy that does not act at "
                            "random (give --assume ev, or --no-infer)")
        if st.betting == "mc":
            st = parse_strategy(f"ev0:{st.play}", rules)
        set_entry(game_state, s, st)
    return board, game_state, money


def draw_worlds(arrays, n: int, seed: int, reading: Reading, *, rules, strategies, propose=None,
                memo: dict | None = None) -> Worlds:
    """``n`` worlds for ``arrays`` (``analysis.advise.arrays.StateArrays``) read as ``reading`` says: every
    seat's hand as it is now, or with ``propose(key, out)`` (rows: worlds,
    uniform given what the deciding seat sees; stream key ``key``) as
    ``propose`` deals them (the trick phase: as betting ended, the
    likelihoods then seat by seat, ``seat_logliks``, kept in ``memo``)."""
    infer, assume, tremble = reading.infer, reading.assume, reading.tremble
    m = max(int(reading.proposals or max(PROPOSALS_PER_WORLD * n, MIN_PROPOSALS)), n)
    props = np.zeros((m, rules.players), dtype=np.uint64)
    key = seed_key(derive_seed(seed, "advise", "worlds"))
    if propose is None:
        propose_worlds(np.int64(arrays.seat), *arrays.now, key, props)
    else:
        propose(key, props)
    judged = sum(1 for h in arrays.hist if h[1] != END_USE and h[0] != arrays.seat)
    if not infer or judged == 0:
        w = np.full(m, 1.0 / m)
        why = "no inference (--no-infer)" if not infer else "nothing to infer from (no other seat has acted)"
        return Worlds(props[:n].copy(), props, w, float(m), why)
    start = assumed_arrays(arrays.start, arrays.seat, assume, rules, strategies)
    if propose is None:
        ll = np.empty(m, dtype=np.float64)
        others = ((1 << rules.players) - 1) & ~(1 << arrays.seat)
        world_logliks(np.int64(others), arrays.hist, np.int64(len(arrays.hist)), float(tremble), *start, props, ll)
    else:
        ll = seat_logliks(arrays, start, props, tremble, {} if memo is None else memo)
    if not np.isfinite(ll).any():
        raise UserError("no deal of the hidden cards can have produced this history (check the revealed cards)")
    w, ess, beta = _tempered(ll)
    who = assume or "each seat's own betting policy"
    if ess < MIN_ESS:
        return Worlds(props[:n].copy(), props, np.full(m, 1.0 / m), float(m),
                      f"inference collapsed (effective sample {ess:.0f} of {m:,} proposals under {who}): "
                      "hidden cards dealt uniformly instead")
    rng = np.random.default_rng(derive_seed(seed, "advise", "resample"))
    picks = np.searchsorted(np.cumsum(w), (rng.random() + np.arange(n)) / n, side="right")
    picks = np.minimum(picks, m - 1)
    note = (f"inference: {judged} action(s) of other seats read under {who} (tremble {tremble:g}"
            + (f", tempered to the power {beta:.2f} to keep {MIN_ESS} effective proposals" if beta < 1 else "")
            + f"); effective sample {ess:,.0f} of {m:,} proposals")
    return Worlds(props[picks], props, w, ess, note)


def seat_logliks(arrays, start, props, tremble: float, memo: dict) -> np.ndarray:
    """The history's log-likelihood in each proposal, summed seat by seat: a
    betting policy reads only its own hand and what is public, so a world's
    likelihood is the product of each other seat's, given its hand alone
    (the others holding stand-ins). Each distinct hand of each seat is
    replayed once; ``memo`` keeps ``(seat, hand) -> log-likelihood`` for
    later calls with the same history and assumptions. When the proposals
    hold more distinct seat hands than proposals (early in the trick phase),
    the whole history is replayed in each proposal instead (the same
    likelihoods up to rounding; which way depends on the proposals alone)."""
    players = props.shape[1]
    seats = [t for t in range(players)
             if t != arrays.seat and any(h[0] == t and h[1] != END_USE for h in arrays.hist)]
    distinct = [np.unique(props[:, t], return_inverse=True) for t in seats]
    if sum(len(h) for h, _ in distinct) > len(props):
        ll = np.empty(len(props))
        judged = sum(1 << t for t in seats)
        world_logliks(np.int64(judged), arrays.hist, np.int64(len(arrays.hist)), float(tremble), *start, props, ll)
        return ll
    stand_in = arrays.now[0][BOARD.hands:BOARD.hands + players].copy()
    total = np.zeros(len(props))
    for t, (hands, inverse) in zip(seats, distinct):
        new = [h for h in hands.tolist() if (t, h) not in memo]
        if new:
            rows = np.tile(stand_in, (len(new), 1))
            rows[:, t] = np.array(new, dtype=np.uint64)
            out = np.empty(len(new))
            world_logliks(np.int64(1 << t), arrays.hist, np.int64(len(arrays.hist)), float(tremble), *start, rows, out)
            memo.update(zip(((t, h) for h in new), out.tolist()))
        total += np.array([memo[(t, h)] for h in hands.tolist()])[inverse]
    return total


def _ess(w: np.ndarray) -> float:
    return float(1.0 / np.sum(w * w))


def _weights(ll: np.ndarray, beta: float) -> np.ndarray:
    w = np.exp(beta * (ll - ll.max()))
    return w / w.sum()


def _tempered(ll: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Normalised weights ``exp(beta * ll)``: beta = 1 unless that leaves
    fewer than ``MIN_ESS`` effective proposals, then the largest beta that
    keeps them (bisection; a smaller beta trusts the history less, as a
    larger tremble would). Returns (weights, effective sample, beta)."""
    w = _weights(ll, 1.0)
    if _ess(w) >= MIN_ESS:
        return w, _ess(w), 1.0
    lo, hi = 0.0, 1.0
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        if _ess(_weights(ll, mid)) >= MIN_ESS:
            lo = mid
        else:
            hi = mid
    w = _weights(ll, lo)
    return w, _ess(w), lo


def card_probs(worlds: Worlds, players: int, n_cards: int) -> np.ndarray:
    """P(card c is in seat t's hand now) under the worlds' weights: (players, n_cards)."""
    out = np.zeros((players, n_cards))
    for c in range(n_cards):
        has = ((worlds.proposals >> np.uint64(c)) & np.uint64(1)).astype(bool)
        out[:, c] = worlds.weights @ has
    return out
