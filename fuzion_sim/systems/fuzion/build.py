"""Build Fuzion members (combatants, their weapons and armour) from a scenario's data.

Every check is one of the shared ones (:mod:`fuzion_sim.validation.checks`): an error is a
:class:`~fuzion_sim.errors.ScenarioError` naming the file, the line (the nearest key that has
one), the key path (``sides.red[0].weapon``), the problem, the allowed range and, for a misspelt
name, the closest valid one. Problems that do not stop a run (a combatant lacking its weapon's
skill) become the scenario's warnings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from fuzion_sim.errors import did_you_mean
from fuzion_sim.limits import MAX_DC
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
    is_int,
    is_number,
    optional,
)
from fuzion_sim.validation.keypath import format_path

from . import catalogue, tables, tactics
from .features.vehicles.build import parse_weight
from .model import (
    ABORTS,
    AREA_BASES,
    BOW_MAX_STR,
    BOW_RANGE_PER_STR,
    BOWS,
    COVERS,
    DERIVED,
    NO_ARMOR,
    PRIMARIES,
    RANGE_PER_POWER_POINT,
    SIZES,
    UNARMED,
    UNARMED_NAMES,
    Area,
    Armor,
    Combatant,
    Missile,
    Weapon,
)

__all__ = [
    "ARMOR_KEYS",
    "AREA_KEYS",
    "COMBATANT_KEYS",
    "MISSILE_KEYS",
    "SIDE_KEYS",
    "WEAPON_KEYS",
    "build_armor_mapping",
    "build_member",
    "build_weapon_mapping",
    "check_called_shots",
    "check_powered_armour",
]

#: Side-wide keys of a side given as a mapping (besides its ``members``).
SIDE_KEYS = ("surprised",)
COMBATANT_KEYS = (
    "name", "stats", "skills", "weapon", "armor", "position", *DERIVED, "tactics",
    "targeting", "surprised", "cover", "prone", "crouched", "obscured", "braced", "silhouetted",
    "size", "modifiers", "defence_modifiers", "drawn", "abort", "sdp", "kills", "called_shot",
    "vehicle", "weight",
    "poison", "resting",  # the environment (features/hazards/build.py)
    "push",  # pushing (M-75)
)  # fmt: skip
#: The most extra STR levels a push may call on without the WILL + Concentration roll (M-75).
MAX_PUSH = 2
WEAPON_KEYS = (
    "name", "skill", "kind", "damage", "dc", "accuracy", "range", "rof", "shots", "min_str",
    "ap", "autofire", "energy", "hands", "notes", "category", "cost", "area", "reload_actions",
    "kills", "blade", "bow", "power_points", "burst", "barrels", "explosive", "missile",
    "thrown",  # an object thrown (M-73, VA-49; features/scene/throws.py)
)  # fmt: skip
#: Keys of a weapon's ``missile:`` mapping (F18, M-42 to M-45).
MISSILE_KEYS = ("dv", "cluster", "smartness")
#: A missile's DV (the 3d6 scale) and the missiles one launch may fire.
MISSILE_DV_RANGE = (1, 60)
MAX_CLUSTER = 100
#: Keys of a weapon's ``area:`` mapping (F17).
AREA_KEYS = ("per", "radius")
#: A burst fires this many shots (F16).
BURST_SHOTS = 3

#: Combatant flags (true/false, default false).
_COMBATANT_FLAGS = ("surprised", "prone", "crouched", "obscured", "braced", "silhouetted")

#: Sane ranges of a scenario's numbers (inclusive), wide enough for superhero and vehicle
#: scales; each message gives the range. Primaries (BODY from 1) and skill levels:
STAT_RANGE = (0, 100)
SKILL_RANGE = (0, 100)
#: A GM's flat modifiers, weapon accuracy and the defence bonuses.
MODIFIER_RANGE = (-100, 100)
#: Metres: positions (each coordinate), ranges, area radii.
POSITION_RANGE = (-100_000.0, 100_000.0)
MAX_METRES = 100_000.0
#: Hits, Stun, SDP (the squad kernel keeps a table row per Hit and BODY point).
MAX_POOL = 10_000
#: Armour PD and EKD; Kills of a target or of armour; Kills of a weapon (its DC is 13 + kills).
MAX_ARMOUR = 1000
MAX_KILLS = 1000
MAX_WEAPON_KILLS = 50
_MODS = (MODIFIER_RANGE[0], "", MODIFIER_RANGE[1])  # _int's minimum, label, maximum
#: Bounds on derived-value overrides; the default range is 0 to MAX_POOL.
_DERIVED_BOUNDS = {"hits": (1, MAX_POOL), "stun": (1, MAX_POOL), "spd": (1, 12)}
ARMOR_KEYS = (
    "name", "pd", "ekd", "half_vs_blades", "description", "notes", "category", "cost", "kills",
    "covers", "sdp",
)  # fmt: skip

#: Full names of the primaries, offered as did-you-mean (never accepted silently).
_STAT_NAMES = {
    "INTELLIGENCE": "INT", "WILLPOWER": "WILL", "PRESENCE": "PRE", "TECHNIQUE": "TECH",
    "REFLEXES": "REF", "DEXTERITY": "DEX", "CONSTITUTION": "CON", "STRENGTH": "STR",
    "BOD": "BODY", "MOVEMENT": "MOVE",
}  # fmt: skip

def _skill_name(ctx: Context, parts, value) -> str:
    if not isinstance(value, str):
        raise ctx.fail(parts, f"expected a skill name, got {describe(value)}")
    canon = catalogue.canonical_skill(value)
    if canon is None:
        raise ctx.fail(parts, f"unknown skill '{value}'", did_you_mean(value, catalogue.skills()))
    return canon


# --- items ----------------------------------------------------------------------------------


def build_weapon_mapping(entry: dict, ctx: Context, parts: Sequence) -> Weapon:
    """Validate an inline weapon (or a catalogue entry) and build a :class:`Weapon`.

    Parameters
    ----------
    entry : dict
        Keys of :data:`WEAPON_KEYS`; ``name``, ``dc`` and ``skill`` are required, except that
        a Kill-rated weapon (``kills`` > 0) takes no ``dc`` (it gets 13 + kills, F29) and a bow
        defaults to ``dc`` 1. An explicit null on an optional key means the default. ``area``
        is a mapping ``{per: barrel | die | kill, radius: metres}`` or the name of an effect
        of ``area_effects.yaml`` (``grenade``).
    ctx : Context
        Source and line map for error messages.
    parts : sequence of str or int
        Key path of the weapon, e.g. ``["sides", "red", 0, "weapon"]``.

    Returns
    -------
    Weapon

    Raises
    ------
    ScenarioError
        On an unknown key, a missing required key, a wrong type or an out-of-range value.
    """
    parts = list(parts)
    check_mapping(ctx, parts, entry, WEAPON_KEYS, required=("name", "skill"))

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        value = optional(entry, key)
        return default if value is MISSING else check(at(key), value)

    def given(key) -> bool:
        return optional(entry, key) is not MISSING

    name = check_str(ctx, at("name"), entry["name"])
    skill = _skill_name(ctx, at("skill"), entry["skill"])
    if given("thrown"):  # an object thrown: its damage and range from the tables (VA-49)
        from .features.scene.throws import thrown_weapon

        return thrown_weapon(ctx, parts, entry, name, skill)
    kills = opt("kills", lambda p, v: check_int(ctx, p, v, minimum=0, maximum=MAX_WEAPON_KILLS), 0)
    bow = opt("bow", lambda p, v: check_choice(ctx, p, v, BOWS, "bow"), "none")
    if kills > 0:
        # F29: a Kill-rated weapon does 14 DC for the first Kill, +1 per further Kill against
        # small targets; that is its dc
        if given("dc"):
            raise ctx.fail(
                at("dc"),
                f"a Kill-rated weapon (kills: {kills}) takes no dc: against small targets it "
                f"does 14 DC for the first Kill and +1 per further Kill (F29), here "
                f"{13 + kills}",
            )
        dc = 13 + kills
    elif bow != "none" and not given("dc"):
        dc = 1  # "Bows do 1D6 of damage"
    elif not given("dc"):
        raise ctx.fail(parts, "missing key 'dc'")
    else:
        dc = check_int(ctx, at("dc"), entry["dc"], minimum=0, maximum=MAX_DC)
    kind = opt("kind", lambda p, v: check_choice(ctx, p, v, ("ranged", "melee"), "kind"), "ranged")
    damage = opt(
        "damage", lambda p, v: check_choice(ctx, p, v, ("killing", "stun"), "damage"), "killing"
    )
    power_points = opt(
        "power_points", lambda p, v: check_int(ctx, p, v, minimum=0, maximum=1000), 0
    )
    for key, active, what in (
        ("bow", bow != "none", f"a bow (bow: {bow})"),
        ("power_points", power_points > 0, "an energy blast (power_points)"),
    ):
        if active and kind != "ranged":
            raise ctx.fail(at(key), f"{what} is a ranged weapon, but kind is '{kind}'")
        if active and given("range"):
            rule = (
                "20 m per point of the archer's STR, computed in the fight"
                if key == "bow"
                else f"{RANGE_PER_POWER_POINT} m per power point"
            )
            raise ctx.fail(
                at("range"), f"{what} takes no range: its range is {rule}; leave out range"
            )
    if bow != "none" and power_points > 0:
        raise ctx.fail(at("power_points"), "a bow has no power points")
    if bow != "none":
        # the range at the bow's STR cap; the kernel uses 20 m x min(STR, cap)
        default_range = float(BOW_RANGE_PER_STR * BOW_MAX_STR[bow])
    elif power_points > 0:
        default_range = float(RANGE_PER_POWER_POINT * power_points)
    else:
        default_range = 50.0 if kind == "ranged" else 4.0
    rng = opt(
        "range", lambda p, v: check_number(ctx, p, v, maximum=MAX_METRES, positive=True),
        default_range,
    )
    rof = opt("rof", lambda p, v: check_int(ctx, p, v, minimum=1, maximum=1000), 1)
    accuracy = opt("accuracy", lambda p, v: check_int(ctx, p, v, *_MODS), 0)
    min_str = opt("min_str", lambda p, v: check_int(ctx, p, v, minimum=0, maximum=STAT_RANGE[1]), 0)
    shots = opt("shots", lambda p, v: check_int(ctx, p, v, minimum=1, maximum=100_000), None)
    reload_actions = opt("reload_actions", lambda p, v: check_int(ctx, p, v, 1, maximum=100), 1)
    ap = opt("ap", lambda p, v: check_bool(ctx, p, v), False)
    autofire = opt("autofire", lambda p, v: check_bool(ctx, p, v), False)
    energy = opt("energy", lambda p, v: check_bool(ctx, p, v), False)
    blade = opt("blade", lambda p, v: check_bool(ctx, p, v), False)
    burst = opt("burst", lambda p, v: check_bool(ctx, p, v), False)
    if burst and rof < BURST_SHOTS:
        raise ctx.fail(at("burst"), f"a burst fires {BURST_SHOTS} shots (F16), but rof is {rof}")
    if burst and shots is not None and shots < BURST_SHOTS:
        raise ctx.fail(
            at("burst"),
            f"a burst fires {BURST_SHOTS} shots (F16), but the magazine holds {shots}",
        )

    def hands_check(p, v):
        if not is_int(v) or v not in (1, 2):
            raise ctx.fail(p, f"expected 1 or 2, got {describe(v)}")
        return v

    hands = opt("hands", hands_check, None)
    notes = opt("notes", lambda p, v: v if isinstance(v, str) else check_str(ctx, p, v), "")
    opt("category", lambda p, v: check_str(ctx, p, v), None)
    opt("cost", lambda p, v: check_number(ctx, p, v, minimum=0, maximum=1e15), None)
    area = opt("area", lambda p, v: _area(ctx, p, v), None)
    if area is not None and area.per == "kill" and kills == 0:
        raise ctx.fail(
            [*parts, "area", "per"] if isinstance(entry.get("area"), dict) else at("area"),
            "an area per Kill needs a Kill-rated weapon (kills: 1 or more)",
        )
    barrels = opt("barrels", lambda p, v: check_int(ctx, p, v, minimum=1, maximum=100), 1)
    if barrels > 1 and (area is None or area.per != "barrel"):
        raise ctx.fail(
            at("barrels"),
            f"barrels: {barrels} only counts for an area per barrel "
            "(e.g. area: {per: barrel, radius: 1})",
        )
    explosive = opt("explosive", lambda p, v: check_bool(ctx, p, v), False)
    missile = opt("missile", lambda p, v: _missile(ctx, p, v), None)
    if missile is not None:
        for key, bad, why in (
            ("kind", kind != "ranged", "a missile is a ranged weapon"),
            ("autofire", autofire, "a cluster is its missiles: give missile: {cluster: N}"),
            ("burst", burst, "a cluster is its missiles: give missile: {cluster: N}"),
            ("rof", rof > 1, "one launch fires one cluster: give missile: {cluster: N}"),
            ("area", area is not None, "a missile's blast at its target (VA-26) is not built "
                                       "yet"),
            ("bow", bow != "none", "a bow is no missile launcher"),
        ):
            if bad:
                raise ctx.fail(at(key), f"a missile weapon takes no '{key}': {why}")
        missile = dataclasses.replace(missile, reloads=given("reload_actions"))
    if explosive and area is None:
        raise ctx.fail(
            at("explosive"),
            "an explosive needs an area (e.g. area: {per: die, radius: 1}): its damage falls "
            "2 points per metre from the centre (F17)",
        )
    return Weapon(
        name=name,
        skill=skill,
        kind=kind,
        damage=damage,
        dc=dc,
        accuracy=accuracy,
        range=rng,
        rof=rof,
        shots=shots,
        min_str=min_str,
        ap=ap,
        autofire=autofire,
        energy=energy,
        hands=hands,
        notes=notes,
        reload_actions=reload_actions,
        kills=kills,
        blade=blade,
        bow=bow,
        power_points=power_points,
        burst=burst,
        area=area,
        barrels=barrels,
        explosive=explosive,
        missile=missile,
    )


def _missile(ctx: Context, parts, value) -> Missile:
    """A missile (F18, M-42 to M-45): ``{dv: 18, cluster: 1}`` or ``{smartness: dumb |
    heat_seeker | smart, cluster: N}`` (``missiles.yaml``, not from the seed); ``true`` is
    every default (one heat-seeker, DV 18)."""
    parts = list(parts)
    if value is True:
        return Missile()
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a mapping such as {{dv: 18, cluster: 4}}, got "
                              f"{describe(value)}")  # fmt: skip
    check_mapping(ctx, parts, value, MISSILE_KEYS)
    smartness = tables.missile_smartness()
    dv = Missile.dv
    if optional(value, "smartness") is not MISSING:
        word = check_choice(ctx, [*parts, "smartness"], value["smartness"], list(smartness),
                            "smartness")  # fmt: skip
        if optional(value, "dv") is not MISSING:
            raise ctx.fail([*parts, "dv"], f"give dv or smartness, not both (smartness {word} "
                                           f"is DV {smartness[word]})")  # fmt: skip
        dv = smartness[word]
    if optional(value, "dv") is not MISSING:
        dv = check_int(ctx, [*parts, "dv"], value["dv"], MISSILE_DV_RANGE[0], "dv",
                       maximum=MISSILE_DV_RANGE[1])  # fmt: skip
    cluster = Missile.cluster
    if optional(value, "cluster") is not MISSING:
        cluster = check_int(ctx, [*parts, "cluster"], value["cluster"], 1, "cluster",
                            maximum=MAX_CLUSTER)  # fmt: skip
    return Missile(dv=dv, cluster=cluster)


def _area(ctx: Context, parts, value) -> Area:
    """An area effect: ``{per: barrel | die | kill, radius: metres per unit}``, or the name of
    a typical effect of ``area_effects.yaml`` (``grenade``, ``shotgun``, ...)."""
    parts = list(parts)
    if isinstance(value, str):
        from . import tables

        effects = tables.area_effects()
        if value not in effects:
            raise ctx.fail(
                parts,
                f"unknown area effect '{value}' (expected a mapping {{per: ..., radius: ...}} "
                f"or one of {', '.join(effects)})",
                did_you_mean(value, effects),
            )
        per, radius = effects[value]
        return Area(per=per, radius=float(radius))
    if not isinstance(value, dict):
        raise ctx.fail(
            parts,
            f"expected a mapping {{per: barrel | die | kill, radius: metres}}, "
            f"got {describe(value)}",
        )
    check_mapping(ctx, parts, value, AREA_KEYS, required=AREA_KEYS)
    per = check_choice(ctx, [*parts, "per"], value["per"], AREA_BASES, "area base")
    radius = check_number(ctx, [*parts, "radius"], value["radius"], maximum=1000.0, positive=True)
    return Area(per=per, radius=radius)


def build_armor_mapping(entry: dict, ctx: Context, parts: Sequence) -> Armor:
    """Validate an inline armour (or a catalogue entry) and build an :class:`Armor`.

    Parameters
    ----------
    entry : dict
        Keys of :data:`ARMOR_KEYS`; only ``name`` is required. An explicit null on an optional
        key means the default.
    ctx : Context
        Source and line map for error messages.
    parts : sequence of str or int
        Key path of the armour, e.g. ``["sides", "red", 0, "armor"]``.

    Returns
    -------
    Armor

    Raises
    ------
    ScenarioError
        On an unknown key, a missing name, a wrong type or a negative value.
    """
    parts = list(parts)
    check_mapping(ctx, parts, entry, ARMOR_KEYS, required=("name",))

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        value = optional(entry, key)
        return default if value is MISSING else check(at(key), value)

    def text(p, v):
        if not isinstance(v, str):
            raise ctx.fail(p, f"expected a string, got {describe(v)}")
        return v

    name = check_str(ctx, at("name"), entry["name"])
    pd = opt("pd", lambda p, v: check_int(ctx, p, v, minimum=0, maximum=MAX_ARMOUR), 0)
    ekd = opt("ekd", lambda p, v: check_int(ctx, p, v, minimum=0, maximum=MAX_ARMOUR), 0)
    half = opt("half_vs_blades", lambda p, v: check_bool(ctx, p, v), False)
    kills = opt("kills", lambda p, v: check_int(ctx, p, v, minimum=0, maximum=MAX_KILLS), 0)
    if kills > 0:
        for key, value in (("pd", pd), ("ekd", ekd)):
            if value:
                raise ctx.fail(
                    at(key),
                    f"Kill-rated armour (kills: {kills}) takes no {key}: give kills or pd/ekd, "
                    "not both (F29)",
                )
    covers = opt("covers", lambda p, v: _covers(ctx, p, v), None)
    sdp = opt("sdp", lambda p, v: check_int(ctx, p, v, minimum=1, maximum=MAX_POOL), 0)
    if sdp and kills:
        raise ctx.fail(at("sdp"), f"powered armour (sdp: {sdp}) has PD, not Kills (M-35): give "
                                  "pd with sdp, or kills")  # fmt: skip
    description = opt("description", text, "")
    notes = opt("notes", text, "")
    opt("category", lambda p, v: check_str(ctx, p, v), None)
    opt("cost", lambda p, v: check_number(ctx, p, v, minimum=0, maximum=1e15), None)
    return Armor(
        name=name,
        pd=pd,
        ekd=ekd,
        half_vs_blades=half,
        notes=notes or description,
        kills=kills,
        covers=covers,
        sdp=sdp,
    )


def _hit_location_names() -> tuple[str, ...]:
    from . import tables

    return tables.hit_locations().names


def _covers(ctx: Context, parts, value) -> tuple[str, ...]:
    """The hit locations an armour covers (F27): a non-empty list of location names."""
    parts = list(parts)
    names = _hit_location_names()
    if isinstance(value, str):
        hint = value if value in names else did_you_mean(value, names)
        raise ctx.fail(
            parts,
            f"expected a list of hit locations, got {describe(value)}",
            f"[{hint}]" if hint else None,
        )
    if not isinstance(value, list):
        raise ctx.fail(parts, f"expected a list of hit locations, got {describe(value)}")
    if not value:
        raise ctx.fail(
            parts, "an armour that covers no location stops nothing (leave out covers for all)"
        )
    out: list[str] = []
    for index, raw in enumerate(value):
        name = check_choice(ctx, [*parts, index], raw, names, "hit location")
        if name in out:
            raise ctx.fail([*parts, index], f"hit location '{name}' is listed twice")
        out.append(name)
    return tuple(out)


def _weapon(ctx: Context, parts, value) -> Weapon:
    if value is None or (isinstance(value, str) and value.strip().casefold() in UNARMED_NAMES):
        return UNARMED
    if isinstance(value, str):
        weapon = catalogue.find_weapon(value)
        if weapon is None:
            raise ctx.fail(
                parts,
                f"unknown weapon '{value}' (a catalogue name, a mapping, or unarmed)",
                did_you_mean(value, [*catalogue.weapons(), "unarmed"]),
            )
        return weapon
    if isinstance(value, dict):
        return build_weapon_mapping(value, ctx, parts)
    raise ctx.fail(parts, f"expected a catalogue weapon name or a mapping, got {describe(value)}")


def _armor(ctx: Context, parts, value) -> Armor:
    if isinstance(value, str):
        armor = catalogue.find_armor(value)
        if armor is None:
            raise ctx.fail(
                parts,
                f"unknown armour '{value}'",
                did_you_mean(value, catalogue.armors()),
            )
        return armor
    if isinstance(value, dict):
        return build_armor_mapping(value, ctx, parts)
    raise ctx.fail(parts, f"expected a catalogue armour name or a mapping, got {describe(value)}")


# --- combatants -----------------------------------------------------------------------------


def _stats(ctx: Context, parts, value) -> dict[str, int]:
    stats = {p: 5 for p in PRIMARIES}
    if value is None:
        return stats
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a mapping of stats, got {describe(value)}")
    by_fold = {p.casefold(): p for p in PRIMARIES}
    seen: set[str] = set()
    for key, raw in value.items():
        kp = [*parts, key]
        primary = by_fold.get(key.casefold()) if isinstance(key, str) else None
        if primary is None:
            hint = _STAT_NAMES.get(str(key).upper()) or did_you_mean(str(key), PRIMARIES)
            raise ctx.fail(kp, f"unknown stat '{key}' (stats are {', '.join(PRIMARIES)})", hint)
        if primary in seen:
            raise ctx.fail(kp, f"stat {primary} is given twice")
        seen.add(primary)
        stats[primary] = check_int(
            ctx, kp, raw, minimum=1 if primary == "BODY" else STAT_RANGE[0], label=primary,
            maximum=STAT_RANGE[1],
        )  # fmt: skip
    return stats


def _skills(ctx: Context, parts, value) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a mapping of skill levels, got {describe(value)}")
    out: dict[str, int] = {}
    for key, raw in value.items():
        kp = [*parts, key]
        canon = _skill_name(ctx, kp, key)
        if canon in out:
            raise ctx.fail(kp, f"skill '{canon}' is given twice")
        out[canon] = check_int(ctx, kp, raw, minimum=SKILL_RANGE[0], maximum=SKILL_RANGE[1])
    return out


def build_side_options(ctx: Context, parts, value: dict) -> dict:
    """A side's own keys: ``surprised`` (true: its members are surprised unless they say)."""
    if "surprised" in value:
        return {"surprised": check_bool(ctx, [*parts, "surprised"], value["surprised"])}
    return {}


def build_member(ctx: Context, parts, value, side: str, side_options: dict):
    """Validate one combatant's mapping and build its :class:`Combatant` (``side_options``: the
    side's own keys, :func:`build_side_options`). A member with ``vehicle:`` is a vehicle and
    its crew: a tuple of combatants, the vehicle first (``vehicles.build.vehicle_members``)."""
    surprise = side_options.get("surprised") and isinstance(value, dict) and (
        "surprised" not in value)
    if isinstance(value, dict) and "vehicle" in value:
        from .features.vehicles.build import vehicle_members

        members = vehicle_members(ctx, parts, value, side, _combatant, build_weapon_mapping)
        if surprise:
            members = tuple(dataclasses.replace(m, surprised=True) for m in members)
        return members
    if isinstance(value, dict):  # dogfights are for flying vehicles (features/dogfights/build.py)
        from .features.dogfights.build import check_dogfight_tactics

        check_dogfight_tactics(ctx, [*parts, "tactics"], value.get("tactics"),
                               "a person is not one")  # fmt: skip
    combatant = _combatant(ctx, parts, value, side)
    if isinstance(value, dict) and ("poison" in value or "resting" in value):
        from .features.hazards.build import member_environment

        combatant = member_environment(ctx, parts, value, combatant)
    if isinstance(value, dict) and "push" in value:
        combatant = dataclasses.replace(combatant, push=_push(ctx, [*parts, "push"],
                                                              value["push"]))
    if surprise:
        combatant = dataclasses.replace(combatant, surprised=True)
    return combatant


def _push(ctx: Context, parts, value) -> int:
    """``push: N`` (M-75): the extra STR levels a person calls on, 0 to :data:`MAX_PUSH`."""
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_PUSH:
        raise ctx.fail(parts, f"push {value}: more than {MAX_PUSH} extra STR levels needs a "
                              "WILL + Concentration roll (M-75), which is not built; push is "
                              f"0 to {MAX_PUSH}")  # fmt: skip
    return check_int(ctx, parts, value, minimum=0, maximum=MAX_PUSH)


def check_called_shots(ctx: Context, rules, sides: dict) -> None:
    """A called shot nothing honours is ignored: say so. A person's location is called under
    ``rules.hit_locations: called`` (F27), a vehicle's under ``rules.vehicle_locations: called``
    (M-77, VA-08), and only at an enemy vehicle whose table has that row to call."""
    people = rules.hit_locations == "called"
    vehicles = rules.values.get("vehicle_locations", "random") == "called"
    x_mod = -4 if rules.values.get("vehicle_called_x", "forbidden") == "minus4" else None
    person_names = tables.hit_locations().names
    for side, members in sides.items():
        enemy_vehicles = [c.vehicle for s, others in sides.items() if s != side
                          for c in others if getattr(c, "vehicle", None) is not None]  # fmt: skip
        for combatant in members:
            name = combatant.called_shot
            if name is None:
                continue
            callable_at = [v for v in enemy_vehicles
                           if tables.vehicle_called_row(v.kind, v.absent, name, x_mod)]  # fmt: skip
            if (people and name in person_names) or (vehicles and callable_at):
                continue
            why = []
            if name in person_names:
                why.append(f"rules.hit_locations is '{rules.hit_locations}'")
            if name in tables.vehicle_location_names() and (
                    enemy_vehicles or name not in person_names):
                why.append(f"no enemy vehicle has a {name} to call (VA-08)" if not callable_at
                           else "rules.vehicle_locations is "
                           f"'{rules.values.get('vehicle_locations', 'random')}'")  # fmt: skip
            why = " and ".join(why)
            ctx.warnings.append(f"{combatant.name} calls shots at the {name}, but {why}: the "
                                "call is ignored")  # fmt: skip


def shots_an_action(weapon: Weapon, semi_auto_rof: str) -> int:
    """The most times ``weapon`` is shot in one attack action (F15): autofire up to its ROF in
    one attack; a ranged weapon without autofire up to its ROF, each shot its own attack, under
    ``semi_auto_rof: extra_attacks`` (the seed: ROF is how many times the attack can be shot
    in a phase), once under ``one_shot``; a melee weapon or the fists once."""
    if weapon.kind == "melee" or weapon.unarmed:
        return 1
    if weapon.autofire or semi_auto_rof == "extra_attacks":
        return weapon.rof
    return 1


def check_rate_of_fire(ctx: Context, rules, sides: dict) -> None:
    """An ``attack`` rule's ``fire: N`` above what the weapon can shoot in one action
    (:func:`shots_an_action`) is an error naming the combatant, the weapon, its ROF and the
    switch: the kernels would otherwise cap it without a word."""
    semi = rules.values.get("semi_auto_rof", "extra_attacks")
    for side, members in sides.items():
        entry = -1
        for combatant in members:
            if combatant.carrier is None:  # a crew member rides in the entry before it
                entry += 1
            arms = combatant.arsenal or (combatant.weapon,)
            for index, rule in enumerate(combatant.tactics):
                fire = rule.get("fire", 1)
                if rule["do"] != "attack" or fire == "all" or int(fire) <= 1:
                    continue
                named = [w for w in arms if w.name == rule.get("weapon")]
                weapon = max(named or arms, key=lambda w: shots_an_action(w, semi))
                most = shots_an_action(weapon, semi)
                if int(fire) <= most:
                    continue
                if weapon.kind == "melee" or weapon.unarmed:
                    why = "a melee weapon strikes once an action"
                elif weapon.autofire:
                    why = f"autofire fires at most its ROF of {weapon.rof} shots an attack (F15)"
                elif semi == "extra_attacks":
                    why = (f"without autofire it is shot at most its ROF of {weapon.rof} times "
                           "a phase, each shot its own attack (rules.semi_auto_rof: "
                           "extra_attacks)")  # fmt: skip
                else:
                    why = (f"without autofire it is shot once an action under "
                           f"rules.semi_auto_rof: one_shot (its ROF is {weapon.rof}; "
                           "extra_attacks shoots it up to ROF times a phase)")  # fmt: skip
                raise ctx.fail(
                    _rule_path(ctx, side, entry, index),
                    f"{combatant.name}'s {weapon.name} (ROF {weapon.rof}) cannot fire {fire} "
                    f"in one attack action: {why}",
                    f"fire: {most}" if most > 1 else None,
                )


def _rule_path(ctx: Context, side: str, entry: int, index: int) -> list:
    """The key path of rule ``index`` of the tactics of member ``entry`` of ``side`` (as
    far down as the scenario spells it)."""
    for head in (["sides", side, "members", entry], ["sides", side, entry]):
        for tail in (["tactics", index, "fire"], ["tactics"], []):
            if format_path([*head, *tail]) in ctx.lines:
                return [*head, *tail]
    return ["sides", side, entry, "tactics", index, "fire"]


def check_powered_armour(ctx: Context, rules, sides: dict) -> None:
    """Armour with ``sdp:`` is powered armour (M-35), an optional rule off by default (F30): a
    suit without ``rules.powered_armour: true`` is an error at its ``sdp`` key (every key a
    user writes reaches the fight or is an error)."""
    on = rules.values.get("powered_armour", False)
    for combatant in (c for members in sides.values() for c in members):
        sdp = getattr(combatant.armor, "sdp", 0)
        if not sdp:
            continue
        where = next((key for key in ctx.lines if key.endswith(".armor.sdp")), None)
        parts = [where] if where else ["sides"]
        if not on:
            raise ctx.fail(parts, f"{combatant.name}'s armour has sdp: {sdp}, which makes it "
                                  "powered armour (M-35): set rules.powered_armour: true (F30: "
                                  "off by default)")  # fmt: skip
        if combatant.sdp or combatant.kills or getattr(combatant, "vehicle", None) is not None:
            raise ctx.fail(parts, f"{combatant.name} has SDP or Kills of its own: powered armour "
                                  "(sdp: on its armour) is worn by a person (M-35)")  # fmt: skip


def _combatant(ctx: Context, parts, value, side: str) -> Combatant:
    if isinstance(value, dict) and "countermeasures" in value:
        raise ctx.fail([*parts, "countermeasures"],
                       "countermeasures are a vehicle's (vehicle: {countermeasures: N}); a "
                       "person evades missiles with its defence alone (VA-24)")  # fmt: skip
    check_mapping(ctx, parts, value, COMBATANT_KEYS, required=("name",))

    def at(key):
        return [*parts, key]

    name = check_str(ctx, at("name"), value["name"])
    stats = _stats(ctx, at("stats"), value.get("stats"))
    skills = _skills(ctx, at("skills"), value.get("skills"))
    weapon = _weapon(ctx, at("weapon"), value.get("weapon"))
    armor_value = value.get("armor")
    armor = NO_ARMOR if armor_value is None else _armor(ctx, at("armor"), armor_value)
    position = _position(ctx, at("position"), value.get("position"))
    derived = {key: rule(stats) for key, rule in DERIVED.items()}
    for key in DERIVED:
        if key in value:
            low, high = _DERIVED_BOUNDS.get(key, (0, MAX_POOL))
            derived[key] = check_int(ctx, at(key), value[key], minimum=low, label=key, maximum=high)
    if weapon.skill not in skills:
        ctx.warnings.append(f"{name} has no {weapon.skill} skill; it counts 0")
    if "end" in value and not value.get("push"):  # read by breath and pushing only
        ctx.warnings.append(
            f"{name}: end (Endurance) is used only for holding its breath in an asphyxiating "
            "hazard (M-71, VA-47) and for pushing (push:, M-75)"
        )

    def opt(key, check, default):
        got = optional(value, key)
        return default if got is MISSING else check(at(key), got)

    rules = tactics.validate_tactics(value.get("tactics"), at("tactics"), ctx.fail)
    targeting = opt(
        "targeting",
        lambda p, v: check_choice(ctx, p, v, tuple(tactics.TARGETING), "targeting"),
        "first",
    )
    flags = {key: opt(key, lambda p, v: check_bool(ctx, p, v), False) for key in _COMBATANT_FLAGS}
    cover = opt("cover", lambda p, v: check_choice(ctx, p, v, COVERS, "cover"), "none")
    size = opt("size", lambda p, v: check_choice(ctx, p, v, SIZES, "size"), "normal")
    modifiers = opt("modifiers", lambda p, v: check_int(ctx, p, v, *_MODS), 0)
    drawn = opt("drawn", lambda p, v: check_bool(ctx, p, v), True)
    abort = opt("abort", lambda p, v: check_choice(ctx, p, v, ABORTS, "abort"), "none")
    defence_modifiers = opt("defence_modifiers", lambda p, v: check_int(ctx, p, v, *_MODS), 0)
    sdp = opt("sdp", lambda p, v: check_int(ctx, p, v, 1, "sdp", maximum=MAX_POOL), 0)
    kills = opt("kills", lambda p, v: check_int(ctx, p, v, 1, "kills", maximum=MAX_KILLS), 0)
    if sdp and kills:
        raise ctx.fail(
            at("kills"),
            "give sdp (an object with Structural Damage Points) or kills (a Kill-rated target), "
            "not both",
        )
    if sdp or kills:
        what = f"sdp: {sdp}" if sdp else f"kills: {kills}"
        for key in ("hits", "stun"):
            if optional(value, key) is not MISSING:
                raise ctx.fail(
                    at(key),
                    f"an object ({what}) has no {key}: its structure is its "
                    f"{'SDP' if sdp else 'Kills'} (leave out {key})",
                )
    if (sdp or kills) and not any(skills.get(s) for s in ("Piloting", "Driving")):
        what = f"sdp: {sdp}" if sdp else f"kills: {kills}"
        ctx.warnings.append(
            f"{name} is a vehicle or object ({what}): an attack on it opposes its REF + "
            "Piloting or Driving (F31), and it has neither; they count 0"
        )
    if armor.kills and not kills:
        ctx.warnings.append(
            f"{name} wears Kill-rated armour ({armor.name}, kills: {armor.kills}) but is not a "
            "Kill-rated target (kills:)"
        )
    called_shot = opt(
        "called_shot",
        lambda p, v: check_choice(ctx, p, v, tables.called_locations(), "hit location"),
        None,
    )
    _check_burst_tactics(ctx, at("tactics"), value.get("tactics"), rules, weapon)
    tactics.check_weapon_names(rules, [weapon.name], at("tactics"), ctx.fail)
    _check_launch_tactics(ctx, at("tactics"), value.get("tactics"), rules, weapon)
    _check_damage(ctx, name, weapon, stats)
    # the weight falls and collisions go by (VA-36; default 72 kg)
    weight_kg = opt("weight", lambda p, v: parse_weight(ctx, p, v), None)
    return Combatant(
        name=name,
        side=side,
        stats=stats,
        derived=derived,
        skills=skills,
        weapon=weapon,
        armor=armor,
        position=position,
        tactics=rules,
        targeting=targeting,
        cover=cover,
        size=size,
        modifiers=modifiers,
        defence_modifiers=defence_modifiers,
        drawn=drawn,
        abort=abort,
        sdp=sdp,
        kills=kills,
        called_shot=called_shot,
        weight_kg=weight_kg,
        **flags,
    )


def _check_damage(ctx: Context, name: str, weapon: Weapon, stats: dict[str, int]) -> None:
    """Warn when a combatant's weapon can never do damage: no dice at full health (DC 0 and no
    STR bonus, or a minimum STR far above its own, F12-F13)."""
    from .rules import weapon_dice

    if weapon.unarmed or weapon.kills or weapon.thrown or weapon_dice(weapon, stats["STR"]) > 0:
        return
    why = (
        f"DC {weapon.dc}" if weapon.min_str <= stats["STR"]
        else f"DC {weapon.dc}, STR {stats['STR']} against a minimum of {weapon.min_str}"
    )  # fmt: skip
    ctx.warnings.append(f"{name}'s {weapon.name} can never do damage ({why}: no damage dice)")


def _check_burst_tactics(ctx: Context, parts, raw, rules, weapon: Weapon) -> None:
    """A tactic that bursts needs a weapon that may fire bursts (``burst: true``, F16)."""
    if weapon.burst:
        return
    for index, rule in enumerate(rules):
        if rule["do"] == "burst":
            where = [*parts, index, "do"] if isinstance(raw, list) else list(parts)
            raise ctx.fail(
                where,
                f"action 'burst' needs a weapon that fires bursts, but {weapon.name} has no "
                "'burst: true'",
                "attack",
            )


def _check_launch_tactics(ctx: Context, parts, raw, rules, weapon: Weapon) -> None:
    """A tactic that launches needs a missile weapon (``missile:``, F18)."""
    if weapon.missile is not None:
        return
    for index, rule in enumerate(rules):
        if rule["do"] == "launch":
            where = [*parts, index, "do"] if isinstance(raw, list) else list(parts)
            raise ctx.fail(
                where,
                f"action 'launch' needs a missile weapon (missile: {{dv: 18, cluster: N}}), but "
                f"{weapon.name} is none",
                "attack",
            )


def _position(ctx: Context, parts, value) -> float | tuple[float, float]:
    """A position: a number (metres on a line) or ``[x, y]`` (kept as a tuple)."""
    if value is None:
        return 0.0
    if isinstance(value, list):
        if len(value) != 2:
            raise ctx.fail(parts, f"expected [x, y] (two numbers), got {len(value)} values")
        return (
            check_number(ctx, [*parts, 0], value[0], *POSITION_RANGE),
            check_number(ctx, [*parts, 1], value[1], *POSITION_RANGE),
        )
    if not is_number(value):
        raise ctx.fail(parts, f"expected a number or [x, y], got {describe(value)}")
    return check_number(ctx, parts, value, *POSITION_RANGE)
