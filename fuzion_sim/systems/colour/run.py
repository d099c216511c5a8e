"""Running colour fights: compile a scenario for the kernel that honours it (``dispatch``), run
chunks of trials on it, and one trial with its event log."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ...engine.outcomes import HIST_SLOTS, Tally, TrialOutcomes
from ...engine.rng import CHUNK, chunk_key
from ..base import Categories, Counter, OutcomeSchema
from . import dispatch, kernel, kernel_duel, kernel_squad
from .codes import (
    A_AUTOFIRE,
    A_BURST,
    A_CONCENTRATED,
    A_SWEEP,
    AF_KIND,
    AF_ROUNDS,
    COLOUR_NAMES,
    M_N_ACTIONS,
    M_W_RF,
    M_W_ROUNDS,
    MAX_ACTIONS,
    N_EV_FIELDS,
    O_NO_TABLES,
)
from .compile import Plan, compile_plan
from .typed import Counters, Stream, TallyArrays

__all__ = ["FightPlan", "MAX_EVENTS", "compile_scenario", "outcome_schema", "run_chunk",
           "run_logged", "schema_of", "tally_chunk"]  # fmt: skip

#: Most events recorded for a replayed trial.
MAX_EVENTS = 100_000
_NO_LOG = np.zeros((1, N_EV_FIELDS), np.int64)

#: The colour system's counters (per trial and combatant) and categories.
COUNTERS = (
    Counter("unconscious", "unconscious", "alive but out at the fight's end (0 Health or "
            "knocked out)"),
    Counter("dying", "dying", "at the fight's end bleeding or bound to die at Shift 0 "
            "(004 L47-48; no one aids after a fight)"),
    Counter("broken", "limbs_broken", "limbs disabled and still attached (004 L76-77)"),
    Counter("severed", "limbs_severed", "limbs severed (004 L77)"),
)  # fmt: skip
CATEGORIES = (
    Categories("attack_colours", COLOUR_NAMES, "attack_colours",
               "the colours of each combatant's attack rolls"),
    Categories("endurance_rolls", COLOUR_NAMES, "endurance_rolls",
               "the colours of each combatant's Endurance rolls at 0 Health (004 L40-49)"),
)  # fmt: skip


@cache
def schema_of(seconds: float) -> OutcomeSchema:
    """Fights in rounds (CA15) of ``seconds`` each (``rules.round_seconds``)."""
    return OutcomeSchema(unit="round", seconds=float(seconds), per_round=1,
                         counters=COUNTERS, categories=CATEGORIES)  # fmt: skip


class FightPlan(NamedTuple):
    """A compiled colour fight: the kernel that runs it (``dispatch.KERNELS``), its arrays,
    the seconds a round lasts, the rounds each action fires and whether it is a volley
    (int64[C, MAX_ACTIONS]), and what the duel or the squad kernel reads of the tables
    (``kernel_duel.DuelTables``, ``kernel_squad.SquadTables``; empty for another kernel)."""

    kernel: str
    arrays: Plan
    seconds: float
    rounds: np.ndarray
    autofire: np.ndarray
    duel: tuple = ()
    squad: tuple = ()

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
        If ``kernel_name`` is given and does not honour the scenario.
    """
    plan = compile_plan(scenario)
    chosen = dispatch.kernel_for(plan)
    if kernel_name is None:
        kernel_name = chosen
    elif kernel_name not in dispatch.KERNELS:
        raise ValueError(f"unknown kernel {kernel_name!r} (one of {', '.join(dispatch.KERNELS)})")
    elif kernel_name != "general" and dispatch.blocking_reasons(plan, kernel_name):
        why = "; ".join(dispatch.blocking_reasons(plan, kernel_name))
        raise ValueError(f"the {kernel_name} kernel does not honour this fight ({why})")
    rounds, autofire = action_rounds(plan)
    duel = kernel_duel.duel_tables(plan, rounds, autofire) if kernel_name == "duel" else ()
    squad = kernel_squad.squad_tables(plan, rounds, autofire) if kernel_name == "squad" else ()
    return FightPlan(kernel_name, plan, float(scenario.rules.round_seconds), rounds, autofire,
                     duel, squad)  # fmt: skip


def action_rounds(plan: Plan) -> tuple[np.ndarray, np.ndarray]:
    """The rounds each action of a turn fires when every round is there (``kernel.do_action``
    without a magazine) and whether it is an autofire volley."""
    n = plan.n_combatants
    rounds = np.ones((n, MAX_ACTIONS), np.int64)
    autofire = np.zeros((n, MAX_ACTIONS), np.int64)
    for c in range(n):
        left = int(plan.mem[c, M_W_ROUNDS])
        rapid = plan.mem[c, M_W_RF] != 0
        for j in range(int(plan.mem[c, M_N_ACTIONS])):
            kind = int(plan.acts[c, j, AF_KIND])
            if kind == A_BURST:
                need = 3
            elif kind in (A_AUTOFIRE, A_SWEEP, A_CONCENTRATED):
                need = int(plan.acts[c, j, AF_ROUNDS]) or left
            else:
                need = 1 if rapid else 0
            rounds[c, j] = max(need, 1)
            autofire[c, j] = int(kind == A_AUTOFIRE)
            left -= need
    return rounds, autofire


def outcome_schema(plan: FightPlan) -> OutcomeSchema:
    return schema_of(plan.seconds)


def _counters(out: TrialOutcomes) -> Counters:
    return Counters(*(out.counters[name] for name in Counters._fields))


def _categories(out: TrialOutcomes) -> tuple[np.ndarray, np.ndarray]:
    return out.categories["attack_colours"], out.categories["endurance_rolls"]


#: The tally arguments of a kernel that writes per-trial outputs instead (``accumulate`` off).
_NO_TALLY = (np.zeros(1, np.int64), np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64),
             np.zeros((1, 1), np.int64))  # fmt: skip
#: Columns of the per-combatant sums of the duel and the squad kernels (``_add_sums``).
_SUM_COLUMNS = {"duel": 8, "squad": 12}


def _run(plan: FightPlan, key, first: int, n: int, out: TrialOutcomes, log_trial=-1,
         events=None, count=None, tally: Tally | None = None) -> None:  # fmt: skip
    a = plan.arrays
    if plan.kernel in _SUM_COLUMNS and log_trial < 0:
        sums = np.zeros((plan.n_combatants, _SUM_COLUMNS[plan.kernel]), np.int64)
        if tally is None:
            stream = Stream(False, TallyArrays(*_NO_TALLY, sums))
        else:
            stream = Stream(True, TallyArrays(tally.outcome_counts, tally.end_hist, tally.out_hist,
                                             tally.death_hist, sums))  # fmt: skip
        fight = kernel_duel if plan.kernel == "duel" else kernel_squad
        tables = plan.duel if plan.kernel == "duel" else plan.squad
        fight.run_chunk(key, first, n, a, tables, out.arrays(), _counters(out), *_categories(out),
                        stream)  # fmt: skip
        if tally is not None:
            _add_sums(tally, sums)
        return
    if log_trial >= 0:  # a replay works every attack out rule by rule, for its events
        opts = a.opts.copy()
        opts[O_NO_TABLES] = 1
        a = a._replace(opts=opts)
    kernel.run_chunk(key, first, n, a, out.arrays(), _counters(out), *_categories(out), log_trial,
                     _NO_LOG if events is None else events,
                     np.zeros(1, np.int64) if count is None else count)  # fmt: skip


def _add_sums(tally: Tally, sums: np.ndarray) -> None:
    """A streamed chunk's per-combatant sums (``kernel_duel._trials``,
    ``kernel_squad._trials``) into ``tally``: unconscious and dying are 0 or 1 a trial, so
    their squares sum to their sums; the squad kernel's limbs (broken, severed) have theirs."""
    tally.dealt_sum += sums[:, 0]
    tally.dealt_sq += sums[:, 1]
    tally.taken_sum += sums[:, 2]
    tally.taken_sq += sums[:, 3]
    tally.attacks_sum += sums[:, 4]
    tally.landed_sum += sums[:, 5]
    for name, col in (("unconscious", 6), ("dying", 7)):
        tally.counter_sum[name] += sums[:, col]
        tally.counter_sq[name] += sums[:, col]
    if sums.shape[1] > 8:
        for name, col in (("broken", 8), ("severed", 9)):
            tally.counter_sum[name] += sums[:, col]
            tally.counter_sq[name] += sums[:, col + 2]


def run_chunk(plan: FightPlan, key, first: int, n: int) -> TrialOutcomes:
    """Run trials ``first .. first + n - 1`` of the chunk with stream key ``key``."""
    out = TrialOutcomes.empty(n, plan.n_combatants, outcome_schema(plan))
    _run(plan, key, first, n, out)
    return out


def tally_chunk(plan: FightPlan, key, first: int, n: int) -> Tally | None:
    """The :class:`~fuzion_sim.engine.outcomes.Tally` of trials ``first .. first + n - 1``
    without keeping them, for a fight whose kernel adds them straight into it (the duel
    and squad kernels, when no fight can outlast the tally's histograms); None otherwise (the engine
    tallies :func:`run_chunk`'s outcomes)."""
    slots = max_slots(plan)
    if plan.kernel not in _SUM_COLUMNS or slots > HIST_SLOTS:
        return None
    schema = outcome_schema(plan)
    tally = Tally.zeros(plan.n_sides, plan.n_combatants, slots, schema)
    tally.n_trials = n
    out = TrialOutcomes.empty(0, plan.n_combatants, schema)
    out.categories.update(tally.categories)  # the kernel adds the categories into the tally
    _run(plan, key, first, n, out, tally=tally)
    return tally


def run_logged(plan: FightPlan, seed: int, trial: int) -> tuple[TrialOutcomes, np.ndarray]:
    """Trial ``trial`` (0-based, of a run seeded ``seed``) alone with its event log: its
    outcome row and its events (int64[n, N_EV_FIELDS]); exactly the bulk run's trial."""
    out = TrialOutcomes.empty(1, plan.n_combatants, outcome_schema(plan))
    events = np.zeros((MAX_EVENTS + 1, N_EV_FIELDS), np.int64)
    count = np.zeros(1, np.int64)
    key = chunk_key(seed, trial // CHUNK)
    _run(plan, key, trial % CHUNK, 1, out, 0, events, count)
    return out, events[: min(int(count[0]), MAX_EVENTS)].copy()


def max_slots(plan: FightPlan) -> int:
    """The latest round a fight can end at."""
    return int(plan.arrays.max_rounds)
