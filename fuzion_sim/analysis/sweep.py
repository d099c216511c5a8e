"""Parameter sweeps: every point of a grid of key-path values, resumable.

Each finished grid point is written at once to ``DIR/points/<key>.parquet`` (one row), where
``<key>`` hashes the point's values, the base scenario's hash, the seed and the trial count.
Running the same sweep again reads the finished points and runs only the missing ones; the
final table is always assembled from the point files, in grid order, so an interrupted and
resumed sweep gives exactly the table of an uninterrupted one.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from ..errors import FuzionSimError
from .variants import as_base, axes_of, engine_kwargs, expand_grid, parse_values

__all__ = ["sweep", "sweep_row", "point_key", "grid_from_block", "POINTS_DIR"]

POINTS_DIR = "points"


def point_key(point: dict, scenario_hash: str, seed: int, trials: int) -> str:
    """Hash (16 hex digits) identifying one grid point's result."""
    text = json.dumps(
        {"point": point, "scenario": scenario_hash, "seed": int(seed), "trials": int(trials)},
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def sweep_row(point: dict, result) -> dict:
    """The table row of one grid point: the grid values, then the answers."""
    row = dict(point)
    for side in result.sides:
        row[f"win_probability.{side}"] = float(result.win_probability(side))
    kt = result.kill_time_summary()
    row["kill_time_mean"] = kt["mean"]
    for side in result.sides:
        lo, hi = result.win_interval(side)
        row[f"win_ci95_low.{side}"] = lo
        row[f"win_ci95_high.{side}"] = hi
    row["draw_probability"] = float(result.draw_probability)
    row["kill_time_se"] = kt["se"]
    row["kill_time_median"] = kt.get("quantiles", {}).get("0.5", {}).get("value")
    row["trials"] = int(result.trials)
    row["seed"] = int(result.seed)
    row["scenario_hash"] = result.provenance.get("scenario_hash")
    row["kill_time_unit"] = result.time_unit["unit"]
    return row


def grid_from_block(block: dict | None) -> list[tuple[str, list]]:
    """Axes from a scenario's ``sweep:`` block (``grid: {key: "0:20:2" or [values]}``)."""
    if not block:
        return []
    unknown = set(block) - {"grid", "trials", "seed"}
    if unknown:
        raise FuzionSimError(f"sweep: unknown key(s) {', '.join(sorted(unknown))}")
    grid = block.get("grid") or {}
    if not isinstance(grid, dict):
        raise FuzionSimError("sweep.grid must map key paths to values or START:STOP:STEP")
    return [(str(k), parse_values(v)) for k, v in grid.items()]


def _write_atomic(frame, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)


def sweep(
    scenario,
    grid=None,
    out_dir: str | os.PathLike | None = None,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    plots: bool = True,
    on_point: Callable[[int, int, dict, bool], None] | None = None,
):
    """Run every point of a grid and return the tidy table (pandas DataFrame).

    Parameters
    ----------
    scenario : path, Scenario or Base
        The base scenario; a ``sweep:`` block in its file supplies the grid (and optionally
        ``trials`` and ``seed``) when ``grid`` is not given.
    grid : dict, list of (key_path, values), list of str, or str, optional
        Axes; values may be lists or ``"START:STOP:STEP"`` text (STOP included); the CLI's
        ``--grid`` text works too: ``["sides.blue[0].armor.pd=0:20:2", "rules.dice=hero,x"]``.
    out_dir : path, optional
        Results folder: ``points/`` (one Parquet file per finished point, reused on re-runs),
        ``results.csv``, ``results.parquet`` and heatmaps. None: nothing is written.
    trials, seed : int, optional
        Override the scenario's (every point uses the same seed: common random numbers).
    threads, backend, scheduler :
        Engine options passed to :func:`fuzion_sim.api.simulate`.
    plots : bool
        Draw heatmaps / line plots into ``out_dir``.
    on_point : callable, optional
        ``on_point(index, total, point, resumed)`` after each point.

    Returns
    -------
    pandas.DataFrame
        One row per grid point: one column per grid key, ``win_probability.<side>`` per side,
        ``kill_time_mean``, then intervals, draw probability, median, trials, seed.
    """
    import pandas as pd

    from ..api import scenario_hash, simulate

    base = as_base(scenario)
    block = base.sweep or {}
    if grid is None or (not isinstance(grid, dict) and not list(grid)):
        axes = grid_from_block(block)
    else:
        axes = axes_of(grid)
    if not axes:
        raise FuzionSimError("no grid: give --grid KEY=VALUES or a sweep: block with grid:")
    trials = trials if trials is not None else block.get("trials")
    seed = seed if seed is not None else block.get("seed")
    engine = engine_kwargs(backend, scheduler)
    base_scenario = base.build()
    trials = base_scenario.trials if trials is None else int(trials)
    seed = base_scenario.seed if seed is None else int(seed)
    base_hash = scenario_hash(base_scenario)
    points = expand_grid(axes)
    # Validate every point before running any (a typo fails fast).
    scenarios = [base.build(list(p.items())) for p in points]
    folder = None
    if out_dir is not None:
        folder = Path(out_dir)
        (folder / POINTS_DIR).mkdir(parents=True, exist_ok=True)
    for i, (point, sc) in enumerate(zip(points, scenarios, strict=True)):
        path = None
        if folder is not None:
            path = folder / POINTS_DIR / f"{point_key(point, base_hash, seed, trials)}.parquet"
            if path.exists():
                if on_point:
                    on_point(i, len(points), point, True)
                continue
        res = simulate(sc, trials=trials, seed=seed, threads=threads, keep_trials=False,
                       progress=False, **engine)  # fmt: skip
        row = pd.DataFrame([sweep_row(point, res)])
        if path is not None:
            _write_atomic(row, path)
        else:
            point["_row"] = row
        if on_point:
            on_point(i, len(points), point, False)
    frames = []
    for point in points:
        if folder is None:
            frames.append(point.pop("_row"))
        else:
            key = point_key(point, base_hash, seed, trials)
            frames.append(pd.read_parquet(folder / POINTS_DIR / f"{key}.parquet"))
    table = pd.concat(frames, ignore_index=True)
    if folder is not None:
        table.to_csv(folder / "results.csv", index=False)
        table.to_parquet(folder / "results.parquet", index=False)
        if plots:
            from ..report.plots import sweep_plots

            sides = [c.split(".", 1)[1] for c in table.columns if c.startswith("win_probability.")]
            sweep_plots(table, [k for k, _ in axes], sides, folder)
    table.attrs["axes"] = [k for k, _ in axes]
    return table
