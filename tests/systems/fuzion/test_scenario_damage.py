"""Scenario keys of damage in depth and autofire: rule switches (hit locations,
knockback, campaign and autofire ratio, chinks), weapon keys (Kills, blades, bows, power
points, bursts, areas, explosives), armour keys (Kills, covers) and combatant keys (sdp, kills,
called_shot). Good values load into the dataclasses; bad values fail naming the file, line,
key path and, for a misspelt name, the closest valid one."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import check_error, file_error, write_yaml

from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import load_scenario
from fuzion_sim.systems.fuzion import tables
from fuzion_sim.systems.fuzion.model import (
    CAMPAIGNS,
    NO_ARMOR,
    RULE_SWITCHES,
    Area,
    Armor,
    Combatant,
    Weapon,
)

BASE = """\
name: damage keys
trials: 10
rules:
  dice: hero
sides:
  red:
    - name: Knight
      skills: {Melee: 4}
      weapon: {name: Sword, dc: 4, kind: melee, skill: Melee}
      armor: {name: Plate, pd: 12}
  blue:
    - name: Tank
      skills: {Gunnery: 3}
      weapon: {name: Cannon, dc: 8, range: 500, skill: Gunnery}
"""
LINE = {"rules": 4, "red_weapon": 9, "red_armor": 10, "blue": 12, "blue_weapon": 14}

NEW_RULES = {
    "hit_locations": "none",
    "knockback": False,
    "knockback_unit": 1.0,
    "campaign": "heroic",
    "autofire_ratio": 0,
    "autofire_hits": "ceil_margin",
    "chinks": False,
}


def _text(
    rules: str = "", sword: str = "", armor: str = "", tank: str = "", cannon: str = ""
) -> str:
    text = BASE
    if rules:
        text = text.replace("  dice: hero\n", "  dice: hero\n" + "".join(
            f"  {line}\n" for line in rules.split("\n")
        ))  # fmt: skip
    if sword:
        text = text.replace("skill: Melee}", f"skill: Melee, {sword}}}")
    if armor:
        text = text.replace("pd: 12}", f"pd: 12, {armor}}}")
    if cannon:
        text = text.replace("skill: Gunnery}", f"skill: Gunnery, {cannon}}}")
    if tank:
        text += "".join(f"      {line}\n" for line in tank.split("\n"))
    return text


def _load(tmp_path: Path, **parts):
    return load_scenario(write_yaml(tmp_path, _text(**parts)))


# --- defaults keep every old scenario meaning the same ----------------------------------------


def test_new_switches_default_to_the_old_behaviour(tmp_path):
    scenario = _load(tmp_path)
    assert {k: scenario.rules.as_dict()[k] for k in NEW_RULES} == NEW_RULES
    for key, value in NEW_RULES.items():
        assert RULE_SWITCHES[key][1] == value
        allowed = RULE_SWITCHES[key][0]
        if isinstance(allowed, tuple):  # the first listed value is the default
            assert allowed[0] == value
    assert RULE_SWITCHES["hit_locations"][2] == "F27"
    assert RULE_SWITCHES["chinks"][2] == "F30"
    knight, tank = scenario.combatants
    assert (tank.sdp, tank.kills, tank.called_shot) == (0, 0, None)
    w = knight.weapon
    assert (w.kills, w.blade, w.bow, w.power_points, w.burst) == (0, False, "none", 0, False)
    assert (w.area, w.barrels, w.explosive) == (None, 1, False)
    assert (knight.armor.kills, knight.armor.covers) == (0, None)
    assert scenario.warnings == ()


def test_dataclass_defaults_keep_old_constructors_working():
    weapon = Weapon(name="w", skill="Melee")
    assert (weapon.kills, weapon.blade, weapon.bow, weapon.power_points) == (0, False, "none", 0)
    assert (weapon.burst, weapon.area, weapon.barrels, weapon.explosive) == (False, None, 1, False)
    armor = Armor(name="a")
    assert (armor.kills, armor.covers) == (0, None)
    assert (NO_ARMOR.kills, NO_ARMOR.covers) == (0, None)
    c = Combatant(name="c", side="s", stats={}, derived={}, skills={}, weapon=weapon)
    assert (c.sdp, c.kills, c.called_shot) == (0, 0, None)
    hash(Weapon(name="w", skill="Melee", area=Area("die", 1.0)))  # still hashable


def test_campaigns_match_the_ratio_table():
    assert set(CAMPAIGNS) == set(RULE_SWITCHES["campaign"][0]) == set(tables.campaign_ratios())
    assert list(tables.campaign_ratios()) == list(CAMPAIGNS)


# --- rules ------------------------------------------------------------------------------------


def test_rule_switches_load(tmp_path):
    rules = (
        "hit_locations: called\nknockback: true\nknockback_unit: 2.5\ncampaign: legendary\n"
        "autofire_ratio: 3\nautofire_hits: one_plus_floor\nchinks: true"
    )
    scenario = _load(tmp_path, rules=rules)
    assert {k: scenario.rules.as_dict()[k] for k in NEW_RULES} == {
        "hit_locations": "called",
        "knockback": True,
        "knockback_unit": 2.5,
        "campaign": "legendary",
        "autofire_ratio": 3,
        "autofire_hits": "one_plus_floor",
        "chinks": True,
    }
    assert scenario.rules.campaign == "legendary" and scenario.rules.knockback_unit == 2.5


@pytest.mark.parametrize("campaign", CAMPAIGNS)
def test_every_campaign_loads_and_leaves_the_ratio_unset(tmp_path, campaign):
    scenario = _load(tmp_path, rules=f"campaign: {campaign}")
    assert scenario.rules.campaign == campaign
    assert scenario.rules.autofire_ratio == 0  # 0: the campaign's ratio


def test_null_autofire_ratio_means_from_campaign(tmp_path):
    assert _load(tmp_path, rules="autofire_ratio: null").rules.autofire_ratio == 0
    assert _load(tmp_path, rules="knockback_unit: 1").rules.knockback_unit == 1.0


def test_rule_overrides(tmp_path):
    path = write_yaml(tmp_path, _text())
    scenario = load_scenario(
        path, overrides=[("rules.campaign", "superheroic"), ("rules.hit_locations", "random")]
    )
    assert (scenario.rules.campaign, scenario.rules.hit_locations) == ("superheroic", "random")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, overrides=[("rules.autofire_ratio", 0)])
    assert info.value.path == "rules.autofire_ratio"


@pytest.mark.parametrize(
    ("rules", "key", "problem", "suggestion"),
    [
        ("hit_locations: randm", "hit_locations",
         "unknown value 'randm' (expected none, random or called)", "random"),
        ("hit_locations: true", "hit_locations", "expected none, random or called, got true",
         None),
        ("hit_location: random", "hit_location", "unknown key 'hit_location'", "hit_locations"),
        ("knockback: 1", "knockback", "expected true or false, got 1", None),
        ("knockbak: true", "knockbak", "unknown key 'knockbak'", "knockback"),
        ("knockback_unit: 0", "knockback_unit", "must be greater than 0, got 0", None),
        ("knockback_unit: -1.5", "knockback_unit", "must be greater than 0, got -1.5", None),
        ("knockback_unit: far", "knockback_unit", "expected a number, got 'far'", None),
        ("campaign: heroik", "campaign", "unknown value 'heroik'", "heroic"),
        ("campaign: super_heroic", "campaign", "unknown value 'super_heroic'", "superheroic"),
        ("campaign: 2", "campaign", "got 2", None),
        ("autofire_ratio: 0", "autofire_ratio",
         "autofire_ratio must be at least 1, got 0 (leave it out, or null, for the campaign's "
         "ratio)", None),
        ("autofire_ratio: -2", "autofire_ratio", "must be at least 1, got -2", None),
        ("autofire_ratio: 2.5", "autofire_ratio", "expected an integer, got 2.5", None),
        ("autofire_ratio: heroic", "autofire_ratio", "expected an integer, got 'heroic'", None),
        ("autofire_hits: ceil", "autofire_hits",
         "unknown value 'ceil' (expected ceil_margin or one_plus_floor)", None),
        ("autofire_hits: one_plus_flor", "autofire_hits", "unknown value", "one_plus_floor"),
        ("chinks: 10", "chinks", "expected true or false, got 10", None),
        ("chink: true", "chink", "unknown key 'chink'", "chinks"),
    ],
)  # fmt: skip
def test_rule_switch_errors(tmp_path, rules, key, problem, suggestion):
    path, err = file_error(tmp_path, _text(rules=rules))
    check_error(err, path, 5, f"rules.{key}", problem, suggestion)


# --- weapons ----------------------------------------------------------------------------------


def test_weapon_keys_load(tmp_path):
    text = _text(sword="blade: true").replace(
        "{name: Cannon, dc: 8, range: 500, skill: Gunnery}",
        "{name: Cannon, kills: 4, range: 500, skill: Gunnery, explosive: true, "
        "area: {per: kill, radius: 4}}",
    )
    knight, tank = load_scenario(write_yaml(tmp_path, text)).combatants
    assert knight.weapon.blade is True and knight.weapon.kind == "melee"
    cannon = tank.weapon
    assert (cannon.kills, cannon.dc) == (4, 17)  # F29: 14 DC for the first Kill, +1 per Kill
    assert cannon.area == Area(per="kill", radius=4.0) and cannon.explosive is True
    assert cannon.range == 500.0


@pytest.mark.parametrize(("bow", "cap"), [("short", 140.0), ("long", 200.0), ("compound", 200.0)])
def test_bows_default_to_dc_1_and_the_range_cap(tmp_path, bow, cap):
    text = _text().replace(
        "{name: Cannon, dc: 8, range: 500, skill: Gunnery}",
        f"{{name: My bow, bow: {bow}, skill: Archery}}",
    )
    weapon = load_scenario(write_yaml(tmp_path, text)).combatants[1].weapon
    assert (weapon.bow, weapon.dc, weapon.range, weapon.kind) == (bow, 1, cap, "ranged")
    text = text.replace("bow: ", "dc: 2, bow: ")
    assert load_scenario(write_yaml(tmp_path, text)).combatants[1].weapon.dc == 2


def test_power_points_set_the_range(tmp_path):
    text = _text().replace("dc: 8, range: 500,", "dc: 8, power_points: 20, energy: true,")
    weapon = load_scenario(write_yaml(tmp_path, text)).combatants[1].weapon
    assert (weapon.power_points, weapon.range, weapon.energy) == (20, 200.0, True)


def test_burst_area_and_barrels_load(tmp_path):
    cannon = "rof: 20, autofire: true, burst: true, shots: 30"
    weapon = _load(tmp_path, cannon=cannon).combatants[1].weapon
    assert (weapon.burst, weapon.autofire, weapon.rof, weapon.shots) == (True, True, 20, 30)
    cannon = "area: {per: barrel, radius: 1}, barrels: 2"
    weapon = _load(tmp_path, cannon=cannon).combatants[1].weapon
    assert (weapon.area, weapon.barrels, weapon.explosive) == (Area("barrel", 1.0), 2, False)
    weapon = (
        _load(tmp_path, cannon="area: {per: die, radius: 0.5}, explosive: true")
        .combatants[1]
        .weapon
    )
    assert weapon.area == Area("die", 0.5) and weapon.explosive
    # a typical effect of area_effects.yaml by name
    weapon = _load(tmp_path, cannon="area: grenade, explosive: true").combatants[1].weapon
    assert weapon.area == Area("die", 1.0)
    with pytest.raises(ScenarioError, match="'area' has no value"):  # empty: not a default
        _load(tmp_path, cannon="area: null, barrels: 1")


@pytest.mark.parametrize(
    ("where", "extra", "key", "problem", "suggestion"),
    [
        ("sword", "kills: -1", "kills", "must be at least 0, got -1", None),
        ("sword", "kills: 2", "dc", "a Kill-rated weapon (kills: 2) takes no dc: against small "
         "targets it does 14 DC for the first Kill and +1 per further Kill (F29), here 15", None),
        ("sword", "kills: two", "kills", "expected an integer, got 'two'", None),
        ("sword", "kils: 2", "kils", "unknown key 'kils'", "kills"),
        ("sword", "blade: sharp", "blade", "expected true or false, got 'sharp'", None),
        ("sword", "bladed: true", "bladed", "unknown key 'bladed'", "blade"),
        ("cannon", "bow: longbow", "bow",
         "unknown bow 'longbow' (expected none, short, long or compound)", "long"),
        ("cannon", "bow: true", "bow", "expected none, short, long or compound, got true", None),
        ("sword", "bow: short", "bow", "a bow (bow: short) is a ranged weapon, but kind is "
         "'melee'", None),
        ("cannon", "bow: short", "range", "a bow (bow: short) takes no range: its range is 20 m "
         "per point of the archer's STR, computed in the fight; leave out range", None),
        ("cannon", "power_points: -2", "power_points", "must be at least 0, got -2", None),
        ("cannon", "power_points: 5", "range", "an energy blast (power_points) takes no range: "
         "its range is 10 m per power point", None),
        ("sword", "power_points: 5", "power_points", "is a ranged weapon, but kind is 'melee'",
         None),
        ("sword", "powerpoints: 5", "powerpoints", "unknown key", "power_points"),
        ("sword", "burst: true", "burst", "a burst fires 3 shots (F16), but rof is 1", None),
        ("cannon", "burst: true, rof: 10, shots: 2", "burst",
         "a burst fires 3 shots (F16), but the magazine holds 2", None),
        ("cannon", "burst: 3", "burst", "expected true or false, got 3", None),
        ("cannon", "brust: true", "brust", "unknown key 'brust'", "burst"),
        ("cannon", "area: {per: barel, radius: 1}", "area.per",
         "unknown area base 'barel' (expected barrel, die or kill)", "barrel"),
        ("cannon", "area: {per: die}", "area", "missing key 'radius'", None),
        ("cannon", "area: {radius: 2}", "area", "missing key 'per'", None),
        ("cannon", "area: {per: die, radius: 0}", "area.radius", "must be greater than 0, got 0",
         None),
        ("cannon", "area: {per: die, radius: wide}", "area.radius", "expected a number", None),
        ("cannon", "area: {per: die, raduis: 1}", "area.raduis", "unknown key 'raduis'",
         "radius"),
        ("cannon", "area: {per: kill, radius: 4}", "area.per",
         "an area per Kill needs a Kill-rated weapon (kills: 1 or more)", None),
        ("cannon", "area: granade", "area", "unknown area effect 'granade'", "grenade"),
        ("cannon", "area: 5", "area",
         "expected a mapping {per: barrel | die | kill, radius: metres}, got 5", None),
        ("cannon", "area: [die, 1]", "area", "got a list", None),
        ("cannon", "barrels: 0", "barrels", "must be at least 1, got 0", None),
        ("cannon", "barrels: 2", "barrels", "barrels: 2 only counts for an area per barrel", None),
        ("cannon", "barrels: 2, area: {per: die, radius: 1}", "barrels",
         "only counts for an area per barrel", None),
        ("cannon", "explosive: true", "explosive",
         "an explosive needs an area (e.g. area: {per: die, radius: 1})", None),
        ("cannon", "explosive: yes please", "explosive", "expected true or false", None),
        ("cannon", "explosiv: true", "explosiv", "unknown key 'explosiv'", "explosive"),
    ],
)  # fmt: skip
def test_weapon_key_errors(tmp_path, where, extra, key, problem, suggestion):
    path, err = file_error(tmp_path, _text(**{where: extra}))
    owner = "red" if where == "sword" else "blue"
    line = LINE["red_weapon"] if where == "sword" else LINE["blue_weapon"]
    check_error(err, path, line, f"sides.{owner}[0].weapon.{key}", problem, suggestion)


def test_a_bow_has_no_power_points(tmp_path):
    text = _text().replace("dc: 8, range: 500,", "bow: long, power_points: 3,")
    path = write_yaml(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    check_error(
        info.value, path, LINE["blue_weapon"], "sides.blue[0].weapon.power_points",
        "a bow has no power points",
    )  # fmt: skip


def test_weapon_missing_dc_is_still_an_error_without_kills_or_bow(tmp_path):
    text = _text().replace("dc: 8, ", "")
    path = write_yaml(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    check_error(info.value, path, LINE["blue_weapon"], "sides.blue[0].weapon", "missing key 'dc'")


# --- armour -----------------------------------------------------------------------------------


def test_armour_keys_load(tmp_path):
    knight = _load(tmp_path, armor="covers: [chest, stomach, vitals]").combatants[0]
    assert knight.armor.covers == ("chest", "stomach", "vitals")
    assert knight.armor.pd == 12
    every = list(tables.hit_locations().names)
    armor = _load(tmp_path, armor=f"covers: [{', '.join(every)}]").combatants[0].armor
    assert armor.covers == tuple(every)
    with pytest.raises(ScenarioError, match="'covers' has no value"):  # empty: not a default
        _load(tmp_path, armor="covers: null")
    text = _text(tank="kills: 5\narmor: {name: Hull, kills: 3, covers: [chest]}")
    tank = load_scenario(write_yaml(tmp_path, text)).combatants[1]
    assert (tank.armor.kills, tank.armor.pd, tank.armor.covers) == (3, 0, ("chest",))


@pytest.mark.parametrize(
    ("extra", "key", "problem", "suggestion"),
    [
        ("kills: -1", "kills", "must be at least 0, got -1", None),
        ("kills: 2", "pd",
         "Kill-rated armour (kills: 2) takes no pd: give kills or pd/ekd, not both (F29)", None),
        ("ekd: 3, kills: 2", "pd", "takes no pd", None),
        ("kills: 1.5", "kills", "expected an integer, got 1.5", None),
        ("covers: [chest, stomack]", "covers[1]",
         "unknown hit location 'stomack' (expected head, hands, arms, shoulders, chest, stomach, "
         "vitals, thighs, legs or feet)", "stomach"),
        ("covers: [Head]", "covers[0]", "unknown hit location 'Head'", "head"),
        ("covers: chest", "covers", "expected a list of hit locations, got 'chest'", "[chest]"),
        ("covers: 3", "covers", "expected a list of hit locations, got 3", None),
        ("covers: []", "covers", "an armour that covers no location stops nothing", None),
        ("covers: [head, head]", "covers[1]", "hit location 'head' is listed twice", None),
        ("covers: [3]", "covers[0]", "expected head, hands", None),
        ("cover: [head]", "cover", "unknown key 'cover'", "covers"),
    ],
)  # fmt: skip
def test_armour_key_errors(tmp_path, extra, key, problem, suggestion):
    path, err = file_error(tmp_path, _text(armor=extra))
    check_error(err, path, LINE["red_armor"], f"sides.red[0].armor.{key}", problem, suggestion)


def test_kill_armour_on_a_target_without_kills_warns(tmp_path):
    text = _text().replace("armor: {name: Plate, pd: 12}", "armor: {name: Hull, kills: 2}")
    scenario = load_scenario(write_yaml(tmp_path, text))
    assert scenario.warnings == (
        "Knight wears Kill-rated armour (Hull, kills: 2) but is not a Kill-rated target (kills:)",
    )


# --- combatants -------------------------------------------------------------------------------


def test_combatant_keys_load(tmp_path):
    tank = _load(tmp_path, tank="kills: 6").combatants[1]
    assert (tank.kills, tank.sdp) == (6, 0)
    tank = _load(tmp_path, tank="sdp: 40").combatants[1]
    assert (tank.kills, tank.sdp) == (0, 40)
    scenario = _load(tmp_path, rules="hit_locations: called", tank="called_shot: vitals")
    assert scenario.combatants[1].called_shot == "vitals" and scenario.warnings == ()


def test_called_shot_without_called_locations_warns(tmp_path):
    scenario = _load(tmp_path, rules="hit_locations: random", tank="called_shot: head")
    assert scenario.combatants[1].called_shot == "head"
    assert scenario.warnings == (
        "Tank calls shots at the head, but rules.hit_locations is 'random': the call is ignored",
    )


def test_combatant_overrides(tmp_path):
    path = write_yaml(tmp_path, _text())
    scenario = load_scenario(
        path, overrides=[("sides.blue[0].sdp", 30), ("sides.red[0].armor.covers", ["head"])]
    )
    assert scenario.combatants[1].sdp == 30 and scenario.combatants[0].armor.covers == ("head",)


@pytest.mark.parametrize(
    ("extra", "key", "problem", "suggestion"),
    [
        ("sdp: 0", "sdp", "sdp must be at least 1, got 0", None),
        ("sdp: 2.5", "sdp", "expected an integer, got 2.5", None),
        ("kills: 0", "kills", "kills must be at least 1, got 0", None),
        ("kills: true", "kills", "expected an integer, got true", None),
        ("sdp: 40\nkills: 3", "kills",
         "give sdp (an object with Structural Damage Points) or kills (a Kill-rated target), "
         "not both", None),
        ("kills: 3\nhits: 40", "hits",
         "an object (kills: 3) has no hits: its structure is its Kills (leave out hits)", None),
        ("sdp: 40\nstun: 20", "stun",
         "an object (sdp: 40) has no stun: its structure is its SDP (leave out stun)", None),
        ("called_shot: haed", "called_shot", "unknown hit location 'haed'", "head"),
        ("called_shot: 3", "called_shot", "expected head, hands", None),
        ("calledshot: head", "calledshot", "unknown key 'calledshot'", "called_shot"),
        ("sdps: 3", "sdps", "unknown key 'sdps'", "sdp"),
    ],
)  # fmt: skip
def test_combatant_key_errors(tmp_path, extra, key, problem, suggestion):
    path, err = file_error(tmp_path, _text(tank=extra))
    check_error(err, path, None, f"sides.blue[0].{key}", problem, suggestion)
    assert err.line is not None and err.line > LINE["blue"]
