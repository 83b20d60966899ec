"""What an odds job returns: the odds table and the question it answers.

Every engine of `sponsio odds` (``query.simulated_odds``, ``dd.pimc_odds``,
``dd.dd_brackets``, ``dd.beside``, ``query.odds``) and the betting's odds of
`sponsio odds state` (``analysis.advise.odds.betting_odds``) return an
``OddsResult``: the table, and the words and settings its title and JSON
meta print. Typed fields rather than pandas' experimental ``attrs``: the
signature says what the job returns, and no pandas operation on the table
drops them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class OddsResult:
    """The odds ``table`` (one row per bet, or per bet beside the DD brackets) and what it answers:
    the ``situation`` and ``rules`` summary in words, the asking ``seat``, the ``seed``, the asking
    seat's play ``policy`` and the ``opponents``' (``-`` for the DD brackets alone); ``left_out``:
    the bets left out and why (empty: none); ``inference``: how the hidden cards were read (empty:
    not read); ``outside``: the rows whose simulated rate lies outside the DD brackets (``bet: note``);
    ``effective``: the effective sample of weighted worlds, and ``model``: the success model's
    source, where the odds come from the inference's worlds (None otherwise)."""
    table: pd.DataFrame
    situation: str
    rules: str
    seat: int
    seed: int
    policy: str
    opponents: str
    left_out: str = ""
    inference: str = ""
    outside: tuple[str, ...] = ()
    effective: float | None = None
    model: str | None = None
