"""Which parameter matters: local stat weights and global Sobol indices, with intervals.

Two studies of how a metric of the fight (a side's win probability, a combatant's P(dead), the
mean kill time) responds to several numeric parameters of a scenario, each given a range
``LO:HI``:

- **local** (stat weights): the change in the metric per unit of each parameter at the
  scenario's own values, by a central finite difference ``(m(x + h) - m(x - h)) / 2h`` (a
  one-sided one at the edge of the range). Both runs share the seed and the trial count
  (common random numbers), so the difference is estimated from per-trial paired differences
  with a 95% interval; a parameter that cannot change the fight gives identical trials, hence
  a weight of exactly zero with the interval [0, 0]. The tornado chart shows each weight times
  its range (the linearised swing over ``LO:HI``).
- **sobol** (global): first-order and total Sobol indices over the box of ranges (each
  parameter uniform on its range; whole numbers for integer parameters), from
  :func:`scipy.stats.sobol_indices` (Saltelli 2010 estimators, ``n (d + 2)`` evaluations) with
  bootstrap intervals. Every evaluation runs with the same seed, so the simulated metric is a
  deterministic function of the parameters and a parameter that cannot change the fight has
  indices of exactly zero.

Evaluations run as one batch on a pool of threads (one run a thread), each distinct point once.
"""

from __future__ import annotations

import inspect
import math
import re
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..errors import FuzionSimError, Interrupted
from ..scenario import get_path, parse_value
from ..scenario.variants import as_base
from . import simulation
from .intervals import z_value
from .metrics import metric as resolve_metric
from .simulation import check_run_args, engine_kwargs

__all__ = ["Parameter", "Sensitivity", "parse_vary", "sensitivity"]

#: Defaults of a Sobol study: base samples (a power of 2), trials an evaluation, resamples.
SOBOL_N = 64
SOBOL_TRIALS = 2000
N_RESAMPLES = 999
_RANGE = re.compile(r"^\s*([^=]+?)\s*=\s*([^:]+):([^:]+?)(?::([^:]+))?\s*$")


@dataclass(frozen=True)
class Parameter:
    """A numeric key path, its range, its value in the scenario and its finite-difference step."""

    key: str
    low: float
    high: float
    base: float
    step: float
    integer: bool

    @property
    def short(self) -> str:
        """The key path's last part (``REF``, ``pd``)."""
        return self.key.rsplit(".", 1)[-1]


def parse_vary(base, item) -> Parameter:
    """A parameter from ``"KEY=LO:HI"`` (or ``"KEY=LO:HI:STEP"``) text or a ``(key, lo, hi)``
    tuple.

    Raises
    ------
    FuzionSimError
        Malformed text, a bound that is not a number, an empty range, or a key whose value in
        the scenario is not a number.
    """
    step = None
    if isinstance(item, str):
        m = _RANGE.match(item)
        if not m:
            raise FuzionSimError(f"expected KEY=LO:HI (or KEY=LO:HI:STEP), got '{item}'")
        key, lo, hi, step = m.group(1), parse_value(m.group(2)), parse_value(m.group(3)), m.group(4)
        step = None if step is None else parse_value(step)
    elif isinstance(item, list | tuple) and len(item) in (3, 4) and isinstance(item[0], str):
        key, lo, hi = item[:3]
        step = item[3] if len(item) == 4 else None
    else:
        raise FuzionSimError(f"a parameter is 'KEY=LO:HI' text or (key, lo, hi): {item!r}")
    for name, v in (("LO", lo), ("HI", hi), ("STEP", step)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)):
            raise FuzionSimError(f"{key}: {name} must be a number, got {v!r}")
    if not lo < hi:
        raise FuzionSimError(f"{key}: empty range {lo}:{hi}")
    current = get_path(base.data, key)
    if isinstance(current, bool) or not isinstance(current, int | float):
        raise FuzionSimError(f"{key} is {current!r} in the scenario, not a number")
    integer = all(isinstance(v, int) for v in (lo, hi, current)) and not isinstance(step, float)
    if step is None:
        step = 1 if integer else (hi - lo) / 10
    if not step > 0:
        raise FuzionSimError(f"{key}: the step must be above 0")
    return Parameter(key, lo, hi, current, step, integer)


def _value(p: Parameter, x):
    return round(float(x)) if p.integer else float(x)


def _per_trial(m, result):
    """The metric's per-trial values (for paired differences)."""
    o = result.outcomes
    if m.name == "win_probability":
        return o.winner == result.sides.index(m.side)
    if m.name == "p_dead":
        return o.death_slot[:, result.combatant_index(m.combatant)] > 0
    return (o.winner >= 0, o.end_slot.astype(float))


def _paired(m, a, b) -> tuple[float, float]:
    """Difference b minus a and its 95% half-width, from per-trial pairs."""
    if m.name == "kill_time_mean":
        (da, ta), (db, tb) = a, b
        if not da.any() or not db.any():
            raise FuzionSimError("no decisive fight at a point: the mean kill time is undefined")
        ma, mb = ta[da].mean(), tb[db].mean()
        ia = np.where(da, ta - ma, 0.0) / da.mean()
        ib = np.where(db, tb - mb, 0.0) / db.mean()
        return float(mb - ma), float(z_value() * (ib - ia).std(ddof=1) / math.sqrt(da.size))
    d = np.asarray(b, float) - np.asarray(a, float)
    return float(d.mean()), float(z_value() * d.std(ddof=1) / math.sqrt(d.size))


@dataclass
class Sensitivity:
    """The answer of :func:`sensitivity`.

    Attributes
    ----------
    scenario : str
    method : {'local', 'sobol'}
    metric, label : str
        The metric and how it reads (``P(red wins)``).
    params : list of Parameter
    rows : list of dict
        Per parameter: local ``weight`` (per unit) with ``weight_low`` / ``weight_high``,
        ``swing`` (weight x range) with its interval, the two values run (``at_low``,
        ``at_high``) and the metric there; Sobol ``first_order`` and ``total`` with their
        ``_low`` / ``_high`` bootstrap bounds.
    trials, seed : int
        Trials an evaluation and the seed they share.
    evaluations : int
        Distinct points run.
    """

    scenario: str
    method: str
    metric: str
    label: str
    params: list
    rows: list
    trials: int
    seed: int
    evaluations: int
    n: int | None = None
    elapsed: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def is_probability(self) -> bool:
        return self.metric != "kill_time_mean"

    @property
    def bar_column(self) -> str:
        """The column the tornado chart sorts by."""
        return "swing" if self.method == "local" else "total"

    def title(self) -> str:
        """A line naming the study."""
        if self.method == "local":
            return (f"stat weights of {self.label} ({self.trials:,} trials a run, common random "
                    "numbers)")  # fmt: skip
        return (f"Sobol indices of {self.label} ({self.evaluations:,} points of {self.trials:,} "
                f"trials, n = {self.n})")  # fmt: skip

    def to_frame(self):
        """One row per parameter (what ``sensitivity.csv`` holds).

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd

        return pd.DataFrame(self.rows)

    def _num(self, x, signed=True) -> str:
        if self.is_probability:
            return f"{100 * x:+.2f} pt" if signed else f"{100 * x:.2f} pt"
        return f"{x:+.3f}" if signed else f"{x:.3f}"

    def sentences(self) -> list[str]:
        """The answer per parameter in plain words, strongest first."""
        key = self.bar_column
        rows = sorted(self.rows, key=lambda r: -abs(r[key]))
        out = []
        for r in rows:
            if self.method == "local":
                zero = r["weight_low"] <= 0 <= r["weight_high"]
                out.append(
                    f"{r['param']}: {self._num(r['weight'])} of {self.label} per unit "
                    f"({self._num(r['weight_low'])} to {self._num(r['weight_high'])})"
                    + ("; no measurable effect" if zero else "")
                )
            else:
                out.append(
                    f"{r['param']}: {100 * r['first_order']:.0f}% of the variance of "
                    f"{self.label} alone ({100 * r['first_order_low']:.0f} to "
                    f"{100 * r['first_order_high']:.0f}%), {100 * r['total']:.0f}% with its "
                    f"interactions ({100 * r['total_low']:.0f} to {100 * r['total_high']:.0f}%)"
                )
        return out

    def to_json_dict(self) -> dict:
        """What ``fuzion-sim sensitivity --json`` prints."""
        return {
            "scenario": self.scenario, "method": self.method, "metric": self.metric,
            "label": self.label, "trials": self.trials, "seed": self.seed, "n": self.n,
            "evaluations": self.evaluations, "elapsed": self.elapsed,
            "params": [{"key": p.key, "low": p.low, "high": p.high, "base": p.base,
                        "step": p.step} for p in self.params],
            "rows": self.rows, "sentences": self.sentences(), **self.extra,
        }  # fmt: skip

    def plot(self, path=None):
        """The tornado chart (see :func:`fuzion_sim.report.studies.tornado_figure`)."""
        from ..report.studies import tornado_figure

        return tornado_figure(self, path)

    def to_markdown(self) -> str:
        """A report section (Markdown)."""
        from ..report.studies import sensitivity_markdown

        return sensitivity_markdown(self)

    def __repr__(self) -> str:
        return "\n".join([f"Sensitivity: {self.title()}", *self.sentences()])

    def _repr_html_(self) -> str:
        from ..report.studies import sensitivity_html

        return sensitivity_html(self)


class _Runner:
    """Runs points (tuples of parameter values) once each, on a thread pool."""

    def __init__(self, base, params, m, trials, seed, threads, engine, keep):
        from ..engine.runner import default_threads

        self.base, self.params, self.m = base, params, m
        self.trials, self.seed, self.engine, self.keep = trials, seed, engine, keep
        self.workers = max(1, int(threads or default_threads()))
        self.cache: dict = {}
        self.done = 0

    def run(self, points) -> list:
        todo = list(dict.fromkeys(p for p in points if p not in self.cache))
        scenarios = [self.base.build(list(zip([q.key for q in self.params], p, strict=True)))
                     for p in todo]  # fmt: skip

        def one(sc):
            return simulation.simulate(sc, trials=self.trials, seed=self.seed, threads=1,
                                       keep_trials=self.keep, progress=False,
                                       **self.engine)  # fmt: skip

        pool = ThreadPoolExecutor(max_workers=min(self.workers, max(1, len(todo))))
        futures = [pool.submit(one, sc) for sc in scenarios]
        try:
            for p, f in zip(todo, futures, strict=True):
                res = f.result()
                self.done += res.trials
                self.cache[p] = res
        except (KeyboardInterrupt, Interrupted):
            pool.shutdown(wait=False, cancel_futures=True)
            raise Interrupted(self.done) from None
        finally:
            pool.shutdown(wait=True)
        return [self.cache[p] for p in points]


def _local(runner, params, m):
    base_point = tuple(p.base for p in params)
    points, pairs = [], []
    for i, p in enumerate(params):
        lo = max(p.low, p.base - p.step)
        hi = min(p.high, p.base + p.step)
        if not lo < hi:
            lo, hi = p.base, min(p.high, p.base + p.step)
        a = tuple(_value(p, lo) if j == i else v for j, v in enumerate(base_point))
        b = tuple(_value(p, hi) if j == i else v for j, v in enumerate(base_point))
        pairs.append((a, b, _value(p, lo), _value(p, hi)))
        points += [a, b]
    runner.run(points)
    rows = []
    for p, (a, b, x_lo, x_hi) in zip(params, pairs, strict=True):
        ra, rb = runner.cache[a], runner.cache[b]
        diff, half = _paired(m, _per_trial(m, ra), _per_trial(m, rb))
        span = x_hi - x_lo
        w, w_half = diff / span, half / span
        width = p.high - p.low
        rows.append({
            "param": p.key, "low": p.low, "high": p.high, "base": p.base, "at_low": x_lo,
            "at_high": x_hi, "metric_at_low": m.estimate(ra)[0],
            "metric_at_high": m.estimate(rb)[0], "weight": w, "weight_low": w - w_half,
            "weight_high": w + w_half, "swing": w * width, "swing_low": (w - w_half) * width,
            "swing_high": (w + w_half) * width,
        })  # fmt: skip
    return rows


def _sobol(runner, params, m, n, seed, n_resamples, confidence):
    from scipy import stats

    dists = [stats.uniform(p.low, p.high - p.low + (1 if p.integer else 0)) for p in params]

    def point(col):
        return tuple(
            _value(p, min(math.floor(x), p.high) if p.integer else x)
            for p, x in zip(params, col, strict=True)
        )

    def func(x):
        x = np.atleast_2d(x)
        points = [point(x[:, k]) for k in range(x.shape[1])]
        values = [m.estimate(r)[0] for r in runner.run(points)]
        if any(v is None for v in values):
            raise FuzionSimError(f"{m.label} is undefined at a point (no decisive fight)")
        return np.asarray(values, dtype=float)[None, :]

    kw = {"rng" if "rng" in inspect.signature(stats.sobol_indices).parameters
          else "random_state": np.random.default_rng(seed)}  # fmt: skip
    res = stats.sobol_indices(func=func, n=n, dists=dists, **kw)
    first, total = np.atleast_2d(res.first_order)[0], np.atleast_2d(res.total_order)[0]
    if np.all(first == 0) and np.all(total == 0):
        raise FuzionSimError(f"{m.label} does not change over the ranges: no index to compute")
    with warnings.catch_warnings():
        # a parameter with no effect has a degenerate bootstrap (every replicate 0): its
        # interval is its point estimate, set below
        warnings.simplefilter("ignore")
        boot = res.bootstrap(confidence_level=confidence, n_resamples=n_resamples)
    f_ci, t_ci = boot.first_order.confidence_interval, boot.total_order.confidence_interval

    def bound(ci, which, i):
        v = np.atleast_2d(getattr(ci, which))[0][i]
        point = (first if ci is f_ci else total)[i]
        return float(v) if np.isfinite(v) else float(point)

    rows = []
    for i, p in enumerate(params):
        rows.append({
            "param": p.key, "low": p.low, "high": p.high,
            "first_order": float(first[i]), "first_order_low": bound(f_ci, "low", i),
            "first_order_high": bound(f_ci, "high", i), "total": float(total[i]),
            "total_low": bound(t_ci, "low", i), "total_high": bound(t_ci, "high", i),
        })  # fmt: skip
    return rows


def sensitivity(
    scenario,
    vary,
    method: str = "sobol",
    metric: str = "win_probability",
    side: str | None = None,
    combatant: str | None = None,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    n: int = SOBOL_N,
    n_resamples: int = N_RESAMPLES,
    confidence: float = 0.95,
    backend: str | None = None,
    scheduler: str | None = None,
) -> Sensitivity:
    """How much each parameter moves a metric of the fight: stat weights or Sobol indices.

    Parameters
    ----------
    scenario : path, Scenario, dict or Base
    vary : list of str or (key, lo, hi)
        ``["sides.red[0].stats.REF=3:10", "sides.blue[0].armor.pd=4:12"]`` (a third number,
        ``LO:HI:STEP``, sets the local study's finite-difference step; default 1 for whole
        numbers, a tenth of the range otherwise).
    method : {'sobol', 'local'}
        Global Sobol indices over the ranges, or local stat weights at the scenario's values.
    metric : {'win_probability', 'p_dead', 'kill_time_mean'}
    side, combatant : str, optional
        Whose win probability (default: the first side) / whose P(dead).
    trials : int, optional
        Trials a run (default: the scenario's for ``local``, min(scenario's, 2,000) for
        ``sobol``).
    seed : int, optional
        The seed every run shares (default: the scenario's).
    threads : int, optional
        Runs at once (default: all cores).
    n : int
        Sobol base samples, a power of 2 (``n * (d + 2)`` evaluations).
    n_resamples, confidence :
        Bootstrap of the Sobol intervals.
    backend, scheduler : str, optional
        Engine options.

    Returns
    -------
    Sensitivity

    Raises
    ------
    FuzionSimError
        A bad parameter text, range, method or metric; ``n`` not a power of 2.
    """
    from ..limits import check_int, check_number

    check_run_args(trials, seed, threads)
    if method not in ("sobol", "local"):
        from ..errors import unknown_name

        raise unknown_name("method", method, ["sobol", "local"])
    if metric not in ("win_probability", "p_dead", "kill_time_mean"):
        from ..errors import unknown_name

        raise unknown_name("metric", metric, ["win_probability", "p_dead", "kill_time_mean"])
    n = check_int("n", n, 2, 1 << 14)
    if n & (n - 1):
        raise FuzionSimError(f"n must be a power of 2 (Sobol sampling), got {n}")
    n_resamples = check_int("n_resamples", n_resamples, 10, 100_000)
    confidence = check_number("confidence", confidence, 0.5, 0.999)
    base = as_base(scenario)
    engine = engine_kwargs(backend, scheduler)
    items = [vary] if isinstance(vary, str) else list(vary or [])
    if not items:
        raise FuzionSimError("give at least one --vary KEY=LO:HI")
    params = [parse_vary(base, v) for v in items]
    keys = [p.key for p in params]
    if len(set(keys)) != len(keys):
        raise FuzionSimError("the same key path is given twice")
    sc0 = base.build()
    m = resolve_metric(metric, sc0.side_names, [c.name for c in sc0.combatants], side=side,
                       combatant=combatant)  # fmt: skip
    if trials is None:
        trials = sc0.trials if method == "local" else min(sc0.trials, SOBOL_TRIALS)
    seed = sc0.seed if seed is None else int(seed)
    runner = _Runner(base, params, m, int(trials), seed, threads, engine, keep=method == "local")
    start = time.perf_counter()
    if method == "local":
        rows = _local(runner, params, m)
    else:
        rows = _sobol(runner, params, m, n, seed, n_resamples, confidence)
    elapsed = time.perf_counter() - start
    label = m.label
    if metric == "kill_time_mean":
        unit = next(iter(runner.cache.values())).time_unit["unit"]
        label = f"mean kill time ({unit}s)"
    return Sensitivity(
        scenario=sc0.name, method=method, metric=metric, label=label, params=params, rows=rows,
        trials=int(trials), seed=seed, evaluations=len(runner.cache),
        n=n if method == "sobol" else None, elapsed=elapsed,
    )  # fmt: skip
