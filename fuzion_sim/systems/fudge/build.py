"""Build FUDGE members (shooters and objects, charges, barriers) and their weapons and armour
from a scenario's data, with the shared checks (:mod:`fuzion_sim.validation.checks`): every error
names the file, the line, the key path, the problem, the allowed range and, for a misspelt name,
the closest valid one. Keys that would do nothing become the scenario's warnings.

Ladder values may be written as names (``skill: Good``, any case) or as numbers (``skill: 1``).
"""

from __future__ import annotations

from fractions import Fraction

from fuzion_sim.errors import did_you_mean
from fuzion_sim.limits import MAX_MAX_ROUNDS
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
    unknown_key,
)

from . import catalogue
from .dice import LADDER, level_of
from .model import (
    AIMS,
    COVERS,
    NO_ARMOUR,
    SIGHTS,
    SPEEDS,
    TACTICS,
    TARGETING,
    Armour,
    Barrier,
    Charge,
    Member,
    Weapon,
)

__all__ = [
    "ARMOUR_KEYS",
    "BARRIER_KEYS",
    "CHARGE_KEYS",
    "MEMBER_KEYS",
    "PERSON_KEYS",
    "WEAPON_KEYS",
    "build_member",
    "build_weapon_mapping",
    "check_level",
]

#: Keys of a member with a wound track (a shooter, or an object shot at).
PERSON_KEYS = (
    "name", "skill", "damage_capacity", "weapon", "distance", "position", "initiative",
    "scale", "armour", "dodge", "speed", "ducked", "cover", "aim", "wound_width", "targeting",
    "tactic",
)  # fmt: skip
#: Keys of a charge (an explosive set off during the fight, §8.3).
CHARGE_KEYS = ("name", "charge", "detonates", "avg_seconds", "tamped", "tamping", "contact",
               "distance", "position")  # fmt: skip
#: Keys of a barrier to breach (§8.32).
BARRIER_KEYS = ("name", "wounds", "scale", "distance", "position")
#: Every key a member may have, whatever its kind.
MEMBER_KEYS = tuple(dict.fromkeys((*PERSON_KEYS, *CHARGE_KEYS, *BARRIER_KEYS)))
WEAPON_KEYS = ("name", "bd", "scale", "sight", "laser", "concussion", "concussion_range",
               "concussion_value", "burst_radius", "source", "notes")  # fmt: skip
ARMOUR_KEYS = ("points", "scale")

#: Sane ranges (inclusive): ladder levels of traits, Scales, metres, Basic Damage and the rest.
TRAIT_RANGE = (-3, 4)
SCALE_RANGE = (-100, 100)
MAX_METRES = 100_000.0
MAX_BD = 10_000
MAX_ARMOUR = 10_000
MAX_WIDTH = 1000
MAX_WOUNDS = 100_000
INITIATIVE_RANGE = (-100, 100)
MAX_SECONDS = 1e7


def check_level(ctx: Context, parts, value, low: int = TRAIT_RANGE[0],
                high: int = TRAIT_RANGE[1]) -> int:  # fmt: skip
    """A ladder level given as a name (any case) or a number, within ``low .. high``."""
    names = [n for n, v in LADDER.items() if low <= v <= high]
    allowed = f"{', '.join(names)} or {low} to {high}"
    if isinstance(value, str):
        level = level_of(value)
        if level is None:
            raise ctx.fail(parts, f"unknown ladder level '{value}' (expected {allowed})",
                           did_you_mean(value, list(LADDER)))  # fmt: skip
    elif is_int(value):
        level = value
    else:
        raise ctx.fail(parts, f"expected a ladder level ({allowed}), got {describe(value)}")
    if not low <= level <= high:
        raise ctx.fail(parts, f"must be a ladder level from {low} to {high}, got {value} "
                              f"(allowed: {allowed})")  # fmt: skip
    return level


def _fraction(ctx, parts, value, low=0.0, high=MAX_BD) -> Fraction:
    """A non-negative decimal number kept exact (4.5 stays 9/2)."""
    number = check_number(ctx, parts, value, minimum=low, maximum=high)
    return Fraction(value) if is_int(value) else Fraction(str(number))


def _metres(ctx, parts, value, positive=False) -> float:
    return check_number(ctx, parts, value, minimum=0.0, maximum=MAX_METRES, positive=positive)


def _position(ctx, parts, value):
    """A number (metres on a line) or an ``[x, y]`` pair."""
    if is_number(value):
        return check_number(ctx, parts, value, -MAX_METRES, MAX_METRES)
    if isinstance(value, list) and len(value) == 2:
        return tuple(check_number(ctx, [*parts, i], v, -MAX_METRES, MAX_METRES)
                     for i, v in enumerate(value))  # fmt: skip
    raise ctx.fail(parts, f"expected metres on a line or an [x, y] pair, got {describe(value)}")


# --- weapons and armour ----------------------------------------------------------------------


def build_weapon_mapping(ctx: Context, parts, entry: dict) -> Weapon:
    """Validate an inline weapon (or a catalogue entry) and build a :class:`Weapon`.

    Parameters
    ----------
    ctx : Context
    parts : list
        Its key path (``["sides", "men", 0, "weapon"]``).
    entry : dict
        :data:`WEAPON_KEYS`; ``name`` and ``bd`` are required. A blast needs a
        ``concussion_range`` when it has ``concussion``; one with a range and no concussion
        takes 2 x BD (UA10, M23) with a warning.

    Raises
    ------
    ScenarioError
    """
    parts = list(parts)
    check_mapping(ctx, parts, entry, WEAPON_KEYS, required=("name", "bd"))

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        value = optional(entry, key)
        return default if value is MISSING else check(at(key), value)

    name = check_str(ctx, at("name"), entry["name"])
    bd = _fraction(ctx, at("bd"), entry["bd"])
    scale = opt("scale", lambda p, v: check_int(ctx, p, v, SCALE_RANGE[0], "scale",
                                                 SCALE_RANGE[1]), 0)  # fmt: skip
    sight = opt("sight", lambda p, v: check_choice(ctx, p, v, SIGHTS, "sight"), "none")
    laser = opt("laser", lambda p, v: check_bool(ctx, p, v), False)
    concussion = opt("concussion", lambda p, v: _fraction(ctx, p, v, high=10 * MAX_BD), None)
    cr = opt("concussion_range", lambda p, v: _metres(ctx, p, v, positive=True), None)
    cv = opt("concussion_value", lambda p, v: check_level(ctx, p, v), None)
    radius = opt("burst_radius", lambda p, v: _metres(ctx, p, v, positive=True), None)
    opt("source", lambda p, v: check_str(ctx, p, v), "")
    notes = opt("notes", lambda p, v: check_str(ctx, p, v), "")
    if concussion is not None and cr is None:
        raise ctx.fail(parts, f"{name} has concussion {concussion} and no concussion_range: "
                              "give the metres of its Concussion Range (§8.31)")  # fmt: skip
    if cr is not None and concussion is None:
        concussion = 2 * bd
        ctx.warnings.append(
            f"{'.'.join(map(str, parts))}: {name} has a concussion_range and no concussion: it "
            f"takes twice its Basic Damage, {_show(concussion)} (UA10, §8.31)"
        )
    if cv is not None and concussion is None:
        raise ctx.fail(at("concussion_value"), f"{name} has a concussion_value and no "
                                               "concussion to go with it")  # fmt: skip
    return Weapon(name=name, bd=bd, scale=scale, sight=sight, laser=laser,
                  concussion=concussion, concussion_range=cr, concussion_value=cv,
                  burst_radius=radius, notes=notes)  # fmt: skip


def _show(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else f"{float(x):g}"


def _weapon(ctx: Context, parts, value) -> Weapon:
    """A catalogue weapon by name (any case) or an inline mapping."""
    if isinstance(value, str):
        weapon = catalogue.find_weapon(value)
        if weapon is None:
            raise ctx.fail(parts, f"unknown weapon '{value}' (fuzion-sim catalog weapons "
                                  "--system fudge lists them)",
                           did_you_mean(value, catalogue.weapons()))  # fmt: skip
        return weapon
    if isinstance(value, dict):
        return build_weapon_mapping(ctx, parts, value)
    raise ctx.fail(parts, f"expected a catalogue weapon's name or a mapping, got "
                          f"{describe(value)}")  # fmt: skip


def _armour(ctx: Context, parts, value) -> Armour:
    check_mapping(ctx, parts, value, ARMOUR_KEYS, required=("points",))
    points = _fraction(ctx, [*parts, "points"], value["points"], high=MAX_ARMOUR)
    scale = optional(value, "scale")
    scale = None if scale is MISSING else check_int(ctx, [*parts, "scale"], scale,
                                                    SCALE_RANGE[0], "scale", SCALE_RANGE[1])
    return Armour(points=points, scale=scale)


# --- members ---------------------------------------------------------------------------------


def _kind(value: dict) -> tuple[str, tuple[str, ...]]:
    if "charge" in value:
        return "charge", CHARGE_KEYS
    if "wounds" in value:
        return "barrier", BARRIER_KEYS
    return "member", PERSON_KEYS


_KIND_WORDS = {"member": "a combatant or an object (it has no charge: or wounds:)",
               "charge": "a charge", "barrier": "a barrier (it has wounds:)"}  # fmt: skip


def _check_keys(ctx: Context, parts, value: dict, kind: str, keys: tuple[str, ...]) -> None:
    for key in value:
        if key in keys:
            continue
        if key in MEMBER_KEYS:
            raise ctx.fail([*parts, key], f"'{key}' is not a key of {_KIND_WORDS[kind]} "
                                          f"(its keys: {', '.join(keys)})")  # fmt: skip
        raise unknown_key(ctx, parts, key, keys)


def _where(ctx, parts, value: dict) -> dict:
    """``distance`` and ``position`` (one of them at most)."""
    distance = optional(value, "distance")
    position = optional(value, "position")
    if distance is not MISSING and position is not MISSING:
        raise ctx.fail([*parts, "position"], "give a distance or a position, not both")
    return {
        "distance": None if distance is MISSING else _metres(ctx, [*parts, "distance"], distance),
        "position": None if position is MISSING else _position(ctx, [*parts, "position"],
                                                               position),
    }  # fmt: skip


def build_member(ctx: Context, parts, value, side: str, side_options: dict):
    """Validate one member's mapping and build a :class:`Member`, :class:`Charge` or
    :class:`Barrier` (a ``charge:`` key makes a charge, ``wounds:`` a barrier)."""
    parts = list(parts)
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a member's mapping, got {describe(value)}")
    kind, keys = _kind(value)
    _check_keys(ctx, parts, value, kind, keys)
    if "name" not in value:
        raise ctx.fail(parts, "missing key 'name'")
    name = check_str(ctx, [*parts, "name"], value["name"])
    where = _where(ctx, parts, value)
    if kind == "charge":
        return _charge(ctx, parts, value, name, side, where)
    if kind == "barrier":
        wounds = check_int(ctx, [*parts, "wounds"], value["wounds"], 0, "wounds", MAX_WOUNDS)
        scale = _opt_int(ctx, parts, value, "scale", 0, SCALE_RANGE)
        return Barrier(name=name, side=side, wounds=wounds, scale=scale, **where)
    return _person(ctx, parts, value, name, side, where)


def _opt_int(ctx, parts, value, key, default, bounds):
    got = optional(value, key)
    if got is MISSING:
        return default
    return check_int(ctx, [*parts, key], got, bounds[0], key, bounds[1])


def _person(ctx, parts, value, name, side, where) -> Member:
    def opt(key, check, default):
        got = optional(value, key)
        return default if got is MISSING else check([*parts, key], got)

    weapon = opt("weapon", lambda p, v: _weapon(ctx, p, v), None)
    member = Member(
        name=name, side=side,
        skill=opt("skill", lambda p, v: check_level(ctx, p, v), 0),
        damage_capacity=opt("damage_capacity", lambda p, v: check_level(ctx, p, v), 0),
        weapon=weapon,
        initiative=_opt_int(ctx, parts, value, "initiative", 0, INITIATIVE_RANGE),
        scale=_opt_int(ctx, parts, value, "scale", 0, SCALE_RANGE),
        armour=opt("armour", lambda p, v: _armour(ctx, p, v), NO_ARMOUR),
        dodge=opt("dodge", lambda p, v: check_level(ctx, p, v), None),
        speed=opt("speed", lambda p, v: check_choice(ctx, p, v, SPEEDS, "speed"), "stationary"),
        ducked=opt("ducked", lambda p, v: check_bool(ctx, p, v), False),
        cover=opt("cover", lambda p, v: check_choice(ctx, p, v, COVERS, "cover"), "none"),
        aim=opt("aim", lambda p, v: check_choice(ctx, p, v, AIMS, "part"), None),
        wound_width=_opt_int(ctx, parts, value, "wound_width", None, (1, MAX_WIDTH)),
        targeting=opt("targeting", lambda p, v: check_choice(ctx, p, v, TARGETING,
                                                            "targeting"), "first"),
        tactic=opt("tactic", lambda p, v: check_choice(ctx, p, v, TACTICS, "tactic"), "shoot"),
        **where,
    )  # fmt: skip
    path = ".".join(map(str, parts))
    if weapon is None:
        idle = [k for k in ("skill", "initiative", "targeting", "tactic", "aim")
                if optional(value, k) is not MISSING]
        if idle:
            ctx.warnings.append(f"{path}: {name} has no weapon, so {', '.join(idle)} "
                                "does nothing (it is only shot at)")  # fmt: skip
    elif optional(value, "skill") is MISSING:
        ctx.warnings.append(f"{path}: {name} has no skill: it shoots at Fair")
    return member


def _charge(ctx, parts, value, name, side, where) -> Charge:
    explosive = _weapon(ctx, [*parts, "charge"], value["charge"])
    detonates = optional(value, "detonates")
    seconds = optional(value, "avg_seconds")
    if detonates is not MISSING and seconds is not MISSING:
        raise ctx.fail([*parts, "avg_seconds"], "give detonates (a round) or avg_seconds, "
                                                "not both")  # fmt: skip
    detonates = 1 if detonates is MISSING else check_int(
        ctx, [*parts, "detonates"], detonates, 1, "detonates", MAX_MAX_ROUNDS)  # fmt: skip
    if seconds is not MISSING:
        seconds = check_number(ctx, [*parts, "avg_seconds"], seconds, maximum=MAX_SECONDS,
                               positive=True)  # fmt: skip
    tamped = optional(value, "tamped")
    tamping = optional(value, "tamping")
    if tamped is not MISSING and tamping is not MISSING:
        raise ctx.fail([*parts, "tamping"], "give tamped (true or false) or tamping (the "
                                            "Explosives skill that tries), not both")
    tamped = False if tamped is MISSING else check_bool(ctx, [*parts, "tamped"], tamped)
    if tamping is not MISSING:
        tamping = check_level(ctx, [*parts, "tamping"], tamping)
        tamped = None
    contact = optional(value, "contact")
    if contact is not MISSING:
        contact = check_str(ctx, [*parts, "contact"], contact)
    path = ".".join(map(str, parts))
    w = explosive
    if w.sight != "none" or w.laser:
        ctx.warnings.append(f"{path}.charge: a charge aims at nothing: its sight and laser do "
                            "nothing")  # fmt: skip
    return Charge(name=name, side=side, explosive=explosive, detonates=detonates,
                  avg_seconds=None if seconds is MISSING else seconds, tamped=tamped,
                  tamping=None if tamping is MISSING else tamping,
                  contact=None if contact is MISSING else contact, **where)  # fmt: skip
