"""The standing-fight kernel against the general kernel: the same fights, bit for bit.

Scenarios in which nobody needs to move or choose run on ``kernel_standing``; the general
kernel runs them too (``compile_scenario(standing=False)``) and must give identical per-trial
outcomes on the same seed, trial by trial.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SCENARIOS

from fuzion_sim.engine.outcomes import Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import load_scenario
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion.compile import Plan, StandingPlan

VARIANTS = {
    "benchmark": ("benchmark-duel.yaml", []),
    "flagship": ("marshal-vs-outlaw.yaml", []),
    "interlock": ("marshal-vs-outlaw.yaml", [("rules.dice", "interlock")]),
    "switch2": ("marshal-vs-outlaw.yaml", [("rules.initiative", "switch2")]),
    "speed chart": (
        "marshal-vs-outlaw.yaml",
        [("rules.timing", "speed_chart"), ("sides.red[0].spd", 6), ("sides.blue[0].spd", 3)],
    ),
    "extra actions": (
        "marshal-vs-outlaw.yaml",
        [("rules.timing", "extra_actions"), ("sides.red[0].spd", 7)],
    ),
    "surprise and cover": (
        "marshal-vs-outlaw.yaml",
        [
            ("sides.blue[0].surprised", True),
            ("sides.red[0].cover", "half_body"),
            ("sides.blue[0].braced", True),
            ("sides.red[0].modifiers", -1),
        ],
    ),
    "stun and dying": (
        "marshal-vs-outlaw.yaml",
        [("rules.dying_can_act", True), ("sides.red[0].weapon.damage", "stun")],
    ),
    # STR dice over a melee weapon's minimum (8 dice: a full table group and 3), a DC 12 rifle
    # (two groups and 2), a dying penalty that is not the impairment's
    "melee and heavy dice": (
        "marshal-vs-outlaw.yaml",
        [
            (
                "sides.red[0].weapon",
                {"name": "Maul", "kind": "melee", "dc": 5, "min_str": 2, "skill": "Handgun"},
            ),
            ("sides.blue[0].position", 1),
            ("sides.blue[0].weapon.dc", 12),
            ("rules.dying_can_act", True),
            ("rules.dying_penalty", 3),
        ],
    ),
    # four against four: targets falling and re-chosen, sides thinning out
    "squad": ("bench-squad-4v4.yaml", []),
    # ... with Stun weapons knocking fighters out to wake again, the dying fighting on and
    # bleeding, on the speed chart with its free Recovery after segment 12
    "squad, stun and waking": (
        "bench-squad-4v4.yaml",
        [
            ("sides.red[1].weapon.damage", "stun"),
            ("sides.blue[0].weapon.damage", "stun"),
            ("sides.blue[3].weapon.damage", "stun"),
            ("rules.dying_can_act", True),
            ("rules.timing", "speed_chart"),
            ("sides.red[2].spd", 5),
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_standing_kernel_equals_general_kernel(name):
    path, overrides = VARIANTS[name]
    sc = load_scenario(SCENARIOS / path, overrides=overrides)
    fast = fuzion.compile_scenario(sc)
    general = fuzion.compile_scenario(sc, standing=False)
    assert isinstance(fast, StandingPlan) and isinstance(general, Plan)
    key = chunk_key(5, 0)
    a = fuzion.run_chunk(fast, key, 0, 20_000)
    b = fuzion.run_chunk(general, key, 0, 20_000)
    for x, y in zip(a.arrays(), b.arrays(), strict=True):
        np.testing.assert_array_equal(x, y)
    # streamed: the standing (or duel) kernel adds the trials straight into a tally
    n_sides, slots = fuzion.n_sides(fast), fuzion.max_slots(fast)
    streamed = fuzion.tally_chunk(fast, key, 0, 20_000, n_sides, slots)
    for field, value in Tally.of(b, n_sides, slots).to_state().items():
        np.testing.assert_array_equal(getattr(streamed, field), value, err_msg=field)


def test_moving_fights_use_the_general_kernel():
    sc = load_scenario(
        SCENARIOS / "marshal-vs-outlaw.yaml", overrides=[("sides.blue[0].position", 80)]
    )  # beyond the Magnum's 50 m: the Marshal closes in
    assert isinstance(fuzion.compile_scenario(sc), Plan)
    sc = load_scenario(
        SCENARIOS / "marshal-vs-outlaw.yaml", overrides=[("sides.red[0].tactics", "sniper")]
    )
    assert isinstance(fuzion.compile_scenario(sc), Plan)


DUELS = ["benchmark", "flagship", "interlock", "switch2", "stun and dying", "melee and heavy dice"]


@pytest.mark.parametrize("name", DUELS)
def test_duel_kernel_equals_standing_kernel(name):
    """One against one: the scalar duel kernel gives the standing kernel's trials bit for bit,
    both written per trial and added straight into a tally."""
    from fuzion_sim.engine.outcomes import TrialOutcomes
    from fuzion_sim.systems.fuzion import kernel_standing

    path, overrides = VARIANTS[name]
    sc = load_scenario(SCENARIOS / path, overrides=overrides)
    plan = fuzion.compile_scenario(sc)
    assert fuzion.is_duel(plan)
    key = chunk_key(9, 0)
    duel = fuzion.run_chunk(plan, key, 0, 20_000)  # the duel kernel
    standing = TrialOutcomes.empty(20_000, 2)
    log, count = np.zeros((1, 17), np.int64), np.zeros(1, np.int64)
    no_tally = fuzion._tally_args(None)
    kernel_standing.run_chunk(key, 0, 20_000, *plan, *standing.arrays(), -1, log, count, *no_tally)
    for x, y in zip(duel.arrays(), standing.arrays(), strict=True):
        np.testing.assert_array_equal(x, y)
    streamed = fuzion.tally_chunk(plan, key, 0, 20_000, 2, fuzion.max_slots(plan))
    expected = Tally.of(standing, 2, fuzion.max_slots(plan))
    for field, value in expected.to_state().items():
        np.testing.assert_array_equal(getattr(streamed, field), value, err_msg=field)
