"""Vehicle weapons (../shared/rulings/vehicles/ M-19, M-76, VA-05, VA-15):
a crew member who operates several weapons and tactics that pick one by name
(``do: attack, weapon: NAME``), each weapon keeping its own magazine; fixed mounts that bear
only on their arc, so the vehicle turns to bring them to bear (and a gunner waits for it).
"""

from __future__ import annotations

from dataclasses import fields
from functools import partial

import numpy as np
import pytest
from builders import fight
from fight_log import logged

from fuzion_sim import replay
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import codes, dispatch
from fuzion_sim.systems.fuzion.arsenal import bears
from fuzion_sim.systems.fuzion.compile import compile_scenario as compile_plan

PILOT = {"name": "Pilot", "role": "pilot", "stats": {"REF": 8, "DEX": 6},
         "skills": {"Driving": 4, "Gunnery": 6}}  # fmt: skip
CANNON = {"name": "Cannon", "skill": "Gunnery", "dc": 8, "range": 300}
POPGUN = {"name": "Popgun", "skill": "Gunnery", "dc": 1, "range": 300}


def tank(weapons, tactics=None, crew=None, heading=0.0, speed=0):
    member = {"name": "Tank", "vehicle": {
        "class": "ground", "sdp": 60, "move": 10, "speed": speed, "heading": heading,
        "crew": crew or [PILOT], "weapons": weapons}, "armor": {"name": "Plate", "pd": 6},
        "position": [0, 0]}  # fmt: skip
    if tactics is not None:
        member["tactics"] = tactics
    return member


def target(position=(40, 0), **extra):
    return {"name": "Target", "stats": {"REF": 5, "DEX": 5, "BODY": 6},
            "skills": {"Handgun": 3}, "weapon": "Colt Revolver", "position": list(position),
            "tactics": [{"do": "none"}], **extra}  # fmt: skip


sc = partial(fight, sides=("tank", "foot"), defaults=(None, target()), max_rounds=3)


def outcomes(scenario, n=300, seed=7):
    """(the compiled arrays, the per-trial outcomes of a run of ``n`` trials)."""
    plan = fuzion.compile_scenario(scenario)
    assert plan.kernel == "general"
    return compile_plan(scenario), fuzion.run_chunk(plan, chunk_key(seed, 0), 0, n)


def assert_same(a, b):
    for f in fields(a):
        if f.name not in ("counters", "categories"):
            np.testing.assert_array_equal(getattr(a, f.name), getattr(b, f.name), f.name)


def test_a_rule_picks_the_weapon_it_names():
    """Two weapons, the tactic names the second: the fight is the one with that weapon alone,
    trial by trial; naming the first gives the first's; and they differ (a control)."""
    both = sc(tank([POPGUN, CANNON], [{"do": "attack", "weapon": "Cannon"}]))
    plan, picked = outcomes(both)
    assert list(plan.arm_start) == [0, 2, -1]  # the tank, its pilot (who never acts), Target
    assert both.combatants[0].weapon.name == "Popgun"
    assert [w.name for w in both.combatants[0].arsenal] == ["Popgun", "Cannon"]
    _, alone = outcomes(sc(tank([CANNON], [{"do": "attack"}])))
    assert_same(picked, alone)
    _, first = outcomes(sc(tank([POPGUN, CANNON], [{"do": "attack", "weapon": "Popgun"}])))
    _, popgun = outcomes(sc(tank([POPGUN], [{"do": "attack"}])))
    assert_same(first, popgun)
    assert first.dealt[:, 0].mean() + 5 < picked.dealt[:, 0].mean()  # the control differs


def test_each_weapon_keeps_its_magazine_and_the_trial_starts_with_the_first():
    """One shot in each weapon: cannon, popgun, then the cannon again finds its magazine as it
    left it (empty, so the action reloads it) instead of the popgun's or a full one; every
    trial starts with full magazines."""
    rules = [{"when": "phase == 2", "do": "attack", "weapon": "Popgun"},
             {"do": "attack", "weapon": "Cannon"}]  # fmt: skip
    one = {"shots": 1, "reload_actions": 1}
    scenario = sc(tank([{**POPGUN, **one}, {**CANNON, **one}], rules),
                  target(hits=400, stun=400))  # fmt: skip
    for trial in (0, 1):
        _, events = logged(scenario, trial)
        mine = [e["kind"] for e in events if e.get("actor") == "Tank"][:3]
        assert mine == ["attack", "attack", "reload"], mine


def test_bears_by_arc():
    """VA-05's quarters from the heading (+x): front and rear 45 degrees each side (their edges
    belong to them), left counter-clockwise, right clockwise, sides both."""
    cases = {(1, 0): "front", (1, 1): "front", (0, 1): "left", (0, -1): "right",
             (-1, 0): "rear", (-1, -1): "rear", (-1, 2): "left"}  # fmt: skip
    arcs = {"front": codes.ARC_FRONT, "rear": codes.ARC_REAR, "left": codes.ARC_LEFT,
            "right": codes.ARC_RIGHT}  # fmt: skip
    for (dx, dy), where in cases.items():
        for name, arc in arcs.items():
            assert bears(arc, float(dx), float(dy), 0.0, 45.0) == (name == where), (dx, dy, name)
        assert bears(codes.ARC_SIDES, float(dx), float(dy), 0.0, 45.0) == (
            where in ("left", "right"))
        assert bears(codes.ARC_ALL, float(dx), float(dy), 0.0, 45.0)


def test_a_fixed_mount_turns_the_vehicle_to_bear():
    """A fixed gun (front arc, -4) at a target behind: the tank's first action turns it, then
    it fires; the same target ahead is fired on at once. A turret fires at once either way."""
    fixed = {**CANNON, "mount": "fixed"}
    tough = {"hits": 400, "stun": 400}
    behind = sc(tank([fixed], [{"do": "attack"}]), target((-40, 0), **tough))
    _, events = logged(behind, 0)
    mine = [e for e in events if e.get("actor") == "Tank" or e["kind"] == "out_of_arc"]
    assert mine[0]["kind"] == "out_of_arc" and mine[0]["hit"]  # turned (FLAG_HIT)
    assert mine[1]["kind"] == "attack"
    plan, out_behind = outcomes(behind)
    _, out_ahead = outcomes(sc(tank([fixed], [{"do": "attack"}]), target((40, 0), **tough)))
    assert plan.w_arc[0] == codes.ARC_FRONT and plan.att_mod_r[0] == -4
    assert (out_behind.attacks[:, 0] == out_ahead.attacks[:, 0] - 1).all()
    _, out_turret = outcomes(sc(tank([CANNON], [{"do": "attack"}]), target((-40, 0), **tough)))
    assert (out_turret.attacks[:, 0] == out_ahead.attacks[:, 0]).all()


def test_a_gunner_cannot_turn_the_vehicle():
    """The gunner's fixed rear gun never bears on a target ahead (the pilot does nothing): no
    attack in any trial, and the log says why."""
    gunner = {"name": "Gunner", "role": "gunner", "stats": {"REF": 7}, "skills": {"Gunnery": 5}}
    rear = {**CANNON, "mount": "fixed", "arc": "rear", "operator": "Gunner"}
    scenario = sc(tank([rear], crew=[PILOT, gunner]), target((40, 0)))
    _, out = outcomes(scenario, n=100)
    assert (out.attacks[:, 2] == 0).all() and (out.taken[:, 3] == 0).all()
    _, events = logged(scenario, 0)
    assert any(e["kind"] == "out_of_arc" and not e["hit"] for e in events)


def test_narration_of_a_turn():
    fixed = {**CANNON, "mount": "fixed"}
    lines = replay(sc(tank([fixed], [{"do": "attack"}]), target((-40, 0))), 0, seed=1)["lines"]
    assert any("Tank turns to bring its weapon to bear on Target" in line for line in lines)


@pytest.mark.parametrize(("vehicle", "where", "message", "suggestion"), [
    (tank([POPGUN, CANNON], [{"do": "attack", "weapon": "Canon"}]), "sides.tank[0].tactics[0]"
     ".weapon", "'Canon' is not a weapon this combatant fires (Popgun, Cannon)", "Cannon"),
    (tank([POPGUN, CANNON], [{"do": "run", "weapon": "Cannon"}]), "sides.tank[0].tactics[0]"
     ".weapon", "'weapon' does not apply to action 'run'", None),
    (tank([POPGUN, {**CANNON, "name": "Popgun"}]), "sides.tank[0].vehicle.weapons[1].name",
     "Pilot already operates a weapon named 'Popgun'", None),
    (tank([{**CANNON, "arc": "frnt"}]), "sides.tank[0].vehicle.weapons[0].arc",
     "unknown arc 'frnt'", "front"),
])  # fmt: skip
def test_bad_weapon_choices_are_one_clear_error(vehicle, where, message, suggestion):
    with pytest.raises(ScenarioError) as err:
        sc(vehicle)
    assert message in str(err.value) and where in str(err.value), str(err.value)
    assert err.value.suggestion == suggestion


def test_a_person_may_name_its_own_weapon_only():
    named = target(tactics=[{"do": "attack", "weapon": "Colt Revolver"}])
    other = target(name="Other")
    assert scenario_from_dict({"name": "t", "sides": {"a": [named], "b": [other]}})
    with pytest.raises(ScenarioError, match="'Cannon' is not a weapon this combatant fires"):
        scenario_from_dict({"name": "t", "sides": {
            "a": [target(tactics=[{"do": "attack", "weapon": "Cannon"}])], "b": [other]}})


def test_several_weapons_run_on_the_general_kernel_only():
    assert dispatch.kernel_for(compile_plan(sc(tank([POPGUN, CANNON])))) == "general"


# --- the Weapon location lost (VA-11 weapon_disable_pct) ------------------------------------


def _weaponless(pct, **rules):
    """A tank whose pilot fires a cannon at a sharpshooter who acts first (REF 10) and calls
    every shot at the tank's Weapon row (x1/2 of 3d6 through no armour: 1 SDP or more, past 5%
    of 20 SDP)."""
    shooter = target(stats={"REF": 10, "DEX": 5, "BODY": 6}, skills={"Rifle": 40},
                     weapon={"name": "Rifle", "dc": 3, "skill": "Rifle", "range": 300},
                     tactics=[{"do": "attack"}], called_shot="weapon",
                     hits=10_000, stun=10_000)  # fmt: skip
    vehicle = tank([{**CANNON, "operator": "Pilot", "mount": "turret"}])
    vehicle["vehicle"]["sdp"] = 10_000 if pct == 0 else 20
    vehicle["armor"] = {"name": "None", "pd": 0}
    return sc(vehicle, shooter, vehicle_locations="called", weapon_disable_pct=pct, **rules)


def test_a_lost_weapon_location_silences_the_vehicles_weapons():
    """VA-11: with ``weapon_disable_pct: 5`` the first hit on the Weapon row (1 SDP or more of
    20) knocks the tank's weapons out before it fires: it never attacks again, and the replay
    says why; with the default 0 (and as much structure) it fires every phase."""
    _, out = outcomes(_weaponless(5))
    assert (out.attacks[:, 0] == 0).all()
    assert (out.counters["crits"][:, 0] == 1).all()
    _, plain = outcomes(_weaponless(0))
    assert (plain.attacks[:, 0] > 0).all()
    text = "\n".join(replay(_weaponless(5), trial=0, seed=1)["lines"])
    assert "Tank's weapon is destroyed: its weapons are out of action" in text
    assert "Tank's vehicle weapon is out of action" in text


def test_a_lost_weapon_location_needs_critical_effects():
    _, out = outcomes(_weaponless(5, critical_effects=False))
    assert (out.attacks[:, 0] > 0).all()
