"""Choice balance of one rule set under one profile: the tables of `sponsio balance`.

One multi-play run (``plays.choice_plays``) measures everything on the same
games: the profile's own play gives the levels (bets placed and won, troll
share, game length and end reasons, per-seat results, the coin flow), the
deviating player's plays give each bet type's restricted-play value and the
worth of trolling every round, paired game by game. Each measure carries a
95 % interval and n: Wilson for a share of trials (hits of bets, a share of
games), t intervals for means and paired differences, the delta method over
games for ratios of sums (a type's share of the bets, the troll share, coins
per seat-round), since bets and seat-rounds cluster within games.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from tabletop_mc.backend import use_backend
from tabletop_mc.progress import Progress
from tabletop_mc.runner import set_threads
from tabletop_mc.stats import CI_METHOD
from sponsio_sim.analysis.balance.criteria import Bands
from sponsio_sim.analysis.balance.measures import SEAT_GAP, coin_flow, focal_share, focal_value, level
from sponsio_sim.analysis.balance.plays import ChoicePlays, PlayRun, choice_plays, run_plays
from sponsio_sim.analysis.balance.run import Balance, bet_rows, family_rows, kind_rows, seat_rows, troll_tables
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.analysis.game.runs import check_n, entry_table, game_table, rounds_histogram, seat_table
from sponsio_sim.analysis.game.setup import Profile, parse_profile
from sponsio_sim.analysis.settings import Run
from sponsio_sim.kernels.layout import GAME_MEASURES
from sponsio_sim.rules import RuleSet, load_rules

SHARE_CI = "shares of bets, troll share and coins per seat-round: ratios over games, delta-method t interval"


@dataclass
class Choice:
    """A choice-balance measurement: the run, its plays, and the criterion's bands."""

    rules: RuleSet
    profile: Profile
    plays: ChoicePlays
    run: PlayRun
    bands: Bands = field(default_factory=Bands)

    @property
    def totals(self) -> np.ndarray:
        """The profile's own games (what a rotated tournament of the same seed sums)."""
        return self.run.totals[0]

    def share(self, kind: str) -> tuple[float, float, float]:
        lv = level(self.run, 0, f"{kind} share of bets")
        return lv["level"], lv["level_low"], lv["level_high"]

    def rp_value(self, kind: str) -> tuple[float, float, float]:
        """Win share the deviating player loses without ``kind`` (paired; NaN if it has no such play)."""
        j = self.plays.without.get(kind)
        if j is None:
            return float("nan"), float("nan"), float("nan")
        return focal_value(self.run, self.plays.base, j)

    def game(self, name: str) -> tuple[float, float, float]:
        lv = level(self.run, 0, name)
        return lv["level"], lv["level_low"], lv["level_high"]

    def member_gains(self) -> pd.DataFrame:
        """A field's members, each at the focal seat against the field (paired with the field's
        own play): the gain in win share (empty without member plays)."""
        rows = []
        for text, j in self.plays.members.items():
            g, lo, hi = self.run.moments.diff(self.run.at(j, GAME_MEASURES.focal_share),
                                              self.run.at(0, GAME_MEASURES.focal_share))
            rows.append({"member": text, "gain": g, "gain_low": lo, "gain_high": hi})
        return pd.DataFrame(rows, columns=["member", "gain", "gain_low", "gain_high"])


def measure_choice(rules: RuleSet, profile: Profile, n: int, *, seed: int, model, progress=None,
                   cache: bool = True, bands: Bands | None = None, deviations: bool = True,
                   members: bool = False) -> Choice:
    """Play the profile's games with the deviating player's plays (``deviations``) and, in a field,
    every member at the focal seat (``members``); module docstring."""
    cp = choice_plays(rules, profile, without=deviations, troll=deviations, members=members)
    run = run_plays(cp.plays, n, seed=seed, model=model, progress=progress, cache=cache)
    return Choice(rules, profile, cp, run, (bands or Bands()).for_rules(rules))


def type_table(ch: Choice) -> pd.DataFrame:
    """Per bet type: multiplier, bets placed and their share of all bets, restricted-play value,
    hit rate, EV per coin, RTP, fair multiplier, volatility, and the criterion's verdicts."""
    rules = ch.rules
    kinds = kind_rows(bet_rows(ch.totals, rules), rules, ch.totals).set_index("type")
    rows = []
    for kind in rules.bets:
        k = kinds.loc[kind]
        share = ch.share(kind)
        value = ch.rp_value(kind)
        rows.append({"type": kind, "multiplier": k["multiplier"], "placed": int(k["placed"]),
                     "share": share[0], "share_low": share[1], "share_high": share[2],
                     "rp_value": value[0], "rp_value_low": value[1], "rp_value_high": value[2],
                     "hit": k["hit"], "hit_low": k["hit_low"], "hit_high": k["hit_high"],
                     "ev_per_coin": k["ev_per_coin"], "ev_low": k["ev_low"], "ev_high": k["ev_high"],
                     "rtp": k["rtp"], "fair_multiplier": k["fair_multiplier"],
                     "volatility_index": k["volatility_index"], "placed_per_round": k["placed_per_round"],
                     "value_verdict": ch.bands.of("rp", kind).verdict(*value, words=("dead", "in band", "dominant")),
                     "share_verdict": ch.bands.of("share", kind).verdict(*share,
                                                                         words=("rare", "in band", "crowding"))})
    return pd.DataFrame(rows)


def troll_table(ch: Choice) -> pd.DataFrame:
    """The troll share of seat-rounds, a troll's pay per troll round, and the worth of trolling:
    the deviating player's win share trolling every round against its own strategy (paired)."""
    summary, _ = troll_tables(ch.totals, ch.rules, ch.profile, None)
    share = level(ch.run, 0, "troll share")
    rows = [{"measure": "troll share of seat-rounds", "n": share["n"], "value": share["level"],
             "ci_low": share["level_low"], "ci_high": share["level_high"]},
            summary.iloc[1].to_dict()]
    cp = ch.plays
    if cp.troll is not None:
        me = cp.player.text
        for label, j in ((f"win share of {me} (the deviating player)", cp.base),
                         ("win share trolling every round (its play and cash-in)", cp.troll)):
            v, lo, hi = focal_share(ch.run, j)
            rows.append({"measure": label, "n": int(ch.run.n), "value": v, "ci_low": lo, "ci_high": hi})
        v, lo, hi = focal_value(ch.run, cp.troll, cp.base)
        rows.append({"measure": "trolling every round less betting (paired)", "n": int(ch.run.n), "value": v,
                     "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def seat_gap_table(ch: Choice) -> pd.DataFrame:
    """Per seat (whatever strategy sat there) win share, then seat 0 against the fair share and the
    largest gap between two seats (paired within games)."""
    players = ch.rules.players
    seats = seat_table(ch.totals, players)
    rows = [{"measure": f"seat {r.seat} win share" + (" (acts first)" if r.seat == 0 else ""), "n": r.games,
             "value": r.win_share, "ci_low": r.share_low, "ci_high": r.share_high} for r in seats.itertuples()]
    for name in SEAT_GAP:
        lv = level(ch.run, 0, name)
        label = f"{name} ({lv['detail']})" if lv["detail"] else f"{name} ({1 / players:.3f})"
        rows.append({"measure": label, "n": lv["n"], "value": lv["level"], "ci_low": lv["level_low"],
                     "ci_high": lv["level_high"]})
    return pd.DataFrame(rows)


def balance_tables(ch: Choice) -> dict[str, pd.DataFrame]:
    """Every table of `sponsio balance`, by name, in print order."""
    rules, totals = ch.rules, ch.totals
    entries = entry_table(totals, ch.profile, True, rules)
    if ch.profile.field is not None:
        entries = entries[entries["weight"] > 0]
    bets = bet_rows(totals, rules)
    _, troll_pay = troll_tables(totals, rules, ch.profile, None)
    return {"bet types": type_table(ch), "bet families": family_rows(totals, rules), "trolls": troll_table(ch),
            "troll pay distribution": troll_pay, "games": game_table(totals, rules.players),
            "rounds": rounds_histogram(totals, rules.players), "seats": seat_gap_table(ch),
            "coin flow": pd.DataFrame(coin_flow(ch.run)),
            "strategies": entries[[c for c in ("entry", "strategy", "weight", "games", "win_share", "share_low",
                                                 "share_high", "coins", "troll_share") if c in entries.columns]],
            "bets": bets[bets["placed"] > 0].sort_values("placed", ascending=False).reset_index(drop=True)}


def header(ch: Choice) -> str:
    """What was measured: rules, players, the deviating player, n, seed, CI methods, bands."""
    cp = ch.plays
    who = (f"the focal seat (seat g % {ch.rules.players} in game g) playing {cp.player.text}, the field's heaviest "
           f"betting member, against seats drawn from the field" if ch.profile.field is not None
           else f"entry {cp.plays[0].entry} ({cp.player.text}), seats rotated") if cp.player else "no betting entry"
    fams = family_rows(ch.totals, ch.rules)
    dominant = "".join(f"\n{r.type}: {r.family} takes {r.share_of_type:.3f} [{r.share_of_type_low:.3f}, "
                       f"{r.share_of_type_high:.3f}] of the {r.type} bets placed (a family that dominates its type)"
                       for r in fams[fams["dominates"]].itertuples())
    return (f"restricted play and trolling: {who}; every play on the same {ch.run.n} games (seed-paired)"
            f"{dominant}\n"
            f"{CI_METHOD}; {SHARE_CI}\ncriterion bands: {ch.bands.text(ch.rules.bets)}; a negative restricted-play "
            "value: the player wins more never placing the type (it places it where it should not)")


def balance(profile="reference", *, players: int | None = None, n: int = 50_000, rules=None, overrides=None,
            bands: Bands | None = None, model=None, run: Run = Run(cache=True)) -> Balance:
    """The choice-balance tables of ``profile`` (module docstring; ``Balance.tables`` in print order);
    ``run``: seed, threads, progress, Dask and the batch cache (``analysis.settings.Run``)."""
    seed, progress, cache = run.seed, run.progress, run.cache
    ruleset = load_rules(rules, players, overrides)
    prof = parse_profile(profile, ruleset)
    check_n(n)
    success = resolve(prof, ruleset, model, progress=progress).model
    set_threads(run.threads)
    plays = len(choice_plays(ruleset, prof).plays)
    with Progress(n * plays, "sponsio balance", enabled=progress) as bar, use_backend(run.scheduler, run.workers):
        ch = measure_choice(ruleset, prof, n, seed=seed, model=success, progress=bar, cache=cache, bands=bands)
    tables = balance_tables(ch)
    _, troll_pay = troll_tables(ch.totals, ruleset, prof, None)
    meta = {"rules": ruleset.summary(), "profile": prof.text(), "n": n, "seed": seed, "model": success.source,
            "ci": CI_METHOD, "volatility": "1.96 x SD of payout per stake", "header": header(ch),
            "field": prof.field is not None}
    return Balance(bets=tables["bets"], kinds=tables["bet types"], by_seat=seat_rows(ch.totals, ruleset),
                   trolls=tables["trolls"], troll_pay=troll_pay, entries=tables["strategies"],
                   games=tables["games"], meta=meta, tables=tables, choice=ch)
