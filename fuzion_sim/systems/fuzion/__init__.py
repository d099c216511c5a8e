"""The Fuzion rule system (seed 000): compile, rules, kernel, exact, narrate."""

from __future__ import annotations

import numpy as np

from ...engine.outcomes import HIST_SLOTS, Tally, TrialOutcomes
from ...engine.rng import CHUNK, chunk_key
from . import kernel, kernel_duel, kernel_squad, kernel_standing
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
    "tally_chunk",
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


def _in_phases(plan) -> bool:
    """A standing fight under ``timing: phases`` (everyone acts once a phase), nobody
    surprised."""
    return (
        isinstance(plan, StandingPlan)
        and plan.slots_per_round == 4
        and plan.slots_per_unit == 1
        and plan.start_slot == 0
        and plan.options[kernel.OPT_RECOVERY_SLOT] < 0
        and not plan.surprised.any()
    )


def is_duel(plan) -> bool:
    """A standing fight of one against one in phases, nobody surprised: the duel kernel's case
    (``kernel_duel``)."""
    return _in_phases(plan) and plan.n_combatants == 2 and plan.n_sides == 2


def is_squad(plan) -> bool:
    """A standing fight in phases, nobody surprised, initiative not rolled each phase (F9
    switch2): the squad kernel's case (``kernel_squad``)."""
    return _in_phases(plan) and not plan.options[kernel.OPT_SWITCH2]


def _tally_args(tally: Tally | None) -> list:
    """The standing and duel kernels' last arguments: accumulate into ``tally``, or not at
    all (None)."""
    if tally is None:
        return [False, *_NO_TALLY]
    return [True, *[getattr(tally, f) for f in _TALLY_FIELDS]]


def _run(plan, key, first: int, n: int, out: TrialOutcomes, log_trial=-1, events=None,
         count=None, tally: Tally | None = None) -> None:  # fmt: skip
    """Run the plan's kernel: the duel, standing or general one."""
    args = (key, first, n, *plan, *out.arrays(), log_trial,
            _NO_LOG if events is None else events,
            np.zeros(1, np.int64) if count is None else count)  # fmt: skip
    if not isinstance(plan, StandingPlan):
        kernel.run_chunk(*args)
    elif is_duel(plan) and log_trial < 0:  # the duel and squad kernels keep no event log
        kernel_duel.run_chunk(*args, *_tally_args(tally))
    elif is_squad(plan) and log_trial < 0:
        kernel_squad.run_chunk(*args, *_tally_args(tally))
    else:
        kernel_standing.run_chunk(*args, *_tally_args(tally))


#: The Tally arrays the standing and duel kernels add into (in their argument order).
_TALLY_FIELDS = (
    "outcome_counts", "end_hist", "out_hist", "death_hist", "dealt_sum", "dealt_sq",
    "taken_sum", "taken_sq", "attacks_sum", "landed_sum",
)  # fmt: skip
_NO_TALLY = [np.zeros((1, 1), np.int64) if f.endswith("hist") else np.zeros(1, np.int64)
             for f in _TALLY_FIELDS]  # fmt: skip


def run_chunk(plan: Plan | StandingPlan, key, first: int, n: int) -> TrialOutcomes:
    """Run trials ``first .. first + n - 1`` of the chunk with stream key ``key``."""
    out = TrialOutcomes.empty(n, plan.n_combatants)
    _run(plan, key, first, n, out)
    return out


def tally_chunk(plan: Plan | StandingPlan, key, first: int, n: int, n_sides: int, max_slots: int):
    """The :class:`~fuzion_sim.engine.outcomes.Tally` of trials ``first .. first + n - 1``
    without keeping them: the standing and duel kernels add them straight into the tally
    (not when a fight may outlast the tally's histograms, which they index by time)."""
    if not isinstance(plan, StandingPlan) or max_slots > HIST_SLOTS:
        return Tally.of(run_chunk(plan, key, first, n), n_sides, max_slots)
    tally = Tally.zeros(n_sides, plan.n_combatants, max_slots)
    tally.n_trials = n
    _run(plan, key, first, n, TrialOutcomes.empty(0, plan.n_combatants), tally=tally)
    return tally


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
    _run(plan, key, trial % CHUNK, 1, out, 0, events, count)
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
