"""`sponsio meta`: the meta-game over a population of strategies, and PSRO.

The population (``tabletop_mc.field``: ``default`` is
``sponsio_sim/fields/population.toml``) spans the symmetric N-seat game
whose payoff is a seat's win share. Every profile (a multiset of N members)
is played for ``n`` games, seats rotated, all profiles from the same seed
(common random numbers, ``kernels.game.meta``); each member seated in a
game gives one sample, the mean win share of its seats. Playing every
profile (C(N+K-1, N) of them: 126 for K = 6 at 4 seats) rather than sampling
profiles from a mixture keeps the table independent of any mixture, so it
serves every re-solve and each PSRO step only adds the new member's profiles;
at the `ev` members' speed (``scripts/bench_sponsio.py --game``) that costs
minutes, not hours.

``tabletop_mc.metarun`` solves the table (equilibria, regrets and weights
with bootstrap CIs, alpha-Rank). ``psro`` adds best responses: against the
equilibrium as a field, every deviation of the ``exploit`` families around
each member in its support (thresholds, cash-in, troll, a temperature) is
played paired with the field (``exploit``'s focal seat), and the best one
joins the population when its gain's 95 % lower bound exceeds the margin;
then the new profiles are played and the game is solved again, until no
deviation gains or the steps run out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.backend import KernelBatch
from tabletop_mc.errors import UserError
from tabletop_mc.field import Population, load_population
from tabletop_mc.metarun import MARGIN, MetaResult, play, solve
from tabletop_mc.resultcache import ResultCache
from tabletop_mc.runner import derive_seed, run_chunked
from tabletop_mc.stats import mean_ci
from sponsio_sim.analysis.game.exploit import deviations, paired_run
from sponsio_sim.analysis.game.runs import GAME_CHUNK
from sponsio_sim.betting_policies import TEMPERED
from sponsio_sim.analysis.game.setup import Profile, Strategy, build_state, game_arrays, mixture_profile, parse_strategy
from sponsio_sim.kernels import CACHE_DIR
from sponsio_sim.kernels.layout import MAX_ENTRIES, PAIRED, PAIR_STATS, RULES, stats_size
from sponsio_sim.kernels.game.engine import switches

TEMPS = (0.25, 1.0)            # PSRO also tries each support member with these softmax temperatures
PSRO_FAMILIES = "ev,cash,troll"


def population(spec: str, rules) -> Population:
    """The population ``spec`` (``default`` or a TOML file), members as canonical strategy texts."""
    return load_population(spec, "sponsio_sim", lambda t: parse_strategy(t, rules, clamp_cash=True).text)


def adapter(rules, members: list[Strategy], model, *, bar=None, cache: bool = True):
    """The payoff-table adapter ``play(counts, games, seed)`` (``tabletop_mc.metagame.build``)."""
    k = len(members)

    def run(counts, games, seed):
        lineup = Profile([members[j] for j, c in enumerate(counts) for _ in range(c)])
        groups = np.array([j for j, c in enumerate(counts) for _ in range(c)], dtype=np.int64)
        board, game_state, money = build_state(rules, lineup, model, rotate=True)
        start = game_arrays(board, game_state, money)
        size = np.int64(stats_size(rules.players, start.rules[RULES.entries]))
        batch = KernelBatch("sponsio_sim.kernels.game.meta", "profile_chunks", seed,
                            start, groups, np.int64(k), size, *switches(game_state))
        store = ResultCache(batch.cache_key(CACHE_DIR.name, GAME_CHUNK)) if cache else None
        totals = run_chunked(batch, games, chunk_size=GAME_CHUNK, progress=bar, cache=store).totals
        return totals[:k], totals[k:2 * k], totals[2 * k:]

    return run


def focal_gain(rules, field: Profile, st: Strategy, n: int, *, seed: int, model, bar=None) -> tuple:
    """(gain, low, high): the mean paired gain in win share of one seat (rotating) playing ``st``
    against the field over its own value, with a 95 % t interval (``exploit``'s focal pairing)."""
    grown = field.with_member(st)
    _, _, pair = paired_run(rules, grown, grown, len(field), n, seed=seed, model=model, progress=bar,
                            focal=len(field))
    return mean_ci(pair[PAIR_STATS.share + PAIRED.diff], pair[PAIR_STATS.share + PAIRED.diff_sq],
                   pair[PAIR_STATS.games])


def best_responses(rules, field: Profile, model, *, n: int, seed: int, bar=None) -> pd.DataFrame:
    """Every PSRO candidate (module docstring) against ``field``: its paired gain over the
    field's own value, with a 95 % t interval, best first."""
    support = [st for st, w in zip(field, field.weights) if w > 1e-3]
    known = {st.text for st in field}
    cands: dict[str, Strategy] = {}
    for st in support:
        for _, dev in deviations(st, rules, PSRO_FAMILIES):
            cands.setdefault(dev.text, dev)
        if st.betting in TEMPERED:
            for t in TEMPS:
                dev = Strategy(st.betting, st.play, st.cash, st.param, st.without, t)
                cands.setdefault(dev.text, dev)
    rows = []
    for text, dev in cands.items():
        if text in known:
            continue
        if bar is not None:
            bar.set_label(f"psro {text}")
        g, lo, hi = focal_gain(rules, field, dev, n, seed=seed, model=model, bar=bar)
        rows.append({"strategy": text, "games": n, "gain": g, "gain_low": lo, "gain_high": hi})
    df = pd.DataFrame(rows)
    return df.sort_values("gain_low", ascending=False, ignore_index=True) if len(df) else df


def meta_game(rules, members: list[Strategy], model, *, n: int, seed: int, psro: int = 0, margin: float = MARGIN,
              oracle_games: int | None = None, bar=None, cache: bool = True) -> tuple[MetaResult, pd.DataFrame]:
    """Play and solve the meta-game of ``members``; then up to ``psro`` PSRO steps (module
    docstring). Returns the final result and one row per PSRO step."""
    members = list(members)
    names = [m.text for m in members]
    table = play(names, rules.players, adapter(rules, members, model, bar=bar, cache=cache), games=n, seed=seed,
                 bar=bar)
    result = solve(table, seed=seed, margin=margin)
    steps = []
    for step in range(psro):
        field = mixture_profile(members, result.equilibrium.mixture, "equilibrium", rules)
        cands = best_responses(rules, field, model, n=oracle_games or n, seed=derive_seed(seed, "psro", step),
                               bar=bar)
        top = cands.iloc[0] if len(cands) else None
        added = top is not None and top["gain_low"] > margin
        steps.append({"step": step + 1, "members": len(members), "mixture": result.equilibrium.describe(names),
                      "candidates": len(cands), "best": None if top is None else top["strategy"],
                      "gain": None if top is None else top["gain"],
                      "gain_low": None if top is None else top["gain_low"],
                      "gain_high": None if top is None else top["gain_high"], "added": bool(added)})
        if not added:
            break
        if len(members) >= MAX_ENTRIES - 1:
            raise UserError(f"PSRO: the population reached {len(members)} members (at most "
                            f"{MAX_ENTRIES - 1}); stop here or start from a smaller population")
        members.append(parse_strategy(top["strategy"], rules))
        names.append(members[-1].text)
        table = play(names, rules.players, adapter(rules, members, model, bar=bar, cache=cache), games=n,
                     seed=seed, base=table, bar=bar)
        result = solve(table, seed=seed, margin=margin)
    return result, pd.DataFrame(steps)
