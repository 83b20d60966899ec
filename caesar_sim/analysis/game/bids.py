"""`bids`: the venue-bid value table (net coins a merchant card gains when played)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.stats import mean_ci, wilson
from caesar_sim.analysis.game.runs import Batch, RunSettings, run_games
from caesar_sim.kernels import layout
from caesar_sim.profile import POLICIES
from caesar_sim.rules import VENUES

LOCATIONS = ("Caesars Villa", "Forum Romanum", *VENUES)
PHASE_OF_ROW = (1, 2, 3, 3, 3)

NET_NOTE = ("net coins = the coins the card's items scored for its owner that day (visitor and ticket coins "
            "when assigned, coin cards, gold favours left unused) minus the coins the card would have "
            "scored unplayed; boost/double favours and the start card count 0 here (their value is in "
            "`simulate`'s favour table)")


def bid_table(b: Batch, by_seat: bool = True, by_policy: bool = True) -> pd.DataFrame:
    """One row per policy (or all pooled), (seat order,) location and merchant value played at least once."""
    st = layout.STATS.named(b.stats)["bids"]   # (policy, seat order, row, value, BIN_STATS)
    if not by_seat:
        st = st.sum(axis=1, keepdims=True)
    if not by_policy:
        st = st.sum(axis=0, keepdims=True)
    rows = []
    for pol, order, row, v in zip(*np.nonzero(st[..., 0])):
        cnt, won, tot, sq = st[pol, order, row, v]
        m, lo, hi = mean_ci(tot, sq, cnt)
        p, plo, phi = wilson(won, cnt)
        rows.append({"policy": POLICIES[pol] if by_policy else "all",
                     **({"seat_order": int(order)} if by_seat else {}),
                     "phase": PHASE_OF_ROW[row], "location": LOCATIONS[row], "value": int(v) + 1,
                     "n": int(cnt), "net_coins": m, "net_low": lo, "net_high": hi,
                     "wins_item": p, "wins_low": plo, "wins_high": phi})
    return pd.DataFrame(rows)


def bids(players: int, profile: str, n: int, settings: RunSettings = RunSettings(), *, rotate: bool = False,
         by_seat: bool = True):
    """Play ``n`` games; return (batch, venue-bid table). Seat order 0 = the phase's start player."""
    b = run_games(players, profile, n, settings, rotate=rotate)
    return b, bid_table(b, by_seat)
