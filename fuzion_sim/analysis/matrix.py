"""Balance tables: every row item against every column item, on common random numbers.

A balance table crosses two axes of a scenario, say the red fighter's weapon (rows) and the blue
fighter's armour (columns), and runs every cell with the same seed and trial count, so trial
``k`` of every cell starts from the same random stream: two rows compared in one column are a
paired comparison, and the noise between cells is the smallest it can be. Each cell gives every
side's win probability, every combatant's P(dead) and the mean kill time, each with its 95%
interval, and keeps the warnings its scenario raised (no skill for the weapon, out of range).

An axis is a key path and a selector: a list (``a,b,c``), a range (``0:20:2``), or a catalogue
query, ``@catalog:weapons`` with an optional filter in brackets, ``@catalog:weapons[category=
ranged]``, ``@catalog:armor[category=modern,pd>=10]`` (``=`` takes ``a|b`` alternatives; ``!=``,
``<``, ``<=``, ``>``, ``>=`` compare numbers).

A row is *dominated* when another row is at least as good in every column (no column where it is
significantly better, by the paired 95% interval) and significantly better in one, at no higher
cost (when both have a cost; an item with a cost and one without are not compared). "Better"
is for the side that owns the axis (the side of ``sides.red[0].weapon`` is red): a higher win
probability for that side, a lower P(dead) for its own combatants. The same holds for columns.
A round robin (:func:`round_robin`) sets every template of a list as the first member of the
first side (rows) and of the second side (columns): a matchup matrix.

The cells run as one batch: the scenario of every cell is built and checked first (a bad value
fails before anything runs), then the cells are run on a pool of threads, one cell a thread
(the kernels release the GIL; cells of the same plan shape share one compiled kernel).
"""

from __future__ import annotations

import math
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..errors import FuzionSimError, Interrupted, unknown_name
from ..limits import MAX_GRID_POINTS
from ..scenario.variants import as_base, parse_values
from . import simulation
from .intervals import wilson, z_value
from .simulation import check_run_args, engine_kwargs

__all__ = ["Axis", "Matrix", "catalogue_items", "matrix", "parse_axis", "round_robin"]

_FILTER = re.compile(r"^\s*([A-Za-z_][\w ]*?)\s*(!=|<=|>=|=|<|>)\s*(.*?)\s*$")
_CATALOG = re.compile(r"^@catalog:([A-Za-z_]+)\s*(?:\[(.*)\])?\s*$")


@dataclass
class Axis:
    """One axis of a balance table: a label (the key path) and its items.

    Attributes
    ----------
    key : str
        The key path (or what the items set, for a round robin).
    items : list of (str, list of (str, object))
        Each item's label and the overrides that make it.
    """

    key: str
    items: list

    @property
    def labels(self) -> list[str]:
        return [label for label, _ in self.items]


def _match(entry: dict, field_name: str, op: str, text: str, kind: str) -> bool:
    if field_name not in entry:
        from ..errors import did_you_mean

        hint = did_you_mean(field_name, list(entry))
        raise FuzionSimError(
            f"@catalog:{kind}: no field '{field_name}' (fields: {', '.join(entry)})"
            + (f"; did you mean '{hint}'?" if hint else "")
        )
    value = entry[field_name]
    if op == "=":
        return any(str(value).lower() == alt.strip().lower() for alt in text.split("|"))
    if op == "!=":
        return str(value).lower() != text.strip().lower()
    try:
        x, y = float(value), float(text)
    except (TypeError, ValueError):
        return False
    return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


def catalogue_items(system_name: str, kind: str, query: str | None = None) -> list[dict]:
    """The entries of a system's catalogue that pass a filter.

    Parameters
    ----------
    system_name : str
        The scenario's system.
    kind : str
        The catalogue (``weapons``, ``armor``, ...; ``fuzion-sim catalog`` lists them).
    query : str, optional
        Comma-separated conditions ``FIELD=VALUE`` (``a|b`` alternatives), ``FIELD!=VALUE`` or
        a numeric comparison (``<``, ``<=``, ``>``, ``>=``); all must hold.

    Returns
    -------
    list of dict

    Raises
    ------
    FuzionSimError
        An unknown catalogue or field, a malformed condition, or nothing selected.
    """
    from ..systems import get_system

    system = get_system(system_name)
    if kind not in system.catalogue_kinds:
        raise unknown_name(f"catalogue of system {system_name}", kind, system.catalogue_kinds)
    entries = system.catalogue(kind)
    for cond in [c for c in (query or "").split(",") if c.strip()]:
        m = _FILTER.match(cond)
        if not m:
            raise FuzionSimError(f"@catalog:{kind}: '{cond}' is not FIELD=VALUE or FIELD<=NUMBER")
        entries = [e for e in entries if _match(e, m.group(1), m.group(2), m.group(3), kind)]
    if not entries:
        raise FuzionSimError(f"@catalog:{kind}[{query}] selects nothing")
    if "name" not in entries[0]:
        raise FuzionSimError(f"@catalog:{kind}: its entries have no names to set")
    return entries


def parse_axis(base, text) -> Axis:
    """An axis from ``KEY=SELECTOR`` text or a ``(key, values)`` pair.

    Parameters
    ----------
    base : Base
        The base scenario (its system answers a catalogue query).
    text : str or (str, list or str)

    Returns
    -------
    Axis
    """
    if isinstance(text, str):
        if "=" not in text:
            raise FuzionSimError(f"expected KEY=SELECTOR, got '{text}'")
        key, _, selector = text.partition("=")
    elif isinstance(text, list | tuple) and len(text) == 2 and isinstance(text[0], str):
        key, selector = text
    else:
        raise FuzionSimError(f"an axis is 'KEY=SELECTOR' text or a (key, values) pair: {text!r}")
    key = key.strip()
    if not key:
        raise FuzionSimError(f"no key path before '=' in '{text}'")
    if isinstance(selector, str) and selector.strip().startswith("@catalog:"):
        m = _CATALOG.match(selector.strip())
        if not m:
            raise FuzionSimError(
                f"'{selector}' is not a catalogue query such as @catalog:weapons[category=ranged]"
            )
        system = base.data.get("system", "fuzion") if isinstance(base.data, dict) else "fuzion"
        values = [e["name"] for e in catalogue_items(system, m.group(1), m.group(2))]
    else:
        values = parse_values(selector)
    if not values:
        raise FuzionSimError(f"{key}: no values")
    labels = [str(v) for v in values]
    if len(set(labels)) != len(labels):
        raise FuzionSimError(f"{key}: a value is given twice")
    return Axis(key, [(str(v), [(key, v)]) for v in values])


def _owner(base, key: str) -> str | None:
    """The side an axis's key path belongs to (``sides.red[0].weapon`` -> red), else None."""
    from ..scenario import parse_path

    try:
        parts = parse_path(key)
    except FuzionSimError:
        return None
    if len(parts) > 1 and parts[0] == "sides" and isinstance(parts[1], str):
        return parts[1]
    return None


def _better(metric: str, metric_side, combatant_side, owner) -> str | None:
    """Which way is better for ``owner``: ``"higher"``, ``"lower"`` or None (undefined)."""
    if metric == "win_probability":
        return "higher" if owner in (None, metric_side) else "lower"
    if metric == "p_dead":
        return "lower" if owner in (None, combatant_side) else "higher"
    return None


def _paired(xa, xb) -> tuple[float, float]:
    """Mean of ``xb - xa`` per trial and its 95% half-width (a paired normal interval)."""
    d = np.asarray(xb, float) - np.asarray(xa, float)
    return float(d.mean()), float(z_value() * d.std(ddof=1) / math.sqrt(d.size))


def _paired_kill_time(a, b) -> tuple[float, float]:
    """Mean kill time of b minus a over decisive fights, with its delta-method half-width."""
    (da, ta), (db, tb) = a, b
    if not da.any() or not db.any():
        return 0.0, math.inf
    ma, mb = ta[da].mean(), tb[db].mean()
    ia = np.where(da, ta - ma, 0.0) / da.mean()
    ib = np.where(db, tb - mb, 0.0) / db.mean()
    return float(mb - ma), float(z_value() * (ib - ia).std(ddof=1) / math.sqrt(da.size))


@dataclass
class Matrix:
    """A balance table: one cell per (row item, column item).

    Attributes
    ----------
    scenario : str
        The scenario's name.
    rows, cols : Axis
    cells : pandas.DataFrame
        One row per cell: ``row``, ``col``, ``value`` / ``low`` / ``high`` (the chosen metric
        and its interval), every side's ``win_probability.<side>`` with ``win_low.<side>`` and
        ``win_high.<side>``, every combatant's ``p_dead.<name>`` (by position in the base
        scenario) with its interval, ``draw_probability``, ``kill_time_mean`` with
        ``kill_time_low`` and ``kill_time_high``, ``trials`` and ``warnings``.
    metric, side, combatant, label : str
        The metric shown (``win_probability`` of ``side``, ``p_dead`` of ``combatant``, or
        ``kill_time_mean``) and how it reads.
    costs : dict or None
        Item label -> cost, for the per-cost view and the dominance's "no higher cost".
    row_better, col_better : str or None
        ``"higher"`` or ``"lower"``: which way the metric is better for the side owning each
        axis (None: no dominance on that axis).
    warnings : dict
        ``(row, col)`` -> the cell's warnings (beyond the base scenario's own).
    elapsed : float
        Wall seconds for the cells.
    """

    scenario: str
    rows: Axis
    cols: Axis
    cells: object
    metric: str
    label: str
    trials: int
    seed: int
    side: str | None = None
    combatant: str | None = None
    costs: dict | None = None
    row_better: str | None = None
    col_better: str | None = None
    warnings: dict = field(default_factory=dict)
    elapsed: float = 0.0
    round_robin: bool = False
    _per_trial: dict = field(default_factory=dict, repr=False)

    @property
    def row_key(self) -> str:
        return self.rows.key

    @property
    def col_key(self) -> str:
        return self.cols.key

    @property
    def is_probability(self) -> bool:
        """True when the metric is a probability (win, P(dead))."""
        return self.metric != "kill_time_mean"

    def format(self, value) -> str:
        """A cell's value as the tables print it (``47.1%``, ``4.20``)."""
        if value is None or not np.isfinite(value):
            return "-"
        return f"{100 * value:.1f}%" if self.is_probability else f"{value:.2f}"

    def grid(self, what: str = "value"):
        """The table of one quantity: rows by columns, in axis order.

        Parameters
        ----------
        what : str
            A column of :attr:`cells` (``value``, ``low``, ``high``, ``win_probability.red``,
            ``kill_time_mean``, ...).

        Returns
        -------
        pandas.DataFrame
        """
        if what not in self.cells.columns:
            raise unknown_name("cell quantity", what, list(self.cells.columns))
        table = self.cells.pivot(index="row", columns="col", values=what)
        return table.loc[self.rows.labels, self.cols.labels].astype(float)

    def cell_warnings(self, row, col) -> list[str]:
        """The warnings of one cell's scenario."""
        return list(self.warnings.get((row, col), ()))

    def _dominated(self, axis: str) -> dict:
        better = self.row_better if axis == "rows" else self.col_better
        if better is None:
            return {}
        mine, other = (self.rows, self.cols) if axis == "rows" else (self.cols, self.rows)
        sign = 1.0 if better == "higher" else -1.0
        kill = self.metric == "kill_time_mean"
        costs = self.costs or {}

        def cell(a, b):
            return self._per_trial[(a, b) if axis == "rows" else (b, a)]

        out = {}
        for i in mine.labels:
            for j in mine.labels:
                if i == j:
                    continue
                ci, cj = costs.get(i), costs.get(j)
                if (ci is None) != (cj is None) or (ci is not None and cj > ci):
                    continue  # costlier, or one cost unknown: not comparable
                j_better_somewhere, i_better_somewhere = False, False
                for c in other.labels:
                    diff, half = (_paired_kill_time if kill else _paired)(cell(i, c), cell(j, c))
                    lo, hi = sign * diff - half, sign * diff + half  # j minus i, for the owner
                    j_better_somewhere |= lo > 0
                    i_better_somewhere |= hi < 0
                if j_better_somewhere and not i_better_somewhere:
                    out[i] = j
                    break
        return out

    def dominated_rows(self) -> dict:
        """Dominated row items: ``{item: an item that dominates it}``."""
        if not hasattr(self, "_dom_rows"):
            self._dom_rows = self._dominated("rows")
        return self._dom_rows

    def dominated_cols(self) -> dict:
        """Dominated column items: ``{item: an item that dominates it}``."""
        if not hasattr(self, "_dom_cols"):
            self._dom_cols = self._dominated("cols")
        return self._dom_cols

    def ranked(self):
        """The row items ranked by their mean over the columns, best first for the rows' side.

        Returns
        -------
        pandas.DataFrame
            ``item``, ``mean``, ``worst``, ``best``, ``cost`` and ``per_100`` (the mean per
            100 points of cost) when costs are given, ``dominated_by``.
        """
        import pandas as pd

        grid = self.grid()
        higher = self.row_better != "lower"
        dom = self.dominated_rows()
        rows = []
        for r in grid.index:
            v = grid.loc[r].to_numpy(float)
            row = {"item": r, "mean": float(np.nanmean(v)),
                   "worst": float(np.nanmin(v) if higher else np.nanmax(v)),
                   "best": float(np.nanmax(v) if higher else np.nanmin(v))}  # fmt: skip
            if self.costs:
                cost = self.costs.get(r)
                row["cost"] = cost
                row["per_100"] = 100 * row["mean"] / cost if cost else None
            row["dominated_by"] = dom.get(r, "")
            rows.append(row)
        frame = pd.DataFrame(rows)
        return frame.sort_values("mean", ascending=not higher, kind="stable").reset_index(drop=True)

    def to_frame(self):
        """The cells, one row each (what ``cells.csv`` holds)."""
        return self.cells.copy()

    def write(self, out_dir, force: bool = False, plots: bool = True) -> list:
        """Write ``cells.csv``, ``cells.parquet``, ``ranked.csv``, ``matrix.md`` and the
        heatmap ``heatmap.png`` into a folder (an :class:`~fuzion_sim.outdir.OutputDir`).

        Returns
        -------
        list of pathlib.Path
        """
        from ..outdir import OutputDir
        from ..report.studies import matrix_heatmap, matrix_markdown

        out = OutputDir(out_dir, force=force)
        names = ["cells.csv", "cells.parquet", "ranked.csv", "matrix.md"]
        names += ["heatmap.png"] if plots else []
        for name in names:
            out.check(name)
        with out, out.staging() as stage:
            self.cells.to_csv(stage / "cells.csv", index=False)
            self.cells.to_parquet(stage / "cells.parquet", index=False)
            self.ranked().to_csv(stage / "ranked.csv", index=False)
            (stage / "matrix.md").write_text(matrix_markdown(self) + "\n", encoding="utf-8")
            if plots:
                matrix_heatmap(self, stage / "heatmap.png")
        return [out.root / n for n in names]

    def to_json_dict(self) -> dict:
        """What ``fuzion-sim matrix --json`` prints: the axes, the metric, the cells, the
        ranking and the dominated items."""
        return {
            "scenario": self.scenario, "rows": {"key": self.row_key, "items": self.rows.labels},
            "cols": {"key": self.col_key, "items": self.cols.labels}, "metric": self.metric,
            "side": self.side, "combatant": self.combatant, "label": self.label,
            "trials": self.trials, "seed": self.seed, "costs": self.costs,
            "cells": self.cells.replace({np.nan: None}).to_dict(orient="records"),
            "ranked": self.ranked().replace({np.nan: None}).to_dict(orient="records"),
            "dominated_rows": self.dominated_rows(), "dominated_cols": self.dominated_cols(),
            "elapsed": self.elapsed,
        }  # fmt: skip

    def plot(self, path=None):
        """The heatmap (see :func:`fuzion_sim.report.studies.matrix_heatmap`)."""
        from ..report.studies import matrix_heatmap

        return matrix_heatmap(self, path)

    def to_markdown(self) -> str:
        """A report section (Markdown)."""
        from ..report.studies import matrix_markdown

        return matrix_markdown(self)

    def __repr__(self) -> str:
        return f"Matrix({self.label}: {len(self.rows.items)} x {len(self.cols.items)})\n" + str(
            self.grid().map(self.format)
        )

    def _repr_html_(self) -> str:
        from ..report.studies import matrix_html

        return matrix_html(self)


def _costs(costs, base, axes) -> dict | None:
    """Item label -> cost from a mapping, a YAML file, or ``"catalog"`` (the catalogue's own
    ``cost`` field)."""
    if costs is None:
        return None
    if isinstance(costs, str) and costs.strip() == "@catalog":
        from ..systems import get_system

        system = get_system(base.data.get("system", "fuzion"))
        out = {}
        for kind in system.catalogue_kinds:
            for e in system.catalogue(kind):
                if isinstance(e.get("cost"), int | float) and "name" in e:
                    out[str(e["name"])] = float(e["cost"])
        return {lab: out[lab] for a in axes for lab in a.labels if lab in out}
    if isinstance(costs, str | os.PathLike):
        from ..scenario import read_yaml

        data, _ = read_yaml(costs)
        if not isinstance(data, dict):
            raise FuzionSimError(f"{costs}: a cost file maps item names to numbers")
        costs = data
    if not isinstance(costs, dict):
        raise FuzionSimError("costs: a mapping of item names to numbers, a YAML file or @catalog")
    out = {}
    for k, v in costs.items():
        if isinstance(v, bool) or not isinstance(v, int | float) or not v >= 0:
            raise FuzionSimError(f"cost of '{k}': expected a number >= 0, got {v!r}")
        out[str(k)] = float(v)
    return out


def _run_cells(base, rows, cols, trials, seed, threads, engine):
    """Build every cell's scenario, then run the cells on a thread pool; per cell the summary
    numbers, the per-trial data the dominance needs, and the warnings."""
    from ..engine.runner import default_threads

    base_sc = base.build()
    base_warnings = set(base_sc.warnings)
    jobs = []
    for r, r_over in rows.items:
        for c, c_over in cols.items:
            sc = base.build(list(r_over) + list(c_over))
            jobs.append((r, c, sc, [w for w in sc.warnings if w not in base_warnings]))
    workers = max(1, min(int(threads or default_threads()), len(jobs)))

    def run(job):
        return simulation.simulate(job[2], trials=trials, seed=seed, threads=1,
                                   keep_trials=True, progress=False, **engine)  # fmt: skip

    results = []
    pool = ThreadPoolExecutor(max_workers=workers)
    futures = [pool.submit(run, j) for j in jobs]
    try:
        for f in futures:
            results.append(f.result())
    except (KeyboardInterrupt, Interrupted):
        pool.shutdown(wait=False, cancel_futures=True)
        raise Interrupted(sum(r.trials for r in results)) from None
    finally:
        pool.shutdown(wait=True)
    return base_sc, jobs, results


def _cell_row(base_sc, r, c, res, warnings) -> dict:
    row = {"row": r, "col": c}
    for side in res.sides:
        row[f"win_probability.{side}"] = float(res.win_probability(side))
        row[f"win_low.{side}"], row[f"win_high.{side}"] = res.win_interval(side)
    dead = res.outcomes.death_slot > 0
    for i, comb in enumerate(base_sc.combatants):
        if i < dead.shape[1]:
            k = int(dead[:, i].sum())
            row[f"p_dead.{comb.name}"] = k / res.trials
            row[f"p_dead_low.{comb.name}"], row[f"p_dead_high.{comb.name}"] = wilson(k, res.trials)
    row["draw_probability"] = float(res.draw_probability)
    kt = res.kill_time_summary()
    row["kill_time_mean"] = kt["mean"]
    row["kill_time_low"], row["kill_time_high"] = kt["ci95"]
    row["trials"] = int(res.trials)
    row["warnings"] = "; ".join(warnings)
    return row


def _assemble(base, rows, cols, metric, side, combatant, trials, seed, threads, costs, engine,
              round_robin=False) -> Matrix:  # fmt: skip
    import pandas as pd

    check_run_args(trials, seed, threads)
    if len(rows.items) * len(cols.items) > MAX_GRID_POINTS:
        raise FuzionSimError(f"the table has more than {MAX_GRID_POINTS:,} cells")
    base_sc = base.build()
    sides = base_sc.side_names
    names = [c.name for c in base_sc.combatants]
    if metric not in ("win_probability", "p_dead", "kill_time_mean"):
        raise unknown_name("metric", metric, ["win_probability", "p_dead", "kill_time_mean"])
    combatant_side = None
    if metric == "win_probability":
        if combatant is not None:
            raise FuzionSimError("a combatant applies to p_dead, not win_probability")
        side = sides[0] if side is None else side
        if side not in sides:
            raise unknown_name("side", side, sides)
        label = f"P({side} wins)"
        col, lo_col, hi_col = (f"win_probability.{side}", f"win_low.{side}", f"win_high.{side}")
    elif metric == "p_dead":
        if side is not None:
            raise FuzionSimError("a side applies to win_probability, not p_dead")
        if combatant is None:
            raise FuzionSimError(f"p_dead needs a combatant: one of {', '.join(names)}")
        if combatant not in names:
            raise unknown_name("combatant", combatant, names)
        combatant_side = base_sc.combatants[names.index(combatant)].side
        label = f"P({combatant} dead)"
        col, lo_col, hi_col = (f"p_dead.{combatant}", f"p_dead_low.{combatant}",
                               f"p_dead_high.{combatant}")  # fmt: skip
    else:
        label = "mean kill time"
        col, lo_col, hi_col = "kill_time_mean", "kill_time_low", "kill_time_high"
    trials = base_sc.trials if trials is None else int(trials)
    seed = base_sc.seed if seed is None else int(seed)
    costs = _costs(costs, base, (rows, cols))
    start = time.perf_counter()
    base_sc, jobs, results = _run_cells(base, rows, cols, trials, seed, threads, engine)
    elapsed = time.perf_counter() - start
    records, per_trial, warnings = [], {}, {}
    ci = names.index(combatant) if metric == "p_dead" else None
    si = sides.index(side) if metric == "win_probability" else None
    for (r, c, _sc, warns), res in zip(jobs, results, strict=True):
        records.append(_cell_row(base_sc, r, c, res, warns))
        o = res.outcomes
        if si is not None:
            per_trial[(r, c)] = o.winner == si
        elif ci is not None:
            per_trial[(r, c)] = o.death_slot[:, ci] > 0
        else:
            per_trial[(r, c)] = (o.winner >= 0, o.end_slot.astype(float))
        if warns:
            warnings[(r, c)] = warns
    cells = pd.DataFrame(records)
    cells.insert(2, "value", cells[col])
    cells.insert(3, "low", cells[lo_col])
    cells.insert(4, "high", cells[hi_col])
    unit = results[0].time_unit["unit"] if metric == "kill_time_mean" else None
    if unit:
        label = f"mean kill time ({unit}s)"
    return Matrix(
        scenario=base_sc.name, rows=rows, cols=cols, cells=cells, metric=metric, label=label,
        trials=trials, seed=seed, side=side, combatant=combatant, costs=costs,
        row_better=_better(metric, side, combatant_side, _owner(base, rows.key)),
        col_better=_better(metric, side, combatant_side, _owner(base, cols.key)),
        warnings=warnings, elapsed=elapsed, round_robin=round_robin, _per_trial=per_trial,
    )  # fmt: skip


def matrix(
    scenario,
    rows,
    cols,
    metric: str = "win_probability",
    side: str | None = None,
    combatant: str | None = None,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    costs=None,
    backend: str | None = None,
    scheduler: str | None = None,
) -> Matrix:
    """A balance table: every row item against every column item on common random numbers.

    Parameters
    ----------
    scenario : path, Scenario, dict or Base
    rows, cols : str or (str, values)
        ``"KEY=SELECTOR"``: ``"sides.red[0].weapon=@catalog:weapons[category=ranged]"``,
        ``"sides.blue[0].armor.pd=0:20:4"``, ``"rules.dice=hero,interlock"``; or a
        ``(key, [values])`` pair.
    metric : {'win_probability', 'p_dead', 'kill_time_mean'}
        What the table shows and ranks (every cell keeps all three).
    side, combatant : str, optional
        Whose win probability (default: the first side) / whose P(dead).
    trials, seed : int, optional
        Trials a cell and the seed every cell shares (default: the scenario's).
    threads : int, optional
        Cells run at once (default: all cores).
    costs : dict, path or '@catalog', optional
        Item name -> cost (a mapping or a YAML file), or the catalogue's own ``cost`` field:
        a per-100-points column in the ranking, and a dominating item must cost no more.
    backend, scheduler : str, optional
        Engine options.

    Returns
    -------
    Matrix

    Raises
    ------
    FuzionSimError
        A bad selector, key path, value, metric, side or combatant (before any cell runs).
    """
    base = as_base(scenario)
    engine = engine_kwargs(backend, scheduler)
    r_axis, c_axis = parse_axis(base, rows), parse_axis(base, cols)
    if r_axis.key == c_axis.key:
        raise FuzionSimError("rows and columns set the same key path")
    return _assemble(base, r_axis, c_axis, metric, side, combatant, trials, seed, threads, costs,
                     engine)  # fmt: skip


def _member_path(base, side: str) -> str:
    node = base.data["sides"][side]
    return f"sides.{side}.members[0]" if isinstance(node, dict) else f"sides.{side}[0]"


def _templates(templates) -> list[dict]:
    if isinstance(templates, str | os.PathLike):
        from ..scenario import read_yaml

        data, _ = read_yaml(templates)
        source = str(templates)
    else:
        data, source = templates, "templates"
    if isinstance(data, dict):
        data = [{"name": k, **(v or {})} for k, v in data.items()]
    if not isinstance(data, list) or len(data) < 2:
        raise FuzionSimError(f"{source}: a round robin needs a list of at least two members")
    for t in data:
        if not isinstance(t, dict) or not isinstance(t.get("name"), str):
            raise FuzionSimError(f"{source}: every template is a member mapping with a name")
    names = [t["name"] for t in data]
    if len(set(names)) != len(names):
        raise FuzionSimError(f"{source}: two templates share a name")
    return data


def round_robin(
    scenario,
    templates,
    metric: str = "win_probability",
    side: str | None = None,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    costs=None,
    backend: str | None = None,
    scheduler: str | None = None,
) -> Matrix:
    """A matchup matrix: every template against every other, on common random numbers.

    Each template is a member mapping (``name``, stats, weapon, armour, ...) laid over the first
    member of the first side (rows) and of the second side (columns), keeping what it does not
    give (position, tactics). A template against itself gets `` (mirror)`` after its name.

    Parameters
    ----------
    scenario : path, Scenario, dict or Base
        A scenario with at least two sides.
    templates : list of dict, mapping of name to dict, or path
        The members, or a YAML file holding them.
    metric, side, trials, seed, threads, costs, backend, scheduler :
        As :func:`matrix`; the default metric is the first side's (the rows') win probability.

    Returns
    -------
    Matrix
    """
    base = as_base(scenario)
    engine = engine_kwargs(backend, scheduler)
    sides = list(base.data.get("sides") or {}) if isinstance(base.data, dict) else []
    if len(sides) < 2:
        raise FuzionSimError("a round robin needs a scenario with two sides")
    temps = _templates(templates)
    p_row, p_col = _member_path(base, sides[0]), _member_path(base, sides[1])
    rows = Axis(p_row, [(t["name"], [(f"{p_row}.{k}", v) for k, v in t.items()]) for t in temps])
    cols = Axis(p_col, [(t["name"], [(f"{p_col}.{k}", v) for k, v in t.items()]) for t in temps])
    return _assemble(
        _MirrorBase(base, f"{p_row}.name", f"{p_col}.name"),
        rows,
        cols,
        metric,
        side,
        None,
        trials,
        seed,
        threads,
        costs,
        engine,
        round_robin=True,
    )


class _MirrorBase:
    """A :class:`~.variants.Base` whose cells rename the column member on the diagonal."""

    def __init__(self, base, row_name: str, col_name: str):
        self._base, self._row_name, self._col_name = base, row_name, col_name
        self.data, self.source = base.data, base.source

    def build(self, overrides=()):
        overrides = list(overrides)
        given = dict(overrides)
        if self._row_name in given and given.get(self._row_name) == given.get(self._col_name):
            overrides = [(k, f"{v} (mirror)" if k == self._col_name else v)
                         for k, v in overrides]  # fmt: skip
        return self._base.build(overrides)
