"""Run seeded batches of games through the kernel (``tabletop_mc.runner``) and keep the raw results.

Two kinds of batch: a **profile** (one strategy per seat, rotated over the seats on request;
chunk c draws from random stream (seed, c)) and a **field** (``FieldPlay``: every seat's
member drawn per game, optionally one focal seat per game; every game has streams of its own,
``kernels.game.engine``, so runs on the same seed share deals and draws game by game).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.jitcache import needs_compile
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import derive_seed, run_chunked, set_threads
from tabletop_mc.runsettings import RunSettingsBase
from caesar_sim.fieldplay import FieldPlay, field_play
from caesar_sim.kernels import layout
from caesar_sim.kernels.contexts import Results, seats
from caesar_sim.kernels.game.engine import run_batch, run_field_batch
from caesar_sim.profile import MC_CHUNK, Profile, is_field, parse_profile
from caesar_sim.rules import RuleSet, check_players, kernel_rules, load_rules

FAST_CHUNK = 2048


@dataclass(frozen=True, kw_only=True)
class RunSettings(RunSettingsBase):
    """How a run plays, apart from who plays and how many games: ``RunSettingsBase`` (seed, threads,
    progress); ``rules`` (a RuleSet, a TOML file or None: the standard rules) and ``overrides``
    (``KEY=VALUE`` texts of ``--set``); ``mc_horizon``, where `mc`'s rollouts end ("day" or "game");
    ``command``, the command line recorded in what the run writes."""

    rules: object = None
    overrides: tuple[str, ...] | list[str] | None = None
    mc_horizon: str = "day"
    command: str = ""


@dataclass
class Batch:
    """Raw results of ``n`` games: totals by seat, the rotation of each game and summed statistics.

    A field batch also holds each seat's member (``members``, indexes into ``profile.labels``);
    its entry 0 is the focal seat ``g % players`` of game g and entry j the seat j places after it.
    """

    rules: RuleSet
    players: int
    profile: Profile | FieldPlay
    n: int
    seed: int
    rotate: bool
    scores: np.ndarray   # (n, players) final coins by seat
    rots: np.ndarray     # (n,) profile entry (s + rot) % players sits in seat s
    stats: np.ndarray    # the STATS vector (kernels.layout) summed over all games
    mc_horizon: str = "day"
    members: np.ndarray | None = None   # field batches: (n, players) member index by seat
    day_totals: np.ndarray | None = None   # on request: (n, days, players) each seat's total at each day's end

    @property
    def is_field(self) -> bool:
        return self.members is not None

    def entry_scores(self) -> np.ndarray:
        """(n, players) final coins by profile entry."""
        idx = (np.arange(self.players)[None, :] - self.rots[:, None]) % self.players
        return np.take_along_axis(self.scores, idx, axis=1)

    def by_label(self) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """(label, final coins, win shares) per profile entry, or per field member over the seat-games it
        was drawn for."""
        if self.is_field:
            sc, sh = self.scores, self.win_shares(by_entry=False)
            return [(label, sc[self.members == m], sh[self.members == m])
                    for m, label in enumerate(self.profile.labels) if (self.members == m).any()]
        sc, sh = self.entry_scores(), self.win_shares()
        return [(label, sc[:, e], sh[:, e]) for e, label in enumerate(self.profile.labels)]

    def win_shares(self, by_entry: bool = True) -> np.ndarray:
        """(n, players) share of the win (ties shared) by entry or by seat."""
        sc = self.entry_scores() if by_entry else self.scores
        top = sc == sc.max(axis=1, keepdims=True)
        return top / top.sum(axis=1, keepdims=True)


def chunk_size_for(profile: Profile) -> int:
    """Games per chunk: small for `mc` (slow games), large otherwise. Fixed per profile => reproducible."""
    return MC_CHUNK if (profile.policies == layout.MC).any() else FAST_CHUNK


def _days_out(n: int, rules: RuleSet, keep: bool) -> np.ndarray:
    """The kernels' day-end totals output: (n, days, MAX_PLAYERS) if ``keep``, else empty (nothing kept)."""
    return np.zeros((n, rules.days, layout.MAX_PLAYERS) if keep else (0, 1, layout.MAX_PLAYERS), dtype=np.int64)


def _check(players, n) -> int:
    check_players(players)
    if isinstance(n, bool) or int(n) < 1:
        raise UserError(f"-n {n}: need at least one game")
    return int(n)


def run_games(players: int, profile: str | Profile | FieldPlay, n: int, settings: RunSettings = RunSettings(), *,
              rotate: bool = False, gift: tuple[int, int] = (-1, 0), label: str = "",
              day_totals: bool = False) -> Batch:
    """Play ``n`` games; the same arguments give the same numbers on any thread count. A field
    (``reference``, ``field:FILE`` or a FieldPlay) plays ``run_field`` (``rotate`` does not apply).
    ``gift``: (favour type, seat) given a favour each day (-1: none). ``day_totals``: keep every
    seat's total at each day's end (``Batch.day_totals``)."""
    if isinstance(profile, FieldPlay) or (isinstance(profile, str) and is_field(profile)):
        play = profile if isinstance(profile, FieldPlay) else field_play(profile, players)
        return run_field(players, play, n, settings, gift=gift, label=label, day_totals=day_totals)
    n = _check(players, n)
    rs = load_rules(settings.rules, settings.overrides)
    prof = profile if isinstance(profile, Profile) else parse_profile(profile, players)
    rulebook = kernel_rules(rs, players, *gift)
    weight_table = prof.kernel_weights(settings.mc_horizon)
    set_threads(settings.threads)
    scores = np.zeros((n, layout.MAX_PLAYERS), dtype=np.int64)
    rots = np.zeros(n, dtype=np.int64)
    days = _days_out(n, rs, day_totals)
    out = Results(scores, rots, np.zeros((0, layout.MAX_PLAYERS), dtype=np.int64), days)
    table = seats(prof.policies, prof.rollouts, seating=np.arange(layout.MAX_PLAYERS), rotate=rotate)
    chunk = chunk_size_for(prof)
    key = seed_key(settings.seed)

    def batch(first, counts):
        game_stats = np.zeros((len(counts), layout.STATS.size))
        run_batch(rulebook, weight_table, table, key, first, counts, chunk, out, game_stats)
        return game_stats

    batch.needs_compile = lambda: needs_compile(run_batch)
    with Progress(n, label or f"caesar {prof.text()}", enabled=settings.progress) as bar:
        res = run_chunked(batch, n, chunk_size=chunk, progress=bar)
    return Batch(rs, players, prof, n, settings.seed, bool(rotate), scores[:, :players], rots, res.totals,
                 settings.mc_horizon, day_totals=days[:, :, :players] if day_totals else None)


def chunk_batches(games: int, chunk: int, threads: int | None, bar=None):
    """The batches of a run of ``games`` games in chunks of ``chunk``: (first chunk index, games per chunk),
    two chunks per thread at a time (chunk c is always the same games, whatever the thread count);
    ``bar`` advances after each batch."""
    nthreads = max(1, set_threads(threads))
    done = 0
    while done < games:
        counts = []
        while len(counts) < 2 * nthreads and done + sum(counts) < games:
            counts.append(min(chunk, games - done - sum(counts)))
        counts = np.array(counts, dtype=np.int64)
        yield done // chunk, counts
        done += int(counts.sum())
        if bar is not None:
            bar.advance(int(counts.sum()))


def game_keys(seed: int) -> tuple[np.uint64, np.uint64]:
    """(draw key, game key) of a field or payoff-table run: the streams every such run on ``seed`` shares."""
    return seed_key(derive_seed(seed, "caesar field draws")), seed_key(derive_seed(seed, "caesar field games"))


def run_field(players: int, play: FieldPlay, n: int, settings: RunSettings = RunSettings(), *,
              gift: tuple[int, int] = (-1, 0), label: str = "", seating=None, stats: bool = True,
              day_totals: bool = False) -> Batch:
    """Play ``n`` field games (``kernels.game.engine``): seats drawn from ``play``'s members, or with
    ``seating`` (one member index per seat) that fixed profile rotated game by game. Game g uses
    the same streams in every run on ``seed``, so two runs differ game by game only by what they
    change (common random numbers)."""
    n = _check(players, n)
    if play.players != players:
        raise UserError(f"field {play.name}: a field for {play.players} players, not {players}")
    rs = load_rules(settings.rules, settings.overrides)
    rulebook = kernel_rules(rs, players, *gift)
    weight_table, pols, ks, cum, focal = play.kernel_tables(settings.mc_horizon)
    seat_arr = np.full(layout.MAX_PLAYERS, -1, dtype=np.int64)
    if seating is not None:
        seating = np.asarray(seating, dtype=np.int64)
        if len(seating) != players or seating.min() < 0 or seating.max() >= len(pols):
            raise UserError(f"seating {list(seating)}: one member index per seat, 0..{len(pols) - 1}")
        seat_arr[:players] = seating
    set_threads(settings.threads)
    scores = np.zeros((n, layout.MAX_PLAYERS), dtype=np.int64)
    members = np.zeros((n, layout.MAX_PLAYERS), dtype=np.int64)
    days = _days_out(n, rs, day_totals)
    out = Results(scores, np.zeros(0, dtype=np.int64), members, days)
    chunk = MC_CHUNK if play.has_mc() else FAST_CHUNK
    dkey, gkey = game_keys(settings.seed)
    table = seats(pols, ks, seating=seat_arr, rotate=True, cum=cum, focal=focal, draw_key=dkey, game_key=gkey)

    def batch(first, counts):
        game_stats = np.zeros((len(counts), layout.STATS.size))
        run_field_batch(rulebook, weight_table, table, first, counts, chunk, bool(stats), out, game_stats)
        return game_stats

    batch.needs_compile = lambda: needs_compile(run_field_batch)
    with Progress(n, label or f"caesar {play.name}", enabled=settings.progress) as bar:
        res = run_chunked(batch, n, chunk_size=chunk, progress=bar)
    rots = (-np.arange(n)) % players  # entry 0 = seat g % players
    return Batch(rs, players, play, n, settings.seed, True, scores[:, :players], rots, res.totals,
                 settings.mc_horizon, members[:, :players], days[:, :, :players] if day_totals else None)
