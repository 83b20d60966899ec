"""tabletop_mc.webserve's parts that need no server: loopback names, and the clock that leaves
kernel compilation out of a question's time limit."""

import threading

import numba as nb
import pytest

pytest.importorskip("anyio", reason="the serve extra is not installed (pip install -e \".[serve]\")")

from tabletop_mc.webserve import CompileClock, is_loopback  # noqa: E402


def test_loopback_names():
    assert all(map(is_loopback, ["127.0.0.1", "127.8.9.1", "localhost", "::1", "[::1]"]))
    assert not any(map(is_loopback, ["0.0.0.0", "192.168.1.5", "::", "example.org", ""]))


def test_the_compile_clock_counts_this_threads_compiling_only():
    clock = CompileClock()
    seen = {}

    def compile_here():
        @nb.njit
        def f(x):
            return x + 1
        f(1)
        seen["there"] = clock.seconds()

    t = threading.Thread(target=compile_here)
    t.start()
    t.join()
    assert seen["there"] > 0 and clock.seconds() == 0
