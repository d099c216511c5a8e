"""A JSON Schema of a Fuzion member (combatant), its weapon and its armour, for editors
(``fuzion-sim schema --system fuzion``): every key the loader takes, its type, range and
meaning, unknown keys rejected. The loader (``build.py``) stays the judge; the schema is held
to it by the tests (every shipped scenario passes it, a misspelt key fails it)."""

from __future__ import annotations

from . import build, catalogue, tables, tactics
from .model import ABORTS, AREA_BASES, BOWS, COVERS, DERIVED, PRIMARIES, SIZES, UNARMED_NAMES

__all__ = ["hazards_schema", "member_schema"]


def _int(low=None, high=None, text=""):
    out = {"type": "integer", "description": text}
    if low is not None:
        out["minimum"] = low
    if high is not None:
        out["maximum"] = high
    return out


def _num(low=None, high=None, text="", positive=False):
    out = {"type": "number", "description": text}
    if positive:
        out["exclusiveMinimum"] = 0
    elif low is not None:
        out["minimum"] = low
    if high is not None:
        out["maximum"] = high
    return out


def _bool(text):
    return {"type": "boolean", "description": text}


def _enum(values, text):
    return {"enum": list(values), "description": text}


def _object(properties: dict, required=(), text="") -> dict:
    return {"type": "object", "description": text, "properties": properties,
            "required": list(required), "additionalProperties": False}  # fmt: skip


def weapon_schema() -> dict:
    m = build.MODIFIER_RANGE
    area = {"oneOf": [
        _object({"per": _enum(AREA_BASES, "radius per barrel, per die of damage or per Kill"),
                 "radius": _num(high=1000.0, positive=True, text="metres per unit")},
                required=("per", "radius")),
        _enum(tables.area_effects(), "a typical area effect (area_effects.yaml)"),
    ], "description": "an area effect (F17): everyone inside is hit"}  # fmt: skip
    props = {
        "name": {"type": "string", "description": "its name"},
        "skill": _enum(catalogue.skills(), "the skill it attacks with"),
        "kind": _enum(("ranged", "melee"), "ranged (default) or melee"),
        "damage": _enum(("killing", "stun"), "killing (default) or Stun damage (F20-F21)"),
        "dc": _int(0, build.MAX_DC, "damage class: d6 of damage"),
        "accuracy": _int(*m, "weapon accuracy (WA), added to the attack"),
        "range": _num(high=build.MAX_METRES, positive=True,
                      text="listed range in metres (melee: its reach, 4 or 6)"),
        "rof": _int(1, 1000, "rate of fire: most shots an attack (autofire)"),
        "shots": _int(1, 100_000, "magazine size (absent: unlimited)"),
        "min_str": _int(0, build.STAT_RANGE[1],
                        "minimum STR (F12): -1 to hit and -1 die per point short"),
        "ap": _bool("armour piercing: armour counts ap_factor (F20)"),
        "autofire": _bool("may fire several shots an attack (F15)"),
        "energy": _bool("an energy attack: armour EKD stops it, not PD"),
        "hands": _int(1, 2, "hands it needs (recorded; no rule reads it)"),
        "notes": {"type": "string", "description": "notes (recorded)"},
        "category": {"type": "string", "description": "catalogue category (recorded)"},
        "cost": _num(0, 1e15, "cost (recorded)"),
        "area": area,
        "reload_actions": _int(1, 100, "actions a reload takes"),
        "kills": _int(0, build.MAX_WEAPON_KILLS, "a Kill-rated weapon of that many Kills (F29)"),
        "blade": _bool("a blade (armour with half_vs_blades counts half)"),
        "bow": _enum(BOWS, "a bow: its range is 20 m per STR point up to its cap"),
        "power_points": _int(0, 1000, "an energy blast: 10 m of range per point"),
        "burst": _bool("may fire 3-round bursts (F16)"),
        "barrels": _int(1, 100, "barrels, for an area per barrel"),
        "explosive": _bool("damage falls 2 points per metre from the centre (F17)"),
        "missile": {"oneOf": [
            _object({"dv": _int(*build.MISSILE_DV_RANGE, "the DV its target's evasion rolls "
                                                         "must beat (F18; default 18)"),
                     "smartness": _enum(tables.missile_smartness(), "a named DV "
                                        "(missiles.yaml, not from the seed): dumb 14, "
                                        "heat_seeker 18, smart 22"),
                     "cluster": _int(1, build.MAX_CLUSTER, "missiles one launch fires, "
                                     "resolved by one evasion roll (VA-23; default 1)")}),
            {"const": True}],
            "description": "a missile weapon (F18): shots counts launches, dc or kills the "
                           "damage of each missile"},
        "thrown": _object(
            {"weight": _weight("its weight: its Weight Modifier row and collision row"),
             "aerodynamic": _bool("+1 to the Throw (M-73)"),
             "balanced": _bool("balanced for throwing: +1 to the Throw (M-73)")},
            required=("weight",),
            text="an object thrown (M-73, VA-49): its range from the Throw Table, its damage "
                 "the collision DC of its weight at the throw's speed; shots: the objects; "
                 "takes no dc, kills, damage, range, kind or reload_actions"),
    }  # fmt: skip
    assert set(props) == set(build.WEAPON_KEYS), set(props) ^ set(build.WEAPON_KEYS)
    return _object(props, required=("name", "skill"), text="an inline weapon")


def armour_schema() -> dict:
    locations = list(tables.hit_locations().names)
    props = {
        "name": {"type": "string", "description": "its name"},
        "pd": _int(0, build.MAX_ARMOUR, "PD against physical attacks"),
        "ekd": _int(0, build.MAX_ARMOUR, "EKD against energy attacks"),
        "half_vs_blades": _bool("good for half against blades"),
        "description": {"type": "string", "description": "description (recorded)"},
        "notes": {"type": "string", "description": "notes (recorded)"},
        "category": {"type": "string", "description": "catalogue category (recorded)"},
        "cost": _num(0, 1e15, "cost (recorded)"),
        "kills": _int(0, build.MAX_KILLS, "Kill-rated armour of that many Kills (F29)"),
        "covers": {"type": "array", "items": {"enum": locations}, "minItems": 1,
                   "uniqueItems": True, "description": "the hit locations it covers (F27)"},
        "sdp": _int(1, build.MAX_POOL, "powered armour: the suit's SDP, which takes half of what "
                                       "gets through its PD (M-35; rules.powered_armour: true)"),
    }  # fmt: skip
    assert set(props) == set(build.ARMOR_KEYS), set(props) ^ set(build.ARMOR_KEYS)
    return _object(props, required=("name",), text="inline armour")


def _tactic_rule() -> dict:
    from .tables import manoeuvres

    return _object({
        "when": {"type": "string", "description": "a condition (absent: always)"},
        "do": _enum(tactics.ACTION_NAMES, "the action"),
        "toward": _enum(tactics.MOVE_DIRECTION, "where a movement action goes"),
        "fire": {"oneOf": [{"type": "integer", "minimum": 1}, {"const": "all"}],
                 "description": "shots of an autofire attack"},
        "until": _enum(tactics.WAIT_UNTIL, "what a wait waits for"),
        "weapon": {"type": "string", "description": "the weapon (by name) the action uses, "
                                                    "for one who fires several (M-76)"},
        "drop": {"type": "string", "description": "jump: the drop (by name) it jumps down"},
        "name": _enum(tuple(manoeuvres()), "manoeuvre: which (manoeuvres.yaml; M-46, VA-27)"),
        "kind": _enum(tactics.RAM_KINDS, "ram: head-on, side or rear (auto: by the headings; "
                                         "VA-39)"),
        "heading": _num(-360, 360, "steer, manoeuvre: the heading in degrees it drives at"),
    }, required=("do",),
        text="a rule: at every action the first whose condition holds")  # fmt: skip


def vehicle_schema(member_props: dict) -> dict:
    """The ``vehicle:`` block (../shared/rulings/vehicles, M-01 to M-31, M-76)."""
    from .features.vehicles import build as bv
    from .model import ARCS, CREW_ROLES, LOCOMOTIONS, MOUNTS, VEHICLE_CLASSES, WEAPON_SCALES

    locations = list(tables.vehicle_location_names())
    crew_props = {k: member_props[k] for k in bv.CREW_KEYS if k in member_props}
    crew_props["role"] = _enum(CREW_ROLES, "pilot (controls it; one), gunner (fires the vehicle "
                                           "weapon it operates) or passenger (its own weapon)")
    weapon = weapon_schema()
    weapon = {**weapon, "description": "a vehicle weapon (M-76)", "properties": {
        **weapon["properties"],
        "mount": _enum(MOUNTS, "turret (default) or fixed (-4, no turret: VA-15)"),
        "arc": _enum(ARCS, "the arc it bears on from the heading (default: front for a fixed "
                           "mount, all for a turret)"),
        "operator": {"type": "string", "description": "the crew member who fires it "
                                                      "(default: the pilot)"},
        "scale": _enum(WEAPON_SCALES, "range bands: mecha (x10 whoever fires it, M-18) or "
                                      "person (never x10); unset: rules.mecha_range_scale"),
    }}  # fmt: skip
    props = {
        "class": _enum(VEHICLE_CLASSES, "its hit table: ground, aircraft, boat or (humanoid) "
                                        "mecha"),
        "sdp": _int(1, 10_000, "Structural Damage Points (armour in PD): VA-01"),
        "kills": _int(1, 1000, "Kills of structure (armour in Kills): VA-01"),
        "move": _int(0, bv.MAX_MOVE, "top MOVE (M-06)"),
        "speed": _int(0, bv.MAX_MOVE, "the MOVE it moves at: 2 x speed m a phase (default move)"),
        "heading": _num(-360, 360, "degrees, 0 = +x, counter-clockwise: its facing (VA-05)"),
        "locomotion": _enum(LOCOMOTIONS, "how it moves (default by class): how it loses "
                            "control (skid and spin, stall and spin, falls over; M-47 to M-51)"),
        "altitude": _num(0, 1e6, "an aircraft's metres above the ground: what it loses out of "
                               "control before it crashes (VA-30; default 1000)"),
        "height": _num(positive=True, text="a walker's fall in m when it falls over (VA-31 "
                                           "walker_fall_damage; default 10)"),
        "maneuver": _int(-100, 100, "Maneuver Value (M-13; recorded for dogfights)"),
        "weight": {"oneOf": [_num(positive=True, text="kg"),
                             {"type": "string", "description": "'575 kg', '1265 lbs', '20 t', "
                                                               "'2 tons'"}],
                   "description": "its weight (M-12): its row of the collision table"},
        "fuel_flammable": _bool("row 11 does x3 (VA-12; default true)"),
        "absent": {"type": "array", "items": {"enum": locations}, "uniqueItems": True,
                   "description": "locations it lacks: rolled again (M-24)"},
        "control_skill": {"type": "string", "description": "by_class (Driving for ground, "
                          "Piloting otherwise) or a skill: its pilot's defence (F31, VA-03)"},
        "crew": {"type": "array", "minItems": 1, "description": "its crew: people who ride in "
                 "it (VA-18); one is the pilot",
                 "items": _object(crew_props, required=("name", "role"), text="a crew member")},
        "weapons": {"type": "array", "items": weapon, "description": "its weapons (M-76)"},
        "countermeasures": {"oneOf": [_int(0, bv.MAX_COUNTERMEASURES, "charges"), _bool(
            "true: unlimited")], "description": "countermeasure charges: +2 to its missile "
            "evasion rolls (M-44, VA-25)"},
    }  # fmt: skip
    assert set(props) == set(bv.VEHICLE_KEYS), set(props) ^ set(bv.VEHICLE_KEYS)
    return _object(props, required=("class",), text="a vehicle or mecha; its members "
                   "(stats, skills, weapon) are its crew's")  # fmt: skip


def member_schema() -> dict:
    """The JSON Schema of one Fuzion combatant mapping."""
    m = build.MODIFIER_RANGE
    pos = _num(*build.POSITION_RANGE)
    derived = {}
    for key in DERIVED:
        low, high = build._DERIVED_BOUNDS.get(key, (0, build.MAX_POOL))
        derived[key] = _int(low, high, f"override the derived {key} (RULINGS F5)")
    presets = sorted(set(tactics.presets()) - {"default"})
    props = {
        "name": {"type": "string", "description": "its name (unique in the scenario)"},
        "stats": _object({p: _int(1 if p == "BODY" else build.STAT_RANGE[0], build.STAT_RANGE[1],
                                  f"{p} (default 5)") for p in PRIMARIES},
                         text="primary characteristics (RULINGS F6); each defaults to 5"),
        "skills": {"type": "object", "description": "skill levels (fuzion-sim catalog skills)",
                   "propertyNames": {"enum": list(catalogue.skills())},
                   "additionalProperties": _int(*build.SKILL_RANGE)},
        "weapon": {"oneOf": [{"type": "string", "description": "a catalogue weapon, or "
                              + " / ".join(UNARMED_NAMES) + " for the fists"},
                             weapon_schema(), {"type": "null"}],
                   "description": "what it fights with (absent: its fists, F14)"},
        "armor": {"oneOf": [{"type": "string", "description": "catalogue armour"},
                            armour_schema(), {"type": "null"}], "description": "worn armour"},
        "position": {"oneOf": [pos, {"type": "array", "items": pos, "minItems": 2,
                                     "maxItems": 2}],
                     "description": "metres on a line, or [x, y]"},
        **derived,
        "tactics": {"oneOf": [{"enum": ["default", *presets]},
                              {"type": "array", "items": _tactic_rule(), "minItems": 1}],
                    "description": "ordered rules, or a preset (data/tactics.yaml)"},
        "targeting": _enum(tactics.TARGETING, "whom it attacks (default first)"),
        "surprised": _bool("surprised: no action in the opening phase (F11)"),
        "cover": _enum(COVERS, "cover it stands behind (F11)"),
        "prone": _bool("prone (F11)"),
        "crouched": _bool("crouched (F11)"),
        "obscured": _bool("obscured: a Perception roll a phase (F11)"),
        "braced": _bool("braced: +2 to its ranged attacks"),
        "silhouetted": _bool("silhouetted: +2 to attacks on it"),
        "size": _enum(SIZES, "its size (attacks against it, F11)"),
        "modifiers": _int(*m, "a GM's flat modifier to its attacks"),
        "defence_modifiers": _int(*m, "a GM's flat modifier to its defence"),
        "drawn": _bool("its weapon starts drawn (default true)"),
        "abort": _enum(ABORTS, "the defence it aborts to when attacked (F32)"),
        "sdp": _int(1, build.MAX_POOL, "an object of that many SDP"),
        "kills": _int(1, build.MAX_KILLS, "a Kill-rated target of that many Kills (F29)"),
        "called_shot": _enum(tables.called_locations(),
                             "the location it calls with rules.hit_locations: called (a "
                             "person's) or rules.vehicle_locations: called (a vehicle's)"),
    }  # fmt: skip
    props["weight"] = _weight("its weight: the Falling & Collisions row (VA-36; default 72 kg)")
    props["push"] = _int(0, build.MAX_PUSH, "pushing (M-75): extra STR levels all fight, 5 END "
                         "a phase each, then STUN")
    props["vehicle"] = vehicle_schema(props)
    props.update(_environment_member_keys())  # poison:, resting: (features/hazards/build.py)
    assert set(props) == set(build.COMBATANT_KEYS), set(props) ^ set(build.COMBATANT_KEYS)
    return _object(props, required=("name",), text="a combatant")


def _weight(text: str) -> dict:
    return {"oneOf": [_num(positive=True, text="kg"),
                      {"type": "string", "description": "'72 kg', '160 lbs', '20 t', '2 tons', "
                                                        "'+100 tons'"}],
            "description": text}  # fmt: skip


def scene_schema() -> dict:
    """The scenario-level ``obstacles``, ``drops`` and ``terrain``
    (features/scene/build.py) and ``hazards`` (features/hazards/build.py)."""
    from .features.scene.build import DROP_KEYS, MAX_SCENE, OBSTACLE_KEYS, TERRAIN_KEYS
    from .features.scene.terrain import TERRAIN_CLASSES

    pair = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
    obstacle = {
        "name": {"type": "string", "description": "its name (unique among obstacles and drops)"},
        "at": {**pair, "description": "[x, y] of its corner with the least x and y (m)"},
        "size": {**pair, "description": "[width along x, height along y] (m)"},
        "sdp": _int(1, 1_000_000, "its Structural Damage Points: it breaks at 0"),
        "kills": _int(1, 10_000, "its Kills: it breaks at 0"),
        "weight": _weight("its weight (the table's row; kept for ramming)"),
    }
    drop = {
        "name": {"type": "string", "description": "its name (unique among obstacles and drops)"},
        "at": {**pair, "description": "[x, y] of its centre (m)"},
        "radius": _num(positive=True, text="m (default 1)"),
        "height": _num(positive=True, text="how far down (m): the fall"),
    }
    ground = {
        "name": {"type": "string", "description": "its name (unique in the scene)"},
        "kind": _enum(TERRAIN_CLASSES, "the ground: rough MOVE x1/2, very_rough x1/4 and "
                                       "+2 / +4 to manoeuvre DVs (VA-51)"),
        "at": {**pair, "description": "[x, y]: a rectangle's corner with the least x and y, "
                                      "or a circle's centre (m)"},
        "size": {**pair, "description": "[width along x, height along y] (m): a rectangle"},
        "radius": _num(positive=True, text="m: a circle"),
    }
    assert set(obstacle) == set(OBSTACLE_KEYS) and set(drop) == set(DROP_KEYS)
    assert set(ground) == set(TERRAIN_KEYS)
    return {
        "obstacles": {"type": "array", "maxItems": MAX_SCENE, "items": _object(
            obstacle, required=("name", "at", "size"), text="a wall or block: knockback into "
            "it is a collision (M-40, VA-41)"), "description": "obstacles"},
        "drops": {"type": "array", "maxItems": MAX_SCENE, "items": _object(
            drop, required=("name", "at", "height"), text="a ledge, window or hole: a jump "
            "there, or knockback into it, is a fall (M-60, M-72)"),
            "description": "drops"},
        "terrain": {"type": "array", "maxItems": MAX_SCENE, "items": _object(
            ground, required=("name", "kind", "at"), text="a stretch of ground: the phase's "
            "terrain is the majority of a move's path (M-11, VA-51); a later zone lies on "
            "top"), "description": "terrain zones"},
        "hazards": hazards_schema(),
    }  # fmt: skip
# --- the environment (features/hazards/build.py) -------------------------------------------


def _dc_or_intensity(bands) -> dict:
    return {"dc": _int(1, 60, "damage class: d6 a phase (VA-46)"),
            "intensity": _enum(bands, "the seed's band, as a DC (VA-46: 2, 7, 15)")}  # fmt: skip


def _environment_member_keys() -> dict:
    from .features.hazards.build import INTENSITY_DC, POISON_POOLS

    poison = _object({"name": {"type": "string", "description": "its name"},
                      **_dc_or_intensity(INTENSITY_DC["poison"]),
                      "pool": _enum(POISON_POOLS, "the pool it takes from (default hits)")},
                     text="a poison or drug in its blood from the start (VA-48)")  # fmt: skip
    return {"poison": poison,
            "resting": _bool("sitting quietly: holds its breath END / 2 phases (M-71)")}


def hazards_schema() -> dict:
    """The JSON Schema of the scenario's ``hazards:`` list (M-67 to M-71)."""
    from .features.hazards.build import HAZARD_KINDS, INTENSITY_DC

    point = {"type": "array", "items": _num(-100_000.0, 100_000.0), "minItems": 2,
             "maxItems": 2, "description": "[x, y] in metres"}
    bands = sorted({b for v in INTENSITY_DC.values() for b in v})
    props = {
        "name": {"type": "string", "description": "its name (unique)"},
        "kind": _enum(HAZARD_KINDS, "what it is"),
        **_dc_or_intensity(bands),
        "circle": _object({"center": point, "radius": _num(high=100_000.0, positive=True,
                                                            text="metres")},
                          required=("center", "radius"), text="a round zone"),
        "rect": _object({"from": point, "to": point}, required=("from", "to"),
                        text="a rectangular zone between two corners"),
        "obscures": _bool("inside, sight is obscured (the F11 Perception roll)"),
        "asphyxiating": _bool("inside, the air cannot be breathed (VA-47)"),
        "terrain": {"description": "an error: terrain is its own zone in terrain: (VA-51)"},
    }  # fmt: skip
    return {"type": "array", "items": _object(props, required=("name", "kind"),
                                              text="a hazard zone"),
            "description": "hazard zones: fire, electricity, smoke, poison (M-67 to M-71)"}


def side_option_schema() -> dict:
    """The side-wide keys of a side given as a mapping."""
    return {"surprised": _bool("every member surprised unless it says otherwise")}
