"""The FUDGE Firearms catalogues: weapons (``data/weapons.yaml``), the trait ladder and the
hit-location table (``data/locations.yaml``).

The weapon file is read once and every entry is checked with the same validation as an inline
weapon of a scenario. Functions that return raw entries return fresh copies.
"""

from __future__ import annotations

import copy
import functools
from importlib import resources

from fuzion_sim.errors import ScenarioError, did_you_mean

from ...validation.yaml_io import parse_yaml_text
from .dice import COUNTS, LADDER
from .model import Weapon
from .tables import DC_MODIFIER, locations

__all__ = [
    "find_weapon",
    "ladder_entries",
    "location_entries",
    "slot_entry",
    "weapon_entries",
    "weapon_entry",
    "weapons",
]

_PACKAGE = "fuzion_sim.systems.fudge.data"
_SOURCE = "fuzion_sim/systems/fudge/data/weapons.yaml"


def _key(name: str) -> str:
    """Case-insensitive, whitespace-collapsed form of a name."""
    return " ".join(str(name).split()).casefold()


@functools.cache
def _load() -> tuple[tuple[dict, ...], dict[str, int]]:
    text = resources.files(_PACKAGE).joinpath("weapons.yaml").read_text(encoding="utf-8")
    data, lines = parse_yaml_text(text, _SOURCE)
    if not isinstance(data, list) or not all(isinstance(e, dict) for e in data):
        raise ScenarioError("a catalogue file must be a list of mappings", file=_SOURCE, line=1)
    return tuple(data), lines


@functools.cache
def _weapons() -> dict[str, Weapon]:
    from ...validation.checks import Context
    from .build import build_weapon_mapping

    entries, lines = _load()
    ctx = Context(source=_SOURCE, lines=lines)
    out: dict[str, Weapon] = {}
    for index, entry in enumerate(entries):
        weapon = build_weapon_mapping(ctx, [index], entry)
        if _key(weapon.name) in {_key(n) for n in out}:
            raise ctx.fail([index, "name"], f"duplicate weapon name '{weapon.name}'")
        out[weapon.name] = weapon
    return out


def weapons() -> list[str]:
    """The catalogue's weapon names, in file order."""
    return list(_weapons())


def find_weapon(name: str) -> Weapon | None:
    """The catalogue weapon called ``name`` (any case and spacing), or None."""
    for key, weapon in _weapons().items():
        if _key(key) == _key(name):
            return weapon
    return None


def weapon_entry(name: str) -> dict | None:
    """The raw catalogue entry of ``name`` (a fresh copy), or None."""
    for entry in _load()[0]:
        if _key(entry["name"]) == _key(name):
            return copy.deepcopy(entry)
    return None


def weapon_entries() -> list[dict]:
    """Every weapon as a plain dict (every key, ``fuzion-sim catalog weapons --json``)."""
    out = []
    for entry in _load()[0]:
        row = {"name": entry["name"], "bd": entry["bd"], "scale": entry.get("scale", 0)}
        for key in ("concussion", "concussion_range", "burst_radius", "source", "notes"):
            row[key] = entry.get(key)
        out.append(row)
    return out


def ladder_entries() -> list[dict]:
    """The trait ladder (U1) with the Damage Capacity modifier (§8.2212) and the chance a
    Situational Roll reaches each level (UA17)."""
    from .dice import at_least

    return [{"level": name, "value": value, "dc_modifier": DC_MODIFIER[value],
             "p_4df_at_least": float(at_least(value)),
             "p_4df_exactly": COUNTS[value + 4] / 81 if -4 <= value <= 4 else 0.0}
            for name, value in LADDER.items()]  # fmt: skip


def location_entries() -> list[dict]:
    """The hit-location table (U5: Method 1 roll, Method 2 level needed; multiplier, cripple
    figures per blow and cumulative)."""
    from .dice import LEVEL_NAMES

    return [{"part": r.part, "roll": r.roll, "p_method_1": COUNTS[r.roll + 4] / 81,
             "needed": LEVEL_NAMES[r.needed], "multiplier": float(r.multiplier),
             "cripple_blow": r.cripple_blow, "cripple_total": r.cripple_total}
            for r in locations()]  # fmt: skip


def slot_entry(slot: str, name: str) -> dict | None:
    """The raw catalogue entry a member's ``weapon`` or a charge's ``charge`` names (key paths
    such as ``sides.men[0].weapon.bd`` reach into it); None for any other key.

    Raises
    ------
    ScenarioError
        For a name the catalogue lacks (with a did-you-mean).
    """
    if slot not in ("weapon", "charge"):
        return None
    entry = weapon_entry(name)
    if entry is None:
        raise ScenarioError(f"cannot follow the path into unknown weapon '{name}'",
                            suggestion=did_you_mean(name, weapons()))  # fmt: skip
    return entry
