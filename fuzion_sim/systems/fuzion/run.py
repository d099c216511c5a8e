"""Running Fuzion fights: compile a scenario for the kernel that honours it, run chunks of
trials on it (per trial, or added straight into a tally), and one trial with its event log.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ...engine.outcomes import HIST_SLOTS, Streamed, Tally, TrialOutcomes
from ...engine.rng import CHUNK, chunk_key
from ..base import Categories, Counter, OutcomeSchema
from . import codes, dispatch, kernel, kernel_duel, kernel_duel_plain, kernel_squad, kernel_standing
from . import tactics as tx
from .codes import DO_ON, IO_ANY, IO_BLOCK, MO_ANY, N_EV_FIELDS, OPT_ANY_HAZARD, OPT_ANY_MISSILE
from .compile import (
    ARM_FLOAT_FIELDS,
    ARM_INT_FIELDS,
    DuelPlan,
    Motion,
    Plan,
    StandingPlan,
    duel_plan,
    motion,
    standing_plan,
)
from .compile import compile_scenario as _compile
from .features.scene.terrain import TZ_HEADER
from .tables import hit_locations, vehicle_location_names

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


#: What the kernels count for a fight with a vehicle (M-27, VA-10), beyond the rest.
VEHICLE_COUNTERS = (
    Counter("immobilised", "immobilised", "1 when the vehicle was immobilised (VA-10)",
            percent=True),
    Counter("uncontrolled", "uncontrolled", "1 when the vehicle was made uncontrollable",
            percent=True),
    Counter("crits", "critical_locations", "critical locations destroyed (F31, M-27)"),
    Counter("crit_any", "critically_hit", "1 when a critical location was destroyed",
            percent=True),
    Counter("crit_time", "first_critical_time", "the time unit its first critical location "
            "was destroyed, over the fights in which one was", per="crit_any"),
)
#: What the kernels add up per vehicle location (``tables.vehicle_location_names``).
VEHICLE_CATEGORIES = (
    Categories("vehicle_location_hits", vehicle_location_names(), "vehicle_hits_by_location",
               "hits a vehicle took by location (F31)"),
    Categories("vehicle_location_damage", vehicle_location_names(),
               "vehicle_damage_by_location",
               "damage a vehicle took by location, after armour and the row's multiplier "
               "(SDP, or tenths of a Kill; the crew row: what reached the pilot)"),
)
#: What the general kernel counts for a fight with a missile weapon (F18, M-42 to M-45).
MISSILE_COUNTERS = (
    Counter("missiles_hit", "missiles_hit", "missiles that hit it (F18, M-45)"),
    Counter("engagements", "missile_engagements", "missile engagements against it (launches "
            "that engaged it)"),
    Counter("evaded", "missiles_evaded", "missile engagements it evaded without a hit"),
)
#: What the general kernel counts in a fight with an obstacle or a drop (M-40, M-60).
IMPACT_COUNTERS = (
    Counter("falls", "falls", "falls it took (a jump, or knocked off a ledge; M-60, M-72)"),
    Counter("collisions", "collisions", "knockbacks of it into an obstacle (M-40, VA-41)"),
    Counter(
        "impact",
        "impact_damage",
        "damage its falls and collisions did through its defences (VA-37)",
    ),
    Counter("broke", "walls_broken", "obstacles it was knocked through (their structure gone)"),
    Counter("fell", "fell", "1 when it fell at least once", percent=True),
)

#: What the general kernel counts for a fight with a hazard zone, a poison or a push (M-67 to
#: M-71, M-75).
HAZARD_COUNTERS = (
    Counter("hazard_damage", "hazard_damage", "damage taken from hazards: fire and electricity "
            "through armour, asphyxiation, poison (VA-46 to VA-48)"),
    Counter("hazard_phases", "hazard_phases", "phases it ended inside a hazard zone"),
    Counter("hazard_out", "out_by_hazard", "1 when a hazard put it out of the fight",
            percent=True),
    Counter("breath_out", "out_of_breath", "1 when its breath ran out in an asphyxiating zone "
            "(VA-47)", percent=True),
    Counter("breathless", "out_of_breath_time", "the time unit its breath ran out (its first "
            "3d6 of asphyxiation), over the fights in which it did", per="breath_out"),
)

#: What the general kernel counts when a vehicle's tactics drive it (features/motion/room.py, M-46
#: to M-66).
MOTION_COUNTERS = (
    Counter("lost_control", "lost_control", "times it lost control (a missed manoeuvre or ram: "
            "M-47 to M-51)"),
    Counter("spins", "spins", "of those, spins (a ground spin, or an aircraft's)"),
    Counter("rams", "rams", "rams it landed (VA-40)"),
    Counter("crashes", "crashes", "collisions it was in at speed: a ram either way, an obstacle "
            "it drove into, the ground (M-62 to M-66)"),
)
#: What the general kernel counts in a fight where a tactic names ``dogfight`` (M-53 to M-58).
DOGFIGHT_COUNTERS = (
    Counter("dogfight_rolls", "dogfight_rolls", "dogfight rolls it made (M-54; every phase, or "
            "round under dogfight_cadence: round, while engaged)"),
    Counter("dogfight_won", "dogfight_won", "dogfight rolls it won: the Advantage or tailing "
            "(VA-32)"),
    Counter("dogfight_tail", "tailing", "dogfight rolls it won by the tailing margin (+2 to "
            "its attack on the loser, M-56)"),
    Counter("broke_off", "broke_off", "1 when it broke off the dogfight and left the fight "
            "(an escape, or mutual agreement; VA-34)", percent=True),
)


@cache
def schema_of(unit: str = "phase", per_round: int = 4, vehicles: bool = False,
              missiles: bool = False, impacts: bool = False,
              hazards: bool = False, motion: bool = False,
              dogfights: bool = False) -> OutcomeSchema:  # fmt: skip
    """What the Fuzion kernels count beyond the shared outcomes (knockback units taken per
    trial, F28; hits taken by location, F27; with a vehicle in the fight, whether each was
    immobilised or made uncontrollable, its critical locations destroyed and its hits by
    vehicle location, M-22 to M-30; with a missile weapon, the missiles that hit each and the
    engagements it met and evaded, F18; with an obstacle or a drop, the falls and collisions)
    and the time unit fights are reported in."""
    counters = (Counter("knock", "knockback", "knockback units taken (F28)"),)
    categories = (Categories("location_hits", tuple(hit_locations().names),
                             "hits_by_location", "hits taken by location (F27)"),)  # fmt: skip
    if vehicles:
        counters += VEHICLE_COUNTERS
        categories += VEHICLE_CATEGORIES
    if missiles:
        counters += MISSILE_COUNTERS
    if impacts:
        counters += IMPACT_COUNTERS
    if hazards:
        counters += HAZARD_COUNTERS
    if motion:
        counters += MOTION_COUNTERS
    if dogfights:
        counters += DOGFIGHT_COUNTERS
    return OutcomeSchema(unit=unit, seconds=12.0 / per_round, per_round=per_round,
                         counters=counters, categories=categories)  # fmt: skip


SCHEMA = schema_of()
SCHEMA_VEHICLES = schema_of(vehicles=True)

_KERNELS = {"duel": kernel_duel, "squad": kernel_squad, "standing": kernel_standing}


class FightPlan(NamedTuple):
    """A compiled Fuzion fight: the kernel that runs it (``dispatch.KERNELS``) and its arrays
    (a :class:`~.compile.Plan` for the general kernel, a :class:`~.compile.StandingPlan` for
    the others); for the duel kernel its further arrays (``duel``), the general plan a replay
    runs on when the fight uses a rule the standing kernel does not (``replay``), the squad
    kernel's :class:`~.compile.Motion`, and for a plain duel the kind (``"plain"`` or
    ``"wounds"``, ``kernel_duel_plain.plain_duel``: it then runs on that kernel, with the same
    numbers; ``""``: not plain)."""

    kernel: str
    arrays: Plan | StandingPlan
    duel: DuelPlan | None = None
    replay: Plan | None = None
    motion: Motion | None = None
    plain: str = ""

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
    sp = standing_plan(plan)
    duel = duel_plan(plan, sp) if kernel == "duel" else None
    replay = plan if dispatch.blocking_keys(plan, "standing") else None
    moves = motion(plan, moving=not dispatch.nobody_moves(plan)) if kernel == "squad" else None
    plain = kernel_duel_plain.plain_duel(sp, duel) if duel is not None else ""
    return FightPlan(kernel, sp, duel, replay, moves, plain)


def features(plan: Plan) -> kernel.Features:
    """The general kernel's rooms (``kernel.Features``) a compiled plan can reach: a room is
    in when some array of the plan can reach its code, so leaving the others out of the kernel
    changes no number."""
    arms_i = plan.arms_i

    def column(name):
        own = getattr(plan, name)
        if name in ARM_FLOAT_FIELDS:
            return np.concatenate([own, plan.arms_f[:, ARM_FLOAT_FIELDS.index(name)]])
        return np.concatenate([own, arms_i[:, ARM_INT_FIELDS.index(name)]])

    options = plan.options
    actions = plan.rules[:, 2]
    hazards = bool(options[codes.OPT_ANY_HAZARD])
    scene = bool(plan.im_opts[IO_ANY])
    dogfights = bool(plan.df_opts[DO_ON])
    arcs = bool((column("w_arc") != codes.ARC_ALL).any()) or bool(
        (plan.v_eff == codes.EFF_WEAPON).any())
    block = scene and bool(plan.im_opts[IO_BLOCK])
    semi = (column("w_autofire") == 0) & (column("w_rof") > 1)
    return kernel.Features(
        vehicles=bool(options[codes.OPT_ANY_VEHICLE]),
        suits=bool((plan.suit_max > 0).any()),
        mecha_range=bool((column("rscale") > 1.0).any()),
        missiles=bool(options[codes.OPT_ANY_MISSILE]),
        scene=scene,
        ground=block or plan.terrain.shape[0] > TZ_HEADER,
        hazards=hazards,
        motion=bool(plan.mo_opts[MO_ANY]),
        jumps=bool((actions == tx.A_JUMP).any()),
        drives=bool(((actions > tx.A_JUMP) & ~((actions == tx.A_FLEE_HAZARD) & hazards)).any()),
        dogfights=dogfights,
        arsenal=arms_i.shape[0] > 0,
        gate=arms_i.shape[0] > 0 or arcs or dogfights or block,
        area=bool((column("w_area") > 0.0).any()),
        extra_attacks=bool(options[codes.OPT_SEMI_AUTO_ROF]) and bool(semi.any()),
    )


def _knock_args(tally: Tally | None) -> list:
    """The duel kernel's last two: the tally's knockback sums (F28), or none to add to."""
    if tally is None:
        return _NO_KNOCK
    return [tally.counter_sum["knock"], tally.counter_sq["knock"]]


def _run(plan: FightPlan, key, first: int, n: int, out: TrialOutcomes, log_trial=-1,
         events=None, count=None, tally: Tally | None = None) -> None:  # fmt: skip
    """Run the plan's kernel (a logged trial: the standing kernel, which keeps the event log
    and draws the same numbers as the duel and squad kernels, or the general kernel where the
    standing kernel cannot run the fight)."""
    outputs = kernel_outputs(out)
    logs = (log_trial, _NO_LOG if events is None else events,
            np.zeros(1, np.int64) if count is None else count)  # fmt: skip
    if plan.kernel == "general" or (log_trial >= 0 and plan.replay is not None):
        general = plan.arrays if plan.kernel == "general" else plan.replay
        run = kernel.kernel_for(features(general))
        run(key, first, n, general, tuple(outputs), *(tuple(group(out)) for group in (
            vehicle_outputs, missile_outputs, impact_outputs, hazard_outputs, motion_outputs,
            dogfight_outputs)), logs)  # fmt: skip
        if "fell" in out.counters:  # 1 when it fell
            np.minimum(out.counters["falls"], 1, out=out.counters["fell"])
        return
    if plan.kernel == "duel" and log_trial < 0:
        if tally is not None:  # hits by location (F27) straight into the tally too
            outputs[-1] = tally.categories["location_hits"]
        if plan.plain:
            run = kernel_duel_plain.KERNELS[plan.plain]
        else:
            run = kernel_duel.KERNELS.get(plan.duel.options, kernel_duel.run_chunk_options)
        run(key, first, n, plan.arrays, plan.duel, tuple(outputs),
            (*Streamed.into(tally), *_knock_args(tally)))  # fmt: skip
        return
    args = (key, first, n, plan.arrays, tuple(outputs), logs, Streamed.into(tally))
    if plan.kernel == "squad" and log_trial < 0:
        kernel_squad.run_chunk(*args, tuple(plan.motion))
        return
    module = kernel_standing if log_trial >= 0 else _KERNELS[plan.kernel]
    module.run_chunk(*args)


_NO_KNOCK = [np.zeros(2, np.int64), np.zeros(2, np.int64)]


def kernel_outputs(out: TrialOutcomes) -> list:
    """The outputs every Fuzion kernel writes, in their argument order: the shared arrays,
    knockback units (F28) and hits by location (F27)."""
    return [*out.arrays(), out.counters["knock"], out.categories["location_hits"]]


_NO_COUNTER = np.zeros((1, 1), np.int32)
_NO_CATEGORY = np.zeros((1, 1), np.int64)


def vehicle_outputs(out: TrialOutcomes) -> list:
    """The general kernel's vehicle outputs: the counters of :data:`VEHICLE_COUNTERS` and the
    hits by vehicle location, or (1, 1) arrays it leaves alone in a fight without vehicles."""
    if "vehicle_location_hits" not in out.categories:
        return [*(_NO_COUNTER for _ in VEHICLE_COUNTERS),
                *(_NO_CATEGORY for _ in VEHICLE_CATEGORIES)]  # fmt: skip
    return [*(out.counters[c.name] for c in VEHICLE_COUNTERS),
            *(out.categories[c.name] for c in VEHICLE_CATEGORIES)]  # fmt: skip


def missile_outputs(out: TrialOutcomes) -> list:
    """The general kernel's missile outputs: the counters of :data:`MISSILE_COUNTERS`, or (1, 1)
    arrays it leaves alone in a fight without missiles."""
    if "missiles_hit" not in out.counters:
        return [_NO_COUNTER, _NO_COUNTER, _NO_COUNTER]
    return [out.counters[c.name] for c in MISSILE_COUNTERS]


def impact_outputs(out: TrialOutcomes) -> list:
    """The general kernel's falls and collisions: the first four counters of
    :data:`IMPACT_COUNTERS`, or (1, 1) arrays it leaves alone in a fight without obstacles or
    drops."""
    if "falls" not in out.counters:
        return [_NO_COUNTER] * 4
    return [out.counters[c.name] for c in IMPACT_COUNTERS[:4]]


def hazard_outputs(out: TrialOutcomes) -> list:
    """The general kernel's environment outputs: the counters of :data:`HAZARD_COUNTERS`, or
    (1, 1) arrays it leaves alone in a fight without hazards."""
    if "hazard_damage" not in out.counters:
        return [_NO_COUNTER for _ in HAZARD_COUNTERS]
    return [out.counters[c.name] for c in HAZARD_COUNTERS]


def motion_outputs(out: TrialOutcomes) -> list:
    """The general kernel's vehicles in motion: the counters of :data:`MOTION_COUNTERS`, or
    (1, 1) arrays it leaves alone in a fight where no vehicle's tactics drive it."""
    if "lost_control" not in out.counters:
        return [_NO_COUNTER for _ in MOTION_COUNTERS]
    return [out.counters[c.name] for c in MOTION_COUNTERS]


def dogfight_outputs(out: TrialOutcomes) -> list:
    """The general kernel's dogfight outputs: the counters of :data:`DOGFIGHT_COUNTERS`, or
    (1, 1) arrays it leaves alone in a fight without a dogfight."""
    if "dogfight_rolls" not in out.counters:
        return [_NO_COUNTER for _ in DOGFIGHT_COUNTERS]
    return [out.counters[c.name] for c in DOGFIGHT_COUNTERS]


def _schema(plan: FightPlan) -> OutcomeSchema:
    if (has_missiles(plan) or has_impacts(plan) or has_hazards(plan) or has_motion(plan)
            or has_dogfights(plan)):  # fmt: skip
        return schema_of(vehicles=has_vehicles(plan), missiles=has_missiles(plan),
                         impacts=has_impacts(plan), hazards=has_hazards(plan),
                         motion=has_motion(plan), dogfights=has_dogfights(plan))  # fmt: skip
    return SCHEMA_VEHICLES if has_vehicles(plan) else SCHEMA


def has_impacts(plan: FightPlan) -> bool:
    """Whether the fight has an obstacle or a drop (the general kernel's plan only)."""
    return plan.kernel == "general" and bool(plan.arrays.im_opts[IO_ANY])


def has_hazards(plan: FightPlan) -> bool:
    """Whether a hazard zone, a poison or a push (M-75) is in the fight (the general kernel's plan
    only): the environment room runs and its counters are kept."""
    return plan.kernel == "general" and bool(plan.arrays.options[OPT_ANY_HAZARD])


def has_motion(plan: FightPlan) -> bool:
    """Whether a vehicle's tactics drive it (the general kernel's plan only)."""
    return plan.kernel == "general" and bool(plan.arrays.mo_opts[MO_ANY])


def has_dogfights(plan: FightPlan) -> bool:
    """Whether a tactic names ``dogfight`` (the general kernel's plan only)."""
    return plan.kernel == "general" and bool(plan.arrays.df_opts[DO_ON])


def has_missiles(plan: FightPlan) -> bool:
    """Whether a missile weapon fights (the general kernel's plan only)."""
    return plan.kernel == "general" and bool(plan.arrays.options[OPT_ANY_MISSILE])


def has_vehicles(plan: FightPlan) -> bool:
    """Whether a vehicle fights (the general kernel's plan only)."""
    return plan.kernel == "general" and bool(plan.arrays.vclass.any())


def run_chunk(plan: FightPlan, key, first: int, n: int) -> TrialOutcomes:
    """Run trials ``first .. first + n - 1`` of the chunk with stream key ``key``."""
    out = TrialOutcomes.empty(n, plan.n_combatants, _schema(plan))
    _run(plan, key, first, n, out)
    return out


def tally_chunk(plan: FightPlan, key, first: int, n: int):
    """The :class:`~fuzion_sim.engine.outcomes.Tally` of trials ``first .. first + n - 1``
    without keeping them: the standing kernels add them straight into the tally (not when a
    fight may outlast the tally's histograms, which they index by time)."""
    slots = max_slots(plan)
    if plan.kernel == "general" or slots > HIST_SLOTS:
        return Tally.of(run_chunk(plan, key, first, n), plan.n_sides, slots, outcome_schema(plan))
    tally = Tally.zeros(plan.n_sides, plan.n_combatants, slots, SCHEMA)
    tally.n_trials = n
    _run(plan, key, first, n, TrialOutcomes.empty(0, plan.n_combatants, SCHEMA), tally=tally)
    return tally


def run_logged(plan: FightPlan, seed: int, trial: int) -> tuple[TrialOutcomes, np.ndarray]:
    """Run trial ``trial`` (0-based, of a run seeded ``seed``) alone with its event log.

    Every trial starts from its own stream (``engine.rng``), so this is exactly the trial the
    bulk run recorded. Returns its outcome row and the events (int64[n, N_EV_FIELDS]).
    """
    out = TrialOutcomes.empty(1, plan.n_combatants, _schema(plan))
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
    return schema_of("segment" if per_round == 12 else "phase", per_round, has_vehicles(plan),
                     has_missiles(plan), has_impacts(plan), has_hazards(plan),
                     has_motion(plan), has_dogfights(plan))  # fmt: skip
