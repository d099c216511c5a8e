"""The local Dask cluster ``--backend dask`` starts, and connecting to a real one securely.

The local cluster (one single-threaded worker process per core, on loopback):

- talks TLS only, with temporary credentials made for this process
  (``distributed.Security.temporary()``; needs the ``cryptography`` package): another local
  process cannot connect to the scheduler or a worker and run code there;
- runs no HTTP server: no dashboard, and neither the scheduler nor a worker listens on an HTTP
  port (:class:`QuietScheduler`, :class:`QuietWorker`);
- leaves Ctrl-C to this process: the cluster's event loop runs on a thread that blocks
  SIGINT, and the worker processes, started from it, inherit the block, so a Ctrl-C in the
  terminal reaches only the client, which stops the run and shuts the cluster down (no
  traceback from a worker); a worker that was still starting when this process ended fails
  quietly (:func:`orphan_quiet`).

For a real cluster (``--scheduler``), :func:`security_from_files` builds the client's
``Security`` from a CA certificate and the client's certificate and key (mutual TLS).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.spawn
import os
import signal
from pathlib import Path

from distributed import Nanny, Scheduler, SpecCluster, Worker
from distributed.http.routing import RoutingApplication
from distributed.utils import LoopRunner

from ..errors import FuzionSimError

__all__ = ["QuietScheduler", "QuietWorker", "security_from_files", "start_local_cluster"]


class _NoHTTP:
    """Mixin: ``start_http_server`` serves nothing (no socket is opened)."""

    def start_http_server(self, routes, dashboard_address, default_port=0, ssl_options=None):
        self.http_application = RoutingApplication([])


class QuietScheduler(_NoHTTP, Scheduler):
    """A scheduler without an HTTP server (no dashboard, no HTTP routes on any port)."""


class QuietWorker(_NoHTTP, Worker):
    """A worker without an HTTP server; it ignores SIGINT (the client handles Ctrl-C)."""

    def __init__(self, *args, **kwargs):
        with contextlib.suppress(ValueError):  # not the main thread: nothing to do
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        super().__init__(*args, **kwargs)


def _temporary_security():
    from distributed import Security

    try:
        return Security.temporary()
    except ImportError as err:
        raise FuzionSimError(
            "the local Dask cluster uses TLS with temporary credentials, which needs the "
            "'cryptography' package: pip install 'fuzion_sim[distributed]'"
        ) from err


#: A spawned child's program, wrapped: an error of a child whose parent has gone (a worker still
#: reading its start-up data when Ctrl-C ended this process reads the end of the pipe, or fails
#: to rebuild a semaphore) ends it quietly instead of printing a traceback under the
#: interrupt's one line; with the parent alive it is raised as before (and an exit is an exit).
#: A child sees the pipe's end a moment before the system gives it a new parent, hence the
#: short wait.
_ORPHAN_QUIET = """import os, time
try:
{prog}
except SystemExit:
    raise
except BaseException:
    for _ in range(50):
        if os.getppid() != {parent}:
            os._exit(1)
        time.sleep(0.01)
    raise
"""


def orphan_quiet(prog: str) -> str:
    """``prog`` (Python source), for a child of this process to run, made to fail quietly once
    this process has gone (the child's parent is then another)."""
    body = "\n".join("    " + line for line in prog.splitlines())
    return _ORPHAN_QUIET.format(prog=body, parent=os.getpid())


_SPAWN_COMMAND_LINE = multiprocessing.spawn.get_command_line


def _spawn_command_line(**kwds):
    """multiprocessing's command line of a spawned child, its program :func:`orphan_quiet`."""
    cmd = _SPAWN_COMMAND_LINE(**kwds)
    if "-c" in cmd:  # not a frozen executable
        at = cmd.index("-c") + 1
        cmd[at] = orphan_quiet(cmd[at])
    return cmd


def _loop_without_sigint() -> LoopRunner:
    """An event loop on a new thread that blocks SIGINT (as will everything it starts)."""
    # multiprocessing starts its resource tracker on the first spawn and then unblocks SIGINT
    # in the spawning thread: start it here, from this thread, so it never does that there.
    # It also warns, at its own exit, of the semaphores a Ctrl-C left behind (and cleans them
    # up): a second line after the interrupt's one. It takes its warning filters from ours.
    import sys
    from multiprocessing import resource_tracker

    quiet = "ignore::UserWarning:multiprocessing.resource_tracker"
    sys.warnoptions.append(quiet)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(quiet)
    multiprocessing.spawn.get_command_line = _spawn_command_line
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        runner = LoopRunner(asynchronous=False)
        runner.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    runner.loop.asyncio_loop.set_exception_handler(_quiet_failed_start)
    return runner


def _quiet_failed_start(loop, context) -> None:
    """The loop's exception handler: a nanny whose worker was killed (Ctrl-C) while it started
    fails in a task nobody awaits, which asyncio would print on the terminal when the task is
    collected; the rest goes to asyncio's own handler."""
    exc = context.get("exception")
    if isinstance(exc, RuntimeError) and "failed to start" in str(exc):
        return
    loop.default_exception_handler(context)


def start_local_cluster(n_workers: int):
    """Start the local cluster; returns ``(client, cluster, loop_runner)``.

    Raises
    ------
    FuzionSimError
        ``cryptography`` is missing, or the cluster cannot start.
    KeyboardInterrupt
        Ctrl-C while it starts (whatever was started is shut down first).
    """
    import distributed

    security = _temporary_security()
    quiet = logging.CRITICAL
    common = {"host": "127.0.0.1", "security": security, "protocol": "tls://"}
    scheduler = {
        "cls": QuietScheduler,
        "options": {**common, "dashboard": False, "dashboard_address": None},
    }
    worker = {
        "cls": Nanny,
        "options": {
            **common, "nthreads": 1, "worker_class": QuietWorker, "dashboard": False,
            "silence_logs": quiet,
        },
    }
    runner = _loop_without_sigint()
    cluster = client = None
    before = set(SpecCluster._instances)
    try:
        cluster = SpecCluster(
            scheduler=scheduler, workers={i: worker for i in range(n_workers)}, worker=worker,
            loop=runner.loop, security=security, silence_logs=quiet,
        )  # fmt: skip
        client = distributed.Client(cluster, security=security)
    except BaseException as exc:
        if cluster is None:  # Ctrl-C (or a failure) half-way through the cluster's start
            for half in set(SpecCluster._instances) - before:
                _abandon(half)
        # after Ctrl-C the process is on its way out: the fast, quiet shutdown
        stop_local_cluster(client, cluster, runner, fast=isinstance(exc, KeyboardInterrupt))
        raise
    return client, cluster, runner


def _abandon(cluster) -> None:
    """Kill a cluster's worker processes without the graceful close, which fails on a
    cluster that did not finish starting (and would be tried again, noisily, at exit)."""
    from distributed.core import Status

    for nanny in list(getattr(cluster, "workers", {}).values()):
        with contextlib.suppress(BaseException):
            nanny.auto_restart = False  # a killed worker is not started again
        proc = getattr(getattr(getattr(nanny, "process", None), "process", None), "_process", None)
        with contextlib.suppress(BaseException):
            if proc is not None and proc.is_alive():
                proc.kill()
    # a worker still being spawned is not yet its nanny's: it would wake after this process
    # has gone and print a traceback of its own on the terminal
    for child in multiprocessing.active_children():
        if child.name.startswith("Dask Worker process"):
            with contextlib.suppress(BaseException):
                child.kill()
                child.join(1)
    _kill_spawning()
    cluster.status = Status.closed


def _kill_spawning(settle: float = 0.0) -> None:
    """Kill the children still reading their start-up data from this process (a spawn whose
    ``Process.start`` has not returned is in no list of multiprocessing's): once this process
    has gone they fail to rebuild its semaphores and print a traceback on the terminal. Their
    SIGINT is blocked (they inherit the loop thread's mask), so Ctrl-C does not reach them.
    With ``settle``, keep looking that many seconds: a spawn runs on distributed's offload
    thread, which goes on after the loop has stopped."""
    import time

    import psutil  # a dependency of distributed

    end = time.monotonic() + settle
    while True:
        with contextlib.suppress(BaseException):
            for child in psutil.Process().children(recursive=True):
                with contextlib.suppress(BaseException):
                    if any("spawn_main" in part for part in child.cmdline()):
                        child.kill()
        if time.monotonic() >= end:
            return
        time.sleep(0.05)


def stop_local_cluster(client, cluster, runner, fast: bool = False) -> None:
    """Close the client and the cluster and stop their loop, quietly; ``fast`` (after Ctrl-C)
    kills the worker processes first instead of waiting for their running tasks."""
    log = logging.getLogger("distributed")
    level = log.level
    log.setLevel(logging.CRITICAL)
    try:
        if fast:  # a nanny that failed to start leaves a task nobody awaits, on whichever
            # loop it ran: asyncio's default handler would log it as the process exits
            logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        if fast and cluster is not None:
            _abandon(cluster)
        for thing in (client, cluster):
            if thing is not None:
                with contextlib.suppress(BaseException):
                    thing.close(timeout=1 if fast else 5)
        if runner is not None:
            with contextlib.suppress(BaseException):
                runner.stop()
    finally:
        if fast:  # the process is on its way out: what is left to collect stays quiet too
            # (and a worker whose spawn the loop began while the cluster closed is killed
            # now that the loop has stopped: else it reads a cut pipe and prints EOFError)
            _kill_spawning(settle=0.5)
            _silence_distributed()
        else:
            log.setLevel(level)


def _silence_distributed() -> None:
    """Every ``distributed`` logger, and ``asyncio``'s, to CRITICAL: after Ctrl-C, objects
    collected as the process exits (an ``rpc`` with a comm still open, a nanny's task that
    failed to start) would otherwise log a warning on the terminal."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def security_from_files(ca_file, cert_file, key_file=None):
    """The client's ``distributed.Security`` for a cluster that requires TLS.

    Parameters
    ----------
    ca_file : path
        The certificate authority that signed the scheduler's and workers' certificates.
    cert_file : path
        This client's certificate (PEM); it may hold the key too.
    key_file : path, optional
        This client's private key (PEM), when not in ``cert_file``.

    Raises
    ------
    FuzionSimError
        A file that does not exist or cannot be read.
    """
    from distributed import Security

    for label, path in (("--tls-ca", ca_file), ("--tls-cert", cert_file), ("--tls-key", key_file)):
        if path is None:
            continue
        p = Path(path)
        if not p.is_file():
            raise FuzionSimError(f"{label} {path}: no such file")
        try:
            p.read_bytes()
        except OSError as exc:
            raise FuzionSimError(f"{label} {path}: cannot read it: {exc.strerror}") from None
    return Security(
        tls_ca_file=str(ca_file), tls_client_cert=str(cert_file),
        tls_client_key=None if key_file is None else str(key_file), require_encryption=True,
    )  # fmt: skip
