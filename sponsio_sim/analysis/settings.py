"""How a Monte Carlo run goes, apart from what it plays and how many games or rounds.

One ``Run`` travels from a command (or a report, a script, a test) to the
analysis that simulates and on to ``tabletop_mc``'s runner: the numbers
depend on ``seed`` alone, never on ``threads``, ``scheduler`` or ``workers``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Run:
    """``seed``; ``threads`` (None: every core); ``progress`` (None: a bar on a terminal, False: none;
    an analysis that calls another may pass its own ``Progress``); ``scheduler`` (``tcp://HOST:PORT``)
    or ``workers`` (a local cluster) run the batches on Dask; ``cache`` keeps finished batches on
    disk (a rerun or a killed run resumes)."""
    seed: int = 1
    threads: int | None = None
    progress: object = False
    scheduler: str | None = None
    workers: int | None = None
    cache: bool = False

    def but(self, **changes) -> Run:
        """This run with ``changes``."""
        return replace(self, **changes)
