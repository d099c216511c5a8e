"""The FUDGE kernels against the exact oracles (fixed seeds, 4-standard-error tolerances,
chi-square for pmfs, a negative control that must fail), the duel kernel against the general
one bit for bit, and run-to-run determinism (1 against 2 threads)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from fudge_helpers import ISSUE_EXAMPLE, SCENARIOS, build, chi_square_p, duel, one_shot, within_se

from fuzion_sim import load_scenario, simulate
from fuzion_sim.api import exact_fight
from fuzion_sim.engine.outcomes import SHARED, Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.systems.fudge import run as frun
from fuzion_sim.systems.fudge.compile import compile_scenario
from fuzion_sim.systems.fudge.exact import Track, charge_outcomes, level_pmf, shot_outcomes
from fuzion_sim.systems.fudge.tables import LEVELS, locations

# --- the duel kernel is the general kernel, faster --------------------------------------------

DUEL_VARIANTS = [
    {},
    {"wounds": "core"},
    {"shot_roll": "margin"},
    {"shot_roll": "attack_dice", "zero_damage": "scratch"},
    {"out_at": "dead", "firearms_dead_at": "band"},
    {"out_at": "near_death", "wound_penalties": False},
    {"wounds": "core", "out_at": "dead", "core_overflow": "ignore", "core_dead_damage": 8},
    {"armour_stops": True, "tie_break": "listed"},
    {"modifiers_on": "skill", "base_difficulty": -1, "light": "night", "fog": "light"},
]
MEMBER_VARIANTS = [
    {},
    {"vaclav": {"initiative": 0}},  # a tie: a key each once a fight
    {"vaclav": {"skill": "Superb", "damage_capacity": "Terrible", "wound_width": 3},
     "alien": {"weapon": {"name": "Heavy", "bd": 6.5, "scale": 1, "sight": "infrared"},
               "armour": {"points": 1.5}, "ducked": True, "speed": "running"}},
    {"vaclav": {"weapon": "Bazooka"}, "alien": {"scale": 11, "cover": "partial"}},  # int32
]


@pytest.mark.parametrize(("rules", "members"),
                         list(itertools.product(DUEL_VARIANTS, MEMBER_VARIANTS)))
def test_duel_kernel_is_the_general_kernel_bit_for_bit(rules, members):
    sc = build(duel(rules, **members))
    fast, slow = frun.compile_scenario(sc), frun.compile_scenario(sc, "general")
    assert fast.kernel == "duel"
    key = chunk_key(23, 4)
    a, b = frun.run_chunk(fast, key, 100, 3000), frun.run_chunk(slow, key, 100, 3000)
    for name in SHARED:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(a.categories["wound_levels"], b.categories["wound_levels"])
    # straight into a tally: the same numbers as tallying the per-trial arrays
    streamed = frun.tally_chunk(fast, key, 100, 3000)
    kept = Tally.of(b, 2, frun.max_slots(slow), frun.outcome_schema(slow))
    for name, value in kept.to_state().items():
        assert np.array_equal(streamed.to_state()[name], value), name


def test_the_duel_kernel_refuses_what_it_does_not_honour():
    with pytest.raises(ValueError, match="hit locations"):
        frun.compile_scenario(build(duel({"hit_locations": "random"})), "duel")
    for rules in ({"order": "rolled"}, {"ranged_defence": "dodge"},
                  {"shot_critical": "incapacitate"}):  # fmt: skip
        assert frun.compile_scenario(build(duel(rules))).kernel == "general"


@pytest.mark.parametrize("name", ["two-fair-shooters", "vaclav-and-hubert", "breach", "grenade"])
def test_one_thread_and_two_give_the_same_numbers(name):
    sc = load_scenario(SCENARIOS / f"{name}.yaml")
    runs = [simulate(sc, trials=140_000, seed=3, threads=t, progress=False) for t in (1, 2)]
    one, two = (r.tally.to_state() for r in runs)
    for key, value in one.items():
        assert np.array_equal(value, two[key]), key


# --- one shot against the exact pmf -----------------------------------------------------------

ONE_SHOT_CASES = {
    "default": one_shot(),
    "margin, armour, decimal BD": one_shot({"weapon": {"name": "X", "bd": 5.5}},
                                           {"armour": {"points": 1}},
                                           rules={"shot_roll": "margin"}),
    "attack dice, core": one_shot(rules={"shot_roll": "attack_dice", "wounds": "core"},
                                  distance=2),
    "random locations": one_shot({"skill": "Great"}, rules={"hit_locations": "random"}),
    "aimed, random fallback": one_shot({"aim": "head", "skill": "Good"},
                                       rules={"hit_locations": "aimed",
                                              "aim_fallback": "random"}),
    "dodge and criticals": one_shot({"skill": "Superb"}, {"dodge": "Good"},
                                    rules={"ranged_defence": "dodge",
                                           "shot_critical": "incapacitate"}),
    "bazooka on a tank": one_shot({"weapon": "Bazooka", "skill": "Good"},
                                  {"scale": 11}, distance=30),
}  # fmt: skip


def _exact_one_shot(data):
    plan = compile_scenario(build(data))
    outcomes = [(p, () if h is None else (h,)) for p, h in shot_outcomes(plan, 0, 1)]
    damage: dict = {}
    for p, hits in outcomes:
        d = sum(h.damage for h in hits)
        damage[d] = damage.get(d, 0) + p
    return damage, level_pmf(Track(plan, 1), outcomes)


def _kernel_one_shot(data, trials=60_000, seed=5):
    res = simulate(build(data), trials=trials, seed=seed, threads=2, keep_trials=True,
                   progress=False)  # fmt: skip
    taken = res.outcomes.taken[:, 1]
    damage = dict(zip(*np.unique(taken, return_counts=True), strict=True))
    levels = res.tally.categories["wound_levels"][1]
    return {int(k): int(v) for k, v in damage.items()}, dict(zip(LEVELS, levels, strict=True))


@pytest.mark.parametrize("case", list(ONE_SHOT_CASES))
def test_one_shot_matches_the_exact_damage_and_wound_pmfs(case):
    data = ONE_SHOT_CASES[case]
    damage, levels = _exact_one_shot(data)
    got_damage, got_levels = _kernel_one_shot(data)
    assert chi_square_p(got_damage, damage) > 1e-3
    assert chi_square_p(got_levels, levels) > 1e-3


def test_negative_control_a_wrong_pmf_fails():
    """The same test against the pmf of a blaster one BD stronger must fail."""
    got_damage, got_levels = _kernel_one_shot(ONE_SHOT_CASES["default"])
    wrong_damage, wrong_levels = _exact_one_shot(one_shot({"weapon": {"name": "X", "bd": 5}}))
    assert chi_square_p(got_damage, wrong_damage) < 1e-6
    assert chi_square_p(got_levels, wrong_levels) < 1e-6


def test_random_hit_locations_follow_method_1():
    res = simulate(build(ONE_SHOT_CASES["random locations"]), trials=80_000, seed=9,
                   progress=False)  # fmt: skip
    hits = res.tally.categories["location_hits"][1]
    from fuzion_sim.systems.fudge.dice import COUNTS

    want = {r.part: Fraction(COUNTS[r.roll + 4], 81) for r in locations()}
    got = {r.part: int(h) for r, h in zip(locations(), hits, strict=True)}
    assert chi_square_p(got, want) > 1e-3


# --- whole fights against the Markov chain ---------------------------------------------------

FIGHTS = [
    ({}, {}),
    ({"wounds": "core"}, {}),
    ({"order": "simultaneous"}, {}),
    ({"order": "rolled"}, {"vaclav": {"initiative": 2}}),
    ({"ranged_defence": "dodge", "shot_critical": "incapacitate"},
     {"vaclav": {"dodge": "Great"}, "alien": {"dodge": "Poor"}}),
    ({"out_at": "dead", "wounds": "core"}, {}),
    ({"shot_roll": "margin"}, {"vaclav": {"initiative": 0}}),
    ({}, {"vaclav": {"skill": "Good"}, "alien": {"damage_capacity": "Good",
                                                 "weapon": "Bazooka", "distance": 8}}),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "members"), FIGHTS)
def test_a_gunfight_agrees_with_the_exact_chain(rules, members):
    sc = build(duel(rules, **members))
    exact = exact_fight(sc)
    res = simulate(sc, trials=150_000, seed=29, threads=2, progress=False)
    n = res.trials
    for side in sc.side_names:
        assert within_se(res.win_probability(side), exact["sides"][side]["win_probability"], n)
    assert within_se(res.draw_probability, exact["draw_probability"], n)
    assert within_se(res.unresolved_probability, exact["unresolved_probability"], n)
    kt, ex = res.kill_time(), exact["kill_time"]
    decided = kt["n"]
    assert abs(kt["mean"] - ex["mean"]) <= 4 * ex["sd"] / decided**0.5
    times = {int(t): int(c) for t, c in enumerate(res.kill_time_counts()) if c}
    assert chi_square_p(times, {int(t): p for t, p in ex["pmf"].items()}) > 1e-3


def test_the_issue_example_run_and_exact_agree():
    exact = exact_fight(ISSUE_EXAMPLE)
    res = simulate(ISSUE_EXAMPLE, trials=200_000, progress=False)
    p = exact["sides"]["vaclav"]["win_probability"]
    assert within_se(res.win_probability("vaclav"), p, res.trials)
    # the UA12 note: 4.7 rounds on the firearms track, 8.8 on core
    assert round(exact["kill_time"]["mean"], 1) == 4.7
    core = exact_fight(build({**duel({"wounds": "core"})}))
    assert round(core["kill_time"]["mean"], 1) == 8.8


# --- explosions against the exact blast -----------------------------------------------------


def _blast_scenario(rules=None):
    grenade = {"name": "Nade", "bd": 4, "concussion": 8, "concussion_range": 3,
               "burst_radius": 4, "concussion_value": "Good"}  # fmt: skip
    victims = [{"name": f"At {d} m", "position": d, **extra} for d, extra in
               ((1, {}), (3, {"ducked": True}), (6, {"cover": "partial"}), (7, {}),
                (9, {"cover": "full"}))]  # fmt: skip
    return {"name": "blast", "system": "fudge", "max_rounds": 2, "rules": dict(rules or {}),
            "sides": {"bomber": [{"name": "Nade", "charge": grenade, "position": 0}],
                      "men": victims}}  # fmt: skip


@pytest.mark.parametrize("rules", [{}, {"concussion_value": "avoid_roll", "frag_zones": "both",
                                        "blast_damage": "separate"}])
def test_a_blast_matches_its_exact_distribution(rules):
    data = _blast_scenario(rules)
    sc = build(data)
    plan = compile_scenario(sc)
    res = simulate(sc, trials=40_000, seed=31, keep_trials=True, progress=False)
    for v in range(1, 6):
        exact: dict = {}
        for hits, p in charge_outcomes(plan, 0, v).items():
            d = sum(h.damage for h in hits)
            exact[d] = exact.get(d, 0) + p
        taken = res.outcomes.taken[:, v]
        got = {int(k): int(c) for k, c in zip(*np.unique(taken, return_counts=True),
                                               strict=True)}  # fmt: skip
        assert chi_square_p(got, exact) > 1e-3, v


def test_the_breach_scenario_wins_as_often_as_the_rule_says():
    res = simulate(SCENARIOS / "breach.yaml", trials=100_000, progress=False)
    p = float(Fraction(66, 81) * Fraction(31, 81))  # tamped, then breached or about to
    assert within_se(res.win_probability("party"), p, res.trials)
    state = dict(zip(frun.BREACH_LABELS, res.tally.categories["breach"][4], strict=True))
    assert within_se(state["breached"] / res.trials, p, res.trials)
    assert state["about_to_breach"] == 0  # the backup charge always follows it up


def test_the_dynamite_distances_are_certain():
    res = simulate(SCENARIOS / "dynamite.yaml", trials=2000, progress=False)
    levels = res.category_counts("wound_levels")
    want = {"At 2 m": "dead", "At 5 m": "dead", "Ducked at 5 m": "very_hurt",
            "Superb at 5 m": "near_death", "At 10 m": "very_hurt", "At 20 m": "scratch"}
    for who, level in want.items():
        assert levels[who] == {level: 2000}
    assert res.win_probability("bystanders") == 1.0
