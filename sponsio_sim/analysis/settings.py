"""How a Monte Carlo run goes, apart from what it plays and how many games or rounds.

One ``Run`` travels from a command (or a report, a script, a test) to the
analysis that simulates and on to ``tabletop_mc``'s runner: the numbers
depend on ``seed`` alone, never on ``threads``, ``scheduler`` or ``workers``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop_mc.runsettings import RunSettingsBase


@dataclass(frozen=True, kw_only=True)
class Run(RunSettingsBase):
    """``RunSettingsBase`` (seed, threads, progress: here False by default) and where the batches run:
    ``scheduler`` (``tcp://HOST:PORT``) or ``workers`` (a local cluster) run them on Dask; ``cache``
    keeps finished batches on disk (a rerun or a killed run resumes)."""
    progress: object = False
    scheduler: str | None = None
    workers: int | None = None
    cache: bool = False
