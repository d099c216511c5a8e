"""ROF of a weapon without autofire (F15, ``semi_auto_rof``): a Magnum Pistol (ROF 2) asked to
``fire: 2`` makes two attacks in its action under ``extra_attacks`` (the seed: ROF is how many
times the attack can be shot in a phase), one under ``one_shot``; ``fire:`` above what the
weapon can do is a load error."""

from __future__ import annotations

import copy
import math

import pytest
import yaml
from click.testing import CliRunner

from fuzion_sim import simulate
from fuzion_sim.api import exact_attack, exact_fight, replay
from fuzion_sim.cli import cli
from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems.base import NotAvailable
from fuzion_sim.systems.fuzion import dispatch
from fuzion_sim.systems.fuzion.run import compile_scenario

#: Two gunmen 3 m apart with Magnum Pistols (DC 5, ROF 2, no autofire).
DUEL = {
    "name": "Magnum duel",
    "system": "fuzion",
    "trials": 20_000,
    "seed": 3,
    "max_rounds": 20,
    "rules": {"impairment": False, "stunned": False},
    "sides": {
        "a": [{"name": "Ann", "stats": {"REF": 6, "DEX": 5, "BODY": 5},
               "skills": {"Handgun": 4, "Ranged Evade": 3}, "weapon": "Magnum Pistol",
               "armor": "Light Kevlar", "position": 0}],
        "b": [{"name": "Bob", "stats": {"REF": 7, "DEX": 5, "BODY": 5},
               "skills": {"Handgun": 4, "Ranged Evade": 3}, "weapon": "Magnum Pistol",
               "armor": "Light Kevlar", "position": 3}],
    },
}  # fmt: skip


def duel(fire=None, **rules) -> dict:
    data = copy.deepcopy(DUEL)
    data["rules"].update(rules)
    if fire is not None:
        data["sides"]["a"][0]["tactics"] = [{"do": "attack", "fire": fire}]
    return data


def test_two_shots_change_the_exact_answer_and_the_simulation_agrees():
    """Ann's second attack a phase raises her exact chance against the plain duel's, and the
    general kernel's simulation of it lies within 4 standard errors of the chain's answer
    (the plain duel's answer, the control, lies far outside)."""
    plain = exact_fight(scenario_from_dict(duel()))["sides"]["a"]["win_probability"]
    one_shot = exact_fight(scenario_from_dict(duel(semi_auto_rof="one_shot")))
    assert one_shot["sides"]["a"]["win_probability"] == plain
    sc = scenario_from_dict(duel(fire=2))
    two = exact_fight(sc)["sides"]["a"]["win_probability"]
    assert two > plain + 0.1
    assert exact_fight(scenario_from_dict(duel(fire="all")))["sides"]["a"][
        "win_probability"] == two  # fmt: skip
    assert compile_scenario(sc).kernel == "general"
    p = simulate(sc, progress=False).win_probability("a")
    se = math.sqrt(two * (1 - two) / sc.trials)
    assert abs(p - two) < 4 * se, (p, two, se)
    assert abs(p - plain) > 4 * se


def test_each_shot_is_its_own_attack_and_round():
    """The replay shows two attack lines of Ann's in each of her actions while rounds last: a
    magazine of 3 gives two attacks, then one, then a reload."""
    data = duel(fire=2)
    data["sides"]["a"][0]["weapon"] = {"name": "Pistol", "skill": "Handgun", "dc": 1,
                                       "range": 50, "rof": 2, "shots": 3}  # fmt: skip
    data["sides"]["b"][0].update(hits=200, stun=200, tactics=[{"do": "none"}])
    rep = replay(scenario_from_dict(data), 0, seed=1)
    ann = [e for e in rep["events"] if e.get("actor") == "Ann"]
    kinds = [e["kind"] for e in ann[:4]]
    assert kinds == ["attack", "attack", "attack", "reload"], kinds
    assert ann[0]["time"] == ann[1]["time"] != ann[2]["time"]


def test_the_kernel_table_sends_extra_attacks_to_the_general_kernel():
    plan = compile_scenario(scenario_from_dict(duel(fire=2)), kernel="general").arrays
    assert dispatch.kernel_for(plan) == "general"
    assert "rules.semi_auto_rof" in dispatch.blocking_keys(plan, "duel")
    assert compile_scenario(scenario_from_dict(duel())).kernel == "duel"
    assert compile_scenario(scenario_from_dict(duel(fire=1))).kernel == "duel"


def test_the_attack_oracle_says_it_does_not_apply():
    sc = scenario_from_dict(duel(fire=2))
    with pytest.raises(NotAvailable, match="shot 2 times an action"):
        exact_attack(sc, "Ann", "Bob")
    assert exact_attack(scenario_from_dict(duel()), "Ann", "Bob")["attack"]["av"] > 0


@pytest.mark.parametrize(
    ("fire", "weapon", "rules", "words"),
    [
        (3, "Magnum Pistol", {}, ["Ann's Magnum Pistol (ROF 2)", "semi_auto_rof: extra_attacks"]),
        (2, "Magnum Pistol", {"semi_auto_rof": "one_shot"},
         ["Ann's Magnum Pistol (ROF 2)", "semi_auto_rof: one_shot"]),
        (2, "Colt Revolver", {}, ["Ann's Colt Revolver (ROF 1)", "semi_auto_rof"]),
        (30, {"name": "SMG", "skill": "Handgun", "dc": 3, "range": 200, "rof": 20,
              "autofire": True}, {}, ["Ann's SMG (ROF 20)", "autofire"]),
        (2, "Broadsword", {}, ["Ann's Broadsword", "melee"]),
    ],
)  # fmt: skip
def test_fire_above_what_the_weapon_can_is_an_error(tmp_path, fire, weapon, rules, words):
    data = duel(fire=fire, **rules)
    data["sides"]["a"][0]["weapon"] = weapon
    with pytest.raises(ScenarioError) as err:
        scenario_from_dict(data)
    assert "sides.a[0].tactics[0].fire" in str(err.value)
    for word in words:
        assert word in str(err.value)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    res = CliRunner().invoke(cli, ["run", str(path), "--trials", "10"])
    assert res.exit_code == 2
    assert "Traceback" not in res.output and "bad.yaml:" in res.output
    assert len(res.output.strip().splitlines()) == 1
