"""Running Fuzion fights: compile a scenario for the kernel that honours it, run chunks of
trials on it (per trial, or added straight into a tally), and one trial with its event log.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ...engine.outcomes import HIST_SLOTS, Tally, TrialOutcomes
from ...engine.rng import CHUNK, chunk_key
from ..base import Categories, Counter, OutcomeSchema
from . import dispatch, kernel, kernel_duel, kernel_squad, kernel_standing
from .codes import N_EV_FIELDS
from .compile import Motion, Plan, StandingPlan, motion, standing_plan
from .compile import compile_scenario as _compile
from .tables import hit_locations

__all__ = [
    "FightPlan",
    "compile_scenario",
    "kernel_outputs",
    "max_slots",
    "n_sides",
    "outcome_schema",
    "run_chunk",
    "run_logged",
    "tally_chunk",
]

#: Most events recorded for a replayed trial.
MAX_EVENTS = 100_000
_NO_LOG = np.zeros((1, N_EV_FIELDS), np.int64)


@cache
def schema_of(unit: str = "phase", per_round: int = 4) -> OutcomeSchema:
    """What the Fuzion kernels count beyond the shared outcomes (knockback units taken per
    trial, F28; hits taken by location, F27) and the time unit fights are reported in."""
    return OutcomeSchema(
        unit=unit, seconds=12.0 / per_round, per_round=per_round,
        counters=(Counter("knock", "knockback", "knockback units taken (F28)"),),
        categories=(Categories("location_hits", tuple(hit_locations().names),
                               "hits_by_location", "hits taken by location (F27)"),),
    )  # fmt: skip


SCHEMA = schema_of()

_KERNELS = {"duel": kernel_duel, "squad": kernel_squad, "standing": kernel_standing}


class FightPlan(NamedTuple):
    """A compiled Fuzion fight: the kernel that runs it (``dispatch.KERNELS``) and its arrays
    (a :class:`~.compile.Plan` for the general kernel, a :class:`~.compile.StandingPlan` for
    the others); the squad kernel's :class:`~.compile.Motion`; and, when the standing kernel
    (which keeps the event log of a specialised fight) cannot run it, the general kernel's
    plan for a logged trial."""

    kernel: str
    arrays: Plan | StandingPlan
    motion: Motion | None = None
    logged: Plan | None = None

    @property
    def n_combatants(self) -> int:
        return self.arrays.n_combatants

    @property
    def n_sides(self) -> int:
        return self.arrays.n_sides


def compile_scenario(scenario, kernel: str | None = None) -> FightPlan:
    """Compile ``scenario`` for the fastest kernel that honours every key it uses
    (``dispatch.kernel_for``), or for ``kernel`` when given (the tests run a fight on the
    general kernel this way: every kernel gives the same numbers).

    Raises
    ------
    ValueError
        If ``kernel`` is given and does not honour the scenario.
    """
    plan = _compile(scenario)
    if kernel is None:
        kernel = dispatch.kernel_for(plan)
    elif kernel not in dispatch.KERNELS:
        raise ValueError(f"unknown kernel {kernel!r} (one of {', '.join(dispatch.KERNELS)})")
    elif dispatch.blocking_keys(plan, kernel):
        blocked = ", ".join(dispatch.blocking_keys(plan, kernel))
        raise ValueError(f"the {kernel} kernel does not honour {blocked} in this fight")
    if kernel == "general":
        return FightPlan(kernel, plan)
    stands = not dispatch.blocking_keys(plan, "standing")
    return FightPlan(
        kernel,
        standing_plan(plan),
        motion(plan, moving=not dispatch.nobody_moves(plan)) if kernel == "squad" else None,
        None if stands else plan,
    )


def _tally_args(tally: Tally | None) -> list:
    """The standing kernels' last arguments: accumulate into ``tally``, or not at all (None)."""
    if tally is None:
        return [False, *_NO_TALLY]
    return [True, *[getattr(tally, f) for f in _TALLY_FIELDS]]


def _run(plan: FightPlan, key, first: int, n: int, out: TrialOutcomes, log_trial=-1,
         events=None, count=None, tally: Tally | None = None) -> None:  # fmt: skip
    """Run the plan's kernel (a logged trial: the standing kernel, which keeps the event log
    and draws the same numbers as the duel and squad kernels, or the general kernel where the
    standing kernel cannot run the fight)."""
    tail = (*kernel_outputs(out), log_trial, _NO_LOG if events is None else events,
            np.zeros(1, np.int64) if count is None else count)  # fmt: skip
    args = (key, first, n, *plan.arrays, *tail)
    if plan.kernel == "general":
        kernel.run_chunk(*args)
    elif log_trial >= 0 and plan.logged is not None:
        kernel.run_chunk(key, first, n, *plan.logged, *tail)
    elif log_trial >= 0:
        kernel_standing.run_chunk(*args, *_tally_args(tally))
    elif plan.kernel == "squad":
        kernel_squad.run_chunk(*args, *_tally_args(tally), *plan.motion)
    else:
        _KERNELS[plan.kernel].run_chunk(*args, *_tally_args(tally))


#: The Tally arrays the standing kernels add into (in their argument order).
_TALLY_FIELDS = (
    "outcome_counts", "end_hist", "out_hist", "death_hist", "dealt_sum", "dealt_sq",
    "taken_sum", "taken_sq", "attacks_sum", "landed_sum",
)  # fmt: skip
_NO_TALLY = [np.zeros((1, 1), np.int64) if f.endswith("hist") else np.zeros(1, np.int64)
             for f in _TALLY_FIELDS]  # fmt: skip


def kernel_outputs(out: TrialOutcomes) -> list:
    """The outputs every Fuzion kernel writes, in their argument order: the shared arrays,
    knockback units (F28) and hits by location (F27)."""
    return [*out.arrays(), out.counters["knock"], out.categories["location_hits"]]


def run_chunk(plan: FightPlan, key, first: int, n: int) -> TrialOutcomes:
    """Run trials ``first .. first + n - 1`` of the chunk with stream key ``key``."""
    out = TrialOutcomes.empty(n, plan.n_combatants, SCHEMA)
    _run(plan, key, first, n, out)
    return out


def tally_chunk(plan: FightPlan, key, first: int, n: int):
    """The :class:`~fuzion_sim.engine.outcomes.Tally` of trials ``first .. first + n - 1``
    without keeping them: the standing kernels add them straight into the tally (not when a
    fight may outlast the tally's histograms, which they index by time)."""
    slots = max_slots(plan)
    if plan.kernel == "general" or slots > HIST_SLOTS:
        return Tally.of(run_chunk(plan, key, first, n), plan.n_sides, slots, SCHEMA)
    tally = Tally.zeros(plan.n_sides, plan.n_combatants, slots, SCHEMA)
    tally.n_trials = n
    _run(plan, key, first, n, TrialOutcomes.empty(0, plan.n_combatants, SCHEMA), tally=tally)
    return tally


def run_logged(plan: FightPlan, seed: int, trial: int) -> tuple[TrialOutcomes, np.ndarray]:
    """Run trial ``trial`` (0-based, of a run seeded ``seed``) alone with its event log.

    Every trial starts from its own stream (``engine.rng``), so this is exactly the trial the
    bulk run recorded. Returns its outcome row and the events (int64[n, N_EV_FIELDS]).
    """
    out = TrialOutcomes.empty(1, plan.n_combatants, SCHEMA)
    events = np.zeros((MAX_EVENTS + 1, N_EV_FIELDS), np.int64)  # + a scratch row
    count = np.zeros(1, np.int64)
    key = chunk_key(seed, trial // CHUNK)
    _run(plan, key, trial % CHUNK, 1, out, 0, events, count)
    return out, events[: min(int(count[0]), MAX_EVENTS)].copy()


def n_sides(plan: FightPlan) -> int:
    return plan.n_sides


def max_slots(plan: FightPlan) -> int:
    """Largest reported time (in units) a fight can end at."""
    arrays = plan.arrays
    return (arrays.max_slots - 1) // arrays.slots_per_unit + 1


def outcome_schema(plan: FightPlan) -> OutcomeSchema:
    """The plan's reported time unit (a phase, or a segment of the speed chart: twelve to the
    12-second round) and the Fuzion extras."""
    per_round = plan.arrays.slots_per_round // plan.arrays.slots_per_unit
    return schema_of("segment" if per_round == 12 else "phase", per_round)
