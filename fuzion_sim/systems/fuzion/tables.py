"""The Fuzion rule tables shipped in ``data/``: hit locations, autofire ratios, radii.

Each file is read once (:func:`functools.cache`) through :mod:`importlib.resources` and checked;
a malformed file raises ``ValueError`` naming it. Arrays returned are read-only.

* ``hit_locations.yaml`` (RULINGS F27): the people's 3d6 table, as arrays indexed by the 3d6
  total (entries 0..2 are unused and hold -1 / 0);
* ``campaigns.yaml`` (F15): campaign style -> autofire ratio;
* ``area_effects.yaml`` (F17): effect -> radius per barrel, per die or per Kill;
* ``missiles.yaml`` (VA-20, not from the seed): a missile's named smartness -> its DV;
* ``falling.yaml`` (M-60 to M-62, VA-35 to VA-38): the Falling & Collisions table, its height
  and speed bands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

import numpy as np
import yaml

__all__ = [
    "AREA_BASES",
    "ASPECTS",
    "FallingTable",
    "falling_table",
    "manoeuvre_conditions",
    "manoeuvres",
    "terrain_move",
    "HitLocationTable",
    "VEHICLE_EFFECTS",
    "VehicleRow",
    "aspect_roll_counts",
    "vehicle_location_names",
    "vehicle_tables",
    "area_effects",
    "area_radius",
    "autofire_ratio",
    "campaign_ratios",
    "missile_smartness",
    "hit_locations",
]

_DATA_PACKAGE = "fuzion_sim.systems.fuzion.data"
#: What an area effect's radius is counted per (``area_effects.yaml``).
AREA_BASES = ("barrel", "die", "kill")


def _read(filename: str):
    text = resources.files(_DATA_PACKAGE).joinpath(filename).read_text(encoding="utf-8")
    return yaml.safe_load(text)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class HitLocationTable:
    """The 3d6 hit-location table for people (RULINGS F27).

    Parameters
    ----------
    names : tuple of str
        Location names in table order (head, hands, ..., feet).
    multipliers : tuple of Fraction
        Exact damage multiplier of each location (applied after armour, rounded down).
    called_modifiers : numpy.ndarray of int64
        To-hit modifier of a called shot at each location.
    sided : numpy.ndarray of bool
        Whether the location has a left and a right (no effect on damage).
    location_by_roll : numpy.ndarray of int64, shape (19,)
        Index into ``names`` of the location for each 3d6 total 3..18; -1 at 0..2.
    multiplier_by_roll : numpy.ndarray of float64, shape (19,)
        The multiplier for each 3d6 total 3..18; 0 at 0..2.
    """

    names: tuple[str, ...]
    multipliers: tuple[Fraction, ...]
    called_modifiers: np.ndarray
    sided: np.ndarray
    location_by_roll: np.ndarray
    multiplier_by_roll: np.ndarray

    def index(self, name: str) -> int:
        """Index of location ``name``; ``ValueError`` if the table has no such location."""
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(
                f"unknown hit location {name!r}; known: {', '.join(self.names)}"
            ) from None

    def rolls(self, name: str) -> list[int]:
        """The 3d6 totals that give location ``name``."""
        i = self.index(name)
        return [r for r in range(3, 19) if self.location_by_roll[r] == i]


@cache
def hit_locations() -> HitLocationTable:
    """The hit-location table (``hit_locations.yaml``), checked to cover 3..18 exactly once.

    Returns
    -------
    HitLocationTable
    """
    rows = _read("hit_locations.yaml")
    by_roll = np.full(19, -1, dtype=np.int64)
    mult_by_roll = np.zeros(19, dtype=np.float64)
    names, mults, mods, sided = [], [], [], []
    for i, row in enumerate(rows):
        lo, hi = (int(x) for x in row["rolls"])
        name = str(row["location"])
        if name in names:
            raise ValueError(f"hit_locations.yaml: duplicate location {name!r}")
        mult = Fraction(str(row["multiplier"]))
        for r in range(lo, hi + 1):
            if not 3 <= r <= 18 or by_roll[r] != -1:
                raise ValueError(f"hit_locations.yaml: roll {r} out of 3..18 or listed twice")
            by_roll[r] = i
            mult_by_roll[r] = float(mult)
        names.append(name)
        mults.append(mult)
        mods.append(int(row["called_modifier"]))
        sided.append(bool(row["sided"]))
    if (by_roll[3:] < 0).any():
        raise ValueError("hit_locations.yaml: the rows do not cover every roll 3..18")
    return HitLocationTable(
        names=tuple(names),
        multipliers=tuple(mults),
        called_modifiers=_frozen(np.array(mods, dtype=np.int64)),
        sided=_frozen(np.array(sided, dtype=bool)),
        location_by_roll=_frozen(by_roll),
        multiplier_by_roll=_frozen(mult_by_roll),
    )


@cache
def _missile_smartness() -> tuple[tuple[str, int], ...]:
    data = _read("missiles.yaml")["smartness"]
    out = tuple((str(k), int(v)) for k, v in data.items())
    if any(not 1 <= v <= 60 for _, v in out):
        raise ValueError("missiles.yaml: every smartness DV must be 1 to 60")
    return out


def missile_smartness() -> dict[str, int]:
    """A missile's named smartness -> its DV on the 3d6 scale (``missiles.yaml``, VA-20; not
    from the seed: dumb 14, heat_seeker 18, smart 22)."""
    return dict(_missile_smartness())


@cache
def _campaign_ratios() -> tuple[tuple[str, int], ...]:
    data = _read("campaigns.yaml")
    out = tuple((str(k), int(v)) for k, v in data.items())
    if any(v < 1 for _, v in out):
        raise ValueError("campaigns.yaml: every autofire ratio must be >= 1")
    return out


def campaign_ratios() -> dict[str, int]:
    """Campaign style -> autofire ratio (``campaigns.yaml``, RULINGS F15).

    Returns
    -------
    dict of str to int
        A fresh dict, in the file's order (everyday ... superheroic).
    """
    return dict(_campaign_ratios())


def autofire_ratio(campaign: str) -> int:
    """The autofire ratio of a campaign style (case-insensitive).

    Parameters
    ----------
    campaign : str
        everyday, competent, heroic, incredible, legendary or superheroic.

    Returns
    -------
    int
    """
    ratios = campaign_ratios()
    key = campaign.strip().lower()
    if key not in ratios:
        raise ValueError(f"unknown campaign {campaign!r}; known: {', '.join(ratios)}")
    return ratios[key]


def area_effects() -> dict[str, tuple[str, int]]:
    """Effect -> ``(per, radius_m)`` (``area_effects.yaml``, RULINGS F17).

    Returns
    -------
    dict of str to (str, int)
        ``per`` is one of :data:`AREA_BASES`; a fresh dict each call.
    """
    return dict(_area_effects())


@cache
def _area_effects() -> tuple[tuple[str, tuple[str, int]], ...]:
    out = {}
    for row in _read("area_effects.yaml"):
        per = str(row["per"])
        if per not in AREA_BASES:
            raise ValueError(f"area_effects.yaml: per must be one of {AREA_BASES}, got {per!r}")
        out[str(row["effect"])] = (per, int(row["radius_m"]))
    return tuple(out.items())


def area_radius(effect: str, amount: int) -> int:
    """Radius in metres of an area effect.

    Parameters
    ----------
    effect : str
        shotgun, grenade, explosive, flamethrower or heavy_weapon.
    amount : int
        Barrels (shotgun), dice of damage (grenade, explosive, flamethrower) or Kills (heavy
        weapons), ``>= 0``.

    Returns
    -------
    int
        ``radius_m * amount``.
    """
    table = area_effects()
    if effect not in table:
        raise ValueError(f"unknown area effect {effect!r}; known: {', '.join(table)}")
    if amount < 0:
        raise ValueError(f"amount must be >= 0, got {amount}")
    return table[effect][1] * int(amount)


# --- vehicles and mecha (seed 000 L712-747; F31; ../shared/rulings/vehicles M-22 to M-30) ------

#: The attacker's aspect of a vehicle (VA-05), in the order the kernel numbers them.
ASPECTS = ("front", "side", "rear")
#: What destroying a critical location does (VA-10), in the kernel's numbering from 1.
VEHICLE_EFFECTS = ("none", "immobile", "uncontrolled", "down", "wrecked", "weapon_lost")


@dataclass(frozen=True)
class VehicleRow:
    """One printed row of a vehicle or mecha hit table (``vehicle_hit_tables.yaml``)."""

    location: str
    printed: str
    lo: int
    hi: int
    multiplier: Fraction
    flammable: Fraction | None
    crew: bool
    called_modifier: int | None
    critical_pct: int
    effect: str
    minor: bool


@cache
def vehicle_tables() -> dict[str, tuple[VehicleRow, ...]]:
    """Each class's hit table (``vehicle_hit_tables.yaml``), checked: ten printed rows covering
    3..18 exactly once, a multiplier on every row but the crew's, an effect on every critical
    location.

    Returns
    -------
    dict of str to tuple of VehicleRow
        ``ground``, ``aircraft``, ``boat``, ``mecha``, rows in roll order.
    """
    out = {}
    for kind, raw_rows in _read("vehicle_hit_tables.yaml").items():
        rows, seen = [], set()
        for raw in raw_rows:
            lo, hi = (int(x) for x in raw["rolls"])
            for r in range(lo, hi + 1):
                if not 3 <= r <= 18 or r in seen:
                    raise ValueError(f"vehicle_hit_tables.yaml: {kind} roll {r} out of 3..18 "
                                     "or listed twice")  # fmt: skip
                seen.add(r)
            crew = bool(raw.get("crew", False))
            if crew == ("multiplier" in raw):
                raise ValueError(f"vehicle_hit_tables.yaml: {kind} {raw['location']}: a "
                                 "multiplier on every row but the crew's")  # fmt: skip
            pct = int(raw.get("critical_pct", 0))
            effect = str(raw.get("effect", "none"))
            if effect not in VEHICLE_EFFECTS or (pct > 0) != (effect != "none"):
                raise ValueError(f"vehicle_hit_tables.yaml: {kind} {raw['location']}: a "
                                 "critical location needs an effect, and only it")  # fmt: skip
            flammable = raw.get("flammable")
            called = raw.get("called_modifier")
            rows.append(VehicleRow(
                location=str(raw["location"]), printed=str(raw["printed"]), lo=lo, hi=hi,
                multiplier=Fraction(str(raw.get("multiplier", 0))),
                flammable=None if flammable is None else Fraction(str(flammable)), crew=crew,
                called_modifier=None if called is None else int(called), critical_pct=pct,
                effect=effect, minor=bool(raw.get("minor", False)),
            ))  # fmt: skip
        if seen != set(range(3, 19)) or len(rows) != 10:
            raise ValueError(f"vehicle_hit_tables.yaml: {kind} needs ten rows covering 3..18")
        out[kind] = tuple(rows)
    return out


@cache
def vehicle_location_names() -> tuple[str, ...]:
    """Every vehicle location name, each once, classes in file order (the labels of the
    results' hits by vehicle location)."""
    names: list[str] = []
    for rows in vehicle_tables().values():
        for row in rows:
            if row.location not in names:
                names.append(row.location)
    return tuple(names)


def vehicle_called_row(kind: str, absent, location: str,
                       x_modifier: int | None = None) -> tuple[int, int] | None:  # fmt: skip
    """The row a shot called at ``location`` hits on a vehicle of class ``kind`` lacking the
    locations ``absent``, and the shot's to-hit modifier (the HIT MOD column, M-77, VA-08).

    Of the rows of that name the vehicle has, the one with the best HIT MOD (the ground Body's
    -1 row, the mecha Torso's 10-11, as VA-53 reads it); ``crew`` and ``pilot`` name the crew
    row of every table. A row whose HIT MOD is "X" cannot be called, or is called at
    ``x_modifier`` when one is given (``vehicle_called_x: minus4``).

    Returns
    -------
    tuple of (int, int), or None
        The row's index in ``vehicle_tables()[kind]`` and the modifier; None where the shot
        cannot be called at such a vehicle.
    """
    best = None
    for r, row in enumerate(vehicle_tables()[kind]):
        named = row.location == location or (row.crew and location in ("crew", "pilot"))
        if not named or row.location in absent:
            continue
        mod = row.called_modifier if row.called_modifier is not None else x_modifier
        if mod is not None and (best is None or mod > best[1]):
            best = (r, mod)
    return best


@cache
def called_locations() -> tuple[str, ...]:
    """What a combatant's ``called_shot`` may name: a person's hit location (F27) or a
    vehicle's (M-77), each once."""
    names = hit_locations().names
    return (*names, *(n for n in vehicle_location_names() if n not in names))


@cache
def aspect_roll_counts(aspect: str) -> tuple[int, ...]:
    """Equally likely outcomes of the hit-table roll by aspect (F31), as counts of the totals
    3..18 (index 0 is 3): side 3d6 (216 outcomes), front 2d6+1 and rear 2d6+6 (36 each)."""
    counts = [0] * 16
    if aspect == "side":
        for a in range(1, 7):
            for b in range(1, 7):
                for c in range(1, 7):
                    counts[a + b + c - 3] += 1
        return tuple(counts)
    shift = {"front": 1, "rear": 6}[aspect]
    for a in range(1, 7):
        for b in range(1, 7):
            counts[a + b + shift - 3] += 1
    return tuple(counts)


# --- the Falling & Collisions table (falls and knockback into obstacles) ----------

#: The two readings of the falling table's columns (VA-35) and of the collision speed labels
#: (VA-38), and of "closest approximate weight" (VA-36).
FALLING_COLUMNS = ("six", "eleven")
SPEED_BANDS = ("fall_equivalent", "mph10")
WEIGHT_ROWS = ("nearest_ratio", "at_or_below")
#: kg per lb (VA-36: kg x 2.2046 = lbs)
KG_PER_LB = 0.45359237
#: m/s per mph
MS_PER_MPH = 0.44704


def _table_entry(value) -> tuple[int, int]:
    """A printed entry as ``(DC against people and SDP, Kills against a Kill-rated target)``:
    ``12`` is 12 DC and no Kill; ``"3K"`` is 3 Kills, 13 + 3 DC (L886, M-38)."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 13:
        return value, 0
    m = re.fullmatch(r"([0-9]+)K", str(value))
    if m and int(m.group(1)) >= 1:
        return 13 + int(m.group(1)), int(m.group(1))
    raise ValueError(f"falling.yaml: bad entry {value!r} (a DC 1 to 13, or xK)")


@dataclass(frozen=True, eq=False)
class FallingTable:
    """The Falling & Collisions table (seed 000 L867-886, ``falling.yaml``).

    Attributes
    ----------
    labels : tuple of str
        The weight rows as printed (``"<50 lbs"`` ... ``"+100 tons"``).
    lbs : numpy.ndarray of float64, shape (18,)
        Each row's weight in lbs (``<50`` and ``+100 tons`` hold their bound).
    dc : numpy.ndarray of int64, shape (18, 11)
        The DC each entry does to people and SDP (xK = 13 + x, M-61).
    kills : numpy.ndarray of int64, shape (18, 11)
        The Kills each entry does to a Kill-rated target (0 for a plain DC, M-38).
    printed : tuple of tuple of str
        The entries as printed (``"12"``, ``"1K"``).
    heights : dict of str to tuple
        Per ``falling_columns`` reading, each column's highest fall in metres (inf: none).
    speeds : dict of str to tuple
        Per ``collision_speed_bands`` reading, each column's highest closing speed in m/s.
    """

    labels: tuple[str, ...]
    lbs: np.ndarray
    dc: np.ndarray
    kills: np.ndarray
    printed: tuple[tuple[str, ...], ...]
    heights: dict
    speeds: dict

    def weight_row(self, kg: float, mode: str = "nearest_ratio") -> int:
        """The row of a weight (VA-36): below 50 lbs the first, above 100 tons the last; in
        between the listed weight nearest by ratio (a tie to the heavier), or under
        ``at_or_below`` the heaviest listed not above it."""
        lbs = kg / KG_PER_LB
        last = len(self.labels) - 1
        if lbs < self.lbs[1]:
            return 0
        if lbs > self.lbs[last - 1]:
            return last
        listed = range(1, last)
        if mode == "at_or_below":
            return max(r for r in listed if self.lbs[r] <= lbs * (1 + 1e-12))
        if mode != "nearest_ratio":
            raise ValueError(f"unknown weight_row {mode!r}")
        return min(listed, key=lambda r: (abs(np.log(lbs / self.lbs[r])) - 1e-12 * r, -r))

    def height_column(self, metres: float, mode: str = "six") -> int:
        """The column of a fall of ``metres`` (VA-35): the first band whose upper end it does
        not pass."""
        return _band(self.heights[mode], metres)

    def speed_column(self, m_s: float, mode: str = "fall_equivalent") -> int:
        """The column of a closing speed of ``m_s`` m/s on VA-38's bands."""
        return _band(self.speeds[mode], m_s)


def _band(ends: tuple[float, ...], value: float) -> int:
    for k, end in enumerate(ends):
        if value <= end:
            return k
    return len(ends) - 1


@cache
def falling_table() -> FallingTable:
    """The Falling & Collisions table (``falling.yaml``), read and checked once."""
    data = _read("falling.yaml")
    rows = data["rows"]
    if len(rows) != 18 or any(len(r["values"]) != 11 for r in rows):
        raise ValueError("falling.yaml: expected 18 weight rows of 11 columns")
    entries = [[_table_entry(v) for v in r["values"]] for r in rows]
    heights = {}
    for mode in FALLING_COLUMNS:
        ends = tuple(np.inf if e is None else float(e) for e in data["heights"][mode])
        if list(ends) != sorted(ends) or ends[-1] != np.inf:
            raise ValueError(f"falling.yaml: heights.{mode} must rise and end open (null)")
        heights[mode] = ends
    if len(heights["six"]) != 6 or len(heights["eleven"]) != 11:
        raise ValueError("falling.yaml: heights.six has 6 bands, heights.eleven 11")
    speeds = {}
    for mode in SPEED_BANDS:
        spec = data["speeds"][mode]
        factor = {"m/s": 1.0, "mph": MS_PER_MPH}[spec["unit"]]
        ends = tuple(np.inf if e is None else float(e) * factor for e in spec["ends"])
        if len(ends) != 11 or ends[-1] != np.inf:
            raise ValueError(f"falling.yaml: speeds.{mode} needs 11 bands, the last open")
        speeds[mode] = ends
    return FallingTable(
        labels=tuple(str(r["label"]) for r in rows),
        lbs=_frozen(np.array([float(r["lbs"]) for r in rows])),
        dc=_frozen(np.array([[e[0] for e in row] for row in entries], np.int64)),
        kills=_frozen(np.array([[e[1] for e in row] for row in entries], np.int64)),
        printed=tuple(tuple(str(v) for v in r["values"]) for r in rows),
        heights=heights,
        speeds=speeds,
    )


@cache
def manoeuvres() -> dict[str, int]:
    """The manoeuvre difficulties of ``manoeuvres.yaml`` (M-46, VA-27; not from the seed): name
    -> DV on the 3d6 scale, in file order (a rule's ``name:`` compiles to its index)."""
    data = _read("manoeuvres.yaml")
    out = {str(k): int(v) for k, v in data["manoeuvres"].items()}
    if any(v < 0 for v in out.values()):
        raise ValueError("manoeuvres.yaml: a manoeuvre's DV is 0 or more")
    return out


@cache
def manoeuvre_conditions() -> dict[str, int]:
    """What terrain or weather adds to every manoeuvre DV (M-52, VA-27): name -> DV."""
    return {str(k): int(v) for k, v in _read("manoeuvres.yaml")["conditions"].items()}


@cache
def terrain_move() -> dict[str, float]:
    """The share of MOVE each terrain leaves (``terrain.yaml``, M-11, VA-51; not from the
    seed): ``easy``, ``rough``, ``very_rough`` -> a factor in (0, 1]."""
    out = {str(k): float(v) for k, v in _read("terrain.yaml")["move"].items()}
    if not all(0.0 < v <= 1.0 for v in out.values()):
        raise ValueError("terrain.yaml: a terrain's share of MOVE is in (0, 1]")
    return out
