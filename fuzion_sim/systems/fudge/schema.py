"""A JSON Schema of a FUDGE member (a combatant or object, a charge, a barrier), its weapon and
its armour, for editors (``fuzion-sim schema --system fudge``). The loader (``build.py``) stays
the judge; the tests hold the schema to it (every shipped scenario passes it, a misspelt key
fails it)."""

from __future__ import annotations

from . import build, catalogue
from .dice import LADDER
from .model import AIMS, COVERS, SIGHTS, SPEEDS, TACTICS, TARGETING

__all__ = ["member_schema", "weapon_schema"]


def _num(low=None, high=None, text="", positive=False):
    out = {"type": "number", "description": text}
    if positive:
        out["exclusiveMinimum"] = 0
    elif low is not None:
        out["minimum"] = low
    if high is not None:
        out["maximum"] = high
    return out


def _int(low, high, text):
    return {"type": "integer", "minimum": low, "maximum": high, "description": text}


def _level(text, low=build.TRAIT_RANGE[0], high=build.TRAIT_RANGE[1]):
    names = [n for n, v in LADDER.items() if low <= v <= high]
    return {"oneOf": [{"enum": names}, {"type": "integer", "minimum": low, "maximum": high}],
            "description": f"{text}: a ladder level ({', '.join(names)}) or {low} to {high}"}


def _enum(values, text):
    return {"enum": list(values), "description": text}


def _object(props, required=(), text=""):
    return {"type": "object", "description": text, "properties": props,
            "required": list(required), "additionalProperties": False}  # fmt: skip


def weapon_schema() -> dict:
    """An inline weapon or explosive."""
    metres = build.MAX_METRES
    props = {
        "name": {"type": "string", "description": "its name"},
        "bd": _num(0, build.MAX_BD, "Basic Damage: the average damage on a Fair man (§8.22)"),
        "scale": _int(*build.SCALE_RANGE, "its Scale (default 0)"),
        "sight": _enum(SIGHTS, "an aiming device: advanced +1, infrared +1 (+2 when dark)"),
        "laser": {"type": "boolean", "description": "a laser pointer: +2 under 10 m"},
        "concussion": _num(0, 10 * build.MAX_BD, "Concussion damage (§8.31)"),
        "concussion_range": _num(high=metres, positive=True, text="Concussion Range, metres"),
        "concussion_value": _level("Concussion Value (UA18)"),
        "burst_radius": _num(high=metres, positive=True, text="fragmentation radius, metres"),
        "source": {"type": "string", "description": "where its numbers come from (recorded)"},
        "notes": {"type": "string", "description": "notes (recorded)"},
    }
    assert set(props) == set(build.WEAPON_KEYS), set(props) ^ set(build.WEAPON_KEYS)
    return _object(props, ("name", "bd"), "an inline weapon")


def _where() -> dict:
    pos = _num(-build.MAX_METRES, build.MAX_METRES)
    return {
        "distance": _num(0, build.MAX_METRES, "metres to every enemy"),
        "position": {"oneOf": [pos, {"type": "array", "items": pos, "minItems": 2,
                                     "maxItems": 2}],
                     "description": "metres on a line, or [x, y]"},
    }  # fmt: skip


def member_schema() -> dict:
    """The JSON Schema of one member mapping: a combatant or object, a charge, a barrier."""
    weapon = {"oneOf": [{"enum": catalogue.weapons()}, weapon_schema()],
              "description": "a catalogue weapon (fuzion-sim catalog weapons --system fudge) "
                             "or an inline one"}  # fmt: skip
    person = {
        "name": {"type": "string", "description": "its name (unique in the scenario)"},
        "skill": _level("the weapon skill (default Fair)"),
        "damage_capacity": _level("Damage Capacity (default Fair)"),
        "weapon": weapon,
        **_where(),
        "initiative": _int(*build.INITIATIVE_RANGE, "higher acts first (UA1)"),
        "scale": _int(*build.SCALE_RANGE, "its Scale (default 0, a man)"),
        "armour": _object({"points": _num(0, build.MAX_ARMOUR, "armour points"),
                           "scale": _int(*build.SCALE_RANGE, "the armour's Scale (UA9)")},
                          ("points",), "armour (§8.2211)"),
        "dodge": _level("Dodge, with rules.ranged_defence: dodge (UA4)"),
        "speed": _enum(SPEEDS, "how fast it moves (§8.521)"),
        "ducked": {"type": "boolean", "description": "ducked (§8.4): harder to hit, half "
                                                     "concussion"},
        "cover": _enum(COVERS, "cover (§8.4, UA22)"),
        "aim": _enum(AIMS, "the part it aims at with rules.hit_locations: aimed"),
        "wound_width": _int(1, build.MAX_WIDTH, "points a wound level (UA12, default 2)"),
        "targeting": _enum(TARGETING, "whom it shoots (default first)"),
        "tactic": _enum(TACTICS, "shoot, or dodge every shot (UA4)"),
    }
    assert set(person) == set(build.PERSON_KEYS), set(person) ^ set(build.PERSON_KEYS)
    charge = {
        "name": person["name"],
        "charge": {**weapon, "description": "the explosive"},
        "detonates": _int(1, 10_000, "the round it goes off at the start of (default 1)"),
        "avg_seconds": _num(high=build.MAX_SECONDS, positive=True,
                            text="or: goes off after this long (UA29)"),
        "tamped": {"type": "boolean", "description": "tamped (§8.32): half concussion, twice "
                                                     "the Basic Damage"},
        "tamping": _level("or: the Explosives skill that tamps it (Fair or better)"),
        "contact": {"type": "string", "description": "the member it is set against"},
        **_where(),
    }
    assert set(charge) == set(build.CHARGE_KEYS), set(charge) ^ set(build.CHARGE_KEYS)
    barrier = {
        "name": person["name"],
        "wounds": _int(0, build.MAX_WOUNDS, "its Wounds, against a breach (§8.32)"),
        "scale": person["scale"],
        **_where(),
    }
    assert set(barrier) == set(build.BARRIER_KEYS), set(barrier) ^ set(build.BARRIER_KEYS)
    return {"oneOf": [_object(charge, ("name", "charge"), "a charge (an explosive event)"),
                      _object(barrier, ("name", "wounds"), "a barrier to breach"),
                      _object(person, ("name",), "a combatant, or an object to shoot")],
            "description": "a member"}  # fmt: skip
