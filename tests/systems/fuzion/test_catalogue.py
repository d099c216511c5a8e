"""The weapon, armour and skill catalogues against seed 000's tables."""

from __future__ import annotations

import pytest

from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems.fuzion import catalogue
from fuzion_sim.systems.fuzion.model import Armor, Weapon

ARCHAIC = [
    # name, cost, dc, accuracy, min_str, notes (seed 000, "Archaic/Fantasy Melee Weapons")
    ("Battle Axe", 5, 6, -1, 5, "2h"),
    ("Hand Axe", 2, 2, 0, 3, "1h"),
    ("Quarterstaff", 3, 3, 2, 3, "2h/Stun"),
    ("Spear", 4, 2, 2, 2, "2h"),
    ("Polearm", 5, 5, 2, 3, "2h"),
    ("Mace", 4, 5, -1, 4, "1h"),
    ("Club", 1, 1, 0, 1, "1h/Stun"),
    ("Broadsword", 4, 4, 0, 5, "2h"),
    ("Short Sword", 3, 2, 1, 3, "1h"),
    ("Dagger", 1, 1, 0, 1, "1h"),
    ("Knife", 0.05, 1, 0, 1, "1h"),
    ("Whip", 1, 1, -1, 1, "1h"),
    ("Javelin", 3, 2, 1, 3, "1h"),
    ("Rapier", 5, 3, 2, 2, "1h"),
    ("Saber", 5, 3, 2, 2, "1h"),
    ("Katana", 6, 4, 2, 2, "2h"),
]
HIGH_TECH = [
    ("Cyber Hand Blades", 6, 3, 1, 1, "AP"),
    ("Energy Saber", 5, 4, 1, 2, "2h"),
    ("Monoblade", 3, 2, 1, 2, "1H, AP"),
]
RANGED = [
    # name, range, dc, rof (seed 000, "GENERIC RANGED WEAPONS")
    ("Colt Revolver", 50, 4, 1),
    ("Light Pistol", 50, 2, 2),
    ("Medium Pistol", 50, 3, 2),
    ("Large Pistol", 50, 4, 2),
    ("Magnum Pistol", 50, 5, 2),
    ("Bolt Action Rifle", 100, 6, 1),
    ("Shotgun (12-ga.)", 40, 5, 2),
    ("Shotgun (10-ga.)", 40, 6, 2),
    ("Magnum Hunting Rifle", 700, 10, 2),
    ("Submachine Gun", 200, 3, 20),
    ("Assault Rifle (5.56mm)", 300, 6, 25),
    ("Assault Rifle (7.62mm)", 400, 9, 20),
    ("Machine Gun", 800, 10, 10),
]
ARCHERY = [
    # name, bow, range cap in metres (seed 000, "Archery Attacks": 20 m per STR up to STR 7, or
    # 10 for compound bows and longbows)
    ("Bow", "short", 140.0),
    ("Longbow", "long", 200.0),
    ("Compound Bow", "compound", 200.0),
]
#: The bladed weapons (for armour with half_vs_blades); the Polearm is the catalogue's call.
BLADES = {
    "Battle Axe", "Hand Axe", "Polearm", "Broadsword", "Short Sword", "Dagger", "Knife",
    "Rapier", "Saber", "Katana", "Cyber Hand Blades", "Energy Saber", "Monoblade",
}  # fmt: skip
AUTOFIRE = {"Submachine Gun", "Assault Rifle (5.56mm)", "Assault Rifle (7.62mm)", "Machine Gun"}
ARMOURS = [
    # name, category, pd, ekd (NA -> 0), description (seed 000, "GENERIC ARMOR LIST")
    ("Heavy Cloth", "fantasy", 2, 0, "Thief Gear"),
    ("Soft Leather", "fantasy", 2, 0, "Thief Gear"),
    ("Fur", "fantasy", 2, 0, "Thief Gear"),
    ("Heavy Leather", "fantasy", 4, 0, "Animal Hides, scales"),
    ("Padded Cloth", "fantasy", 4, 0, "Animal Hides, scales"),
    ("Boiled Leather", "fantasy", 6, 0, "Barbarian Armor"),
    ("Curi-bolli", "fantasy", 6, 0, "Barbarian Armor"),
    ("Heavy Animal Hide", "fantasy", 6, 0, "Tough Animal Hides"),
    ("Brigantine", "fantasy", 8, 0, "Bardic Chain"),
    ("Ring Mail", "fantasy", 8, 0, "Bardic Chain"),
    ("Scale Mail", "fantasy", 9, 0, "Dragon Scales"),
    ("Bezainted", "fantasy", 9, 0, "Dragon Scales"),
    ("Chain Mail", "fantasy", 10, 0, "Samurai armor"),
    ("Laminated", "fantasy", 10, 0, "Samurai armor"),
    ("Plate & Chain", "fantasy", 11, 0, ""),
    ("Plate Mail", "fantasy", 11, 0, ""),
    ("Field Plate", "fantasy", 12, 0, "Typical Knight"),
    ("Light Kevlar", "modern", 6, 0, "Armored Clothing"),
    ("Skin Weave", "modern", 12, 0, "Subdermal body armor"),
    ("Kevlar", "modern", 14, 2, "Lt. Armorjackets"),
    ("Medium Kevlar", "modern", 16, 5, "Med. A.Jacket"),
    ("Flack", "modern", 18, 5, "W/inserts, cable weave"),
    ("Metalgear Plate", "modern", 25, 10, "Plastic/Kevlar plate"),
    ("Space Suit", "futuristic", 5, 5, "Light skinsuit"),
    ("Industrial Space Suit", "futuristic", 8, 5, "Hvy. metallized fabric"),
    ("Military Space Suit", "futuristic", 10, 10, "Metal fabric w/Plates"),
    ("Body Armor", "futuristic", 18, 25, '"Stormtrooper" plate'),
    ("Personal Force Screen", "futuristic", 10, 25, "Against Stun damage"),
    ("Advanced Force Screen", "futuristic", 14, 30, "Against all damage"),
]


def test_every_seed_weapon_is_catalogued_and_nothing_else():
    names = [row[0] for row in ARCHAIC + HIGH_TECH + RANGED + ARCHERY]
    assert list(catalogue.weapons()) == names
    assert len(names) == 35
    assert all(isinstance(w, Weapon) for w in catalogue.weapons().values())


@pytest.mark.parametrize(
    ("row", "category"),
    [(r, "archaic_melee") for r in ARCHAIC] + [(r, "high_tech_melee") for r in HIGH_TECH],
)
def test_melee_rows_match_the_seed(row, category):
    name, cost, dc, accuracy, min_str, notes = row
    entry = next(e for e in catalogue.weapon_entries() if e["name"] == name)
    assert (entry["cost"], entry["dc"], entry["accuracy"], entry["min_str"]) == (
        cost,
        dc,
        accuracy,
        min_str,
    )
    assert entry["notes"] == notes
    assert entry["category"] == category
    weapon = catalogue.weapons()[name]
    assert weapon.kind == "melee"
    assert weapon.rof == 1
    assert weapon.damage == ("stun" if "Stun" in notes else "killing")
    assert weapon.ap == ("AP" in notes)
    assert weapon.autofire is False
    hands = 2 if "2h" in notes.lower() else 1 if "1h" in notes.lower() else None
    assert weapon.hands == hands
    assert weapon.range == (6.0 if name == "Polearm" else 4.0)


@pytest.mark.parametrize("row", RANGED)
def test_ranged_rows_match_the_seed(row):
    name, rng, dc, rof = row
    weapon = catalogue.weapons()[name]
    assert (weapon.range, weapon.dc, weapon.rof) == (rng, dc, rof)
    assert weapon.kind == "ranged"
    assert weapon.accuracy == 0
    assert weapon.min_str == 0
    assert weapon.shots is None
    autofire = name in {
        "Submachine Gun",
        "Assault Rifle (5.56mm)",
        "Assault Rifle (7.62mm)",
        "Machine Gun",
    }
    assert weapon.autofire is autofire


@pytest.mark.parametrize("row", ARCHERY)
def test_archery_rows_follow_the_seed(row):
    name, bow, cap = row
    weapon = catalogue.weapons()[name]
    assert (weapon.bow, weapon.dc, weapon.skill, weapon.kind) == (bow, 1, "Archery", "ranged")
    assert weapon.range == cap  # the fight uses 20 m x min(STR, cap / 20)
    assert (weapon.rof, weapon.autofire, weapon.burst, weapon.area) == (1, False, False, None)
    entry = catalogue.weapon_entry(name)
    assert "range" not in entry and entry["category"] == "archery"


def test_blades_bursts_and_shotgun_areas():
    from fuzion_sim.systems.fuzion.model import Area

    weapons = catalogue.weapons()
    assert {n for n, w in weapons.items() if w.blade} == BLADES
    assert {n for n, w in weapons.items() if w.burst} == AUTOFIRE
    assert {n for n, w in weapons.items() if w.autofire} == AUTOFIRE
    for name, weapon in weapons.items():
        if name.startswith("Shotgun"):
            assert weapon.area == Area(per="barrel", radius=1.0) and weapon.barrels == 1
            assert not weapon.explosive
        else:
            assert weapon.area is None and weapon.barrels == 1
        assert (weapon.kills, weapon.power_points, weapon.explosive) == (0, 0, False)
        assert weapon.bow == ("none" if name not in {r[0] for r in ARCHERY} else weapon.bow)
    for armor in catalogue.armors().values():
        assert (armor.kills, armor.covers) == (0, None)


def test_sample_weapon_values():
    axe = catalogue.weapons()["Battle Axe"]
    assert (axe.dc, axe.accuracy, axe.min_str, axe.hands, axe.skill) == (6, -1, 5, 2, "Melee")
    magnum = catalogue.find_weapon("magnum pistol")
    assert (magnum.range, magnum.dc, magnum.rof, magnum.skill) == (50.0, 5, 2, "Handgun")
    shotgun = next(e for e in catalogue.weapon_entries() if e["name"] == "Shotgun (12-ga.)")
    assert shotgun["area"] == {"per": "barrel", "radius": 1}
    assert catalogue.weapons()["Machine Gun"].skill == "Heavy Weapons"
    assert catalogue.weapons()["Assault Rifle (5.56mm)"].skill == "Autofire Weapons"
    assert catalogue.weapons()["Rapier"].skill == "Fencing"
    assert catalogue.weapons()["Javelin"].skill == "Thrown"


def test_every_weapon_names_a_listed_skill():
    listed = set(catalogue.skills())
    for weapon in catalogue.weapons().values():
        assert weapon.skill in listed, weapon.name
    for entry in catalogue.weapon_entries():
        assert entry["skill"] in listed, entry["name"]


def test_every_seed_armour_is_catalogued():
    armors = catalogue.armors()
    assert list(armors) == [row[0] for row in ARMOURS]
    assert len(armors) == 29
    assert all(isinstance(a, Armor) for a in armors.values())


@pytest.mark.parametrize("row", ARMOURS)
def test_armour_rows_match_the_seed(row):
    name, category, pd, ekd, description = row
    entry = next(e for e in catalogue.armor_entries() if e["name"] == name)
    assert entry == {
        "name": name,
        "category": category,
        "pd": pd,
        "ekd": ekd,
        "half_vs_blades": False,
        "description": description,
        "cost": pd,
    }
    armor = catalogue.find_armor(name.upper())
    assert (armor.pd, armor.ekd, armor.half_vs_blades) == (pd, ekd, False)


def test_sample_armour_values():
    assert (catalogue.armors()["Flack"].pd, catalogue.armors()["Flack"].ekd) == (18, 5)
    screen = catalogue.armors()["Advanced Force Screen"]
    assert (screen.pd, screen.ekd) == (14, 30)


def test_skills_list():
    names = catalogue.skills()
    assert len(names) == 27
    assert len(set(names)) == len(names)
    for name in (
        "Hand to Hand", "Melee", "Fencing", "Athletics", "Ranged Evade", "Perception",
        "Piloting", "Driving", "Gunnery", "Heavy Weapons", "Autofire Weapons", "Concentration",
        "Physician", "Use Power", "Persuasion", "Performance", "Wardrobe and Style", "Breakfall",
        "Handgun", "Rifle", "Shotgun", "Submachine Gun", "Archery", "Thrown",
    ):  # fmt: skip
        assert name in names
    groups = {e["name"]: e["group"] for e in catalogue.skill_entries()}
    assert set(groups.values()) <= {"attack", "defence", "other"}
    assert groups["Ranged Evade"] == "defence"
    assert groups["Handgun"] == "attack"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("ranged evade", "Ranged Evade"),
        ("RangedEvade", "Ranged Evade"),
        ("Ranged  Evade", "Ranged Evade"),
        ("hand-to-hand", "Hand to Hand"),
        ("First Aid", "Physician"),
        ("Rifle", "Rifle"),
        ("Riffle", None),
        (3, None),
    ],
)
def test_canonical_skill(text, canonical):
    assert catalogue.canonical_skill(text) == canonical


def test_find_is_case_insensitive_exact():
    assert catalogue.find_weapon("BATTLE AXE").name == "Battle Axe"
    assert catalogue.find_weapon("Battle") is None
    assert catalogue.find_armor("light kevlar").name == "Light Kevlar"
    assert catalogue.find_armor("Kevlar").name == "Kevlar"
    assert catalogue.find_armor("Mithril") is None


def test_entries_are_fresh_copies():
    entry = catalogue.weapon_entries()[0]
    entry["dc"] = 99
    assert catalogue.weapon_entries()[0]["dc"] == 6
    assert catalogue.weapons()["Battle Axe"].dc == 6


def _duel(weapon, armor):
    return {
        "sides": {
            "a": [{"name": "A", "weapon": weapon, "armor": armor}],
            "b": [{"name": "B", "weapon": "Dagger"}],
        }
    }


@pytest.mark.parametrize("index", range(35))
def test_every_weapon_entry_copied_inline_validates_to_the_same_weapon(index):
    entry = catalogue.weapon_entries()[index]
    # a key the catalogue leaves empty is left out: written empty in a scenario, it is an error
    entry = {key: value for key, value in entry.items() if value is not None}
    scenario = scenario_from_dict(_duel(entry, None))
    assert scenario.sides["a"][0].weapon == catalogue.weapons()[entry["name"]]


def test_every_armour_entry_copied_inline_validates_to_the_same_armour():
    for entry in catalogue.armor_entries():
        scenario = scenario_from_dict(_duel("Dagger", entry))
        assert scenario.sides["a"][0].armor == catalogue.armors()[entry["name"]]
