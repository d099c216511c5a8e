"""The Fuzion rule system (seed 000): compile, rules, kernel, exact, narrate."""

from __future__ import annotations

from ...engine.outcomes import TrialOutcomes
from .compile import Plan, compile_scenario
from .kernel import run_chunk as _kernel

__all__ = ["NAME", "compile_scenario", "run_chunk", "n_sides", "max_slots", "time_unit"]

NAME = "fuzion"


def run_chunk(plan: Plan, key, first: int, n: int) -> TrialOutcomes:
    """Run trials ``first .. first + n - 1`` of the chunk with stream key ``key``."""
    out = TrialOutcomes.empty(n, plan.n_combatants)
    _kernel(key, first, n, *plan, *out.arrays())
    return out


def n_sides(plan: Plan) -> int:
    return plan.n_sides


def max_slots(plan: Plan) -> int:
    return plan.max_slots


def time_unit(plan: Plan) -> dict:
    """The kernel's time slot: its name, seconds per slot and slots per 12-second round."""
    return {"unit": "phase", "seconds": 3.0, "per_round": plan.slots_per_round}
