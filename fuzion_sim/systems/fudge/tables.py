"""The seed's tables, exactly (seed 003; RULINGS U2, U4, U5; rulings UA8, UA20, UA22, UA28,
UA29), as plain Python the compile step and the exact oracles read. Numbers that may be
fractions (Basic Damage is "a decimal number") are :class:`fractions.Fraction`.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from importlib import resources
from typing import NamedTuple

__all__ = [
    "DARK",
    "DC_MODIFIER",
    "FOG",
    "LEVELS",
    "LIGHT",
    "SHOT_PERCENT",
    "SPEED",
    "TIME_FACTOR",
    "Location",
    "band",
    "cover_factor",
    "dc_modifier",
    "locations",
    "range_modifier",
    "scale_modifier",
    "shot_modifier",
]

#: The wound levels, in order (U3): index 0 is no wound; the JSON keys of ``wounds``.
LEVELS = ("none", "scratch", "hurt", "very_hurt", "incapacitated", "near_death", "dead")

#: §8.2212 Damage Capacity modifier by ladder value (U2); Legendary -2 (UA10).
DC_MODIFIER = {4: -2, 3: -2, 2: -1, 1: -1, 0: 0, -1: 1, -2: 1, -3: 2}

#: §8.2213 shot modifier, percent of Basic Damage by Damage Roll row (U2).
SHOT_PERCENT = {4: 50, 3: 25, 2: 25, 1: 0, 0: 0, -1: 0, -2: -25, -3: -25, -4: -50}

#: §8.521 target speed (UA28).
SPEED = {"stationary": 0, "walking": 0, "running": -1, "vehicle": -2, "aircraft": -3}
#: §8.521 light and fog (UA28).
LIGHT = {"day": 0, "night_moon": -1, "night": -2, "pitch_black": -3}
FOG = {"none": 0, "light": -1, "thick": -2}
#: Light in which an infrared sight gives +2 ("when dark", UA28).
DARK = ("night_moon", "night", "pitch_black")

#: §8.531 time determination (UA29): the factor of the average time by roll.
TIME_FACTOR = {
    4: Fraction(1, 4), 3: Fraction(1, 3), 2: Fraction(1, 2), 1: Fraction(1), 0: Fraction(1),
    -1: Fraction(1), -2: Fraction(2), -3: Fraction(3), -4: Fraction(4),
}  # fmt: skip


def dc_modifier(level: int) -> int:
    """The §8.2212 modifier of a Damage Capacity level (-3 .. +4)."""
    return DC_MODIFIER[int(level)]


def shot_modifier(row: int, bd: Fraction) -> int:
    """§8.2213: the row's percentage of ``bd``, truncated toward zero (U2: -4.5 is -4)."""
    value = Fraction(SHOT_PERCENT[int(row)], 100) * Fraction(bd)
    return int(value) if value >= 0 else -int(-value)


def _steps(n: int) -> int:
    """|modifier| of a relative Scale of size ``n``: the printed steps extended (UA8),
    ``sum over i = 1..n of ceil(i / 5)``."""
    return sum(-(-i // 5) for i in range(1, n + 1))


def scale_modifier(relative: int, beyond: str = "extrapolate") -> int | None:
    """§8.2214: the modifier of a relative Scale (target Scale - weapon Scale, U2).

    ``beyond`` (UA8) decides past ±15: ``extrapolate`` the steps, ``clamp`` at ±30, or
    ``error``, for which the answer is None (the caller reports the pair).
    """
    n = abs(int(relative))
    if n > 15 and beyond == "error":
        return None
    size = 30 if n > 15 and beyond == "clamp" else _steps(n)
    return -size if relative > 0 else size


def range_modifier(metres: float) -> int:
    """U5's range bands: <= 10 m -1, to 50 m -2, to 200 m -3, beyond -4."""
    if metres <= 10:
        return -1
    if metres <= 50:
        return -2
    if metres <= 200:
        return -3
    return -4


def band(distance: float, cr: float) -> Fraction:
    """U4 / UA20: the concussion factor at ``distance`` metres from a blast of Concussion
    Range ``cr``: x2 under CR/2, x1 to CR, then 1/2^k for k CR < d <= (k + 1) CR."""
    d, cr = Fraction(distance), Fraction(cr)
    if d < cr / 2:
        return Fraction(2)
    if d <= cr:
        return Fraction(1)
    k = math.ceil(d / cr) - 1
    return Fraction(1, 2**k)


def cover_factor(ducked: bool, cover: str, distance: float, cr: float,
                 near: str = "half_cr") -> Fraction:  # fmt: skip
    """UA22: the concussion factor of a victim's ducking and cover, the best single one:
    ducked 1/2; partial cover 1/2, 1 when near; full cover 0, 1/2 when near. Near is
    d < CR/2 (``half_cr``) or d < CR (``cr``)."""
    d = Fraction(distance)
    is_near = d < (Fraction(cr) / 2 if near == "half_cr" else Fraction(cr))
    factors = [Fraction(1)]
    if ducked:
        factors.append(Fraction(1, 2))
    if cover == "partial":
        factors.append(Fraction(1) if is_near else Fraction(1, 2))
    elif cover == "full":
        factors.append(Fraction(1, 2) if is_near else Fraction(0))
    return min(factors)


class Location(NamedTuple):
    """A row of the hit-location table (``data/locations.yaml``, §8.511-§8.512)."""

    part: str
    roll: int
    needed: int
    multiplier: Fraction
    cripple_blow: int | None
    cripple_total: int | None


@functools.cache
def locations() -> tuple[Location, ...]:
    """The human hit-location table, in the file's order (Head +4 down to Left leg -4)."""
    from ...validation.yaml_io import parse_yaml_text
    from .dice import LADDER

    package = "fuzion_sim.systems.fudge.data"
    text = resources.files(package).joinpath("locations.yaml").read_text(encoding="utf-8")
    data, _ = parse_yaml_text(text, "fuzion_sim/systems/fudge/data/locations.yaml")
    rows = tuple(
        Location(e["part"], int(e["roll"]), LADDER[e["needed"]],
                 Fraction(str(e["multiplier"])), e["cripple_blow"], e["cripple_total"])
        for e in data
    )  # fmt: skip
    assert sorted(r.roll for r in rows) == list(range(-4, 5)), "one part per roll"
    return rows
