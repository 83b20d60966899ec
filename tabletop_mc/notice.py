"""One-line notices on stderr, each at most once per process.

Faults the tools recover from (a damaged cache file discarded, a cache that
cannot be written) are told in one line, the first time they happen; the
result on stdout is unaffected.
"""

from __future__ import annotations

import sys

_told: set = set()


def notice(key, text: str) -> bool:
    """Print ``text`` on stderr unless a notice with ``key`` was printed already;
    True if printed."""
    if key in _told:
        return False
    _told.add(key)
    sys.stderr.write(" ".join(str(text).split()) + "\n")
    sys.stderr.flush()
    return True


def reset() -> None:
    """Forget the notices given (tests; a long-lived process starting a new job)."""
    _told.clear()


def reason(exc: BaseException) -> str:
    """A short reason of an I/O error: its strerror, else its text."""
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
