"""Compile (or load from numba's cache) the kernels of scenarios ahead of their first run.

``fuzion-sim warm [SCENARIO...]`` (and ``python -m fuzion_sim.warm``) runs one short chunk,
kept and streamed, and one replay of each scenario given, or of one shipped scenario per
kernel (the kernel a system's ``describe_plan`` names), spread over the cores, so later
processes load the kernels from the cache instead of each compiling them (the test suite runs
it before its parallel workers start).
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

__all__ = ["warm"]


def _warm_one(path: str) -> None:
    from .engine.chunks import chunk_result
    from .scenario import load_scenario
    from .systems import get_system

    sc = load_scenario(path)
    system = get_system(sc.system)
    plan = system.compile(sc)
    for keep in (True, False):
        chunk_result(system, plan, 1, 0, 8, keep)
    system.replay(sc, plan, 1, 0)  # the event log's kernel


def _one_per_kernel(paths: list[Path]) -> list[str]:
    """One scenario for each (system, kernel) the scenarios reach."""
    from .scenario import load_scenario
    from .systems import get_system

    chosen: dict[tuple, str] = {}
    for path in paths:
        sc = load_scenario(path)
        system = get_system(sc.system)
        kernel = system.describe_plan(system.compile(sc)).split(" (")[0]
        chosen.setdefault((sc.system, kernel), str(path))
    return list(chosen.values())


def warm(paths: list[Path], workers: int | None = None, every: bool = False) -> float:
    """Warm the kernels ``paths`` reach on ``workers`` processes (default: the cores): of each
    scenario when ``every``, else of one scenario a kernel; the seconds it took."""
    began = time.perf_counter()
    todo = [str(p) for p in paths] if every else _one_per_kernel(paths)
    workers = max(1, min(workers or os.cpu_count() or 1, len(todo)))
    if workers == 1:
        for path in todo:
            _warm_one(path)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            list(pool.map(_warm_one, todo))
    return time.perf_counter() - began


def main(argv=None) -> int:
    root = Path(argv[0] if argv else ".")
    paths = sorted(root.glob("scenarios/**/*.yaml"))
    took = warm(paths)
    print(f"warmed the kernels of {len(paths)} scenarios in {took:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
