"""The chunk machinery both backends share: how a run is cut into chunks and pieces, how one
runs (in sub-chunks, between which a stop flag is checked) and how their results are merged,
in trial order.

A run of ``trials`` trials is cut into chunks of :data:`~fuzion_sim.engine.rng.CHUNK` trials,
each with its own seed stream (``chunk_key``); every trial has its own generator within its
chunk, so how a chunk is further cut (pieces across threads, sub-chunks within a call) changes
no number. A run of fewer chunks than twice the threads splits each chunk into pieces of at
least :data:`PIECE_MIN` trials, so every thread has work (a battle of a few thousand trials is
one chunk). A piece's kernel call is split in turn into sub-chunks sized to take about
:data:`SUB_SECONDS` each; between them a worker checks the run's stop flag. Results are merged
in trial order, whatever order they finish in, and a stop rule is consulted only after a whole
chunk, so the same command always stops at the same trial count.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice

from .._signals import held
from .outcomes import Tally, TrialOutcomes
from .progress import Progress
from .rng import CHUNK, chunk_key

__all__ = [
    "PIECE_MIN",
    "SUB_SECONDS",
    "Stopped",
    "TrialCounter",
    "chunk_result",
    "chunk_spans",
    "collect_in_order",
    "empty_tally",
    "in_order",
    "iter_pieces",
    "iter_spans",
    "run_chunk",
]

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


def _paced(rate: float, n: int) -> int:
    """Trials of a sub-chunk at ``rate`` trials a second: about :data:`SUB_SECONDS` of work."""
    return int(max(SUB_MIN, min(n, rate * SUB_SECONDS)))


def chunk_result(system, plan, seed, chunk, n, keep, flag=None,
                 counter: TrialCounter | None = None, start: int = 0,
                 pace: dict | None = None):  # fmt: skip
    """The :class:`Tally` of trials ``start .. start + n - 1`` of a chunk (the whole chunk by
    default), and their per-trial outcomes when ``keep``.

    They run as sub-chunks of about :data:`SUB_SECONDS` each; their tallies and outcomes add up
    to exactly the span's. The first, of :data:`SUB_FIRST` trials, sets the pace, unless
    ``pace`` (a dict the chunks of one run share) holds the rate an earlier chunk measured: a
    fast kernel then runs a chunk in one call, not two. ``flag`` (a ``threading.Event``) is
    checked between sub-chunks: once set, the span is abandoned with :class:`Stopped`.
    ``counter`` counts the trials finished.
    """
    key = chunk_key(seed, chunk)
    tally, outs = None, []
    known = pace.get("rate") if pace else None
    size = min(SUB_FIRST, n) if known is None else _paced(known, n)
    first, end = start, start + n
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
        if pace is not None and size >= SUB_FIRST:
            pace["rate"] = rate
        size = _paced(rate, n)
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
