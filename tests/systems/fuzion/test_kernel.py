"""The Fuzion kernel against exact answers: the benchmark duel and single attacks.

Every statistical check uses a fixed seed and a tolerance of 4 standard errors; each has a
negative control that the same check must reject.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from oracles import agrees, chi2_p

from fuzion_sim import simulate
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems.fuzion.exact import Fighter, attack, duel

BENCH_A = Fighter(av=11, dv_base=9, dc=4, pd=6, hits=30)
BENCH_B = Fighter(av=11, dv_base=9, dc=4, pd=6, hits=30)
DUEL_TRIALS = 150_000  # three chunks, the last one partial


def run_duel(data, dice="hero", criticals="both", trials=DUEL_TRIALS, seed=11):
    data["rules"].update(dice=dice, criticals=criticals)
    return simulate(scenario_from_dict(data), trials=trials, seed=seed, threads=2)


@pytest.mark.parametrize(
    ("dice_name", "criticals", "p_exact", "mean_exact"),
    [("hero", "both", 0.604623, 4.318834), ("interlock", "attacker", 0.573434, 5.031652)],
)
def test_benchmark_duel_matches_performance_notes(
    benchmark_duel_data, dice_name, criticals, p_exact, mean_exact
):
    res = run_duel(benchmark_duel_data, dice_name, criticals)
    n = res.trials
    p = res.win_probability("a")
    assert agrees(p, p_exact, math.sqrt(p_exact * (1 - p_exact) / n))
    kt = res.kill_time()
    assert agrees(kt["mean"], mean_exact, kt["sd"] / math.sqrt(kt["n"]))
    # the whole kill-time distribution, against the exact duel
    ex = duel(BENCH_A, BENCH_B, dice=dice_name, criticals=criticals)
    assert ex.p_a_wins == pytest.approx(p_exact, abs=1e-6)
    counts = res.kill_time_counts()[ex.kill_time.values]
    assert chi2_p(counts, ex.kill_time.probs) > 1e-4


def test_negative_control_benchmark_duel_other_dice(benchmark_duel_data):
    """The HERO run must be rejected against the Interlock answer by the same 4-SE check."""
    res = run_duel(benchmark_duel_data, "hero", "both")
    n = res.trials
    assert not agrees(res.win_probability("a"), 0.573434, math.sqrt(0.25 / n))
    ex = duel(BENCH_A, BENCH_B, dice="interlock", criticals="attacker")
    counts = res.kill_time_counts()[ex.kill_time.values]
    assert chi2_p(counts, ex.kill_time.probs) < 1e-6


def single_attack_scenario(dice_name, criticals, dc, damage, pd, distance, rng_kw):
    """An attacker whose target cannot hurt it (a DC 0 weapon), never moves and cannot go
    down, for one round: four attacks per trial, all at the same AV and DV."""
    return {
        "name": "single attacks",
        "max_rounds": 1,
        "rules": {"dice": dice_name, "criticals": criticals, "impairment": False,
                  "stunned": False},
        "sides": {
            "red": [{"name": "Shooter", "stats": {"REF": 6}, "skills": {"Handgun": 4},
                     "weapon": {"name": "Test gun", "dc": dc, "damage": damage, "skill": "Handgun",
                                "range": 50, **rng_kw},
                     "position": 0}],
            "blue": [{"name": "Target", "stats": {"DEX": 5, "BODY": 40, "CON": 2},
                      "skills": {"Ranged Evade": 3},
                      "weapon": {"name": "Feather", "dc": 0, "kind": "melee", "skill": "Melee"},
                      "tactics": [{"do": "none"}],
                      "armor": {"name": "Vest", "pd": pd}, "position": distance}],
        },
    }  # fmt: skip


RANGE_MOD = {3: 0, 8: -2, 30: -4}


@pytest.mark.parametrize(
    ("dice_name", "criticals", "dc", "damage", "pd", "distance"),
    [
        ("hero", "both", 4, "killing", 6, 3),
        ("hero", "none", 7, "killing", 3, 8),
        ("interlock", "both", 3, "stun", 2, 30),
        ("interlock", "attacker", 12, "killing", 10, 3),
        ("hero", "both", 5, "stun", 0, 8),
    ],
)
def test_kernel_single_attack_agrees_with_exact(dice_name, criticals, dc, damage, pd, distance):
    data = single_attack_scenario(dice_name, criticals, dc, damage, pd, distance, {})
    res = simulate(scenario_from_dict(data), trials=40_000, seed=3, threads=2)
    av = 6 + 4 + RANGE_MOD[distance]
    dv_base = 5 + 3
    sd = 4  # CON 2
    ex = attack(av, dv_base, dc, pd=pd, sd=sd, damage=damage, dice=dice_name, criticals=criticals)
    tl = res.tally
    attacks = int(tl.attacks_sum[0])
    assert attacks == 4 * res.trials
    p_hit = tl.landed_sum[0] / attacks
    assert agrees(p_hit, ex.p_hit, math.sqrt(ex.p_hit * (1 - ex.p_hit) / attacks))
    mean = tl.dealt_sum[0] / attacks
    var = float(np.sum(ex.damage.probs * (ex.damage.values - ex.mean) ** 2))
    assert agrees(mean, ex.mean, math.sqrt(var / attacks))
    # per-trial damage is the sum of four independent attacks: a chi-square on its pmf
    four = np.array([1.0])
    pmf = np.zeros(int(ex.damage.values.max()) + 1)
    pmf[ex.damage.values] = ex.damage.probs
    for _ in range(4):
        four = np.convolve(four, pmf)
    dealt = res.outcomes.dealt[:, 0]
    counts = np.bincount(dealt, minlength=four.size)[: four.size]
    assert counts.sum() == res.trials
    assert chi2_p(counts, four) > 1e-4


def test_negative_control_single_attack_wrong_armour():
    """Two points of armour off must be caught by the same chi-square."""
    data = single_attack_scenario("hero", "both", 4, "killing", 6, 3, {})
    res = simulate(scenario_from_dict(data), trials=40_000, seed=3, threads=2)
    ex = attack(10, 8, 4, pd=4, dice="hero", criticals="both")
    pmf = np.zeros(int(ex.damage.values.max()) + 1)
    pmf[ex.damage.values] = ex.damage.probs
    four = np.array([1.0])
    for _ in range(4):
        four = np.convolve(four, pmf)
    counts = np.bincount(res.outcomes.dealt[:, 0], minlength=four.size)[: four.size]
    assert chi2_p(counts, four) < 1e-6
