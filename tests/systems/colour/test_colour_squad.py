"""The squad kernel's short paths held to the general kernel trial by trial: the quiet runs of a
battle of two sides (through the ends of rounds, and past round 63, when the packed counts are
flushed), the attack a quiet run hands on drawn when it has blows to work out, the slots of
those who fell passed over, the pair words of classes of combatants, initiative for more
than 64 combatants, and volleys at the most rounds a turn slot's word holds and past it."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from colour_cases import fight, member, scenario

from fuzion_sim.engine.outcomes import SHARED, Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.systems.colour import run

RANKS = ("Poor", "Typical", "Good", "Excellent", "Remarkable")
SMG = {"name": "SMG", "kind": "ranged", "damage": 6, "rapid_fire": "full_auto", "rounds": 6}
WEAPONS = ("Crowbar", "Brick", "Machine gun", "Zombie bite", "Fists", SMG)
ARMOURS = (0, "Typical", "Padded shirt", "Good")
DEFENCES = ("dodge", "block", "parry", "roll_with_blow", "soak", "none")
RULES = {
    "endurance_roll_timing": ("immediate", "next_turn"), "death_at_shift0": ("next_turn",
    "immediate"), "flee_after_wake": (False, True), "kill_outright_damage": ("net",
    "threatened"), "initiative_ties": ("reroll", "agility"),
}  # fmt: skip


def differences(sc, n: int, seed: int = 3) -> list[str]:
    """The outcome fields in which the squad kernel's trials of ``sc`` differ from the general
    kernel's, per trial and streamed into a tally."""
    squad = run.compile_scenario(sc)
    assert squad.kernel == "squad"
    general = run.compile_scenario(sc, "general")
    key = chunk_key(seed, 0)
    ref, got = run.run_chunk(general, key, 0, n), run.run_chunk(squad, key, 0, n)
    bad = [f for f in SHARED if not np.array_equal(getattr(ref, f), getattr(got, f))]
    bad += [f for f in ref.counters if not np.array_equal(ref.counters[f], got.counters[f])]
    bad += [f for f in ref.categories
            if not np.array_equal(ref.categories[f], got.categories[f])]  # fmt: skip
    streamed = run.tally_chunk(squad, key, 0, n)
    if streamed is not None:
        want = Tally.of(got, squad.n_sides, run.max_slots(squad),
                        run.outcome_schema(squad)).to_state()  # fmt: skip
        bad += [f"tally {f}" for f, v in streamed.to_state().items()
                if not np.array_equal(want[f], v)]  # fmt: skip
    return bad


def battle(seed: int) -> dict:
    """Two sides of one to three kinds of member, each kind one to twelve times over (a few
    kinds many times, as battles are), drawn from what the squad kernel honours (drawn again
    until every attack is static): most attack the first standing enemy once a turn (the
    quiet runs), some the weakest or twice a turn."""
    for attempt in range(100):
        data = _draw(np.random.default_rng([seed, attempt]))
        if run.compile_scenario(scenario(data)).kernel == "squad":
            return data
    raise AssertionError("no battle of the squad kernel drawn")  # pragma: no cover


def _draw(rng) -> dict:
    pick = lambda options: options[int(rng.integers(len(options)))]  # noqa: E731
    sides = {}
    for s in ("a", "b"):
        side = []
        for kind in range(int(rng.integers(1, 4))):
            keys = {"abilities": {a: pick(RANKS) for a in ("Fighting", "Agility", "Strength",
                                                           "Endurance")},
                    "weapon": copy.deepcopy(pick(WEAPONS)), "armor": pick(ARMOURS),
                    "defence": pick(DEFENCES)}  # fmt: skip
            if rng.random() < 0.15:
                keys["targeting"] = "weakest"
            if rng.random() < 0.15:
                keys["actions"] = [{"do": "attack"}, {"do": "attack"}]
            side += [member(f"{s}{kind}-{i}", **copy.deepcopy(keys))
                     for i in range(int(rng.integers(1, 13)))]  # fmt: skip
        sides[s] = side
    return fight(sides, {key: pick(options) for key, options in RULES.items()})


@pytest.mark.parametrize("seed", range(10))
def test_random_battles_on_the_squad_kernel(seed):
    assert not differences(scenario(battle(seed)), n=150)


def test_a_long_battle_past_the_flush_of_the_counts():
    """Fists on Good armour, one side attacking once a turn (quiet runs), the other twice: a
    fight that lasts all its 600 rounds, whose quiet runs must stop at each 63rd round's end
    for the packed counts to be flushed (twice a turn fills a 9-bit count in 256 rounds)."""
    weak = {"Fighting": "Good", "Strength": "Poor"}
    twice = [{"do": "attack"}, {"do": "attack"}]
    sides = {"a": [member(f"a{i}", abilities=weak, weapon="Fists", armor="Good")
                   for i in range(3)],
             "b": [member(f"b{i}", abilities=weak, weapon="Fists", armor="Good", actions=twice)
                   for i in range(3)]}  # fmt: skip
    sc = scenario(fight(sides, max_rounds=600))
    ends = run.run_chunk(run.compile_scenario(sc), chunk_key(3, 0), 0, 20).end_slot
    assert (ends == 600).all()  # the case reaches the rounds it is for
    assert not differences(sc, n=20)


def test_a_battle_of_more_than_64_with_ties_to_reroll():
    """100 combatants of Agility 4 to 30 (runs of tied initiative to roll again), in classes
    of pair words: the counting sort's initiative and its re-rolls."""
    agility = ("Poor", "Typical", "Good", "Excellent", "Remarkable")
    sides = {s: [member(f"{s}{i}", abilities={"Agility": agility[i % 5]},
                        weapon=("Crowbar", "Brick")[i % 2]) for i in range(50)]
             for s in "ab"}  # fmt: skip
    assert not differences(scenario(fight(sides)), n=60)


def test_a_battle_of_more_than_64_with_long_runs_of_ties_and_d1s():
    """80 combatants of Agility 1 to 3: runs of ties longer than eight (re-rolled and sorted by
    counting), pairs, short runs, and runs all of d1s, which keep their order unrolled."""
    sides = {s: [member(f"{s}{i}", abilities={"Agility": (1, 2, 3, 1, 2)[i % 5]},
                        weapon=("Crowbar", "Brick")[i % 2]) for i in range(40)]
             for s in "ab"}  # fmt: skip
    assert not differences(scenario(fight(sides)), n=60)


def test_a_battle_of_more_than_64_with_short_runs_of_ties():
    """80 combatants of Agility 2 to 4, no d1s: runs of three and four re-rolled without a
    branch, their next runs (one or two, or none) listed from their ties."""
    sides = {s: [member(f"{s}{i}", abilities={"Agility": (2, 3, 4, 2)[i % 4]},
                        weapon=("Crowbar", "Brick")[i % 2]) for i in range(40)]
             for s in "ab"}  # fmt: skip
    assert not differences(scenario(fight(sides)), n=60)


def test_a_battle_of_64_the_most_a_word_of_ties_holds():
    """64 combatants of Agility 1 to 3 (a word of tie bits full, runs to its last bit)."""
    sides = {s: [member(f"{s}{i}", abilities={"Agility": (2, 3, 1)[i % 3]},
                        weapon=("Crowbar", "Brick")[i % 2]) for i in range(32)]
             for s in "ab"}  # fmt: skip
    assert not differences(scenario(fight(sides)), n=60)


def test_a_battle_of_64_with_short_runs_of_ties_to_its_last_position():
    """64 combatants of Agility 2 to 4, no d1s: runs of three and four re-rolled without a
    branch (reading and writing the positions past a run, up to past the last one)."""
    sides = {s: [member(f"{s}{i}", abilities={"Agility": (2, 3, 4, 2)[i % 4]},
                        weapon=("Crowbar", "Brick")[i % 2]) for i in range(32)]
             for s in "ab"}  # fmt: skip
    assert not differences(scenario(fight(sides)), n=80)


@pytest.mark.parametrize("rounds", [2047, 2048])
def test_a_volley_of_more_rounds_than_a_slot_word_holds(rounds):
    """A turn slot's word holds a hit die of up to 2047 rounds: a volley of 2047 is quiet, one
    of 2048 goes to the round's loop; either way the numbers are the general kernel's."""
    gun = {**SMG, "rounds": rounds}
    sides = {"a": [member(f"a{i}", weapon=gun) for i in range(3)],
             "b": [member(f"b{i}", weapon="Crowbar", armor="Good") for i in range(4)]}
    sc = scenario(fight(sides))
    a_rounds = run.compile_scenario(sc).squad[2]
    assert (a_rounds[:3, 0] == rounds).all()  # the hit die the case is for
    assert not differences(sc, n=80)
