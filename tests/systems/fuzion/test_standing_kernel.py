"""The standing-fight kernel against the general kernel: the same fights, bit for bit.

Scenarios in which nobody needs to move or choose run on ``kernel_standing`` (or its duel and
squad copies); the general kernel runs them too (``compile_scenario(kernel="general")``) and
must give identical per-trial outcomes on the same seed, trial by trial.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SCENARIOS

from fuzion_sim.engine.outcomes import HIST_SLOTS, Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import load_scenario
from fuzion_sim.systems import fuzion

GREEN = {
    "name": "Green",
    "stats": {"REF": 9, "DEX": 5, "BODY": 6},
    "skills": {"Handgun": 5},
    "weapon": "Medium Pistol",
    "position": 10,
}
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
    "squad, the duel's fighters": ("bench-squad-4v4-duelists.yaml", []),
    # ... cut short after two rounds, most fights unresolved with the dying still bleeding
    "squad, two rounds": ("bench-squad-4v4.yaml", [("max_rounds", 2)]),
    # ... with Stun weapons knocking fighters out to wake again and the dying fighting on and
    # bleeding, in phases (the squad kernel) ...
    "squad, stun and waking in phases": (
        "bench-squad-4v4.yaml",
        [
            ("sides.red[1].weapon.damage", "stun"),
            ("sides.blue[0].weapon.damage", "stun"),
            ("sides.blue[3].weapon.damage", "stun"),
            ("rules.dying_can_act", True),
            ("rules.dying_penalty", 3),
        ],
    ),
    # ... with a third side, a maul among the guns and every REF different (no ties) ...
    "squad, three sides and a maul": (
        "bench-squad-4v4.yaml",
        [
            ("sides.green", [GREEN]),
            ("sides.red[0].position", 10),
            (
                "sides.red[0].weapon",
                {"name": "Maul", "kind": "melee", "dc": 5, "min_str": 2, "skill": "Handgun"},
            ),
            ("sides.blue[0].stats.REF", 10),
            ("sides.blue[1].stats.REF", 11),
            ("sides.blue[2].stats.REF", 12),
            ("sides.blue[3].stats.REF", 13),
        ],
    ),
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
    general = fuzion.compile_scenario(sc, kernel="general")
    assert fast.kernel != "general" and general.kernel == "general"
    key = chunk_key(5, 0)
    a = fuzion.run_chunk(fast, key, 0, 20_000)
    b = fuzion.run_chunk(general, key, 0, 20_000)
    for x, y in zip(a.arrays(), b.arrays(), strict=True):
        np.testing.assert_array_equal(x, y)
    # streamed: the standing (or duel) kernel adds the trials straight into a tally
    n_sides, slots = fuzion.n_sides(fast), fuzion.max_slots(fast)
    streamed = fuzion.tally_chunk(fast, key, 0, 20_000)
    for field, value in Tally.of(b, n_sides, slots).to_state().items():
        np.testing.assert_array_equal(streamed.to_state()[field], value, err_msg=field)


def test_moving_fights_leave_the_standing_kernels():
    sc = load_scenario(
        SCENARIOS / "marshal-vs-outlaw.yaml", overrides=[("sides.blue[0].position", 80)]
    )  # beyond the Magnum's 50 m: the Marshal closes in, which only the squad kernel runs
    assert fuzion.compile_scenario(sc).kernel == "squad"
    sc = load_scenario(
        SCENARIOS / "marshal-vs-outlaw.yaml", overrides=[("sides.red[0].tactics", "sniper")]
    )
    assert fuzion.compile_scenario(sc).kernel == "general"


DUELS = ["benchmark", "flagship", "interlock", "switch2", "stun and dying", "melee and heavy dice"]
SQUADS = [
    "squad", "squad, the duel's fighters", "squad, two rounds", "squad, stun and waking in phases",
    "squad, three sides and a maul",
]  # fmt: skip


def _standing(name: str):
    """The fight ``name`` of :data:`VARIANTS` as loaded, and compiled for the standing kernel
    (``compile_scenario(kernel="standing")``), whichever kernel it would otherwise get."""
    path, overrides = VARIANTS[name]
    sc = load_scenario(SCENARIOS / path, overrides=overrides)
    return sc, fuzion.compile_scenario(sc, kernel="standing")


@pytest.mark.parametrize("name", DUELS)
def test_duel_kernel_equals_standing_kernel(name):
    """One against one: the scalar duel kernel gives the standing kernel's trials bit for bit,
    both written per trial and added straight into a tally."""
    sc, on_standing = _standing(name)
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "duel" and on_standing.kernel == "standing"
    key = chunk_key(9, 0)
    duel = fuzion.run_chunk(plan, key, 0, 20_000)  # the duel kernel
    standing = fuzion.run_chunk(on_standing, key, 0, 20_000)
    for x, y in zip(duel.arrays(), standing.arrays(), strict=True):
        np.testing.assert_array_equal(x, y)
    streamed = fuzion.tally_chunk(plan, key, 0, 20_000)
    expected = Tally.of(standing, 2, fuzion.max_slots(plan))
    for field, value in expected.to_state().items():
        np.testing.assert_array_equal(streamed.to_state()[field], value, err_msg=field)


@pytest.mark.parametrize("name", SQUADS + [d for d in DUELS if d != "switch2"])
def test_squad_kernel_equals_standing_kernel(name):
    """In phases without switch2 the squad kernel gives the standing kernel's trials bit for
    bit (one against one too, which ``run_chunk`` gives the duel kernel), both written per
    trial and added straight into a tally."""
    sc, on_standing = _standing(name)
    plan = fuzion.compile_scenario(sc, kernel="squad")
    key, n, slots = chunk_key(11, 0), 20_000, fuzion.max_slots(plan)
    squad = fuzion.run_chunk(plan, key, 0, n)
    standing = fuzion.run_chunk(on_standing, key, 0, n)
    for x, y in zip(squad.arrays(), standing.arrays(), strict=True):
        np.testing.assert_array_equal(x, y)
    assert slots <= HIST_SLOTS  # so the squad kernel adds the trials into the tally itself
    streamed = fuzion.tally_chunk(plan, key, 0, n)
    for field, value in Tally.of(standing, plan.n_sides, slots).to_state().items():
        np.testing.assert_array_equal(streamed.to_state()[field], value, err_msg=field)


def test_kernel_choice():
    """Which kernel runs a standing fight: the duel's, the squad's, or the standing one for the
    speed chart, switch2 and surprise."""
    def plan(path, overrides=()):
        return fuzion.compile_scenario(load_scenario(SCENARIOS / path, overrides=overrides))

    assert plan("benchmark-duel.yaml").kernel == "duel"
    assert plan("bench-squad-4v4.yaml").kernel == "squad"
    assert plan("bench-squad-4v4.yaml", [("sides.red[0].targeting", "nearest")]).kernel == "squad"
    for overrides in (
        [("rules.timing", "speed_chart")],
        [("rules.initiative", "switch2")],
        [("sides.red[0].surprised", True)],
        [("rules.chinks", True)],
    ):
        assert plan("bench-squad-4v4.yaml", overrides).kernel == "standing"
