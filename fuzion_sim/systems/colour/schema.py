"""A JSON Schema of a colour member, its weapon, armour layers, shield and actions, for editors
(``fuzion-sim schema --system colour``): every key the loader takes, its type, range and
meaning, unknown keys rejected. The loader (``build.py``) stays the judge; the tests hold the
schema to it (every shipped scenario passes it, a misspelt key fails it)."""

from __future__ import annotations

from . import build, catalogue
from .codes import ACTION_NAMES, DEFENCE_NAMES, LOCATIONS, RAPID_FIRE, TARGETING, TYPE_NAMES
from .ladder import ABILITIES, ladder, ladder_names

__all__ = ["member_schema"]


def _int(low=None, high=None, text=""):
    out = {"type": "integer", "description": text}
    if low is not None:
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


def _rank(text: str) -> dict:
    """A rank name of either ladder or a whole number (its value)."""
    names = sorted({n for lad in ladder_names() for n in ladder(lad).names})
    return {"oneOf": [_int(0, build.MAX_VALUE), {"type": "string",
                                                  "description": "a rank: " + ", ".join(names)}],
            "description": text}  # fmt: skip


def _covers() -> dict:
    return {"type": "array", "items": {"enum": list(TYPE_NAMES)}, "minItems": 1,
            "uniqueItems": True,
            "description": "the damage types it stops (default: bludgeoning, piercing, "
                           "slashing; CA30)"}  # fmt: skip


def weapon_schema() -> dict:
    props = {
        "name": {"type": "string", "description": "its name"},
        "kind": _enum(("melee", "ranged"), "melee (Fighting against Fighting) or ranged "
                                           "(Agility against Agility)"),
        "ability": _enum(ABILITIES, "the ability the attack rolls (default by kind)"),
        "damage": _rank("a flat damage rating (a number or a rank's value)"),
        "str_plus": _int(-build.MAX_STR_PLUS, build.MAX_STR_PLUS,
                         "melee damage = Strength value + str_plus (default 0)"),
        "type": _enum(TYPE_NAMES, "damage type (CA91)"),
        "ap": _rank("Armor-Piercing: armour it cancels (004 L62)"),
        "ap_percent": _int(0, 100, "Armor-Piercing as a percentage (CA28)"),
        "ignores_armour": _bool("Ignores Armor (004 L68)"),
        "gun": _bool("a gun: no Power Attack, Agility to attack (004 L86)"),
        "thrown": _bool("a thrown weapon: adds the thrower's Strength (CA23)"),
        "unarmed": _bool("a brawling attack: block stops it (002 L13)"),
        "parry": _bool("a weapon to parry with (default: melee weapons)"),
        "rapid_fire": _enum(RAPID_FIRE, "single, full_auto or continuous (004 L89)"),
        "rounds": _rank("the Rating(X) of rapid fire: rounds a turn (CA47)"),
        "burst": _bool("may fire three-round bursts (004 L99; Full-Auto always may)"),
        "area": _bool("an area effect: everyone in the area avoids with Agility (004 L83)"),
        "aim_max_rounds": _int(1, build.MAX_AIM, "aiming turns that stack (004 L87)"),
        "shots": _int(1, build.MAX_SHOTS, "a magazine (rules.ammunition: true)"),
        "power": _bool("a power, for the armour damage table (CA35)"),
        "notes": {"type": "string", "description": "notes (recorded)"},
    }  # fmt: skip
    assert set(props) == set(build.WEAPON_KEYS), set(props) ^ set(build.WEAPON_KEYS)
    return _object(props, required=("name",), text="an inline weapon")


def armour_schema(layer: str) -> dict:
    props = {
        "name": {"type": "string", "description": "its name"},
        "value": _rank("its armour value"),
        "layer": _enum((layer,), "the layer (it must match the slot)"),
        "not_subject_to_ap": _bool("Armor-Piercing does not reduce it (004 L67)"),
        "covers": _covers(),
        "notes": {"type": "string", "description": "notes (recorded)"},
    }
    assert set(props) == set(build.ARMOUR_KEYS), set(props) ^ set(build.ARMOUR_KEYS)
    return _object(props, required=("value",), text=f"inline {layer} armour")


def shield_schema() -> dict:
    props = {
        "name": {"type": "string", "description": "its name"},
        "protection": _rank("armour it adds in Block mode (004 L84)"),
        "deflection": _int(0, build.CS_RANGE[1], "column shifts to defence in Deflect mode"),
        "covers": _covers(),
        "notes": {"type": "string", "description": "notes (recorded)"},
    }
    assert set(props) == set(build.SHIELD_KEYS), set(props) ^ set(build.SHIELD_KEYS)
    return _object(props, required=("name",), text="an inline shield")


def action_schema() -> dict:
    props = {
        "do": _enum(ACTION_NAMES, "the action (default attack)"),
        "rounds": _int(1, build.MAX_SHOTS, "rounds fired (autofire, sweep, concentrated)"),
        "target": {"type": "string", "description": "a preferred enemy"},
        "power": _bool("a Power Attack: -2CS, +50 percentage points (004 L80)"),
        "called": _enum(LOCATIONS, "a called shot (004 L73-78)"),
    }
    assert set(props) == set(build.ACTION_KEYS), set(props) ^ set(build.ACTION_KEYS)
    return _object(props, text="one action of a turn")


def _slot(kind_names, inline, text):
    return {"oneOf": [_int(0, build.MAX_VALUE), {"type": "string", "description": kind_names},
                      inline], "description": text}  # fmt: skip


def member_schema() -> dict:
    """The JSON Schema of one colour member mapping."""
    cs = build.CS_RANGE
    defence = _enum(DEFENCE_NAMES, "a defence (002)")
    props = {
        "name": {"type": "string", "description": "its name (unique in the scenario)"},
        "abilities": _object({a: _rank(f"{a} (default Typical)")
                              for a in (*ABILITIES, *build.SHEET_ONLY)},
                             text="rank names or numbers; Health = F + A + S + E values"),
        "health": _int(1, build.MAX_HEALTH, "override Health (K5)"),
        "weapon": {"oneOf": [{"type": "string", "description": "a catalogue weapon ("
                              + ", ".join(catalogue.weapons()) + ") or unarmed"},
                             weapon_schema(), {"type": "null"}],
                   "description": "what it fights with (absent: its fists)"},
        "armor": _slot("a rank or catalogue armour", armour_schema("body"), "worn armour"),
        "natural_armor": _slot("a rank or catalogue armour", armour_schema("natural"),
                               "natural armour (002 L58)"),
        "force_field": _slot("a rank", armour_schema("field"),
                             "a force field that drops when penetrated (002 L56)"),
        "shield": {"oneOf": [{"type": "string", "description": "a catalogue shield"},
                             shield_schema()], "description": "a carried shield"},
        "shield_mode": _enum(("block", "deflect"), "the shield's mode (CA42)"),
        "defence": {"oneOf": [defence, {"type": "array", "items": defence, "minItems": 1,
                                        "uniqueItems": True}],
                    "description": "its defence (a list: the ones it may choose, CA19)"},
        "actions": {"oneOf": [action_schema(), {"type": "array", "items": action_schema(),
                                                "minItems": 1}],
                    "description": "the actions of each turn (CA16)"},
        "targeting": _enum(TARGETING, "whom it attacks (default first)"),
        "finish_fallen": _bool("attacks fallen enemies first (004 L50)"),
        "aim": _int(0, build.MAX_AIM, "turns it aims before each ranged attack (004 L87)"),
        "dive_for_cover": _bool("dives for cover from area effects (002 L34)"),
        "dive_areas": _int(1, build.MAX_DIVE_AREAS, "areas it dives (-1CS each past the first)"),
        "attack_cs": _int(*cs, "column shifts on its attack rolls (CA21)"),
        "defence_cs": _int(*cs, "column shifts on its defence rolls (CA21)"),
        "arms": _int(0, build.MAX_ARMS, "its arms (a two-armed creature loses -2CS an arm)"),
        "when_grappled": _enum(("escape", "attack"), "what it does when held (CA95-CA96)"),
        "reraise_field": _bool("raises its dropped force field again (CA39)"),
        "super_crit_call": _enum(LOCATIONS, "where a Super Crit's called shot lands (CA24)"),
        "area": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                 "description": "who stands in its area effect (default: every enemy)"},
    }  # fmt: skip
    assert set(props) == set(build.MEMBER_KEYS), set(props) ^ set(build.MEMBER_KEYS)
    return _object(props, required=("name",), text="a member")
