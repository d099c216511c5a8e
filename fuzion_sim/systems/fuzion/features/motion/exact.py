"""Exact manoeuvres and loss of control (M-46 to M-51, VA-27 to VA-30): for one
vehicle of a scenario and a named manoeuvre, the probability it is made and of each way control
is lost (a ground vehicle's skid or spin, an aircraft's stall or spin, a walker's fall), the
skid's dice, and the regain rolls of an aircraft. ``fuzion-sim manoeuvre SCENARIO --vehicle
NAME --name MANOEUVRE`` prints it; the kernel's losses of control are tested against it
(``motion.room._task`` and ``motion.room._lose_control`` roll the same numbers in the fight).
"""

from __future__ import annotations

from fuzion_sim.errors import ArgumentError, unknown_name

from ...dice import defence_table, hero_roll, interlock_roll
from ...tables import manoeuvre_conditions, manoeuvres
from ..scene.build import terrain_at, terrain_dvs
from .room import SPIN_DV

__all__ = ["manoeuvre_odds", "miss_pmf"]


def _task_pmf(rules):
    """The task die's pmf as the kernel's ``task_table`` (F4, criticals F3)."""
    criticals = rules.criticals != "none"
    return hero_roll(criticals) if rules.dice == "hero" else interlock_roll(criticals)


def miss_pmf(base: int, dv: int, rules, ground: int = 0) -> dict[int, float]:
    """P(miss = m) of ``base`` + the task die against ``dv`` under the scenario's
    ``manoeuvre_dv`` (``full``: 5 off under Interlock; ``plus_roll``: + the defender's die),
    plus the conditions: ``manoeuvre_conditions`` or the ``ground`` under the vehicle if that
    is worse (VA-51): ``{0: P(made), m: P(missed by m)}``."""
    task = _task_pmf(rules)
    values = rules.values
    plus_roll = values.get("manoeuvre_dv", "full") == "plus_roll"
    dv += max(manoeuvre_conditions()[values.get("manoeuvre_conditions", "clear")], ground)
    if plus_roll:
        table = defence_table(rules.dice, rules.criticals)
        extra = {int(v): int((table == v).sum()) / len(table) for v in set(table.tolist())}
    else:
        extra = {-5 if rules.dice == "interlock" else 0: 1.0}
    out: dict[int, float] = {}
    for roll, p in zip(task.values.tolist(), task.probs.tolist(), strict=True):
        for add, q in extra.items():
            miss = max(dv + add - (base + roll), 0)
            out[miss] = out.get(miss, 0.0) + p * q
    return dict(sorted(out.items()))


def manoeuvre_odds(scenario, vehicle: str, name: str) -> dict:
    """The exact outcome of vehicle ``vehicle``'s manoeuvre ``name`` (``manoeuvres.yaml``) under
    the scenario's rules: ``dv``, ``base`` (its pilot's REF + control skill), ``p_made``,
    ``lost`` (each way control is lost: ``skid`` and ``spin``, ``stall`` and ``spin``, or
    ``falls_over``, with its probability), ``miss`` (the pmf of the miss), ``skid_dice`` (d6
    a skid rolls) and, for an aircraft, ``p_regain`` of a stall and of a spin (one roll)."""
    members = {c.name: c for c in scenario.combatants}
    if vehicle not in members:
        raise unknown_name("vehicle", vehicle, members)
    v = getattr(members[vehicle], "vehicle", None)
    if v is None:
        raise ArgumentError(f"{vehicle} is not a vehicle")
    table = manoeuvres()
    if name not in table:
        raise unknown_name("manoeuvre", name, table)
    rules = scenario.rules
    seat = members[vehicle]
    base = seat.stats["REF"] + seat.skill(v.control_skill)
    ground = "easy"  # the terrain where it starts (VA-51); an aircraft flies over it
    if v.locomotion != "air":
        ground = terrain_at((getattr(scenario, "scene", None) or {}).get("terrain", ()),
                            *seat.xy)  # fmt: skip
    ground_dv = terrain_dvs(rules.values)[ground]
    miss = miss_pmf(base, table[name], rules, ground_dv)
    made = miss.get(0, 0.0)
    lost: dict[str, float]
    if v.locomotion == "air":
        lost = {"stall": sum(p for m, p in miss.items() if 0 < m < 4),
                "spin": sum(p for m, p in miss.items() if m >= 4)}
    elif v.locomotion == "walker":
        lost = {"falls_over": 1.0 - made}
    else:
        literal = rules.values.get("ground_loss", "by_severity") == "literal"
        small = sum(p for m, p in miss.items() if 0 < m < 4)
        big = sum(p for m, p in miss.items() if m >= 4)
        lost = {"skid": big if literal else small, "spin": small if literal else big}
    mph = 2 * v.speed
    rounding = rules.values.get("skid_rounding", "floor_min1")
    dice = {"floor": mph // 10, "ceil": -(-mph // 10),
            "floor_min1": max(mph // 10, 1 if v.speed > 0 else 0)}[rounding]
    out = {"vehicle": vehicle, "manoeuvre": name, "dv": table[name], "base": base,
           "ground": ground,
           "p_made": made, "lost": lost, "miss": {str(m): p for m, p in miss.items()},
           "skid_dice": int(dice), "spin_facing": {"backwards": 1 / 6, "forwards": 1 / 6,
                                                   "right": 1 / 3, "left": 1 / 3}}  # fmt: skip
    if v.locomotion == "air":
        stall_dv = int(rules.values.get("stall_dv", 14))
        out["p_regain"] = {"stall": miss_pmf(base, stall_dv, rules).get(0, 0.0),
                           "spin": miss_pmf(base, SPIN_DV, rules).get(0, 0.0)}  # in the air
    return out
