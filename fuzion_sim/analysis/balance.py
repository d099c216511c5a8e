"""Balance search: the parameter value that brings a side's win probability to a target.

Every evaluation uses the same seed and trial count (common random numbers), so the estimated
win probability moves smoothly with the parameter and bisection is stable. Integer parameters
are bisected down to two neighbouring values and the one closer to the target is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import FuzionSimError, Interrupted
from ..scenario import get_path
from .variants import as_base, engine_kwargs

__all__ = ["BalanceResult", "balance", "default_range"]


@dataclass
class BalanceResult:
    """The answer of a balance search.

    Attributes
    ----------
    param, side : str
    target : float
    value : int or float
        The parameter value found.
    win_probability : float
        The side's win probability at ``value``, with ``ci95`` its Wilson interval.
    bracketed : bool
        False when the target lies outside the win probabilities at the range's ends (the
        closer end is reported).
    steps : list of (value, win probability)
        Every evaluation, in order.
    """

    param: str
    side: str
    target: float
    value: float
    win_probability: float
    ci95: tuple[float, float]
    trials: int
    seed: int
    bracketed: bool
    low: float
    high: float
    steps: list = field(default_factory=list)
    result: object = field(default=None, repr=False)

    def to_json_dict(self) -> dict:
        return {
            "param": self.param,
            "value": self.value,
            "side": self.side,
            "target": self.target,
            "win_probability": self.win_probability,
            "ci95": list(self.ci95),
            "trials": self.trials,
            "seed": self.seed,
            "bracketed": self.bracketed,
            "range": [self.low, self.high],
            "steps": [{"value": v, "win_probability": p} for v, p in self.steps],
        }


def default_range(current) -> tuple:
    """0 to twice the current value, at least 20."""
    high = max(2 * current, 20)
    return (0, int(high) if isinstance(current, int) else float(high))


def balance(
    scenario,
    param: str,
    target: float = 0.5,
    side: str | None = None,
    low=None,
    high=None,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    tolerance: float | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
) -> BalanceResult:
    """Find the value of ``param`` that brings ``side``'s win probability to ``target``.

    Parameters
    ----------
    scenario : path, Scenario or Base
    param : str
        A key path to a number, e.g. ``"sides.blue[0].armor.pd"`` (may reach into a catalogue
        item given by name).
    target : float
        Target win probability, 0.5 by default.
    side : str, optional
        Default: the first side listed.
    low, high : number, optional
        Search range; default :func:`default_range` of the current value.
    trials, seed : int, optional
        Trials and seed of every evaluation.
    tolerance : float, optional
        For a non-integer parameter, stop when the bracket is this narrow (default: range/256).
    backend, scheduler, threads :
        Engine options.

    Returns
    -------
    BalanceResult
    """
    from ..api import check_run_args, simulate
    from ..limits import check_number, check_probability

    check_run_args(trials, seed, threads)
    target = check_probability("target", target)
    for name, value in (("low", low), ("high", high)):
        if value is not None:
            check_number(name, value, -1e9, 1e9)
    if tolerance is not None:
        tolerance = check_number("tolerance", tolerance, positive=True, high=1e9)
    base = as_base(scenario)
    engine = engine_kwargs(backend, scheduler)
    sc0 = base.build()
    if side is None:
        side = sc0.side_names[0]
    if side not in sc0.side_names:
        raise FuzionSimError(f"no side '{side}'; sides are {', '.join(sc0.side_names)}")
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

    def evaluate(value):
        if value not in cache:
            try:
                res = simulate(
                    base.build([(param, value)]), trials=trials, seed=seed, threads=threads,
                    keep_trials=False, progress=False, **engine,
                )  # fmt: skip
            except Interrupted as exc:  # count the evaluations already run too
                done = sum(r.trials for r in cache.values())
                raise Interrupted(done + exc.trials) from None
            cache[value] = res
            steps.append((value, float(res.win_probability(side))))
        return cache[value].win_probability(side) - target

    f_lo, f_hi = evaluate(low), evaluate(high)
    bracketed = bool(f_lo == 0 or f_hi == 0 or (f_lo < 0) != (f_hi < 0))
    lo, hi = low, high
    if bracketed:
        tol = tolerance if tolerance is not None else (high - low) / 256
        while (hi - lo > 1) if integer else (hi - lo > tol):
            mid = (lo + hi) // 2 if integer else (lo + hi) / 2
            f_mid = evaluate(mid)
            if f_mid == 0:
                lo = hi = mid
                break
            if (f_mid < 0) == (f_lo < 0):
                lo, f_lo = mid, f_mid
            else:
                hi = mid
        if not integer and lo != hi:
            evaluate((lo + hi) / 2)
    best = min(cache, key=lambda v: (abs(cache[v].win_probability(side) - target), v))
    res = cache[best]
    return BalanceResult(
        param=param, side=side, target=float(target), value=best,
        win_probability=float(res.win_probability(side)), ci95=res.win_interval(side),
        trials=int(res.trials), seed=seed, bracketed=bracketed, low=low, high=high, steps=steps,
        result=res,
    )  # fmt: skip
