"""The weapon, armour and skill catalogues (``fuzion_sim/systems/fuzion/data/*.yaml``).

The files are read once, through :mod:`importlib.resources`, and every entry is checked with the
same validation as an inline weapon or armour in a scenario. Functions that return raw entries
return fresh copies, so callers may change them freely.
"""

from __future__ import annotations

import copy
import functools
from importlib import resources

from fuzion_sim.errors import ScenarioError, did_you_mean

from ...validation.yaml_io import parse_yaml_text
from .model import Armor, Weapon

__all__ = [
    "armor_entries",
    "armor_entry",
    "armors",
    "canonical_skill",
    "find_armor",
    "find_weapon",
    "skill_entries",
    "skills",
    "weapon_entries",
    "weapon_entry",
    "weapons",
]

_DATA_PACKAGE = "fuzion_sim.systems.fuzion.data"


def _key(name: str) -> str:
    """Case-insensitive, whitespace-collapsed form of an item name."""
    return " ".join(str(name).split()).casefold()


def _skill_key(name: str) -> str:
    """Case-, space-, hyphen- and underscore-insensitive form of a skill name."""
    return "".join(ch for ch in str(name).casefold() if not ch.isspace() and ch not in "-_")


@functools.cache
def _load(filename: str) -> tuple[tuple[dict, ...], dict[str, int]]:
    source = f"{_DATA_PACKAGE.replace('.', '/')}/{filename}"
    text = resources.files(_DATA_PACKAGE).joinpath(filename).read_text(encoding="utf-8")
    data, lines = parse_yaml_text(text, source)
    if not isinstance(data, list) or not all(isinstance(e, dict) for e in data):
        raise ScenarioError("a catalogue file must be a list of mappings", file=source, line=1)
    return tuple(data), lines


@functools.cache
def _weapons() -> dict[str, Weapon]:
    from ...validation.checks import Context
    from .build import build_weapon_mapping

    entries, lines = _load("weapons.yaml")
    ctx = Context(source=f"{_DATA_PACKAGE.replace('.', '/')}/weapons.yaml", lines=lines)
    out: dict[str, Weapon] = {}
    for index, entry in enumerate(entries):
        weapon = build_weapon_mapping(entry, ctx, [index])
        if _key(weapon.name) in {_key(n) for n in out}:
            raise ctx.fail([index, "name"], f"duplicate weapon name '{weapon.name}'")
        out[weapon.name] = weapon
    return out


@functools.cache
def _armors() -> dict[str, Armor]:
    from ...validation.checks import Context
    from .build import build_armor_mapping

    entries, lines = _load("armor.yaml")
    ctx = Context(source=f"{_DATA_PACKAGE.replace('.', '/')}/armor.yaml", lines=lines)
    out: dict[str, Armor] = {}
    for index, entry in enumerate(entries):
        armor = build_armor_mapping(entry, ctx, [index])
        if _key(armor.name) in {_key(n) for n in out}:
            raise ctx.fail([index, "name"], f"duplicate armour name '{armor.name}'")
        out[armor.name] = armor
    return out


@functools.cache
def _skills() -> tuple[tuple[str, ...], dict[str, str]]:
    entries, _ = _load("skills.yaml")
    names = tuple(str(e["name"]) for e in entries)
    index: dict[str, str] = {}
    for entry in entries:
        for alias in (entry["name"], *entry.get("aliases", ())):
            index[_skill_key(alias)] = str(entry["name"])
    return names, index


def weapons() -> dict[str, Weapon]:
    """Every catalogue weapon.

    Returns
    -------
    dict of str to Weapon
        Weapon name (as spelt in the catalogue) -> :class:`Weapon`, in catalogue order.
    """
    return dict(_weapons())


def armors() -> dict[str, Armor]:
    """Every catalogue armour.

    Returns
    -------
    dict of str to Armor
        Armour name (as spelt in the catalogue) -> :class:`Armor`, in catalogue order.
    """
    return dict(_armors())


def weapon_entries() -> list[dict]:
    """The raw weapon entries of ``weapons.yaml`` (fresh copies), in catalogue order.

    Returns
    -------
    list of dict
        Each entry as written in the file; a copy is valid as an inline scenario weapon.
    """
    _weapons()  # validate first
    return copy.deepcopy(list(_load("weapons.yaml")[0]))


def armor_entries() -> list[dict]:
    """The raw armour entries of ``armor.yaml`` (fresh copies), in catalogue order.

    Returns
    -------
    list of dict
        Each entry as written in the file; a copy is valid as an inline scenario armour.
    """
    _armors()
    return copy.deepcopy(list(_load("armor.yaml")[0]))


def skill_entries() -> list[dict]:
    """The raw skill entries of ``skills.yaml`` (fresh copies): ``name``, ``group``, ``aliases``.

    Returns
    -------
    list of dict
    """
    return copy.deepcopy(list(_load("skills.yaml")[0]))


def skills() -> tuple[str, ...]:
    """The closed list of skill names (RULINGS F1b), in file order.

    Returns
    -------
    tuple of str
    """
    return _skills()[0]


def canonical_skill(name) -> str | None:
    """The catalogue spelling of a skill name, or None if it is not a listed skill.

    Matching ignores case, spaces, hyphens and underscores, and knows the aliases of
    ``skills.yaml`` (e.g. "First Aid" -> "Physician").

    Parameters
    ----------
    name : str
        A skill name as a user wrote it, e.g. ``"ranged evade"`` or ``"RangedEvade"``.

    Returns
    -------
    str or None
        E.g. ``"Ranged Evade"``; None for an unknown name or a non-string.
    """
    if not isinstance(name, str):
        return None
    return _skills()[1].get(_skill_key(name))


def _find(table: dict, name):
    if not isinstance(name, str):
        return None
    wanted = _key(name)
    for item_name, item in table.items():
        if _key(item_name) == wanted:
            return item_name, item
    return None


def find_weapon(name) -> Weapon | None:
    """The catalogue weapon of that name (case-insensitive exact match), or None.

    Parameters
    ----------
    name : str

    Returns
    -------
    Weapon or None
    """
    hit = _find(_weapons(), name)
    return hit[1] if hit else None


def find_armor(name) -> Armor | None:
    """The catalogue armour of that name (case-insensitive exact match), or None.

    Parameters
    ----------
    name : str

    Returns
    -------
    Armor or None
    """
    hit = _find(_armors(), name)
    return hit[1] if hit else None


def weapon_entry(name) -> dict | None:
    """A fresh copy of the raw catalogue entry of the weapon of that name, or None.

    Parameters
    ----------
    name : str
        Matched case-insensitively, as by :func:`find_weapon`.

    Returns
    -------
    dict or None
    """
    hit = _find(_weapons(), name)
    if hit is None:
        return None
    for entry in _load("weapons.yaml")[0]:
        if entry["name"] == hit[0]:
            return copy.deepcopy(entry)
    return None  # pragma: no cover


def armor_entry(name) -> dict | None:
    """A fresh copy of the raw catalogue entry of the armour of that name, or None.

    Parameters
    ----------
    name : str
        Matched case-insensitively, as by :func:`find_armor`.

    Returns
    -------
    dict or None
    """
    hit = _find(_armors(), name)
    if hit is None:
        return None
    for entry in _load("armor.yaml")[0]:
        if entry["name"] == hit[0]:
            return copy.deepcopy(entry)
    return None  # pragma: no cover


def slot_entry(slot: str, name: str) -> dict | None:
    """The raw catalogue entry a combatant's ``weapon`` or ``armor`` names (key paths such as
    ``sides.blue[0].armor.pd`` reach into it); None for any other key.

    Raises
    ------
    ScenarioError
        For a name the catalogue lacks (with a did-you-mean).
    """
    if slot not in ("weapon", "armor"):
        return None
    if slot == "weapon":
        entry, names, what = weapon_entry(name), weapons(), "weapon"
    else:
        entry, names, what = armor_entry(name), armors(), "armour"
    if entry is None:
        raise ScenarioError(
            f"cannot follow the path into unknown {what} '{name}'",
            suggestion=did_you_mean(name, names),
        )
    return entry
