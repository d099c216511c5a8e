"""Balance search: the parameter value that brings a metric of the fight to a target.

The metric is a side's win probability (the default), a combatant's P(out) or P(dead), the
mean kill time or a kill-time quantile (:mod:`.metrics`). Every evaluation uses the same seed
and trial count (common random numbers), so the estimate moves smoothly with the parameter and
bisection is stable. The search bisects on "has the metric crossed the target, coming from the
range's low end", so for an integer parameter it ends on two neighbouring values, one short of
the target and one that reaches it: the bracketing pair. ``value`` is the evaluated value whose
estimate is closest to the target; ``meets`` the smallest value that reaches it (assuming the
metric moves one way over the range).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from .. import fmt
from .._args import check_engine, check_scenario, check_text, checked
from ..errors import FuzionSimError, Interrupted
from ..limits import check_number
from ..scenario import get_path
from ..scenario.variants import as_base
from . import simulation
from .metrics import Metric
from .metrics import metric as resolve_metric
from .simulation import check_run_args, engine_kwargs

__all__ = ["BalanceResult", "balance", "default_range"]


@dataclass
class BalanceResult:
    """The answer of a balance search.

    Attributes
    ----------
    param : str
        The key path searched.
    metric : str
        The metric's name (``"win_probability"``, ``"p_dead"``, ...).
    target : float
        The target (a probability, or a time in ``unit``).
    value : int or float
        The evaluated value whose estimate is closest to the target.
    estimate : float
        The metric at ``value``, with ``ci95`` its 95% interval.
    bracketed : bool
        False when the target lies outside the estimates at the range's ends (the closer end
        is reported).
    side, combatant, unit : str or None
        Whose win probability, whose P(out) / P(dead), the kill time's unit.
    label : str
        The metric as a headline reads it (``"P(red wins)"``).
    bracket : list of dict or None
        The last two values of the bisection, ``[{"value", "estimate", "ci95"}, ...]`` in
        parameter order: the first short of the target, the second reaching it (neighbours for
        an integer parameter); None when the low end already meets it or nothing brackets it.
    meets : dict or None
        The smallest value found that reaches the target (``{"value", "estimate", "ci95"}``).
    steps : list of (value, estimate)
        Every evaluation, in order.
    """

    param: str
    metric: str
    target: float
    value: float
    estimate: float
    ci95: tuple
    trials: int
    seed: int
    bracketed: bool
    low: float
    high: float
    side: str | None = None
    combatant: str | None = None
    unit: str | None = None
    label: str = ""
    bracket: list | None = None
    meets: dict | None = None
    steps: list = field(default_factory=list)
    result: object = field(default=None, repr=False)

    @property
    def win_probability(self) -> float | None:
        """The estimate when the metric is the win probability (else None)."""
        return self.estimate if self.metric == "win_probability" else None

    def format_estimate(self, estimate, ci95=None) -> str:
        """An estimate as the tables print it: ``"85.6% (85.2-86.0%)"``, ``"4.20 phases"``.

        Parameters
        ----------
        estimate : float or None
        ci95 : (float, float), optional
            Its interval, appended when given.

        Returns
        -------
        str
        """
        if self.metric in ("win_probability", "p_out", "p_dead"):
            return fmt.pct_interval(estimate, *ci95) if ci95 else fmt.pct(estimate)
        unit = f" {fmt.plural(self.unit or '')}" if self.unit else ""
        if ci95:
            return f"{fmt.num_interval(estimate, *ci95)}{unit}"
        return f"{fmt.num(estimate)}{unit}"

    def headline(self, markup: bool = False) -> list[str]:
        """The answer in a few lines: the value, the bracketing pair, the smallest value that
        reaches the target.

        Parameters
        ----------
        markup : bool
            Bold the values with rich markup (what the terminal prints).

        Returns
        -------
        list of str
        """
        b0, b1 = ("[bold]", "[/bold]") if markup else ("", "")
        target = self.format_estimate(self.target)
        lines = [
            f"{b0}{self.param} = {self.value:g}{b1} gives {self.label} = "
            f"{self.format_estimate(self.estimate, self.ci95)}, closest to the target "
            f"{target} ({self.trials:,} trials per step, seed {self.seed})"
        ]
        if self.bracket:
            below, above = self.bracket
            lines.append(
                f"The target lies between {self.param} = {below['value']:g}, at "
                f"{self.format_estimate(below['estimate'], below['ci95'])}, and "
                f"{above['value']:g}, at {self.format_estimate(above['estimate'], above['ci95'])}"
                f": {b0}{above['value']:g}{b1} is the smallest value that reaches it."
            )
        elif self.meets:
            lines.append(f"The low end of the range, {self.meets['value']:g}, already reaches "
                         "the target.")  # fmt: skip
        return lines

    def to_json_dict(self) -> dict:
        """What ``fuzion-sim balance --json`` prints.

        Returns
        -------
        dict
            ``param``, ``value``, ``metric``, ``estimate``, ``ci95``, ``target``, ``side``,
            ``combatant``, ``unit``, ``trials``, ``seed``, ``bracketed``, ``range``,
            ``bracket``, ``meets``, ``steps`` (and ``win_probability`` for that metric).
        """
        win = self.metric == "win_probability"
        out = {
            "param": self.param,
            "value": self.value,
            "metric": self.metric,
            "estimate": self.estimate,
            "side": self.side,
            "combatant": self.combatant,
            "unit": self.unit,
            "target": self.target,
        }
        if win:
            out["win_probability"] = self.estimate
        out.update(
            ci95=list(self.ci95), trials=self.trials, seed=self.seed, bracketed=self.bracketed,
            range=[self.low, self.high], bracket=self.bracket, meets=self.meets,
            steps=[{"value": v, "estimate": e, **({"win_probability": e} if win else {})}
                   for v, e in self.steps],
        )  # fmt: skip
        return out


def default_range(current) -> tuple:
    """0 to twice the current value, at least 20.

    Parameters
    ----------
    current : int or float
        The parameter's value in the scenario.

    Returns
    -------
    (low, high)
    """
    high = max(2 * current, 20)
    return (0, int(high) if isinstance(current, int) else float(high))


def _check_target(m: Metric, target) -> float:
    if target is None:
        if not m.is_probability:
            raise FuzionSimError(f"{m.name} needs a target (a time in the system's unit, phases)")
        return 0.5
    target = float(target)
    if m.is_probability and not 0 <= target <= 1:
        raise FuzionSimError(f"target must be a probability in [0, 1], got {target:g}")
    if not m.is_probability and not target > 0:
        raise FuzionSimError(f"target must be a time above 0 (phases), got {target:g}")
    return target


def _check_balance(scenario, param, target, side, low, high, trials, seed, threads, tolerance,
                   backend, scheduler, metric, combatant):  # fmt: skip
    check_scenario(scenario)
    check_text("param", param, optional=False)
    check_text("side", side)
    check_text("combatant", combatant)
    check_text("metric", metric, optional=False)
    for name, value in (("target", target), ("low", low), ("high", high)):
        if value is not None:
            check_number(name, value, -1e9, 1e9)
    if tolerance is not None:
        check_number("tolerance", tolerance, positive=True, high=1e9)
    check_run_args(trials, seed, threads)
    check_engine(backend, scheduler)


@checked(_check_balance)
def balance(
    scenario,
    param: str,
    target: float | None = None,
    side: str | None = None,
    low=None,
    high=None,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    tolerance: float | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    metric: str = "win_probability",
    combatant: str | None = None,
) -> BalanceResult:
    """Find the value of ``param`` that brings a metric of the fight to ``target``.

    Parameters
    ----------
    scenario : path, Scenario or Base
    param : str
        A key path to a number, e.g. ``"sides.blue[0].armor.pd"`` (may reach into a catalogue
        item given by name).
    target : float, optional
        The target: a probability for ``win_probability``, ``p_out`` and ``p_dead`` (default
        0.5), a time in the system's unit (phases) for the kill-time metrics (required).
    side : str, optional
        Whose win probability (default: the first side listed).
    low, high : number, optional
        Search range; default :func:`default_range` of the current value.
    trials, seed : int, optional
        Trials and seed of every evaluation.
    threads : int, optional
        Worker threads.
    tolerance : float, optional
        For a non-integer parameter, stop when the bracket is this narrow (default: range/256).
    backend, scheduler : str, optional
        Engine options.
    metric : str
        ``"win_probability"`` (default), ``"p_out"`` or ``"p_dead"`` (with ``combatant``),
        ``"kill_time_mean"``, ``"kill_time_q50"``, ``"kill_time_q90"`` (any
        ``kill_time_qNN``).
    combatant : str, optional
        Whose P(out) / P(dead).

    Returns
    -------
    BalanceResult

    Raises
    ------
    FuzionSimError
        An unknown metric, side or combatant (the message names the valid ones), a target
        out of bounds, a parameter that is not a number, an empty range.
    """
    if target is not None:
        target = check_number("target", target, -1e9, 1e9)
    for name, value in (("low", low), ("high", high)):
        if value is not None:
            check_number(name, value, -1e9, 1e9)
    if tolerance is not None:
        tolerance = check_number("tolerance", tolerance, positive=True, high=1e9)
    base = as_base(scenario)
    engine = engine_kwargs(backend, scheduler)
    sc0 = base.build()
    m = resolve_metric(metric, sc0.side_names, [c.name for c in sc0.combatants], side=side,
                       combatant=combatant)  # fmt: skip
    target = _check_target(m, target)
    current = get_path(base.data, param)
    if isinstance(current, bool) or not isinstance(current, int | float):
        raise FuzionSimError(f"{param} is {current!r}, not a number; cannot search it")
    d_low, d_high = default_range(current)
    low = d_low if low is None else low
    high = d_high if high is None else high
    integer = all(isinstance(v, int) and not isinstance(v, bool) for v in (current, low, high))
    if not low < high:
        raise FuzionSimError(f"empty range {low}:{high}")
    trials = sc0.trials if trials is None else int(trials)
    seed = sc0.seed if seed is None else int(seed)
    cache: dict = {}
    steps: list = []

    def point(value) -> dict:
        est, ci = cache[value]
        return {"value": value, "estimate": est, "ci95": list(ci)}

    def gap(value) -> float:
        """The estimate minus the target (a kill time never decided counts as infinite)."""
        if value not in cache:
            try:
                res = simulation.simulate(
                    base.build([(param, value)], option="--param"), trials=trials, seed=seed,
                    threads=threads, keep_trials=False, progress=False, **engine,
                )  # fmt: skip
            except Interrupted as exc:  # count the evaluations already run too
                done = sum(r.trials for r in results.values())
                raise Interrupted(done + exc.trials) from None
            cache[value] = m.estimate(res)
            results[value] = res
            steps.append((value, cache[value][0]))
        est = cache[value][0]
        return math.inf if est is None else est - target

    results: dict = {}
    g_lo = gap(low)
    side_lo = math.copysign(1, g_lo)

    def met(value) -> bool:
        g = gap(value)
        return g == 0 or math.copysign(1, g) != side_lo

    bracket = meets = None
    bracketed = g_lo == 0 or met(high)
    if g_lo == 0:
        meets = point(low)
    elif bracketed:
        lo, hi = low, high
        tol = tolerance if tolerance is not None else (high - low) / 256
        while (hi - lo > 1) if integer else (hi - lo > tol):
            mid = (lo + hi) // 2 if integer else (lo + hi) / 2
            if met(mid):
                hi = mid
            else:
                lo = mid
        if not integer:
            gap((lo + hi) / 2)
        bracket = [point(lo), point(hi)]
        meets = point(hi)

    def distance(v):
        est = cache[v][0]
        return (math.inf if est is None else abs(est - target), v)

    best = min(cache, key=distance)
    est, ci = cache[best]
    if not m.is_probability:
        m = replace(m, unit=results[best].time_unit["unit"])
    return BalanceResult(
        param=param, metric=m.name, target=target, value=best, estimate=est, ci95=tuple(ci),
        trials=int(results[best].trials), seed=seed, bracketed=bool(bracketed), low=low,
        high=high, side=m.side, combatant=m.combatant, unit=m.unit, label=m.label,
        bracket=bracket, meets=meets, steps=steps, result=results[best],
    )  # fmt: skip
