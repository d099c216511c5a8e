"""Terrain (../shared/rulings/vehicles/ M-11, M-52, VA-51, E-04): a scenario's
``terrain:`` zones of Rough and Very Rough ground leave x1/2 and x1/4 of the MOVE of whoever
crosses them (the placeholder table, ``terrain.yaml``), by the phase's terrain: the majority of
the path (E-04: 4 m of Easy and 6 m of Rough is Rough). Rough and Very Rough add +2 and +4 to a
vehicle's manoeuvre DVs there (``terrain_effect: move_only``: they do not). Aircraft fly over.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from builders import fight
from oracles import agrees

from fuzion_sim.api import ask
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion.codes import (
    EV_ACTOR,
    EV_DV,
    EV_KIND,
    EV_RAW,
    EVENT_CONTROL,
    EVENT_DRIVE,
    EVENT_MOVE,
)
from fuzion_sim.systems.fuzion.features.scene import terrain as tr
from fuzion_sim.systems.fuzion.features.scene.build import Terrain, terrain_array
from fuzion_sim.systems.fuzion.run import run_logged
from fuzion_sim.systems.fuzion.tables import manoeuvres


def _zones(*zones, **rules):
    return terrain_array(zones, rules)


MUD = Terrain("Mud", "rough", 4.0, -5.0, 100.0, 10.0)  # rough from x = 4 on


# --- the majority rule (E-04), on the kernel's own functions ------------------------------


def test_e04_four_easy_six_rough_is_rough():
    tz = _zones(MUD)
    assert tr.majority(tz, 0.0, 0.0, 10.0, 0.0) == tr.T_ROUGH  # 4 m Easy, 6 m Rough
    assert tr.slowed(tz, 0.0, 0.0, 10.0, 0.0, 10.0) == pytest.approx(5.0)
    # the control: 6 m of Easy and 4 of Rough is Easy, and the runner keeps its 10 m
    assert tr.majority(tz, -2.0, 0.0, 10.0, 0.0) == tr.T_EASY
    assert tr.slowed(tz, -2.0, 0.0, 10.0, 0.0, 10.0) == pytest.approx(10.0)


def test_majority_over_three_kinds_overlaps_and_circles():
    bog = Terrain("Bog", "very_rough", 0.0, -5.0, 3.0, 10.0)
    road = Terrain("Road", "easy", 1.0, -1.0, 1.0, 2.0)  # listed last: on top of the bog
    tz = _zones(bog, MUD, road)
    # 0-1 bog, 1-2 road, 2-3 bog, 3-4 easy, 4-10 mud: 6 of rough wins over 2 + 2
    assert tr.majority(tz, 0.0, 0.0, 10.0, 0.0) == tr.T_ROUGH
    assert tr.class_at(tz, 1.5, 0.0) == tr.T_EASY and tr.class_at(tz, 0.5, 0.0) == tr.T_VERY_ROUGH
    assert tr.majority(tz, 0.0, 0.0, 3.0, 0.0) == tr.T_VERY_ROUGH  # 2 of bog, 1 of road
    # a tie goes to the rougher: 5 m of Easy, 5 of Rough
    assert tr.majority(_zones(MUD), -1.0, 0.0, 10.0, 0.0) == tr.T_ROUGH
    pond = Terrain("Pond", "very_rough", 10.0, 0.0, radius=3.0)
    tz = _zones(pond)
    assert tr.majority(tz, 0.0, 0.0, 20.0, 0.0) == tr.T_EASY  # 6 m of 20 in the circle
    assert tr.majority(tz, 5.0, 0.0, 10.0, 0.0) == tr.T_VERY_ROUGH  # 6 m of 10
    assert tr.slowed(tz, 5.0, 0.0, 10.0, 0.0, 12.0) == pytest.approx(3.0)  # 12 x 1/4
    assert tr.majority(tz, 0.0, 5.0, 20.0, 0.0) == tr.T_EASY  # it passes beside the pond
    assert tr.terrain_dv(tz, 10.0, 0.0) == 4 and tr.terrain_dv(tz, 0.0, 0.0) == 0
    assert tr.terrain_dv(_zones(pond, terrain_effect="move_only"), 10.0, 0.0) == 0
    assert tr.terrain_dv(_zones(), 10.0, 0.0) == 0


# --- through the kernel --------------------------------------------------------------------


def _runner(x=0.0, move=5):
    return {"name": "Runner", "stats": {"REF": 5, "DEX": 5, "MOVE": move}, "weapon": "Knife",
            "position": [x, 0]}  # fmt: skip


_STILL = {"name": "Post", "stats": {"REF": 3}, "position": [60, 0], "tactics": [{"do": "none"}]}
_scenario = partial(fight, defaults=(None, _STILL))


def _zone(kind, at, size=None, radius=None, name="Mud"):
    out = {"name": name, "kind": kind, "at": list(at)}
    out.update({"size": list(size)} if size else {"radius": radius})
    return out


def _moves(sc, actor=0, kind=EVENT_MOVE):
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "general"
    _out, events = run_logged(plan, 3, 0)
    rows = events[(events[:, EV_KIND] == kind) & (events[:, EV_ACTOR] == actor)]
    return rows[:, EV_RAW] / 100.0


def test_a_runner_is_slowed_by_the_majority_of_its_path():
    # MOVE 5: a 10 m run a phase toward the post at x = 60
    free = _moves(_scenario([_runner()]))
    np.testing.assert_allclose(free[:4], 10.0)
    # E-04 in the kernel: mud from x = 4, the first run 4 m Easy + 6 m Rough: 5 m, then 5 m
    mud = _moves(_scenario([_runner()], terrain=[_zone("rough", (4, -5), (100, 10))]))
    np.testing.assert_allclose(mud[:4], 5.0)
    # the control: mud from x = 6 leaves the first run (6 Easy, 4 Rough) its 10 m
    later = _moves(_scenario([_runner()], terrain=[_zone("rough", (6, -5), (100, 10))]))
    np.testing.assert_allclose(later[:2], [10.0, 5.0])
    bog = _moves(_scenario([_runner()], terrain=[_zone("very_rough", (-5, -5), (100, 10))]))
    np.testing.assert_allclose(bog[:4], 2.5)
    # move_only still slows
    still = _moves(_scenario([_runner()], terrain=[_zone("very_rough", (-5, -5), (100, 10))],
                             terrain_effect="move_only"))  # fmt: skip
    np.testing.assert_allclose(still[:4], 2.5)


def test_a_slowed_runner_reaches_its_target_later():
    post = {**_STILL, "position": [20, 0]}
    sc = _scenario([_runner()], [post], max_rounds=3)
    rough = _scenario([_runner()], [post], terrain=[_zone("rough", (-5, -5), (100, 10))],
                      max_rounds=3)
    n = 300
    fast = fuzion.run_chunk(fuzion.compile_scenario(sc), chunk_key(5, 0), 0, n)
    slow = fuzion.run_chunk(fuzion.compile_scenario(rough), chunk_key(5, 0), 0, n)
    assert fast.attacks[:, 0].sum() > slow.attacks[:, 0].sum() > 0


def _car(name, x, tactics, cls="ground", speed=20, move=20):
    skill = "Piloting" if cls == "aircraft" else "Driving"
    return {"name": name, "position": [x, 0], "tactics": tactics,
            "armor": {"name": "Steel", "pd": 4},
            "vehicle": {"class": cls, "sdp": 40, "move": move, "speed": speed, "heading": 0,
                        "weight": "1.15 t",
                        "crew": [{"name": f"{name} driver", "role": "pilot",
                                  "stats": {"REF": 6}, "skills": {skill: 4}}]}}  # fmt: skip


def test_a_drive_is_slowed_but_an_aircraft_flies_over():
    drive = [{"do": "steer", "heading": 0}]
    far = {**_STILL, "position": [5000, 0]}
    field = [_zone("rough", (-10, -50), (4000, 100))]
    assert _moves(_scenario([_car("Car", 0, drive)], [far]), kind=EVENT_DRIVE)[0] == 40.0
    rough = _scenario([_car("Car", 0, drive)], [far], terrain=field)
    assert _moves(rough, kind=EVENT_DRIVE)[0] == 20.0
    jet = _car("Jet", 0, drive, cls="aircraft")
    assert _moves(_scenario([jet], [far], terrain=field), kind=EVENT_DRIVE)[0] == 40.0


def _control_dvs(sc):
    plan = fuzion.compile_scenario(sc)
    _out, events = run_logged(plan, 3, 0)
    return events[events[:, EV_KIND] == EVENT_CONTROL][:1, EV_DV]  # the manoeuvre's roll


def test_rough_ground_makes_a_manoeuvre_harder():
    turn = [{"when": "phase == 1", "do": "manoeuvre", "name": "swerve"}, {"do": "none"}]
    far = {**_STILL, "position": [5000, 0]}
    base = manoeuvres()["swerve"]
    bog = [_zone("very_rough", (-10, -10), (15, 20))]
    assert _control_dvs(_scenario([_car("Car", 0, turn)], [far])).tolist() == [base]
    assert _control_dvs(_scenario([_car("Car", 0, turn)], [far],
                                  terrain=bog)).tolist() == [base + 4]  # fmt: skip
    assert _control_dvs(_scenario([_car("Car", 0, turn)], [far], terrain=bog,
                                  terrain_effect="move_only")).tolist() == [base]  # fmt: skip
    # the worse of the ground and the scenario's manoeuvre_conditions, not both
    assert _control_dvs(_scenario([_car("Car", 0, turn)], [far], terrain=bog,
                                  manoeuvre_conditions="rough")).tolist() == [base + 4]
    assert _control_dvs(_scenario([_car("Car", 20, turn)], [far], terrain=bog,
                                  manoeuvre_conditions="rough")).tolist() == [base + 2]


def test_the_exact_odds_read_the_ground_and_the_kernel_agrees():
    turn = [{"when": "phase == 1", "do": "manoeuvre", "name": "high-speed turn"},
            {"do": "none"}]  # fmt: skip
    far = {**_STILL, "position": [5000, 0]}
    bog = [_zone("very_rough", (-10, -10), (15, 20))]
    sc = _scenario([_car("Car", 0, turn)], [far], terrain=bog)
    odds = ask(sc, "manoeuvre", vehicle="Car", name="high-speed turn")
    clear = ask(_scenario([_car("Car", 0, turn)], [far]), "manoeuvre", vehicle="Car",
                name="high-speed turn")  # fmt: skip
    assert odds["ground"] == "very_rough" and odds["p_made"] < clear["p_made"]
    n = 4000
    out = fuzion.run_chunk(fuzion.compile_scenario(sc), chunk_key(9, 0), 0, n)
    lost = int((out.counters["lost_control"][:, 0] > 0).sum())
    p = 1.0 - odds["p_made"]
    se = np.sqrt(p * (1 - p) / n)
    assert agrees(lost / n, p, se)
    assert not agrees(lost / n, 1.0 - clear["p_made"], se)  # the clear odds: the control


# --- errors ----------------------------------------------------------------------------------


def test_load_errors():
    with pytest.raises(ScenarioError, match="did you mean 'rough'"):
        _scenario([_runner()], terrain=[_zone("rugh", (0, 0), (1, 1))])
    with pytest.raises(ScenarioError, match="exactly one of size"):
        _scenario([_runner()], terrain=[{"name": "M", "kind": "rough", "at": [0, 0],
                                         "size": [1, 1], "radius": 2}])  # fmt: skip
    with pytest.raises(ScenarioError, match="terrain: list"):
        scenario_from_dict({"name": "t", "sides": {"blue": [_runner()], "red": [dict(_STILL)]},
                            "hazards": [{"name": "F", "kind": "fire", "dc": 2, "terrain": "rough",
                                         "circle": {"center": [0, 0], "radius": 1}}]})
    with pytest.raises(ScenarioError, match="duplicate name"):
        _scenario([_runner()], terrain=[_zone("rough", (0, 0), (1, 1)),
                                        _zone("easy", (0, 0), (1, 1))])  # fmt: skip
