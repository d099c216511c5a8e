"""The Result of a run: answers (win probabilities with intervals, kill-time distributions)
computed from the run's tally, plus provenance. Analysis never imports a rule system."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine.outcomes import Tally, TrialOutcomes
from .intervals import wilson

__all__ = ["Result", "QUANTILES"]

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def _hist_quantile(counts: np.ndarray, q: float) -> int:
    """Smallest t with CDF(t) >= q for a histogram over t = 0, 1, ...."""
    total = counts.sum()
    cdf = np.cumsum(counts)
    return int(np.searchsorted(cdf, q * total - 1e-9 * total, side="left"))


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

    # -- win probabilities ---------------------------------------------------------------
    def win_probability(self, side: str) -> float:
        return self.tally.outcome_counts[self.sides.index(side)] / self.trials

    def win_interval(self, side: str, confidence: float = 0.95) -> tuple[float, float]:
        return wilson(
            int(self.tally.outcome_counts[self.sides.index(side)]), self.trials, confidence
        )

    @property
    def draw_probability(self) -> float:
        return self.tally.outcome_counts[len(self.sides)] / self.trials

    @property
    def unresolved_probability(self) -> float:
        return self.tally.outcome_counts[len(self.sides) + 1] / self.trials

    # -- kill time -----------------------------------------------------------------------
    def kill_time_counts(self, side: str | None = None) -> np.ndarray:
        """Histogram over slots (index t = slot t) of decisive trials (won by ``side``)."""
        n = len(self.sides)
        if side is None:
            return self.tally.end_hist[:n].sum(axis=0)
        return self.tally.end_hist[self.sides.index(side)].copy()

    def kill_time(self, side: str | None = None) -> dict:
        """Kill-time distribution over decisive trials: mean, sd, quantiles, pmf (in slots)."""
        counts = self.kill_time_counts(side)
        total = int(counts.sum())
        out = {"unit": self.time_unit["unit"], "n": total}
        if total == 0:
            return {**out, "mean": None, "sd": None, "quantiles": {}, "pmf": {}}
        t = np.arange(counts.size)
        mean = float((t * counts).sum() / total)
        var = float(((t - mean) ** 2 * counts).sum() / max(total - 1, 1))
        out["mean"] = mean
        out["sd"] = var**0.5
        out["se"] = (var / total) ** 0.5
        out["quantiles"] = {f"{q:g}": _hist_quantile(counts, q) for q in QUANTILES}
        out["pmf"] = {str(int(i)): float(counts[i] / total) for i in np.flatnonzero(counts)}
        secs = self.time_unit["seconds"]
        out["mean_seconds"] = mean * secs
        out["mean_rounds"] = mean * secs / 12.0
        return out

    # -- per combatant -------------------------------------------------------------------
    def combatant_table(self):
        """:meth:`combatant_stats` as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.combatant_stats())

    def combatant_stats(self) -> list[dict]:
        """Per combatant: P(out), P(dead), mean damage dealt and taken, attacks, hit rate."""
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
                }
            )
        return rows

    # -- output --------------------------------------------------------------------------
    def to_json_dict(self) -> dict:
        """The CLI's JSON contract (see the README)."""
        sides = {}
        for s in self.sides:
            lo, hi = self.win_interval(s)
            sides[s] = {"win_probability": float(self.win_probability(s)), "ci95": [lo, hi]}
        kt = self.kill_time()
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
            "elapsed_s": self.elapsed,
            "trials_per_second": trials_per_second,
            "threads": self.threads,
            "backend": self.backend,
        }
