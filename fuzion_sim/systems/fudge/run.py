"""Running FUDGE fights: compile a scenario for the kernel that honours it, run chunks of trials
on it (per trial, or added straight into a tally), and one trial with its event log."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ...engine.outcomes import HIST_SLOTS, Tally, TrialOutcomes
from ...engine.rng import CHUNK, chunk_key
from ..base import Categories, Counter, OutcomeSchema
from . import dispatch, kernel, kernel_duel
from .codes import N_EV_FIELDS, OPT_SHOT_ROLL
from .compile import Plan
from .compile import compile_scenario as _compile
from .kernel_parts import duel_table
from .tables import LEVELS, locations

__all__ = [
    "BREACH_LABELS", "FightPlan", "compile_scenario", "max_slots", "outcome_schema",
    "run_chunk", "run_logged", "schema_of", "tally_chunk",
]  # fmt: skip

#: Most events recorded for a replayed trial.
MAX_EVENTS = 100_000
#: A barrier's state at the end of a fight (the ``breach`` category).
BREACH_LABELS = ("intact", "about_to_breach", "breached")
_NO_TABLE = np.zeros(1, np.int16)
#: How the duel's table packs a shot's three outcomes (one per wound penalty): bits per
#: outcome and the element type, the narrowest that holds the biggest outcome.
_PACKINGS = ((5, np.int16), (10, np.int32), (21, np.int64))


@cache
def schema_of(seconds: float = 3.0) -> OutcomeSchema:
    """What the FUDGE kernels count beyond the shared outcomes: crippled (UA27) per trial;
    the wound level each member ends at (U3), hits taken and parts crippled by location
    (UA26), each barrier's state (UA24); rounds of ``seconds`` (UA2)."""
    parts = tuple(r.part for r in locations())
    return OutcomeSchema(
        unit="round", seconds=float(seconds), per_round=1,
        counters=(Counter("crippled", "crippled", "1 when a part was crippled (UA27)"),),
        categories=(
            Categories("wound_levels", LEVELS, "wound_levels",
                       "the wound level each member ended the fight at (U3)"),
            Categories("location_hits", parts, "hits_by_location",
                       "hits taken by location (UA26)"),
            Categories("crippled_parts", parts, "crippled_by_location",
                       "fights in which each part was crippled (U5, UA27)"),
            Categories("breach", BREACH_LABELS, "breach",
                       "each barrier's state at the end of the fight (UA24)"),
        ),
    )  # fmt: skip


class FightPlan(NamedTuple):
    """A compiled FUDGE fight: the kernel that runs it, its arrays, the duel's shot table and
    its bits per penalty (``kernel_parts.duel_table``), and the time unit's seconds."""

    kernel: str
    arrays: Plan
    table: np.ndarray
    bits: int
    seconds: float

    @property
    def n_combatants(self) -> int:
        return self.arrays.n_combatants

    @property
    def n_sides(self) -> int:
        return self.arrays.n_sides


def compile_scenario(scenario, kernel_name: str | None = None) -> FightPlan:
    """Compile ``scenario`` for the fastest kernel that honours it, or for ``kernel_name``
    (the tests run a duel on the general kernel this way: both give the same numbers).

    Raises
    ------
    ValueError
        If the duel kernel is asked for a fight it does not honour.
    """
    plan = _compile(scenario)
    name = kernel_name or dispatch.kernel_for(plan)
    if name not in dispatch.KERNELS:
        raise ValueError(f"unknown kernel {name!r} (one of {', '.join(dispatch.KERNELS)})")
    if name == "duel" and dispatch.blocking_reasons(plan):
        raise ValueError("the duel kernel does not honour this fight: "
                         + "; ".join(dispatch.blocking_reasons(plan)))  # fmt: skip
    table, bits = _NO_TABLE, 0
    if name == "duel":
        biggest = 2 * int(plan.pair_dmg.max(initial=0)) + 1
        bits, dtype = next((b, t) for b, t in _PACKINGS if biggest < 1 << b)
        table = np.empty(2 * 6561, dtype)
        duel_table(plan.skill, plan.pair_need, plan.pair_bonus, plan.pair_dmg,
                   plan.n_dmg_parts, plan.n_combatants, plan.options[OPT_SHOT_ROLL], bits,
                   table)  # fmt: skip
    return FightPlan(name, plan, table, bits, float(scenario.rules.round_seconds))


def outcome_schema(plan: FightPlan) -> OutcomeSchema:
    return schema_of(plan.seconds)


def max_slots(plan: FightPlan) -> int:
    """The latest round a fight can end in."""
    return int(plan.arrays.max_rounds)


def _outputs(out: TrialOutcomes) -> list:
    return [*out.arrays(), out.counters["crippled"]]


def _categories(out: TrialOutcomes) -> list:
    c = out.categories
    return [c["wound_levels"], c["location_hits"], c["crippled_parts"], c["breach"]]


_TALLY_FIELDS = (
    "outcome_counts", "end_hist", "out_hist", "death_hist", "dealt_sum", "dealt_sq",
    "taken_sum", "taken_sq", "attacks_sum", "landed_sum",
)  # fmt: skip
_NO_TALLY = [np.zeros((1, 1), np.int64) if f.endswith("hist") else np.zeros(1, np.int64)
             for f in _TALLY_FIELDS]  # fmt: skip


def _run(plan: FightPlan, key, first, n, out: TrialOutcomes, log_trial=-1, events=None,
         count=None, tally: Tally | None = None) -> None:  # fmt: skip
    if plan.kernel == "duel" and log_trial < 0:
        extra = [False, *_NO_TALLY] if tally is None else [
            True, *[getattr(tally, f) for f in _TALLY_FIELDS]]  # fmt: skip
        kernel_duel.run_chunk(key, first, n, *plan.arrays, plan.table, plan.bits,
                              *_outputs(out), out.categories["wound_levels"],
                              *extra)  # fmt: skip
        return
    kernel.run_chunk(
        key, first, n, *plan.arrays, *_outputs(out), *_categories(out), log_trial,
        np.zeros((1, N_EV_FIELDS), np.int64) if events is None else events,
        np.zeros(1, np.int64) if count is None else count,
    )  # fmt: skip


def run_chunk(plan: FightPlan, key, first: int, n: int) -> TrialOutcomes:
    """Trials ``first .. first + n - 1`` of the chunk with stream key ``key``."""
    out = TrialOutcomes.empty(n, plan.n_combatants, outcome_schema(plan))
    _run(plan, key, first, n, out)
    return out


def tally_chunk(plan: FightPlan, key, first: int, n: int) -> Tally:
    """The :class:`~fuzion_sim.engine.outcomes.Tally` of trials ``first .. first + n - 1``:
    the duel kernel adds them straight into it (unless a fight may outlast its histograms)."""
    schema = outcome_schema(plan)
    slots = max_slots(plan)
    if plan.kernel != "duel" or slots > HIST_SLOTS:
        return Tally.of(run_chunk(plan, key, first, n), plan.n_sides, slots, schema)
    tally = Tally.zeros(plan.n_sides, plan.n_combatants, slots, schema)
    tally.n_trials = n
    out = TrialOutcomes.empty(0, plan.n_combatants, schema)
    out.categories["wound_levels"] = tally.categories["wound_levels"]
    _run(plan, key, first, n, out, tally=tally)
    return tally


def run_logged(plan: FightPlan, seed: int, trial: int) -> tuple[TrialOutcomes, np.ndarray]:
    """Trial ``trial`` (0-based, of a run seeded ``seed``) alone, on the general kernel, with
    its event log: exactly the trial the bulk run recorded."""
    out = TrialOutcomes.empty(1, plan.n_combatants, outcome_schema(plan))
    events = np.zeros((MAX_EVENTS + 1, N_EV_FIELDS), np.int64)
    count = np.zeros(1, np.int64)
    _run(plan, chunk_key(seed, trial // CHUNK), trial % CHUNK, 1, out, 0, events, count)
    return out, events[: min(int(count[0]), MAX_EVENTS)].copy()
