"""Results made from counts, without running a fight: the oracles of the tables', verdicts'
and plots' degenerate cases (all wins, no wins, all draws, one trial)."""

from __future__ import annotations

import numpy as np


def make_result(counts, end_slot: int = 3, sides=("red", "blue"), unit: str = "phase",
                per_round: int = 4, seconds: float = 3.0, name: str = "fake",
                system: str = "fuzion", rules=None, schema=None, keep: bool = False,
                counters=None):  # fmt: skip
    """A :class:`~fuzion_sim.analysis.result.Result` whose tally holds ``counts`` (trials won
    by each side, then draws, then unresolved), every decisive fight ending in ``end_slot``.

    ``keep``: also per-trial outcomes, the trials in that order (trial k of two such results
    pairs outcome with outcome). ``counters`` (``{name: int array[n, C]}`` per trial with
    ``keep``, else ``int array[C]`` sums) fills the counters."""
    from fuzion_sim.analysis.result import Result
    from fuzion_sim.engine.outcomes import DRAW, UNRESOLVED, Tally, TrialOutcomes

    sides = list(sides)
    combatants = [(f"{s}-1", s) for s in sides]
    tally = Tally.zeros(len(sides), len(combatants), 40, schema)
    counts = np.asarray(counts, np.int64)
    tally.outcome_counts[:] = counts
    tally.n_trials = int(counts.sum())
    for k in range(len(sides) + 2):
        tally.end_hist[k, end_slot] = counts[k]
    for k, (_name, side) in enumerate(combatants):
        # whoever's side lost a decisive fight went out then
        lost = tally.n_trials - counts[sides.index(side)] - counts[-1] - counts[-2]
        tally.out_hist[k, end_slot] = lost
        tally.out_hist[k, 0] = tally.n_trials - lost
        tally.death_hist[k, 0] = tally.n_trials
    outcomes = None
    if keep:
        n, c = tally.n_trials, len(combatants)
        outcomes = TrialOutcomes.empty(n, c, schema)
        codes = [*range(len(sides)), DRAW, UNRESOLVED]
        outcomes.winner[:] = np.repeat(codes, counts)
        outcomes.end_slot[:] = end_slot
        for field in ("out_slot", "death_slot", "dealt", "taken", "attacks", "landed"):
            getattr(outcomes, field)[:] = 0
        for key, values in (counters or {}).items():
            outcomes.counters[key] = np.asarray(values, np.int32)
        counters = {k: np.asarray(v).sum(axis=0) for k, v in (counters or {}).items()}
    for key, values in (counters or {}).items():
        tally.counter_sum[key] = np.asarray(values, np.int64)
    return Result(
        scenario=name, system=system, sides=sides, combatants=combatants,
        rules=dict(rules or {}), seed=1, trials=tally.n_trials, tally=tally,
        time_unit={"unit": unit, "seconds": seconds, "per_round": per_round},
        provenance={"version": "test", "scenario_hash": "0" * 16}, schema=schema,
        outcomes=outcomes,
    )  # fmt: skip
