"""Running FUDGE fights: compile a scenario for the fastest kernel that honours it, run chunks of
trials on it (per trial, or added straight into a tally), and one trial with its event log."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ...engine.outcomes import HIST_SLOTS, Streamed, Tally, TrialOutcomes
from ...engine.rng import CHUNK, chunk_key
from ..base import Categories, Counter, OutcomeSchema
from . import dispatch, kernel, kernel_battle, kernel_duel
from .codes import KIND_MEMBER, N_EV_FIELDS, OPT_SHOT_ROLL, T_NEAREST
from .compile import Plan
from .compile import compile_scenario as _compile
from .kernel_parts import shot_table
from .tables import LEVELS, locations

__all__ = [
    "BREACH_LABELS", "BattleArrays", "FightPlan", "compile_scenario", "max_slots",
    "outcome_schema", "run_chunk", "run_logged", "schema_of", "tally_chunk",
]  # fmt: skip

#: Most events recorded for a replayed trial.
MAX_EVENTS = 100_000
#: A barrier's state at the end of a fight (the ``breach`` category).
BREACH_LABELS = ("intact", "about_to_breach", "breached")
_NO_TABLE = np.zeros(1, np.int16)
#: How a shot table packs a shot's three outcomes (one per wound penalty): bits per
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


class BattleArrays(NamedTuple):
    """What the battle kernel reads beyond the plan (``kernel_battle.run_chunk``): the
    shooters in listed order and in initiative order (ties by listing), the bounds of the
    initiative groups in the latter, each member's priority list of enemies (``list_of``;
    list ``l`` is ``foe[list_start[l]:list_start[l + 1]]``), and where a pair's shots are in
    the shot table: ``shot_at[shot_row[a] + shot_col[t]]`` (members whose rows, or columns,
    of shot classes (``dispatch.shot_classes``) are alike share a row, or a column)."""

    shooters: np.ndarray
    order0: np.ndarray
    groups: np.ndarray
    list_of: np.ndarray
    list_start: np.ndarray
    foe: np.ndarray
    shot_row: np.ndarray
    shot_col: np.ndarray
    shot_at: np.ndarray


class FightPlan(NamedTuple):
    """A compiled FUDGE fight: the kernel that runs it, its arrays, the shot table of the duel
    or the battle and its bits per penalty (``kernel_parts.shot_table``), the time unit's
    seconds, and the battle kernel's arrays (None for another kernel)."""

    kernel: str
    arrays: Plan
    table: np.ndarray
    bits: int
    seconds: float
    battle: BattleArrays | None = None

    @property
    def n_combatants(self) -> int:
        return self.arrays.n_combatants

    @property
    def n_sides(self) -> int:
        return self.arrays.n_sides


def _battle_arrays(plan: Plan, shot_class: np.ndarray) -> BattleArrays:
    """The battle kernel's arrays of ``plan``: each member's enemies it may shoot in the order
    its tactic prefers them (listed, or nearest first and then listed: the general kernel's
    choice among those who can act is the first of them), members with the same list
    sharing it."""
    n = plan.n_combatants
    shooters = np.flatnonzero(plan.shooter).astype(np.int64)
    order0 = shooters[np.argsort(-plan.initiative[shooters], kind="stable")]
    init = plan.initiative[order0]
    groups = np.concatenate([[0], np.flatnonzero(init[1:] != init[:-1]) + 1, [len(order0)]])
    lists: dict[tuple, int] = {}
    list_of = np.zeros(n, np.int64)
    for a in shooters:
        foes = [t for t in range(n) if plan.pair_ok[a * n + t] and plan.kind[t] == KIND_MEMBER]
        if plan.targeting[a] == T_NEAREST:
            foes.sort(key=lambda t: plan.pair_dist[a * n + t])  # stable: then listed order
        list_of[a] = lists.setdefault(tuple(foes), len(lists))
    sizes = [len(f) for f in lists]
    foe = np.array([t for f in lists for t in f], np.int64)
    cls = shot_class.reshape(n, n)
    _, row = np.unique(cls, axis=0, return_inverse=True)
    _, col = np.unique(cls.T, axis=0, return_inverse=True)
    row, col = row.reshape(-1), col.reshape(-1)
    width = int(col.max()) + 1
    shot_at = np.zeros((int(row.max()) + 1) * width, np.int64)
    shot_at[row[:, None] * width + col[None, :]] = np.maximum(cls, 0) * 6561
    return BattleArrays(shooters, order0.astype(np.int64), groups.astype(np.int64), list_of,
                        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64), foe,
                        (row * width).astype(np.int64), col.astype(np.int64),
                        shot_at)  # fmt: skip


def compile_scenario(scenario, kernel_name: str | None = None) -> FightPlan:
    """Compile ``scenario`` for the fastest kernel that honours it, or for ``kernel_name``
    (the tests run a duel on the general kernel this way: both give the same numbers).

    Raises
    ------
    ValueError
        If the duel or battle kernel is asked for a fight it does not honour.
    """
    plan = _compile(scenario)
    name = kernel_name or dispatch.kernel_for(plan)
    if name not in dispatch.KERNELS:
        raise ValueError(f"unknown kernel {name!r} (one of {', '.join(dispatch.KERNELS)})")
    if name != "general" and dispatch.blocking_reasons(plan, name):
        raise ValueError(f"the {name} kernel does not honour this fight: "
                         + "; ".join(dispatch.blocking_reasons(plan, name)))  # fmt: skip
    table, bits, battle = _NO_TABLE, 0, None
    if name != "general":
        if name == "duel":
            pairs = np.array([[0, 1], [1, 0]], np.int64)
        else:
            pairs, shot_class = dispatch.shot_classes(plan)
            battle = _battle_arrays(plan, shot_class)
        biggest = 2 * int(plan.pair_dmg.max(initial=0)) + 1
        bits, dtype = next((b, t) for b, t in _PACKINGS if biggest < 1 << b)
        table = np.empty(max(len(pairs), 1) * 6561, dtype)
        shot_table(plan.skill, plan.pair_need, plan.pair_bonus, plan.pair_dmg,
                   plan.n_dmg_parts, plan.n_combatants, plan.options[OPT_SHOT_ROLL], bits,
                   np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1]),
                   table)  # fmt: skip
    return FightPlan(name, plan, table, bits, float(scenario.rules.round_seconds), battle)


def outcome_schema(plan: FightPlan) -> OutcomeSchema:
    return schema_of(plan.seconds)


def max_slots(plan: FightPlan) -> int:
    """The latest round a fight can end in."""
    return int(plan.arrays.max_rounds)


def _counts(out: TrialOutcomes) -> kernel.Counts:
    c = out.categories
    return kernel.Counts(out.counters["crippled"], c["wound_levels"], c["location_hits"],
                         c["crippled_parts"], c["breach"])  # fmt: skip


def _run(plan: FightPlan, key, first, n, out: TrialOutcomes, log_trial=-1, events=None,
         count=None, tally: Tally | None = None) -> None:  # fmt: skip
    if plan.kernel != "general" and log_trial < 0:
        outputs = (out.arrays(), out.counters["crippled"], out.categories["wound_levels"],
                   Streamed.into(tally))  # fmt: skip
        p = plan.arrays
        if plan.kernel == "duel":
            kernel_duel.run_chunk(key, first, n, p.n_sides, p.max_rounds, p.options,
                                  p.initiative, p.side, p.width, p.dead_at, plan.table,
                                  plan.bits, *outputs)  # fmt: skip
        else:
            kernel_battle.run_chunk(key, first, n, p.n_combatants, p.n_sides, p.max_rounds,
                                    p.options, p.side, p.width, p.dead_at, plan.battle,
                                    plan.table, plan.bits, *outputs)  # fmt: skip
        return
    kernel.run_chunk(
        key, first, n, plan.arrays, out.arrays(), _counts(out), log_trial,
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
    the duel and battle kernels add them straight into it (unless a fight may outlast its
    histograms)."""
    schema = outcome_schema(plan)
    slots = max_slots(plan)
    if plan.kernel == "general" or slots > HIST_SLOTS:
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
