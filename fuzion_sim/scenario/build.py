"""Validate a scenario given as plain data and build the :class:`Scenario` model.

Every error is a :class:`~fuzion_sim.errors.ScenarioError` naming the file, the line (the nearest
key that has one), the key path (``sides.red[0].weapon``), the problem and, for a misspelt name,
the closest valid one. Problems that do not stop a run (a combatant lacking its weapon's skill)
become :attr:`Scenario.warnings`.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from fuzion_sim.errors import ScenarioError, did_you_mean, shorten
from fuzion_sim.limits import (
    MAX_COMBATANTS,
    MAX_DC,
    MAX_MAX_ROUNDS,
    MAX_SEED,
    MAX_TRIALS,
)

from . import catalogue
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
    RULE_SWITCHES,
    SIZES,
    UNARMED,
    UNARMED_NAMES,
    Area,
    Armor,
    Combatant,
    Rules,
    Scenario,
    Weapon,
)
from .yaml_io import format_path

__all__ = [
    "ARMOR_KEYS",
    "COMBATANT_KEYS",
    "SYSTEMS",
    "TOP_KEYS",
    "WEAPON_KEYS",
    "Context",
    "build_armor_mapping",
    "build_weapon_mapping",
    "scenario_from_dict",
]

#: Rule systems a scenario may name.
SYSTEMS = ("fuzion",)

#: Keys of a side given as a mapping (side-wide settings and its members).
SIDE_KEYS = ("members", "surprised")
TOP_KEYS = ("name", "description", "system", "trials", "seed", "max_rounds", "rules", "sides")
COMBATANT_KEYS = (
    "name", "stats", "skills", "weapon", "armor", "position", *DERIVED, "tactics",
    "targeting", "surprised", "cover", "prone", "crouched", "obscured", "braced", "silhouetted",
    "size", "modifiers", "defence_modifiers", "drawn", "abort", "sdp", "kills", "called_shot",
)  # fmt: skip
WEAPON_KEYS = (
    "name", "skill", "kind", "damage", "dc", "accuracy", "range", "rof", "shots", "min_str",
    "ap", "autofire", "energy", "hands", "notes", "category", "cost", "area", "reload_actions",
    "kills", "blade", "bow", "power_points", "burst", "barrels", "explosive",
)  # fmt: skip
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
    "covers",
)  # fmt: skip

#: Bounds on numeric rule switches (inclusive).
_RULE_BOUNDS = {
    "dying_penalty": (0, 100), "ap_factor": (0, 1), "obscured_dv": (0, 100),
    "autofire_ratio": (1, 100), "dodge_bonus": MODIFIER_RANGE, "block_bonus": MODIFIER_RANGE,
    "knockback_unit": (0, 1000),
}  # fmt: skip
#: Numeric rule switches that must be greater than 0.
_RULE_POSITIVE = ("knockback_unit",)
#: Rule switches where null means "unset" (stored as the RULE_SWITCHES default): the autofire
#: ratio, unset (0) meaning the campaign's ratio (campaigns.yaml).
_RULE_NULLABLE = ("autofire_ratio",)

#: Full names of the primaries, offered as did-you-mean (never accepted silently).
_STAT_NAMES = {
    "INTELLIGENCE": "INT", "WILLPOWER": "WILL", "PRESENCE": "PRE", "TECHNIQUE": "TECH",
    "REFLEXES": "REF", "DEXTERITY": "DEX", "CONSTITUTION": "CON", "STRENGTH": "STR",
    "BOD": "BODY", "MOVEMENT": "MOVE",
}  # fmt: skip

_MISSING = object()


class Context:
    """Where the data came from, for error messages, plus the warnings collected so far.

    Parameters
    ----------
    source : str, optional
        The file name shown in messages.
    lines : dict of str to int, optional
        Key path -> 1-based line, as returned by :func:`~fuzion_sim.scenario.read_yaml`.
    """

    def __init__(self, source: str | None = None, lines: dict[str, int] | None = None):
        self.source = source
        self.lines = lines or {}
        self.warnings: list[str] = []

    def line(self, parts: Sequence) -> int | None:
        """Line of the key path, else of its nearest parent that has one."""
        parts = list(parts)
        while True:
            key = format_path(parts)
            if key in self.lines:
                return self.lines[key]
            if not parts:
                return None
            parts.pop()

    def fail(self, parts: Sequence, message: str, suggestion: str | None = None) -> ScenarioError:
        """A :class:`ScenarioError` at this key path (returned, for the caller to raise)."""
        return ScenarioError(
            message,
            path=format_path(parts) or None,
            file=self.source,
            line=self.line(parts),
            suggestion=suggestion,
        )


# --- value checks ---------------------------------------------------------------------------


def _describe(value: Any) -> str:
    """A value as a message names it: 'text', true, a mapping, a list, nothing (null)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing (null)"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _allowed(minimum, maximum, positive=False) -> str:
    """The range a message names: `` (allowed: 0 to 100)``, `` (allowed: above 0, to 50)``."""
    if maximum is None:
        return ""
    low = "above 0," if positive else ("" if minimum is None else _num(minimum))
    high = _num(maximum)
    return f" (allowed: {low} to {high})" if low else f" (allowed: at most {high})"


def _num(value) -> str:
    """A bound as a message writes it: integers whole, floats short."""
    return str(value) if _is_int(value) else f"{value:g}"


def _int(ctx: Context, parts, value, minimum=None, label: str = "", maximum=None) -> int:
    if not _is_int(value):
        raise ctx.fail(parts, f"expected an integer, got {_describe(value)}")
    what = f"{label} must" if label else "must"
    if minimum is not None and value < minimum:
        raise ctx.fail(
            parts, f"{what} be at least {minimum}, got {_show(value)}{_allowed(minimum, maximum)}"
        )
    if maximum is not None and value > maximum:
        raise ctx.fail(
            parts, f"{what} be at most {maximum}, got {_show(value)}{_allowed(minimum, maximum)}"
        )
    return value


def _show(value) -> str:
    """A number as a message quotes it (a huge integer cut short)."""
    return shorten(value, 30)


def _number(ctx: Context, parts, value, minimum=None, maximum=None, positive=False) -> float:
    if not _is_number(value):
        raise ctx.fail(parts, f"expected a number, got {_describe(value)}")
    try:
        number = float(value)
    except OverflowError:  # an integer past 1e308
        number = math.inf if value > 0 else -math.inf
    if math.isnan(number):
        raise ctx.fail(parts, f"must be a number, got NaN{_allowed(minimum, maximum, positive)}")
    if positive and number <= 0:
        raise ctx.fail(parts, f"must be greater than 0, got {_show(value)}"
                       f"{_allowed(minimum, maximum, positive)}")  # fmt: skip
    if minimum is not None and number < minimum:
        raise ctx.fail(parts, f"must be at least {_num(minimum)}, got {_show(value)}"
                       f"{_allowed(minimum, maximum)}")  # fmt: skip
    if maximum is not None and number > maximum:
        raise ctx.fail(parts, f"must be at most {_num(maximum)}, got {_show(value)}"
                       f"{_allowed(minimum, maximum, positive)}")  # fmt: skip
    if not math.isfinite(number):
        raise ctx.fail(parts, f"must be a finite number, got {_show(value)}")
    return number


def _bool(ctx: Context, parts, value) -> bool:
    if not isinstance(value, bool):
        raise ctx.fail(parts, f"expected true or false, got {_describe(value)}")
    return value


def _str(ctx: Context, parts, value) -> str:
    if not isinstance(value, str):
        raise ctx.fail(parts, f"expected a string, got {_describe(value)}")
    if not value.strip():
        raise ctx.fail(parts, "must not be empty")
    return value


def _choice(ctx: Context, parts, value, choices: Sequence[str], what: str = "value") -> str:
    expected = " or ".join(", ".join(choices).rsplit(", ", 1))
    if not isinstance(value, str):
        raise ctx.fail(parts, f"expected {expected}, got {_describe(value)}")
    if value not in choices:
        raise ctx.fail(
            parts,
            f"unknown {what} '{value}' (expected {expected})",
            did_you_mean(value, choices),
        )
    return value


def _mapping(
    ctx: Context, parts, value, allowed: Iterable[str], required: Iterable[str] = ()
) -> dict:
    """Check that ``value`` is a mapping with only ``allowed`` keys and every ``required`` key."""
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a mapping, got {_describe(value)}")
    allowed = tuple(allowed)
    for key in value:
        if key not in allowed:
            raise ctx.fail(
                [*parts, key], f"unknown key '{shorten(key)}'", did_you_mean(str(key), allowed)
            )
    for key in required:
        if key not in value:
            raise ctx.fail(parts, f"missing key '{key}'")
    return value


def _get(value: dict, key: str):
    """The value of an optional key; an explicit null counts as absent."""
    got = value.get(key, _MISSING)
    return _MISSING if got is None else got


def _skill_name(ctx: Context, parts, value) -> str:
    if not isinstance(value, str):
        raise ctx.fail(parts, f"expected a skill name, got {_describe(value)}")
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
    _mapping(ctx, parts, entry, WEAPON_KEYS, required=("name", "skill"))

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        value = _get(entry, key)
        return default if value is _MISSING else check(at(key), value)

    def given(key) -> bool:
        return _get(entry, key) is not _MISSING

    name = _str(ctx, at("name"), entry["name"])
    skill = _skill_name(ctx, at("skill"), entry["skill"])
    kills = opt("kills", lambda p, v: _int(ctx, p, v, minimum=0, maximum=MAX_WEAPON_KILLS), 0)
    bow = opt("bow", lambda p, v: _choice(ctx, p, v, BOWS, "bow"), "none")
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
        dc = _int(ctx, at("dc"), entry["dc"], minimum=0, maximum=MAX_DC)
    kind = opt("kind", lambda p, v: _choice(ctx, p, v, ("ranged", "melee"), "kind"), "ranged")
    damage = opt(
        "damage", lambda p, v: _choice(ctx, p, v, ("killing", "stun"), "damage"), "killing"
    )
    power_points = opt("power_points", lambda p, v: _int(ctx, p, v, minimum=0, maximum=1000), 0)
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
        "range", lambda p, v: _number(ctx, p, v, maximum=MAX_METRES, positive=True), default_range
    )
    rof = opt("rof", lambda p, v: _int(ctx, p, v, minimum=1, maximum=1000), 1)
    accuracy = opt("accuracy", lambda p, v: _int(ctx, p, v, *_MODS), 0)
    min_str = opt("min_str", lambda p, v: _int(ctx, p, v, minimum=0, maximum=STAT_RANGE[1]), 0)
    shots = opt("shots", lambda p, v: _int(ctx, p, v, minimum=1, maximum=100_000), None)
    reload_actions = opt("reload_actions", lambda p, v: _int(ctx, p, v, 1, maximum=100), 1)
    ap = opt("ap", lambda p, v: _bool(ctx, p, v), False)
    autofire = opt("autofire", lambda p, v: _bool(ctx, p, v), False)
    energy = opt("energy", lambda p, v: _bool(ctx, p, v), False)
    blade = opt("blade", lambda p, v: _bool(ctx, p, v), False)
    burst = opt("burst", lambda p, v: _bool(ctx, p, v), False)
    if burst and rof < BURST_SHOTS:
        raise ctx.fail(at("burst"), f"a burst fires {BURST_SHOTS} shots (F16), but rof is {rof}")
    if burst and shots is not None and shots < BURST_SHOTS:
        raise ctx.fail(
            at("burst"),
            f"a burst fires {BURST_SHOTS} shots (F16), but the magazine holds {shots}",
        )

    def hands_check(p, v):
        if not _is_int(v) or v not in (1, 2):
            raise ctx.fail(p, f"expected 1 or 2, got {_describe(v)}")
        return v

    hands = opt("hands", hands_check, None)
    notes = opt("notes", lambda p, v: v if isinstance(v, str) else _str(ctx, p, v), "")
    opt("category", lambda p, v: _str(ctx, p, v), None)
    opt("cost", lambda p, v: _number(ctx, p, v, minimum=0, maximum=1e15), None)
    area = opt("area", lambda p, v: _area(ctx, p, v), None)
    if area is not None and area.per == "kill" and kills == 0:
        raise ctx.fail(
            [*parts, "area", "per"] if isinstance(entry.get("area"), dict) else at("area"),
            "an area per Kill needs a Kill-rated weapon (kills: 1 or more)",
        )
    barrels = opt("barrels", lambda p, v: _int(ctx, p, v, minimum=1, maximum=100), 1)
    if barrels > 1 and (area is None or area.per != "barrel"):
        raise ctx.fail(
            at("barrels"),
            f"barrels: {barrels} only counts for an area per barrel "
            "(e.g. area: {per: barrel, radius: 1})",
        )
    explosive = opt("explosive", lambda p, v: _bool(ctx, p, v), False)
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
    )


def _area(ctx: Context, parts, value) -> Area:
    """An area effect: ``{per: barrel | die | kill, radius: metres per unit}``, or the name of
    a typical effect of ``area_effects.yaml`` (``grenade``, ``shotgun``, ...)."""
    parts = list(parts)
    if isinstance(value, str):
        from fuzion_sim.systems.fuzion import tables

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
            f"got {_describe(value)}",
        )
    _mapping(ctx, parts, value, AREA_KEYS, required=AREA_KEYS)
    per = _choice(ctx, [*parts, "per"], value["per"], AREA_BASES, "area base")
    radius = _number(ctx, [*parts, "radius"], value["radius"], maximum=1000.0, positive=True)
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
    _mapping(ctx, parts, entry, ARMOR_KEYS, required=("name",))

    def at(key):
        return [*parts, key]

    def opt(key, check, default):
        value = _get(entry, key)
        return default if value is _MISSING else check(at(key), value)

    def text(p, v):
        if not isinstance(v, str):
            raise ctx.fail(p, f"expected a string, got {_describe(v)}")
        return v

    name = _str(ctx, at("name"), entry["name"])
    pd = opt("pd", lambda p, v: _int(ctx, p, v, minimum=0, maximum=MAX_ARMOUR), 0)
    ekd = opt("ekd", lambda p, v: _int(ctx, p, v, minimum=0, maximum=MAX_ARMOUR), 0)
    half = opt("half_vs_blades", lambda p, v: _bool(ctx, p, v), False)
    kills = opt("kills", lambda p, v: _int(ctx, p, v, minimum=0, maximum=MAX_KILLS), 0)
    if kills > 0:
        for key, value in (("pd", pd), ("ekd", ekd)):
            if value:
                raise ctx.fail(
                    at(key),
                    f"Kill-rated armour (kills: {kills}) takes no {key}: give kills or pd/ekd, "
                    "not both (F29)",
                )
    covers = opt("covers", lambda p, v: _covers(ctx, p, v), None)
    description = opt("description", text, "")
    notes = opt("notes", text, "")
    opt("category", lambda p, v: _str(ctx, p, v), None)
    opt("cost", lambda p, v: _number(ctx, p, v, minimum=0, maximum=1e15), None)
    return Armor(
        name=name,
        pd=pd,
        ekd=ekd,
        half_vs_blades=half,
        notes=notes or description,
        kills=kills,
        covers=covers,
    )


def _hit_location_names() -> tuple[str, ...]:
    from fuzion_sim.systems.fuzion import tables

    return tables.hit_locations().names


def _covers(ctx: Context, parts, value) -> tuple[str, ...]:
    """The hit locations an armour covers (F27): a non-empty list of location names."""
    parts = list(parts)
    names = _hit_location_names()
    if isinstance(value, str):
        hint = value if value in names else did_you_mean(value, names)
        raise ctx.fail(
            parts,
            f"expected a list of hit locations, got {_describe(value)}",
            f"[{hint}]" if hint else None,
        )
    if not isinstance(value, list):
        raise ctx.fail(parts, f"expected a list of hit locations, got {_describe(value)}")
    if not value:
        raise ctx.fail(
            parts, "an armour that covers no location stops nothing (leave out covers for all)"
        )
    out: list[str] = []
    for index, raw in enumerate(value):
        name = _choice(ctx, [*parts, index], raw, names, "hit location")
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
    raise ctx.fail(parts, f"expected a catalogue weapon name or a mapping, got {_describe(value)}")


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
    raise ctx.fail(parts, f"expected a catalogue armour name or a mapping, got {_describe(value)}")


# --- combatants -----------------------------------------------------------------------------


def _stats(ctx: Context, parts, value) -> dict[str, int]:
    stats = {p: 5 for p in PRIMARIES}
    if value is None:
        return stats
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a mapping of stats, got {_describe(value)}")
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
        stats[primary] = _int(
            ctx, kp, raw, minimum=1 if primary == "BODY" else STAT_RANGE[0], label=primary,
            maximum=STAT_RANGE[1],
        )  # fmt: skip
    return stats


def _skills(ctx: Context, parts, value) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a mapping of skill levels, got {_describe(value)}")
    out: dict[str, int] = {}
    for key, raw in value.items():
        kp = [*parts, key]
        canon = _skill_name(ctx, kp, key)
        if canon in out:
            raise ctx.fail(kp, f"skill '{canon}' is given twice")
        out[canon] = _int(ctx, kp, raw, minimum=SKILL_RANGE[0], maximum=SKILL_RANGE[1])
    return out


def _combatant(ctx: Context, parts, value, side: str) -> Combatant:
    _mapping(ctx, parts, value, COMBATANT_KEYS, required=("name",))

    def at(key):
        return [*parts, key]

    name = _str(ctx, at("name"), value["name"])
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
            derived[key] = _int(ctx, at(key), value[key], minimum=low, label=key, maximum=high)
    if weapon.skill not in skills:
        ctx.warnings.append(f"{name} has no {weapon.skill} skill; it counts 0")
    if "end" in value:
        ctx.warnings.append(
            f"{name}: end (Endurance) is recorded on the sheet only; no rule of the fight uses it"
        )

    def opt(key, check, default):
        got = _get(value, key)
        return default if got is _MISSING else check(at(key), got)

    # the tactics language belongs to the Fuzion rule system (imported here: the system's
    # package imports this one)
    from fuzion_sim.systems.fuzion import tactics as fuzion_tactics

    rules = fuzion_tactics.validate_tactics(value.get("tactics"), at("tactics"), ctx.fail)
    targeting = opt(
        "targeting",
        lambda p, v: _choice(ctx, p, v, tuple(fuzion_tactics.TARGETING), "targeting"),
        "first",
    )
    flags = {key: opt(key, lambda p, v: _bool(ctx, p, v), False) for key in _COMBATANT_FLAGS}
    cover = opt("cover", lambda p, v: _choice(ctx, p, v, COVERS, "cover"), "none")
    size = opt("size", lambda p, v: _choice(ctx, p, v, SIZES, "size"), "normal")
    modifiers = opt("modifiers", lambda p, v: _int(ctx, p, v, *_MODS), 0)
    drawn = opt("drawn", lambda p, v: _bool(ctx, p, v), True)
    abort = opt("abort", lambda p, v: _choice(ctx, p, v, ABORTS, "abort"), "none")
    defence_modifiers = opt("defence_modifiers", lambda p, v: _int(ctx, p, v, *_MODS), 0)
    sdp = opt("sdp", lambda p, v: _int(ctx, p, v, 1, "sdp", maximum=MAX_POOL), 0)
    kills = opt("kills", lambda p, v: _int(ctx, p, v, 1, "kills", maximum=MAX_KILLS), 0)
    if sdp and kills:
        raise ctx.fail(
            at("kills"),
            "give sdp (an object with Structural Damage Points) or kills (a Kill-rated target), "
            "not both",
        )
    if sdp or kills:
        what = f"sdp: {sdp}" if sdp else f"kills: {kills}"
        for key in ("hits", "stun"):
            if _get(value, key) is not _MISSING:
                raise ctx.fail(
                    at(key),
                    f"an object ({what}) has no {key}: its structure is its "
                    f"{'SDP' if sdp else 'Kills'} (leave out {key})",
                )
    if armor.kills and not kills:
        ctx.warnings.append(
            f"{name} wears Kill-rated armour ({armor.name}, kills: {armor.kills}) but is not a "
            "Kill-rated target (kills:)"
        )
    called_shot = opt(
        "called_shot",
        lambda p, v: _choice(ctx, p, v, _hit_location_names(), "hit location"),
        None,
    )
    _check_burst_tactics(ctx, at("tactics"), value.get("tactics"), rules, weapon)
    _check_damage(ctx, name, weapon, stats)
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
        **flags,
    )


def _check_damage(ctx: Context, name: str, weapon: Weapon, stats: dict[str, int]) -> None:
    """Warn when a combatant's weapon can never do damage: no dice at full health (DC 0 and no
    STR bonus, or a minimum STR far above its own, F12-F13)."""
    from fuzion_sim.systems.fuzion.rules import weapon_dice

    if weapon.unarmed or weapon.kills or weapon_dice(weapon, stats["STR"]) > 0:
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


def _position(ctx: Context, parts, value) -> float | tuple[float, float]:
    """A position: a number (metres on a line) or ``[x, y]`` (kept as a tuple)."""
    if value is None:
        return 0.0
    if isinstance(value, list):
        if len(value) != 2:
            raise ctx.fail(parts, f"expected [x, y] (two numbers), got {len(value)} values")
        return (
            _number(ctx, [*parts, 0], value[0], *POSITION_RANGE),
            _number(ctx, [*parts, 1], value[1], *POSITION_RANGE),
        )
    if not _is_number(value):
        raise ctx.fail(parts, f"expected a number or [x, y], got {_describe(value)}")
    return _number(ctx, parts, value, *POSITION_RANGE)


def _rules(ctx: Context, parts, value) -> Rules:
    values = {key: spec[1] for key, spec in RULE_SWITCHES.items()}
    if value is None:
        return Rules(values=values)
    _mapping(ctx, parts, value, RULE_SWITCHES)
    for key, raw in value.items():
        kp = [*parts, key]
        allowed = RULE_SWITCHES[key][0]
        low, high = _RULE_BOUNDS.get(key, (None, None))
        if raw is None and key in _RULE_NULLABLE:
            values[key] = RULE_SWITCHES[key][1]
        elif key == "autofire_ratio" and _is_int(raw) and raw < low:
            raise ctx.fail(
                kp,
                f"autofire_ratio must be at least 1, got {raw} (leave it out, or null, for "
                "the campaign's ratio)",
            )
        elif isinstance(allowed, tuple):
            values[key] = _choice(ctx, kp, raw, allowed)
        elif allowed is bool:
            values[key] = _bool(ctx, kp, raw)
        elif allowed is int:
            values[key] = _int(ctx, kp, raw, minimum=low, label=key, maximum=high)
        elif allowed is float:
            values[key] = _number(
                ctx, kp, raw, minimum=low, maximum=high, positive=key in _RULE_POSITIVE
            )
        else:  # pragma: no cover - RULE_SWITCHES only uses the kinds above
            raise TypeError(f"rule switch {key!r} has an unsupported kind {allowed!r}")
    return Rules(values=values)


# --- scenario -------------------------------------------------------------------------------


def scenario_from_dict(
    data: Any, source: str | None = None, lines: dict[str, int] | None = None
) -> Scenario:
    """Validate a scenario given as plain data and build a :class:`Scenario`.

    Parameters
    ----------
    data : dict
        The scenario as read from YAML (top-level keys ``name``, ``description``, ``system``,
        ``trials``, ``seed``, ``max_rounds``, ``rules``, ``sides``).
    source : str, optional
        The file it came from; used in messages and as the default name (its stem).
    lines : dict of str to int, optional
        Key path -> 1-based line number (from :func:`~fuzion_sim.scenario.read_yaml`).

    Returns
    -------
    Scenario
        With every default filled in; ``data`` is a deep copy of the input and ``warnings``
        lists problems that do not stop a run.

    Raises
    ------
    ScenarioError
        For the first problem found, naming the file, line, key path, problem and, for a
        misspelt name, the closest valid one.
    """
    ctx = Context(source, lines)
    if not isinstance(data, dict):
        raise ctx.fail([], f"a scenario must be a mapping of keys, got {_describe(data)}")
    _mapping(ctx, [], data, TOP_KEYS, required=("sides",))

    name = _get(data, "name")
    if name is _MISSING:
        name = Path(source).stem if source else "scenario"
    else:
        name = _str(ctx, ["name"], name)
    description = _get(data, "description")
    if description is not _MISSING and not isinstance(description, str):
        raise ctx.fail(["description"], f"expected a string, got {_describe(description)}")
    system = _get(data, "system")
    system = "fuzion" if system is _MISSING else _choice(ctx, ["system"], system, SYSTEMS, "system")
    trials = data.get("trials")
    trials = 100_000 if trials is None else _int(ctx, ["trials"], trials, 1, "trials", MAX_TRIALS)
    seed = data.get("seed")
    seed = 0 if seed is None else _int(ctx, ["seed"], seed, 0, "seed", MAX_SEED)
    max_rounds = data.get("max_rounds")
    max_rounds = (
        50 if max_rounds is None
        else _int(ctx, ["max_rounds"], max_rounds, 1, "max_rounds", MAX_MAX_ROUNDS)
    )  # fmt: skip
    rules = _rules(ctx, ["rules"], data.get("rules"))

    raw_sides = data["sides"]
    if raw_sides is None:
        raw_sides = {}
    if not isinstance(raw_sides, dict):
        raise ctx.fail(
            ["sides"], f"expected a mapping of side name to combatants, got {_describe(raw_sides)}"
        )
    if len(raw_sides) < 2:
        raise ctx.fail(["sides"], f"a scenario needs at least two sides, got {len(raw_sides)}")
    sides: dict[str, tuple[Combatant, ...]] = {}
    first_seen: dict[str, str] = {}
    total = 0
    for side, members in raw_sides.items():
        sp = ["sides", side]
        if not isinstance(side, str) or not side.strip():
            raise ctx.fail(sp, f"a side name must be a non-empty string, got {_describe(side)}")
        side_surprised = False
        if isinstance(members, dict):  # {surprised: true, members: [...]}: side-wide keys
            _mapping(ctx, sp, members, SIDE_KEYS, required=("members",))
            if "surprised" in members:
                side_surprised = _bool(ctx, [*sp, "surprised"], members["surprised"])
            sp = [*sp, "members"]
            members = members["members"]
        if not members:
            raise ctx.fail(sp, f"side '{side}' has no combatants")
        if not isinstance(members, list):
            raise ctx.fail(sp, f"expected a list of combatants, got {_describe(members)}")
        total += len(members)
        if total > MAX_COMBATANTS:
            raise ctx.fail(sp, f"more than {MAX_COMBATANTS} combatants in the scenario "
                               f"(allowed: 1 to {MAX_COMBATANTS})")  # fmt: skip
        built = []
        for index, member in enumerate(members):
            combatant = _combatant(ctx, [*sp, index], member, side)
            if side_surprised and "surprised" not in member:
                combatant = dataclasses.replace(combatant, surprised=True)
            if combatant.name in first_seen:
                raise ctx.fail(
                    [*sp, index, "name"],
                    f"duplicate combatant name '{combatant.name}' "
                    f"(also at {first_seen[combatant.name]})",
                )
            first_seen[combatant.name] = format_path([*sp, index])
            built.append(combatant)
        sides[side] = tuple(built)
    if rules.hit_locations != "called":
        for combatant in (c for members in sides.values() for c in members):
            if combatant.called_shot is not None:
                ctx.warnings.append(
                    f"{combatant.name} calls shots at the {combatant.called_shot}, but "
                    f"rules.hit_locations is '{rules.hit_locations}': the call is ignored"
                )

    return Scenario(
        name=name,
        system=system,
        trials=trials,
        seed=seed,
        max_rounds=max_rounds,
        rules=rules,
        sides=sides,
        data=copy.deepcopy(data),
        source=source,
        warnings=tuple(ctx.warnings),
    )
