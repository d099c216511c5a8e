"""The moving-target penalty at vehicle speeds (../shared/rulings/vehicles
VA-16): ``moving_target: absolute`` counts the metres the target moved in its last action (-1
per 10 m, F10), ``relative`` the length of the difference of the target's and the attacker's
moves (a crew member moves as its vehicle does), so a chase at one speed costs nothing.

A pursuing car and its quarry drive east at MOVE 30 (60 m a phase), 40 m apart; the pursuer's
gunner shoots from the second phase on. The logged attack values differ by exactly the six
the absolute reading takes, and the gunner's hits over many fights are the exact odds of the
logged attack and defence values (the absolute odds the control that must fail).
"""

from __future__ import annotations

import numpy as np
import pytest
from oracles import agrees

from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion.codes import EV_ACTOR, EV_AV, EV_DV, EV_KIND, EVENT_ATTACK
from fuzion_sim.systems.fuzion.dice import hero_roll
from fuzion_sim.systems.fuzion.run import run_logged


def _car(name, x, crew, speed=30, tactics=None):
    return {"name": name, "position": [x, 0], "armor": {"name": "Steel", "pd": 4},
            "tactics": tactics or [{"do": "steer", "heading": 0}],
            "vehicle": {"class": "ground", "sdp": 5000, "move": 30, "speed": speed,
                        "heading": 0, "weight": "1.15 t", "crew": crew}}  # fmt: skip


def _driver(name):
    return {"name": name, "role": "pilot", "stats": {"REF": 6, "DEX": 5},
            "skills": {"Driving": 4}}  # fmt: skip


def _chase(moving_target=None, parked=False):
    gunner = {"name": "Gunner", "role": "passenger", "stats": {"REF": 7},
              "skills": {"Handgun": 6}, "weapon": "Large Pistol",
              "tactics": [{"when": "phase >= 2", "do": "attack"}, {"do": "none"}]}  # fmt: skip
    rules = {"critical_effects": False, "vehicle_locations": "none"}
    if moving_target:
        rules["moving_target"] = moving_target
    pursuer = _car("Pursuer", 0, [_driver("Driver"), gunner],
                   *((0, [{"do": "none"}]) if parked else ()))
    data = {"name": "chase", "max_rounds": 2, "rules": rules,
            "sides": {"blue": [pursuer], "red": [_car("Quarry", 40, [_driver("Wheelman")])]}}
    return fuzion.compile_scenario(scenario_from_dict(data))


def _attacks(plan, trial=0):
    _out, events = run_logged(plan, 5, trial)
    rows = events[events[:, EV_KIND] == EVENT_ATTACK]
    assert rows.shape[0] >= 3  # a shot every phase from the second
    return rows


def test_relative_cancels_a_chase_at_one_speed():
    relative = _attacks(_chase("relative"))
    absolute = _attacks(_chase())
    assert relative.shape == absolute.shape
    np.testing.assert_array_equal(relative[:, EV_AV] - absolute[:, EV_AV], 6)  # 60 m: -6
    np.testing.assert_array_equal(relative[:, EV_DV], absolute[:, EV_DV])
    assert _chase("relative").kernel == "general"


def test_a_parked_attacker_sees_the_targets_own_move():
    relative = _attacks(_chase("relative", parked=True))
    absolute = _attacks(_chase(parked=True))
    np.testing.assert_array_equal(relative[:, EV_AV], absolute[:, EV_AV])
    # the quarry pulls away 60 m a phase: the range band falls as well as the -6
    assert (np.diff(absolute[:, EV_AV]) <= 0).all()


def test_the_gunners_hits_are_the_exact_odds_of_each_reading():
    n = 3000
    roll = hero_roll(True)

    def p_hit(av, dv):
        return float(roll.probs[roll.values >= dv + 10 - av].sum())

    for reading, shift in (("relative", -6), ("absolute", 6)):
        plan = _chase(reading)
        rows = _attacks(plan)
        pairs = np.unique(rows[:, [EV_AV, EV_DV]], axis=0)
        assert pairs.shape[0] == 1  # 40 m apart every phase
        av, dv = pairs[0]
        out = fuzion.run_chunk(plan, chunk_key(5, 0), 0, n)
        gunner = rows[0, EV_ACTOR]
        shots = int(out.attacks[:, gunner].sum())
        hits = int(out.landed[:, gunner].sum())
        assert shots == n * rows.shape[0]
        p = p_hit(av, dv)
        q = p_hit(av + shift, dv)  # the other reading's odds: the control
        assert agrees(hits / shots, p, np.sqrt(p * (1 - p) / shots)), reading
        assert not agrees(hits / shots, q, np.sqrt(q * (1 - q) / shots)), reading


def test_the_switch_is_checked_and_dispatched():
    with pytest.raises(ScenarioError, match="moving_target") as info:
        _chase("relativ")
    assert info.value.suggestion == "relative"
    duel = {"name": "d", "rules": {"moving_target": "relative"},
            "sides": {"a": [{"name": "A", "weapon": "Large Pistol"}],
                      "b": [{"name": "B", "weapon": "Large Pistol", "position": [30, 0]}]}}
    # the duel and squad kernels' fights may move (closing in, knockback): not theirs
    assert fuzion.compile_scenario(scenario_from_dict(duel)).kernel == "standing"
    duel["rules"] = {"moving_target": "absolute"}
    assert fuzion.compile_scenario(scenario_from_dict(duel)).kernel == "duel"
