"""Run a compiled plan: fixed-size chunks, one seed stream each, on a thread pool.

Chunks are merged in chunk order, whatever order they finish in, so a run gives the same
numbers on 1 thread or 16. A stop rule (``--precision``) is consulted only after each whole
chunk, in order, so the same command always stops at the same trial count.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from .outcomes import Tally, TrialOutcomes
from .progress import Progress
from .rng import CHUNK, chunk_key

__all__ = ["RunOutput", "run_plan", "chunk_spans", "KEEP_TRIALS_MAX", "default_threads"]

#: Above this many trials the engine keeps only streaming tallies (flat memory), unless told.
KEEP_TRIALS_MAX = 2_000_000


def default_threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def chunk_spans(trials: int) -> list[tuple[int, int]]:
    """``(chunk index, trials in chunk)`` for a run of ``trials`` trials."""
    full, rest = divmod(int(trials), CHUNK)
    spans = [(i, CHUNK) for i in range(full)]
    if rest:
        spans.append((full, rest))
    return spans


@dataclass
class RunOutput:
    """What a run produced: the tally, the per-trial outcomes if kept, and how it ran."""

    tally: Tally
    trials: TrialOutcomes | None
    elapsed: float
    threads: int
    backend: str = "threads"


def run_chunk(system, plan, seed: int, chunk: int, n: int) -> TrialOutcomes:
    """Run one chunk (the unit of work of every backend)."""
    return system.run_chunk(plan, chunk_key(seed, chunk), 0, n)


def run_plan(
    system,
    plan,
    trials: int,
    seed: int,
    threads: int | None = None,
    keep_trials: bool | None = None,
    progress: bool | None = None,
    stop: Callable[[Tally], bool] | None = None,
) -> RunOutput:
    """Run ``trials`` trials of ``plan`` and collect them.

    Parameters
    ----------
    system : module or object
        The rule system: ``run_chunk(plan, key, first, n) -> TrialOutcomes``,
        ``n_sides(plan)``, ``max_slots(plan)``.
    trials, seed : int
        How many trials and the root seed.
    threads : int, optional
        Worker threads (default: all cores). Results do not depend on it.
    keep_trials : bool, optional
        Keep per-trial outcomes (default: when ``trials <= KEEP_TRIALS_MAX``).
    progress : bool, optional
        Show a progress bar (default: on a terminal, for runs over a second).
    stop : callable, optional
        Called with the running tally after each chunk, in chunk order; True stops the run
        there. ``trials`` is then the most the run will do.
    """
    threads = max(1, int(threads or default_threads()))
    keep = trials <= KEEP_TRIALS_MAX if keep_trials is None else keep_trials
    n_sides, max_slots = system.n_sides(plan), system.max_slots(plan)
    tally = Tally.zeros(n_sides, plan.n_combatants, max_slots)
    kept: list[TrialOutcomes] = []
    spans = chunk_spans(trials)
    # Load (or compile) the jitted code before the clock starts: elapsed is simulation time.
    Tally.of(run_chunk(system, plan, seed, 0, 1), n_sides, max_slots)
    start = time.perf_counter()

    def work(span):
        chunk, n = span
        out = run_chunk(system, plan, seed, chunk, n)
        return out, Tally.of(out, n_sides, max_slots)

    with Progress(trials, enabled=progress) as bar:
        if threads == 1:
            results = (work(s) for s in spans)
            pending = None
        else:
            pool = ThreadPoolExecutor(max_workers=threads)
            pending = deque()
            todo = iter(spans)
            for span in todo:
                pending.append(pool.submit(work, span))
                if len(pending) >= 2 * threads:
                    break

            def ordered():
                while pending:
                    fut = pending.popleft()
                    nxt = next(todo, None)
                    if nxt is not None:
                        pending.append(pool.submit(work, nxt))
                    yield fut.result()

            results = ordered()
        try:
            for out, part in results:
                tally.merge(part)
                if keep:
                    kept.append(out)
                bar.advance(out.n)
                if stop is not None and stop(tally):
                    break
        finally:
            if pending is not None:
                for fut in pending:
                    fut.cancel()
                pool.shutdown(wait=True, cancel_futures=True)
    elapsed = time.perf_counter() - start
    trials_out = TrialOutcomes.concatenate(kept) if keep and kept else None
    return RunOutput(tally=tally, trials=trials_out, elapsed=elapsed, threads=threads)
