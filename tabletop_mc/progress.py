"""Progress on stderr for long runs (results stay on stdout).

Three styles: a bar redrawn in place (a terminal), a line every few seconds
(logs, CI: ``--progress`` or ``TABLETOP_MC_PROGRESS=1``), or nothing (``--quiet``,
pipes by default, tests, the Python API). Both show the share done, the
rate, the elapsed time and an estimate of the time left. The bar advances
when a batch of chunks finishes (kernels run whole batches), so a slow
kernel shows fewer, larger steps. ``note`` prints a one-off message in the
same style (e.g. that the kernels are being compiled).

``watching(fn)``: within the block, every Progress this thread advances
calls ``fn(progress)`` too; a server uses it to report progress to a page
and to abandon the work (``fn`` raises) when the page goes away or the
time allowed is spent: the work stops at the next batch.

No tqdm: it would add a dependency for what these ~100 lines do, and its
bar cannot advance inside a numba kernel either.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time

# How a Progress with enabled=None behaves: "auto" (a bar on a terminal, else
# nothing, or lines with TABLETOP_MC_PROGRESS=1), "on" (a bar on a terminal, else
# lines), "lines", "bar" or "off". The CLI's --progress / --quiet set it.
MODE = "auto"
LINE_INTERVAL = 5.0
_WATCH = threading.local()


@contextlib.contextmanager
def watching(fn):
    """Call ``fn(progress)`` whenever a Progress of this thread advances, within the block (module docstring)."""
    before = getattr(_WATCH, "fn", None)
    _WATCH.fn = fn
    try:
        yield
    finally:
        _WATCH.fn = before


def set_mode(mode: str) -> None:
    global MODE
    if mode not in ("auto", "on", "lines", "bar", "off"):
        raise ValueError(mode)
    MODE = mode


def _style(enabled, stream) -> str:
    if enabled is False:
        return "off"
    if enabled is True or MODE == "on":
        return "bar" if stream.isatty() else "lines"
    if MODE != "auto":
        return MODE
    if stream.isatty():
        return "bar"
    return "lines" if os.environ.get("TABLETOP_MC_PROGRESS") == "1" else "off"


def _clock(seconds: float) -> str:
    seconds = int(max(seconds, 0))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Counts work done against an expected total; draws after ``delay`` s."""

    def __init__(self, total: int, label: str = "", *, enabled: bool | None = None,
                 delay: float = 1.0, stream=None, interval: float | None = None, upper_bound: bool = False):
        self.total = max(int(total), 1)
        self.upper_bound = upper_bound  # adaptive runs may stop early: the time left is a ceiling
        self.label = label
        self.done = 0
        self.stream = stream or sys.stderr
        self.style = _style(enabled, self.stream)
        self.enabled = self.style != "off"
        self.delay = delay
        self.interval = LINE_INTERVAL if interval is None else interval
        self.start = time.perf_counter()
        self._drawn = False
        self._last = 0.0
        self._noted: set = set()
        self._last_done = -1

    def advance(self, amount: int) -> None:
        self.done += int(amount)
        watcher = getattr(_WATCH, "fn", None)
        if watcher is not None:
            watcher(self)
        self.draw()

    def set_label(self, label: str) -> None:
        self.label = label
        self.draw()

    def note(self, text: str) -> None:
        """A one-off message (shown once per text), on its own line."""
        if not self.enabled or text in self._noted:
            return
        self._noted.add(text)
        if self._drawn and self.style == "bar":
            self.stream.write("\n")
        self.stream.write(f"{text}\n")
        self.stream.flush()

    def status(self, now: float | None = None) -> str:
        now = time.perf_counter() if now is None else now
        elapsed = now - self.start
        frac = min(self.done / self.total, 1.0)
        rate = self.done / max(elapsed, 1e-9)
        speed = f"{rate / 1000:8.1f}k/s" if rate >= 1000 else f"{rate:8.1f}/s "
        eta = (self.total - self.done) / rate if self.done and frac < 1 else 0.0
        return (f"{frac * 100:5.1f}%  {speed}  elapsed {_clock(elapsed)}"
                + (f"  left {'at most ' if self.upper_bound else '~'}{_clock(eta)}"
                   if self.done and frac < 1 else ""))

    def draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        gap = 0.1 if self.style == "bar" else self.interval
        if not force and (now - self.start < self.delay or now - self._last < gap):
            return
        if self.style == "lines" and self.done == self._last_done and self._drawn:
            return
        self._last = now
        self._last_done = self.done
        if self.style == "lines":
            self.stream.write(f"{self.label}: {self.done:,} of {self.total:,}; {' '.join(self.status(now).split())}\n")
        else:
            frac = min(self.done / self.total, 1.0)
            width = 30
            filled = int(round(frac * width))
            self.stream.write(f"\r{self.label[:40]:<40} [{'#' * filled}{'.' * (width - filled)}] "
                              f"{self.status(now)}\033[K")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn or (self.style == "lines" and self.done):  # a log gets the closing line
            self.draw(force=True)
            if self.style == "bar":
                self.stream.write("\n")
            self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
