"""Throwing objects and lifting (M-73, M-74, VA-49): a weapon with ``thrown:`` is an object the
combatant throws, built into an ordinary ranged weapon (a DC or Kills, a range, one shot per
object), so the kernels need nothing new.

``thrown: {weight: 900 kg, aerodynamic: false, balanced: false}`` on an inline weapon. Once
the rules are known (:func:`resolve_thrown`, from the system's scenario check):

- the thrower must lift the object for throwing: at most a quarter of its deadlift (M-74,
  L283 "lifting it for throwing would be reduced to one fourth"), the deadlift being
  25 kg x 2^STR (rules-sources 1.3's reconstruction, **not from the seed**);
- Throw = STR + 4 + the modifier of the weight's row of the Weight Modifier table (printed
  negative; "subtract" adds it, VA-49) + 1 aerodynamic + 1 balanced; the row is the closest
  approximate weight under ``rules.weight_row`` (VA-36's reading of the same phrase);
  below .5 it cannot be thrown;
- the range is the Throw Table's distance for the Throw (the row at or below it; Throw values
  are whole numbers, so every value from 1 to 32 is a row), at most the project's longest
  range;
- under ``rules.thrown_damage: collision`` (VA-49) a hit does the Falling & Collisions
  table's entry of the object's weight row (``rules.weight_row``) at the speed of the throw
  distance covered in one 3-second phase (``rules.collision_speed_bands``, VA-38): xK is a
  Kill-rated weapon of x Kills (13 + x DC against people and SDP, x Kills against Kill-rated
  targets, as ``features/scene/room.py`` treats a collision); Killing, or Stun under
  ``rules.impact_damage: stun`` (VA-37). ``thrown_damage: none``: throwing is not modelled,
  and a ``thrown:`` weapon is an error.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from fuzion_sim.validation.checks import MISSING, Context, check_bool, check_int, optional

from ...model import Thrown, Weapon
from ..vehicles.build import parse_weight

__all__ = [
    "THROWN_KEYS", "ThrowError", "ThrowTables", "describe_throw", "lift_kg", "resolve_thrown",
    "throw_figures", "throw_lift_kg", "throw_tables", "thrown_weapon",
]  # fmt: skip

#: Keys of a weapon's ``thrown:`` mapping.
THROWN_KEYS = ("weight", "aerodynamic", "balanced")
#: Weapon keys a thrown object may carry besides ``thrown``; every other weapon key is an
#: error (the damage, range and kind come from the tables).
THROWN_WEAPON_KEYS = ("name", "skill", "accuracy", "shots", "notes", "category", "cost",
                      "hands", "thrown")  # fmt: skip
#: Why a weapon key does not go with ``thrown:``.
_NOT_WITH_THROWN = {
    "dc": "the damage comes from the Falling & Collisions table (VA-49)",
    "kills": "the damage comes from the Falling & Collisions table (VA-49)",
    "damage": "Killing, or Stun under rules.impact_damage: stun (VA-37)",
    "range": "the range is the Throw Table's distance (M-73)",
    "kind": "a thrown object is a ranged attack",
    "reload_actions": "each object is thrown once: give shots: N for N objects",
}
#: The longest range a weapon may have (build.MAX_METRES).
_MAX_RANGE = 100_000.0


class ThrowError(ValueError):
    """A thrown object the rules do not allow (too heavy to lift, a Throw below .5)."""


@dataclass(frozen=True, eq=False)
class ThrowTables:
    """The Throw Table and the Weight Modifier table (``throwing.yaml``, seed L297-350)."""

    #: Throw values (0.5, 1, ..., 32) and their distances in metres.
    values: tuple[float, ...]
    metres: tuple[float, ...]
    #: The Weight Modifier rows: kg (0 for "Less than 2 kg"), printed weight, example, modifier.
    kg: tuple[float, ...]
    printed: tuple[str, ...]
    examples: tuple[str, ...]
    modifiers: tuple[int, ...]
    #: The lift reconstruction (rules-sources 1.3): base kg, and the fraction lifted to throw.
    base_kg: float
    throw_fraction: float

    def modifier_row(self, kg: float, mode: str = "nearest_ratio") -> int:
        """The Weight Modifier row of ``kg``: below 2 kg the first ("Less than 2 kg"); else
        the listed weight nearest by ratio (a tie to the heavier, VA-36) or, under
        ``at_or_below``, the heaviest listed not above it. Raises :class:`ThrowError` above
        the last row (40 mt) by more than half a step."""
        last = len(self.kg) - 1
        if kg < self.kg[1]:
            return 0
        if kg > self.kg[last] * math.sqrt(2.0):
            raise ThrowError(f"{kg:g} kg is beyond the Weight Modifier table (its last row is "
                             f"{self.printed[last]}, {self.examples[last]})")  # fmt: skip
        listed = range(1, last + 1)
        if mode == "at_or_below":
            return max(r for r in listed if self.kg[r] <= kg * (1 + 1e-12))
        if mode != "nearest_ratio":
            raise ValueError(f"unknown weight_row {mode!r}")
        return min(listed, key=lambda r: (abs(math.log(kg / self.kg[r])) - 1e-12 * r, -r))

    def distance(self, throw: float) -> float | None:
        """The Throw Table's metres for a Throw of ``throw``: the row at or below it; None
        below .5 (it cannot be thrown). Raises :class:`ThrowError` above the last row (32)."""
        if throw < self.values[0]:
            return None
        if throw > self.values[-1]:
            raise ThrowError(f"a Throw of {throw:g} is beyond the Throw Table (its last row is "
                             f"{self.values[-1]:g}, {self.metres[-1]:,.0f} m)")  # fmt: skip
        return max(m for v, m in zip(self.values, self.metres, strict=True) if v <= throw)


@cache
def throw_tables() -> ThrowTables:
    """The throwing tables (``throwing.yaml``), read and checked once."""
    text = resources.files("fuzion_sim.systems.fuzion.data").joinpath("throwing.yaml")
    data = yaml.safe_load(text.read_text(encoding="utf-8"))
    table = data["throw_table"]
    rows = data["weight_modifiers"]
    values = tuple(float(v) for v, _ in table)
    metres = tuple(float(m) for _, m in table)
    kg = tuple(float(r["kg"]) for r in rows)
    mods = tuple(int(r["modifier"]) for r in rows)
    if list(values) != sorted(values) or list(metres) != sorted(metres):
        raise ValueError("throwing.yaml: the Throw Table must rise")
    if list(kg) != sorted(kg) or mods != tuple(-i for i in range(len(rows))):
        raise ValueError("throwing.yaml: the weights must rise, the modifiers run 0, -1, ...")
    lift = data["lift"]
    return ThrowTables(
        values=values, metres=metres, kg=kg, printed=tuple(str(r["printed"]) for r in rows),
        examples=tuple(str(r["example"]) for r in rows), modifiers=mods,
        base_kg=float(lift["base_kg"]), throw_fraction=float(lift["throw_fraction"]),
    )  # fmt: skip


def lift_kg(strength: int) -> float:
    """The deadlift of STR ``strength`` in kg: 25 kg x 2^STR (M-74; rules-sources 1.3's
    reconstruction, **not from the seed**: the seed's Strength table is missing)."""
    return throw_tables().base_kg * 2.0**strength


def throw_lift_kg(strength: int) -> float:
    """The most a thrower of STR ``strength`` lifts for throwing: a quarter of its deadlift
    (M-74, L283)."""
    return lift_kg(strength) * throw_tables().throw_fraction


def throw_figures(strength: int, thrown: Thrown, rules: dict) -> dict:
    """Every figure of one throw of ``thrown`` by a thrower of STR ``strength`` under the rule
    switches ``rules`` (``Rules.values``): the lift, the Weight Modifier row, the Throw, the
    distance, the speed and the table's entry (``dc``, ``kills``).

    Raises
    ------
    ThrowError
        The thrower cannot lift it for throwing, the Throw is below .5 or beyond the table,
        or ``rules.thrown_damage`` is ``none``.
    """
    from ...tables import falling_table
    from .room import PHASE_SECONDS

    if rules.get("thrown_damage", "collision") == "none":
        raise ThrowError("rules.thrown_damage is none: throwing is not modelled (VA-49); set "
                         "thrown_damage: collision or leave out thrown")  # fmt: skip
    tables = throw_tables()
    kg = thrown.weight_kg
    lift = lift_kg(strength)
    can_lift = throw_lift_kg(strength)
    if kg > can_lift * (1 + 1e-12):
        raise ThrowError(
            f"STR {strength} cannot lift {kg:g} kg to throw it: the deadlift is {lift:g} kg "
            f"(25 kg x 2^STR, not from the seed) and lifting for throwing a quarter of it, "
            f"{can_lift:g} kg (M-74)"
        )
    mode = rules.get("weight_row", "nearest_ratio")
    row = tables.modifier_row(kg, mode)
    modifier = tables.modifiers[row]
    throw = strength + 4 + modifier + int(thrown.aerodynamic) + int(thrown.balanced)
    metres = tables.distance(throw)
    if metres is None:
        raise ThrowError(
            f"a Throw of {throw} is below .5: {kg:g} kg cannot be thrown (STR {strength} + 4, "
            f"{modifier} for {tables.printed[row]}, +{int(thrown.aerodynamic)} aerodynamic, "
            f"+{int(thrown.balanced)} balanced; M-73)"
        )
    m_s = metres / PHASE_SECONDS
    falling = falling_table()
    f_row = falling.weight_row(kg, mode)
    col = falling.speed_column(m_s, rules.get("collision_speed_bands", "fall_equivalent"))
    return {
        "strength": strength, "weight_kg": kg, "lift_kg": lift, "throw_lift_kg": can_lift,
        "modifier_row": tables.printed[row], "modifier": modifier,
        "aerodynamic": thrown.aerodynamic, "balanced": thrown.balanced, "throw": throw,
        "metres": metres, "range": min(metres, _MAX_RANGE), "m_s": m_s,
        "row": falling.labels[f_row], "column": col + 1, "printed": falling.printed[f_row][col],
        "dc": int(falling.dc[f_row, col]), "kills": int(falling.kills[f_row, col]),
        "damage": "stun" if rules.get("impact_damage", "killing") == "stun" else "killing",
    }  # fmt: skip


def _kg(kg: float) -> str:
    return f"{kg:,.0f}" if kg >= 100 else f"{kg:g}"


def describe_throw(fig: dict) -> str:
    """The figures of a throw in words, for ``fuzion-sim validate``: the lift, the Throw, the
    distance and speed, the table's entry."""
    bonus = "".join(f" + 1 {k}" for k in ("aerodynamic", "balanced") if fig[k])
    return (
        f"thrown {_kg(fig['weight_kg'])} kg: lift {_kg(fig['lift_kg'])} kg, "
        f"{_kg(fig['throw_lift_kg'])} kg for throwing (25 kg x 2^STR / 4, not from the seed); "
        f"Throw STR {fig['strength']} + 4 {fig['modifier']:+d} ({fig['modifier_row']}){bonus} "
        f"= {fig['throw']}: {fig['metres']:,.0f} m, {fig['m_s']:.3g} m/s a phase; "
        f"{fig['row']} row, column {fig['column']}: {fig['printed']}"
    )


def _thrown(ctx: Context, parts, value) -> Thrown:
    parts = list(parts)
    if not isinstance(value, dict):
        from fuzion_sim.validation.checks import describe

        raise ctx.fail(parts, "expected a mapping such as {weight: 900 kg, aerodynamic: false, "
                              f"balanced: false}}, got {describe(value)}")  # fmt: skip
    if "push" in value:
        raise ctx.fail([*parts, "push"], "pushing is the thrower's, not the object's: give "
                                         "push: 1 or 2 beside its stats (M-75)")  # fmt: skip
    from fuzion_sim.validation.checks import check_mapping

    check_mapping(ctx, parts, value, THROWN_KEYS, required=("weight",))
    flags = {}
    for key in ("aerodynamic", "balanced"):
        got = optional(value, key)
        flags[key] = False if got is MISSING else check_bool(ctx, [*parts, key], got)
    weight = parse_weight(ctx, [*parts, "weight"], value["weight"])
    return Thrown(weight, flags["aerodynamic"], flags["balanced"], tuple(parts))


def thrown_weapon(ctx: Context, parts, entry: dict, name: str, skill: str) -> Weapon:
    """The weapon of an inline mapping with ``thrown:`` (``name`` and ``skill`` already
    checked): a ranged weapon whose damage and range :func:`resolve_thrown` fills in; one
    object unless ``shots: N``; each key outside :data:`THROWN_WEAPON_KEYS` is an error."""
    parts = list(parts)
    for key in entry:
        if key not in THROWN_WEAPON_KEYS and optional(entry, key) is not MISSING:
            why = _NOT_WITH_THROWN.get(key, "it is not read for a thrown object")
            raise ctx.fail([*parts, key], f"a thrown object (thrown:) takes no '{key}': {why}")
    thrown = _thrown(ctx, [*parts, "thrown"], entry["thrown"])

    def opt(key, check, default):
        got = optional(entry, key)
        return default if got is MISSING else check([*parts, key], got)

    from ...build import _MODS

    shots = opt("shots", lambda p, v: check_int(ctx, p, v, minimum=1, maximum=100_000), 1)
    accuracy = opt("accuracy", lambda p, v: check_int(ctx, p, v, *_MODS), 0)
    hands = opt("hands", lambda p, v: check_int(ctx, p, v, minimum=1, maximum=2), None)
    notes = entry.get("notes") or ""
    return Weapon(name=name, skill=skill, kind="ranged", damage="killing", dc=0,
                  accuracy=accuracy, range=1.0, shots=shots, hands=hands,
                  notes=notes if isinstance(notes, str) else str(notes), thrown=thrown)  # fmt: skip


def resolve_thrown(ctx: Context, rules, sides: dict) -> None:
    """Fill in each thrown object's damage and range from its thrower's STR and the rules
    (:func:`throw_figures`), replacing the members of ``sides`` in place; an object the
    thrower cannot throw is an error at its ``thrown`` key. ``rules.impact_armour: false``
    with a thrown object is an error: the object's damage goes through the weapon path,
    which always meets the target's armour."""
    values = rules.values
    for side, members in list(sides.items()):
        out = []
        for c in members:
            w = c.weapon
            if w.thrown is None:
                w = next((x for x in c.arsenal if x.thrown is not None), w)
            if w.thrown is None:
                out.append(c)
                continue
            where = list(w.thrown.where) or ["sides", side]
            if c.vehicle is not None or c.carrier is not None or len(c.arsenal) > 1:
                raise ctx.fail(where, f"{c.name}: a vehicle, its crew or a combatant with several "
                                      "weapons throwing an object is not built yet")  # fmt: skip
            if not values.get("impact_armour", True):
                raise ctx.fail(where, f"{c.name} throws {w.name}: rules.impact_armour: false is "
                                      "not built for a thrown object (its damage is an attack's, "
                                      "which always meets the target's armour)")  # fmt: skip
            try:
                fig = throw_figures(c.stats["STR"] + c.push, w.thrown, values)  # M-75
            except ThrowError as e:
                raise ctx.fail(where, f"{c.name} cannot throw {w.name} "
                                      f"({w.thrown.weight_kg:g} kg): {e}") from None  # fmt: skip
            kills = fig["kills"]
            weapon = dataclasses.replace(
                w, dc=fig["dc"], kills=kills, range=fig["range"], damage=fig["damage"],
                thrown=dataclasses.replace(w.thrown, figures=fig),
            )  # fmt: skip
            out.append(dataclasses.replace(c, weapon=weapon))
        sides[side] = tuple(out)
