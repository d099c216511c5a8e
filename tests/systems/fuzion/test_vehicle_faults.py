"""The two faults of the vehicle rules' section 0 (../shared/rulings/vehicles/mechanics.md §0), each
held by a test that failed before the fix.

1. Chinks in the armour (F30, M-34, VA-43) did nothing against Kill armour: a hit that beats
   the DV by 10 or more must ignore a Kill-rated target's Kill armour, in the kernel (per
   autofire hit too) and in the exact ``attack``.
2. An attack on a vehicle opposed DEX + Ranged Evade, like a person's; F31 opposes the pilot's
   REF + Piloting (or Driving). An object with SDP or Kills is a vehicle whose own sheet is
   its pilot's (M-16): its defence base is REF + the higher of Piloting and Driving.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from fight_log import HARMLESS, IDLE, fighter, scenario
from oracles import agrees

from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import codes as k
from fuzion_sim.systems.fuzion.dice import _difference_counts
from fuzion_sim.systems.fuzion.oracle import scenario_attack

ROCKET = {"name": "Rocket", "kills": 2, "skill": "Heavy Weapons", "range": 150}


def tank(**extra):
    """A Kill-rated target (100 Kills, 2 Kills of armour) that never falls and never acts."""
    base = {"name": "Tank", "kills": 100, "armor": {"name": "Hull", "kills": 2},
            "stats": {"REF": 5, "DEX": 5}, "skills": {"Driving": 3}, "weapon": HARMLESS,
            "tactics": IDLE, "position": 3}  # fmt: skip
    base.update(extra)
    return {key: value for key, value in base.items() if value is not None}  # None: left out


def gunner(weapon=ROCKET, **extra):
    base = {"skills": {"Heavy Weapons": 8, "Autofire Weapons": 8}, "weapon": weapon,
            "tactics": [{"do": "attack"}]}  # fmt: skip
    return fighter("Gunner", 0, **{**base, **extra})


def rocket_scenario(chinks=True, weapon=ROCKET, **tank_extra):
    return scenario({"a": [gunner(weapon)], "b": [tank(**tank_extra)]}, max_rounds=1,
                    chinks=chinks, campaign="everyday")  # fmt: skip


def attack_rows(sc, n_trials, seed=2):
    plan = fuzion.compile_scenario(sc)
    rows = []
    for trial in range(n_trials):
        _, ev = fuzion.run_logged(plan, seed, trial)
        rows.append(ev[ev[:, k.EV_KIND] == k.EVENT_ATTACK])
    return np.concatenate(rows)


def margins(rows):
    return rows[:, k.EV_ROLL] - (rows[:, k.EV_DV] - rows[:, k.EV_AV])


# --- 1. chinks against Kill armour ---------------------------------------------------------


def test_chinks_ignore_kill_armour_in_the_kernel():
    """A 2-Kill rocket against 2 Kills of armour does nothing, unless the hit beats the DV by
    10 or more (chinks): then all its 2 Kills come off the structure."""
    rows = attack_rows(rocket_scenario(), 400)
    m = margins(rows)
    assert (m >= 10).any() and ((m >= 0) & (m < 10)).any()
    np.testing.assert_array_equal(rows[:, k.EV_THROUGH], np.where(m >= 10, 2, 0))
    off = attack_rows(rocket_scenario(chinks=False), 200)
    assert (margins(off) >= 10).any() and not off[:, k.EV_THROUGH].any()


def test_chinks_ignore_kill_armour_per_autofire_hit():
    """Autofire with a DC 16 gun (3 Kills of superdamage, F29) against 3 Kills of armour,
    ratio 1: hit h beats the DV by margin - h, and only the hits 10 or more over it do their
    3 Kills."""
    gun = {"name": "Cannon", "dc": 16, "skill": "Autofire Weapons", "range": 300, "rof": 20,
           "autofire": True}  # fmt: skip
    sc = scenario({"a": [gunner(gun, tactics=[{"do": "attack", "fire": 20}])],
                   "b": [tank(armor={"name": "Hull", "kills": 3})]},
                  max_rounds=1, chinks=True, campaign="everyday")  # fmt: skip
    rows = attack_rows(sc, 600)
    hits = rows[:, k.EV_SHOTS] // 1000
    chinked = np.array([sum(1 for h in range(n) if mm - h >= 10)
                        for mm, n in zip(margins(rows), hits, strict=True)])  # fmt: skip
    assert (chinked >= 2).any()
    np.testing.assert_array_equal(rows[:, k.EV_THROUGH], 3 * chinked)


def test_chinks_ignore_kill_armour_in_the_exact_attack():
    sc = rocket_scenario()
    got = scenario_attack(sc, "Gunner", "Tank")
    av, dv_base = got["attack"]["av"], got["attack"]["dv_base"]
    dlo, counts = _difference_counts("hero", "both")
    total = sum(counts)
    chink = sum(c for i, c in enumerate(counts) if dlo + i - (dv_base - av) >= 10)
    assert got["damage"]["pmf"] == {"0": float(1 - Fraction(chink, total)),
                                    "2": float(Fraction(chink, total))}  # fmt: skip
    assert math.isclose(got["damage"]["mean"], 2 * chink / total)
    off = scenario_attack(rocket_scenario(chinks=False), "Gunner", "Tank")
    assert off["damage"]["pmf"] == {"0": 1.0}
    # the kernel agrees with the exact chance of a chink
    rows = attack_rows(sc, 2000, seed=9)
    p = chink / total
    assert agrees((rows[:, k.EV_THROUGH] > 0).mean(), p, math.sqrt(p * (1 - p) / len(rows)))


# --- 2. an attack on a vehicle opposes its pilot --------------------------------------------


def test_a_vehicle_defends_with_ref_and_its_control_skill():
    """REF 7 + the higher of Driving 4 and Piloting 2 = 11, not DEX 3 + Ranged Evade 6 = 9
    (F31), against ranged attacks and in melee."""
    sheet = {"stats": {"REF": 7, "DEX": 3}, "skills": {"Driving": 4, "Piloting": 2,
                                                       "Ranged Evade": 6, "Melee": 5}}
    for pool in ({"kills": 100}, {"sdp": 500, "kills": None}):
        extra = {**sheet, **pool}
        if "sdp" in pool:
            extra["armor"] = {"name": "Plate", "pd": 3}
        got = scenario_attack(rocket_scenario(chinks=False, **extra), "Gunner", "Tank")
        assert got["attack"]["dv_base"] == 11
        rows = attack_rows(rocket_scenario(chinks=False, **extra), 5)
        assert (rows[:, k.EV_DV] == 11).all()
        brawler = fighter("Gunner", 0, skills={"Melee": 5},
                          weapon={"name": "Axe", "dc": 3, "kind": "melee", "skill": "Melee"},
                          tactics=[{"do": "attack"}])  # fmt: skip
        sc = scenario({"a": [brawler], "b": [tank(**extra, position=1)]}, max_rounds=1)
        assert scenario_attack(sc, "Gunner", "Tank")["attack"]["dv_base"] == 11


def test_a_person_still_defends_with_dex():
    person = {"name": "Tank", "stats": {"REF": 7, "DEX": 3},
              "skills": {"Driving": 4, "Ranged Evade": 6}}  # fmt: skip
    sc = scenario({"a": [gunner()], "b": [fighter(**person, position=3)]}, max_rounds=1)
    assert scenario_attack(sc, "Gunner", "Tank")["attack"]["dv_base"] == 9


def test_a_vehicle_without_a_control_skill_warns():
    sc = rocket_scenario(skills={"Gunnery": 3})
    assert any("Tank is a vehicle or object (kills: 100)" in w and "F31" in w
               for w in sc.warnings)  # fmt: skip
    assert not any("F31" in w for w in rocket_scenario().warnings)
