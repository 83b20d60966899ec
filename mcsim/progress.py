"""A small progress bar on stderr for long runs (results stay on stdout)."""

from __future__ import annotations

import os
import sys
import time


class Progress:
    """Counts work done against an expected total; draws after ``delay`` s.

    Draws only when enabled (by default: stderr is a terminal, or the
    environment sets ``MCSIM_PROGRESS=1``), so pipes and tests stay clean.
    """

    def __init__(self, total: int, label: str = "", *, enabled: bool | None = None,
                 delay: float = 1.0, stream=None):
        self.total = max(int(total), 1)
        self.label = label
        self.done = 0
        self.stream = stream or sys.stderr
        if enabled is None:
            enabled = os.environ.get("MCSIM_PROGRESS") == "1" or self.stream.isatty()
        self.enabled = enabled
        self.delay = delay
        self.start = time.perf_counter()
        self._drawn = False
        self._last = 0.0

    def advance(self, amount: int) -> None:
        self.done += int(amount)
        self.draw()

    def set_label(self, label: str) -> None:
        self.label = label
        self.draw()

    def draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and (now - self.start < self.delay or now - self._last < 0.1):
            return
        self._last = now
        frac = min(self.done / self.total, 1.0)
        width = 30
        filled = int(round(frac * width))
        rate = self.done / max(now - self.start, 1e-9)
        self.stream.write(
            f"\r{self.label[:40]:<40} [{'#' * filled}{'.' * (width - filled)}] "
            f"{frac * 100:5.1f}%  {rate / 1000:8.1f}k/s"
        )
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.draw(force=True)
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
