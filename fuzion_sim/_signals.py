"""SIGTERM handled as Ctrl-C, and signals held off while a run's merged result is updated.

The command installs :func:`terminate_as_interrupt` first thing: a SIGTERM (``kill PID``, a
job scheduler's time limit, ``systemctl stop``) then raises ``KeyboardInterrupt`` in the main
thread exactly as Ctrl-C does, so the same paths run (the run stops, the staging folder and the
lock are removed, one line is printed) and the command exits with 128 + the signal's number.
:func:`received` says which signal it was.

:func:`held` keeps either signal from raising in the middle of a few statements that must run
whole (merging a finished chunk into the running tally); it is re-raised right after them.
:func:`kept` makes sure one is not lost while numba compiles (Python ignores an exception raised
in a finaliser or a callback from C, and numba's compiler runs many of both).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

__all__ = [
    "caused_by_interrupt", "exit_status", "held", "kept", "received", "reset",
    "terminate_as_interrupt",
]  # fmt: skip

#: How long after a Ctrl-C that Python ignored :func:`kept` delivers it again (seconds).
REDELIVER_AFTER = 0.02

#: The signal that interrupted this process (SIGINT unless a SIGTERM arrived).
_RECEIVED = [signal.SIGINT]


def received() -> int:
    """The signal that interrupted the command: ``signal.SIGTERM`` after a SIGTERM, else
    ``signal.SIGINT``."""
    return _RECEIVED[0]


def exit_status() -> int:
    """The exit status of a command ended by :func:`received`: 130 after Ctrl-C, 143 after
    SIGTERM (128 + the signal, as shells report it)."""
    return 128 + int(received())


def caused_by_interrupt(err: BaseException) -> bool:
    """Whether ``err`` was raised because of a Ctrl-C (or SIGTERM): Python wraps an exception
    raised while a class is being created (``__set_name__``, as numpy's import does) in a
    ``RuntimeError`` whose cause is the ``KeyboardInterrupt``."""
    seen = set()
    while err is not None and id(err) not in seen:
        if isinstance(err, KeyboardInterrupt):
            return True
        seen.add(id(err))
        err = err.__cause__ or err.__context__
    return False


def reset() -> None:
    """Forget a received SIGTERM (for a command run twice in one process, as tests do)."""
    _RECEIVED[0] = signal.SIGINT


def _on_term(signum, frame):
    _RECEIVED[0] = signal.SIGTERM
    raise KeyboardInterrupt


def terminate_as_interrupt() -> None:
    """Make SIGTERM raise ``KeyboardInterrupt`` (and be remembered) in this process.

    Only from the main thread, and only where SIGTERM still has its default action (a host
    program's own handler is kept).
    """
    if threading.current_thread() is not threading.main_thread():
        return
    with contextlib.suppress(ValueError, OSError):
        if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None, _on_term):
            signal.signal(signal.SIGTERM, _on_term)


@contextlib.contextmanager
def held():
    """Run the block with SIGINT and SIGTERM held off; one that arrived meanwhile is acted on
    (its handler called, so Ctrl-C raises ``KeyboardInterrupt``) once the block is done.

    Outside the main thread, where no signal handler runs, this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []

    def hold(signum, frame):
        got.append(signum)

    old = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            handler = signal.getsignal(sig)
            if callable(handler):
                old[sig] = signal.signal(sig, hold)
    except (ValueError, OSError):  # pragma: no cover - not the main interpreter
        for sig, handler in old.items():
            signal.signal(sig, handler)
        yield
        return
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        if got:
            handler = old.get(got[0])
            if callable(handler):
                handler(got[0], None)
            else:  # pragma: no cover - a default action: deliver it again
                os.kill(os.getpid(), got[0])


@contextlib.contextmanager
def kept():
    """Run the block (numba compiling a kernel) so that a Ctrl-C or SIGTERM during it raises
    ``KeyboardInterrupt`` out of it.

    Python raises a signal's exception in whatever Python code the main thread runs next. In a
    compile that is often a finaliser (``__del__``) or a callback from LLVM, where Python prints
    "Exception ignored" and goes on: the compile then finished and the run started as if no key
    had been pressed, or numba failed a moment later on the half-done step (``RuntimeError: no
    compiled object yet``). Here such a lost interrupt is delivered again a moment later
    (:data:`REDELIVER_AFTER`), raised at the block's end if the block ended first, and any
    error the block raises after one becomes the ``KeyboardInterrupt`` it follows from.

    Outside the main thread, where no signal handler runs, this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    lost: list[threading.Timer] = []
    previous = sys.unraisablehook

    def hook(unraisable):
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous(unraisable)
            return
        again = threading.Timer(REDELIVER_AFTER, signal.pthread_kill,
                                (threading.main_thread().ident, received()))  # fmt: skip
        again.daemon = True
        lost.append(again)
        again.start()

    sys.unraisablehook = hook
    try:
        yield
    except Exception as err:
        if lost:
            raise KeyboardInterrupt from err
        raise
    finally:
        sys.unraisablehook = previous
        for again in lost:
            again.cancel()
    if lost:
        raise KeyboardInterrupt
