"""Scenario loading, validation, error messages and key paths."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from builders import check_error, file_error, load_error, write_yaml

from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import (
    Scenario,
    get_path,
    load_scenario,
    parse_path,
    parse_value,
    read_yaml,
    scenario_from_dict,
    set_path,
)
from fuzion_sim.systems.fuzion import catalogue
from fuzion_sim.systems.fuzion.model import PRIMARIES, RULE_SWITCHES

FLAGSHIP = Path(__file__).resolve().parents[2] / "scenarios" / "marshal-vs-outlaw.yaml"

FLAGSHIP_TEXT = """\
# yaml-language-server: $schema=../schemas/fuzion.schema.json
name: Marshal vs outlaw at close range
system: fuzion
trials: 100000
seed: 7
max_rounds: 50
rules:
  dice: hero            # hero | interlock
  criticals: both       # both | attacker | none
  timing: phases        # later: speed_chart | extra_actions
  initiative: switch1   # later: switch2
  impairment: true
  stunned: true
sides:
  red:
    - name: Marshal
      stats: {REF: 8, DEX: 6, CON: 5, STR: 5, BODY: 6}
      skills: {Handgun: 4, Ranged Evade: 3}
      weapon: Magnum Pistol            # a catalogue name, or inline as below
      armor: Light Kevlar
      position: 0                      # metres along a line; the range is the distance between combatants
  blue:
    - name: Outlaw
      stats: {REF: 3, DEX: 6, CON: 5, STR: 6, BODY: 7}
      skills: {Rifle: 6, Ranged Evade: 4}
      weapon: {name: Hunting carbine, dc: 6, range: 100, rof: 1, accuracy: 0, skill: Rifle}
      armor: {name: Hide coat, pd: 8}
      position: 8
"""  # noqa: E501

# A small valid scenario; the line numbers in the error tests below refer to it.
BASE = """\
name: test
trials: 10
rules:
  dice: hero
sides:
  red:
    - name: Marshal
      stats: {REF: 8, BODY: 6}
      skills: {Handgun: 4}
      weapon: Magnum Pistol
      armor: Light Kevlar
  blue:
    - name: Outlaw
      skills: {Rifle: 6}
      weapon: {name: Hunting carbine, dc: 6, range: 100, skill: Rifle}
"""


def _edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# --- the flagship scenario --------------------------------------------------------------------


def test_flagship_file_is_the_given_text():
    assert FLAGSHIP.read_text(encoding="utf-8") == FLAGSHIP_TEXT


def test_flagship_loads_as_written():
    scenario = load_scenario(FLAGSHIP)
    assert isinstance(scenario, Scenario)
    assert scenario.name == "Marshal vs outlaw at close range"
    assert (scenario.system, scenario.trials, scenario.seed, scenario.max_rounds) == (
        "fuzion",
        100000,
        7,
        50,
    )
    assert scenario.rules.as_dict() == {
        "dice": "hero",
        "criticals": "both",
        "timing": "phases",
        "extra_actions_table": "rule",
        "initiative": "switch1",
        "impairment": True,
        "stunned": True,
        "dying_can_act": False,
        "dying_penalty": 6,
        "ap_factor": 0.5,
        "obscured_dv": 14,
        "dodge_bonus": 3,
        "block_bonus": 3,
        "hit_locations": "none",
        "knockback": False,
        "knockback_unit": 1.0,
        "campaign": "heroic",
        "autofire_ratio": 0,
        "autofire_hits": "ceil_margin",
        "semi_auto_rof": "extra_attacks",
        "chinks": False,
        # read only with a vehicle (../shared/rulings/vehicles)
        "vehicle_locations": "random",
        "vehicle_called_x": "forbidden",
        "critical_effects": True,
        "minor_crits": "effects",
        "facing_arcs": "quarters",
        "vehicle_row9": "literal",
        "kill_precision": "tenths",
        "critical_accumulation": "cumulative",
        "location_damage_counts_total": True,
        "crew_personal_armour": True,
        "unmanned_dv": "by_range",
        "area_kill_falloff": "per_radius_step",
        "crew_hit": "pilot",
        "weapon_disable_pct": 0,
        "no_turret": "fixed_mounts",
        "maneuver_in_defence": False,
        # read only with a missile weapon (F18, VA-20 to VA-26)
        "missile_launch": "automatic",
        "missile_timing": "per_round_free",
        "missile_dv_interlock": "minus5",
        "cluster_roll": "single",
        "missile_evasion_on_foot": "ranged_evade",
        "countermeasure_use": "per_engagement",
        "missile_aspect": "launch",
        "moving_target": "absolute",
        "mecha_range_scale": "attacker",
        # the special armour rules for mecha (F30), each off by default
        "staged_penetration": False,
        "staged_loss": "minus_one",
        "staged_trigger": "through",
        "chinks_scope": "all",
        "powered_armour": False,
        "powered_split": "suit_ceil",
        "powered_stun": "as_stun",
        "structural_integrity": False,
        "integrity_count": "total_tenths",
        # falls and knockback into obstacles
        "falling_columns": "six",
        "weight_row": "nearest_ratio",
        "impact_damage": "killing",
        "impact_armour": True,
        "collision_speed_bands": "fall_equivalent",
        "knockback_collision": "as_fall",
        "obstacles_block": True,
        "terrain_effect": "move_and_dv",
        "hazard_armour": "ekd",
        "electricity_damage": "killing",
        "hazard_timing": "end_of_phase",
        "breath_reset": "on_exit",
        "asphyxia_collateral": True,
        "poison_timing": "minute",
        # vehicles in motion (VA-19, VA-27 to VA-31, VA-39, VA-40)
        "manoeuvre_dv": "full",
        "manoeuvre_conditions": "clear",
        "ground_loss": "by_severity",
        "skid_rounding": "floor_min1",
        "stall_dv": 14,
        "spin_altitude_loss": "combat_move",
        "walker_fall_damage": False,
        "acceleration": "vehicles",
        "side_ram": "each_other",
        "collision_obstacle": "same_dc",
        "collision_occupants": "own_weight",
        "ram_miss_control": True,
        "impact_locations": False,
        "thrown_damage": "collision",  # throwing objects (VA-49)
        "dogfight_cadence": "phase",
        "dogfight_tie": "none",
        "intercept": "scenario",
        "break_off_rounds": 2,
        "break_off_time": "fixed",
    }
    assert scenario.rules.dice == "hero"
    assert scenario.side_names == ["red", "blue"]
    assert scenario.data == yaml.safe_load(FLAGSHIP_TEXT)
    assert scenario.source == str(FLAGSHIP)
    assert scenario.warnings == ()

    marshal, outlaw = scenario.combatants
    assert (marshal.name, marshal.side, outlaw.side) == ("Marshal", "red", "blue")
    assert marshal.stats == {
        "INT": 5, "WILL": 5, "PRE": 5, "TECH": 5, "REF": 8,
        "DEX": 6, "CON": 5, "STR": 5, "BODY": 6, "MOVE": 5,
    }  # fmt: skip
    assert marshal.derived["hits"] == 30
    assert marshal.derived["stun"] == 30
    assert marshal.derived["sd"] == 10
    assert marshal.derived["rec"] == 10
    assert marshal.derived["end"] == 50
    assert marshal.derived["res"] == 15
    assert (marshal.derived["run"], marshal.derived["sprint"]) == (10, 15)
    assert marshal.skills == {"Handgun": 4, "Ranged Evade": 3}
    assert marshal.skill("Rifle") == 0
    assert marshal.weapon == catalogue.find_weapon("Magnum Pistol")
    assert (marshal.armor.name, marshal.armor.pd, marshal.armor.ekd) == ("Light Kevlar", 6, 0)
    assert marshal.position == 0.0

    assert outlaw.derived["hits"] == 35
    assert outlaw.derived["rec"] == 11
    weapon = outlaw.weapon
    assert (weapon.name, weapon.dc, weapon.range, weapon.rof, weapon.accuracy) == (
        "Hunting carbine",
        6,
        100.0,
        1,
        0,
    )
    assert (weapon.skill, weapon.kind, weapon.damage, weapon.shots) == (
        "Rifle",
        "ranged",
        "killing",
        None,
    )
    assert (outlaw.armor.name, outlaw.armor.pd, outlaw.armor.ekd) == ("Hide coat", 8, 0)
    assert outlaw.position == 8.0


def test_read_yaml_keeps_line_numbers():
    data, lines = read_yaml(FLAGSHIP)
    assert data["seed"] == 7
    assert lines["trials"] == 4
    assert lines["rules.dice"] == 8
    assert lines["sides.red[0]"] == 16
    assert lines["sides.red[0].weapon"] == 19
    assert lines["sides.blue[0].weapon.dc"] == 26
    assert lines["sides.blue[0].stats.BODY"] == 24


def test_defaults():
    data = {
        "sides": {
            "a": [{"name": "A", "weapon": "Dagger"}],
            "b": [{"name": "B", "weapon": "Club"}],
        }
    }
    scenario = scenario_from_dict(data, source="scenarios/little-duel.yaml")
    assert scenario.name == "little-duel"
    assert (scenario.system, scenario.trials, scenario.seed, scenario.max_rounds) == (
        "fuzion",
        100000,
        0,
        50,
    )
    assert scenario.rules.as_dict() == {k: v[1] for k, v in RULE_SWITCHES.items()}
    a = scenario.combatants[0]
    assert a.stats == dict.fromkeys(PRIMARIES, 5)
    assert a.stats["INT"] == 5
    assert a.derived["hits"] == 25
    assert a.skills == {}
    assert a.armor.name == "none" and a.armor.pd == 0
    assert a.position == 0.0
    assert scenario.data == data and scenario.data is not data


def test_derived_overrides_and_stat_case():
    data = yaml.safe_load(FLAGSHIP_TEXT)
    data["sides"]["red"][0]["hits"] = 40
    data["sides"]["red"][0]["sd"] = 3
    data["sides"]["red"][0]["stats"] = {"ref": 8, "Body": 6}
    scenario = scenario_from_dict(data)
    marshal = scenario.combatants[0]
    assert marshal.derived["hits"] == 40
    assert marshal.derived["sd"] == 3
    assert marshal.derived["stun"] == 30  # not overridden: BODY x 5
    assert (marshal.stats["REF"], marshal.stats["BODY"]) == (8, 6)


def test_overrides_on_load():
    scenario = load_scenario(
        FLAGSHIP,
        overrides=[
            ("sides.red[0].hits", 40),
            ("rules.dice", "interlock"),
            ("sides.blue[0].armor.pd", 10),
            ("sides.red[0].weapon.dc", 6),
            ("trials", parse_value("500")),
        ],
    )
    marshal, outlaw = scenario.combatants
    assert marshal.derived["hits"] == 40
    assert scenario.rules.dice == "interlock"
    assert outlaw.armor.pd == 10
    assert marshal.weapon.dc == 6
    assert marshal.weapon.name == "Magnum Pistol" and marshal.weapon.rof == 2
    assert scenario.trials == 500
    assert scenario.data["sides"]["red"][0]["hits"] == 40


def test_skill_names_are_canonicalised():
    data = yaml.safe_load(FLAGSHIP_TEXT)
    data["sides"]["red"][0]["skills"] = {"handgun": 4, "RangedEvade": 3}
    data["sides"]["blue"][0]["weapon"]["skill"] = "rifle"
    scenario = scenario_from_dict(data)
    assert scenario.combatants[0].skills == {"Handgun": 4, "Ranged Evade": 3}
    assert scenario.combatants[1].weapon.skill == "Rifle"


def test_missing_weapon_skill_is_a_warning():
    data = yaml.safe_load(FLAGSHIP_TEXT)
    data["sides"]["blue"][0]["skills"] = {"Ranged Evade": 4}
    scenario = scenario_from_dict(data)
    assert scenario.warnings == ("Outlaw has no Rifle skill; it counts 0",)
    assert scenario.combatants[1].skill("Rifle") == 0


def test_inline_weapon_defaults_and_melee_reach():
    data = yaml.safe_load(BASE)
    data["sides"]["blue"][0]["weapon"] = {
        "name": "Pike",
        "dc": 4,
        "skill": "Melee",
        "kind": "melee",
    }
    data["sides"]["red"][0]["weapon"] = {"name": "Zip gun", "dc": 2, "skill": "Handgun"}
    scenario = scenario_from_dict(data)
    zip_gun, pike = (c.weapon for c in scenario.combatants)
    assert (pike.range, pike.rof, pike.damage, pike.accuracy, pike.min_str) == (
        4.0,
        1,
        "killing",
        0,
        0,
    )
    assert (zip_gun.kind, zip_gun.range, zip_gun.ap, zip_gun.autofire, zip_gun.energy) == (
        "ranged",
        50.0,
        False,
        False,
        False,
    )


# --- bad input: one test per problem ----------------------------------------------------------


def test_yaml_syntax_error(tmp_path):
    path, err = file_error(tmp_path, _edit("trials: 10", "trials: 10: 11"))
    check_error(err, path, 2, None, "invalid YAML: mapping values are not allowed here")


def test_unknown_top_level_key(tmp_path):
    path, err = file_error(tmp_path, _edit("trials: 10", "trails: 10"))
    check_error(err, path, 2, "trails", "unknown key 'trails'", "trials")


def test_unknown_combatant_key(tmp_path):
    path, err = file_error(tmp_path, _edit("weapon: Magnum Pistol", "wepon: Magnum Pistol"))
    check_error(err, path, 10, "sides.red[0].wepon", "unknown key 'wepon'", "weapon")


def test_unknown_rules_key(tmp_path):
    path, err = file_error(tmp_path, _edit("dice: hero", "dcie: hero"))
    check_error(err, path, 4, "rules.dcie", "unknown key 'dcie'", "dice")


def test_unknown_inline_weapon_key(tmp_path):
    path, err = file_error(tmp_path, _edit("range: 100", "rnage: 100"))
    check_error(err, path, 15, "sides.blue[0].weapon.rnage", "unknown key 'rnage'", "range")


def test_unknown_inline_armour_key(tmp_path):
    text = BASE + "      armor: {name: Hide coat, pdd: 8}\n"
    path, err = file_error(tmp_path, text)
    check_error(err, path, 16, "sides.blue[0].armor.pdd", "unknown key 'pdd'", "pd")


def test_wrong_type(tmp_path):
    path, err = file_error(tmp_path, _edit("trials: 10", "trials: ten"))
    check_error(err, path, 2, "trials", "expected an integer, got 'ten'")


def test_boolean_is_not_an_integer(tmp_path):
    path, err = file_error(tmp_path, _edit("dc: 6", "dc: true"))
    check_error(err, path, 15, "sides.blue[0].weapon.dc", "expected an integer, got true")


def test_word_rule_rejects_boolean(tmp_path):
    path, err = file_error(tmp_path, _edit("dice: hero", "dice: on"))
    check_error(err, path, 4, "rules.dice", "expected hero or interlock, got true")


def test_boolean_rule_rejects_words(tmp_path):
    path, err = file_error(tmp_path, _edit("dice: hero", "stunned: yes please"))
    check_error(err, path, 4, "rules.stunned", "expected true or false, got 'yes please'")


@pytest.mark.parametrize("body", [0, -3])
def test_body_must_be_at_least_one(tmp_path, body):
    path, err = file_error(tmp_path, _edit("BODY: 6", f"BODY: {body}"))
    check_error(err, path, 8, "sides.red[0].stats.BODY", f"BODY must be at least 1, got {body}")


def test_negative_stat(tmp_path):
    path, err = file_error(tmp_path, _edit("REF: 8", "REF: -1"))
    check_error(err, path, 8, "sides.red[0].stats.REF", "REF must be at least 0, got -1")


def test_hits_override_must_be_positive(tmp_path):
    path, err = file_error(tmp_path, _edit("      armor: Light Kevlar\n", "      hits: 0\n"))
    check_error(err, path, 11, "sides.red[0].hits", "hits must be at least 1, got 0")


def test_empty_side(tmp_path):
    text = BASE.split("  blue:")[0] + "  blue: []\n"
    path, err = file_error(tmp_path, text)
    check_error(err, path, 12, "sides.blue", "side 'blue' has no combatants")


def test_fewer_than_two_sides(tmp_path):
    text = BASE.split("  blue:")[0]
    path, err = file_error(tmp_path, text)
    check_error(err, path, 5, "sides", "a scenario needs at least two sides, got 1")


def test_missing_sides(tmp_path):
    path, err = file_error(tmp_path, "name: lonely\ntrials: 5\n")
    check_error(err, path, 1, None, "missing key 'sides'")


def test_unknown_catalogue_weapon(tmp_path):
    path, err = file_error(tmp_path, _edit("Magnum Pistol", "Magnum Pistl"))
    check_error(err, path, 10, "sides.red[0].weapon", "unknown weapon 'Magnum Pistl'",
                "Magnum Pistol")  # fmt: skip


def test_unknown_catalogue_armour(tmp_path):
    path, err = file_error(tmp_path, _edit("Light Kevlar", "Light Kevlr"))
    check_error(err, path, 11, "sides.red[0].armor", "unknown armour 'Light Kevlr'", "Light Kevlar")


def test_unknown_skill(tmp_path):
    path, err = file_error(tmp_path, _edit("Handgun: 4", "Handgn: 4"))
    check_error(err, path, 9, "sides.red[0].skills.Handgn", "unknown skill 'Handgn'", "Handgun")


def test_unknown_inline_weapon_skill(tmp_path):
    path, err = file_error(tmp_path, _edit("skill: Rifle", "skill: Rilfe"))
    check_error(err, path, 15, "sides.blue[0].weapon.skill", "unknown skill 'Rilfe'", "Rifle")


def test_unknown_stat(tmp_path):
    path, err = file_error(tmp_path, _edit("REF: 8", "REFL: 8"))
    check_error(err, path, 8, "sides.red[0].stats.REFL", "unknown stat 'REFL'", "REF")


def test_unknown_stat_full_name_suggests_abbreviation(tmp_path):
    path, err = file_error(tmp_path, _edit("REF: 8", "Reflexes: 8"))
    check_error(err, path, 8, "sides.red[0].stats.Reflexes", "unknown stat 'Reflexes'", "REF")


def test_unknown_rule_value(tmp_path):
    path, err = file_error(tmp_path, _edit("dice: hero", "dice: hreo"))
    check_error(err, path, 4, "rules.dice", "unknown value 'hreo' (expected hero or interlock)",
                "hero")  # fmt: skip


def test_unknown_system(tmp_path):
    path, err = file_error(tmp_path, "system: fuzon\n" + BASE)
    check_error(err, path, 1, "system", "unknown system 'fuzon'", "fuzion")


@pytest.mark.parametrize("trials", [0, -5])
def test_trials_at_least_one(tmp_path, trials):
    path, err = file_error(tmp_path, _edit("trials: 10", f"trials: {trials}"))
    check_error(err, path, 2, "trials", f"trials must be at least 1, got {trials}")


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.yaml"
    check_error(load_error(path), path, None, None, "cannot read file: no such file")


def test_empty_file(tmp_path):
    path, err = file_error(tmp_path, "# nothing here\n")
    check_error(err, path, None, None, "the file is empty")


def test_duplicate_combatant_names(tmp_path):
    path, err = file_error(tmp_path, _edit("name: Outlaw", "name: Marshal"))
    check_error(
        err,
        path,
        13,
        "sides.blue[0].name",
        "duplicate combatant name 'Marshal' (also at sides.red[0])",
    )


def test_duplicate_yaml_key(tmp_path):
    path, err = file_error(tmp_path, _edit("trials: 10", "trials: 10\ntrials: 20"))
    check_error(err, path, 3, "trials", "duplicate key 'trials' (first given on line 2)")


def test_inline_weapon_missing_dc(tmp_path):
    path, err = file_error(tmp_path, _edit("dc: 6, ", ""))
    check_error(err, path, 15, "sides.blue[0].weapon", "missing key 'dc'")


def test_inline_weapon_bad_kind(tmp_path):
    path, err = file_error(tmp_path, _edit("dc: 6,", "dc: 6, kind: ranegd,"))
    check_error(err, path, 15, "sides.blue[0].weapon.kind", "unknown kind 'ranegd'", "ranged")


def test_missing_combatant_name(tmp_path):
    path, err = file_error(tmp_path, _edit("- name: Outlaw\n      skills", "- skills"))
    check_error(err, path, 13, "sides.blue[0]", "missing key 'name'")


def test_error_without_file_still_names_the_path():
    data = yaml.safe_load(BASE)
    data["sides"]["red"][0]["weapon"] = 5
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict(data)
    assert str(info.value) == (
        "sides.red[0].weapon: expected a catalogue weapon name or a mapping, got 5"
    )


def test_bad_override_path_names_the_file(tmp_path):
    path = write_yaml(tmp_path, BASE, "ok.yaml")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, overrides=[("sides.rde[0].hits", 3)])
    err = info.value
    assert str(path) in str(err)
    assert err.path == "sides.rde[0].hits"
    assert err.suggestion == "red"
    assert "override sides.rde[0].hits=3: no side 'rde'; the sides are red, blue" in str(err)


def test_override_with_misspelt_key_is_caught_by_validation(tmp_path):
    path = write_yaml(tmp_path, BASE, "ok.yaml")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, overrides=[("rules.dcie", "interlock")])
    check_error(info.value, path, None, None, "unknown key 'dcie'", "dice")
    assert info.value.path == "rules.dcie"
    # the override is named in place of a line of the file
    assert info.value.line is None and info.value.origin == "override rules.dcie=interlock"
    assert str(info.value).startswith(f"{path}: override rules.dcie=interlock: unknown key")


# --- key paths ----------------------------------------------------------------------------------


def test_parse_path():
    assert parse_path("sides.blue[0].armor.pd") == ["sides", "blue", 0, "armor", "pd"]
    assert parse_path("trials") == ["trials"]
    assert parse_path("sides.red[0].skills.Ranged Evade") == [
        "sides", "red", 0, "skills", "Ranged Evade",
    ]  # fmt: skip
    assert parse_path("sides.red[0].skills['Ranged Evade']") == [
        "sides", "red", 0, "skills", "Ranged Evade",
    ]  # fmt: skip
    assert parse_path(["a", 0]) == ["a", 0]


@pytest.mark.parametrize("bad", ["", "a..b", "a.", ".a", "a[x]", "a[0", "a[0]b"])
def test_parse_path_rejects_malformed(bad):
    with pytest.raises(ScenarioError, match="key path"):
        parse_path(bad)


def test_parse_value():
    assert parse_value("6") == 6
    assert parse_value("0.25") == 0.25
    assert parse_value("true") is True
    assert parse_value("interlock") == "interlock"
    assert parse_value("{name: Club, dc: 2}") == {"name": "Club", "dc": 2}
    assert parse_value("a: b: c") == "a: b: c"


def test_get_path():
    data = yaml.safe_load(FLAGSHIP_TEXT)
    assert get_path(data, "rules.dice") == "hero"
    assert get_path(data, "sides.blue[0].weapon.dc") == 6
    assert get_path(data, "sides.red[0].weapon.dc") == 5  # from the catalogue entry
    assert get_path(data, "sides.red[0].armor.pd") == 6
    with pytest.raises(ScenarioError) as info:
        get_path(data, "sides.red[0].wepon")
    assert info.value.path == "sides.red[0].wepon"
    assert info.value.suggestion == "weapon"


def test_set_path_copies_catalogue_armour_with_value_changed():
    data = yaml.safe_load(FLAGSHIP_TEXT)
    before = copy.deepcopy(data)
    changed = set_path(data, "sides.red[0].armor.pd", 10)
    assert data == before  # the input is not mutated
    expected = catalogue.armor_entries()[
        [a["name"] for a in catalogue.armor_entries()].index("Light Kevlar")
    ]
    expected["pd"] = 10
    assert changed["sides"]["red"][0]["armor"] == expected
    scenario = scenario_from_dict(changed)
    armor = scenario.combatants[0].armor
    assert (armor.name, armor.pd, armor.ekd) == ("Light Kevlar", 10, 0)


def test_set_path_copies_catalogue_weapon_with_value_changed():
    data = yaml.safe_load(FLAGSHIP_TEXT)
    before = copy.deepcopy(data)
    changed = set_path(data, "sides.red[0].weapon.dc", 7)
    assert data == before
    inline = changed["sides"]["red"][0]["weapon"]
    assert inline["name"] == "Magnum Pistol"
    assert inline["dc"] == 7
    assert (inline["range"], inline["rof"], inline["skill"]) == (50, 2, "Handgun")
    weapon = scenario_from_dict(changed).combatants[0].weapon
    assert weapon == catalogue.find_weapon("Magnum Pistol").__class__(
        **{**catalogue.find_weapon("Magnum Pistol").__dict__, "dc": 7}
    )


def test_set_path_plain_values_and_new_keys():
    data = yaml.safe_load(FLAGSHIP_TEXT)
    before = copy.deepcopy(data)
    changed = set_path(data, "sides.blue[0].weapon.dc", 9)
    assert changed["sides"]["blue"][0]["weapon"]["dc"] == 9
    changed = set_path(changed, "sides.blue[0].hits", 50)
    assert changed["sides"]["blue"][0]["hits"] == 50
    del changed["rules"]
    changed = set_path(changed, "rules.dice", "interlock")
    assert changed["rules"] == {"dice": "interlock"}
    changed = set_path(changed, "sides.red[0]", {"name": "Deputy", "weapon": "Club"})
    assert changed["sides"]["red"][0]["name"] == "Deputy"
    assert data == before


@pytest.mark.parametrize(
    ("path", "problem", "suggestion"),
    [
        ("sides.red[3].hits", "no index [3] in 'sides.red' (it has 1 item)", None),
        ("sides.reed[0].hits", "no side 'reed'; the sides are red, blue", "red"),
        ("sides.red.name", "'sides.red' is a list", None),
        ("trials.x", "'trials' is a single value", None),
        ("sides.red[0].weapon.dc.x", "'sides.red[0].weapon.dc' is a single value", None),
        ("sides.red[0][0]", "is a mapping, not a list", None),
    ],
)
def test_set_path_bad_paths(path, problem, suggestion):
    data = yaml.safe_load(FLAGSHIP_TEXT)
    with pytest.raises(ScenarioError) as info:
        set_path(data, path, 1)
    assert info.value.path == path
    assert problem in str(info.value)
    assert info.value.suggestion == suggestion


def test_set_path_into_unknown_catalogue_name():
    data = yaml.safe_load(FLAGSHIP_TEXT)
    data["sides"]["red"][0]["weapon"] = "Magnum Pistl"
    with pytest.raises(ScenarioError) as info:
        set_path(data, "sides.red[0].weapon.dc", 3)
    assert "unknown weapon 'Magnum Pistl'" in str(info.value)
    assert info.value.suggestion == "Magnum Pistol"


def test_a_side_may_be_surprised_as_a_whole():
    data = yaml.safe_load(FLAGSHIP_TEXT)
    data["sides"]["blue"] = {"surprised": True, "members": data["sides"]["blue"]}
    sc = scenario_from_dict(data)
    assert [c.surprised for c in sc.sides["blue"]] == [True]
    assert [c.surprised for c in sc.sides["red"]] == [False]
    data["sides"]["blue"]["members"][0]["surprised"] = False  # a member's own key wins
    assert not scenario_from_dict(data).sides["blue"][0].surprised
    data["sides"]["blue"]["surprized"] = True
    with pytest.raises(ScenarioError, match="surprized") as err:
        scenario_from_dict(data)
    assert err.value.suggestion == "surprised"
