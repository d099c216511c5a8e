"""The kernel choice: one table of what each kernel honours, held to the kernels.

``dispatch.HONOURS`` states for every scenario key when each specialised kernel honours it;
these tests check that the table names every key there is, and hold every specialised kernel
that claims a randomly drawn fight to the general kernel, trial by trial (hypothesis).
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import DRAWN, fight

from fuzion_sim.engine.outcomes import Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import TOP_KEYS, scenario_from_dict
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import compile as fcompile
from fuzion_sim.systems.fuzion import dispatch
from fuzion_sim.systems.fuzion.build import (
    AREA_KEYS,
    ARMOR_KEYS,
    COMBATANT_KEYS,
    SIDE_KEYS,
    WEAPON_KEYS,
)
from fuzion_sim.systems.fuzion.features.hazards.build import HAZARD_KEYS, POISON_KEYS
from fuzion_sim.systems.fuzion.features.scene.build import DROP_KEYS, OBSTACLE_KEYS, TERRAIN_KEYS
from fuzion_sim.systems.fuzion.features.scene.throws import THROWN_KEYS
from fuzion_sim.systems.fuzion.features.vehicles.build import (
    CREW_KEYS,
    VEHICLE_KEYS,
    VEHICLE_WEAPON_KEYS,
)
from fuzion_sim.systems.fuzion.model import RULE_SWITCHES, SWITCHES
from fuzion_sim.systems.fuzion.system import SYSTEM as FUZION

#: Keys the property test does not draw, and why: no specialised kernel claims them in use
#: (the table sends a fight that uses them to the general kernel), or they are descriptive.
NOT_DRAWN = {
    "description": "descriptive",
    "armor.description": "descriptive", "armor.notes": "descriptive",
    "armor.category": "descriptive", "armor.cost": "descriptive",
    "weapon.notes": "descriptive", "weapon.category": "descriptive", "weapon.cost": "descriptive",
    "weapon.hands": "descriptive",
    "member.obscured": "general kernel only", "member.drawn": "general kernel only",
    "member.abort": "general kernel only", "member.sdp": "general kernel only",
    "member.kills": "general kernel only",
    "weapon.kills": "general kernel only",
    "weapon.missile": "general kernel only",
    # vehicles and their crews: every key and switch of theirs, the general kernel
    "member.vehicle": "general kernel only",
    **{f"vehicle.{k}": "general kernel only" for k in VEHICLE_KEYS},
    **{f"crew.{k}": "general kernel only" for k in CREW_KEYS},
    **{f"vehicle_weapon.{k}": "general kernel only" for k in VEHICLE_WEAPON_KEYS},
    **{f"rules.{k}": "general kernel only" for k, v in SWITCHES.items()
       if v.ruling.startswith("VA-") and k != "moving_target"},  # VA-16: drawn (standing)
    # the mecha rules (F30): read only with a vehicle, or powered armour (general kernel only)
    "rules.staged_penetration": "general kernel only",
    "rules.structural_integrity": "general kernel only",
    "rules.powered_armour": "general kernel only", "armor.sdp": "general kernel only",
    # falls and knockback into obstacles: the general kernel
    "obstacles": "general kernel only", "drops": "general kernel only",
    "member.weight": "general kernel only", "rules.obstacles_block": "general kernel only",
    **{f"obstacle.{k}": "general kernel only" for k in OBSTACLE_KEYS},
    **{f"drop.{k}": "general kernel only" for k in DROP_KEYS},
    "terrain": "general kernel only", "rules.terrain_effect": "general kernel only",
    **{f"terrain.{k}": "general kernel only" for k in TERRAIN_KEYS},
    # the environment (hazards, breath, poison): the general kernel
    "hazards": "general kernel only", "member.poison": "general kernel only",
    "member.resting": "general kernel only", "member.push": "general kernel only",
    **{f"hazard.{k}": "general kernel only" for k in HAZARD_KEYS},
    **{f"poison.{k}": "general kernel only" for k in POISON_KEYS},
    # a thrown object (M-73, VA-49): its objects are a magazine never reloaded
    "weapon.thrown": "general kernel only",
    **{f"thrown.{k}": "general kernel only" for k in THROWN_KEYS},
}  # fmt: skip


def scenario_keys() -> set[str]:
    """Every key a Fuzion scenario may hold, spelt as in ``dispatch.HONOURS``."""
    return (
        set(TOP_KEYS)
        | set(FUZION.scene_keys)
        | {f"obstacle.{k}" for k in OBSTACLE_KEYS}
        | {f"drop.{k}" for k in DROP_KEYS}
        | {f"terrain.{k}" for k in TERRAIN_KEYS}
        | {f"hazard.{k}" for k in HAZARD_KEYS}
        | {f"poison.{k}" for k in POISON_KEYS}
        | {f"side.{k}" for k in ("members", *SIDE_KEYS)}
        | {f"member.{k}" for k in COMBATANT_KEYS}
        | {f"weapon.{k}" for k in WEAPON_KEYS}
        | {f"weapon.area.{k}" for k in AREA_KEYS}
        | {f"thrown.{k}" for k in THROWN_KEYS}
        | {f"armor.{k}" for k in ARMOR_KEYS}
        | {f"rules.{k}" for k in RULE_SWITCHES}
        | {f"vehicle.{k}" for k in VEHICLE_KEYS}
        | {f"crew.{k}" for k in CREW_KEYS}
        | {f"vehicle_weapon.{k}" for k in VEHICLE_WEAPON_KEYS}
    )


def test_every_key_has_a_row_and_every_row_a_key():
    rows = [row.key for row in dispatch.HONOURS]
    assert len(rows) == len(set(rows)), "a key with two rows"
    assert set(rows) == scenario_keys()


def test_the_property_test_draws_every_key_a_fast_kernel_claims():
    rows = {row.key for row in dispatch.HONOURS}
    assert DRAWN | set(NOT_DRAWN) == rows
    assert not DRAWN & set(NOT_DRAWN)
    # a key no specialised kernel claims in use is one whose every condition is a "not used"
    for key in NOT_DRAWN:
        row = next(r for r in dispatch.HONOURS if r.key == key)
        if NOT_DRAWN[key] == "general kernel only":
            assert all(row.condition(k) is not None for k in dispatch.SPECIALISED), key


def _same_trials(plan, general, seed, n):
    key = chunk_key(seed, 0)
    a = fuzion.run_chunk(plan, key, 0, n)
    b = fuzion.run_chunk(general, key, 0, n)
    names = [f.name for f in fields(a) if f.name not in ("counters", "categories")]
    for name in names:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name),
                                      err_msg=f"{plan.kernel} kernel: {name}")  # fmt: skip
    for group in ("counters", "categories"):
        for extra, value in getattr(b, group).items():
            np.testing.assert_array_equal(getattr(a, group)[extra], value, err_msg=extra)
    slots = fuzion.max_slots(plan)
    streamed = fuzion.tally_chunk(plan, key, 0, n).to_state()
    for field, value in Tally.of(b, plan.n_sides, slots).to_state().items():
        np.testing.assert_array_equal(streamed[field], value, err_msg=field)


def check(data: dict, must: str | None = None) -> None:
    """Every specialised kernel that claims ``data``'s fight (``must``: that one must) gives
    the general kernel's trials, per trial and streamed into a tally."""
    sc = scenario_from_dict(data)
    plan = fcompile.compile_scenario(sc)
    claimed = [k for k in dispatch.SPECIALISED if not dispatch.blocking_keys(plan, k)]
    if must is not None:
        assume(must in claimed)
    picked = fuzion.compile_scenario(sc)
    assert picked.kernel == (claimed[0] if claimed else "general")
    general = fuzion.compile_scenario(sc, kernel="general")
    for name in claimed:
        _same_trials(fuzion.compile_scenario(sc, kernel=name), general, sc.seed, sc.trials)


_SETTINGS = settings(
    max_examples=100, derandomize=True, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)  # fmt: skip


@pytest.mark.parametrize("kind", ["duel", "squad", "standing"])
@_SETTINGS
@given(data=st.data())
def test_each_specialised_kernel_equals_the_general_kernel(kind, data):
    """Fights drawn for one specialised kernel: it (and every other kernel that claims the
    fight) gives the general kernel's trials bit for bit."""
    check(data.draw(fight(kind)), must=kind)


@settings(_SETTINGS, max_examples=200)
@given(data=st.data())
def test_the_chosen_kernel_equals_the_general_kernel(data):
    """Fights drawn without bias (some move, reload or run tactics): whatever kernel the table
    picks gives the general kernel's trials."""
    check(data.draw(fight("any")))


def _four_gunmen(targeting: str, tactics: bool) -> dict:
    """The symmetry check: four identical gunmen at the corners of a 10 m square."""
    def gunman(name, x, y):
        m = {"name": name, "skills": {"Handgun": 5}, "weapon": "Medium Pistol",
             "position": [x, y], "targeting": targeting}  # fmt: skip
        if tactics:
            m["tactics"] = [{"do": "attack"}]
        return m

    return {"name": "targeting check", "system": "fuzion", "trials": 20_000, "seed": 1,
            "sides": {"a": [gunman("A1", 0, 0), gunman("A2", 0, 10)],
                      "b": [gunman("B1", 10, 0), gunman("B2", 10, 10)]}}  # fmt: skip


def _p_out_spread(data: dict, kernel: str | None = None) -> float:
    """The largest distance of a gunman's P(out) from the four's mean, in standard errors."""
    from fuzion_sim import simulate

    sc = scenario_from_dict(data)
    if kernel is not None:
        assert fuzion.compile_scenario(sc).kernel == kernel
    table = simulate(sc, progress=False).combatant_table()
    p = table["p_out"].to_numpy()
    se = np.sqrt(p.mean() * (1 - p.mean()) / sc.trials)
    return float(np.abs(p - p.mean()).max() / se)


@pytest.mark.parametrize("targeting", ["random", "nearest"])
@pytest.mark.parametrize("tactics", [False, True])
def test_four_identical_gunmen_are_out_equally_often(targeting, tactics):
    """Under a symmetric targeting rule, with or without a tactic, four identical
    gunmen are out equally often (within 4 SE), on the squad kernel. ``first`` (both sides
    shoot A1 or B1 first) is the control that must be lopsided; ``weakest`` and ``focus`` are
    lopsided too, by the rule (they start on the first listed), on every kernel alike."""
    assert _p_out_spread(_four_gunmen(targeting, tactics), kernel="squad") < 4
    if targeting == "random":
        assert _p_out_spread(_four_gunmen("first", tactics), kernel="squad") > 20


def test_a_vehicle_fight_runs_on_the_general_kernel_only():
    """Every vehicle key's condition fails for the specialised kernels when a vehicle fights,
    and holds when none does."""
    data = {"name": "t", "sides": {
        "a": [{"name": "Car", "vehicle": {"class": "ground", "sdp": 30, "crew": [
            {"name": "Driver", "role": "pilot", "skills": {"Driving": 3}}]},
            "tactics": [{"do": "none"}]}],
        "b": [{"name": "B", "skills": {"Handgun": 4}, "weapon": "Colt Revolver",
               "position": 3, "tactics": [{"do": "attack"}]}]}}  # fmt: skip
    plan = fcompile.compile_scenario(scenario_from_dict(data))
    assert dispatch.kernel_for(plan) == "general"
    for kernel in dispatch.SPECIALISED:
        assert "member.vehicle" in dispatch.blocking_keys(plan, kernel)
        assert "a vehicle or mecha" in dispatch.blocking_reasons(plan, kernel)
    assert dispatch.no_vehicles(fcompile.compile_scenario(scenario_from_dict({
        "name": "t", "sides": {"a": [data["sides"]["b"][0]],
                               "b": [{**data["sides"]["b"][0], "name": "C"}]}})))
