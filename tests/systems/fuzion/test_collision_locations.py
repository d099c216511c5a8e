"""Collisions on a vehicle's hit table (VA-40 ``impact_locations``) and vehicles that drive over a
drop (M-60, M-72): the last two rules of the vehicles in motion.

The kernel against the exact answers of ``fuzion-sim impact`` (``--aspect`` for the located
damage), each with a control that must fail: where a ram lands on each vehicle by its aspect,
the damage there after the row's multiplier, the crew row's damage on the pilot, a car that
goes over a ledge (its fall and its driver's), and the load errors.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from builders import fight
from click.testing import CliRunner
from oracles import agrees, chi2_p
from vehicle_fixtures import WATCHER, driven

from fuzion_sim import api
from fuzion_sim.cli import cli
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion.dice import hero_roll
from fuzion_sim.systems.fuzion.features.scene.exact import impact_answer
from fuzion_sim.systems.fuzion.tables import vehicle_location_names

#: Drivers who live through their crashes (the crew row's and the falls' damage is measured).
_STURDY = {"stats": {"BODY": 10}, "hits": 400, "stun": 400}


def _car(name, position, tactics, sdp=2000, **kw):
    return driven(name, position, tactics, sdp=sdp, driver=_STURDY, **kw)


#: Two sides, blue and red (a watcher far off unless given), criticals off.
_scenario = partial(fight, defaults=(None, WATCHER), criticals="none")


def _outcomes(sc, n, seed=17):
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "general"
    return fuzion.run_chunk(plan, chunk_key(seed, 0), 0, n)


def _index(sc, name):
    return [c.name for c in sc.combatants].index(name)


def _mean_se(damage: dict, n: int) -> tuple[float, float]:
    """The exact mean of ``{"pmf"}`` and the standard error of a mean of ``n`` draws."""
    support = np.array([int(k) for k in damage["pmf"]], float)
    probs = np.array(list(damage["pmf"].values()))
    mean = float((support * probs).sum())
    return mean, float(np.sqrt(((support - mean) ** 2 * probs).sum() / n))


def _location_p(sc, counts: np.ndarray, located: dict) -> float:
    """Chi-square p of a vehicle's hits by location against ``located["locations"]``."""
    names = vehicle_location_names()
    keep = [i for i, name in enumerate(names) if located["locations"].get(name, 0) > 0]
    assert counts[[i for i in range(len(names)) if i not in keep]].sum() == 0
    probs = np.array([located["locations"][names[i]] for i in keep])
    return chi2_p(counts[keep], probs)


# --- VA-40 impact_locations: a ram lands on each vehicle's table --------------------------------

_RAMMER = _car("Rammer", (0, 0), [{"when": "phase == 1", "do": "ram", "kind": "rear"},
                                  {"do": "none"}], speed=40, ref=7, skill=6)  # fmt: skip
_SEDAN = _car("Sedan", (12, 0), [{"do": "none"}], speed=30, ref=5, skill=3)


def test_a_rear_ram_lands_on_the_tables_by_aspect():
    # MOVE 40 into MOVE 30 from behind: 8.3 m/s closing, 14 DC through PD 4 to each; the
    # sedan is struck from the rear (2d6+6), the rammer on its front (2d6+1)
    sc = _scenario([_RAMMER], [_SEDAN], impact_locations=True, collision_occupants="none")
    n = 4000
    out = _outcomes(sc, n)
    hit = out.counters["rams"][:, 0] == 1
    roll = hero_roll(True)
    p_hit = float(roll.probs[7 + 6 + roll.values - 10 >= 5 + 3].sum())
    assert agrees(hit.mean(), p_hit, np.sqrt(p_hit * (1 - p_hit) / n))
    sedan, rammer = _index(sc, "Sedan"), _index(sc, "Rammer")
    rear = impact_answer(sc, "Sedan", speed=25 / 3, aspect="rear")["located"]
    front = impact_answer(sc, "Rammer", speed=25 / 3, aspect="front")["located"]
    counts = out.categories["vehicle_location_hits"]
    assert counts[sedan].sum() == hit.sum() and counts[rammer].sum() == hit.sum()
    assert _location_p(sc, counts[sedan], rear) > 1e-3
    assert _location_p(sc, counts[rammer], front) > 1e-3
    side = impact_answer(sc, "Sedan", speed=25 / 3, aspect="side")["located"]
    assert chi2_p(counts[sedan][[vehicle_location_names().index(k) for k in side["locations"]]],
                  np.array(list(side["locations"].values()))) < 1e-6  # control: 3d6
    # the structure's damage: the row's multiplier (a rear hit is 0.72 of x1 on average)
    mean, se = _mean_se(rear["damage"], hit.sum())
    got = out.taken[hit, sedan].mean()
    assert agrees(got, mean, se)
    plain, _ = _mean_se(impact_answer(sc, "Sedan", speed=25 / 3)["damage"], 1)
    assert not agrees(got, plain, se)  # control: x1 on the structure (VA-40's default)
    # the crew row (13, 6 of the 36 rear outcomes): what passed the armour hurts the driver
    driver = _index(sc, "Sedan driver")
    hurt = out.taken[:, driver] > 0
    share = p_hit * rear["locations"]["crew"]
    assert agrees(hurt.mean(), share, np.sqrt(share * (1 - share) / n))
    assert (out.taken[hurt, sedan] == 0).all()  # the crew row does nothing to the structure


def test_impact_locations_false_keeps_the_structure_x1():
    sc = _scenario([_RAMMER], [_SEDAN], collision_occupants="none")
    out = _outcomes(sc, 300)
    assert out.categories["vehicle_location_hits"].sum() == 0
    assert out.taken[:, _index(sc, "Sedan driver")].sum() == 0


def test_a_crash_into_a_wall_lands_on_the_front():
    car = _car("Car", (0, 0), [{"do": "steer", "heading": 0}], speed=30, sdp=3000)
    wall = [{"name": "Wall", "at": [40, -5], "size": [1, 10], "weight": "+100 tons"}]
    sc = _scenario([car], obstacles=wall, impact_locations=True)
    n = 2000
    out = _outcomes(sc, n)
    assert (out.counters["crashes"][:, 0] == 1).all()
    front = impact_answer(sc, "Car", speed=25, aspect="front")["located"]
    counts = out.categories["vehicle_location_hits"][_index(sc, "Car")]
    assert counts.sum() == n and _location_p(sc, counts, front) > 1e-3
    mean, se = _mean_se(front["damage"], n)
    assert agrees(out.taken[:, 0].mean(), mean, se)


def test_impact_locations_errors_and_the_exact_command():
    with pytest.raises(ScenarioError, match="vehicle_locations: none turns off") as info:
        _scenario([_RAMMER], [_SEDAN], impact_locations=True, vehicle_locations="none")
    assert info.value.path == "rules.impact_locations"
    sc = _scenario([_RAMMER], [_SEDAN], impact_locations=True)
    with pytest.raises(Exception, match="not a vehicle"):
        impact_answer(sc, "Sedan driver", speed=8, aspect="rear")
    with pytest.raises(Exception, match="impact_locations: false"):
        impact_answer(_scenario([_RAMMER], [_SEDAN]), "Sedan", speed=8, aspect="rear")
    answer = api.ask(sc, "impact", target="Sedan", speed=25 / 3, aspect="rear")
    assert answer["located"]["locations"]["engine"] == pytest.approx(1 / 36)
    assert answer["located"]["damage"]["mean"] < answer["damage"]["mean"]
    result = CliRunner().invoke(cli, ["impact", "scenarios/vehicles/car-chase-with-ramming.yaml",
                                      "--target", "Getaway sedan", "--speed", "8",
                                      "--aspect", "rear"])  # fmt: skip
    assert result.exit_code == 2 and "impact_locations: false" in result.output


# --- a vehicle over a drop (M-60, M-72) ---------------------------------------------------------

_LEDGE = [{"name": "Quarry edge", "at": [30, 0], "radius": 5, "height": 10}]


def test_a_car_drives_over_a_ledge_and_falls():
    # MOVE 30: 60 m a phase; the ledge's edge is 25 m ahead: a fall of 10 m, the 1 ton row,
    # its driver thrown about by its own weight in the same column
    car = _car("Car", (0, 0), [{"do": "steer", "heading": 0}], speed=30, sdp=3000)
    sc = _scenario([car], drops=_LEDGE, max_rounds=2)
    n = 3000
    out = _outcomes(sc, n)
    c, driver = _index(sc, "Car"), _index(sc, "Car driver")
    assert (out.counters["falls"][:, c] == 1).all() and (out.counters["crashes"][:, c] == 1).all()
    fall = impact_answer(sc, "Car", fall=10)
    mean, se = _mean_se(fall["damage"], n)
    assert agrees(out.taken[:, c].mean(), mean, se)
    deeper, _ = _mean_se(impact_answer(sc, "Car", fall=40)["damage"], 1)
    assert not agrees(out.taken[:, c].mean(), deeper, se)  # control: a 40 m fall
    inside = impact_answer(sc, "Car driver", fall=10)
    mean, se = _mean_se(inside["damage"], n)
    assert agrees(out.taken[:, driver].mean(), mean, se)
    lines = api.replay(sc, trial=0)["lines"]
    over = next(i for i, line in enumerate(lines) if "goes over Quarry edge" in line)
    assert "falls 10 m" in lines[over] and "lands at (25.0, 0.0)" in lines[over]
    assert "Car crashes into the ground" in lines[over + 1]
    assert "Car driver is thrown about inside Car" in lines[over + 2]


def test_an_aircraft_flies_over_a_drop_and_a_parked_car_stays():
    jet = _car("Jet", (0, 0), [{"do": "steer", "heading": 0}], cls="aircraft", altitude=300)
    parked = _car("Car", (0, 20), [{"do": "none"}])
    out = _outcomes(_scenario([jet, parked], drops=_LEDGE, max_rounds=2), 200)
    assert out.counters["falls"].sum() == 0 and out.counters["crashes"].sum() == 0


def test_a_vehicle_over_a_drop_is_a_load_error():
    with pytest.raises(ScenarioError, match="stands over drop 'Quarry edge'") as info:
        _scenario([_car("Car", (28, 1), [{"do": "none"}])], drops=_LEDGE)
    assert info.value.path == "sides.blue[0].position"
    _scenario([_car("Jet", (28, 1), [{"do": "none"}], cls="aircraft")], drops=_LEDGE)  # flies
    car = _car("Car", (0, 0), [{"do": "none"}])
    car["vehicle"]["crew"].append({"name": "Rider", "role": "passenger",
                                   "tactics": [{"do": "jump", "drop": "Quarry edge"}]})
    with pytest.raises(ScenarioError, match=r"cannot jump .*goes over a drop in its way"):
        _scenario([car], drops=_LEDGE)


def test_the_cliff_road_chase_goes_over_the_edge():
    path = "scenarios/vehicles/cliff-road-chase.yaml"
    result = api.simulate(path, trials=2000, seed=5, threads=1)
    rows = {r["combatant"]: r for r in result.combatant_stats()}
    assert 0.05 < rows["Getaway sedan"]["falls_mean"] < 0.2  # a missed bend (16.2%) and alive
    assert rows["Cruiser 1"]["rams_mean"] > 0.3
    assert any("goes over Quarry edge" in line for t in range(100)
               for line in api.replay(path, trial=t, seed=5)["lines"])  # fmt: skip
