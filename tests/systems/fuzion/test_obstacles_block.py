"""Solid objects block (../shared/rulings/vehicles/mechanics.md M-10: "You may
not move (or shoot) through any solid person, object or thing"): an unbroken obstacle stops a
move on foot at its face and spends an attack whose line of fire crosses it; a broken one
stops nothing; ``obstacles_block: false`` is the old reading (obstacles stop only knockback
and vehicles). Nobody may stand inside one.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from builders import fight

from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion.codes import EV_ACTOR, EV_KIND, EV_RAW, EV_X, EVENT_BLOCKED
from fuzion_sim.systems.fuzion.run import run_logged

WALL = {"name": "Wall", "at": [4, -5], "size": [1, 10]}  # never breaks (no sdp)
_fight = partial(fight, sides=("a", "b"), obstacles=(WALL,))


def _gunman(name, x, **extra):
    return {"name": name, "stats": {"REF": 6, "DEX": 5, "BODY": 5}, "skills": {"Handgun": 5},
            "weapon": "Large Pistol", "position": [x, 0], **extra}  # fmt: skip


def _run(sc, n=400):
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "general"
    return fuzion.run_chunk(plan, chunk_key(3, 0), 0, n)


def test_no_line_of_fire_through_a_wall():
    attack = [{"do": "attack"}]
    sc = _fight(_gunman("A", 0, tactics=attack), _gunman("B", 10, tactics=attack))
    out = _run(sc)
    assert out.attacks.sum() == 0 and out.taken.sum() == 0  # every shot spent at the wall
    open_ = _run(_fight(_gunman("A", 0, tactics=attack), _gunman("B", 10, tactics=attack),
                        obstacles_block=False))  # fmt: skip
    assert (open_.attacks.sum(axis=0) > 0).all()  # the old reading: they shoot through it
    # a wall off the line blocks nothing
    aside = {**WALL, "at": [4, 5]}
    beside = _run(_fight(_gunman("A", 0, tactics=attack), _gunman("B", 10, tactics=attack),
                         obstacles=[aside]))  # fmt: skip
    assert (beside.attacks.sum(axis=0) > 0).all()


def test_the_replay_names_the_wall():
    attack = [{"do": "attack"}]
    sc = _fight(_gunman("A", 0, tactics=attack), _gunman("B", 10, tactics=attack))
    lines = fuzion.SYSTEM.replay(sc, fuzion.compile_scenario(sc), 1, 0)["lines"]
    assert any("A has no line of fire to B: Wall is in the way" in line for line in lines)


def test_a_runner_stops_at_the_face():
    # a knife fighter closes on a gunman behind the wall: it stops just short of x = 4
    knife = {"name": "Knife", "stats": {"REF": 7, "DEX": 5, "MOVE": 6}, "weapon": "Knife",
             "position": [0, 0]}  # fmt: skip
    sc = _fight(knife, _gunman("B", 10, tactics=[{"do": "none"}]))
    plan = fuzion.compile_scenario(sc)
    _out, events = run_logged(plan, 3, 0)
    stops = events[events[:, EV_KIND] == EVENT_BLOCKED]
    assert stops.shape[0] >= 1 and (stops[:, EV_ACTOR] == 0).all() and (stops[:, EV_RAW] == 0).all()
    assert np.all(np.abs(stops[:, EV_X] - 399) <= 1)  # centimetres: 1 cm before the face
    lines = fuzion.SYSTEM.replay(sc, plan, 3, 0)["lines"]
    assert any("Knife is stopped by Wall at (4.0, 0.0)" in line for line in lines)
    # without the rule it runs through and stabs
    free = _run(_fight(knife, _gunman("B", 10, tactics=[{"do": "none"}]), max_rounds=3,
                       obstacles_block=False))  # fmt: skip
    held = _run(_fight(knife, _gunman("B", 10, tactics=[{"do": "none"}]), max_rounds=3))
    assert free.attacks[:, 0].sum() > 0 and held.attacks[:, 0].sum() == 0


def test_a_broken_wall_stops_nothing():
    # the hero punches the thug into a fence (STR 20: 16-21 m of knockback, 8 DC, which the
    # fence takes too: 8d6 against its 28 SDP breaks it about half the time); from the second
    # phase the sniper beyond the fence shoots at the thug: past the broken fence, or still
    # behind the whole one, at its face
    hero = {"name": "Hero", "stats": {"REF": 8, "DEX": 9, "STR": 20, "BODY": 14},
            "skills": {"Hand to Hand": 6}, "weapon": "unarmed", "position": [3, 0],
            "hits": 1000, "stun": 1000,
            "tactics": [{"when": "phase == 1", "do": "punch"}, {"do": "none"}]}  # fmt: skip
    sniper = _gunman("Sniper", 30, tactics=[{"when": "phase >= 2", "do": "attack"},
                                            {"do": "none"}])  # fmt: skip
    thug = _gunman("Thug", 3.5, hits=10_000, stun=10_000, tactics=[{"do": "none"}])
    fence = {"name": "Fence", "at": [5, -5], "size": [0.2, 10], "sdp": 28, "weight": "50 lbs"}
    sc = _fight([hero, sniper], thug, obstacles=[fence], knockback=True)
    out = _run(sc, 1000)
    broke = out.counters["broke"][:, 2] == 1
    assert 200 < broke.sum() < 800
    assert (out.attacks[broke, 1] > 0).all()  # through the broken fence
    assert (out.attacks[~broke, 1] == 0).all()  # the whole fence blocks every shot
    plan = fuzion.compile_scenario(sc)
    _o, events = run_logged(plan, 3, int(np.flatnonzero(broke)[0]))
    assert not (events[:, EV_KIND] == EVENT_BLOCKED).any()


def test_nobody_stands_inside_an_obstacle():
    with pytest.raises(ScenarioError, match="stands inside obstacle 'Wall'") as info:
        _fight(_gunman("A", 4.5), _gunman("B", 10))
    assert info.value.path == "sides.a[0].position"
