"""The exact path covers every new modifier: P(hit) through the general kernel under aim,
braced, cover, range, posture, size and surprise agrees with ``exact.attack`` fed the attack
value of ``exact.attack_value`` (within 4 standard errors); a wrong modifier must fail."""

from __future__ import annotations

import math

import pytest

from fuzion_sim import simulate
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems.fuzion.exact import attack, attack_value

TRIALS = 30_000


def shooter_vs_dummy(shooter: dict, dummy: dict, distance: float, rules=None) -> dict:
    """A rifleman against a target that never acts nor falls, for one round."""
    rifle = {"name": "Rifle", "dc": 6, "range": 400, "skill": "Rifle"}
    return {
        "name": "modifiers",
        "max_rounds": 1,
        "rules": {"impairment": False, "stunned": False, **(rules or {})},
        "sides": {
            "red": [{"name": "Shooter", "stats": {"REF": 6}, "skills": {"Rifle": 5},
                     "weapon": rifle, "position": 0, **shooter}],
            "blue": [{"name": "Dummy", "stats": {"DEX": 5, "BODY": 60},
                      "skills": {"Ranged Evade": 3}, "tactics": [{"do": "none"}],
                      "weapon": rifle, "position": distance, **dummy}],
        },
    }  # fmt: skip


def kernel_p_hit(data, seed=4):
    res = simulate(scenario_from_dict(data), trials=TRIALS, seed=seed, threads=2)
    attacks = int(res.tally.attacks_sum[0])
    return res.tally.landed_sum[0] / attacks, attacks


AIM3 = [{"when": "aim < 3", "do": "aim"}, {"do": "attack"}]

CASES = {
    "aim 3, braced, half body, long range": (
        {"tactics": AIM3, "braced": True}, {"cover": "half_body"}, 60.0,
        {"aim": 3, "braced": True, "cover": "half_body", "distance": 60.0},
    ),
    "prone, crouched at close range": (
        {}, {"prone": True, "crouched": True}, 8.0,
        {"prone": True, "crouched": True, "distance": 8.0},
    ),
    "head only, very large, extreme range": (  # beyond 400 m: shoot rather than close in
        {"tactics": [{"do": "attack"}]}, {"cover": "head_only", "size": "very_large"}, 520.0,
        {"cover": "head_only", "size": "very_large", "distance": 520.0},
    ),
    "silhouetted, GM modifier": (
        {"modifiers": -2}, {"silhouetted": True}, 30.0,
        {"silhouetted": True, "modifiers": -2, "distance": 30.0},
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_kernel_p_hit_matches_exact_attack_value(case):
    shooter, dummy, distance, kw = CASES[case]
    p, n = kernel_p_hit(shooter_vs_dummy(shooter, dummy, distance))
    av = attack_value(6, 5, weapon_range=400, **kw)
    exact = attack(av, 5 + 3, 6).p_hit
    assert abs(p - exact) <= 4 * math.sqrt(exact * (1 - exact) / n), (case, av, p, exact)


def test_surprise_plus_five_in_the_opening_phase_only():
    """Four attacks a trial, the first against a surprised target (+5)."""
    p, n = kernel_p_hit(shooter_vs_dummy({}, {"surprised": True}, 30.0))
    base = attack_value(6, 5, weapon_range=400, distance=30.0)
    first = attack(attack_value(6, 5, weapon_range=400, distance=30.0, surprised=True), 8, 6)
    rest = attack(base, 8, 6)
    exact = (first.p_hit + 3 * rest.p_hit) / 4
    assert abs(p - exact) <= 4 * math.sqrt(exact * (1 - exact) / n)


def test_negative_control_missing_modifier_is_caught():
    shooter, dummy, distance, kw = CASES["aim 3, braced, half body, long range"]
    p, n = kernel_p_hit(shooter_vs_dummy(shooter, dummy, distance))
    wrong = attack(attack_value(6, 5, weapon_range=400, **{**kw, "braced": False}), 8, 6).p_hit
    assert abs(p - wrong) > 4 * math.sqrt(wrong * (1 - wrong) / n)
