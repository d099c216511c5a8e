"""The Result of a run: answers (win probabilities with intervals, kill-time distributions)
computed from the run's tally, plus provenance. Analysis never imports a rule system."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._args import check_confidence, check_flag, check_path, check_quantiles
from ..engine.outcomes import Tally, TrialOutcomes
from ..errors import unknown_name
from ..systems.base import OutcomeSchema
from .intervals import quantile_interval_ranks, wilson, z_value

__all__ = ["Result", "QUANTILES", "UNITS"]

#: Time units the kill-time helpers accept.
UNITS = ("slot", "phase", "round", "second")

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def _hist_quantile(counts: np.ndarray, q: float) -> int:
    """Smallest t with CDF(t) >= q for a histogram over t = 0, 1, ...."""
    total = counts.sum()
    cdf = np.cumsum(counts)
    return int(np.searchsorted(cdf, q * total - 1e-9 * total, side="left"))


def _rank_value(counts: np.ndarray, rank: int) -> int:
    """The ``rank``-th smallest value (1-based) of a histogram over t = 0, 1, ...."""
    cdf = np.cumsum(counts)
    return int(np.searchsorted(cdf, rank, side="left"))


@dataclass
class Result:
    """One run's answers.

    Parameters
    ----------
    scenario : str
        Scenario name.
    system : str
        Rule system.
    sides : list of str
        Side names in scenario order.
    combatants : list of (name, side)
    rules : dict
        Every effective rule switch.
    seed, trials : int
        Root seed and trials that ran.
    tally : Tally
        The run's aggregates (every statistic below comes from it).
    time_unit : dict
        ``{"unit": "phase", "seconds": 3.0, "per_round": 4}``.
    schema : OutcomeSchema, optional
        The rule system's extras (counters, categories) and time unit.
    outcomes : TrialOutcomes, optional
        Per-trial outcomes, when the run kept them.
    provenance : dict
        Version, scenario hash and anything else that identifies the run.
    """

    scenario: str
    system: str
    sides: list[str]
    combatants: list[tuple[str, str]]
    rules: dict
    seed: int
    trials: int
    tally: Tally
    time_unit: dict
    outcomes: TrialOutcomes | None = None
    provenance: dict = field(default_factory=dict)
    elapsed: float = 0.0
    threads: int = 1
    backend: str = "threads"
    schema: OutcomeSchema | None = None

    # -- names ---------------------------------------------------------------------------
    def side_index(self, side: str) -> int:
        """Position of ``side`` in :attr:`sides`.

        Parameters
        ----------
        side : str
            A side name.

        Returns
        -------
        int

        Raises
        ------
        UnknownNameError
            ``side`` is not a side of the scenario (the message names the sides).
        """
        try:
            return self.sides.index(side)
        except ValueError:
            raise unknown_name("side", side, self.sides) from None

    def combatant_index(self, name: str) -> int:
        """Position of the combatant ``name`` in :attr:`combatants`.

        Parameters
        ----------
        name : str
            A combatant's name.

        Returns
        -------
        int

        Raises
        ------
        UnknownNameError
            No combatant has that name (the message names them).
        """
        names = [n for n, _side in self.combatants]
        try:
            return names.index(name)
        except ValueError:
            raise unknown_name("combatant", name, names) from None

    # -- win probabilities ---------------------------------------------------------------
    def win_probability(self, side: str) -> float:
        """The fraction of trials ``side`` won.

        Parameters
        ----------
        side : str
            One of :attr:`sides`.

        Returns
        -------
        float

        Raises
        ------
        UnknownNameError
            ``side`` is not a side of the scenario.
        """
        return self.tally.outcome_counts[self.side_index(side)] / self.trials

    def win_interval(self, side: str, confidence: float = 0.95) -> tuple[float, float]:
        """Wilson score interval of ``side``'s win probability.

        Parameters
        ----------
        side : str
            One of :attr:`sides`.
        confidence : float
            Coverage, 0.95 by default.

        Returns
        -------
        (low, high) : tuple of float

        Raises
        ------
        UnknownNameError
            ``side`` is not a side of the scenario.
        """
        confidence = check_confidence(confidence)
        return wilson(
            int(self.tally.outcome_counts[self.side_index(side)]), self.trials, confidence
        )

    @property
    def draw_probability(self) -> float:
        """The fraction of trials that ended with nobody standing on any side."""
        return self.tally.outcome_counts[len(self.sides)] / self.trials

    @property
    def unresolved_probability(self) -> float:
        """The fraction of trials still undecided at ``max_rounds``."""
        return self.tally.outcome_counts[len(self.sides) + 1] / self.trials

    def _outcome_index(self, outcome: str) -> int:
        if outcome in self.sides:
            return self.sides.index(outcome)
        extra = {"draw": len(self.sides), "unresolved": len(self.sides) + 1}
        if outcome not in extra:
            raise unknown_name("outcome", outcome, [*self.sides, *extra])
        return extra[outcome]

    def outcome_probability(self, outcome: str) -> float:
        """The fraction of trials that ended in ``outcome``.

        Parameters
        ----------
        outcome : str
            A side (its win), ``"draw"`` or ``"unresolved"``.

        Returns
        -------
        float
        """
        return self.tally.outcome_counts[self._outcome_index(outcome)] / self.trials

    def outcome_interval(self, outcome: str, confidence: float = 0.95) -> tuple[float, float]:
        """Wilson interval of :meth:`outcome_probability`.

        Parameters
        ----------
        outcome : str
            A side, ``"draw"`` or ``"unresolved"``.
        confidence : float
            Coverage.

        Returns
        -------
        (low, high) : tuple of float
        """
        k = int(self.tally.outcome_counts[self._outcome_index(outcome)])
        return wilson(k, self.trials, confidence)

    # -- kill time -----------------------------------------------------------------------
    def kill_time_counts(self, side: str | None = None) -> np.ndarray:
        """Histogram of the decisive trials' end slots.

        Parameters
        ----------
        side : str, optional
            Only the trials ``side`` won (default: every decisive trial).

        Returns
        -------
        numpy.ndarray
            ``counts[t]``: trials that ended in slot ``t`` (the system's unit, 1-based).
        """
        n = len(self.sides)
        if side is None:
            return self.tally.end_hist[:n].sum(axis=0)
        return self.tally.end_hist[self.side_index(side)].copy()

    def _excess(self, side: str | None, field: str) -> int:
        """The decisive trials' (or ``side``'s) exact sums past the histograms' last bin."""
        rows = getattr(self.tally, field, None)
        if rows is None:
            return 0
        if side is None:
            return int(rows[: len(self.sides)].sum())
        return int(rows[self.sides.index(side)])

    def kill_time(self, side: str | None = None) -> dict:
        """Kill-time distribution over decisive trials, in the system's unit (phases).

        Parameters
        ----------
        side : str, optional
            Only the trials ``side`` won (default: every decisive trial).

        Returns
        -------
        dict
            ``unit``, ``n`` (decisive trials), ``mean``, ``sd``, ``se``, ``quantiles``
            (``{"0.5": 4, ...}``), ``pmf`` (``{2: 0.11, 3: 0.20, ...}``, keyed by whole
            time units as ints, like :meth:`kill_time_pmf`'s index), ``mean_seconds`` and
            ``mean_rounds``. :meth:`to_json_dict` writes the pmf's keys as strings.

        ``mean``, ``sd`` and ``se`` are exact however long the fights last. When some fight
        ended past the histograms' last bin (``max_rounds`` over
        :data:`~fuzion_sim.engine.outcomes.HIST_SLOTS` slots), ``tail_from`` names that bin:
        its pmf entry counts every later time too, and a quantile there is a lower bound.
        """
        counts = self.kill_time_counts(side)
        total = int(counts.sum())
        out = {"unit": self.time_unit["unit"], "n": total}
        if total == 0:
            return {**out, "mean": None, "sd": None, "se": None, "quantiles": {}, "pmf": {}}
        t = np.arange(counts.size)
        excess = self._excess(side, "end_excess")
        if excess == 0:  # every time in its own bin
            mean = float((t * counts).sum() / total)
            var = float(((t - mean) ** 2 * counts).sum() / max(total - 1, 1))
        else:  # exact integer sums, the last bin's trials at their own times
            first = int((t * counts).sum()) + excess
            second = int((t * t * counts).sum()) + self._excess(side, "end_excess_sq")
            mean = first / total
            var = max((second - first * first / total) / max(total - 1, 1), 0.0)
        out["mean"] = mean
        out["sd"] = var**0.5
        out["se"] = (var / total) ** 0.5
        out["quantiles"] = {f"{q:g}": _hist_quantile(counts, q) for q in QUANTILES}
        out["pmf"] = {int(i): float(counts[i] / total) for i in np.flatnonzero(counts)}
        if excess:
            out["tail_from"] = int(counts.size - 1)
        secs = self.time_unit["seconds"]
        out["mean_seconds"] = mean * secs
        out["mean_rounds"] = mean / float(self.time_unit.get("per_round") or 1)
        return out

    # -- per combatant -------------------------------------------------------------------
    def combatant_table(self):
        """:meth:`combatant_stats` as a table.

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd

        return pd.DataFrame(self.combatant_stats())

    def combatant_stats(self) -> list[dict]:
        """Per combatant: P(out), P(dead), mean damage dealt and taken, attacks, hit rate.

        Returns
        -------
        list of dict
            ``combatant``, ``side``, ``p_out``, ``p_dead``, ``damage_dealt_mean``,
            ``damage_taken_mean``, ``attacks_mean``, ``hit_rate`` (None without attacks),
            ``knockback_mean``.
        """
        tl = self.tally
        rows = []
        for i, (name, side) in enumerate(self.combatants):
            attacks = int(tl.attacks_sum[i])
            rows.append(
                {
                    "combatant": name,
                    "side": side,
                    "p_out": 1 - tl.out_hist[i, 0] / self.trials,
                    "p_dead": 1 - tl.death_hist[i, 0] / self.trials,
                    "damage_dealt_mean": tl.dealt_sum[i] / self.trials,
                    "damage_taken_mean": tl.taken_sum[i] / self.trials,
                    "attacks_mean": attacks / self.trials,
                    "hit_rate": tl.landed_sum[i] / attacks if attacks else None,
                    **{f"{c.label}_mean": self._counter_mean(c, i) for c in self._specs()},
                }
            )
        return rows

    def _specs(self) -> tuple:
        """The system's per-trial counters (``systems.base.Counter``)."""
        return () if self.schema is None else tuple(self.schema.counters)

    def _counter_mean(self, spec, i: int) -> float | None:
        """Counter ``spec``'s mean for combatant ``i``: per fight, or over the fights where
        its ``per`` counter is 1 (None when it never is)."""
        total = self.tally.counter_sum[spec.name][i]
        if not spec.per:
            return total / self.trials
        n = self.tally.counter_sum[spec.per][i]
        return total / n if n else None

    def counter_probability(self, spec, i: int) -> float | None:
        """P(counter ``spec`` is at least 1 in a fight) for combatant ``i``: a 0-or-1
        counter's mean, or for a count (crashes, times it lost control) the share of the
        kept trials in which it happened; None when the run kept no per-trial outcomes or
        the counter is a time (``per``).

        Parameters
        ----------
        spec : systems.base.Counter
        i : int
            The combatant's index.

        Returns
        -------
        float or None
        """
        if spec.per:
            return None
        if spec.percent:
            return self._counter_mean(spec, i)
        values = None if self.outcomes is None else self.outcomes.counters.get(spec.name)
        if values is None or not len(values):
            return None
        return float((values[:, i] > 0).mean())

    def counter_probabilities(self) -> dict[tuple[str, str], float]:
        """:meth:`counter_probability` of every counter and combatant that has one and whose
        counter is ever not 0 (``{(combatant, label): p}``): the vehicle outcomes a designer
        reads as probabilities, P(immobilised), P(lost control), P(crash).

        Returns
        -------
        dict
        """
        out = {}
        for spec in self._specs():
            for i, (who, _side) in enumerate(self.combatants):
                if not self.tally.counter_sum.get(spec.name, np.zeros(i + 1))[i]:
                    continue
                p = self.counter_probability(spec, i)
                if p is not None:
                    out[(who, spec.label)] = p
        return out

    def _counters(self) -> list[tuple[str, str]]:
        """(name, label) of the system's per-trial counters."""
        return [(c.name, c.label) for c in self._specs()]

    def counter_labels(self) -> list[str]:
        """The labels of the system's per-trial counters (``knockback``): each combatant's
        :meth:`combatant_stats` has ``<label>_mean``.

        Returns
        -------
        list of str
        """
        return [label for _name, label in self._counters()]

    def category_counts(self, name: str) -> dict[str, dict[str, int]]:
        """Counts of the system's category ``name`` (hits by location, attacks by colour).

        Parameters
        ----------
        name : str
            One of the schema's categories.

        Returns
        -------
        dict
            ``{combatant: {label: count}}`` for every combatant with a count, leaving zeros
            out.
        """
        spec = next((c for c in (self.schema.categories if self.schema else ()) if c.name == name),
                    None)  # fmt: skip
        if spec is None:
            choices = [c.name for c in self.schema.categories] if self.schema else []
            raise unknown_name("category", name, choices)
        counts = self.tally.categories[name]
        out = {}
        for i, (who, _side) in enumerate(self.combatants):
            row = counts[i]
            if row.any():
                out[who] = {lab: int(n) for lab, n in zip(spec.labels, row, strict=True) if n}
        return out

    # -- time units ----------------------------------------------------------------------
    def unit_factor(self, unit: str | None = None) -> float:
        """Multiply a time in slots by this to get ``unit``.

        Parameters
        ----------
        unit : {'slot', 'phase', 'round', 'second'}, optional
            ``None``, ``'slot'`` or the system's own unit (``'phase'``) give 1.

        Returns
        -------
        float

        Raises
        ------
        UnknownNameError
            An unknown unit (the message names the units).
        """
        if unit is None or unit in ("slot", self.time_unit["unit"]):
            return 1.0
        secs = float(self.time_unit.get("seconds", 1.0))
        if unit in ("second", "seconds", "s"):
            return secs
        if unit in ("round", "rounds"):
            return 1.0 / float(self.time_unit.get("per_round", 1) or 1)
        raise unknown_name("time unit", unit, UNITS)

    def in_unit(self, slots, unit: str | None = None):
        """Slot numbers converted to ``unit``: ints when the unit is a whole number of slots
        (phases, segments, seconds of a phase), floats otherwise (rounds).

        Parameters
        ----------
        slots : int or array of int
            Times in slots.
        unit : {'slot', 'phase', 'round', 'second'}, optional
            Default: the system's own unit.

        Returns
        -------
        int, float or numpy.ndarray
        """
        f = self.unit_factor(unit)
        if float(f).is_integer():
            f = int(f)
            return np.asarray(slots, dtype=np.int64) * f if np.ndim(slots) else int(slots) * f
        return np.asarray(slots, dtype=np.float64) * f if np.ndim(slots) else float(slots) * f

    # -- kill-time distribution ----------------------------------------------------------
    def kill_time_pmf(self, side: str | None = None, unit: str | None = None):
        """Kill-time pmf over decisive trials.

        Parameters
        ----------
        side : str, optional
            Only the trials ``side`` won (default: every decisive trial).
        unit : {'slot', 'phase', 'round', 'second'}, optional
            Time unit of the index (default: the system's, phases).

        Returns
        -------
        pandas.Series
            Probabilities named ``pmf``, indexed by the time a fight ended: ints for whole
            units (the same keys as ``kill_time()["pmf"]``), floats for rounds.
        """
        import pandas as pd

        counts = self.kill_time_counts(side)
        total = counts.sum()
        idx = np.flatnonzero(counts)
        probs = counts[idx] / total if total else counts[idx].astype(float)
        return pd.Series(probs, index=self.in_unit(idx, unit), name="pmf")

    def kill_time_cdf(self, side: str | None = None, unit: str | None = None):
        """Kill-time CDF over decisive trials with pointwise 95% Wilson bands.

        Parameters
        ----------
        side : str, optional
            Only the trials ``side`` won (default: every decisive trial).
        unit : {'slot', 'phase', 'round', 'second'}, optional
            Time unit of the ``time`` column (default: the system's).

        Returns
        -------
        pandas.DataFrame
            Columns ``time`` (ints for whole units), ``cdf``, ``ci95_low``, ``ci95_high``, one
            row per slot from the first to the last slot any decisive fight ended in.
        """
        import pandas as pd

        counts = self.kill_time_counts(side)
        total = int(counts.sum())
        if total == 0:
            return pd.DataFrame(columns=["time", "cdf", "ci95_low", "ci95_high"])
        nz = np.flatnonzero(counts)
        slots = np.arange(nz[0], nz[-1] + 1)
        cum = np.cumsum(counts)[slots]
        bands = [wilson(int(c), total) for c in cum]
        return pd.DataFrame(
            {
                "time": self.in_unit(slots, unit),
                "cdf": cum / total,
                "ci95_low": [b[0] for b in bands],
                "ci95_high": [b[1] for b in bands],
            }
        )

    def kill_time_quantiles(
        self, side: str | None = None, quantiles=QUANTILES, confidence: float = 0.95, unit=None
    ) -> dict:
        """Quantiles of the kill time with distribution-free (order-statistic) intervals.

        Parameters
        ----------
        side : str, optional
            Only the trials ``side`` won (default: every decisive trial).
        quantiles : sequence of float
            Default 0.05, 0.25, 0.5, 0.75, 0.95.
        confidence : float
            Interval coverage.
        unit : {'slot', 'phase', 'round', 'second'}, optional
            Default: the system's unit.

        Returns
        -------
        dict
            ``{"0.5": {"value": 4, "ci95": [4, 5]}, ...}`` in ``unit`` (ints for whole units).
        """
        quantiles, confidence = check_quantiles(quantiles), check_confidence(confidence)
        counts = self.kill_time_counts(side)
        total = int(counts.sum())
        out = {}
        for q in quantiles:
            if total == 0:
                out[f"{q:g}"] = {"value": None, "ci95": [None, None]}
                continue
            lo_rank, hi_rank = quantile_interval_ranks(total, q, confidence)
            value = self.in_unit(_hist_quantile(counts, q), unit)
            lo = self.in_unit(_rank_value(counts, lo_rank), unit)
            hi = self.in_unit(_rank_value(counts, hi_rank), unit)
            out[f"{q:g}"] = {"value": value, "ci95": [lo, hi]}
        return out

    def kill_time_summary(self, side: str | None = None, unit: str | None = None) -> dict:
        """Mean with standard error and 95% interval, sd, and quantiles with intervals.

        Parameters
        ----------
        side : str, optional
            Only the trials ``side`` won (default: every decisive trial).
        unit : {'slot', 'phase', 'round', 'second'}, optional
            Default: the system's unit.

        Returns
        -------
        dict
            ``unit``, ``n``, ``mean``, ``se``, ``ci95``, ``sd`` and ``quantiles`` (see
            :meth:`kill_time_quantiles`); ``mean`` is None when no fight was decisive.
        """
        kt = self.kill_time(side)
        f = self.unit_factor(unit)
        out = {"unit": unit or self.time_unit["unit"], "n": kt["n"]}
        if not kt["n"]:
            return {**out, "mean": None, "se": None, "ci95": [None, None], "sd": None}
        z = z_value(0.95)
        mean, se = kt["mean"] * f, kt["se"] * f
        out.update(mean=mean, se=se, ci95=[mean - z * se, mean + z * se], sd=kt["sd"] * f)
        out["quantiles"] = self.kill_time_quantiles(side, unit=unit)
        return out

    # -- survival ------------------------------------------------------------------------
    def survival(self, unit: str | None = None):
        """Fraction still standing against time, per combatant and per side.

        Parameters
        ----------
        unit : {'slot', 'phase', 'round', 'second'}, optional
            Time unit of the ``time`` column (default: the system's).

        Returns
        -------
        pandas.DataFrame
            Column ``time`` (slot 0 .. last slot, in ``unit``), one column per combatant
            (P(not yet out at the end of that slot)) and one ``side:<name>`` column per side
            (the expected fraction of that side's combatants still standing).
        """
        import pandas as pd

        hist = self.tally.out_hist  # [c, t], t = 0 never out
        n_slots = hist.shape[1]
        last = int(max((np.flatnonzero(hist[:, 1:].sum(axis=0)) + 1).max(initial=1), 1))
        last = min(last + 1, n_slots - 1)
        went_out = np.cumsum(hist[:, 1:], axis=1)  # [c, t-1]: out by the end of slot t
        frame = {"time": self.in_unit(np.arange(0, last + 1), unit)}
        per = {}
        for i, (name, _side) in enumerate(self.combatants):
            alive = np.concatenate([[1.0], 1.0 - went_out[i, :last] / self.trials])
            per[name] = alive
            frame[name] = alive
        for side in self.sides:
            members = [name for name, s in self.combatants if s == side]
            frame[f"side:{side}"] = np.mean([per[m] for m in members], axis=0)
        return pd.DataFrame(frame)

    def down_times(self, unit: str | None = None) -> list[dict]:
        """Per combatant: P(ever out / dead) and mean and median time of going out / dying.

        Parameters
        ----------
        unit : {'slot', 'phase', 'round', 'second'}, optional
            Time unit (default: the system's).

        Returns
        -------
        list of dict
            ``combatant``, ``side``, ``p_down``, ``time_to_down_mean``,
            ``time_to_down_median``, ``p_death``, ``time_to_death_mean``,
            ``time_to_death_median`` (times None when it never happened).
        """
        f = self.unit_factor(unit)
        rows = []
        tl = self.tally
        for i, (name, side) in enumerate(self.combatants):
            row = {"combatant": name, "side": side}
            for label, hist, excess in (
                ("down", tl.out_hist[i], getattr(tl, "out_excess", None)),
                ("death", tl.death_hist[i], getattr(tl, "death_excess", None)),
            ):
                ever = hist[1:]
                n = int(ever.sum())
                row[f"p_{label}"] = n / self.trials
                if n:
                    t = np.arange(1, hist.size)
                    extra = 0 if excess is None else int(excess[i])
                    row[f"time_to_{label}_mean"] = float(((t * ever).sum() + extra) / n) * f
                    row[f"time_to_{label}_median"] = self.in_unit(
                        _hist_quantile(hist[1:], 0.5) + 1, unit
                    )
                else:
                    row[f"time_to_{label}_mean"] = None
                    row[f"time_to_{label}_median"] = None
            rows.append(row)
        return rows

    def first_down(self, unit: str | None = None) -> dict | None:
        """Time the first combatant (any side) went out, over the trials where someone did.

        Parameters
        ----------
        unit : {'slot', 'phase', 'round', 'second'}, optional
            Time unit (default: the system's).

        Returns
        -------
        dict or None
            ``n``, ``mean``, ``se``, ``median``; None when the run kept no per-trial outcomes.
        """
        if self.outcomes is None:
            return None
        slots = self.outcomes.out_slot.astype(np.float64)
        slots[slots == 0] = np.inf
        first = slots.min(axis=1)
        first = first[np.isfinite(first)]
        f = self.unit_factor(unit)
        if first.size == 0:
            return {"n": 0, "mean": None, "median": None}
        return {
            "n": int(first.size),
            "mean": float(first.mean()) * f,
            "se": float(first.std(ddof=1) / np.sqrt(first.size)) * f if first.size > 1 else None,
            "median": float(np.median(first)) * f,
        }

    def damage_table(self):
        """Per combatant: mean damage dealt and taken with standard errors.

        Returns
        -------
        pandas.DataFrame
            ``combatant``, ``side``, ``damage_dealt_mean``, ``damage_dealt_se``,
            ``damage_taken_mean``, ``damage_taken_se``.
        """
        import pandas as pd

        tl, n = self.tally, self.trials
        rows = []
        for i, (name, side) in enumerate(self.combatants):
            row = {"combatant": name, "side": side}
            for label, s, sq in (
                ("dealt", tl.dealt_sum, tl.dealt_sq),
                ("taken", tl.taken_sum, tl.taken_sq),
            ):
                mean = s[i] / n
                var = max(sq[i] / n - mean * mean, 0.0) * n / max(n - 1, 1)
                row[f"damage_{label}_mean"] = float(mean)
                row[f"damage_{label}_se"] = float((var / n) ** 0.5)
            rows.append(row)
        return pd.DataFrame(rows)

    def win_table(self, confidence: float = 0.95):
        """Win (and draw / unresolved) probabilities with Wilson intervals.

        Parameters
        ----------
        confidence : float
            Interval coverage.

        Returns
        -------
        pandas.DataFrame
            ``outcome``, ``count``, ``probability``, ``ci95_low``, ``ci95_high``; one row per
            side, then ``draw`` and ``unresolved``.
        """
        import pandas as pd

        confidence = check_confidence(confidence)
        rows = []
        labels = [*self.sides, "draw", "unresolved"]
        for k, label in enumerate(labels):
            c = int(self.tally.outcome_counts[k])
            lo, hi = wilson(c, self.trials, confidence)
            rows.append(
                {"outcome": label, "count": c, "probability": c / self.trials,
                 "ci95_low": lo, "ci95_high": hi}
            )  # fmt: skip
        return pd.DataFrame(rows)

    def provenance_dict(self) -> dict:
        """Everything that identifies the run.

        Returns
        -------
        dict
            ``version``, ``scenario``, ``scenario_hash``, ``system``, ``seed``, ``trials``,
            ``rules`` and the rest of the provenance.
        """
        return {
            "version": self.provenance.get("version"),
            "scenario": self.scenario,
            "scenario_hash": self.provenance.get("scenario_hash"),
            "system": self.system,
            "seed": int(self.seed),
            "trials": int(self.trials),
            "rules": dict(self.rules),
            **{k: v for k, v in self.provenance.items() if k not in ("version", "scenario_hash")},
        }

    def to_frame(self, per_trial: bool | None = None):
        """A tidy pandas DataFrame of the run.

        Parameters
        ----------
        per_trial : bool, optional
            One row per trial (needs the per-trial outcomes the run kept) with columns
            ``trial``, ``winner``, ``end_slot``, ``end_seconds`` and per combatant
            ``out_slot.<name>``, ``death_slot.<name>``, ``dealt.<name>``, ``taken.<name>``
            (slot 0: never). False (or no kept outcomes): aggregated, one row per
            (outcome, end slot) with the trial ``count``. Default: per trial when possible.

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd

        if check_flag("per_trial", per_trial) is None:
            per_trial = self.outcomes is not None
        if per_trial:
            if self.outcomes is None:
                from ..errors import FuzionSimError

                raise FuzionSimError("this run kept no per-trial outcomes (keep_trials=False)")
            o = self.outcomes
            labels = np.array([*self.sides, "unresolved", "draw"], dtype=object)
            # winner: side index >= 0, DRAW = -1, UNRESOLVED = -2 (negative indices wrap).
            winner = labels[o.winner.astype(np.int64)]
            cols = {
                "trial": np.arange(o.n, dtype=np.int64),
                "winner": winner,
                "end_slot": o.end_slot,
                "end_seconds": o.end_slot * float(self.time_unit.get("seconds", 1.0)),
            }
            for i, (name, _side) in enumerate(self.combatants):
                cols[f"out_slot.{name}"] = o.out_slot[:, i]
                cols[f"death_slot.{name}"] = o.death_slot[:, i]
                cols[f"dealt.{name}"] = o.dealt[:, i]
                cols[f"taken.{name}"] = o.taken[:, i]
            return pd.DataFrame(cols)
        labels = [*self.sides, "draw", "unresolved"]
        rows = []
        for k, label in enumerate(labels):
            for t in np.flatnonzero(self.tally.end_hist[k]):
                rows.append(
                    {"outcome": label, "end_slot": int(t), "count": int(self.tally.end_hist[k, t])}
                )
        return pd.DataFrame(rows, columns=["outcome", "end_slot", "count"])

    # -- display -------------------------------------------------------------------------
    def __repr__(self) -> str:
        """A one-paragraph summary (the tally's arrays are not printed)."""
        from ..report.notebook import result_repr

        return result_repr(self)

    def _repr_html_(self) -> str:
        """Jupyter's view: the win table, the kill-time summary and a small kill-time plot."""
        from ..report.notebook import result_html

        return result_html(self)

    def plot(self, kind: str = "kill_time", path=None):
        """One of the standard figures of the report.

        Parameters
        ----------
        kind : {'kill_time', 'survival'}
            ``'kill_time'``: the kill-time pmf and CDF with 95% bands; ``'survival'``: the
            fraction standing against time, per side and per combatant.
        path : str or os.PathLike, optional
            Also save the figure there as a PNG.

        Returns
        -------
        matplotlib.figure.Figure
            Jupyter shows it inline.

        Raises
        ------
        UnknownNameError
            An unknown ``kind`` (the message names the kinds).
        """
        from ..report import plots

        if path is not None:
            check_path("path", path)  # before the figure is drawn
        figures = {"kill_time": plots.kill_time_figure, "survival": plots.survival_figure}
        if kind not in figures:
            raise unknown_name("plot kind", kind, list(figures))
        fig = figures[kind](self)
        if path is not None:
            plots.save_figure(fig, path)
        return fig

    # -- output --------------------------------------------------------------------------
    def to_json_dict(self) -> dict:
        """The CLI's JSON contract (see the README).

        Returns
        -------
        dict
            What ``fuzion-sim run --json`` prints (pmf keys as strings, as in JSON).
        """
        sides = {}
        for s in self.sides:
            lo, hi = self.win_interval(s)
            sides[s] = {"win_probability": float(self.win_probability(s)), "ci95": [lo, hi]}
        kt = self.kill_time()
        kt["pmf"] = {str(t): p for t, p in kt["pmf"].items()}
        combatants = {
            row["combatant"]: {k: v for k, v in row.items() if k != "combatant"}
            for row in self.combatant_stats()
        }
        trials_per_second = self.trials / self.elapsed if self.elapsed > 0 else None
        return {
            "scenario": self.scenario,
            "system": self.system,
            "version": self.provenance.get("version"),
            "scenario_hash": self.provenance.get("scenario_hash"),
            "trials": int(self.trials),
            "seed": int(self.seed),
            "rules": dict(self.rules),
            "sides": sides,
            "draw_probability": float(self.draw_probability),
            "unresolved_probability": float(self.unresolved_probability),
            "kill_time": kt,
            "combatants": combatants,
            **{c.json_key: self.category_counts(c.name)
               for c in (self.schema.categories if self.schema else ())},
            "elapsed_s": self.elapsed,
            "trials_per_second": trials_per_second,
            "threads": self.threads,
            "backend": self.backend,
        }
