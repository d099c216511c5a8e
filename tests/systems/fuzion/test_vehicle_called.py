"""Called shots on vehicles and mecha ("`crew` targets"; ../shared/rulings/
vehicles M-77, VA-06 ``vehicle_locations: called``, VA-08 ``vehicle_called_x``, VA-53): the row
a call hits and its HIT MOD, the warnings when nothing honours a call, the kernel held to the
exact attack (P(hit) at the row's modifier, every hit on the row), and the fault it fixes: a
person's called shot no longer costs its modifier against a vehicle whose table is rolled.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from builders import scenario
from click.testing import CliRunner
from oracles import agrees, chi2_p
from test_vehicles import FRONT, ONCE, SIDE, car, driver, fight, shooter

from fuzion_sim import replay, simulate
from fuzion_sim.cli import cli
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems.fuzion import tables
from fuzion_sim.systems.fuzion.compile import compile_scenario as compile_plan
from fuzion_sim.systems.fuzion.dice import task_table
from fuzion_sim.systems.fuzion.oracle import scenario_attack, vehicle_locations

#: A fair shot: AV and DV close enough that the HIT MOD shows in P(hit) (5/8 uncalled against
#: the driver's REF 6 + Driving 5 + 10; 7/27 at -3, 1/2 at -1).
AIMED = {"stats": {"REF": 6}, "skills": {"Heavy Weapons": 9}}
#: A weak shot (about 1 in 11 against the driver): nearly sure against DV 12 once nobody drives.
FAIR = {"stats": {"REF": 6}, "skills": {"Heavy Weapons": 4}}
GUN = {"name": "Gun", "dc": 3, "skill": "Heavy Weapons", "range": 500}


def row_of(kind, location, absent=(), x=None):
    got = tables.vehicle_called_row(kind, absent, location, x)
    if got is None:
        return None
    row, mod = got
    return tables.vehicle_tables()[kind][row].printed, mod


def test_the_row_a_call_hits_and_its_modifier():
    """M-77: the HIT MOD as printed; the best row of a name (VA-53: Torso's 10-11 at -1); crew
    and pilot name the crew row; X rows are not called unless ``minus4`` (VA-08); absent rows
    cannot be called."""
    assert row_of("ground", "engine") == ("Engine", -3)
    assert row_of("ground", "body") == ("Body", -1)
    assert tables.vehicle_called_row("ground", (), "body", None)[0] == 4  # row 10, x1/2
    assert row_of("mecha", "torso") == ("Torso", -1)
    assert row_of("ground", "crew") == ("Crew", -3)
    assert row_of("mecha", "crew") == row_of("mecha", "pilot") == ("Pilot", -3)
    assert row_of("ground", "cargo") is None
    assert row_of("ground", "cargo", x=-4) == ("Cargo", -4)
    assert row_of("aircraft", "propeller") is None
    assert row_of("ground", "engine", absent=("engine",)) is None
    assert row_of("ground", "propeller") is None
    assert row_of("mecha", "head") == ("head", -6)


def called_fight(location, where=SIDE, pool=None, shooter_sheet=AIMED, **rules):
    rules.setdefault("vehicle_locations", "called")
    vehicle = car(pool=pool or {"sdp": 10_000}, crew=[driver(hits=10_000, stun=10_000)])
    attacker = shooter(where, GUN, tactics=ONCE)
    attacker.update(shooter_sheet)
    if location is not None:
        attacker["called_shot"] = location
    return fight(vehicle, attacker, max_rounds=1, **rules)


def test_calls_nothing_honours_are_warned_about():
    assert not called_fight("engine").warnings
    (w,) = called_fight("engine", vehicle_locations="random").warnings
    assert "Shooter calls shots at the engine" in w and "vehicle_locations is 'random'" in w
    (w,) = called_fight("propeller").warnings
    assert "no enemy vehicle has a propeller to call" in w
    assert called_fight("cargo").warnings
    assert not called_fight("cargo", vehicle_called_x="minus4").warnings
    (w,) = called_fight("head").warnings  # a person's location, no mecha to call it at
    assert "hit_locations is 'none'" in w and "no enemy vehicle has a head" in w


def test_the_plan_holds_the_row_and_the_modifier_per_target():
    plan = compile_plan(called_fight("engine"))
    n = plan.n_combatants
    tank, shot = 0, 2
    assert plan.v_call[shot * n + tank] == 2  # the ground table's Engine row
    assert plan.called_mod[shot * n + tank] == -3
    assert plan.called_mod[shot * n + 1] == 0  # the driver rides inside: no call at him
    random = compile_plan(called_fight("engine", vehicle_locations="random"))
    assert random.v_call[shot * n + tank] == -1 and random.called_mod[shot * n + tank] == 0


@pytest.mark.parametrize(("location", "mod"), [("engine", -3), ("crew", -3), ("body", -1)])
def test_kernel_called_shots_agree_with_the_exact_attack(location, mod):
    """The kernel's P(hit) against the exact attack at the row's modifier, within 4 standard
    errors, with every hit on the called row; the control (the uncalled P(hit)) is rejected."""
    sc = called_fight(location)
    exact = scenario_attack(sc, "Shooter", "Car")
    assert exact["attack"]["av"] == scenario_attack(
        called_fight(location, vehicle_locations="random"), "Shooter", "Car")["attack"]["av"] + mod
    assert exact["locations"][location] == 1.0
    assert sum(exact["locations"].values()) == 1.0
    res = simulate(sc, trials=6000, seed=9, threads=1)
    n = res.trials
    landed = int(res.tally.landed_sum[2])
    p = exact["p_hit"]
    se = math.sqrt(p * (1 - p) / n)
    assert agrees(landed / n, p, se)
    uncalled = scenario_attack(called_fight(location, vehicle_locations="random"),
                               "Shooter", "Car")["p_hit"]  # fmt: skip
    assert not agrees(landed / n, uncalled, se)
    names = tables.vehicle_location_names()
    hits = dict(zip(names, res.tally.categories["vehicle_location_hits"][0], strict=True))
    assert hits[location] == landed and sum(hits.values()) == landed


def test_a_called_crew_shot_hurts_the_driver_not_the_car():
    res = simulate(called_fight("crew", shooter_sheet={"skills": {"Heavy Weapons": 40}}),
                   trials=500, seed=2, threads=1)  # fmt: skip
    assert res.tally.landed_sum[2] == res.trials
    assert res.tally.taken_sum[0] == 0  # the structure takes nothing (M-26)
    assert res.tally.taken_sum[1] > 0  # the driver takes what passed the PD


def test_a_persons_called_shot_costs_nothing_against_a_rolled_vehicle_table():
    """The fault fixed: under ``hit_locations: called`` a shot called at a person's head
    (-8... as printed) was taken at that modifier against a vehicle whose table was rolled
    anyway; the vehicle's modifier is now 0 unless its own table is called."""
    sc = called_fight("head", vehicle_locations="random", hit_locations="called")
    plan = compile_plan(sc)
    n = plan.n_combatants
    assert plan.called_mod[2 * n + 0] == 0
    plain = called_fight(None, vehicle_locations="random")
    assert scenario_attack(sc, "Shooter", "Car")["p_hit"] == scenario_attack(
        plain, "Shooter", "Car")["p_hit"]
    res = simulate(sc, trials=6000, seed=9, threads=1)
    p = scenario_attack(plain, "Shooter", "Car")["p_hit"]
    assert agrees(res.tally.landed_sum[2] / res.trials, p, math.sqrt(p * (1 - p) / res.trials))


def test_called_shot_at_a_mecha_pilot(tmp_path):
    """A mecha's pilot row (crew and pilot both name it), through ``attack --json``."""
    import yaml

    mech = car(kind="mecha", pool={"kills": 10})
    mech["armor"] = {"name": "Plate", "kills": 1}
    attacker = shooter(FRONT, {"name": "Rail", "kills": 4, "skill": "Heavy Weapons",
                               "range": 500}, called_shot="crew")  # fmt: skip
    data = {"name": "t", "max_rounds": 1, "trials": 200,
            "rules": {"vehicle_locations": "called"},
            "sides": {"road": [mech], "ambush": [attacker]}}  # fmt: skip
    path = tmp_path / "mech.yaml"
    path.write_text(yaml.safe_dump(data))
    out = CliRunner().invoke(cli, ["attack", str(path), "--attacker", "Shooter", "--target",
                                   "Car", "--json"])  # fmt: skip
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    assert got["locations"]["pilot"] == 1.0
    assert got["damage"]["pmf"] == {"0": 1.0}  # the pilot's row does nothing to the structure


@pytest.mark.parametrize("rule", ["pilot", "random_crew"])
def test_the_crew_row_hits_the_pilot_or_one_of_the_crew(rule):
    """VA-13 ``crew_hit``: the crew row's damage goes to the pilot, or to one of the crew still
    in the fight, each alike (a half each here, within 4 standard errors)."""
    gunner = driver(name="Gunner", role="gunner", hits=10_000, stun=10_000)
    vehicle = car(crew=[driver(hits=10_000, stun=10_000), gunner])
    attacker = shooter(SIDE, GUN, tactics=ONCE, called_shot="crew",
                       skills={"Heavy Weapons": 40})  # fmt: skip
    sc = fight(vehicle, attacker, max_rounds=1, vehicle_locations="called", crew_hit=rule)
    res = simulate(sc, trials=4000, seed=5, threads=1)
    taken = res.outcomes.taken
    assert res.tally.landed_sum[3] == res.trials
    assert ((taken[:, 1] > 0) ^ (taken[:, 2] > 0)).all()  # one of them, every time
    share = (taken[:, 2] > 0).mean()
    if rule == "pilot":
        assert share == 0
    else:
        assert agrees(share, 0.5, math.sqrt(0.25 / res.trials))


# --- a vehicle nobody drives (VA-04 unmanned_dv) --------------------------------------------


def _driverless(dice="hero", **rules):
    """A sharpshooter (REF 10, acting first) calls every shot at the car's crew row: the first
    hit puts its driver (1 Hit, 1 Stun) out, while a gunner who does nothing keeps the car in
    the fight (VA-10); then a fair shot 30 m away (Medium: DV 12 by range, F4) shoots at the
    car nobody drives."""
    sniper = shooter(SIDE, GUN, called_shot="crew", name="Sniper",
                     stats={"REF": 10}, skills={"Heavy Weapons": 40})  # fmt: skip
    fair = shooter((0, -30), GUN, name="Fair", **FAIR)
    gunner = driver(name="Gunner", role="gunner", hits=10_000, stun=10_000)
    vehicle = car(crew=[driver(hits=1, stun=1), gunner])
    return scenario({"road": [vehicle], "ambush": [sniper, fair]}, max_rounds=4,
                    **{"vehicle_locations": "called", "dice": dice, **rules})


def _fair_attacks(sc, trial=0, seed=1):
    events = replay(sc, trial, seed=seed)["events"]
    return [e for e in events if e["kind"] == "attack" and e["actor"] == "Fair"]


@pytest.mark.parametrize(("dice", "rule", "dv", "unmanned"), [
    ("hero", "by_range", 12, True), ("interlock", "by_range", 7, True),
    ("hero", "zero_base", 0, False),
])  # fmt: skip
def test_a_car_nobody_drives_is_hit_at_the_dv_by_range(dice, rule, dv, unmanned):
    """VA-04: with its driver out, a car is targeted at the DV by range (F4; -5 under
    Interlock), unopposed, or (``zero_base``) opposed from a defence base of 0; the replay
    shows the plain die against that DV."""
    attacks = _fair_attacks(_driverless(dice, unmanned_dv=rule))
    assert attacks
    for ev in attacks:
        assert ev["dv_base"] == dv and ev["unmanned"] is unmanned
    line = next(x for x in replay_lines(_driverless(dice, unmanned_dv=rule)) if "Fair" in x)
    assert ("nobody drives it" in line) is unmanned


def replay_lines(sc):
    return replay(sc, 0, seed=1)["lines"]


def test_kernel_hits_a_car_nobody_drives_as_the_task_roll_says():
    """The fair shot's P(hit) once the driver is out, kernel against the exact task roll (3d6
    + AV >= 12) within 4 standard errors; the control, the driver's opposed DV, is rejected."""
    sc = _driverless()
    av = _fair_attacks(sc)[0]["av"]
    res = simulate(sc, trials=4000, seed=3, threads=1)
    fair = 4  # the car, its driver and gunner, the sniper, the fair shot
    n = int(res.tally.attacks_sum[fair])
    landed = int(res.tally.landed_sum[fair])
    assert n > 4000
    task = task_table("hero", "both")
    p = float((task + av >= 12).mean())
    se = math.sqrt(p * (1 - p) / n)
    assert agrees(landed / n, p, se)
    driven = float((task + av >= 6 + 5 + 10).mean())  # REF 6 + Driving 5 + 10 (F31)
    assert not agrees(landed / n, driven, se)


# --- area attacks on vehicles (VA-52) -------------------------------------------------------

GRENADE = {"name": "Grenade", "skill": "Heavy Weapons", "dc": 4, "range": 100,
           "area": {"per": "die", "radius": 1}, "explosive": True}  # fmt: skip


def test_a_blast_on_a_vehicle_rolls_its_table_from_the_centre():
    """VA-52: a grenade that lands on a car (a sure throw: no scatter) hits it at the blast
    centre, on the side table (3d6), whatever the thrower's aspect (here its front): the
    kernel's location frequencies against the exact side table (chi-square and each within 4
    standard errors), and the front table (the thrower's aspect) rejected."""
    vehicle = car(crew=[driver(hits=10_000, stun=10_000)])
    thrower = shooter(FRONT, GRENADE, tactics=ONCE)
    sc = fight(vehicle, thrower, max_rounds=1)
    res = simulate(sc, trials=3000, seed=4, threads=1)
    names = tables.vehicle_location_names()
    got = dict(zip(names, res.tally.categories["vehicle_location_hits"][0], strict=True))
    n = sum(got.values())
    assert n == res.trials
    model = sc.combatants[0].vehicle
    side, front = vehicle_locations(model, "side"), vehicle_locations(model, "front")
    for name, p in side.items():
        p = float(p)
        assert agrees(got[name] / n, p, math.sqrt(max(p * (1 - p), 1e-12) / n)), name
    cells = [nm for nm, p in side.items() if p > 0]
    counts = np.array([got[nm] for nm in cells])
    assert chi2_p(counts, np.array([float(side[nm]) for nm in cells])) > 1e-4
    expected = np.array([float(front[nm]) for nm in cells])
    assert (expected == 0).any() or chi2_p(counts, expected / expected.sum()) < 1e-6


@pytest.mark.parametrize(("falloff", "tenths"), [("per_radius_step", 20), ("none", 30)])
def test_a_kill_blast_loses_a_kill_per_4_m(falloff, tenths):
    """VA-52 ``area_kill_falloff``: a 4-Kill blast centred on a soldier 4 m behind a tank (1
    Kill of armour, no table rolled) does 4 - 1 - 1 = 2 Kills (20 tenths) to it, or 3 without
    the fall-off."""
    tank = car(pool={"kills": 100}, crew=[driver(hits=10_000, stun=10_000)])
    tank["armor"] = {"name": "Plate", "kills": 1}
    soldier = {"name": "Soldier", "stats": {"BODY": 6}, "position": [-4, 0],
               "tactics": [{"do": "none"}], "hits": 10_000, "stun": 10_000}  # fmt: skip
    bomb = {"name": "Bomb", "skill": "Heavy Weapons", "kills": 4, "range": 100,
            "area": {"per": "kill", "radius": 2}, "explosive": True}  # fmt: skip
    thrower = shooter((-40, 0), bomb, tactics=ONCE, targeting="nearest")
    sc = scenario_from_dict({
        "name": "t", "max_rounds": 1,
        "rules": {"vehicle_locations": "none", "area_kill_falloff": falloff},
        "sides": {"road": [tank, soldier], "ambush": [thrower]}})  # fmt: skip
    res = simulate(sc, trials=200, seed=1, threads=1)
    assert set(np.unique(res.outcomes.taken[:, 0])) == {tenths}
