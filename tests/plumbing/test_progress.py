"""Progress on stderr: bar, lines or nothing; the compile note."""

import io

import numpy as np
from click.testing import CliRunner

from tabletop_mc import progress
from tabletop_mc.progress import Progress
from tabletop_mc.runner import run_chunked


def test_lines_when_not_a_terminal_with_elapsed_and_time_left():
    out = io.StringIO()
    bar = Progress(1000, "demo", enabled=True, stream=out, delay=0.0, interval=0.0)
    bar.advance(250)
    bar.advance(750)
    bar.close()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("demo: 250 of 1,000;") and "elapsed 0:00" in lines[0] and "left ~" in lines[0]
    assert lines[-1].startswith("demo: 1,000 of 1,000; 100.0%") and len(lines) == 2  # no repeated last line


def test_mode_off_and_auto_on_a_pipe():
    out = io.StringIO()
    try:
        progress.set_mode("off")
        assert not Progress(10, stream=out).enabled
        progress.set_mode("auto")
        assert not Progress(10, stream=out).enabled  # a pipe, no TABLETOP_MC_PROGRESS: quiet
        progress.set_mode("on")
        assert Progress(10, stream=out).style == "lines"
    finally:
        progress.set_mode("auto")


class _Batch:
    def __init__(self, compile_first):
        self.compile_first = compile_first

    def needs_compile(self):
        return self.compile_first

    def __call__(self, first, counts):
        return counts[:, None].astype(np.int64)


def test_compile_note_before_the_first_batch():
    for first, shown in ((True, True), (False, False)):
        out = io.StringIO()
        bar = Progress(100, "demo", enabled=True, stream=out, delay=0.0)
        run_chunked(_Batch(first), 100, chunk_size=10, progress=bar)
        assert ("compiling kernels" in out.getvalue()) == shown


def test_cli_progress_and_quiet_flags():
    from caesar_sim.cli import main
    res = CliRunner().invoke(main, ["simulate", "-n", "30", "--no-favour-value", "--progress"])
    assert res.exit_code == 0 and "caesar" in res.stderr and "30 of 30" in res.stderr
    res = CliRunner().invoke(main, ["simulate", "-n", "30", "--no-favour-value", "--progress", "--quiet"])
    assert res.exit_code == 0 and res.stderr == ""


def test_a_watcher_sees_every_advance_and_may_stop_the_run():
    """``progress.watching``: every Progress of this thread calls the watcher as it advances (a
    server's progress and cancellation); raising there stops the run between batches."""
    seen = []

    class Stop(Exception):
        pass

    def watch(bar):
        seen.append(bar.done)
        if bar.done >= 30:
            raise Stop()

    with progress.watching(watch):
        try:
            run_chunked(_Batch(False), 100, chunk_size=10, first_batch=1, progress=Progress(100, enabled=False))
        except Stop:
            pass
        else:
            raise AssertionError("the watcher did not stop the run")
    assert seen == [10, 30]   # batches of 1, then 2 chunks
    run_chunked(_Batch(False), 100, chunk_size=10, progress=Progress(100, enabled=False))
    assert seen == [10, 30]   # outside the block: no watcher
