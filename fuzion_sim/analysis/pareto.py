"""Many levers, several goals: the trade-offs (a Pareto front) of a multi-parameter balance.

A designer pulls several numeric levers at once (``--param KEY=LO:HI``) and wants several
things of the fight at once, each a *goal* on a metric:

- a target: ``win_probability[red]=0.5``;
- a band: ``kill_time_mean=4:6`` (4 to 6 phases), ``win_probability[red]=45%:55%``;
- a bound: ``p_dead[Marshal]<=5%``, ``win_probability[blue]>=0.4``.

Each goal's *shortfall* at a point is how far the estimate lies from the target or outside the
band (0 inside). The search evaluates candidate points on common random numbers (the same seed
and trial count everywhere, so points differ by the levers, not by the noise): every point of
the box when it has at most ``budget`` points, else a scrambled Sobol sample of ``budget``
points (whole numbers for integer levers). The answer is the Pareto front of the shortfalls
(no other point is at least as close on every goal and closer on one), each point with its
estimates and 95% intervals. Every finalist on the front (the closest ``finalists`` by total
shortfall) is then run again on a fresh seed, so the answer is not tuned to one random stream:
``holds`` says whether every goal is still met there (a band or a bound holds the fresh
estimate; a target lies within the fresh 95% interval).

Why not a general optimiser such as Optuna's multi-objective samplers: it is not a dependency of
the project, and the levers of a tabletop fight are a few small integer ranges, so a full grid
(or a space-filling sample) run as one batch on common random numbers is exhaustive or close to
it, deterministic for a seed, and needs no tuning of the search itself.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import FuzionSimError, unknown_name
from ..scenario.variants import as_base
from .metrics import metric as resolve_metric
from .sensitivity import _Runner, _value, parse_vary
from .simulation import check_run_args, engine_kwargs

__all__ = ["Goal", "ParetoResult", "pareto", "parse_goal", "pareto_front"]

DEFAULT_BUDGET = 256
DEFAULT_FINALISTS = 10
_GOAL = re.compile(
    r"^\s*([a-z_0-9]+)\s*(?:\[\s*([^\]]+?)\s*\])?\s*(<=|>=|=)\s*([^:]+?)\s*(?::\s*(.+?))?\s*$"
)
_METRICS = ("win_probability", "p_dead", "p_out", "kill_time_mean")


def _number(text: str, probability: bool) -> float:
    t = text.strip()
    pct = t.endswith("%")
    try:
        x = float(t[:-1] if pct else t)
    except ValueError:
        raise FuzionSimError(f"'{text}' is not a number") from None
    if pct:
        x /= 100
    if probability and not 0 <= x <= 1:
        raise FuzionSimError(f"'{text}' is not a probability (0 to 1, or 0% to 100%)")
    return x


@dataclass(frozen=True)
class Goal:
    """One goal: a metric and a target, a band or a bound.

    Attributes
    ----------
    metric : Metric
        What is measured (:mod:`.metrics`).
    kind : {'target', 'band', 'at_most', 'at_least'}
    low, high : float
        The target (both equal), the band, or the bound (the other side infinite).
    text : str
        The goal as written.
    """

    metric: object
    kind: str
    low: float
    high: float
    text: str

    def shortfall(self, estimate) -> float:
        """How far ``estimate`` is from the goal (0 when met; inf when undefined)."""
        if estimate is None or not np.isfinite(estimate):
            return math.inf
        return float(max(self.low - estimate, 0.0, estimate - self.high))

    def holds(self, estimate, low, high) -> bool:
        """Whether a run meets the goal: a band or a bound holds the estimate; a target lies
        within the estimate's interval (an estimate is never exactly on a target)."""
        if self.kind == "target":
            return low is not None and high is not None and low <= self.low <= high
        return self.shortfall(estimate) == 0

    def shortfall_interval(self, low, high) -> tuple[float, float]:
        """The least and the most shortfall over an interval of the estimate."""
        if low is None or high is None:
            return (math.inf, math.inf)
        least = 0.0 if low <= self.high and high >= self.low else min(
            self.shortfall(low), self.shortfall(high))  # fmt: skip
        return (least, max(self.shortfall(low), self.shortfall(high)))


def parse_goal(text, sides, combatants) -> Goal:
    """A goal from text: ``METRIC[WHO]=TARGET``, ``METRIC[WHO]=LO:HI``, ``METRIC[WHO]<=X``.

    Parameters
    ----------
    text : str
        E.g. ``"win_probability[red]=45%:55%"``, ``"p_dead[Marshal]<=0.05"``,
        ``"kill_time_mean=4:6"``; WHO is a side for ``win_probability`` (default the first), a
        combatant for ``p_dead`` / ``p_out``.
    sides, combatants : list of str
        The scenario's, for the names' checks.

    Returns
    -------
    Goal

    Raises
    ------
    FuzionSimError
        Malformed text, an unknown metric, side or combatant, a bad number or an empty band.
    """
    if isinstance(text, Goal):
        return text
    m = _GOAL.match(str(text))
    if not m:
        raise FuzionSimError(
            f"a goal is METRIC[WHO]=TARGET, METRIC[WHO]=LO:HI, METRIC[WHO]<=X or >=X, got '{text}'"
        )
    name, who, op, a, b = m.groups()
    if name not in _METRICS:
        raise unknown_name("goal metric", name, _METRICS)
    side = who if name == "win_probability" else None
    combatant = who if name in ("p_dead", "p_out") else None
    if who is not None and name == "kill_time_mean":
        raise FuzionSimError(f"'{text}': the mean kill time takes no side or combatant")
    metric = resolve_metric(name, sides, combatants, side=side, combatant=combatant)
    prob = metric.is_probability
    x = _number(a, prob)
    if op == "=" and b is None:
        return Goal(metric, "target", x, x, str(text))
    if op == "=":
        y = _number(b, prob)
        if not x <= y:
            raise FuzionSimError(f"'{text}': an empty band")
        return Goal(metric, "band", x, y, str(text))
    if b is not None:
        raise FuzionSimError(f"'{text}': a bound takes one number")
    if op == "<=":
        return Goal(metric, "at_most", -math.inf, x, str(text))
    return Goal(metric, "at_least", x, math.inf, str(text))


def pareto_front(costs) -> np.ndarray:
    """Which rows of ``costs`` (points by goals, smaller is better) no other row dominates.

    Returns
    -------
    numpy.ndarray of bool
    """
    c = np.asarray(costs, dtype=float)
    front = np.ones(len(c), dtype=bool)
    for i in range(len(c)):
        others = np.delete(c, i, axis=0)
        dominated = np.all(others <= c[i], axis=1) & np.any(others < c[i], axis=1)
        front[i] = not dominated.any()
    return front


def _candidates(params, budget: int, seed: int) -> tuple[list[tuple], bool]:
    """The points to run, and whether they are the whole box."""
    sizes = [int(p.high - p.low) + 1 if p.integer else math.inf for p in params]
    if math.prod(sizes) <= budget:
        import itertools

        axes = [range(int(p.low), int(p.high) + 1) for p in params]
        return [tuple(v) for v in itertools.product(*axes)], True
    from scipy.stats import qmc

    m = max(1, math.ceil(math.log2(budget)))
    sample = qmc.Sobol(d=len(params), scramble=True, seed=seed).random_base2(m)[:budget]
    points = []
    for row in sample:
        point = []
        for p, u in zip(params, row, strict=True):
            if p.integer:
                point.append(min(int(p.low + math.floor(u * (p.high - p.low + 1))), int(p.high)))
            else:
                point.append(_value(p, p.low + u * (p.high - p.low)))
        points.append(tuple(point))
    return list(dict.fromkeys(points)), False


@dataclass
class ParetoResult:
    """The answer of :func:`pareto`.

    Attributes
    ----------
    scenario : str
    params : list of Parameter
    goals : list of Goal
    points : pandas.DataFrame
        Every point run: the lever values, per goal ``<goal>`` (the estimate), ``<goal>.low``,
        ``<goal>.high`` and ``<goal>.shortfall``, ``total_shortfall``, ``on_front``.
    front : pandas.DataFrame
        The Pareto front, closest (by total shortfall) first.
    rechecked : pandas.DataFrame
        The finalists run again on ``recheck_seed``: estimates, intervals and ``holds``.
    """

    scenario: str
    params: list
    goals: list
    points: object
    front: object
    rechecked: object
    trials: int
    seed: int
    recheck_seed: int
    searched: str
    elapsed: float = 0.0
    extra: dict = field(default_factory=dict)

    def sentences(self) -> list[str]:
        """The finalists in words: the levers, each goal's estimate, and whether it held."""
        out = []
        for _, row in self.rechecked.iterrows():
            levers = ", ".join(f"{p.key.removeprefix('sides.')}={row[p.key]:g}"
                               for p in self.params)  # fmt: skip
            parts = []
            for g in self.goals:
                est, lo, hi = row[g.text], row[f"{g.text}.low"], row[f"{g.text}.high"]
                parts.append(f"{g.metric.label} {_fmt(g, est)} ({_fmt(g, lo)}-{_fmt(g, hi)})")
            verdict = (
                "meets every goal on a fresh seed"
                if row["holds"]
                else ("misses a goal on a fresh seed")
            )
            out.append(f"{levers}: {'; '.join(parts)}: {verdict}")
        return out

    def to_json_dict(self) -> dict:
        """What ``fuzion-sim pareto --json`` prints."""

        def records(frame):
            return frame.replace({np.nan: None, np.inf: None}).to_dict(orient="records")

        return {
            "scenario": self.scenario, "params": [p.key for p in self.params],
            "goals": [g.text for g in self.goals], "trials": self.trials, "seed": self.seed,
            "recheck_seed": self.recheck_seed, "searched": self.searched,
            "front": records(self.front), "rechecked": records(self.rechecked),
            "points": len(self.points), "sentences": self.sentences(), "elapsed": self.elapsed,
        }  # fmt: skip

    def plot(self, path=None):
        """The shortfalls of every point, the front marked (the first two goals)."""
        from ..report.studies import pareto_figure

        return pareto_figure(self, path)

    def to_markdown(self) -> str:
        from ..report.studies import pareto_markdown

        return pareto_markdown(self)

    def __repr__(self) -> str:
        return "\n".join([f"ParetoResult({len(self.front)} on the front of {len(self.points)})",
                          *self.sentences()])  # fmt: skip

    def _repr_html_(self) -> str:
        from ..report.studies import pareto_html

        return pareto_html(self)


def _fmt(goal, x) -> str:
    if x is None or not np.isfinite(x):
        return "-"
    return f"{100 * x:.1f}%" if goal.metric.is_probability else f"{x:.2f}"


def _rows(params, goals, points, results) -> list[dict]:
    rows = []
    for point, res in zip(points, results, strict=True):
        row = dict(zip([p.key for p in params], point, strict=True))
        total = 0.0
        for g in goals:
            est, (lo, hi) = g.metric.estimate(res)
            row[g.text], row[f"{g.text}.low"], row[f"{g.text}.high"] = est, lo, hi
            row[f"{g.text}.shortfall"] = g.shortfall(est)
            total += row[f"{g.text}.shortfall"]
        row["total_shortfall"] = total
        rows.append(row)
    return rows


def pareto(
    scenario,
    params,
    goals,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    budget: int = DEFAULT_BUDGET,
    finalists: int = DEFAULT_FINALISTS,
    recheck_trials: int | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
) -> ParetoResult:
    """Search several levers for the trade-offs between several goals, re-checked on a fresh seed.

    Parameters
    ----------
    scenario : path, Scenario, dict or Base
    params : list of str or (key, lo, hi)
        The levers, ``"sides.red[0].armor.pd=4:12"`` (numbers in the scenario).
    goals : list of str or Goal
        See :func:`parse_goal`.
    trials, seed : int, optional
        Trials a point and the seed every point shares (default: the scenario's trials, at
        most 5,000; the scenario's seed).
    threads : int, optional
        Points run at once (default: all cores).
    budget : int
        Most points run in the search (a full grid when the box is no larger).
    finalists : int
        Front points re-run on a fresh seed.
    recheck_trials : int, optional
        Trials of a re-check (default: ``trials``).
    backend, scheduler : str, optional
        Engine options.

    Returns
    -------
    ParetoResult

    Raises
    ------
    FuzionSimError
        A bad lever, goal, budget or finalist count.
    """
    import pandas as pd

    from ..limits import check_int

    check_run_args(trials, seed, threads)
    budget = check_int("budget", budget, 2, 100_000)
    finalists = check_int("finalists", finalists, 1, 1000)
    if recheck_trials is not None:
        check_run_args(recheck_trials)
    base = as_base(scenario)
    engine = engine_kwargs(backend, scheduler)
    items = [params] if isinstance(params, str) else list(params or [])
    if not items:
        raise FuzionSimError("give at least one --param KEY=LO:HI")
    levers = [parse_vary(base, p) for p in items]
    if len({p.key for p in levers}) != len(levers):
        raise FuzionSimError("the same key path is given twice")
    sc0 = base.build()
    names = [c.name for c in sc0.combatants]
    goal_items = [goals] if isinstance(goals, str) else list(goals or [])
    if not goal_items:
        raise FuzionSimError("give at least one --goal, e.g. win_probability[red]=45%:55%")
    targets = [parse_goal(g, sc0.side_names, names) for g in goal_items]
    trials = min(sc0.trials, 5000) if trials is None else int(trials)
    seed = sc0.seed if seed is None else int(seed)
    start = time.perf_counter()
    points, whole = _candidates(levers, budget, seed)
    searched = "every point of the box" if whole else f"a Sobol sample of {len(points)} points"
    runner = _Runner(base, levers, None, trials, seed, threads, engine, keep=False)
    table = pd.DataFrame(_rows(levers, targets, points, runner.run(points)))
    costs = table[[f"{g.text}.shortfall" for g in targets]].to_numpy(float)
    table["on_front"] = pareto_front(costs)
    front = table[table["on_front"]].sort_values("total_shortfall", kind="stable")
    front = front.reset_index(drop=True)
    from .sequential import _batch_seed

    fresh = _batch_seed(seed, 1)
    rerun = _Runner(base, levers, None, recheck_trials or trials, fresh, threads, engine,
                    keep=False)  # fmt: skip
    chosen = [tuple(row[p.key] for p in levers) for _, row in front.head(finalists).iterrows()]
    chosen = [tuple(_value(p, v) for p, v in zip(levers, pt, strict=True)) for pt in chosen]
    rechecked = pd.DataFrame(_rows(levers, targets, chosen, rerun.run(chosen)))
    rechecked["holds"] = [all(g.holds(row[g.text], row[f"{g.text}.low"], row[f"{g.text}.high"])
                              for g in targets) for _, row in rechecked.iterrows()]  # fmt: skip
    return ParetoResult(
        scenario=sc0.name, params=levers, goals=targets, points=table, front=front,
        rechecked=rechecked, trials=trials, seed=seed, recheck_seed=fresh, searched=searched,
        elapsed=time.perf_counter() - start,
    )  # fmt: skip
