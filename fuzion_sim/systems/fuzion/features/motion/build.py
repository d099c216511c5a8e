"""The compile-time side of the vehicles in motion (features/motion/room.py): the checks a
scenario's driving tactics need, and the arrays of :data:`room.Motion` (../shared/rulings/vehicles
M-46 to M-52, M-62 to M-66, VA-19, VA-27 to VA-31, VA-39, VA-40)."""

from __future__ import annotations

import numpy as np

from ... import codes, tactics
from ...tables import manoeuvre_conditions, manoeuvres
from . import room as mo

__all__ = ["MOTION_FIELDS", "check_motion", "motion_arrays", "uses_motion"]

#: The plan's arrays of the vehicles in motion (``compile.Plan``, the kernel's order).
MOTION_FIELDS = ("mo_i", "mo_f", "mo_dv", "mo_opts")
#: ``mo_i`` columns: MOVE now at the start, top MOVE, ``motion.room.LOCO_*``, the control skill.
MI_SPEED, MI_MOVE, MI_LOCO, MI_SKILL = range(4)
#: ``mo_f`` columns: altitude at the start, height.
MF_ALT, MF_HEIGHT = range(2)
_LOCO = {"wheels": mo.LOCO_GROUND, "tracks": mo.LOCO_GROUND, "water": mo.LOCO_GROUND,
         "air": mo.LOCO_AIR, "walker": mo.LOCO_WALKER}  # fmt: skip
_OCCUPANTS = {"none": mo.OCC_NONE, "own_weight": mo.OCC_OWN_WEIGHT,
              "through_hull": mo.OCC_THROUGH_HULL}
#: Speed-changing actions: a vehicle with one drives with steer, not run (which goes at its
#: scenario speed).
_SPEED_ACTIONS = ("accelerate", "brake")


def uses_motion(fighters) -> bool:
    """Whether a vehicle's tactics drive it (a steer, speed change, manoeuvre or ram)."""
    return any(rule["do"] in tactics.MOTION_ACTIONS for c in fighters for rule in c.tactics)


def check_motion(ctx, rules, sides: dict) -> None:
    """Across the scenario: only a vehicle's own tactics drive (not a person's, not its
    crew's); a vehicle that changes speed does not also ``run``; a fight with a ram or a
    vehicle that drives gives each vehicle a weight (collisions go by weight, M-62);
    ``impact_locations`` needs the vehicle hit tables (``vehicle_locations`` not ``none``)."""
    values = rules.values
    if values.get("impact_locations", False) and values.get("vehicle_locations") == "none":
        raise ctx.fail(["rules", "impact_locations"],
                       "impact_locations: true rolls a collision's location on the vehicle hit "
                       "table, which vehicle_locations: none turns off (VA-06, VA-40): set "
                       "vehicle_locations: random, or impact_locations: false")  # fmt: skip
    driven = False
    rams = False
    for side, members in sides.items():
        for index, c in enumerate(members):
            used = [r["do"] for r in c.tactics]
            for r, action in enumerate(used):
                if action not in tactics.MOTION_ACTIONS:
                    continue
                if c.vehicle is None:
                    raise ctx.fail(["sides", side, index, "tactics", r, "do"],
                                   f"{c.name} is not a vehicle: only a vehicle's tactics can "
                                   f"'{action}' (people run, sprint and move)")  # fmt: skip
                driven = True
                rams = rams or action == "ram"
            if any(a in _SPEED_ACTIONS for a in used):
                for r, action in enumerate(used):
                    if action in tactics.MOVEMENT_ACTIONS:
                        raise ctx.fail(["sides", side, index, "tactics", r, "do"],
                                       f"{c.name} changes speed (accelerate, brake): it drives "
                                       f"with steer, not '{action}' (which moves it at its "
                                       "scenario speed)")  # fmt: skip
    if not driven:
        return
    for side, members in sides.items():
        for index, c in enumerate(members):
            if c.vehicle is None or c.vehicle.weight_kg is not None:
                continue
            if rams or any(r["do"] in tactics.MOTION_ACTIONS for r in c.tactics):
                raise ctx.fail(["sides", side, index, "vehicle"],
                               f"{c.name} has no vehicle.weight: a vehicle that drives (or "
                               "meets a ram) needs it, for its collisions (M-62, VA-39)")


def motion_arrays(scenario, fighters) -> dict:
    """The arrays of :data:`room.Motion`: per combatant ``mo_i`` (``MI_*``), ``mo_f``
    (altitude, a walker's fall height), the manoeuvre DVs ``mo_dv`` and ``mo_opts``
    (``codes.MO_*``)."""
    rules = scenario.rules.values
    n = len(fighters)
    mo_i = np.zeros((n, 4), np.int64)
    mo_f = np.zeros((n, 2), np.float64)
    for c, member in enumerate(fighters):
        vehicle = getattr(member, "vehicle", None)
        if vehicle is None:
            continue
        mo_i[c] = (vehicle.speed, vehicle.move, _LOCO[vehicle.locomotion],
                   member.skill(vehicle.control_skill))  # fmt: skip
        mo_f[c] = (vehicle.altitude, vehicle.height)
    names = list(manoeuvres())
    from ...compile import switch_slots

    opts = switch_slots("mo_opts", codes.MOTION_OPTIONS, scenario.rules)
    opts[codes.MO_ANY] = uses_motion(fighters)
    plus_roll = rules.get("manoeuvre_dv", "full") == "plus_roll"
    opts[codes.MO_DV_SHIFT] = 5 if scenario.rules.dice == "interlock" and not plus_roll else 0
    opts[codes.MO_CONDITIONS] = manoeuvre_conditions()[rules.get("manoeuvre_conditions", "clear")]
    opts[codes.MO_ALTITUDE_LOSS] = rules.get("spin_altitude_loss", "combat_move") == "combat_move"
    opts[codes.MO_ACCELERATION] = 10 if rules.get("acceleration", "vehicles") == "vehicles" else 0
    opts[codes.MO_OBSTACLE_SAME] = rules.get("collision_obstacle", "same_dc") == "same_dc"
    opts[codes.MO_OCCUPANTS] = _OCCUPANTS[rules.get("collision_occupants", "own_weight")]
    opts[codes.MO_HARD_TURN] = names.index("hard turn")
    opts[codes.MO_RAM_DV] = names.index("ram")
    return {"mo_i": mo_i, "mo_f": mo_f,
            "mo_dv": np.asarray(list(manoeuvres().values()), np.int64), "mo_opts": opts}
