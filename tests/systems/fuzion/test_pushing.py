"""Pushing (../shared/rulings/vehicles/mechanics.md M-75, seed L286): a person
may "increase their STR up to a maximum of two additional levels. Pushing costs 5 points of END
per phase for every extra level ... when you run out of END, you burn STUN points instead,
until you pass out". ``push: N`` (0 to 2) on a person: its STR is STR + N all fight (its
punches, a weapon's STR bonus and minimum, move by and move thru, contests, a thrown object's
Throw and lift), and every phase the push costs 5 x N END, then STUN. A greater push needs a
WILL + Concentration roll, which is not built (an error).
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pytest
from builders import fight
from oracles import agrees, chi2_p

from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion.dice import nd6


def _brick(push=None, **extra):
    b = {"name": "Brick", "stats": {"REF": 9, "DEX": 6, "STR": 5, "CON": 5, "BODY": 6},
         "skills": {"Hand to Hand": 8}, "weapon": "unarmed", "position": [0, 0],
         "tactics": [{"when": "phase == 1", "do": "punch"}, {"do": "none"}], **extra}
    if push is not None:
        b["push"] = push
    return b


def _bag(**extra):
    return {"name": "Bag", "stats": {"REF": 1, "DEX": 1, "BODY": 5}, "hits": 10_000,
            "stun": 10_000, "sd": 0, "position": [1, 0], "tactics": [{"do": "none"}], **extra}


_fight = partial(fight, sides=("a", "b"), defaults=(None, _bag()))


def _on(pmf, support):
    out = np.zeros(support.size)
    for v, q in zip(pmf.values, pmf.probs, strict=True):
        out[np.searchsorted(support, v)] = q
    return out


def _run(sc, n=6000):
    return fuzion.run_chunk(fuzion.compile_scenario(sc), chunk_key(9, 0), 0, n)


def test_loading_and_errors():
    assert _fight(_brick(2)).combatants[0].push == 2
    assert _fight(_brick()).combatants[0].push == 0
    with pytest.raises(ScenarioError, match="WILL \\+ Concentration roll") as info:
        _fight(_brick(3))
    assert info.value.path == "sides.a[0].push"
    with pytest.raises(ScenarioError, match="push"):
        _fight(_brick(-1))
    with pytest.raises(ScenarioError, match="push"):
        _fight(_brick("two"))


def test_the_dispatch():
    plain, pushing, bag = _brick(0), _brick(1), _bag()
    del plain["tactics"], pushing["tactics"], bag["tactics"]  # default tactics: standing
    assert fuzion.compile_scenario(_fight(plain, bag)).kernel != "general"
    assert fuzion.compile_scenario(_fight(pushing, bag)).kernel == "general"  # END a phase


def test_a_pushed_punch_rolls_str_plus_two():
    # one punch at a bag that never falls and wears nothing: STR 5 + 2 = 7d6 of Stun landed
    out = _run(_fight(_brick(2)))
    landed = out.landed[:, 0] == 1
    assert landed.sum() > 4000
    got = out.dealt[landed, 0]
    support = np.arange(7, 43)
    counts = np.array([(got == k).sum() for k in support])
    assert counts.sum() == got.size
    assert chi2_p(counts, _on(nd6(7), support)) > 1e-3
    plain = _on(nd6(5), support) + 1e-12  # control: the unpushed 5d6
    assert chi2_p(counts, plain / plain.sum()) < 1e-6
    assert agrees(got.mean(), 24.5, got.std() / math.sqrt(got.size))


def test_end_runs_out_then_stun_burns_until_it_passes_out():
    # END 20 at push 2: 10 END a phase for two phases, then 10 Stun a phase from 25: out in
    # the fifth phase (25 -> 15 -> 5 -> -5), by its push alone
    brick = _brick(2, end=20, stun=25, tactics=[{"do": "none"}])
    sc = _fight(brick, max_rounds=3)
    out = _run(sc, 200)
    assert (out.winner == 1).all()  # the bag wins: the brick pushed itself out
    plan = fuzion.compile_scenario(sc)
    lines = fuzion.SYSTEM.replay(sc, plan, 9, 0)["lines"]
    burns = [line for line in lines if "pushes on with no END left: burns 10 Stun" in line]
    assert [line.split(":")[0] for line in burns] == ["Phase   3", "Phase   4", "Phase   5"]
    assert "Brick at 15 Stun" in burns[0] or "15 Stun" in burns[0]
    calm = _run(_fight(_brick(0, end=20, stun=25, tactics=[{"do": "none"}]), max_rounds=3), 200)
    assert (calm.winner < 0).all()  # without the push: nobody falls


def test_a_push_throws_further():
    car = {"name": "Car", "skill": "Thrown", "thrown": {"weight": "900 kg"}}
    hammer = {"name": "Hammer", "stats": {"REF": 6, "DEX": 6, "STR": 8, "BODY": 10},
              "skills": {"Thrown": 6}, "weapon": car, "position": [0, 0]}  # fmt: skip
    hammer["stats"]["STR"] = 7  # lifts 800 kg for throwing (25 kg x 2^7 / 4)
    with pytest.raises(ScenarioError, match="cannot lift 900 kg"):
        _fight(hammer)
    pushed = _fight({**hammer, "push": 2}).combatants[0].weapon  # STR 9 lifts 3,200 kg
    strong = _fight({**hammer, "stats": {**hammer["stats"], "STR": 9}}).combatants[0].weapon
    assert (pushed.range, pushed.dc, pushed.kills) == (strong.range, strong.dc, strong.kills)
