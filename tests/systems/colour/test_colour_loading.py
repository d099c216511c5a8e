"""Loading colour scenarios: the worked example as written, every shipped scenario against the
JSON Schema, and bad input as one line naming the file, the line, the key path and the closest
valid name."""

from __future__ import annotations

import json
import textwrap

import jsonschema
import pytest
from colour_cases import SCENARIOS, duel, member, scenario

from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import load_scenario
from fuzion_sim.scenario.schema import scenario_schema
from fuzion_sim.systems import get_system

ISSUE_EXAMPLE = """\
name: Ken against Bob
system: colour
trials: 100000
seed: 3
rules:
  ladder: seed004          # seed004 | standard
  soak: graded             # graded | literal
sides:
  ken:
    - name: Ken
      abilities: {Fighting: Good, Agility: Good, Strength: Typical, Endurance: Good}   # rank names, or numbers
      weapon: {name: Machine gun, kind: ranged, damage: 10, gun: true, rapid_fire: full_auto, rounds: 10}
      armor: 0                 # a number, or a rank name (its value)
      defence: dodge           # dodge | block | parry | roll_with_blow | soak | none
  bob:
    - name: Bob
      abilities: {Fighting: Typical, Agility: Typical, Strength: Typical, Endurance: Typical}
      weapon: {name: Crowbar, kind: melee, str_plus: 4}   # melee damage = Strength value + str_plus
      armor: Typical
      defence: dodge
"""  # noqa: E501


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_the_issues_example_loads_as_written(tmp_path):
    sc = load_scenario(write(tmp_path, ISSUE_EXAMPLE))
    ken, bob = sc.combatants
    assert sc.system == "colour" and sc.rules.ladder == "seed004" and sc.rules.soak == "graded"
    assert ken.weapon.rapid_fire == "full_auto" and ken.weapon.gun and ken.armour is None
    assert bob.armour.value.given == "Typical" and bob.weapon.str_plus == 4
    assert (SCENARIOS / "ken-against-bob.yaml").read_text().count("Machine gun") == 1


def test_shipped_scenarios_start_with_the_schema_line_and_pass_it():
    schema = scenario_schema(get_system("colour"))
    shipped = json.loads((SCENARIOS.parents[1] / "schemas" / "colour.schema.json").read_text())
    assert shipped == json.loads(json.dumps(schema))  # the file is the command's output
    import yaml

    for path in sorted(SCENARIOS.glob("*.yaml")):
        first = path.read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schemas/colour.schema.json", path
        jsonschema.validate(yaml.safe_load(path.read_text()), schema)
        load_scenario(path)


def test_the_schema_rejects_a_misspelt_key():
    schema = scenario_schema(get_system("colour"))
    data = duel(member("A", wepon="Crowbar"), member("B"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)


@pytest.mark.parametrize(("body", "where", "text", "hint"), [
    ("weapon: {name: Gun, kind: ranged, damage: 10, rapid_fire: full_auto, rounds: 10, "
     "ap: Remarkabel}", "sides.a[0].weapon.ap", "unknown rank 'Remarkabel'", "Remarkable"),
    ("wepon: Crowbar", "sides.a[0].wepon", "unknown key 'wepon'", "weapon"),
    ("weapon: Crowbr", "sides.a[0].weapon", "unknown weapon 'Crowbr'", "Crowbar"),
    ("abilities: {Fightin: Good}", "sides.a[0].abilities.Fightin", "unknown ability", "Fighting"),
    ("defence: dodg", "sides.a[0].defence", "unknown defence 'dodg'", "dodge"),
    ("armor: Padded shrt", "sides.a[0].armor", "unknown armour 'Padded shrt'", "Padded shirt"),
    ("weapon: Machine gun\n      actions: [{do: autofire, rounds: 8}, {do: sweep, rounds: 5}]",
     "sides.a[0].actions", "need 13 rounds a turn", None),
    ("weapon: Machine gun\n      actions: {do: attack, power: true}", "sides.a[0].actions.power",
     "no Power Attack with guns", None),
    ("weapon: Machine gun\n      actions: {do: autofire, called: head}",
     "sides.a[0].actions.called", "no called shot with rapid fire", None),
    ("actions: {do: attack, target: Bobb}", "sides.a[0].actions.target", "no member 'Bobb'",
     "Bob"),
    ("actions: [{do: attack}, {do: attack}, {do: attack}]", "sides.a[0].actions",
     "more than rules.max_actions_per_turn", None),
    ("abilities: {Fighting: 0, Agility: 0, Strength: 0, Endurance: 0}\n      "
     "weapon: Fists", "sides.a[0].abilities", "0 Health", None),
    ("weapon: {name: Gun, kind: ranged}", "sides.a[0].weapon", "needs damage", None),
    ("weapon: {name: Sword, kind: melee, damage: 20, str_plus: 2}",
     "sides.a[0].weapon.str_plus", "not both", None),
    ("health: 0", "sides.a[0].health", "at least 1", None),
    ("attack_cs: 40", "sides.a[0].attack_cs", "at most 30", None),
])  # fmt: skip
def test_loading_errors_name_file_line_key_and_hint(tmp_path, body, where, text, hint):
    path = tmp_path / "s.yaml"
    path.write_text(f"system: colour\nsides:\n  a:\n    - name: Al\n      {body}\n  b:\n"
                    "    - name: Bob\n")  # fmt: skip
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:")
    line = int(message.split(":")[1])
    assert line >= 4
    assert where in message and text in message
    if hint:
        assert f"did you mean '{hint}'" in message


def test_a_rank_the_ladder_lacks(tmp_path):
    path = write(tmp_path, """\
        system: colour
        rules: {ladder: standard}
        sides:
          a:
            - name: Al
              abilities: {Strength: Fantastic}
          b:
            - name: Bob
        """)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    message = str(err.value)
    assert ":6: sides.a[0].abilities.Strength: rank 'Fantastic' is not on the standard ladder" \
        in message
    assert "rules.unknown_rank: nearest" in message
    path.write_text(path.read_text().replace("{ladder: standard}",
                                             "{ladder: standard, unknown_rank: nearest}"))
    assert load_scenario(path).combatants[0].abilities["Strength"].given == "Fantastic"


def test_bad_rule_switch_values():
    with pytest.raises(ScenarioError, match=r"unknown value 'gradd'.*did you mean 'graded'"):
        scenario(duel(member("A"), member("B"), rules={"soak": "gradd"}))
    with pytest.raises(ScenarioError, match=r"rules\.super_crit_on"):
        scenario(duel(member("A"), member("B"), rules={"super_crit_on": 3}))


def test_warnings_for_keys_that_do_nothing():
    gun = {"name": "Pistol", "kind": "ranged", "damage": 8, "gun": True, "shots": 6}
    sc = scenario(duel(member("A", weapon=gun, defence=["dodge", "soak"],
                              super_crit_call="left_arm", dive_for_cover=True,
                              abilities={"Reason": "Good"}), member("B")))  # fmt: skip
    text = " | ".join(sc.warnings)
    assert "rules.ammunition: true" in text
    assert "rules.defence_choice: reactive" in text
    assert "super_crit_call counts only" in text
    assert "dive_for_cover does nothing" in text
    assert "Reason: recorded on the sheet only" in text


BOW = {"name": "Bow", "kind": "ranged", "damage": 8}


@pytest.mark.parametrize(("archer", "defender", "rules", "text"), [
    (member("Archer", weapon=BOW), member("Bob", defence="block"), {},
     "Bob: defence block does nothing here: a block counts only against brawling (unarmed "
     "melee) attacks and no enemy makes one; Bob dodges instead (CA56)"),
    (member("Archer", weapon=BOW), member("Bob", defence="block"), {"block_invalid": "none"},
     "Bob takes no defence instead (rules.block_invalid: none)"),
    (member("Archer", weapon=BOW), member("Bob", defence=["dodge", "parry"]),
     {"defence_choice": "reactive", "parry_ranged": "none"},
     "Bob: defence parry does nothing here: no enemy attacks in melee"),
    (member("Archer", weapon=BOW), member("Bob", when_grappled="attack"), {},
     "Bob: when_grappled does nothing: no enemy grapples"),
])  # fmt: skip
def test_a_defence_no_enemy_lets_a_member_use_is_warned_about(archer, defender, rules, text):
    """Block is for brawling attacks only and parry for melee (or thrown) ones: against an
    archer the kernels read either as a dodge, so loading says so (validate and run print
    the scenario's warnings)."""
    sc = scenario(duel(archer, defender, rules=rules))
    assert any(text in w for w in sc.warnings), sc.warnings


@pytest.mark.parametrize(("attacker", "defence"), [
    (member("Boxer", weapon="Fists"), "block"),
    (member("Thug", weapon="Crowbar"), "parry"),
    (member("Thrower", weapon={"name": "Knife", "kind": "ranged", "damage": 5,
                               "thrown": True}), "parry"),
    (member("Wrestler", actions={"do": "grapple"}), "block"),
])  # fmt: skip
def test_a_defence_an_enemy_lets_a_member_use_is_not_warned_about(attacker, defence):
    sc = scenario(duel(attacker, member("Bob", defence=defence)))
    assert not any("does nothing here" in w for w in sc.warnings), sc.warnings


def test_paths_reach_into_catalogue_items_and_rank_armour():
    from fuzion_sim.scenario.variants import as_base, overrides_of

    data = duel(member("A", weapon="Crowbar"), member("B", armor="Typical"))
    built = as_base(data).build(overrides_of({"sides.a[0].weapon.str_plus": 6,
                                              "sides.b[0].armor.value": "Good"}))  # fmt: skip
    a, b = built.combatants
    assert a.weapon.name == "Crowbar" and a.weapon.str_plus == 6
    assert b.armour.value.given == "Good"
