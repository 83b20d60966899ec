"""Designer studies built on the full game and the odds engine.

- ``cash_in_study``: win rate of one seat cashing in its streak at position
  >= K (K = 1..8, or never) against the others' fixed strategy.
- ``lead_value``: what leading the first trick is worth to a bettor: over
  random hands, the best bet's success rate when the hand's seat leads
  against the same bet when the next seat leads (paired, same deals).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.stats import mean_ci
from sponsio_sim.analysis.game.fit import find_model
from sponsio_sim.analysis.game.setup import parse_strategy
from sponsio_sim.analysis.odds.query import odds
from sponsio_sim.analysis.game.runs import entry_table, run_games
from sponsio_sim.cards import format_cards
from sponsio_sim.rules import RuleSet


def cash_in_study(rules: RuleSet, others: str, n: int, *, seed: int, betting: str = "ev:goal",
                  progress=None) -> pd.DataFrame:
    """One row per cash-in threshold of seat 0's ``betting`` strategy (rotated seats)."""
    model = find_model(rules)
    rest = [parse_strategy(others, rules)] * (rules.players - 1)
    rows = []
    for k in [*range(1, rules.track_win), None]:
        text = f"{betting}:{'never' if k is None else f'cash{k}'}"
        lineup = [parse_strategy(text, rules)] + rest
        totals = run_games(rules, lineup, n, rotate=True, seed=seed, model=model, progress=progress, cache=True)
        t = entry_table(totals, lineup, True, rules).iloc[0]
        rows.append({"strategy": text, "threshold": "never" if k is None else k, "games": t["games"],
                     "win": t["win"], "win_low": t["win_low"], "win_high": t["win_high"], "coins": t["coins"],
                     "coins_low": t["coins_low"], "coins_high": t["coins_high"], "cash_ins": t["cash_ins"],
                     "track_wins": t["track_wins"]})
    return pd.DataFrame(rows)


def lead_value(rules: RuleSet, hands: int, *, seed: int, target_ci: float = 0.02, threads=None) -> pd.DataFrame:
    """Per random hand: the best bet (by EV when leading) and its success rate
    when the seat leads vs when the next seat leads; ``attrs['summary']`` the
    mean paired differences with 95% CIs."""
    rng = np.random.default_rng(seed)
    rows = []
    for h in range(hands):
        perm = [int(x) for x in rng.permutation(rules.deck_size)]
        hand = format_cards(perm[:rules.hand_size], rules)
        talon = format_cards(perm[rules.hand_size:rules.hand_size + rules.talon_size], rules)
        lead = odds(hand, talon, rules=rules, lead=0, seed=seed + h, target_ci=target_ci, threads=threads,
                    cache=True)
        best = lead.iloc[0]
        other = odds(hand, talon, rules=rules, lead=1, bets=best["bet"], seed=seed + h, target_ci=target_ci,
                     threads=threads, cache=True).iloc[0]
        rows.append({"hand": hand, "talon": talon, "bet": best["bet"], "p_lead": best["p"],
                     "p_not_lead": other["p"], "ev_lead": best["ev"], "ev_not_lead": other["ev"],
                     "n_lead": best["n"], "n_not_lead": other["n"]})
    df = pd.DataFrame(rows)
    dp = df["p_lead"] - df["p_not_lead"]
    dev = df["ev_lead"] - df["ev_not_lead"]
    summary = []
    for name, d in (("success rate: lead - not lead", dp), ("EV (coins): lead - not lead", dev)):
        m, lo, hi = mean_ci(d.sum(), (d ** 2).sum(), len(d))
        summary.append({"measure": name, "hands": len(d), "mean": m, "ci_low": lo, "ci_high": hi})
    df.attrs["summary"] = pd.DataFrame(summary)
    return df
