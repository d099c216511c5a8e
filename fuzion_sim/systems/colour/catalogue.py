"""The colour system's catalogues of the seeds' named weapons, armour and shields
(``fuzion_sim/systems/colour/data/{weapons,armor,shields}.yaml``).

Each file is read once through :mod:`importlib.resources` and every entry is checked with the
same validation as an inline item of a scenario. Raw entries come back as fresh copies.
"""

from __future__ import annotations

import copy
import functools
from importlib import resources

from fuzion_sim.errors import ScenarioError, did_you_mean

from ...validation.yaml_io import parse_yaml_text
from .model import Armour, Shield, Weapon

__all__ = [
    "armour_entries",
    "armours",
    "entries",
    "find_armour",
    "find_shield",
    "find_weapon",
    "shield_entries",
    "shields",
    "slot_entry",
    "weapon_entries",
    "weapons",
]

_DATA_PACKAGE = "fuzion_sim.systems.colour.data"
_FILES = {"weapons": "weapons.yaml", "armor": "armor.yaml", "shields": "shields.yaml"}


def _key(name: str) -> str:
    """Case-insensitive, whitespace-collapsed form of an item name."""
    return " ".join(str(name).split()).casefold()


@functools.cache
def _load(kind: str) -> tuple[tuple[dict, ...], dict[str, int], str]:
    filename = _FILES[kind]
    source = f"{_DATA_PACKAGE.replace('.', '/')}/{filename}"
    text = resources.files(_DATA_PACKAGE).joinpath(filename).read_text(encoding="utf-8")
    data, lines = parse_yaml_text(text, source)
    if not isinstance(data, list) or not all(isinstance(e, dict) for e in data):
        raise ScenarioError("a catalogue file must be a list of mappings", file=source, line=1)
    return tuple(data), lines, source


@functools.cache
def _items(kind: str) -> dict:
    from ...validation.checks import Context
    from . import build

    make = {"weapons": build.build_weapon_mapping, "armor": build.build_armour_mapping,
            "shields": build.build_shield_mapping}[kind]  # fmt: skip
    data, lines, source = _load(kind)
    ctx = Context(source=source, lines=lines)
    out: dict = {}
    for index, entry in enumerate(data):
        if kind == "armor" and "name" not in entry:
            raise ctx.fail([index], "missing key 'name'")
        item = make(entry, ctx, [index])
        if _key(item.name) in {_key(n) for n in out}:
            raise ctx.fail([index, "name"], f"duplicate name '{item.name}'")
        out[item.name] = item
    return out


def weapons() -> dict[str, Weapon]:
    """Every catalogue weapon, by name, in file order."""
    return dict(_items("weapons"))


def armours() -> dict[str, Armour]:
    """Every catalogue armour layer, by name, in file order."""
    return dict(_items("armor"))


def shields() -> dict[str, Shield]:
    """Every catalogue shield, by name, in file order."""
    return dict(_items("shields"))


def _find(kind: str, name):
    if not isinstance(name, str):
        return None
    for item_name, item in _items(kind).items():
        if _key(item_name) == _key(name):
            return item_name, item
    return None


def find_weapon(name) -> Weapon | None:
    """The catalogue weapon of that name (case and spacing ignored), or None."""
    hit = _find("weapons", name)
    return hit[1] if hit else None


def find_armour(name) -> Armour | None:
    """The catalogue armour of that name, or None."""
    hit = _find("armor", name)
    return hit[1] if hit else None


def find_shield(name) -> Shield | None:
    """The catalogue shield of that name, or None."""
    hit = _find("shields", name)
    return hit[1] if hit else None


def entries(kind: str) -> list[dict]:
    """The raw entries of a catalogue (``weapons``, ``armor``, ``shields``), fresh copies in
    file order; each is valid inline in a scenario."""
    _items(kind)  # validate first
    return copy.deepcopy(list(_load(kind)[0]))


def weapon_entries() -> list[dict]:
    return entries("weapons")


def armour_entries() -> list[dict]:
    return entries("armor")


def shield_entries() -> list[dict]:
    return entries("shields")


_SLOTS = {"weapon": "weapons", "armor": "armor", "natural_armor": "armor",
          "force_field": "armor", "shield": "shields"}  # fmt: skip


def slot_entry(slot: str, name: str) -> dict | None:
    """The raw catalogue entry a member's ``weapon``, armour slot or ``shield`` names (key
    paths such as ``sides.bob[0].weapon.str_plus`` reach into it); None for any other key.

    Raises
    ------
    ScenarioError
        For a name the catalogue lacks (with a did-you-mean).
    """
    kind = _SLOTS.get(slot)
    if kind is None:
        return None
    if kind == "armor" and _is_rank(name):
        return {"name": f"{name} armour", "value": name}
    hit = _find(kind, name)
    if hit is None:
        raise ScenarioError(f"cannot follow the path into unknown {slot} '{name}'",
                            suggestion=did_you_mean(name, _items(kind)))  # fmt: skip
    for entry in _load(kind)[0]:
        if entry.get("name") == hit[0]:
            return copy.deepcopy(entry)
    return None  # pragma: no cover


def _is_rank(name: str) -> bool:
    from .ladder import ladder, ladder_names

    return any(ladder(n).index(name) is not None for n in ladder_names())
