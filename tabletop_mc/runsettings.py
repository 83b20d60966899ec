"""What every Monte Carlo run of either game carries besides what it plays: the seed, the threads and
the progress display. Each game's settings extend it (``sponsio_sim.analysis.settings.Run``,
``caesar_sim.analysis.game.runs.RunSettings``); the numbers depend on ``seed`` alone, never on ``threads``."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, kw_only=True)
class RunSettingsBase:
    """``seed``; ``threads`` (None: every core); ``progress`` (None: a bar on a terminal, False: none;
    an analysis that calls another may pass its own ``Progress``)."""
    seed: int = 1
    threads: int | None = None
    progress: object = None

    def but(self, **changes):
        """These settings with ``changes``."""
        return replace(self, **changes)
