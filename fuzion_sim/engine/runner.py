"""Run a compiled plan: fixed-size chunks, one seed stream each, on a thread pool or Dask.

Chunks are merged in chunk order, whatever order they finish in, so a run gives the same
numbers on 1 thread, 16 threads or a Dask cluster. A stop rule (``--precision``) is consulted
only after each whole chunk, in order, so the same command always stops at the same trial
count.

Memory is flat in the number of trials unless per-trial outcomes are kept: chunk spans are
generated lazily, at most a fixed window of chunks is in flight, and each finished chunk is
reduced to a :class:`~fuzion_sim.engine.outcomes.Tally` and dropped. Per-trial outcomes are
kept only up to :data:`KEEP_TRIALS_MAX` trials unless asked for.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import islice

from ..errors import FuzionSimError
from .outcomes import Tally, TrialOutcomes
from .progress import Progress
from .rng import CHUNK, chunk_key

__all__ = [
    "BACKENDS",
    "KEEP_TRIALS_MAX",
    "RunOutput",
    "chunk_spans",
    "collect_in_order",
    "default_threads",
    "in_order",
    "iter_spans",
    "chunk_result",
    "run_chunk",
    "run_plan",
]

#: Above this many trials the engine keeps only streaming tallies (flat memory), unless told.
KEEP_TRIALS_MAX = 2_000_000

#: Where chunks can run.
BACKENDS = ("threads", "dask")


def default_threads() -> int:
    """Cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def iter_spans(trials: int) -> Iterator[tuple[int, int]]:
    """Lazily yield ``(chunk index, trials in chunk)`` for a run of ``trials`` trials.

    Every chunk holds :data:`~fuzion_sim.engine.rng.CHUNK` trials except a shorter last one.
    """
    full, rest = divmod(int(trials), CHUNK)
    for i in range(full):
        yield i, CHUNK
    if rest:
        yield full, rest


def chunk_spans(trials: int) -> list[tuple[int, int]]:
    """``(chunk index, trials in chunk)`` for a run of ``trials`` trials, as a list."""
    return list(iter_spans(trials))


@dataclass
class RunOutput:
    """What a run produced: the tally, the per-trial outcomes if kept, and how it ran.

    Parameters
    ----------
    tally : Tally
        Aggregates of every trial that ran.
    trials : TrialOutcomes or None
        Per-trial outcomes, in trial order, when kept.
    elapsed : float
        Simulation seconds (compilation, cluster start-up and warm-up excluded).
    threads : int
        Worker threads used (for Dask: threads over all workers).
    backend : str
        ``"threads"`` or ``"dask"``.
    """

    tally: Tally
    trials: TrialOutcomes | None
    elapsed: float
    threads: int
    backend: str = "threads"


def run_chunk(system, plan, seed: int, chunk: int, n: int) -> TrialOutcomes:
    """Run one chunk (the unit of work of every backend)."""
    return system.run_chunk(plan, chunk_key(seed, chunk), 0, n)


def chunk_result(system, plan, seed, chunk, n, n_sides, max_slots, keep):
    """One chunk's :class:`Tally`, and its per-trial outcomes when ``keep``. A system with a
    ``tally_chunk`` adds trials straight into the tally when they are not kept (the same
    numbers, without writing and re-reading the per-trial arrays)."""
    if not keep and hasattr(system, "tally_chunk"):
        return system.tally_chunk(plan, chunk_key(seed, chunk), 0, n, n_sides, max_slots), None
    out = run_chunk(system, plan, seed, chunk, n)
    return Tally.of(out, n_sides, max_slots), (out if keep else None)


def in_order(submit: Callable, spans: Iterable, window: int) -> Iterator:
    """Results of ``submit(span).result()`` for every span, in span order.

    At most ``window`` futures are in flight (plus the one being handed out), so memory does
    not grow with the number of spans. Closing the generator early cancels pending futures.

    Parameters
    ----------
    submit : callable
        ``submit(span) -> future`` with ``result()`` and ``cancel()`` (``concurrent.futures``
        and ``dask.distributed`` futures both qualify).
    spans : iterable
        Work items, consumed lazily.
    window : int
        Futures kept in flight, ``>= 1``.
    """
    todo = iter(spans)
    pending = deque(submit(span) for span in islice(todo, max(1, int(window))))
    try:
        while pending:
            fut = pending.popleft()
            nxt = next(todo, None)
            if nxt is not None:
                pending.append(submit(nxt))
            result = fut.result()
            del fut
            yield result
    finally:
        for fut in pending:
            fut.cancel()


def collect_in_order(
    results: Iterator[tuple[Tally, TrialOutcomes | None]],
    tally: Tally,
    keep: bool,
    bar: Progress,
    stop: Callable[[Tally], bool] | None,
) -> list[TrialOutcomes]:
    """Merge chunk results (in chunk order) into ``tally``; the kept outcomes.

    ``stop(tally)`` is consulted after each chunk; True ends the run there and closes
    ``results`` (which cancels what is still in flight).
    """
    kept: list[TrialOutcomes] = []
    try:
        for part, out in results:
            tally.merge(part)
            if keep:
                kept.append(out)
            bar.advance(part.n_trials)
            if stop is not None and stop(tally):
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return kept


def run_plan(
    system,
    plan,
    trials: int,
    seed: int,
    threads: int | None = None,
    keep_trials: bool | None = None,
    progress: bool | None = None,
    stop: Callable[[Tally], bool] | None = None,
    backend: str = "threads",
    scheduler=None,
) -> RunOutput:
    """Run ``trials`` trials of ``plan`` and collect them.

    Parameters
    ----------
    system : module or object
        The rule system: ``run_chunk(plan, key, first, n) -> TrialOutcomes``,
        ``n_sides(plan)``, ``max_slots(plan)``.
    plan : NamedTuple
        The compiled scenario (must pickle for ``backend="dask"``).
    trials, seed : int
        How many trials and the root seed.
    threads : int, optional
        Worker threads (default: all cores). Results do not depend on it. With
        ``backend="dask"`` and no ``scheduler``: worker processes of the local cluster.
    keep_trials : bool, optional
        Keep per-trial outcomes (default: when ``trials <= KEEP_TRIALS_MAX``).
    progress : bool, optional
        Show a progress bar (default: on a terminal, for runs over a second).
    stop : callable, optional
        Called with the running tally after each chunk, in chunk order; True stops the run
        there. ``trials`` is then the most the run will do.
    backend : {'threads', 'dask'}
        Where chunks run: a thread pool in this process, or tasks on a Dask cluster. The
        numbers are bit-identical for the same seed.
    scheduler : str or distributed.Client, optional
        Dask only: a scheduler address such as ``"tcp://host:8786"`` or a client. Default: a
        local cluster started on first use and reused until the process exits.

    Returns
    -------
    RunOutput

    Raises
    ------
    FuzionSimError
        Unknown backend, ``scheduler`` without ``backend="dask"``, Dask not installed, or no
        scheduler at the address.
    """
    if backend not in BACKENDS:
        raise FuzionSimError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "dask":
        from .dask_backend import run_plan_dask

        return run_plan_dask(
            system, plan, trials, seed, keep_trials=keep_trials, progress=progress, stop=stop,
            scheduler=scheduler, workers=threads,
        )  # fmt: skip
    if scheduler is not None:
        raise FuzionSimError("a Dask scheduler needs backend='dask'")

    threads = max(1, int(threads or default_threads()))
    keep = trials <= KEEP_TRIALS_MAX if keep_trials is None else bool(keep_trials)
    n_sides, max_slots = system.n_sides(plan), system.max_slots(plan)
    tally = Tally.zeros(n_sides, plan.n_combatants, max_slots)
    # Load (or compile) the jitted code before the clock starts: elapsed is simulation time.
    chunk_result(system, plan, seed, 0, 1, n_sides, max_slots, keep=True)
    chunk_result(system, plan, seed, 0, 1, n_sides, max_slots, keep=False)
    start = time.perf_counter()

    def work(span):
        chunk, n = span
        return chunk_result(system, plan, seed, chunk, n, n_sides, max_slots, keep)

    spans = iter_spans(trials)
    with Progress(trials, enabled=progress) as bar:
        if threads == 1:
            kept = collect_in_order(map(work, spans), tally, keep, bar, stop)
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                results = in_order(lambda span: pool.submit(work, span), spans, 2 * threads)
                kept = collect_in_order(results, tally, keep, bar, stop)
    elapsed = time.perf_counter() - start
    trials_out = TrialOutcomes.concatenate(kept) if keep and kept else None
    return RunOutput(tally=tally, trials=trials_out, elapsed=elapsed, threads=threads)
