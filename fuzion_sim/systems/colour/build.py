"""Build colour-system members (abilities, weapon, armour layers, shield, defences, actions)
from a scenario's data with the shared checks (:mod:`fuzion_sim.validation.checks`): an error
names the file, the line, the key path, the problem, the allowed range and the closest valid
name. Rank names are checked against the scenario's ladder once the rules are known
(:func:`check_scenario`); problems that do not stop a run become warnings.
"""

from __future__ import annotations

import dataclasses

from fuzion_sim.errors import ScenarioError, did_you_mean
from fuzion_sim.validation.checks import (
    MISSING,
    Context,
    check_bool,
    check_choice,
    check_int,
    check_mapping,
    check_str,
    describe,
    is_int,
    optional,
)

from . import catalogue
from .codes import ACTION_NAMES, DEFENCE_NAMES, LOCATIONS, RAPID_FIRE, TARGETING, TYPE_NAMES
from .ladder import ABILITIES, ladder, ladder_names, normal_name
from .model import FISTS, Action, Armour, Member, Rated, Shield, Weapon
from .ranks import resolve

__all__ = [
    "ACTION_KEYS",
    "ARMOUR_KEYS",
    "MEMBER_KEYS",
    "SHIELD_KEYS",
    "WEAPON_KEYS",
    "build_armour_mapping",
    "build_member",
    "build_shield_mapping",
    "build_weapon_mapping",
    "check_scenario",
    "health_of",
]

MEMBER_KEYS = (
    "name", "abilities", "health", "weapon", "armor", "natural_armor", "force_field", "shield",
    "shield_mode", "defence", "actions", "targeting", "finish_fallen", "aim", "dive_for_cover",
    "dive_areas", "attack_cs", "defence_cs", "arms", "when_grappled", "reraise_field",
    "super_crit_call", "area",
)  # fmt: skip
WEAPON_KEYS = (
    "name", "kind", "ability", "damage", "str_plus", "type", "ap", "ap_percent",
    "ignores_armour", "gun", "thrown", "unarmed", "parry", "rapid_fire", "rounds", "burst",
    "area", "aim_max_rounds", "shots", "power", "notes",
)  # fmt: skip
ARMOUR_KEYS = ("name", "value", "layer", "not_subject_to_ap", "covers", "notes")
SHIELD_KEYS = ("name", "protection", "deflection", "covers", "notes")
ACTION_KEYS = ("do", "rounds", "target", "power", "called")
#: The armour slots of a member and the layer each holds.
SLOTS = {"armor": "body", "natural_armor": "natural", "force_field": "field"}
#: Abilities of the FASERIP sheet the combat rules never roll: accepted with a warning.
SHEET_ONLY = ("Reason", "Intuition", "Psyche")
UNARMED_NAMES = ("unarmed", "fists", "none")

#: Bounds of a scenario's numbers (inclusive): rank values (Beyond is 10,000), Health,
#: column shifts, the arms of a creature, the areas of a dive (002 L36).
MAX_VALUE = 1_000_000
MAX_HEALTH = 1_000_000
CS_RANGE = (-30, 30)
MAX_ARMS = 100
MAX_DIVE_AREAS = 20
MAX_AIM = 10
MAX_SHOTS = 100_000
MAX_STR_PLUS = 100_000


# --- values ---------------------------------------------------------------------------------


def _rated(ctx: Context, parts, value, what: str = "a rank name or a number") -> Rated:
    """A rank name or a whole number of at least 0, kept as written (:class:`Rated`)."""
    parts = list(parts)
    if is_int(value):
        check_int(ctx, parts, value, 0, maximum=MAX_VALUE)
        return Rated(int(value), tuple(parts))
    if isinstance(value, str) and value.strip():
        if not any(ladder(n).index(value) is not None for n in ladder_names()):
            names = [n for lad in ladder_names() for n in ladder(lad).names]
            raise ctx.fail(parts, f"unknown rank '{value}' (expected {what})",
                           did_you_mean(value, names))  # fmt: skip
        return Rated(value, tuple(parts))
    raise ctx.fail(parts, f"expected {what}, got {describe(value)}")


def _relocate(rated: Rated | None, parts) -> Rated | None:
    """A catalogue value re-labelled with the member's key path, for messages."""
    return None if rated is None else Rated(rated.given, tuple(parts))


def _covers(ctx: Context, parts, value) -> tuple[str, ...]:
    parts = list(parts)
    if not isinstance(value, list) or not value:
        raise ctx.fail(parts, "expected a non-empty list of damage types "
                              f"({', '.join(TYPE_NAMES)}), got {describe(value)}")  # fmt: skip
    out: list[str] = []
    for i, raw in enumerate(value):
        name = check_choice(ctx, [*parts, i], raw, TYPE_NAMES, "damage type")
        if name in out:
            raise ctx.fail([*parts, i], f"damage type '{name}' is listed twice")
        out.append(name)
    return tuple(out)


# --- items ----------------------------------------------------------------------------------


def build_weapon_mapping(entry: dict, ctx: Context, parts) -> Weapon:
    """Validate an inline weapon (or a catalogue entry) and build a :class:`Weapon`.

    Parameters
    ----------
    entry : dict
        Keys of :data:`WEAPON_KEYS`; only ``name`` is required. ``damage`` (a flat rating) and
        ``str_plus`` exclude each other; a ranged weapon that is not thrown needs ``damage``;
        rapid fire (``full_auto``, ``continuous``) needs ``rounds`` and is a gun (CA51).
    ctx : Context
        Source and line map for messages.
    parts : sequence
        The weapon's key path.

    Returns
    -------
    Weapon

    Raises
    ------
    ScenarioError
        On an unknown key, a wrong type, a value out of range or keys that contradict.
    """
    parts = list(parts)
    check_mapping(ctx, parts, entry, WEAPON_KEYS, required=("name",))

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        value = optional(entry, key)
        return default if value is MISSING else check(at(key), value)

    def given(key) -> bool:
        return optional(entry, key) is not MISSING

    def flag(key):
        return opt(key, lambda p, v: check_bool(ctx, p, v), False)

    name = check_str(ctx, at("name"), entry["name"])
    rapid_fire = opt("rapid_fire", lambda p, v: check_choice(ctx, p, v, RAPID_FIRE, "rapid fire"),
                     "single")  # fmt: skip
    gun, thrown, unarmed = flag("gun"), flag("thrown"), flag("unarmed")
    if rapid_fire != "single":
        gun = True  # CA51: every Full-Auto or Continuous weapon counts as a gun
    default_kind = "ranged" if gun or thrown else "melee"
    kind = opt("kind", lambda p, v: check_choice(ctx, p, v, ("melee", "ranged"), "kind"),
               default_kind)  # fmt: skip
    for key, on in (("gun", gun), ("thrown", thrown), ("rapid_fire", rapid_fire != "single")):
        if on and kind != "ranged" and given(key):
            raise ctx.fail(at(key), f"{key} is for ranged weapons, but kind is '{kind}'")
    if unarmed and kind != "melee":
        raise ctx.fail(at("unarmed"), "an unarmed (brawling) attack is melee, but kind is "
                                      f"'{kind}'")  # fmt: skip
    if unarmed and (gun or thrown):
        raise ctx.fail(at("unarmed"), "an unarmed attack is not a gun or a thrown weapon")
    ability = opt("ability", lambda p, v: check_choice(ctx, p, v, ABILITIES, "ability"),
                  "Fighting" if kind == "melee" else "Agility")  # fmt: skip
    damage = opt("damage", lambda p, v: _rated(ctx, p, v), None)
    str_plus = opt("str_plus", lambda p, v: check_int(ctx, p, v, -MAX_STR_PLUS, "str_plus",
                                                      MAX_STR_PLUS), 0)  # fmt: skip
    if damage is not None and given("str_plus"):
        raise ctx.fail(at("str_plus"), "give damage (a flat rating) or str_plus (Strength + a "
                                       "bonus), not both")  # fmt: skip
    if kind == "ranged" and not thrown and damage is None:
        raise ctx.fail(parts, "a ranged weapon that is not thrown needs damage (its rating, "
                              "004 L86)")  # fmt: skip
    default_type = "bludgeoning" if unarmed else ("piercing" if gun else "bludgeoning")
    dtype = opt("type", lambda p, v: check_choice(ctx, p, v, TYPE_NAMES, "damage type"),
                default_type)  # fmt: skip
    ap = opt("ap", lambda p, v: _rated(ctx, p, v), Rated(0))
    ap_percent = opt("ap_percent", lambda p, v: check_int(ctx, p, v, 0, "ap_percent", 100), 0)
    ignores = flag("ignores_armour")
    parry = opt("parry", lambda p, v: check_bool(ctx, p, v), kind == "melee" and not unarmed)
    if parry and kind != "melee":
        raise ctx.fail(at("parry"), "only a melee weapon parries (a shield also does, CA57)")
    if rapid_fire != "single" and not given("rounds"):
        raise ctx.fail(parts, f"a {rapid_fire} weapon needs rounds (its Rating(X), e.g. Good "
                              "for 10 rounds a turn, CA47)")  # fmt: skip
    if rapid_fire == "single" and given("rounds"):
        raise ctx.fail(at("rounds"), "rounds is the rating of a rapid-fire weapon (rapid_fire: "
                                     "full_auto or continuous)")  # fmt: skip
    rounds = opt("rounds", lambda p, v: _rated(ctx, p, v), Rated(1))
    burst = flag("burst")
    if burst and rapid_fire == "continuous":
        raise ctx.fail(at("burst"), "a Continuous weapon cannot fire three-round bursts (CA50)")
    if burst and not gun:
        raise ctx.fail(at("burst"), "only a gun fires three-round bursts (004 L99)")
    area = flag("area")
    if area and kind != "ranged":
        raise ctx.fail(at("area"), "an area effect is a ranged attack everyone avoids with "
                                   "Agility (004 L83)")  # fmt: skip
    if area and rapid_fire != "single":
        raise ctx.fail(at("area"), "an area effect is one attack roll, not rapid fire")
    aim_max = opt("aim_max_rounds", lambda p, v: check_int(ctx, p, v, 1, "aim_max_rounds",
                                                           MAX_AIM), 1)  # fmt: skip
    if given("aim_max_rounds") and kind != "ranged":
        raise ctx.fail(at("aim_max_rounds"), "sniping aims a ranged attack (004 L87)")
    shots = opt("shots", lambda p, v: check_int(ctx, p, v, 1, "shots", MAX_SHOTS), None)
    if shots is not None and not gun:
        raise ctx.fail(at("shots"), "a magazine (shots) is a gun's (CA52)")
    power = flag("power")
    notes = opt("notes", lambda p, v: v if isinstance(v, str) else check_str(ctx, p, v), "")
    return Weapon(
        name=name, kind=kind, ability=ability, damage=damage, str_plus=str_plus, type=dtype,
        ap=ap, ap_percent=ap_percent, ignores_armour=ignores, gun=gun, thrown=thrown,
        unarmed=unarmed, parry=parry, rapid_fire=rapid_fire, rounds=rounds, burst=burst,
        area=area, aim_max_rounds=aim_max, shots=shots, power=power, notes=notes,
    )  # fmt: skip


def build_armour_mapping(entry: dict, ctx: Context, parts, layer: str | None = None) -> Armour:
    """Validate an armour layer given as a mapping (or a catalogue entry): ``name``, ``value``
    (a rank name or a number), ``layer`` (body, natural or field; it must be ``layer`` when
    that is given), ``not_subject_to_ap``, ``covers`` (damage types) and ``notes``."""
    parts = list(parts)
    check_mapping(ctx, parts, entry, ARMOUR_KEYS, required=("value",))

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        value = optional(entry, key)
        return default if value is MISSING else check(at(key), value)

    name = opt("name", lambda p, v: check_str(ctx, p, v), None)
    kind = opt("layer", lambda p, v: check_choice(ctx, p, v, tuple(SLOTS.values()), "layer"),
               layer or "body")  # fmt: skip
    if layer is not None and kind != layer:
        raise ctx.fail(at("layer"), f"this slot holds {layer} armour, not {kind}")
    value = _rated(ctx, at("value"), entry["value"])
    nsap = opt("not_subject_to_ap", lambda p, v: check_bool(ctx, p, v), False)
    covers = opt("covers", lambda p, v: _covers(ctx, p, v), None)
    notes = opt("notes", lambda p, v: v if isinstance(v, str) else check_str(ctx, p, v), "")
    return Armour(name=name or f"{value} {kind} armour", value=value, not_subject_to_ap=nsap,
                  covers=covers, layer=kind, notes=notes)  # fmt: skip


def build_shield_mapping(entry: dict, ctx: Context, parts) -> Shield:
    """Validate a shield given as a mapping (or a catalogue entry): ``name``, ``protection``
    (a rank name or a number: armour in Block mode), ``deflection`` (column shifts in Deflect
    mode), ``covers`` and ``notes``."""
    parts = list(parts)
    check_mapping(ctx, parts, entry, SHIELD_KEYS, required=("name",))

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        value = optional(entry, key)
        return default if value is MISSING else check(at(key), value)

    name = check_str(ctx, at("name"), entry["name"])
    protection = opt("protection", lambda p, v: _rated(ctx, p, v), Rated(0))
    deflection = opt("deflection", lambda p, v: check_int(ctx, p, v, 0, "deflection",
                                                          CS_RANGE[1]), 0)  # fmt: skip
    covers = opt("covers", lambda p, v: _covers(ctx, p, v), None)
    notes = opt("notes", lambda p, v: v if isinstance(v, str) else check_str(ctx, p, v), "")
    return Shield(name=name, protection=protection, deflection=deflection, covers=covers,
                  notes=notes)  # fmt: skip


def _weapon(ctx: Context, parts, value) -> Weapon:
    parts = list(parts)
    if value is None or (isinstance(value, str) and value.strip().casefold() in UNARMED_NAMES):
        return FISTS
    if isinstance(value, str):
        weapon = catalogue.find_weapon(value)
        if weapon is None:
            raise ctx.fail(parts, f"unknown weapon '{value}' (a catalogue name, a mapping, or "
                                  "unarmed)",
                           did_you_mean(value, [*catalogue.weapons(), "unarmed"]))  # fmt: skip
        return dataclasses.replace(
            weapon, damage=_relocate(weapon.damage, parts), ap=_relocate(weapon.ap, parts),
            rounds=_relocate(weapon.rounds, parts),
        )  # fmt: skip
    if isinstance(value, dict):
        return build_weapon_mapping(value, ctx, parts)
    raise ctx.fail(parts, f"expected a catalogue weapon name or a mapping, got {describe(value)}")


def _armour(ctx: Context, parts, value, layer: str) -> Armour | None:
    """An armour slot: a number, a rank name (its value), a catalogue armour or a mapping."""
    parts = list(parts)
    if is_int(value):
        rated = _rated(ctx, parts, value)
        return None if value == 0 else Armour(name=f"armour {value}", value=rated, layer=layer)
    if isinstance(value, str):
        if any(ladder(n).index(value) is not None for n in ladder_names()):
            return Armour(name=f"{value} armour", value=Rated(value, tuple(parts)), layer=layer)
        armour = catalogue.find_armour(value)
        if armour is None:
            ranks = [n for lad in ladder_names() for n in ladder(lad).names]
            raise ctx.fail(parts, f"unknown armour '{value}' (a number, a rank name, a "
                                  "catalogue armour or a mapping)",
                           did_you_mean(value, [*catalogue.armours(), *ranks]))  # fmt: skip
        if armour.layer != layer:
            raise ctx.fail(parts, f"'{armour.name}' is {armour.layer} armour; this slot holds "
                                  f"{layer} armour")  # fmt: skip
        return dataclasses.replace(armour, value=_relocate(armour.value, parts))
    if isinstance(value, dict):
        return build_armour_mapping(value, ctx, parts, layer)
    raise ctx.fail(parts, "expected a number, a rank name, a catalogue armour or a mapping, "
                          f"got {describe(value)}")  # fmt: skip


def _shield(ctx: Context, parts, value) -> Shield:
    parts = list(parts)
    if isinstance(value, str):
        shield = catalogue.find_shield(value)
        if shield is None:
            raise ctx.fail(parts, f"unknown shield '{value}'",
                           did_you_mean(value, catalogue.shields()))  # fmt: skip
        return dataclasses.replace(shield, protection=_relocate(shield.protection, parts))
    if isinstance(value, dict):
        return build_shield_mapping(value, ctx, parts)
    raise ctx.fail(parts, f"expected a catalogue shield name or a mapping, got {describe(value)}")


# --- members --------------------------------------------------------------------------------


def _abilities(ctx: Context, parts, value) -> dict[str, Rated]:
    """Fighting, Agility, Strength and Endurance, each a rank name or a number (Typical when
    left out); Reason, Intuition and Psyche are recorded with a warning."""
    parts = list(parts)
    out = {a: Rated("Typical", (*parts, a)) for a in ABILITIES}
    if value is None:
        return out
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a mapping of abilities, got {describe(value)}")
    by_norm = {normal_name(a): a for a in (*ABILITIES, *SHEET_ONLY)}
    seen: set[str] = set()
    for key, raw in value.items():
        kp = [*parts, key]
        name = by_norm.get(normal_name(key)) if isinstance(key, str) else None
        if name is None:
            raise ctx.fail(kp, f"unknown ability '{key}' (the combat rules roll "
                               f"{', '.join(ABILITIES)})",
                           did_you_mean(str(key), [*ABILITIES, *SHEET_ONLY]))  # fmt: skip
        if name in seen:
            raise ctx.fail(kp, f"ability {name} is given twice")
        seen.add(name)
        rated = _rated(ctx, kp, raw)
        if name in SHEET_ONLY:
            ctx.warnings.append(f"{'.'.join(str(p) for p in parts)}.{name}: recorded on the "
                                "sheet only; no rule of the fight rolls it")  # fmt: skip
            continue
        out[name] = rated
    return out


def _defences(ctx: Context, parts, value) -> tuple[str, ...]:
    parts = list(parts)
    if isinstance(value, str):
        return (check_choice(ctx, parts, value, DEFENCE_NAMES, "defence"),)
    if isinstance(value, list) and value:
        out: list[str] = []
        for i, raw in enumerate(value):
            name = check_choice(ctx, [*parts, i], raw, DEFENCE_NAMES, "defence")
            if name in out:
                raise ctx.fail([*parts, i], f"defence '{name}' is listed twice")
            out.append(name)
        return tuple(out)
    raise ctx.fail(parts, f"expected a defence ({', '.join(DEFENCE_NAMES)}) or a list of them, "
                          f"got {describe(value)}")  # fmt: skip


_RAPID = ("autofire", "sweep", "concentrated", "burst")


def _action(ctx: Context, parts, value, weapon: Weapon) -> Action:
    parts = list(parts)
    check_mapping(ctx, parts, value, ACTION_KEYS)

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        got = optional(value, key)
        return default if got is MISSING else check(at(key), got)

    do = opt("do", lambda p, v: check_choice(ctx, p, v, ACTION_NAMES, "action"), "attack")
    rapid = weapon.rapid_fire != "single"
    if do in _RAPID and not rapid and not (do == "burst" and weapon.burst):
        raise ctx.fail(at("do"), f"'{do}' needs a rapid-fire weapon, but {weapon.name} fires "
                                 "single shots", "attack")  # fmt: skip
    if do == "burst" and weapon.rapid_fire == "continuous":
        raise ctx.fail(at("do"), "a Continuous weapon cannot fire a three-round burst (CA50)")
    rounds = opt("rounds", lambda p, v: check_int(ctx, p, v, 1, "rounds", MAX_SHOTS), 0)
    if rounds and do not in ("autofire", "sweep", "concentrated"):
        raise ctx.fail(at("rounds"), f"rounds is for autofire, sweep and concentrated fire, not "
                                     f"'{do}'")  # fmt: skip
    target = opt("target", lambda p, v: check_str(ctx, p, v), None)
    power = opt("power", lambda p, v: check_bool(ctx, p, v), False)
    if power and (weapon.gun or do not in ("attack",)):
        raise ctx.fail(at("power"), "no Power Attack with guns, rapid fire or a grapple "
                                    "(004 L86, CA92)")  # fmt: skip
    called = opt("called", lambda p, v: check_choice(ctx, p, v, LOCATIONS, "location"), None)
    if called is not None and (do != "attack" or weapon.area):
        raise ctx.fail(at("called"), "no called shot with rapid fire, area effects or a grapple "
                                     "(004 L90-91, CA50, CA99)")  # fmt: skip
    return Action(do=do, rounds=rounds, target=target, power=power, called=called)


def _actions(ctx: Context, parts, value, weapon: Weapon) -> tuple[Action, ...]:
    parts = list(parts)
    if value is None:
        return (Action(do="autofire"),) if weapon.rapid_fire != "single" else (Action(),)
    if isinstance(value, dict):
        return (_action(ctx, parts, value, weapon),)
    if not isinstance(value, list) or not value:
        raise ctx.fail(parts, f"expected a list of actions, got {describe(value)}")
    return tuple(_action(ctx, [*parts, i], v, weapon) for i, v in enumerate(value))


def build_side_options(ctx: Context, parts, value: dict) -> dict:
    """The colour system has no side-wide keys."""
    return {}


def build_member(ctx: Context, parts, value, side: str, side_options: dict) -> Member:
    """Validate one member's mapping (keys :data:`MEMBER_KEYS`) and build its
    :class:`Member`; its ranks are checked against the ladder by :func:`check_scenario`."""
    parts = list(parts)
    check_mapping(ctx, parts, value, MEMBER_KEYS, required=("name",))

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        got = optional(value, key)
        return default if got is MISSING else check(at(key), got)

    def cs(key):
        return opt(key, lambda p, v: check_int(ctx, p, v, CS_RANGE[0], key, CS_RANGE[1]), 0)

    name = check_str(ctx, at("name"), value["name"])
    abilities = _abilities(ctx, at("abilities"), value.get("abilities"))
    health = opt("health", lambda p, v: check_int(ctx, p, v, 1, "health", MAX_HEALTH), None)
    weapon = _weapon(ctx, at("weapon"), value.get("weapon"))
    layers = {}
    for slot, layer in SLOTS.items():
        got = optional(value, slot)
        layers[slot] = None if got is MISSING else _armour(ctx, at(slot), got, layer)
    shield = opt("shield", lambda p, v: _shield(ctx, p, v), None)
    shield_mode = opt("shield_mode", lambda p, v: check_choice(ctx, p, v, ("block", "deflect"),
                                                               "shield mode"), "block")  # fmt: skip
    if shield is None and optional(value, "shield_mode") is not MISSING:
        ctx.warnings.append(f"{name}: shield_mode does nothing without a shield")
    defences = opt("defence", lambda p, v: _defences(ctx, p, v), ("dodge",))
    got = optional(value, "actions")
    actions = _actions(ctx, at("actions"), None if got is MISSING else got, weapon)
    targeting = opt("targeting", lambda p, v: check_choice(ctx, p, v, TARGETING, "targeting"),
                    "first")  # fmt: skip
    finish = opt("finish_fallen", lambda p, v: check_bool(ctx, p, v), False)
    aim = opt("aim", lambda p, v: check_int(ctx, p, v, 0, "aim", weapon.aim_max_rounds), 0)
    if aim and weapon.kind != "ranged":
        raise ctx.fail(at("aim"), f"sniping aims a ranged attack; {weapon.name} is melee (004 L87)")
    dive = opt("dive_for_cover", lambda p, v: check_bool(ctx, p, v), False)
    dive_areas = opt("dive_areas", lambda p, v: check_int(ctx, p, v, 1, "dive_areas",
                                                          MAX_DIVE_AREAS), 1)  # fmt: skip
    if not dive and optional(value, "dive_areas") is not MISSING:
        ctx.warnings.append(f"{name}: dive_areas does nothing without dive_for_cover: true")
    arms = opt("arms", lambda p, v: check_int(ctx, p, v, 0, "arms", MAX_ARMS), 2)
    when_grappled = opt("when_grappled", lambda p, v: check_choice(ctx, p, v, ("escape", "attack"),
                                                                   "choice"), "escape")  # fmt: skip
    reraise = opt("reraise_field", lambda p, v: check_bool(ctx, p, v), True)
    if layers["force_field"] is None and optional(value, "reraise_field") is not MISSING:
        ctx.warnings.append(f"{name}: reraise_field does nothing without a force_field")
    sc_call = opt("super_crit_call", lambda p, v: check_choice(ctx, p, v, LOCATIONS, "location"),
                  "head")  # fmt: skip
    area = opt("area", lambda p, v: _names(ctx, p, v), None)
    if area is not None and not weapon.area:
        raise ctx.fail(at("area"), f"area lists who an area effect hits, but {weapon.name} has "
                                   "no area: true")  # fmt: skip
    return Member(
        name=name, side=side, abilities=abilities, weapon=weapon, health=health,
        armour=layers["armor"], natural_armour=layers["natural_armor"],
        force_field=layers["force_field"], shield=shield, shield_mode=shield_mode,
        defences=defences, actions=actions, targeting=targeting, finish_fallen=finish, aim=aim,
        dive_for_cover=dive, dive_areas=dive_areas, attack_cs=cs("attack_cs"),
        defence_cs=cs("defence_cs"), arms=arms, when_grappled=when_grappled,
        reraise_field=reraise, super_crit_call=sc_call, area=area,
    )  # fmt: skip


def _names(ctx: Context, parts, value) -> tuple[str, ...]:
    parts = list(parts)
    if not isinstance(value, list) or not value:
        raise ctx.fail(parts, f"expected a list of member names, got {describe(value)}")
    return tuple(check_str(ctx, [*parts, i], v) for i, v in enumerate(value))


# --- checks once the rules are known ----------------------------------------------------------


def health_of(member: Member, rules) -> int:
    """Health (K5): Fighting + Agility + Strength + Endurance values, unless overridden."""
    if member.health is not None:
        return member.health
    return sum(resolve(member.abilities[a], rules)[0] for a in ABILITIES)


def _rated_values(member: Member, where: list):
    """Every rank-or-number of a member with its key path."""
    for a in ABILITIES:
        yield member.abilities[a], [*where, "abilities", a]
    w = member.weapon
    for key, rated in (("damage", w.damage), ("ap", w.ap), ("rounds", w.rounds)):
        if rated is not None:
            yield rated, list(rated.parts) or [*where, "weapon", key]
    for slot, layer in (("armor", member.armour), ("natural_armor", member.natural_armour),
                        ("force_field", member.force_field)):  # fmt: skip
        if layer is not None:
            yield layer.value, list(layer.value.parts) or [*where, slot]
    if member.shield is not None:
        yield member.shield.protection, list(member.shield.protection.parts) or [*where, "shield"]


def _fail_at(ctx: Context, parts, exc: ScenarioError) -> ScenarioError:
    return ctx.fail(parts, exc.message, exc.suggestion)


def check_scenario(ctx: Context, rules, sides: dict) -> None:
    """Checks that need the rules or every member: each rank on the scenario's ladder (CA6),
    Health above 0, each action's rounds within the weapon's rating (CA18), the number of
    actions (CA16), named targets and area members, energy called shots (CA88); warnings
    for keys that do nothing under these rules."""
    names = {}
    for side, members in sides.items():
        for i, m in enumerate(members):
            names[m.name] = (side, ["sides", side, i])
    faces = _attacks_faced(sides)
    for side, members in sides.items():
        for i, m in enumerate(members):
            where = _member_path(ctx, side, i)
            for rated, parts in _rated_values(m, where):
                try:
                    resolve(rated, rules, parts)
                except ScenarioError as exc:
                    raise _fail_at(ctx, parts, exc) from None
            if health_of(m, rules) <= 0:
                raise ctx.fail([*where, "abilities"], f"{m.name} has 0 Health (F + A + S + E "
                                                      "values, K5): give health or higher ranks")
            _check_actions(ctx, rules, m, where, names)
            _warnings(ctx, rules, m)
            _warn_defences(ctx, rules, m, faces[side])
            if m.dive_for_cover and "area" not in faces[side]:
                ctx.warnings.append(f"{m.name}: dive_for_cover does nothing: no enemy makes "
                                    "area attacks")  # fmt: skip


def _member_path(ctx: Context, side: str, index: int) -> list:
    """A member's key path (``sides.<side>[i]``, or ``sides.<side>.members[i]``)."""
    plain = ["sides", side, index]
    nested = ["sides", side, "members", index]
    from ...validation.keypath import format_path

    return nested if format_path(nested) in ctx.lines else plain


def _check_actions(ctx: Context, rules, m: Member, where: list, names: dict) -> None:
    acts = [*where, "actions"]
    if len(m.actions) > rules.max_actions_per_turn:
        raise ctx.fail(acts, f"{m.name} takes {len(m.actions)} actions a turn, more than "
                             f"rules.max_actions_per_turn ({rules.max_actions_per_turn}, CA16)")
    x = resolve(m.weapon.rounds, rules)[0] if m.weapon.rapid_fire != "single" else 0
    if m.weapon.rapid_fire != "single" and x < 1:
        raise ctx.fail([*where, "weapon", "rounds"], f"{m.weapon.name} fires no rounds (its "
                                                     "rating is 0)")  # fmt: skip
    used = 0
    for k, action in enumerate(m.actions):
        ap = [*acts, k] if _fmt([*acts, k]) in ctx.lines else acts
        if action.do == "burst":
            need = 3
        elif action.do in ("autofire", "sweep", "concentrated"):
            need = action.rounds or max(x - used, 0)
        elif m.weapon.rapid_fire != "single" and action.do == "attack":
            need = 1
        else:
            need = 0
        if need and used + need > x:
            raise ctx.fail(ap, f"{m.name}'s actions need {used + need} rounds a turn, but "
                               f"{m.weapon.name} fires at most {x} (CA18)")  # fmt: skip
        used += need
        if action.target is not None:
            if action.target not in names:
                raise ctx.fail([*ap, "target"], f"no member '{action.target}'",
                               did_you_mean(action.target, names))  # fmt: skip
            if names[action.target][0] == m.side:
                raise ctx.fail([*ap, "target"], f"'{action.target}' is on {m.name}'s side")
        if (action.called is not None and m.weapon.type == "energy"
                and rules.energy_called_shot == "not_allowed"):  # fmt: skip
            raise ctx.fail([*ap, "called"], "energy attacks make no called shots under "
                                            "rules.energy_called_shot: not_allowed (CA88)")
    for name in m.area or ():
        if name not in names:
            raise ctx.fail([*where, "area"], f"no member '{name}'", did_you_mean(name, names))
        if name == m.name:
            raise ctx.fail([*where, "area"], f"{m.name} does not stand in its own area")


def _fmt(parts) -> str:
    from ...validation.keypath import format_path

    return format_path(parts)


def _attacks_faced(sides: dict) -> dict[str, set[str]]:
    """Per side, the kinds of attack its members can meet: ``melee``, ``brawling`` (an
    unarmed melee attack, or a grappled victim's fists, CA96: a side that grapples meets
    them), ``thrown``, ``area``, ``grapple``."""
    made: dict[str, set[str]] = {}
    for side, members in sides.items():
        kinds = made[side] = set()
        for m in members:
            w = m.weapon
            if w.kind == "melee":
                kinds.add("melee")
                if w.unarmed:
                    kinds.add("brawling")
            elif w.thrown:
                kinds.add("thrown")
            if w.area:
                kinds.add("area")
    grapplers = {side for side, members in sides.items()
                 if any(a.do == "grapple" for m in members for a in m.actions)}  # fmt: skip
    out = {}
    for side in sides:
        out[side] = set().union(*(kinds for s, kinds in made.items() if s != side))
        if side in grapplers:
            out[side] |= {"melee", "brawling"}
        if grapplers - {side}:
            out[side].add("grapple")
    return out


def _warn_defences(ctx: Context, rules, m: Member, faced: set[str]) -> None:
    """A defence that no enemy's attack lets ``m`` use does nothing: the kernels fall back to
    a dodge, or to no defence under ``block_invalid: none`` (002; CA56, CA57). Under
    ``defence_choice: declared`` the declared defence is checked, under ``reactive`` each
    one ``m`` knows."""
    instead = ("takes no defence instead (rules.block_invalid: none)"
               if rules.block_invalid == "none" else "dodges instead")  # fmt: skip
    if m.when_grappled != "escape" and "grapple" not in faced:
        ctx.warnings.append(f"{m.name}: when_grappled does nothing: no enemy grapples")
    known = m.defences if rules.defence_choice == "reactive" else m.defences[:1]
    if "block" in known and "brawling" not in faced:
        ctx.warnings.append(f"{m.name}: defence block does nothing here: a block counts only "
                            "against brawling (unarmed melee) attacks and no enemy makes one; "
                            f"{m.name} {instead} (CA56)")  # fmt: skip
    parried = ("melee" in faced or rules.parry_ranged == "any"
               or (rules.parry_ranged == "thrown_only" and "thrown" in faced))  # fmt: skip
    if "parry" in known and not parried:
        what = ("no ranged attack" if rules.parry_ranged == "none"
                else "only a thrown weapon")  # fmt: skip
        ctx.warnings.append(f"{m.name}: defence parry does nothing here: no enemy attacks in "
                            f"melee and rules.parry_ranged: {rules.parry_ranged} parries {what}"
                            f"; {m.name} {instead} (CA57)")  # fmt: skip


def _warnings(ctx: Context, rules, m: Member) -> None:
    if m.weapon.shots is not None and not rules.ammunition:
        ctx.warnings.append(f"{m.name}: {m.weapon.name}'s shots count only under "
                            "rules.ammunition: true (CA52)")  # fmt: skip
    if len(m.defences) > 1 and rules.defence_choice == "declared":
        ctx.warnings.append(f"{m.name} declares {m.defences[0]}; its other defences count only "
                            "under rules.defence_choice: reactive (CA19)")  # fmt: skip
    if m.super_crit_call != "head" and rules.super_crit_damage == "double":
        ctx.warnings.append(f"{m.name}: super_crit_call counts only under "
                            "rules.super_crit_damage: called_shot or best (CA24)")  # fmt: skip
