"""Parameter sweeps: every point of a grid of key-path values, resumable.

Each finished grid point is written at once to ``DIR/points/<key>.parquet`` (one row), where
``<key>`` hashes the point's values, the base scenario's hash, the seed and the trial count.
The file also records what it is (those four, in its Parquet metadata), and is checked when
read: a damaged file (a truncated write, a full disk) or one that is not the point it is named
for (a file copied over another) is recomputed with a warning. Running the same sweep again
reads the finished points and runs only the missing ones; the final table is always assembled
from the checked point files, in grid order, so an interrupted and resumed sweep gives exactly
the table of an uninterrupted one.

The folder is an :class:`~fuzion_sim.outdir.OutputDir`: a lock file stops a second sweep into
it (naming the holder), nothing is written through a symbolic link, and files the tool did
not write are not overwritten without ``force``.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Callable
from pathlib import Path

from .._args import (
    check_axes,
    check_callable,
    check_engine,
    check_flag,
    check_out_dir,
    check_scenario,
    checked,
)
from ..errors import FuzionSimError, Interrupted
from ..scenario.variants import as_base, axes_of, expand_grid, label_of, parse_values
from . import simulation
from .simulation import check_run_args, engine_kwargs, scenario_hash

__all__ = ["sweep", "sweep_row", "point_key", "grid_from_block", "POINTS_DIR", "POINT_META"]

POINTS_DIR = "points"
#: The Parquet metadata key of a point file's identity.
POINT_META = b"fuzion_sim.point"


def point_key(point: dict, scenario_hash: str, seed: int, trials: int) -> str:
    """Hash (16 hex digits) identifying one grid point's result."""
    return hashlib.sha256(_identity_text(point, scenario_hash, seed, trials).encode()).hexdigest()[
        :16
    ]


def _identity_text(point: dict, scenario_hash: str, seed: int, trials: int) -> str:
    return json.dumps(
        {"point": point, "scenario": scenario_hash, "seed": int(seed), "trials": int(trials)},
        sort_keys=True,
        default=str,
    )


def _write_point(frame, path: Path, identity: str) -> None:
    """One point's row as Parquet, its identity in the file's metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[POINT_META] = identity.encode()
    pq.write_table(table.replace_schema_metadata(meta), path)


def _read_point(path: Path, identity: str):
    """The point's row if ``path`` holds exactly that point, else ``(None, why)``."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
        stored = (table.schema.metadata or {}).get(POINT_META)
        frame = table.to_pandas()
    except Exception as exc:  # ArrowInvalid, OSError, ...: a damaged file
        return None, f"unreadable ({type(exc).__name__})"
    if stored is None:
        return None, "it does not say which point it is"
    if stored.decode(errors="replace") != identity:
        return None, "it holds another point"
    if len(frame) != 1:
        return None, f"it has {len(frame)} rows"
    return frame, None


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
    row["unresolved_probability"] = float(result.unresolved_probability)
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


def _check_sweep(scenario, grid, out_dir, trials, seed, threads, backend, scheduler, plots,
                 on_point, force, warn):  # fmt: skip
    check_scenario(scenario)
    check_axes("grid", grid, optional=True)
    if out_dir is not None:
        check_out_dir("out_dir", out_dir)
    check_run_args(trials, seed, threads)
    check_engine(backend, scheduler)
    check_flag("plots", plots)
    check_flag("force", force)
    check_callable("on_point", on_point)
    check_callable("warn", warn)


@checked(_check_sweep)
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
    force: bool = False,
    warn: Callable[[str], None] | None = None,
):
    """Run every point of a grid and return the tidy table (pandas DataFrame).

    Parameters
    ----------
    scenario : path, Scenario, dict or Base
        The base scenario; a ``sweep:`` block in its file supplies the grid (and optionally
        ``trials`` and ``seed``) when ``grid`` is not given.
    grid : dict, list of (key_path, values), list of str, or str, optional
        Axes; values may be lists or ``"START:STOP:STEP"`` text (STOP included); the CLI's
        ``--grid`` text works too: ``["sides.blue[0].armor.pd=0:20:2", "rules.dice=hero,x"]``;
        at most :data:`~fuzion_sim.limits.MAX_GRID_POINTS` points.
    out_dir : path, optional
        Results folder: ``points/`` (one Parquet file per finished point, reused on re-runs),
        ``results.csv``, ``results.parquet`` and heatmaps. None: nothing is written.
    trials, seed : int, optional
        Override the scenario's (every point uses the same seed: common random numbers).
    threads, backend, scheduler :
        Engine options passed to :func:`~fuzion_sim.analysis.simulation.simulate`.
    plots : bool
        Draw heatmaps / line plots into ``out_dir``.
    on_point : callable, optional
        ``on_point(index, total, point, resumed)`` after each point.
    force : bool
        Overwrite files in ``out_dir`` that the tool did not write (see
        :class:`~fuzion_sim.outdir.OutputDir`).
    warn : callable, optional
        ``warn(message)`` for a point's scenario warning that the base scenario does not have
        (named by the point's values) and for a point file that is recomputed (default:
        ``warnings.warn``).

    Raises
    ------
    FuzionSimError
        A bad grid, an output-folder problem, or another sweep writing into ``out_dir``.
    fuzion_sim.errors.Interrupted
        Ctrl-C, with the trials run in this call; finished points stay saved.

    Returns
    -------
    pandas.DataFrame
        One row per grid point: one column per grid key, ``win_probability.<side>`` per side,
        ``kill_time_mean``, then intervals, draw probability, median, trials, seed, and
        ``warnings`` (the point's scenario warnings, ``"; "``-joined; empty when none).
    """
    import pandas as pd

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
    check_run_args(trials, seed)  # the sweep: block's too
    engine = engine_kwargs(backend, scheduler)
    base_scenario = base.build()
    trials = base_scenario.trials if trials is None else int(trials)
    seed = base_scenario.seed if seed is None else int(seed)
    base_hash = scenario_hash(base_scenario)
    points = expand_grid(axes)
    # Validate every point before running any (a typo fails fast).
    scenarios = [base.build(list(p.items()), option="--grid") for p in points]
    if warn is None:
        warn = lambda message: warnings.warn(message, RuntimeWarning, stacklevel=3)  # noqa: E731
    notes = _point_warnings(points, scenarios, base_scenario, warn)
    if out_dir is None:
        frames = _run_points(points, scenarios, None, base_hash, seed, trials, threads, engine,
                             on_point, warn, notes)  # fmt: skip
        table = pd.concat(frames, ignore_index=True)
    else:
        from ..outdir import OutputDir

        out = OutputDir(out_dir, force=force, owned_dirs=(POINTS_DIR,))
        for name in ("results.csv", "results.parquet"):
            out.check(name)  # fail now, not after the whole grid has run
        with out:
            frames = _run_points(points, scenarios, out, base_hash, seed, trials, threads,
                                 engine, on_point, warn, notes)  # fmt: skip
            table = pd.concat(frames, ignore_index=True)
            with out.staging(replace=True) as stage:
                table.to_csv(stage / "results.csv", index=False)
                table.to_parquet(stage / "results.parquet", index=False)
                if plots:
                    from ..report.plots import sweep_plots

                    sides = [c.split(".", 1)[1] for c in table.columns
                             if c.startswith("win_probability.")]  # fmt: skip
                    sweep_plots(table, [k for k, _ in axes], sides, stage)
    table.attrs["axes"] = [k for k, _ in axes]
    return table


def _point_warnings(points, scenarios, base_scenario, warn) -> list[str]:
    """Each point's scenario warnings as one text (the table's ``warnings`` column); those a
    point has that the base scenario does not are handed to ``warn`` now, named by the
    point's values (the base's own were shown when it was loaded)."""
    seen = set(base_scenario.warnings)
    notes = []
    for point, sc in zip(points, scenarios, strict=True):
        mine = list(dict.fromkeys(sc.warnings))
        for message in mine:
            if message not in seen:
                warn(f"{label_of(point)}: {message}")
        notes.append("; ".join(mine))
    return notes


def _run_points(points, scenarios, out, base_hash, seed, trials, threads, engine, on_point,
                warn, notes) -> list:  # fmt: skip
    """Every point's one-row frame, in grid order: read back from its checked point file when
    it is there and sound, else run (and saved when ``out`` is an output folder); each with
    its scenario warnings (``notes``) in a ``warnings`` column."""
    frames = _run_point_frames(points, scenarios, out, base_hash, seed, trials, threads,
                               engine, on_point, warn)  # fmt: skip
    return [f.assign(warnings=note) for f, note in zip(frames, notes, strict=True)]


def _run_point_frames(points, scenarios, out, base_hash, seed, trials, threads, engine,
                      on_point, warn) -> list:  # fmt: skip
    """:func:`_run_points` without the warnings."""
    import pandas as pd

    frames, done_trials = [], 0
    for i, (point, sc) in enumerate(zip(points, scenarios, strict=True)):
        identity = _identity_text(point, base_hash, seed, trials)
        rel = f"{POINTS_DIR}/{point_key(point, base_hash, seed, trials)}.parquet"
        if out is not None and (out.root / rel).exists():
            frame, why = _read_point(out.root / rel, identity)
            if frame is not None:
                frames.append(frame)
                if on_point:
                    on_point(i, len(points), point, True)
                continue
            warn(f"{out.root / rel}: {why}; running the point again")
        try:
            res = simulation.simulate(sc, trials=trials, seed=seed, threads=threads,
                                      keep_trials=False, progress=False, **engine)  # fmt: skip
        except Interrupted as exc:
            raise Interrupted(done_trials + exc.trials) from None
        done_trials += res.trials
        row = pd.DataFrame([sweep_row(point, res)])
        if out is None:
            frames.append(row)
        else:
            def writer(tmp, row=row, identity=identity):
                _write_point(row, tmp, identity)

            path = out.write(rel, writer, record=False)
            frame, why = _read_point(path, identity)
            if frame is None:
                raise FuzionSimError(f"{path}: cannot read back the point just written ({why})")
            frames.append(frame)
        if on_point:
            on_point(i, len(points), point, False)
    return frames
