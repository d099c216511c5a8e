"""The Fuzion rule system (seed 000): compile, rules, kernel, exact, narrate."""

from __future__ import annotations

import numpy as np

from ...engine.outcomes import TrialOutcomes
from ...engine.rng import CHUNK, chunk_key
from . import kernel, kernel_standing
from .compile import Plan, StandingPlan, standing_plan
from .compile import compile_scenario as _compile
from .kernel import N_EV_FIELDS

#: Most events recorded for a replayed trial.
MAX_EVENTS = 100_000
_NO_LOG = np.zeros((1, N_EV_FIELDS), np.int64)

__all__ = [
    "NAME",
    "compile_scenario",
    "location_names",
    "max_slots",
    "n_sides",
    "run_chunk",
    "run_logged",
    "time_unit",
]

NAME = "fuzion"


def compile_scenario(scenario, standing: bool = True) -> Plan | StandingPlan:
    """Compile ``scenario``; a standing fight (``compile.standing_plan``) gets the standing
    kernel unless ``standing`` is False (the general kernel then runs it, with the same
    numbers: the tests hold the two to each other)."""
    plan = _compile(scenario)
    fast = standing_plan(plan) if standing else None
    return plan if fast is None else fast


def _kernel_of(plan):
    return kernel_standing.run_chunk if isinstance(plan, StandingPlan) else kernel.run_chunk


def run_chunk(plan: Plan | StandingPlan, key, first: int, n: int) -> TrialOutcomes:
    """Run trials ``first .. first + n - 1`` of the chunk with stream key ``key``."""
    out = TrialOutcomes.empty(n, plan.n_combatants)
    _kernel_of(plan)(key, first, n, *plan, *out.arrays(), -1, _NO_LOG, np.zeros(1, np.int64))
    return out


def run_logged(
    plan: Plan | StandingPlan, seed: int, trial: int
) -> tuple[TrialOutcomes, np.ndarray]:
    """Run trial ``trial`` (0-based, of a run seeded ``seed``) alone with its event log.

    Every trial starts from its own stream (``engine.rng``), so this is exactly the trial the
    bulk run recorded. Returns its outcome row and the events (int64[n, N_EV_FIELDS]).
    """
    out = TrialOutcomes.empty(1, plan.n_combatants)
    events = np.zeros((MAX_EVENTS + 1, N_EV_FIELDS), np.int64)  # + a scratch row
    count = np.zeros(1, np.int64)
    key = chunk_key(seed, trial // CHUNK)
    _kernel_of(plan)(key, trial % CHUNK, 1, *plan, *out.arrays(), 0, events, count)
    return out, events[: min(int(count[0]), MAX_EVENTS)].copy()


def location_names() -> list[str]:
    """Names of the hit locations counted in ``Tally.location_hits`` (F27 table order)."""
    from .tables import hit_locations

    return list(hit_locations().names)


def n_sides(plan: Plan) -> int:
    return plan.n_sides


def max_slots(plan: Plan) -> int:
    """Largest reported time (in units) a fight can end at."""
    return (plan.max_slots - 1) // plan.slots_per_unit + 1


def time_unit(plan: Plan) -> dict:
    """The reported time unit: its name, seconds per unit and units per 12-second round."""
    per_round = plan.slots_per_round // plan.slots_per_unit
    return {"unit": "segment" if per_round == 12 else "phase", "seconds": 12.0 / per_round,
            "per_round": per_round}  # fmt: skip
