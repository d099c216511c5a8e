"""The plain duel kernels (``kernel_duel_plain``) against the duel kernel: the same trials.

A duel in which nothing but Hits and Stun can change runs on the plain kernel, one with
impairment or stunned on (both weapons Killing) on its ``wounds`` kernel (``FightPlan.plain``);
the same plan with ``plain=""`` runs on the duel kernel, which the other tests hold to the
standing and general kernels. Both must give identical per-trial outcomes on the same seed,
and the same tally when the trials are added straight into one.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest
from conftest import SCENARIOS
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import fight

from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import load_scenario, scenario_from_dict
from fuzion_sim.systems import fuzion

BENCH = SCENARIOS / "benchmark-duel.yaml"
PISTOL4 = {"name": "P4", "dc": 4, "skill": "Handgun", "range": 50}

#: Plain duels: the benchmark and what can differ in one.
PLAIN = {
    "benchmark": [],
    "interlock, criticals on the attacker's die": [
        ("rules.dice", "interlock"), ("rules.criticals", "attacker"),
    ],
    "B acts first": [("sides.b[0].stats.REF", 9)],
    "cut short (unresolved)": [("max_rounds", 1)],
    "deaths in one blow": [("sides.a[0].weapon", PISTOL4), ("sides.b[0].stats.BODY", 2)],
    "Hits below Stun and Stun below Hits": [("sides.a[0].hits", 9), ("sides.b[0].stun", 7)],
    "modifiers and cover": [
        ("sides.a[0].modifiers", 2), ("sides.b[0].cover", "half_body"),
        ("sides.b[0].defence_modifiers", -1),
    ],
    "a knife against a pistol": [
        ("sides.a[0].weapon", "Dagger"), ("sides.a[0].skills.Melee", 4),
        ("sides.b[0].position", 1),
    ],
    "Stun damage, SD above the armour": [
        ("sides.a[0].weapon", {**PISTOL4, "damage": "stun"}), ("sides.b[0].sd", 8),
        ("sides.b[0].stun", 35), ("sides.b[0].hits", 7), ("sides.b[0].stats.BODY", 2),
    ],
    "no armour, no hit": [("sides.b[0].armor", None), ("sides.a[0].modifiers", -30)],
}  # fmt: skip

WOUNDS_ON = [("rules.impairment", True), ("rules.stunned", True)]

#: Plain duels with impairment or stunned on (the ``wounds`` kernel).
WOUNDS = {
    "impairment and stunned": WOUNDS_ON,
    "impairment": [("rules.impairment", True)],
    "stunned": [("rules.stunned", True)],
    "interlock, dying penalty 3": [*WOUNDS_ON, ("rules.dice", "interlock"),
                                   ("rules.dying_penalty", 3)],
    "deaths in one blow": [*WOUNDS_ON, ("sides.a[0].weapon", PISTOL4),
                           ("sides.b[0].stats.BODY", 2)],
    "a knife, its dice falling with STR": [
        *WOUNDS_ON, ("sides.a[0].weapon", "Dagger"), ("sides.a[0].skills.Melee", 4),
        ("sides.b[0].position", 1), ("sides.a[0].stats.STR", 3),
    ],
    "low Stun: stunned by most hits": [*WOUNDS_ON, ("sides.b[0].stun", 9),
                                       ("sides.a[0].hits", 12)],
    "cut short (unresolved)": [*WOUNDS_ON, ("max_rounds", 1)],
}  # fmt: skip

#: Duels the plain kernel does not run: something other than Hits can change, the order of
#: action is not fixed, or an attack needs more than one generator step.
NOT_PLAIN = {
    "impairment with a Stun weapon": [
        ("rules.impairment", True), ("sides.a[0].weapon", {**PISTOL4, "damage": "stun"}),
    ],
    "dying fight on": [("rules.dying_can_act", True)],
    "switch2": [("rules.initiative", "switch2")],
    "equal REF (a tie die)": [("sides.b[0].stats.REF", 7)],
    "Stun damage, Stun above 5 x Hits": [
        ("sides.a[0].weapon", {**PISTOL4, "damage": "stun"}), ("sides.b[0].stun", 36),
        ("sides.b[0].hits", 7),
    ],
    "five dice": [("sides.a[0].weapon", {**PISTOL4, "dc": 5})],
    "hit locations": [("rules.hit_locations", "random")],
}


def _same(plan, n=20_000, seed=9):
    """The plan's trials on its plain kernel and on the duel kernel are the same, per trial
    and streamed into a tally."""
    assert plan.kernel == "duel" and plan.plain
    duel = plan._replace(plain="")
    key = chunk_key(seed, 3)
    a = fuzion.run_chunk(plan, key, 5, n)
    b = fuzion.run_chunk(duel, key, 5, n)
    for f in fields(a):
        if f.name not in ("counters", "categories"):
            np.testing.assert_array_equal(getattr(a, f.name), getattr(b, f.name), f.name)
    streamed, expected = fuzion.tally_chunk(plan, key, 5, n), fuzion.tally_chunk(duel, key, 5, n)
    for field, value in expected.to_state().items():
        np.testing.assert_array_equal(streamed.to_state()[field], value, err_msg=field)
    return a


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_plain_duel_equals_duel_kernel(name):
    plan = fuzion.compile_scenario(load_scenario(BENCH, overrides=PLAIN[name]))
    assert plan.plain == "plain"
    out = _same(plan)
    if name == "deaths in one blow":  # the case is there: deaths, and by the second actor too
        assert (out.death_slot[:, 1] > 0).sum() > 100
    if name == "cut short (unresolved)":
        assert (out.winner < 0).sum() > 100


@pytest.mark.parametrize("name", sorted(WOUNDS))
def test_wounds_duel_equals_duel_kernel(name):
    plan = fuzion.compile_scenario(load_scenario(BENCH, overrides=WOUNDS[name]))
    assert plan.plain == "wounds"
    out = _same(plan)
    if name == "deaths in one blow":
        assert (out.death_slot[:, 1] > 0).sum() > 100
    if name == "cut short (unresolved)":
        assert (out.winner < 0).sum() > 100


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_plain_duel_equals_general_kernel(name):
    """The same fights on the general kernel (``compile_scenario(kernel="general")``): the
    plain kernel's trials, trial by trial."""
    sc = load_scenario(BENCH, overrides=PLAIN[name])
    plain, general = fuzion.compile_scenario(sc), fuzion.compile_scenario(sc, kernel="general")
    assert plain.plain and general.kernel == "general"
    key = chunk_key(4, 1)
    a, b = fuzion.run_chunk(plain, key, 0, 5_000), fuzion.run_chunk(general, key, 0, 5_000)
    for f in fields(a):
        if f.name not in ("counters", "categories"):
            np.testing.assert_array_equal(getattr(a, f.name), getattr(b, f.name), f.name)


@pytest.mark.parametrize("name", sorted(NOT_PLAIN))
def test_fights_that_are_not_plain(name):
    plan = fuzion.compile_scenario(load_scenario(BENCH, overrides=NOT_PLAIN[name]))
    assert plan.kernel == "duel" and not plan.plain


_PLAIN_RULES = {"dying_can_act": False, "initiative": "switch1", "hit_locations": "none",
                "knockback": False}  # fmt: skip


@settings(max_examples=60, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # fmt: skip
@given(data=st.data())
def test_random_plain_duels_equal_the_duel_kernel(data):
    """Duels drawn at random (the dispatch tests' strategy, with the rules that would change
    the order of action or need the duel kernel mostly switched off; impairment and stunned
    as drawn): every one a plain kernel takes gives the duel kernel's trials."""
    drawn = data.draw(fight("duel"))
    if data.draw(st.integers(0, 3)) > 0:
        drawn["rules"].update(_PLAIN_RULES)
    plan = fuzion.compile_scenario(scenario_from_dict(drawn))
    assume(plan.kernel == "duel" and plan.plain)
    _same(plan, n=2_000, seed=drawn["seed"])
