"""Battles: fights whose combatants must close in run on the squad kernel, bit for bit the
general kernel's, and the shipped battles run there."""

from __future__ import annotations

import copy
from dataclasses import fields

import numpy as np
import pytest
from conftest import SCENARIOS

from fuzion_sim import replay
from fuzion_sim.engine.outcomes import Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import load_scenario, scenario_from_dict
from fuzion_sim.systems import fuzion

GUNMAN = {"stats": {"REF": 7, "DEX": 5, "BODY": 6}, "skills": {"Handgun": 4, "Ranged Evade": 4},
          "weapon": "Colt Revolver", "armor": "Light Kevlar"}  # fmt: skip


def line_battle(n: int, spacing: float, gap: float = 3.0, **member) -> dict:
    """Two lines of ``n`` gunmen ``gap`` metres apart, ``spacing`` metres between neighbours:
    past the revolver's 50 m along the line, fighters must run to reach their target."""
    sides = {}
    for s, x in (("a", 0.0), ("b", gap)):
        sides[s] = [
            {**copy.deepcopy(GUNMAN), **copy.deepcopy(member), "name": f"{s}{i}",
             "position": [x, spacing * i]}
            for i in range(n)
        ]  # fmt: skip
    return {"name": "line battle", "system": "fuzion", "trials": 400, "seed": 3,
            "max_rounds": 12, "sides": sides}  # fmt: skip


def _same_as_general(data: dict, n: int = 400, seed: int = 3):
    sc = scenario_from_dict(data)
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "squad"
    general = fuzion.compile_scenario(sc, kernel="general")
    key = chunk_key(seed, 0)
    a, b = fuzion.run_chunk(plan, key, 0, n), fuzion.run_chunk(general, key, 0, n)
    for f in fields(a):
        if f.name not in ("counters", "categories"):
            np.testing.assert_array_equal(getattr(a, f.name), getattr(b, f.name), f.name)
    streamed = fuzion.tally_chunk(plan, key, 0, n).to_state()
    for name, value in Tally.of(b, plan.n_sides, fuzion.max_slots(plan)).to_state().items():
        np.testing.assert_array_equal(streamed[name], value, err_msg=name)
    return a


def _with(data: dict, side: str, index: int, **keys) -> dict:
    data["sides"][side][index].update(keys)
    return data


CASES = {
    "a long line": line_battle(12, 6.0),
    "fast runners: a moving target": line_battle(6, 14.0, run=12),
    "in cover until they run": _with(_with(line_battle(6, 14.0), "a", 0, cover="half_body"),
                                     "b", 5, cover="head_only", prone=True),
    "swords close in on guns": _with(_with(line_battle(4, 2.0, gap=40.0), "a", 0,
                                           weapon="Katana", skills={"Melee": 5}),
                                     "a", 1, weapon="Polearm", skills={"Melee": 4}),
    "an attack tactic holds its ground": _with(_with(line_battle(4, 20.0, gap=30.0), "a", 0,
                                                     weapon="Club", tactics=[{"do": "attack"}]),
                                               "b", 3, tactics=[{"do": "attack"}]),
    "three sides": {**line_battle(3, 30.0), "sides": {
        **line_battle(3, 30.0)["sides"],
        "c": [{**copy.deepcopy(GUNMAN), "name": "c0", "position": [90.0, 0.0]}]}},
    "impairment, stun and the dying": {**line_battle(5, 15.0),
                                       "rules": {"impairment": True, "stunned": True,
                                                 "dying_can_act": True}},
}  # fmt: skip
for _rule in ("random", "nearest", "weakest", "strongest", "focus"):
    CASES[f"targeting {_rule}"] = line_battle(8, 10.0, targeting=_rule)
CASES["targeting mixed, standing still"] = _with(_with(line_battle(4, 2.0), "a", 0,
                                                       targeting="focus"),
                                                 "b", 2, targeting="random")  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_squad_kernel_moves_as_the_general_kernel(name):
    out = _same_as_general(CASES[name])
    assert out.attacks.sum() > 0


def test_the_moving_path_is_not_the_static_one():
    """Control: the same line, with the squad kernel's pair tables of the starting positions
    (as though nobody moved), gives other numbers."""
    sc = scenario_from_dict(CASES["a long line"])
    plan = fuzion.compile_scenario(sc)
    frozen = plan._replace(motion=plan.motion._replace(moving=False))
    key = chunk_key(3, 0)
    a, b = fuzion.run_chunk(plan, key, 0, 400), fuzion.run_chunk(frozen, key, 0, 400)
    assert not np.array_equal(a.end_slot, b.end_slot)


def test_a_battle_replays_as_the_bulk_run_recorded_it():
    data = CASES["a long line"]
    sc = scenario_from_dict(data)
    plan = fuzion.compile_scenario(sc)
    assert plan.replay is not None  # the standing kernel cannot run it: the general one logs
    bulk = fuzion.run_chunk(plan, chunk_key(3, 0), 0, 5)
    for trial in range(5):
        rep = replay(sc, trial, seed=3)
        assert rep["end_time"] == bulk.end_slot[trial]
        attacks = sum(e["kind"] == "attack" for e in rep["events"])
        assert attacks == bulk.attacks[trial].sum()
        assert any(e["kind"] == "move" for e in rep["events"]), "nobody ran"


@pytest.mark.parametrize("path", ["zombie-horde.yaml", "line-battle-100v100.yaml"])
def test_the_shipped_battles_run_on_the_squad_kernel(path):
    plan = fuzion.compile_scenario(load_scenario(SCENARIOS / path))
    assert plan.kernel == "squad"


@pytest.mark.parametrize("n", [1, 2, 5, 17, 40, 300])
def test_ties_are_broken_as_a_sort_on_ref_then_the_die(n):
    """F9 switch1's order (kernel_parts.break_ties, O(N log N)) is the sort on (REF desc, die
    desc), whatever the runs of equal REF (short: insertion; long: heapsort)."""
    from fuzion_sim.systems.fuzion.kernel_parts import break_ties, tie_tables

    rng = np.random.default_rng(n)
    ref = rng.integers(2, 2 + max(1, n // 30), n).astype(np.int64)
    base_order = np.lexsort((np.arange(n), -ref)).astype(np.int64)
    by_ref, run_end, tie_low = tie_tables(ref, base_order)
    order, key = np.empty(n, np.int64), np.empty(n, np.uint64)
    state = tuple(np.uint64(v) for v in (1, 2, 3, 4 + n))
    break_ties(*state, order, key, by_ref, run_end, tie_low)
    expected = sorted(range(n), key=lambda c: (-int(ref[c]), -int(key[c])))
    assert len(set(key.tolist())) == n  # no two keys equal
    assert [int(ref[c]) for c in order] == sorted(ref.tolist(), reverse=True)
    np.testing.assert_array_equal(order, expected)
