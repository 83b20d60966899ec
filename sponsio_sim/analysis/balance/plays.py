"""Several plays of the same seeded games (``kernels.game.multiplay``) and the plays balance needs.

A ``Play`` is a line-up under a rule set; ``run_plays`` plays ``n`` games with
every play from the same random numbers and returns each play's statistics
(what a tournament of that play and seed sums, seats rotated) and the moments
of the per-game measures (``tabletop_mc.moments``), from which every paired
difference between plays gets its interval. Finished batches are cached, so a
killed run resumes.

``choice_plays`` builds the plays of a balance measurement: the profile itself,
then the restricted-play and troll deviations of one player. In a field the
deviating player is the focal seat (seat g % players in game g,
``kernels.field``), which plays the field's heaviest betting member
(``base``), that member never placing type T (``without=T``) or trolling every
round with its play and cash-in (``troll``), while the other seats draw from the
field; with fixed seats it is the profile's first betting entry, seats rotated.
So the value of type T is the paired difference ``base - without=T`` of that
player's win share, and every plays' games are the same games.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from tabletop_mc.backend import KernelBatch
from tabletop_mc.errors import UserError
from tabletop_mc.moments import Moments, moments_size
from tabletop_mc.progress import Progress
from tabletop_mc.resultcache import ResultCache
from tabletop_mc.runner import run_chunked
from sponsio_sim.analysis.game.model import fingerprint
from sponsio_sim.analysis.game.runs import GAME_CHUNK
from sponsio_sim.analysis.game.setup import Profile, Strategy, build_state, game_arrays
from sponsio_sim.kernels.contexts import GameArrays
from sponsio_sim.kernels import CACHE_DIR
from sponsio_sim.kernels.layout import MAX_ENTRIES, RULES, stats_size
from sponsio_sim.kernels.game.engine import switches
from sponsio_sim.kernels.game.multiplay import measures_size
from sponsio_sim.rules import RuleSet


@dataclass(frozen=True)
class Play:
    """A line-up under a rule set. ``focal`` (a field): the entry the focal seat plays
    (-1: it draws like the others); ``entry`` (fixed seats): the entry whose win share
    is the play's focal measure (``GAME_MEASURES.focal_share``)."""

    rules: RuleSet
    profile: Profile
    focal: int = -1
    entry: int = 0
    label: str = ""


@dataclass
class PlayRun:
    """What ``run_plays`` returns: per play the summed statistics, and the moments of
    every play's game measures side by side (play j's measure i at ``at(j, i)``)."""

    plays: list[Play]
    totals: list[np.ndarray]
    moments: Moments
    k: int
    n: int

    def at(self, j: int, i: int) -> int:
        return j * self.k + i


def _states(plays: list[Play], model):
    built = [build_state(p.rules, p.profile, model, rotate=True, focal=p.focal) for p in plays]
    starts = [game_arrays(*b) for b in built]
    shapes = {(fingerprint(p.rules), int(start.rules[RULES.entries]), len(start.money), len(start.money_rules))
              for p, start in zip(plays, starts)}
    if len(shapes) != 1:
        raise UserError("plays of one run need the same deal, success model and number of profile entries")
    return GameArrays(*(np.stack(field) for field in zip(*starts))), *switches(*(b[1] for b in built))


def run_plays(plays: list[Play], n: int, *, seed: int, model, progress: Progress | None = None,
              cache: bool = True) -> PlayRun:
    """``n`` games, each played by every play from the same random numbers (module docstring);
    ``progress`` advances by the games played (``n`` x plays)."""
    arrays, scored, mc_seats = _states(plays, model)
    players = plays[0].rules.players
    n_stats = stats_size(players, int(arrays.rules[0, RULES.entries]))
    k = measures_size(players)
    m = len(plays) * k
    width = len(plays) * n_stats + moments_size(m)
    focal = np.array([p.entry for p in plays], dtype=np.int64)
    batch = KernelBatch("sponsio_sim.kernels.game.multiplay", "multi_chunks", seed,
                        arrays, focal, np.int64(n_stats), np.int64(k), np.int64(width),
                        scored, mc_seats)
    store = ResultCache(batch.cache_key(CACHE_DIR.name, GAME_CHUNK)) if cache else None
    bar = _Weighted(progress, len(plays)) if progress is not None else None
    totals = run_chunked(batch, n, chunk_size=GAME_CHUNK, progress=bar, cache=store).totals
    per = [totals[j * n_stats:(j + 1) * n_stats] for j in range(len(plays))]
    return PlayRun(plays, per, Moments(totals[len(plays) * n_stats:], m), k, n)


class _Weighted:
    """A progress bar seen through a run of J plays: each game advances it by J (games played)."""

    def __init__(self, bar: Progress, plays: int):
        self.bar, self.plays = bar, plays
        self.enabled = bar.enabled

    def advance(self, amount: int) -> None:
        self.bar.advance(amount * self.plays)

    def note(self, text: str) -> None:
        self.bar.note(text)


@dataclass
class ChoicePlays:
    """The plays of a balance measurement (module docstring) and where each sits."""

    plays: list[Play]
    player: Strategy | None              # the deviating player's own strategy (None: no betting entry)
    base: int = 0                         # the play where that player plays its own strategy
    without: dict[str, int] = field(default_factory=dict)
    troll: int | None = None
    members: dict[str, int] = field(default_factory=dict)   # a field: each member at the focal seat


def choice_plays(rules: RuleSet, profile: Profile, *, without: bool = True, troll: bool = True,
                 members: bool = False) -> ChoicePlays:
    """Plays 0 (the profile), the deviating player's base, ``without=T`` per bet type it
    places, its troll twin and (``members``, a field) every member at the focal seat."""
    fld = profile.field
    if fld is not None:
        betting = [e for e in np.argsort(-np.asarray(fld.weights), kind="stable")
                   if fld.weights[e] > 0 and profile[e].betting != "troll"]
    else:
        betting = [e for e, st in enumerate(profile) if st.betting != "troll"]
    out = ChoicePlays([Play(rules, profile, label="profile")], None)
    if not betting:
        return out
    at = int(betting[0])
    me = profile[at]
    out.player = me
    devs = []
    if without:
        devs += [(f"without={t}", replace(me, without=tuple(k for k in rules.bets if k in me.without or k == t)))
                 for t in rules.bets if t not in me.without]
    if troll:
        devs.append(("troll", Strategy("troll", me.play, me.cash)))
    if not devs and not (members and fld is not None):
        return out
    if fld is not None:
        grown = profile
        for _, st in devs:
            grown = grown.with_member(st)
        if len(grown) > MAX_ENTRIES:
            raise UserError(f"the field has {len(profile)} members: with the {len(devs)} deviations of its "
                            f"heaviest betting member that is more than {MAX_ENTRIES} entries")
        plays = [Play(rules, grown, label="profile"), Play(rules, grown, focal=at, label=me.text)]
        plays += [Play(rules, grown, focal=len(profile) + i, label=label) for i, (label, _) in enumerate(devs)]
        if members:
            plays += [Play(rules, grown, focal=e, label=f"member {profile[e].text}")
                      for e, w in enumerate(fld.weights) if w > 0]
        out.plays, out.base = plays, 1
    else:
        plays = [Play(rules, profile, entry=at, label="profile")]
        for label, st in devs:
            lineup = list(profile)
            lineup[at] = st
            plays.append(Play(rules, Profile(lineup), entry=at, label=label))
        out.plays, out.base = plays, 0
    first = out.base + 1   # the deviations follow the base play
    for i, (label, _) in enumerate(devs):
        if label == "troll":
            out.troll = first + i
        else:
            out.without[label.split("=", 1)[1]] = first + i
    if members and fld is not None:
        out.members = {p.label.split(" ", 1)[1]: j for j, p in enumerate(out.plays) if p.label.startswith("member ")}
    return out
