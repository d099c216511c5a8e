"""Which of Fuzion's rule switches can change a scenario's fight.

:data:`INERT` maps a switch to a test over the scenario (its rules, its members' weapons,
armour, vehicles and tactics, and its scene: obstacles, drops, terrain, hazards) that returns
why the switch cannot matter there ("no weapon is autofire", "no vehicle in the fight"), or
None when it may. A switch missing from the table may always matter; a test that cannot decide
says None, so a switch is never called inert wrongly. A new switch adds one line.
``tests/systems/test_switch_walk.py`` flips every switch on every shipped scenario and holds
this table to the numbers.

The kernels never read this module (it sits in the kernels' folder only as the system's own).
"""

from __future__ import annotations

from collections.abc import Callable

from .tactics import MOTION_ACTIONS

__all__ = ["INERT", "KEYS", "inert_keys"]

#: A test: why the switch cannot matter in the scenario, or None.
Test = Callable[[object], str | None]


def _weapons(m) -> list:
    """Every weapon a combatant fires: its own, its arsenal's, its vehicle's."""
    out = [m.weapon, *m.arsenal]
    if m.vehicle is not None:
        out += [w for _, w in m.vehicle.weapons]
    return out


def _all_weapons(s) -> list:
    return [w for m in s.combatants for w in _weapons(m)]


def _vehicles(s) -> list:
    return [m.vehicle for m in s.combatants if m.vehicle is not None]


def _does(s, *actions: str) -> bool:
    """Some combatant's tactics (or its abort) use one of ``actions``."""
    return any(rule.get("do") in actions for m in s.combatants for rule in m.tactics) or any(
        m.abort in actions for m in s.combatants)


def _armoured(m) -> bool:
    a = m.armor
    return bool(a.pd or a.ekd or a.kills or a.sdp)


def _classes(s, *kinds: str) -> bool:
    return any(v.kind in kinds for v in _vehicles(s))


def _scene(s, key: str) -> bool:
    return bool(s.scene.get(key))


def _test(test: Callable[[object], object], reason: str) -> Test:
    """Inert, for ``reason``, unless ``test(scenario)``."""
    return lambda s: None if test(s) else reason


def _rule(name: str, value, reason: str) -> Test:
    """Inert unless ``rules.<name>`` is ``value``."""
    return lambda s: None if s.rules.values[name] == value else reason


def _both(*tests: Test) -> Test:
    """Inert when any of ``tests`` says so (the first reason)."""
    return lambda s: next((r for r in (t(s) for t in tests) if r), None)


_VEHICLE = _test(_vehicles, "no vehicle in the fight")
_AUTOFIRE = _test(lambda s: any(
    any(w.autofire for w in (m.weapon, *m.arsenal))
    and any(r.get("do") == "attack" and r.get("fire", 1) != 1 for r in m.tactics)
    for m in s.combatants), "no one fires an autofire weapon more than once an attack")
_SEMI_AUTO = _test(lambda s: any(
    any(w.kind != "melee" and not w.unarmed and not w.autofire and w.rof > 1
        for w in (m.weapon, *m.arsenal))
    and any(r.get("do") == "attack" and r.get("fire", 1) != 1 for r in m.tactics)
    for m in s.combatants), "no one shoots a weapon without autofire more than once an action")
_MISSILE = _test(lambda s: any(w.missile is not None for w in _all_weapons(s)),
                 "no missile weapon")
_KNOCKBACK = _rule("knockback", True, "rules.knockback is off")
_IMPACTS = _test(lambda s: any(_scene(s, k) for k in ("obstacles", "drops", "terrain")),
                 "no obstacle, drop or terrain")
_FALLS = _test(lambda s: _scene(s, "drops") or _scene(s, "obstacles") or _does(
    s, "jump", *MOTION_ACTIONS) or any(w.thrown is not None for w in _all_weapons(s)),
    "no drop, obstacle, jump, vehicle manoeuvre or thrown object")
_HAZARDS = _test(lambda s: _scene(s, "hazards"), "no hazard zone")
_BREATH = _test(lambda s: any(h.asphyxiating for h in s.scene.get("hazards", ())),
                "no asphyxiating zone")
_MOTION = _test(lambda s: _vehicles(s) and _does(s, *MOTION_ACTIONS),
                "no vehicle steers, accelerates, brakes, manoeuvres or rams")
_RAM = _test(lambda s: _vehicles(s) and _does(s, "ram"), "no vehicle rams")
_DOGFIGHT = _test(lambda s: _does(s, "dogfight"), "no tactic dogfights")
_SUIT = _test(lambda s: s.rules.powered_armour and any(m.armor.sdp for m in s.combatants),
              "no powered armour suit under rules.powered_armour")
_KILLS = _test(lambda s: any(v.kills for v in _vehicles(s)), "no Kill-rated vehicle")
_STAGED = _both(_KILLS, _rule("staged_penetration", True, "rules.staged_penetration is off"))
_INTEGRITY = _both(_KILLS, _rule("structural_integrity", True,
                                 "rules.structural_integrity is off"))

#: Switch -> why it cannot matter in a scenario (None: it may).
INERT: dict[str, Test] = {
    "extra_actions_table": _rule("timing", "extra_actions", "rules.timing is not extra_actions"),
    "dying_penalty": _rule("dying_can_act", True, "rules.dying_can_act is off"),
    "ap_factor": _test(lambda s: any(w.ap for w in _all_weapons(s)), "no armour-piercing weapon"),
    "obscured_dv": _test(lambda s: any(m.obscured for m in s.combatants) or any(
        h.obscures for h in s.scene.get("hazards", ())), "no one is obscured"),
    "dodge_bonus": _test(lambda s: _does(s, "dodge"), "no one dodges"),
    "block_bonus": _test(lambda s: _does(s, "block"), "no one blocks"),
    "hit_locations": _test(lambda s: any(m.vehicle is None and m.carrier is None
                                         for m in s.combatants), "no one on foot to hit"),
    "knockback_unit": _KNOCKBACK,
    "campaign": _AUTOFIRE,
    "autofire_ratio": _AUTOFIRE,
    "autofire_hits": _AUTOFIRE,
    "semi_auto_rof": _SEMI_AUTO,
    "chinks": _test(lambda s: any(_armoured(m) or m.vehicle is not None for m in s.combatants),
                    "no one has armour"),
    "vehicle_locations": _VEHICLE,
    "vehicle_called_x": _both(_VEHICLE, _rule("vehicle_locations", "called",
                                              "rules.vehicle_locations is not called")),
    "critical_effects": _VEHICLE,
    "minor_crits": _test(lambda s: _classes(s, "ground", "aircraft"),
                         "no ground vehicle or aircraft (wheels, flaps)"),
    "facing_arcs": _VEHICLE,
    "vehicle_row9": _test(lambda s: _classes(s, "ground"), "no ground vehicle"),
    "kill_precision": _test(lambda s: any(v.kills for v in _vehicles(s)),
                            "no Kill-rated vehicle"),
    "critical_accumulation": _VEHICLE,
    "location_damage_counts_total": _VEHICLE,
    "crew_personal_armour": _test(lambda s: any(m.carrier is not None and _armoured(m)
                                                for m in s.combatants),
                                  "no crew member wears armour"),
    "unmanned_dv": _VEHICLE,  # a pilot who goes out leaves the vehicle unmanned
    "area_kill_falloff": _test(lambda s: any(w.area for w in _all_weapons(s)) and (
        any(v.kills for v in _vehicles(s)) or any(w.area and w.kills for w in _all_weapons(s))),
        "no area attack meets Kills"),
    "crew_hit": _test(lambda s: any(v.crew for v in _vehicles(s)), "no vehicle has a crew"),
    "weapon_disable_pct": _test(lambda s: any(v.weapons for v in _vehicles(s)),
                                "no vehicle has a weapon"),
    "no_turret": _VEHICLE,  # all_vehicle_fire: a passenger's hand weapon too
    "maneuver_in_defence": _test(lambda s: any(v.maneuver for v in _vehicles(s)),
                                 "no vehicle has a Maneuver Value"),
    "missile_launch": _MISSILE,
    "missile_timing": _MISSILE,
    "missile_dv_interlock": _both(_MISSILE, _rule("dice", "interlock", "rules.dice is hero")),
    "cluster_roll": _MISSILE,
    "missile_evasion_on_foot": _both(_MISSILE, _test(
        lambda s: any(m.vehicle is None and m.carrier is None for m in s.combatants),
        "no one on foot")),
    "countermeasure_use": _both(_MISSILE, _test(lambda s: any(v.countermeasures
                                                              for v in _vehicles(s)),
                                                "no countermeasures")),
    "missile_aspect": _both(_MISSILE, _VEHICLE),
    "mecha_range_scale": _VEHICLE,
    "staged_penetration": _KILLS,
    "staged_loss": _STAGED,
    "staged_trigger": _STAGED,
    "chinks_scope": _both(_rule("chinks", True, "rules.chinks is off"), _test(
        lambda s: any(m.carrier is None and (m.vehicle is None or m.vehicle.kind != "mecha")
                      for m in s.combatants), "every target is a mecha")),
    "powered_armour": _test(lambda s: any(m.armor.sdp for m in s.combatants),
                            "no powered armour suit"),
    "powered_split": _SUIT,
    "powered_stun": _both(_SUIT, _test(lambda s: any(w.damage == "stun"
                                                     for w in _all_weapons(s)),
                                       "no Stun attack")),
    "structural_integrity": _KILLS,
    "integrity_count": _INTEGRITY,
    "falling_columns": _FALLS,
    "weight_row": _FALLS,
    "impact_damage": _FALLS,
    "impact_armour": _FALLS,
    "collision_speed_bands": _FALLS,
    "knockback_collision": _both(_KNOCKBACK, _test(lambda s: _scene(s, "obstacles"),
                                                   "no obstacle")),
    "obstacles_block": _test(lambda s: _scene(s, "obstacles"), "no obstacle"),
    "terrain_effect": _both(_test(lambda s: _scene(s, "terrain"), "no terrain"), _MOTION),
    "hazard_armour": _HAZARDS,
    "electricity_damage": _test(lambda s: any(h.kind == "electricity"
                                              for h in s.scene.get("hazards", ())),
                                "no electrified zone"),
    "hazard_timing": _HAZARDS,
    "breath_reset": _BREATH,
    "asphyxia_collateral": _BREATH,
    "poison_timing": _test(lambda s: any(m.poison is not None for m in s.combatants) or any(
        h.kind == "poison" for h in s.scene.get("hazards", ())), "no poison"),
    "manoeuvre_dv": _MOTION,
    "manoeuvre_conditions": _MOTION,
    "ground_loss": _MOTION,
    "skid_rounding": _MOTION,
    "stall_dv": _both(_MOTION, _test(lambda s: _classes(s, "aircraft"), "no aircraft")),
    "spin_altitude_loss": _both(_MOTION, _test(lambda s: _classes(s, "aircraft"),
                                               "no aircraft")),
    "walker_fall_damage": _both(_MOTION, _test(lambda s: any(v.locomotion == "walker"
                                                             for v in _vehicles(s)),
                                               "no walker")),
    "acceleration": _MOTION,
    "side_ram": _RAM,
    "collision_obstacle": _both(_MOTION, _test(lambda s: _scene(s, "obstacles"),
                                               "no obstacle")),
    "collision_occupants": _MOTION,
    "ram_miss_control": _RAM,
    "impact_locations": _MOTION,
    "thrown_damage": _test(lambda s: any(w.thrown is not None for w in _all_weapons(s)),
                           "no thrown object"),
    "dogfight_cadence": _DOGFIGHT,
    "dogfight_tie": _DOGFIGHT,
    "intercept": _DOGFIGHT,
    "break_off_rounds": _test(lambda s: _does(s, "break_off"), "no tactic breaks off"),
    "break_off_time": _test(lambda s: _does(s, "break_off"), "no tactic breaks off"),
}  # fmt: skip


#: Member keys that reach the fight only with something else in it: key -> (is it given, test).
KEYS: dict[str, tuple[Callable, Test]] = {
    "resting": (lambda m: m.resting, _BREATH),
    "weight": (lambda m: m.weight_kg is not None, _FALLS),
    "vehicle.countermeasures": (lambda m: m.vehicle is not None and m.vehicle.countermeasures,
                                _MISSILE),
}


def inert_keys(scenario) -> list[tuple[str, str]]:
    """``("<member>: <key>", reason)`` of each member key given that cannot change the
    fight."""
    out = []
    for key, (given, test) in KEYS.items():
        members = [m for m in scenario.combatants if given(m)]
        reason = test(scenario) if members else None
        if reason:
            out += [(f"{m.name}: {key}", reason) for m in members]
    return out
