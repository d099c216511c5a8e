"""Run a compiled plan on a thread pool in this process (or hand it to the Dask backend), and
the policy both follow for what a run keeps.

Chunks and their pieces run on the pool and are merged in trial order (:mod:`.chunks`), so a
run gives the same numbers on 1 thread, 16 threads or a Dask cluster. Memory is flat in the
number of trials unless per-trial outcomes are kept: pieces are generated lazily, at most a
fixed window of them is in flight, and each finished one is reduced to a
:class:`~fuzion_sim.engine.outcomes.Tally` and dropped. Per-trial outcomes are kept only up
to :data:`KEEP_TRIALS_MAX` trials (and :data:`KEEP_CELLS_MAX` trial-combatant cells) unless
asked for, and never beyond twice :data:`KEEP_CELLS_MAX`. Ctrl-C sets the run's stop flag, so
every worker is done within a sub-chunk, and the run raises
:class:`~fuzion_sim.errors.Interrupted` with the trials merged so far.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from .. import _signals
from ..errors import ArgumentError, FuzionSimError, Interrupted
from .chunks import TrialCounter, chunk_result, collect_in_order, empty_tally, in_order, iter_pieces
from .outcomes import Tally, TrialOutcomes
from .progress import Progress, compiling_notice

__all__ = [
    "BACKENDS",
    "KEEP_CELLS_MAX",
    "KEEP_TRIALS_MAX",
    "RunOutput",
    "check_keep",
    "default_keep",
    "default_threads",
    "interrupted",
    "resolve_keep",
    "run_plan",
]

#: Above this many trials the engine keeps only streaming tallies (flat memory), unless told.
KEEP_TRIALS_MAX = 2_000_000
#: Most trial x combatant cells of per-trial outcomes kept by default (16 M: 2 million trials
#: of 8 combatants, about 450 MB); asked for, at most twice that.
KEEP_CELLS_MAX = 16_000_000


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
        with compiling_notice(progress, estimate=system.compile_seconds(plan)), _signals.kept():
            chunk_result(system, plan, seed, 0, 1, keep=True)
            chunk_result(system, plan, seed, 0, 1, keep=False)
    except KeyboardInterrupt:
        raise Interrupted(0) from None
    start = time.perf_counter()
    flag, counter = threading.Event(), TrialCounter()
    pace: dict = {}  # the kernel's rate, measured by the first sub-chunk of the run

    def work(piece):
        chunk, first, n, ends_chunk = piece
        part, out = chunk_result(system, plan, seed, chunk, n, keep, flag, counter, first, pace)
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
