"""Run a plan's chunks as tasks on a Dask cluster (``backend="dask"``).

Each task runs one chunk exactly as the thread backend does (same chunk key, same kernel) and
returns the chunk's tally state, plus the per-trial outcomes only when the run keeps them. The
client merges the tallies in chunk order, so the numbers are bit-identical to a local run with
the same seed, on any cluster. At most a fixed window of tasks is in flight, so a run of 10^10
trials needs no more memory on the client or the workers than one of 10^7.

Clients are cached per scheduler (or per local cluster size) and reused across calls in one
process, since sweeps and comparisons run many simulations; they are closed at exit, or by
:func:`close_clients`.

Every worker must be able to ``import fuzion_sim`` (the same version as the client): install
the package on every machine of the cluster.

The local cluster started when no scheduler is given uses TLS with temporary credentials and
serves no HTTP (see :mod:`fuzion_sim.engine.dask_local`); a real cluster that requires TLS is
reached with a ``distributed.Security`` (``security=``, or the CLI's ``--tls-ca``, ``--tls-cert``
and ``--tls-key``). Before a client is made at an address, :func:`probe` checks under one
deadline (:data:`CONNECT_TIMEOUT`) that a Dask scheduler answers there, so an HTTP server, a
service speaking something else or one that never answers is one clear error; a scheduler
reached over plain TCP gets a :class:`PlainTCPWarning` (whoever reaches it runs code).
Ctrl-C cancels the tasks, shuts a local cluster down and raises
:class:`~fuzion_sim.errors.Interrupted`, whose ``partial`` holds the chunks merged in order.
"""

from __future__ import annotations

import atexit
import contextlib
import pickle
import threading
import time
import warnings
from collections.abc import Callable

from .._version import __version__
from ..errors import FuzionSimError, Interrupted, one_line, shorten
from .chunks import chunk_result, collect_in_order, empty_tally, in_order, iter_spans
from .outcomes import Tally, TrialOutcomes
from .progress import Progress
from .runner import RunOutput, default_threads, interrupted, resolve_keep

__all__ = ["CONNECT_TIMEOUT", "PlainTCPWarning", "close_clients", "get_client", "probe",
           "run_plan_dask"]  # fmt: skip

#: Seconds to connect to a scheduler and hear it answer (the handshake and who it is).
CONNECT_TIMEOUT = 10.0

#: Open clients: key -> (client, local cluster or None, its loop runner or None).
_CLIENTS: dict = {}

_INSTALL_HINT = "backend 'dask' needs dask.distributed: pip install 'fuzion_sim[distributed]'"


def _distributed():
    try:
        import distributed
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise FuzionSimError(_INSTALL_HINT) from err
    return distributed


def get_client(scheduler=None, workers: int | None = None, security=None):
    """A connected ``distributed.Client``, reused across calls.

    Parameters
    ----------
    scheduler : str or distributed.Client, optional
        A scheduler address (``"tcp://host:8786"``, ``"tls://host:8786"``) or a client, which
        is returned as is. Default: a local cluster of ``workers`` processes with one thread
        each, on loopback, TLS only, started on first use.
    workers : int, optional
        Worker processes of the local cluster (default: all cores). Ignored with a scheduler.
    security : distributed.Security, optional
        TLS credentials for ``scheduler`` (see
        :func:`~fuzion_sim.engine.dask_local.security_from_files`).

    Raises
    ------
    FuzionSimError
        Dask (or ``cryptography``, for the local cluster) is not installed, or no scheduler
        answers at ``scheduler`` within :data:`CONNECT_TIMEOUT` seconds (:func:`probe`).

    Warns
    -----
    PlainTCPWarning
        ``scheduler`` is reached without TLS.
    """
    distributed = _distributed()
    if isinstance(scheduler, distributed.Client):
        return scheduler
    if scheduler is None:
        key = ("local", max(1, int(workers or default_threads())))
    else:
        key = (str(scheduler), id(security))
    cached = _CLIENTS.get(key)
    if cached is not None:
        if cached[0].status == "running":
            return cached[0]
        _close(*_CLIENTS.pop(key))
    if scheduler is None:
        from .dask_local import start_local_cluster

        _CLIENTS[key] = start_local_cluster(key[1])
        return _CLIENTS[key][0]
    address = str(scheduler)
    probe(address, security)
    if _plain(address):
        warnings.warn(PlainTCPWarning(
            f"the Dask scheduler at {shorten(address)!r} is reached over plain TCP: anyone who "
            "can reach it can run code on its workers; use a TLS scheduler (tls://, with "
            "--tls-ca, --tls-cert and --tls-key)"), stacklevel=2)  # fmt: skip
    try:
        client = distributed.Client(address, timeout=f"{CONNECT_TIMEOUT}s", security=security)
    except (OSError, TimeoutError, ValueError, TypeError) as err:  # TypeError: TLS, no creds
        raise _unreachable(address, err) from err
    _CLIENTS[key] = (client, None, None)
    return client


class PlainTCPWarning(UserWarning):
    """A Dask scheduler reached without TLS: whoever can reach it can run code on its workers
    (Dask's protocol runs pickled functions)."""


def _plain(address: str) -> bool:
    """Whether ``address`` is reached without TLS (``tcp://``, or no scheme: Dask's default)."""
    scheme = address.split("://", 1)[0].lower() if "://" in address else "tcp"
    return scheme in ("tcp", "ws", "ucx")


def _unreachable(address: str, err) -> FuzionSimError:
    why = one_line(shorten(f"{err}" or type(err).__name__, 80)) if err is not None else ""
    return FuzionSimError(
        f"cannot reach the Dask scheduler at {shorten(address)!r}"
        + (f": {why}" if why else "")
    )


def probe(address: str, security=None, timeout: float | None = None) -> None:
    """Check that a Dask scheduler answers at ``address`` within ``timeout`` seconds (default
    :data:`CONNECT_TIMEOUT`) before a client is made there.

    ``distributed.Client`` trusts what answers: an HTTP server's reply is read as a frame
    length of exabytes, and a service that accepts but never speaks holds the handshake for
    minutes. The probe makes Dask's handshake and asks the scheduler who it is, all under one
    deadline, on a thread of its own with Dask's logging muted.

    Raises
    ------
    FuzionSimError
        ``cannot reach the Dask scheduler at ...``: no answer in time, not Dask's protocol, or
        not a scheduler.
    """
    import asyncio
    import logging

    from distributed.comm import connect

    timeout = CONNECT_TIMEOUT if timeout is None else float(timeout)
    args = security.get_connection_args("client") if security is not None else {}

    async def ask():
        comm = await connect(address, timeout=timeout, **args)
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    outcome: dict = {}

    def run():
        try:
            outcome["reply"] = asyncio.run(asyncio.wait_for(ask(), timeout))
        except BaseException as err:  # anything: the junk a non-Dask service sends
            outcome["error"] = err

    loggers = [logging.getLogger(n) for n in ("distributed", "asyncio", "tornado")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        worker = threading.Thread(target=run, name="fuzion-sim-dask-probe", daemon=True)
        worker.start()
        worker.join(timeout + 2.0)
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)
    if worker.is_alive() or isinstance(outcome.get("error"), asyncio.TimeoutError | TimeoutError):
        raise FuzionSimError(
            f"cannot reach the Dask scheduler at {shorten(address)!r}: no answer within "
            f"{timeout:g} s"
        )
    if "error" in outcome:
        err = outcome["error"]
        if isinstance(err, ValueError | TypeError | OSError):
            raise _unreachable(address, err)
        raise FuzionSimError(
            f"cannot reach the Dask scheduler at {shorten(address)!r}: it does not speak "
            f"Dask's protocol ({type(err).__name__})"
        )
    reply = outcome.get("reply")
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        kind = reply.get("type") if isinstance(reply, dict) else type(reply).__name__
        raise FuzionSimError(
            f"cannot reach the Dask scheduler at {shorten(address)!r}: what answers there is "
            f"not a scheduler ({one_line(shorten(str(kind), 40))})"
        )


def _close(client, cluster, runner=None, fast: bool = False) -> None:
    # A local scheduler may still hold a just-released plan while its workers shut down, and
    # log that as an error: nothing is lost at that point, so keep the shutdown quiet.
    from .dask_local import stop_local_cluster

    stop_local_cluster(client, cluster, runner, fast=fast)


def close_clients() -> None:
    """Close every client (and local cluster) this module opened."""
    while _CLIENTS:
        _close(*_CLIENTS.popitem()[1])


def _drop_client(client) -> None:
    """Close and forget ``client`` if this module opened it (after an interrupted run)."""
    for key, entry in list(_CLIENTS.items()):
        if entry[0] is client:
            _close(*_CLIENTS.pop(key), fast=True)


atexit.register(close_clients)


# ------------------------------------------------------------------------------------------
# What runs on the workers (module-level functions: they pickle by reference)
# ------------------------------------------------------------------------------------------


def _warm(system, plan_blob: bytes) -> str:
    """Load (or compile) the kernels on a worker; its fuzion_sim version."""
    plan = pickle.loads(plan_blob)
    chunk_result(system, plan, 0, 0, 1, keep=True)
    chunk_result(system, plan, 0, 0, 1, keep=False)
    return __version__


def _chunk_task(
    system, plan_blob: bytes, seed: int, chunk: int, n: int, keep: bool,
) -> tuple[dict, TrialOutcomes | None]:  # fmt: skip
    """Run one chunk: its tally state, and its per-trial outcomes if kept."""
    tally, out = chunk_result(system, pickle.loads(plan_blob), seed, chunk, n, keep)
    return tally.to_state(), out


# ------------------------------------------------------------------------------------------


def run_plan_dask(
    system,
    plan,
    trials: int,
    seed: int,
    keep_trials: bool | None = None,
    progress: bool | None = None,
    stop: Callable[[Tally], bool] | None = None,
    scheduler=None,
    workers: int | None = None,
    max_in_flight: int | None = None,
) -> RunOutput:
    """Run ``trials`` trials of ``plan`` as chunk tasks on a Dask cluster.

    Same chunks, seed streams, merge order and ``stop`` semantics as
    :func:`~fuzion_sim.engine.runner.run_plan`, so the tally (and the kept outcomes) are
    bit-identical to a thread-pool run with the same seed.

    Parameters
    ----------
    system : module or object
        The rule system (a module is sent by name and imported on the workers).
    plan : NamedTuple
        The compiled scenario; it must pickle.
    trials, seed : int
        How many trials and the root seed.
    keep_trials : bool, optional
        Bring the per-trial outcomes back (default: when ``trials <= KEEP_TRIALS_MAX``).
    progress : bool, optional
        Progress bar (default: on a terminal, for runs over a second).
    stop : callable, optional
        Called with the running tally after each chunk, in chunk order; True stops the run
        and cancels the tasks still in flight.
    scheduler : str or distributed.Client, optional
        See :func:`get_client`. Default: a local cluster, reused across calls.
    workers : int, optional
        Worker processes of the local cluster (ignored with a scheduler).
    max_in_flight : int, optional
        Tasks submitted ahead of the merge (default: twice the cluster's threads, at least 4).

    Returns
    -------
    RunOutput
        ``threads`` is the cluster's total worker threads; ``elapsed`` excludes connecting and
        warming the workers up.
    """
    try:
        client = get_client(scheduler, workers)
    except KeyboardInterrupt:
        raise Interrupted(0) from None
    try:
        return _run_on(client, system, plan, trials, seed, keep_trials, progress, stop,
                       max_in_flight)  # fmt: skip
    except KeyboardInterrupt as exc:
        # the running tasks cannot be stopped from here: a local cluster is shut down (its
        # workers with it), a remote one is left to finish them; pending tasks are cancelled
        _drop_client(client)
        done = exc.trials if isinstance(exc, Interrupted) else 0
        raise interrupted(done, getattr(exc, "partial", None)) from None


def _run_on(client, system, plan, trials, seed, keep_trials, progress, stop, max_in_flight):
    """:func:`run_plan_dask` on a connected client; Ctrl-C raises :class:`Interrupted` with
    the trials merged so far."""
    keep = resolve_keep(trials, system.n_combatants(plan), keep_trials)
    system_ref = system  # pickled by name: each worker finds it in its own registry
    blob = pickle.dumps(plan, protocol=pickle.HIGHEST_PROTOCOL)

    # Warm every worker up (imports, numba cache) before the clock starts, and check versions.
    try:
        versions = client.run(_warm, system_ref, blob)
    except Exception as err:  # a worker without fuzion_sim fails to unpickle the task
        raise FuzionSimError(
            f"Dask workers could not run fuzion_sim ({type(err).__name__}: {err}); is "
            f"fuzion_sim {__version__} installed on every worker?"
        ) from err
    if not versions:
        raise FuzionSimError("the Dask cluster has no workers")
    stale = {addr: v for addr, v in versions.items() if v != __version__}
    if stale:
        raise FuzionSimError(
            f"Dask workers run another fuzion_sim version than this client ({__version__}): "
            + ", ".join(f"{a}: {v}" for a, v in sorted(stale.items()))
        )
    nthreads = int(sum(client.nthreads().values())) or 1
    window = max(4, 2 * nthreads) if max_in_flight is None else max(1, int(max_in_flight))
    [plan_future] = client.scatter([blob], broadcast=True, hash=False)
    tally = empty_tally(system, plan)
    start = time.perf_counter()

    def submit(span):
        chunk, n = span
        return client.submit(
            _chunk_task, system_ref, plan_future, seed, chunk, n, keep,
            pure=False, priority=-chunk,
        )  # fmt: skip

    def results():
        with contextlib.closing(in_order(submit, iter_spans(trials), window)) as done:
            for state, out in done:
                yield Tally.from_state(state), out, True

    kept: list[TrialOutcomes] = []
    try:
        with Progress(trials, enabled=progress) as bar:
            collect_in_order(results(), tally, keep, bar, stop, kept)
    except KeyboardInterrupt:
        took = time.perf_counter() - start
        partial = RunOutput(tally, TrialOutcomes.concatenate(kept) if keep and kept else None,
                            took, nthreads, backend="dask")  # fmt: skip
        raise interrupted(tally.n_trials, partial) from None
    finally:
        with contextlib.suppress(BaseException):
            plan_future.release()
    elapsed = time.perf_counter() - start
    trials_out = TrialOutcomes.concatenate(kept) if keep and kept else None
    return RunOutput(tally=tally, trials=trials_out, elapsed=elapsed, threads=nthreads,
                     backend="dask")  # fmt: skip
