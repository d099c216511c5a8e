"""Build a vehicle or mecha and its crew from a scenario member with a ``vehicle:`` block
(../shared/rulings/vehicles/: mechanics.md M-01 to M-31, M-76; rulings.md VA-01 to VA-18).

A vehicle member becomes several combatants, in this order: the vehicle itself (its structure,
armour, position and facing; it acts with its pilot's sheet: the pilot's REF for the turn
order, the pilot's action, the weapon the pilot operates) and then each of its crew, people
with their own sheets (Hits, Stun, armour), who ride in it, fire the vehicle weapon they
operate (or their own), and are hit through the vehicle's crew row (M-26). Every check is one
of the shared ones (:mod:`fuzion_sim.validation.checks`): file, line, key path, did-you-mean.
"""

from __future__ import annotations

import dataclasses
import re

from fuzion_sim.errors import did_you_mean
from fuzion_sim.validation.checks import (
    MISSING,
    Context,
    check_bool,
    check_choice,
    check_int,
    check_mapping,
    check_number,
    check_str,
    describe,
    optional,
)

from ... import tables, tactics
from ...model import (
    ARCS,
    CONTROL_SKILL_BY_CLASS,
    CREW_ROLES,
    DERIVED,
    LOCOMOTION_BY_CLASS,
    LOCOMOTIONS,
    MOUNTS,
    VEHICLE_CLASSES,
    WEAPON_SCALES,
    Combatant,
    Vehicle,
    Weapon,
)
from ..dogfights.build import DOGFIGHT_ACTIONS, check_dogfight_tactics, flying

__all__ = [
    "CREW_KEYS", "PLANNED_VEHICLE_KEYS", "PLANNED_WEAPON_KEYS", "VEHICLE_KEYS",
    "VEHICLE_MEMBER_KEYS", "VEHICLE_WEAPON_KEYS", "parse_weight", "vehicle_members",
]  # fmt: skip

#: The member keys a vehicle takes next to ``vehicle:`` (its sheet is its crew's).
VEHICLE_MEMBER_KEYS = (
    "name", "vehicle", "armor", "position", "tactics", "targeting", "surprised", "cover",
    "obscured", "silhouetted", "size", "modifiers", "defence_modifiers",
)  # fmt: skip
#: Keys of the ``vehicle:`` block.
VEHICLE_KEYS = (
    "class", "sdp", "kills", "move", "speed", "heading", "locomotion", "maneuver", "weight",
    "fuel_flammable", "absent", "control_skill", "crew", "weapons", "countermeasures",
    "altitude", "height",
)  # fmt: skip
#: Keys of the rules still to build, refused with a clear message.
PLANNED_VEHICLE_KEYS = {
    "body": "the knockback BODY of an SDP vehicle (VA-41; it is SDP // 5)",
}
#: Keys of a crew member.
CREW_KEYS = (
    "name", "role", "stats", "skills", "weapon", "armor", "tactics", "targeting", "modifiers",
    *DERIVED,
)  # fmt: skip
#: Keys of a vehicle weapon: a weapon's, its mount and who operates it.
VEHICLE_WEAPON_KEYS = ("mount", "operator", "arc", "scale")
PLANNED_WEAPON_KEYS: dict[str, str] = {}
#: Member keys that are the crew's, not the vehicle's: said so when given.
_SHEET_KEYS = ("stats", "skills", "weapon", "sdp", "kills", "called_shot", "drawn", "abort",
               "prone", "crouched", "braced", *DERIVED)  # fmt: skip
#: Most countermeasure charges a vehicle carries (``true``: unlimited).
MAX_COUNTERMEASURES = 1000
#: An aircraft's altitude when the scenario gives none (m; not from the seed).
DEFAULT_ALTITUDE = 1000.0
#: MOVE, speed and heading ranges.
MAX_MOVE = 10_000
#: Kilograms per unit of weight (M-12; "t" is a metric tonne, "ton" 2,000 lbs as the seed's
#: table).
_WEIGHT_UNITS = {"kg": 1.0, "t": 1000.0, "tonne": 1000.0, "tonnes": 1000.0, "lb": 0.45359237,
                 "lbs": 0.45359237, "ton": 907.18474, "tons": 907.18474}  # fmt: skip
_MAX_KG = 1e10


def parse_weight(ctx: Context, parts, value) -> float:
    """A weight in kg: a number (kg) or text ``"575 kg"``, ``"1265 lbs"``, ``"20 t"``,
    ``"2 tons"`` (M-12); a leading ``+`` (the table's ``"+100 tons"``) is just over it."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return check_number(ctx, parts, value, maximum=_MAX_KG, positive=True)
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\+?)([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)\s*", value)
        if m and m.group(3).lower() in _WEIGHT_UNITS:
            kg = float(m.group(2)) * _WEIGHT_UNITS[m.group(3).lower()]
            if m.group(1):
                kg *= 1.0 + 1e-6  # "+100 tons": more than 100 tons
            if 0 < kg <= _MAX_KG:
                return kg
        unit = m.group(3) if m else None
        hint = did_you_mean(unit, _WEIGHT_UNITS) if unit else None
        raise ctx.fail(parts, f"expected a weight such as '575 kg', '1265 lbs', '20 t' or "
                              f"'2 tons', got {describe(value)}",
                       f"{m.group(1)}{m.group(2)} {hint}" if hint else None)  # fmt: skip
    raise ctx.fail(parts, f"expected a weight (a number of kg, or '20 t'), got {describe(value)}")


def _planned(ctx: Context, parts, value: dict, planned: dict[str, str]) -> None:
    for key, what in planned.items():
        if key in value:
            raise ctx.fail([*parts, key], f"'{key}' is not built yet: {what}")


def vehicle_members(ctx: Context, parts, value: dict, side: str,
                    build_combatant, build_weapon) -> tuple[Combatant, ...]:  # fmt: skip
    """The vehicle member ``value`` (a mapping with ``vehicle:``) as its combatants: the vehicle
    first, then its crew. ``build_combatant`` and ``build_weapon`` are ``build.py``'s member
    and inline-weapon builders (the shared checks of people and weapons)."""
    parts = list(parts)
    for key in _SHEET_KEYS:
        if key in value:
            where = "the vehicle's (vehicle: {sdp: ...} or {kills: ...})" if key in (
                "sdp", "kills") else "its crew's (vehicle: {crew: [...]})"
            raise ctx.fail([*parts, key], f"a vehicle takes no '{key}': that is {where}")
    check_mapping(ctx, parts, value, VEHICLE_MEMBER_KEYS, required=("name",))
    name = check_str(ctx, [*parts, "name"], value["name"])
    vp = [*parts, "vehicle"]
    raw = value["vehicle"]
    if not isinstance(raw, dict):
        raise ctx.fail(vp, f"expected a mapping (class, sdp or kills, crew, ...), got "
                           f"{describe(raw)}")  # fmt: skip
    _planned(ctx, vp, raw, PLANNED_VEHICLE_KEYS)
    check_mapping(ctx, vp, raw, VEHICLE_KEYS, required=("class",))

    def at(key):
        return [*vp, key]

    def opt(key, check, default):
        got = optional(raw, key)
        return default if got is MISSING else check(at(key), got)

    kind = check_choice(ctx, at("class"), raw["class"], VEHICLE_CLASSES, "vehicle class")
    sdp = opt("sdp", lambda p, v: check_int(ctx, p, v, 1, "sdp", maximum=10_000), 0)
    kills = opt("kills", lambda p, v: check_int(ctx, p, v, 1, "kills", maximum=1000), 0)
    if bool(sdp) == bool(kills):
        raise ctx.fail(vp if not sdp else at("kills"),
                       "give sdp (Structural Damage Points, with PD armour) or kills (Kills, with "
                       "Kill armour), one of the two (VA-01)")  # fmt: skip
    move = opt("move", lambda p, v: check_int(ctx, p, v, 0, "move", maximum=MAX_MOVE), 0)
    speed = opt("speed", lambda p, v: check_int(ctx, p, v, 0, "speed", maximum=MAX_MOVE), move)
    if speed > move:
        raise ctx.fail(at("speed"), f"speed {speed} is above the vehicle's move {move}")
    heading = opt("heading", lambda p, v: check_number(ctx, p, v, -360.0, 360.0), 0.0)
    locomotion = opt("locomotion", lambda p, v: check_choice(ctx, p, v, LOCOMOTIONS,
                                                             "locomotion"),
                     LOCOMOTION_BY_CLASS[kind])  # fmt: skip
    maneuver = opt("maneuver", lambda p, v: check_int(ctx, p, v, -100, "maneuver", maximum=100),
                   0)  # fmt: skip
    weight = opt("weight", lambda p, v: parse_weight(ctx, p, v), None)
    altitude = opt("altitude", lambda p, v: check_number(ctx, p, v, 0.0, 1e6),
                   DEFAULT_ALTITUDE if locomotion == "air" else 0.0)  # fmt: skip
    if altitude and locomotion != "air":
        raise ctx.fail(at("altitude"), f"only an aircraft flies (locomotion air): {name} is "
                                       f"{locomotion}")  # fmt: skip
    height = opt("height", lambda p, v: check_number(ctx, p, v, None, 1e4, positive=True), 10.0)
    flammable = opt("fuel_flammable", lambda p, v: check_bool(ctx, p, v), True)
    absent = opt("absent", lambda p, v: _absent(ctx, p, v, kind), ())
    from ... import catalogue

    def control(p, v):
        if v == "by_class":
            return CONTROL_SKILL_BY_CLASS[kind]
        canon = catalogue.canonical_skill(v) if isinstance(v, str) else None
        if canon is None:
            raise ctx.fail(p, f"unknown skill {describe(v)} (by_class, or a skill name)",
                           did_you_mean(str(v), ["by_class", *catalogue.skills()]))  # fmt: skip
        return canon

    control_skill = opt("control_skill", control, CONTROL_SKILL_BY_CLASS[kind])

    def charges(p, v):  # M-44, VA-25: N charges, or true for unlimited
        if isinstance(v, bool):
            return -1 if v else 0
        return check_int(ctx, p, v, 0, "countermeasures", maximum=MAX_COUNTERMEASURES)

    countermeasures = opt("countermeasures", charges, 0)
    armor = value.get("armor")
    crew_raw = optional(raw, "crew")
    if crew_raw is MISSING or (isinstance(crew_raw, list) and not crew_raw):
        raise ctx.fail(at("crew"), "a vehicle needs a crew with a pilot (role: pilot): a "
                                   "vehicle with no crew is not built yet (VA-04 applies once "
                                   "its pilot is out)")  # fmt: skip
    if not isinstance(crew_raw, list):
        raise ctx.fail(at("crew"), f"expected a list of crew members, got {describe(crew_raw)}")
    weapons = _weapons(ctx, at("weapons"), optional(raw, "weapons"), build_weapon)
    position = value.get("position")
    surprised = value.get("surprised")
    crew: list[Combatant] = []
    roles: dict[str, str] = {}
    for i, entry in enumerate(crew_raw):
        cp = [*vp, "crew", i]
        check_mapping(ctx, cp, entry, CREW_KEYS, required=("name", "role"))
        role = check_choice(ctx, [*cp, "role"], entry["role"], CREW_ROLES, "crew role")
        member_name = check_str(ctx, [*cp, "name"], entry["name"])
        if member_name in roles or member_name == name:
            raise ctx.fail([*cp, "name"], f"crew member '{member_name}' is named twice")
        if role == "pilot" and "pilot" in roles.values():
            raise ctx.fail([*cp, "role"], "a vehicle has one pilot (role: pilot)")
        roles[member_name] = role
        crew.append((cp, entry, role, member_name))
    if "pilot" not in roles.values():
        raise ctx.fail(at("crew"), "a vehicle needs a pilot (role: pilot): a vehicle nobody "
                                   "drives from the start is not built yet (VA-04 applies once "
                                   "its pilot is out)")  # fmt: skip
    # who fires what (M-76): a crew member may operate several weapons, its tactics pick one
    # by name (the first is in hand at the start)
    operated: dict[str, list[Weapon]] = {}
    pilot_name = next(n for n, r in roles.items() if r == "pilot")
    for index, (operator, weapon) in enumerate(weapons):
        who = operator or pilot_name
        if who not in roles:
            raise ctx.fail([*vp, "weapons", index, "operator"],
                           f"'{who}' is not one of {name}'s crew ({', '.join(roles)})",
                           did_you_mean(who, roles))  # fmt: skip
        if any(w.name == weapon.name for w in operated.get(who, ())):
            raise ctx.fail([*vp, "weapons", index, "name"],
                           f"{who} already operates a weapon named '{weapon.name}': give each "
                           "of a crew member's weapons its own name (tactics pick them by "
                           "name)")  # fmt: skip
        operated.setdefault(who, []).append(weapon)
    members: list[Combatant] = []
    for cp, entry, role, member_name in crew:
        hand = optional(entry, "weapon")
        if member_name in operated and hand is not MISSING:
            raise ctx.fail([*cp, "weapon"],
                           f"{member_name} operates {operated[member_name][0].name}: a crew "
                           "member fires the vehicle weapons it operates or its own, not "
                           "both")  # fmt: skip
        sheet = {k: v for k, v in entry.items() if k != "role"}
        if role == "pilot":
            sheet["tactics"] = [{"do": "none"}]  # its actions are the vehicle's
        elif "tactics" in entry:
            _no_movement(ctx, [*cp, "tactics"], entry["tactics"])
        else:
            sheet["tactics"] = [{"do": "attack"}] if (
                member_name in operated or hand is not MISSING) else [{"do": "none"}]
        if role == "pilot" and "tactics" in entry:
            raise ctx.fail([*cp, "tactics"], "the pilot's actions are the vehicle's: give the "
                                             "vehicle its tactics")  # fmt: skip
        if position is not None:
            sheet["position"] = position
        if member_name in operated:
            sheet["weapon"] = _placeholder(operated[member_name])
            named = _strip_weapon_names(ctx, [*cp, "tactics"], sheet, operated[member_name])
            person = _quiet(ctx, lambda cp=cp, sheet=sheet: build_combatant(ctx, cp, sheet, side))
            person = _armed(person, operated[member_name], named)
            _warn_skill(ctx, person)
        elif hand is MISSING:  # no weapon at all: its fists are never used
            person = _quiet(ctx, lambda cp=cp, sheet=sheet: build_combatant(ctx, cp, sheet, side))
        else:
            person = build_combatant(ctx, cp, sheet, side)
        members.append(dataclasses.replace(person, carrier=name, role=role,
                                           surprised=bool(surprised)))  # fmt: skip
    pilot = next(m for m in members if m.role == "pilot")
    if pilot.skill(control_skill) == 0:
        ctx.warnings.append(f"{pilot.name}, {name}'s pilot, has no {control_skill} skill; an "
                            f"attack on {name} opposes REF + {control_skill} (F31): it counts 0")
    pilot_entry = next(e for _, e, r, _n in crew if r == "pilot")
    seat_weapons = (operated[pilot_name] if pilot_name in operated
                    else [pilot.weapon] if optional(pilot_entry, "weapon") is not MISSING
                    else None)  # fmt: skip
    vehicle = Vehicle(
        kind=kind, sdp=sdp, kills=kills, move=move, speed=speed, heading=float(heading),
        locomotion=locomotion, maneuver=maneuver, weight_kg=weight, fuel_flammable=flammable,
        absent=absent, control_skill=control_skill, crew=tuple(m.name for m in members),
        pilot=pilot.name, weapons=tuple((operator or pilot_name, w) for operator, w in weapons),
        countermeasures=countermeasures, altitude=float(altitude), height=float(height),
    )  # fmt: skip
    if not flying(vehicle):  # M-58: dogfights are aerial (features/dogfights/build.py)
        check_dogfight_tactics(ctx, [*parts, "tactics"], value.get("tactics"),
                               f"{name} is of class {kind}, locomotion {locomotion}")  # fmt: skip
    seat = _seat(ctx, parts, value, side, name, vehicle, pilot, seat_weapons, armor,
                 build_combatant)  # fmt: skip
    return (seat, *members)


def _strip_weapon_names(ctx: Context, parts, sheet: dict, weapons: list[Weapon]):
    """The canonical rules of ``sheet["tactics"]`` (checked: every ``weapon:`` names one of
    ``weapons``), leaving in ``sheet`` the same rules without their ``weapon:`` (the sheet is
    built with a placeholder weapon); None when it has no tactics."""
    if "tactics" not in sheet:
        return None
    rules = tactics.validate_tactics(sheet["tactics"], parts, ctx.fail)
    tactics.check_weapon_names(rules, [w.name for w in weapons], parts, ctx.fail)
    by_name = {w.name: w for w in weapons}
    for index, rule in enumerate(rules):
        weapon = by_name.get(rule.get("weapon"), weapons[0])
        if rule["do"] == "launch" and weapon.missile is None:
            where = [*parts, index, "weapon" if "weapon" in rule else "do"]
            raise ctx.fail(where, f"action 'launch' needs a missile weapon (missile: {{dv: 18, "
                                  f"cluster: N}}), but {weapon.name} is none",
                           "attack")  # fmt: skip
    sheet["tactics"] = [{k: v for k, v in r.items() if k != "weapon"} for r in rules]
    return rules


def _armed(person: Combatant, weapons: list[Weapon], rules) -> Combatant:
    """``person`` firing ``weapons`` (the first in hand), with its full ``rules``."""
    person = dataclasses.replace(person, weapon=weapons[0],
                                 arsenal=tuple(weapons) if len(weapons) > 1 else ())  # fmt: skip
    return person if rules is None else dataclasses.replace(person, tactics=rules)


#: The weapon a crew member or vehicle is built with before its own is put in (its checks are
#: the weapon's own, made when the vehicle's weapons were read).
_PLACEHOLDER = {"name": "(vehicle weapon)", "dc": 1, "skill": "Gunnery"}


def _placeholder(weapons: list[Weapon]) -> dict:
    """The placeholder a sheet is built with before its ``weapons`` are put in: the first's
    name, and a missile when one of them is (the launches are checked against the weapon each
    names by :func:`_strip_weapon_names`)."""
    out = {**_PLACEHOLDER, "name": weapons[0].name}
    if any(w.missile is not None for w in weapons):
        out["missile"] = True
    return out


#: What a vehicle whose pilot operates no weapon may do.
_WEAPONLESS = ("run", "sprint", "move", "none", "wait", "dogfight", "break_off",
               *tactics.MOTION_ACTIONS)


def _quiet(ctx: Context, build):
    """``build()`` without the warnings it gives (a sheet checked elsewhere)."""
    kept = list(ctx.warnings)
    try:
        return build()
    finally:
        ctx.warnings[:] = kept


def _seat(ctx, parts, value, side, name, vehicle, pilot, weapons, armor, build_combatant):
    """The vehicle as a combatant: its pool, armour and place, with its pilot's sheet and the
    ``weapons`` its pilot fires (None: none)."""
    sheet = {k: v for k, v in value.items() if k not in ("vehicle", "armor")}
    tactic_value = value.get("tactics")
    named = None
    if weapons is None:
        if tactic_value is not None:
            rules = tactics.validate_tactics(tactic_value, [*parts, "tactics"], ctx.fail)
            for index, rule in enumerate(rules):
                if rule["do"] not in _WEAPONLESS:
                    raise ctx.fail([*parts, "tactics", index, "do"] if isinstance(
                        tactic_value, list) else [*parts, "tactics"],
                        f"{name}'s pilot operates no weapon: the vehicle cannot "
                        f"'{rule['do']}'")  # fmt: skip
        else:
            sheet["tactics"] = [{"do": "none"}]
        sheet["weapon"] = {"name": "(no weapon)", "dc": 1, "skill": vehicle.control_skill,
                           "range": 1}  # fmt: skip
    else:
        sheet["weapon"] = _placeholder(weapons)
        named = _strip_weapon_names(ctx, [*parts, "tactics"], sheet, weapons)
    sheet["stats"] = dict(pilot.stats)
    sheet["skills"] = {k: v for k, v in pilot.skills.items()}
    sheet.pop("surprised", None)
    if vehicle.sdp:
        sheet["sdp"] = vehicle.sdp
    else:
        sheet["kills"] = vehicle.kills
    if armor is not None:
        sheet["armor"] = armor
    # the pilot's sheet was checked as the pilot's, the weapon as the vehicle's
    seat = _quiet(ctx, lambda: build_combatant(ctx, parts, sheet, side))
    seat = dataclasses.replace(
        seat, vehicle=vehicle, surprised=bool(value.get("surprised")),
        derived={**seat.derived, "run": 2 * vehicle.speed, "sprint": 3 * vehicle.speed},
    )  # fmt: skip
    if weapons is not None:
        seat = _armed(seat, weapons, named)
    if vehicle.kills and seat.armor.pd + seat.armor.ekd:
        raise ctx.fail([*parts, "armor"], f"{name} is Kill-rated (kills: {vehicle.kills}): its "
                                          "armour is in Kills (armor: {kills: N}), VA-01")
    if vehicle.sdp and seat.armor.kills:
        raise ctx.fail([*parts, "armor"], f"{name} has SDP (sdp: {vehicle.sdp}): its armour is "
                                          "PD and EKD, not Kills (VA-01)")  # fmt: skip
    return seat


def _warn_skill(ctx: Context, person: Combatant) -> None:
    if person.weapon.skill not in person.skills:
        ctx.warnings.append(f"{person.name} has no {person.weapon.skill} skill; it counts 0")


def _no_movement(ctx: Context, parts, value) -> None:
    """A crew member rides: its tactics may not move it."""
    rules = tactics.validate_tactics(value, parts, ctx.fail)
    for index, rule in enumerate(rules):
        if rule["do"] in (*tactics.MOVEMENT_ACTIONS, *tactics.MOTION_ACTIONS, *DOGFIGHT_ACTIONS):
            raise ctx.fail([*parts, index, "do"] if isinstance(value, list) else list(parts),
                           f"a crew member rides in its vehicle: it cannot '{rule['do']}' (the "
                           "vehicle's tactics move it)")  # fmt: skip


def _absent(ctx: Context, parts, value, kind: str) -> tuple[str, ...]:
    """Locations the vehicle lacks (M-24): names of its class's table."""
    names = [r.location for r in tables.vehicle_tables()[kind]]
    names = list(dict.fromkeys(names))
    if not isinstance(value, list):
        raise ctx.fail(parts, f"expected a list of locations of the {kind} table, got "
                              f"{describe(value)}")  # fmt: skip
    out: list[str] = []
    for index, raw in enumerate(value):
        loc = check_choice(ctx, [*parts, index], raw, names, f"{kind} location")
        if loc in out:
            raise ctx.fail([*parts, index], f"location '{loc}' is listed twice")
        out.append(loc)
    left = [r for r in tables.vehicle_tables()[kind] if r.location not in out]
    if not left:
        raise ctx.fail(parts, "a vehicle that lacks every location cannot be hit")
    return tuple(out)


def _weapons(ctx: Context, parts, value, build_weapon) -> list[tuple[str | None, Weapon]]:
    """The vehicle's weapons (M-76): inline weapons with a mount and an operator."""
    if value is MISSING:
        return []
    if not isinstance(value, list):
        raise ctx.fail(parts, f"expected a list of weapons, got {describe(value)}")
    out = []
    from ...build import WEAPON_KEYS

    for index, entry in enumerate(value):
        wp = [*parts, index]
        if not isinstance(entry, dict):
            raise ctx.fail(wp, f"expected an inline weapon (a mapping), got {describe(entry)}")
        _planned(ctx, wp, entry, PLANNED_WEAPON_KEYS)
        check_mapping(ctx, wp, entry, (*WEAPON_KEYS, *VEHICLE_WEAPON_KEYS))
        mount = entry.get("mount")
        mount = "turret" if mount is None else check_choice(ctx, [*wp, "mount"], mount, MOUNTS,
                                                             "mount")  # fmt: skip
        arc = entry.get("arc")
        arc = ("front" if mount == "fixed" else "all") if arc is None else check_choice(
            ctx, [*wp, "arc"], arc, ARCS, "arc")  # fmt: skip
        operator = entry.get("operator")
        if operator is not None:
            operator = check_str(ctx, [*wp, "operator"], operator)
        scale = entry.get("scale")
        scale = "none" if scale is None else check_choice(ctx, [*wp, "scale"], scale,
                                                           WEAPON_SCALES, "range scale")
        weapon = build_weapon({k: v for k, v in entry.items() if k not in VEHICLE_WEAPON_KEYS},
                              ctx, wp)  # fmt: skip
        out.append((operator, dataclasses.replace(weapon, mount=mount, arc=arc, scale=scale)))
    return out
