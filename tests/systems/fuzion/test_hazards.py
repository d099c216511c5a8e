"""The environment (seed 000 "THE ENVIRONMENT"; ../shared/rulings/vehicles/:
mechanics.md M-67 to M-71, rulings.md VA-46 to VA-48, examples.md E-12): the ``hazards:`` zones
and a combatant's ``poison:`` and ``resting:``, their validation, the exact ``fuzion-sim
hazard`` answer, the general kernel held to it (one phase's damage pmf by a chi-square, with a
control of the wrong DC that must fail; four phases' sum; E-12's breath), each switch, the
tactics' ``flee_hazard``, ``in_hazard`` and ``breath``, smoke's Perception roll, the fight's end
through a hazard, the dispatch, narration and the results.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import builders
import numpy as np
import pytest
from click.testing import CliRunner
from fight_log import HARMLESS, IDLE, logged
from oracles import agrees, chi2_p

from fuzion_sim import simulate
from fuzion_sim.cli import cli
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import dispatch
from fuzion_sim.systems.fuzion.features.hazards.build import INTENSITY_DC
from fuzion_sim.systems.fuzion.features.hazards.exact import phase_pmf, scenario_hazard

FIRE = {"name": "Fire", "kind": "fire", "dc": 7, "circle": {"center": [0, 0], "radius": 4}}
SMOKE = {"name": "Smoke", "kind": "smoke", "obscures": True, "asphyxiating": True,
         "rect": {"from": [-10, -10], "to": [10, 10]}}  # fmt: skip
COAT = {"name": "Coat", "pd": 2, "ekd": 5}


def person(name, position=(0, 0), **extra):
    """Never falls (10,000 Hits and Stun) and does nothing unless told."""
    base = {"name": name, "weapon": HARMLESS, "skills": {"Melee": 1}, "hits": 10_000,
            "stun": 10_000, "tactics": IDLE, "position": list(position)}  # fmt: skip
    base.update(extra)
    return base


_PEOPLE = (person("T"), person("Far", (500, 0)))


def fight(hazards, target=None, other=None, **keys):
    """The hazard zones ``hazards`` around ``target`` (T, who does nothing, unless given) on
    side a, with ``other`` on side b (a bystander 500 m off unless given)."""
    return builders.fight(target, other, sides=("a", "b"), defaults=_PEOPLE, hazards=hazards,
                          **keys)  # fmt: skip


def counters(sc, n=20_000, seed=3):
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "general"
    return fuzion.run_chunk(plan, chunk_key(seed, 0), 0, n).counters


def as_probs(pmf: dict[int, Fraction], top: int) -> np.ndarray:
    out = np.zeros(top + 1)
    for k, p in pmf.items():
        out[k] = float(p)
    return out


def convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


# --- loading and its errors -----------------------------------------------------------------


def test_a_scenario_with_hazards_loads_and_intensity_gives_the_va46_dc():
    sc = fight([FIRE, SMOKE, {"name": "Crates", "kind": "fire", "intensity": "mild",
                              "rect": {"from": [18, -6], "to": [24, -2]}},
                {"name": "Lightning", "kind": "electricity", "intensity": "deadly",
                 "circle": {"center": [50, 50], "radius": 1}},
                {"name": "Gas", "kind": "poison", "intensity": "strong",
                 "circle": {"center": [50, 50], "radius": 1}}])  # fmt: skip
    hz = {h.name: h for h in sc.scene["hazards"]}
    assert (hz["Fire"].dc, hz["Crates"].dc, hz["Lightning"].dc, hz["Gas"].dc) == (7, 2, 15, 7)
    assert hz["Crates"].geom == (18.0, -6.0, 24.0, -2.0)
    assert hz["Smoke"].obscures and hz["Smoke"].asphyxiating and hz["Smoke"].dc == 0


@pytest.mark.parametrize(("hazard", "text"), [
    ({"name": "X", "kind": "lava", "dc": 3, "circle": {"center": [0, 0], "radius": 1}},
     "unknown hazard kind 'lava'"),
    ({"name": "X", "kind": "fire", "circle": {"center": [0, 0], "radius": 1}},
     "needs dc: N or intensity"),
    ({"name": "X", "kind": "fire", "dc": 3, "intensity": "mild",
      "circle": {"center": [0, 0], "radius": 1}}, "not both"),
    ({"name": "X", "kind": "fire", "intensity": "hot", "circle": {"center": [0, 0], "radius": 1}},
     "unknown intensity 'hot'"),
    ({"name": "X", "kind": "fire", "dc": 3}, "exactly one of circle"),
    ({"name": "X", "kind": "fire", "dc": 3, "circle": {"center": [0, 0], "radius": 1},
      "rect": {"from": [0, 0], "to": [1, 1]}}, "exactly one of circle"),
    ({"name": "X", "kind": "fire", "dc": 3, "circle": {"centre": [0, 0], "radius": 1}},
     "unknown key 'centre'"),
    ({"name": "X", "kind": "fire", "dc": 3, "rect": {"from": [0, 0], "to": [0, 1]}},
     "empty rectangle"),
    ({"name": "X", "kind": "smoke", "rect": {"from": [0, 0], "to": [1, 1]}},
     "neither obscures nor is asphyxiating"),
    ({"name": "X", "kind": "smoke", "dc": 2, "obscures": True,
      "rect": {"from": [0, 0], "to": [1, 1]}}, "smoke does no damage"),
    ({"name": "X", "kind": "fire", "dc": 3, "terrain": "rough",
      "circle": {"center": [0, 0], "radius": 1}}, "terrain: list"),
    ({"name": "X", "kind": "fire", "dc": 3, "radius": 2}, "unknown key 'radius'"),
])  # fmt: skip
def test_bad_hazards_are_clear_errors(hazard, text):
    with pytest.raises(ScenarioError, match=text):
        fight([hazard])


def test_a_misspelt_hazard_key_offers_the_right_one_and_names_the_path():
    bad = dict(FIRE, obscure=True)
    with pytest.raises(ScenarioError) as err:
        fight([bad])
    assert "obscures" in str(err.value) and "hazards[0]" in str(err.value)
    with pytest.raises(ScenarioError, match="hazards"):
        scenario_from_dict({"hazard": [], "sides": {"a": [person("A")], "b": [person("B")]}})


def test_duplicate_hazard_names_are_an_error():
    with pytest.raises(ScenarioError, match="duplicate hazard name"):
        fight([FIRE, FIRE])


def test_poison_and_resting_on_a_combatant():
    sc = fight([], target=person("T", poison={"dc": 5, "pool": "stun"}, resting=True))
    c = sc.combatants[0]
    assert c.poison.dc == 5 and c.poison.pool == "stun" and c.resting
    with pytest.raises(ScenarioError, match="not built yet"):
        fight([], target=person("T", poison={"dc": 5, "pool": "res"}))
    with pytest.raises(ScenarioError, match="unknown pool"):
        fight([], target=person("T", poison={"dc": 5, "pool": "end"}))
    with pytest.raises(ScenarioError, match="unknown intensity"):
        fight([], target=person("T", poison={"intensity": "intense"}))


# --- the exact answer -----------------------------------------------------------------------


def test_phase_pmf_is_the_dice_less_armour():
    pmf = phase_pmf(2, 3)
    assert pmf[0] == Fraction(3, 36) and pmf[9] == Fraction(1, 36)
    assert sum(pmf.values()) == 1
    assert sum(k * p for k, p in phase_pmf(7).items()) == Fraction(49, 2)
    stun = phase_pmf(2, armour=1, killing=False, sd=4)  # stopped by SD 4
    assert stun[0] == Fraction(6, 36)


def test_the_hazard_command_gives_the_pmf_after_armour_and_breath():
    sc = fight([FIRE, SMOKE], target=person("T", armor=COAT))
    answer = scenario_hazard(sc, "Fire", "T")
    assert answer["armour"] == 5
    exact = phase_pmf(7, 5)
    assert answer["damage"]["mean"] == pytest.approx(float(sum(k * p for k, p in exact.items())))
    assert scenario_hazard(sc, "Smoke", "T")["breath_phases"] == 12
    runner = CliRunner()
    path = "scenarios/vehicles/burning-building.yaml"
    got = runner.invoke(cli, ["hazard", path, "--hazard", "Gasoline fire", "--target",
                              "Point man", "--json"])  # fmt: skip
    assert got.exit_code == 0, got.output
    data = json.loads(got.output)
    assert data["dc"] == 7 and data["damage"]["pmf"]
    bad = runner.invoke(cli, ["hazard", path, "--hazard", "Lava", "--target", "Point man"])
    assert bad.exit_code != 0 and "unknown hazard 'Lava'" in bad.output


# --- the kernel against the exact answer ---------------------------------------------------


def test_one_phase_of_fire_matches_the_exact_pmf_and_a_wrong_dc_fails():
    # on_entry: one phase's damage per visit, so a person standing in the fire for the
    # round takes exactly one phase of it
    sc = fight([FIRE], target=person("T", armor=COAT), hazard_timing="on_entry")
    dmg = counters(sc)["hazard_damage"][:, 0]
    exact = phase_pmf(7, 5)
    top = 42
    counts = np.bincount(dmg, minlength=top + 1)[: top + 1]
    p = chi2_p(counts, as_probs(exact, top))
    assert p > 1e-3, p
    wrong = chi2_p(counts, as_probs(phase_pmf(6, 5), top))
    assert wrong < 1e-6, wrong
    mean = float(sum(k * q for k, q in exact.items()))
    assert agrees(dmg.mean(), mean, dmg.std() / math.sqrt(dmg.size))


def test_four_phases_of_fire_are_four_independent_phases():
    sc = fight([FIRE], target=person("T", armor=COAT))
    got = counters(sc)
    dmg = got["hazard_damage"][:, 0]
    assert (got["hazard_phases"][:, 0] == 4).all()
    one = phase_pmf(7, 5)
    four = convolve(convolve(one, one), convolve(one, one))
    top = max(four)
    counts = np.bincount(dmg, minlength=top + 1)[: top + 1]
    assert chi2_p(counts, as_probs(four, top)) > 1e-3


def test_armour_switches_and_electricity_as_stun():
    t = person("T", armor=COAT)
    pd = counters(fight([FIRE], target=t, hazard_armour="pd"), 5000)["hazard_damage"][:, 0]
    assert agrees(pd.mean(), 4 * float(sum(k * p for k, p in phase_pmf(7, 2).items())),
                  pd.std() / math.sqrt(pd.size))
    none = counters(fight([FIRE], target=t, hazard_armour="none"), 5000)["hazard_damage"][:, 0]
    assert agrees(none.mean(), 4 * 24.5, none.std() / math.sqrt(none.size))
    zap = dict(FIRE, kind="electricity")
    sc = fight([zap], target=person("T", stats={"CON": 5}), electricity_damage="stun")
    dmg = counters(sc, 5000)["hazard_damage"][:, 0]
    exact = 4 * float(sum(k * p for k, p in phase_pmf(7, 0, False, 10).items()))
    assert agrees(dmg.mean(), exact, dmg.std() / math.sqrt(dmg.size))


def test_e12_breath_con5_active_holds_12_phases_and_resting_25():
    got = counters(fight([SMOKE], max_rounds=8), 4000)
    assert (got["breath_out"][:, 0] == 1).all()
    assert (got["breathless"][:, 0] == 13).all()  # 12 phases held, the first 3d6 in the 13th
    dmg = got["hazard_damage"][:, 0]  # 3d6 in phases 13 to 32
    assert agrees(dmg.mean(), 20 * 10.5, dmg.std() / math.sqrt(dmg.size))
    rest = counters(fight([SMOKE], target=person("T", resting=True), max_rounds=8), 100)
    assert (rest["breathless"][:, 0] == 26).all()
    tough = counters(fight([SMOKE], target=person("T", stats={"CON": 10}), max_rounds=8), 100)
    assert (tough["breathless"][:, 0] == 26).all()  # CON 10: 25 phases (E-12)


def test_breath_comes_back_on_exit_and_only_after_rest_with_the_switch():
    leaver = person("T", tactics=[{"when": "breath < 3", "do": "flee_hazard"}, {"do": "none"}],
                    stats={"MOVE": 10})
    got = counters(fight([SMOKE], target=leaver, max_rounds=8), 200)
    assert (got["breath_out"][:, 0] == 0).all()
    assert (got["hazard_phases"][:, 0] == 10).all()  # out in its 11th action


def test_poison_every_minute_or_every_phase():
    got = counters(fight([], target=person("T", poison={"dc": 5}), max_rounds=12), 5000)
    dmg = got["hazard_damage"][:, 0]  # 5d6 at phases 20 and 40
    assert agrees(dmg.mean(), 35.0, dmg.std() / math.sqrt(dmg.size))
    turn = counters(fight([], target=person("T", poison={"dc": 2}), max_rounds=1,
                          poison_timing="turn"), 5000)["hazard_damage"][:, 0]
    assert agrees(turn.mean(), 4 * 7.0, turn.std() / math.sqrt(turn.size))
    stun = person("T", poison={"dc": 2, "pool": "stun"}, stun=20, hits=30)
    sc = fight([], target=stun, max_rounds=3, poison_timing="turn")
    out, events = logged(sc)
    assert any(e["kind"] == "hazard" for e in events)
    assert out.counters["hazard_out"][0, 0] == 1  # Stun 0: out (a drug on Stun alone)


def test_e11_mind_control_serum():
    # ../shared/rulings/vehicles/examples.md E-11 (seed L854): "a strong dose of Mind Control
    # Serum (DC5) ... Each turn, the drug does 5 to 30 points". Recomputed: 5d6 is 5 to 30,
    # mean 17.5, and DC 5 lies in the seed's Strong band (DC 5-10, L848-852), whose middle is
    # the VA-46 intensity (7). The timing contradicts L844 ("each minute, not phase"): the
    # rule wins (poison_timing: minute, its first dose at phase 20) and the example's "each
    # turn" is the switch. Resistance is not a pool yet: the drug works on Stun here.
    assert 5 <= INTENSITY_DC["poison"]["strong"] <= 10
    serum = {"dc": 5, "pool": "stun"}
    n = 6000

    def damage(rounds, **rules):
        sc = fight([], target=person("Jake", poison=serum), max_rounds=rounds, **rules)
        return counters(sc, n)["hazard_damage"][:, 0]

    assert (damage(4) == 0).all()  # 16 phases: no minute yet
    one = damage(5)  # the dose of phase 20
    pmf = phase_pmf(5)
    assert (min(pmf), max(pmf)) == (5, 30) and sum(k * p for k, p in pmf.items()) == 17.5
    assert one.min() >= 5 and one.max() <= 30
    counts = np.bincount(one, minlength=31)[5:]
    assert chi2_p(counts, as_probs(pmf, 30)[5:]) > 1e-3
    dc4 = as_probs(phase_pmf(4), 30)[5:]  # control: DC 4 (4 to 24) must fail
    assert chi2_p(counts, (dc4 + 1e-9) / (dc4 + 1e-9).sum()) < 1e-6
    each_turn = damage(1, poison_timing="turn")  # the example's reading: a dose a phase
    assert agrees(each_turn.mean(), 4 * 17.5, each_turn.std() / math.sqrt(n))


def test_a_gas_zone_doses_who_ends_a_phase_in_it():
    gas = {"name": "Gas", "kind": "poison", "dc": 3, "circle": {"center": [0, 0], "radius": 2}}
    got = counters(fight([gas], max_rounds=1, poison_timing="turn"), 5000)
    dmg = got["hazard_damage"][:, 0]  # dosed at the end of phase 1; 3d6 in phases 2 to 4
    assert agrees(dmg.mean(), 3 * 10.5, dmg.std() / math.sqrt(dmg.size))


# --- the fight, tactics, smoke --------------------------------------------------------------


def test_a_hazard_puts_people_out_and_ends_the_fight():
    burnt = person("T", hits=30, stun=30)
    res = simulate(fight([FIRE], target=burnt, max_rounds=4), trials=4000, seed=2, threads=1)
    assert res.win_probability("b") == 1.0
    row = next(r for r in res.combatant_stats() if r["combatant"] == "T")
    assert row["out_by_hazard_mean"] == 1.0 and row["hazard_damage_mean"] > 30


def test_flee_hazard_runs_out_by_the_shortest_way():
    runner = person("T", position=(1, 0), tactics=[{"when": "in_hazard", "do": "flee_hazard"},
                                                   {"do": "none"}])  # fmt: skip
    out, events = logged(fight([FIRE], target=runner))
    moves = [e for e in events if e["kind"] == "move" and e["action"] == "flee_hazard"]
    assert moves and moves[0]["x"] == pytest.approx(4.01, abs=0.011) and moves[0]["y"] == 0
    assert out.counters["hazard_damage"][0, 0] == 0
    rect = {"name": "R", "kind": "fire", "dc": 1, "rect": {"from": [-5, -2], "to": [5, 10]}}
    out, events = logged(fight([rect], target=runner))
    moves = [e for e in events if e["kind"] == "move"]
    assert moves[0]["y"] == pytest.approx(-2.01, abs=0.011) and moves[0]["x"] == pytest.approx(1)


def test_in_hazard_and_breath_in_conditions_and_a_fight_without_hazards():
    waits = person("T", tactics=[{"when": "breath == 12 and not in_hazard", "do": "aim"},
                                 {"do": "none"}])  # fmt: skip
    _, events = logged(fight([], target=waits))
    assert events[0]["kind"] == "aim"  # full breath outside any zone


def test_smoke_obscures_with_the_perception_roll_inside_only():
    inside = person("T")
    _, events = logged(fight([SMOKE], target=inside))
    rolls = [e for e in events if e["kind"] == "perception"]
    assert len(rolls) == 4 and all(e["raw"] in (2, 4) for e in rolls)
    _, events = logged(fight([dict(SMOKE, rect={"from": [100, 100], "to": [110, 110]})]))
    assert not [e for e in events if e["kind"] == "perception"]


def test_vehicles_and_objects_are_not_hurt():
    crate = {"name": "Crate", "sdp": 50, "weapon": HARMLESS, "tactics": IDLE,
             "position": [0, 0]}
    got = counters(fight([FIRE], target=crate), 100)
    assert (got["hazard_damage"][:, 0] == 0).all()


def test_hazards_go_to_the_general_kernel_only():
    a = person("T", tactics="default")
    b = person("U", (3, 0), tactics="default")
    assert fuzion.compile_scenario(fight([], target=a, other=b)).kernel != "general"
    plan = fuzion.compile_scenario(fight([FIRE], target=a, other=b))
    assert plan.kernel == "general"
    assert "hazards" in dispatch.blocking_keys(plan.arrays, "duel")
    poisoned = fight([], target=person("T", poison={"dc": 1}))
    plan = fuzion.compile_scenario(poisoned)
    assert plan.kernel == "general"
    assert "member.poison" in dispatch.blocking_keys(plan.arrays, "standing")


def test_the_replay_narrates_hazards():
    from fuzion_sim.api import replay

    sc = fight([FIRE, SMOKE], max_rounds=4)
    lines = replay(sc, trial=0)["lines"]
    text = "\n".join(lines)
    assert "takes fire damage from Fire" in text
    assert "is out of breath" in text
