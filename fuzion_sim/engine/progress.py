"""A progress bar for long runs: on a terminal only, and only once a run has taken a second."""

from __future__ import annotations

import contextlib
import sys
import threading
import time

__all__ = ["Progress", "compiling_notice"]

#: What a terminal shows while the first run compiles the kernels (numba caches them on disk).
COMPILING = "compiling kernels (first run only) ..."


def _in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (its cells show what goes to stderr)."""
    return "ipykernel" in sys.modules


def _about(seconds: float) -> str:
    """``about 40 s`` or ``about 4 min``."""
    if seconds < 90:
        return f"about {max(10, round(seconds, -1)):.0f} s"
    return f"about {round(seconds / 60):.0f} min"


@contextlib.contextmanager
def compiling_notice(enabled: bool | None = None, delay: float = 1.0, stream=None,
                     estimate: float | None = None):  # fmt: skip
    """Say that the kernels are compiling when loading them takes over ``delay`` seconds (a
    cache hit takes a fraction of one), with ``estimate`` (CPU seconds, the system's
    ``compile_seconds``) when known: on a terminal or in a notebook, or as ``enabled`` says."""
    stream = stream or sys.stderr
    if not ((stream.isatty() or _in_notebook()) if enabled is None else enabled):
        yield
        return
    said = threading.Event()

    def say():
        said.set()
        text = COMPILING
        if estimate:
            text = f"compiling kernels (first run only; {_about(estimate)} of CPU) ..."
        print(text, file=stream, flush=True)

    timer = threading.Timer(delay, say)
    timer.daemon = True
    timer.start()
    began = time.perf_counter()
    try:
        yield
    finally:
        timer.cancel()
        if said.is_set():
            print(f"compiled in {time.perf_counter() - began:.0f} s", file=stream, flush=True)


class Progress:
    """Counts finished trials; draws a rich progress bar on stderr after ``delay`` seconds.

    Parameters
    ----------
    total : int
        Trials the run will do (or at most do, under a precision target).
    enabled : bool, optional
        Default: only when stderr is a terminal.
    """

    def __init__(self, total: int, enabled: bool | None = None, delay: float = 1.0, label="trials"):
        self.total = total
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.delay = delay
        self.label = label
        self.start = time.perf_counter()
        self._bar = None
        self._task = None
        self.done = 0

    def advance(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        if self._bar is None and time.perf_counter() - self.start >= self.delay:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                transient=True,
                console=Console(stderr=True),  # stdout is the answer's (``--json``)
            )
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total)
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
