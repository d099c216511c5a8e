"""Named answers of a run that a balance search can aim at, each with its 95% interval.

A :class:`Metric` reads one number and its interval off a :class:`~.result.Result`:

- ``win_probability`` (of a side): Wilson interval;
- ``p_out`` / ``p_dead`` (of a combatant): the probability it goes out / dies in a fight,
  Wilson interval;
- ``kill_time_mean``: mean kill time of the decisive fights in the system's unit (phases),
  normal interval from its standard error;
- ``kill_time_qNN`` (``kill_time_q50``, ``kill_time_q90``, ...): that quantile of the kill
  time, distribution-free order-statistic interval.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import FuzionSimError, UnknownNameError, did_you_mean, unknown_name
from .intervals import wilson

__all__ = ["METRICS", "Metric", "metric"]

#: The metric names (``kill_time_qNN`` takes any whole percentile 1-99).
METRICS = ("win_probability", "p_out", "p_dead", "kill_time_mean", "kill_time_q50",
           "kill_time_q90")  # fmt: skip

_QUANTILE = re.compile(r"kill_time_q(\d{1,2})$")


@dataclass(frozen=True)
class Metric:
    """One answer of a run, named and resolved against a scenario's sides and combatants.

    Attributes
    ----------
    name : str
        ``"win_probability"``, ``"p_out"``, ``"p_dead"``, ``"kill_time_mean"`` or
        ``"kill_time_qNN"``.
    side, combatant : str or None
        Whose win probability / whose P(out) or P(dead).
    unit : str or None
        The time unit of a kill-time metric (``"phase"``, ``"segment"``); None for a
        probability.
    """

    name: str
    side: str | None = None
    combatant: str | None = None
    unit: str | None = None

    @property
    def is_probability(self) -> bool:
        """True for the win probability, P(out) and P(dead) (targets in [0, 1])."""
        return not self.name.startswith("kill_time")

    @property
    def quantile(self) -> float | None:
        """The quantile of a ``kill_time_qNN`` metric (0.9 for ``kill_time_q90``)."""
        m = _QUANTILE.match(self.name)
        return int(m.group(1)) / 100 if m else None

    @property
    def label(self) -> str:
        """How the metric reads in a table or a headline, e.g. ``"P(Knight dead)"``,
        ``"median kill time"`` (a time's unit goes with its value)."""
        if self.name == "win_probability":
            return f"P({self.side} wins)"
        if self.name == "p_out":
            return f"P({self.combatant} out)"
        if self.name == "p_dead":
            return f"P({self.combatant} dead)"
        if self.name == "kill_time_mean":
            return "mean kill time"
        q = round(100 * self.quantile)
        what = "median" if q == 50 else f"{q}th percentile"
        return f"{what} kill time"

    def estimate(self, result) -> tuple[float | None, tuple[float | None, float | None]]:
        """The metric's estimate on ``result`` and its 95% interval.

        Parameters
        ----------
        result : Result
            A run of a scenario with this metric's side / combatant.

        Returns
        -------
        (float, (float, float))
            ``(estimate, (low, high))``; a kill-time metric with no decisive fight gives
            ``(None, (None, None))``.
        """
        if self.name == "win_probability":
            return float(result.win_probability(self.side)), result.win_interval(self.side)
        if self.name in ("p_out", "p_dead"):
            i = result.combatant_index(self.combatant)
            hist = result.tally.out_hist if self.name == "p_out" else result.tally.death_hist
            n = int(result.trials - hist[i, 0])
            return n / result.trials, wilson(n, int(result.trials))
        if self.name == "kill_time_mean":
            s = result.kill_time_summary()
            return s["mean"], tuple(s["ci95"])
        key = f"{self.quantile:g}"
        q = result.kill_time_quantiles(quantiles=(self.quantile,))[key]
        value = None if q["value"] is None else float(q["value"])
        return value, tuple(None if v is None else float(v) for v in q["ci95"])


def metric(name: str, sides, combatants, side=None, combatant=None, unit=None) -> Metric:
    """Resolve a metric name against a scenario (clear errors naming the valid choices).

    Parameters
    ----------
    name : str
        One of :data:`METRICS` (or ``kill_time_qNN``).
    sides : list of str
        The scenario's sides (``side`` defaults to the first).
    combatants : list of str
        The scenario's combatant names (``p_out`` and ``p_dead`` need ``combatant``).
    side, combatant : str, optional
        Whose answer.
    unit : str, optional
        The scenario's time unit, for a kill-time metric's label.

    Returns
    -------
    Metric

    Raises
    ------
    FuzionSimError
        An unknown metric, side or combatant, a missing combatant, or a side or combatant given
        to a metric that does not take it.
    """
    name = str(name).strip()
    if name not in METRICS and not _QUANTILE.match(name):
        hint = did_you_mean(name, METRICS)
        raise UnknownNameError(
            f"unknown metric '{name}'; metrics are {', '.join(METRICS)} (kill_time_qNN for any "
            "percentile)" + (f"; did you mean '{hint}'?" if hint else "")
        )
    q = _QUANTILE.match(name)
    if q and not 1 <= int(q.group(1)) <= 99:
        raise FuzionSimError(f"metric '{name}': the percentile must be 1 to 99")
    if name == "win_probability":
        if combatant is not None:
            raise FuzionSimError("a combatant applies to p_out and p_dead, not win_probability")
        side = sides[0] if side is None else side
        if side not in sides:
            raise unknown_name("side", side, sides)
        return Metric(name, side=side)
    if side is not None:
        raise FuzionSimError(f"a side applies to win_probability, not {name}")
    if name in ("p_out", "p_dead"):
        if combatant is None:
            raise FuzionSimError(f"{name} needs a combatant: one of {', '.join(combatants)}")
        if combatant not in combatants:
            raise unknown_name("combatant", combatant, combatants)
        return Metric(name, combatant=combatant)
    if combatant is not None:
        raise FuzionSimError(f"a combatant applies to p_out and p_dead, not {name}")
    return Metric(name, unit=unit)

