"""Run a compiled plan: fixed-size chunks, one seed stream each, on a thread pool or Dask.

Chunks are merged in chunk order, whatever order they finish in, so a run gives the same
numbers on 1 thread, 16 threads or a Dask cluster. A stop rule (``--precision``) is consulted
only after each whole chunk, in order, so the same command always stops at the same trial
count.

Memory is flat in the number of trials unless per-trial outcomes are kept: chunk spans are
generated lazily, at most a fixed window of chunks is in flight, and each finished chunk is
reduced to a :class:`~fuzion_sim.engine.outcomes.Tally` and dropped. Per-trial outcomes are
kept only up to :data:`KEEP_TRIALS_MAX` trials (and :data:`KEEP_CELLS_MAX` trial-combatant
cells) unless asked for, and never beyond :data:`KEEP_CELLS_MAX`.

A run of fewer chunks than twice the threads splits each chunk into pieces (at least
:data:`PIECE_MIN` trials), so every thread has work: a battle of a few thousand trials is one
chunk. Trials are independent and seeded one by one, so how a chunk is split changes no number;
the stop rule still waits for a whole chunk. A piece's kernel call is split in turn into
sub-chunks sized to take about :data:`SUB_SECONDS` each; between
sub-chunks a worker checks the run's stop flag. Ctrl-C sets it, so every worker is done
within a sub-chunk, and the run raises :class:`~fuzion_sim.errors.Interrupted` with the
trials merged so far.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import islice

from .._signals import held
from ..errors import ArgumentError, FuzionSimError, Interrupted
from .outcomes import Tally, TrialOutcomes
from .progress import Progress, compiling_notice
from .rng import CHUNK, chunk_key

__all__ = [
    "BACKENDS",
    "KEEP_CELLS_MAX",
    "KEEP_TRIALS_MAX",
    "SUB_SECONDS",
    "check_keep",
    "default_keep",
    "RunOutput",
    "chunk_spans",
    "collect_in_order",
    "default_threads",
    "in_order",
    "interrupted",
    "iter_pieces",
    "iter_spans",
    "chunk_result",
    "run_chunk",
    "run_plan",
]

#: Above this many trials the engine keeps only streaming tallies (flat memory), unless told.
KEEP_TRIALS_MAX = 2_000_000
#: Most trial x combatant cells of per-trial outcomes kept by default (16 M: 2 million trials
#: of 8 combatants, about 450 MB); asked for, at most twice that.
KEEP_CELLS_MAX = 16_000_000
#: Target duration of one sub-chunk kernel call (the stop flag is checked between them).
SUB_SECONDS = 0.1
#: The first sub-chunk of a chunk, in trials (it measures the pace for the next ones), and the
#: fewest trials of any sub-chunk.
SUB_FIRST = 64
SUB_MIN = 16
#: The fewest trials of a piece of a chunk (:func:`iter_pieces`).
PIECE_MIN = 256


class TrialCounter:
    """Trials finished by every worker, partial chunks included (thread-safe)."""

    def __init__(self):
        self._lock = threading.Lock()
        self.value = 0

    def add(self, n: int) -> None:
        with self._lock:
            self.value += n


def default_keep(trials: int, n_comb: int) -> bool:
    """Whether a run keeps per-trial outcomes when not told: up to :data:`KEEP_TRIALS_MAX`
    trials and :data:`KEEP_CELLS_MAX` trial-combatant cells."""
    return trials <= KEEP_TRIALS_MAX and trials * max(1, n_comb) <= KEEP_CELLS_MAX


def check_keep(trials: int, n_comb: int, what: str = "keep_trials") -> None:
    """Refuse to keep the per-trial outcomes of ``trials`` trials of ``n_comb`` combatants
    beyond twice :data:`KEEP_CELLS_MAX` cells (about 900 MB).

    Raises
    ------
    ArgumentError
        Naming ``what`` and the most trials it may keep.
    """
    most = 2 * KEEP_CELLS_MAX // max(1, n_comb)
    if trials > most:
        raise ArgumentError(
            f"{what}: keeps every trial's outcome, at most {most:,} trials of {n_comb} "
            f"combatants (about 900 MB), got {trials:,}"
        )

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


def iter_pieces(trials: int, threads: int) -> Iterator[tuple[int, int, int, bool]]:
    """Lazily yield ``(chunk, first, n, ends_chunk)`` for a run of ``trials`` trials on
    ``threads`` threads: trials ``first .. first + n - 1`` of chunk ``chunk``, and whether they
    are its last.

    A run of at least twice as many chunks as threads keeps its chunks whole. A shorter one
    splits each chunk into near-equal pieces, about ``2 * threads`` in all and none under
    :data:`PIECE_MIN` trials, so that a battle of a few thousand trials (one chunk) keeps every
    thread busy. Each trial has its own seed, so the numbers are the same however it is split.
    """
    chunks = -(-int(trials) // CHUNK)
    per = 1 if threads <= 1 or chunks == 0 or chunks >= 2 * threads else -(-2 * threads // chunks)
    for chunk, n in iter_spans(trials):
        k = max(1, min(per, n // PIECE_MIN))
        first = 0
        for i in range(k):
            size = n // k + (i < n % k)
            yield chunk, first, size, i == k - 1
            first += size


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


class Stopped(Exception):
    """A chunk abandoned because its run's stop flag was set."""


def empty_tally(system, plan) -> Tally:
    """An empty tally shaped for ``plan``'s fight (sides, combatants, time, the system's
    extras)."""
    return Tally.zeros(system.n_sides(plan), system.n_combatants(plan), system.max_slots(plan),
                       system.outcome_schema(plan))  # fmt: skip


def _sub_result(system, plan, key, first, n, keep):
    """Trials ``first .. first + n - 1`` of the chunk ``key``: a Tally, and the per-trial
    outcomes when ``keep``. When they are not kept the system's ``tally_chunk`` may add them
    straight into the tally (the same numbers, without writing and re-reading the per-trial
    arrays)."""
    if not keep:
        tally = system.tally_chunk(plan, key, first, n)
        if tally is not None:
            return tally, None
    out = system.run_chunk(plan, key, first, n)
    tally = Tally.of(out, system.n_sides(plan), system.max_slots(plan),
                     system.outcome_schema(plan))  # fmt: skip
    return tally, (out if keep else None)


def chunk_result(system, plan, seed, chunk, n, keep, flag=None,
                 counter: TrialCounter | None = None, start: int = 0):  # fmt: skip
    """The :class:`Tally` of trials ``start .. start + n - 1`` of a chunk (the whole chunk by
    default), and their per-trial outcomes when ``keep``.

    They run as sub-chunks of about :data:`SUB_SECONDS` each (the first of
    :data:`SUB_FIRST` trials sets the pace); their tallies and outcomes add up to exactly the
    span's. ``flag`` (a ``threading.Event``) is checked between sub-chunks: once set, the
    span is abandoned with :class:`Stopped`. ``counter`` counts the trials finished.
    """
    key = chunk_key(seed, chunk)
    tally, outs = None, []
    first, size, end = start, min(SUB_FIRST, n), start + n
    while first < end:
        if flag is not None and flag.is_set():
            raise Stopped
        size = min(size, end - first)
        began = time.perf_counter()
        part, out = _sub_result(system, plan, key, first, size, keep)
        took = time.perf_counter() - began
        tally = part if tally is None else tally.merge(part)
        if keep:
            outs.append(out)
        first += size
        if counter is not None:
            counter.add(size)
        rate = size / took if took > 0 else float("inf")
        size = int(max(SUB_MIN, min(n, rate * SUB_SECONDS)))
    if tally is None:  # n == 0
        return empty_tally(system, plan), None
    if not keep:
        return tally, None
    return tally, outs[0] if len(outs) == 1 else TrialOutcomes.concatenate(outs)


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
    results: Iterator[tuple[Tally, TrialOutcomes | None, bool]],
    tally: Tally,
    keep: bool,
    bar: Progress,
    stop: Callable[[Tally], bool] | None,
    kept: list[TrialOutcomes] | None = None,
) -> list[TrialOutcomes]:
    """Merge chunk results ``(tally, outcomes, ends_chunk)`` (in trial order) into ``tally``;
    the kept outcomes.

    ``stop(tally)`` is consulted after each whole chunk; True ends the run there and closes
    ``results`` (which cancels what is still in flight). A chunk's merge runs whole, Ctrl-C
    held off until it is done, so after an interruption ``tally`` (and ``kept``, when given:
    the list the outcomes are appended to) hold exactly a prefix of the run's trials.
    """
    kept = [] if kept is None else kept
    try:
        for part, out, ends_chunk in results:
            with held():
                tally.merge(part)
                if keep:
                    kept.append(out)
            bar.advance(part.n_trials)
            if stop is not None and ends_chunk and stop(tally):
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return kept


def resolve_keep(trials: int, n_comb: int, keep_trials: bool | None) -> bool:
    """Whether a run keeps per-trial outcomes (:func:`default_keep` unless told); asking for
    too many raises (:func:`check_keep`)."""
    if keep_trials is None:
        return default_keep(trials, n_comb)
    if keep_trials:
        check_keep(trials, n_comb)
    return bool(keep_trials)


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
    system : RuleSystem
        The rule system (:class:`~fuzion_sim.systems.base.RuleSystem`): it runs chunks of
        the plan and says the shape of their outcomes.
    plan : object
        The compiled scenario (must pickle for ``backend="dask"``).
    trials, seed : int
        How many trials and the root seed.
    threads : int, optional
        Worker threads (default: all cores). Results do not depend on it. With
        ``backend="dask"`` and no ``scheduler``: worker processes of the local cluster.
    keep_trials : bool, optional
        Keep per-trial outcomes (default: :func:`default_keep`; more than
        :func:`check_keep` allows is refused).
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
        Unknown backend, ``scheduler`` without ``backend="dask"``, Dask not installed, no
        scheduler at the address, or too many trials to keep.
    fuzion_sim.errors.Interrupted
        Ctrl-C (a ``KeyboardInterrupt``), with the trials merged so far; every worker thread
        has stopped by then.
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
    keep = resolve_keep(trials, system.n_combatants(plan), keep_trials)
    tally = empty_tally(system, plan)
    try:
        # Load (or compile) the jitted code before the clock starts: elapsed is simulation time.
        with compiling_notice(progress, estimate=system.compile_seconds(plan)):
            chunk_result(system, plan, seed, 0, 1, keep=True)
            chunk_result(system, plan, seed, 0, 1, keep=False)
    except KeyboardInterrupt:
        raise Interrupted(0) from None
    start = time.perf_counter()
    flag, counter = threading.Event(), TrialCounter()

    def work(piece):
        chunk, first, n, ends_chunk = piece
        part, out = chunk_result(system, plan, seed, chunk, n, keep, flag, counter, first)
        return part, out, ends_chunk

    spans = iter_pieces(trials, threads)
    kept: list[TrialOutcomes] = []
    try:
        with Progress(trials, enabled=progress) as bar:
            if threads == 1:
                collect_in_order(map(work, spans), tally, keep, bar, stop, kept)
            else:
                pool = ThreadPoolExecutor(max_workers=threads)
                try:
                    results = in_order(lambda span: pool.submit(work, span), spans, 2 * threads)
                    collect_in_order(results, tally, keep, bar, stop, kept)
                finally:
                    flag.set()  # a stop rule or Ctrl-C: the running chunks end within a sub-chunk
                    pool.shutdown(wait=True, cancel_futures=True)
    except KeyboardInterrupt:
        flag.set()
        output = RunOutput(tally, _joined(kept, keep), time.perf_counter() - start, threads)
        raise interrupted(max(tally.n_trials, counter.value), output) from None
    elapsed = time.perf_counter() - start
    return RunOutput(tally=tally, trials=_joined(kept, keep), elapsed=elapsed, threads=threads)


def _joined(kept: list, keep: bool) -> TrialOutcomes | None:
    return TrialOutcomes.concatenate(kept) if keep and kept else None


def interrupted(trials: int, partial: RunOutput | None = None) -> Interrupted:
    """The :class:`~fuzion_sim.errors.Interrupted` of a run stopped after ``trials`` trials;
    its ``partial`` is what the trials merged in order add up to (a prefix of the run,
    so the same numbers as a run of ``partial.tally.n_trials`` trials), or None when no
    chunk was merged."""
    err = Interrupted(trials)
    err.partial = partial if partial is not None and partial.tally.n_trials > 0 else None
    return err
