"""Loading FUDGE scenarios: the worked example's YAML as written, ladder names or numbers,
every shipped scenario against the JSON Schema, one-line errors with file, line, key path,
problem, range and did-you-mean, and warnings for keys that do nothing."""

from __future__ import annotations

import copy
import json
import re

import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from fudge_helpers import ISSUE_EXAMPLE, ROOT, SCENARIOS, build, duel, one_shot

from fuzion_sim import load_scenario
from fuzion_sim.cli import cli
from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario.schema import scenario_schema
from fuzion_sim.systems import get_system, system_names

FUDGE = get_system("fudge")
SHIPPED = sorted(SCENARIOS.glob("*.yaml"))

ISSUE_YAML = """\
name: Two Fair shooters at 8 metres
system: fudge
trials: 100000
seed: 11
rules:
  wounds: firearms        # firearms | core
  shot_roll: separate     # separate | margin | attack_dice
sides:
  vaclav:
    - name: Vaclav
      skill: Fair               # the weapon skill, a ladder name or a number (-3..+4)
      damage_capacity: Fair
      weapon: {name: Blaster, bd: 4}
      distance: 8               # metres to the enemy (or position: like Fuzion)
      initiative: 1             # higher acts first (UA1)
  alien:
    - name: Alien
      skill: Fair
      damage_capacity: Fair
      weapon: {name: Blaster, bd: 4}
      distance: 8
"""


def test_fudge_is_registered():
    assert "fudge" in system_names() and FUDGE.name == "fudge"
    assert set(FUDGE.switches) >= {"wounds", "shot_roll", "out_at", "hit_locations"}


def test_the_issue_example_loads_as_written(tmp_path):
    path = tmp_path / "issue.yaml"
    path.write_text(ISSUE_YAML)
    sc = load_scenario(path)
    assert sc.system == "fudge" and sc.trials == 100_000 and sc.seed == 11
    assert sc.warnings == ()
    vaclav, alien = sc.combatants
    assert (vaclav.skill, vaclav.damage_capacity, vaclav.initiative) == (0, 0, 1)
    assert vaclav.weapon.bd == 4 and vaclav.distance == 8 and alien.initiative == 0
    # the shipped copy says the same (its comments aside)
    shipped = yaml.safe_load(ISSUE_EXAMPLE.read_text())
    assert shipped == yaml.safe_load(ISSUE_YAML)


def test_every_shipped_scenario_starts_with_the_schema_line():
    for path in SHIPPED:
        first = path.read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schemas/fudge.schema.json", path


def test_the_schema_file_is_current_and_every_scenario_passes_it():
    schema = scenario_schema(FUDGE)
    assert json.loads((ROOT / "schemas" / "fudge.schema.json").read_text()) == schema
    for path in SHIPPED:
        jsonschema.validate(yaml.safe_load(path.read_text()), schema)
        load_scenario(path)
    bad = yaml.safe_load(ISSUE_YAML)
    bad["sides"]["alien"][0]["skil"] = "Good"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


@pytest.mark.parametrize(("value", "level"), [("Good", 1), ("good", 1), ("Legendary", 4),
                                              ("Terrible", -3), (2, 2), (-3, -3)])
def test_ladder_names_or_numbers(value, level):
    sc = build(duel(vaclav={"skill": value, "damage_capacity": value}))
    assert sc.combatants[0].skill == level == sc.combatants[0].damage_capacity


BAD = [
    ({"skill": "Goood"}, r"sides\.vaclav\[0\]\.skill: unknown ladder level 'Goood' .*did "
                         r"you mean 'Good'"),
    ({"skill": 5}, r"sides\.vaclav\[0\]\.skill: must be a ladder level from -3 to 4, got 5"),
    ({"skil": "Good"}, r"sides\.vaclav\[0\]\.skil: unknown key 'skil'; did you mean 'skill'"),
    ({"weapon": {"name": "X"}}, r"sides\.vaclav\[0\]\.weapon: missing key 'bd'"),
    ({"weapon": "Blastr"}, r"weapon: unknown weapon 'Blastr'.*did you mean 'Blaster'"),
    ({"weapon": {"name": "X", "bd": -1}}, r"weapon\.bd: must be at least 0, got -1 "
                                          r"\(allowed: 0 to 10000\)"),
    ({"weapon": {"name": "X", "bd": 4, "concussion": 8}},
     r"X has concussion 8 and no concussion_range"),
    ({"distance": 9}, r"sides\.alien\[0\]\.distance|sides\.vaclav\[0\]\.distance"),
    ({"speed": "sprinting"}, r"unknown speed 'sprinting' \(expected stationary, walking, "
                             r"running, vehicle or aircraft\)"),
    ({"charge": "Dynamite stick"}, r"'skill' is not a key of a charge"),
    ({"cover": "half"}, r"unknown cover 'half'"),
]


@pytest.mark.parametrize(("change", "pattern"), BAD)
def test_bad_members_fail_in_one_line_with_the_place(tmp_path, change, pattern):
    data = duel()
    data["sides"]["vaclav"][0].update(change)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    text = str(err.value)
    assert "\n" not in text and text.startswith(f"{path}:") and re.search(pattern, text), text
    assert err.value.line is not None
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("fuzion-sim: error: ")


SCENARIO_BAD = [
    (lambda d: d["rules"].update(wounds="fire"), r"rules\.wounds: unknown value 'fire' .*did "
                                                 r"you mean 'firearms'"),
    (lambda d: d["rules"].update(round_seconds=0), r"rules\.round_seconds: must be greater "
                                                   r"than 0"),
    (lambda d: (d["sides"]["alien"][0].pop("distance"), d["sides"]["alien"][0].update(
        position=3)), r"give every member a distance"),
    (lambda d: d["sides"]["alien"][0].update(weapon="Hand grenade"),
     r"has a blast.*place everyone by position"),
    (lambda d: (d["rules"].update(scale_beyond_table="error"),
                d["sides"]["alien"][0].update(scale=16)),
     r"relative Scale \+16 is past the table's ±15"),
]


@pytest.mark.parametrize(("change", "pattern"), SCENARIO_BAD)
def test_scenario_level_errors(change, pattern):
    data = duel()
    change(data)
    with pytest.raises(ScenarioError, match=pattern):
        build(data)


def _charges(**charge):
    return {"name": "c", "system": "fudge", "sides": {
        "a": [{"name": "Bomb", "charge": "Dynamite stick", **charge}],
        "b": [{"name": "Wall", "wounds": 3, "position": 1}, {"name": "Man", "position": 4}]}}


@pytest.mark.parametrize(("charge", "pattern"), [
    ({"contact": "Wal"}, r"contact: unknown member 'Wal'; did you mean 'Wall'"),
    ({"contact": "Bomb"}, r"not against the charge Bomb"),
    ({"detonates": 2, "avg_seconds": 5}, r"give detonates \(a round\) or avg_seconds"),
    ({"tamped": True, "tamping": "Good"}, r"give tamped .* or tamping"),
    ({"detonates": 0}, r"detonates must be at least 1"),
    ({"charge": {"name": "Plastique", "bd": 8, "concussion_value": "Good"}},
     r"concussion_value and no concussion"),
])  # fmt: skip
def test_bad_charges(charge, pattern):
    with pytest.raises(ScenarioError, match=pattern):
        build(_charges(**charge))


def test_a_barrier_takes_only_barrier_keys():
    data = _charges(contact="Wall")
    data["sides"]["b"][0]["skill"] = "Good"
    with pytest.raises(ScenarioError, match=r"'skill' is not a key of a barrier"):
        build(data)


WARNINGS = [
    (duel(vaclav={"dodge": "Good"}), "dodge: does nothing under rules.ranged_defence: none"),
    (duel({"ranged_defence": "dodge"}), "Vaclav has no dodge: it dodges at Fair"),
    (duel(vaclav={"aim": "head"}), "aim: does nothing unless rules.hit_locations: aimed"),
    (duel({"wounds": "core"}, vaclav={"wound_width": 3}), "does nothing on the core wound track"),
    (duel(vaclav={"armour": {"points": 2, "scale": 3}}), "does nothing under "
                                                          "rules.armour_scale: wearer"),
    (duel(vaclav={"tactic": "dodge"}), "dodge as a tactic does nothing"),
    (duel({"order": "simultaneous"}), "initiative: does nothing under rules.order"),
    (one_shot(target={"skill": "Good"}), "Target has no weapon, so skill does nothing"),
    (one_shot(shooter={"skill": None}), "Shooter has no skill: it shoots at Fair"),
    (_charges(), "no charge is set against the barrier Wall"),
    (one_shot(target={"speed": "running"}, shooter={"weapon": None}),
     "speed: does nothing: no enemy of Target shoots"),
    (duel({"ranged_defence": "dodge", "dodge_costs_action": True}, vaclav={"dodge": "Good"}),
     "only a member whose tactic is dodge dodges"),
    (duel(vaclav={"weapon": {"name": "L", "bd": 4, "laser": True}, "distance": 12},
          alien={"distance": 12}), "laser: does nothing: no enemy of Vaclav is under 10 m"),
    (_charges(charge={"name": "Dud", "bd": 3}), "Bomb does nothing"),
    (one_shot(target={"ducked": True}, shooter={"weapon": None}),
     "ducked: does nothing: no enemy of Target shoots and nothing explodes"),
    (one_shot(target={"cover": "partial"}, shooter={"weapon": None}),
     "cover: does nothing: no enemy of Target shoots and nothing explodes"),
]


@pytest.mark.parametrize(("data", "text"), WARNINGS)
def test_keys_that_do_nothing_are_warned_about(data, text):
    data = copy.deepcopy(data)
    sc = build(data)
    assert any(text in w for w in sc.warnings), sc.warnings


def test_the_shipped_scenarios_load_without_surprises():
    for path in SHIPPED:
        sc = load_scenario(path)
        assert sc.system == "fudge"
        for warning in sc.warnings:  # only the expected ones
            assert "no skill" not in warning, (path, warning)
