"""Big battles on the squad kernel: bit for bit the general kernel's, trial by trial, at the
sizes where the squad kernel takes its shortcuts (pair tables by attacker class, the range
compared by the distance's square, long runs of tied REF sorted by buckets, the order of
actors kept by dropping those out), and those shortcuts against the functions they replace."""

from __future__ import annotations

import copy
from dataclasses import fields

import numpy as np
import pytest

from fuzion_sim.engine.outcomes import Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import kernel_squad
from fuzion_sim.systems.fuzion.kernel_parts import break_ties, tie_tables
from fuzion_sim.systems.fuzion.rules import range_modifier

GUNMAN = {"stats": {"REF": 7, "DEX": 5, "BODY": 6}, "skills": {"Handgun": 4, "Ranged Evade": 4},
          "weapon": "Colt Revolver", "armor": "Light Kevlar"}  # fmt: skip


def lines(n: int, spacing: float, gap: float = 3.0, kinds=(None,), **rules) -> dict:
    """Two lines of ``n`` fighters ``gap`` metres apart, ``spacing`` metres between
    neighbours; fighter ``i`` of a side is ``GUNMAN`` changed by ``kinds[i % len(kinds)]``."""
    sides = {}
    for s, x in (("a", 0.0), ("b", gap)):
        sides[s] = []
        for i in range(n):
            member = {**copy.deepcopy(GUNMAN), "name": f"{s}{i}", "position": [x, spacing * i]}
            member.update(copy.deepcopy(kinds[i % len(kinds)] or {}))
            sides[s].append(member)
    return {"name": "big battle", "system": "fuzion", "trials": 40, "seed": 5,
            "max_rounds": 12, "rules": rules, "sides": sides}  # fmt: skip


#: Fighters of eight kinds: classes of attacker, melee closing in or holding its ground,
#: a gun holding its ground beyond its range (the extreme band at a moving target), cover,
#: Stun damage that knocks fighters out to wake and come back, REF in runs long and short.
KINDS = (
    None,
    {"weapon": "Katana", "skills": {"Melee": 5}},
    {"weapon": "Club", "skills": {"Melee": 4}, "stats": {"REF": 6, "DEX": 5, "BODY": 6}},
    {"tactics": [{"do": "attack"}], "cover": "half_body"},
    {"weapon": "Club", "skills": {"Melee": 3}, "tactics": [{"do": "attack"}]},
    {"stats": {"REF": 5, "DEX": 5, "BODY": 4}, "cover": "head_only"},
    {"weapon": {"name": "Stun Colt", "kind": "ranged", "dc": 5, "range": 50, "damage": "stun",
                "skill": "Handgun"}},
    {"weapon": {"name": "Sap", "kind": "melee", "dc": 6, "damage": "stun", "skill": "Melee"},
     "skills": {"Melee": 6}},
)  # fmt: skip

CASES = {
    "64 v 64 in motion (the benchmark's)": (lines(64, 2.0), 40),
    "64 v 64 packed, standing": (lines(64, 0.5), 40),
    "70 v 70 of eight kinds in motion": (lines(70, 3.0, gap=20.0, kinds=KINDS), 30),
    "70 v 70 of eight kinds, impairment, stunned": (
        lines(70, 3.0, gap=20.0, kinds=KINDS, impairment=True, stunned=True), 30),
    "48 v 48, the dying act": (lines(48, 2.5, kinds=KINDS, dying_can_act=True), 30),
}  # fmt: skip
# ``nearest`` through the grid and ``random`` through counts (from 64 combatants), ``focus``: in
# motion, standing, with Stun knocking fighters out and back, with a third side
for _rule in ("nearest", "random", "focus"):
    for _name, _data in {
        "64 v 64 in motion": lines(64, 2.0),
        "64 v 64 packed, standing": lines(64, 0.5),
        "40 v 40 of eight kinds, stunned": lines(40, 4.0, gap=30.0, kinds=KINDS, stunned=True),
    }.items():
        for _side in _data["sides"].values():
            for _member in _side:
                _member["targeting"] = _rule
        CASES[f"{_rule}: {_name}"] = (_data, 30)
    _third = lines(32, 3.0, gap=12.0, kinds=KINDS)
    _third["sides"]["c"] = [{**copy.deepcopy(GUNMAN), "name": f"c{i}",
                             "position": [40.0, 9.0 * i], "targeting": _rule}
                            for i in range(12)]  # fmt: skip
    CASES[f"{_rule}: three sides, some choosing {_rule}"] = (_third, 30)


@pytest.mark.parametrize("name", sorted(CASES))
def test_big_battles_run_as_on_the_general_kernel(name):
    data, n = CASES[name]
    sc = scenario_from_dict(data)
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "squad"
    general = fuzion.compile_scenario(sc, kernel="general")
    key = chunk_key(5, 0)
    a, b = fuzion.run_chunk(plan, key, 0, n), fuzion.run_chunk(general, key, 0, n)
    for f in fields(a):
        if f.name not in ("counters", "categories"):
            np.testing.assert_array_equal(getattr(a, f.name), getattr(b, f.name), f.name)
    streamed = fuzion.tally_chunk(plan, key, 0, n).to_state()
    for field, value in Tally.of(b, plan.n_sides, fuzion.max_slots(plan)).to_state().items():
        np.testing.assert_array_equal(streamed[field], value, err_msg=field)
    assert a.attacks.sum() > 0 and (a.out_slot > 0).any()


def test_the_kinds_share_pair_rows():
    """Attackers with equal rows of every pair table share one row: eight kinds a side, with
    cover on some (a target's cover is in every attacker's row), make a few classes."""
    sc = scenario_from_dict(lines(70, 3.0, gap=20.0, kinds=KINDS))
    motion = fuzion.compile_scenario(sc).motion
    n = 140
    tables = np.concatenate((np.zeros(n * n, np.int64), motion.pair_base, motion.pair_cover))
    offset, packed, n_class = kernel_squad._pair_classes(tables, 3, n)
    assert 2 <= n_class <= 12
    full = tables.reshape(3, n, n)
    rows = packed.reshape(3, n_class, n)
    for a in range(n):  # each attacker reads its own rows
        np.testing.assert_array_equal(rows[:, offset[a] // n], full[:, a])
    distinct = np.arange(n * n, dtype=np.int64)  # control: rows all different
    _, _, n_distinct = kernel_squad._pair_classes(distinct, 1, n)
    assert n_distinct == n


def _around(x: float) -> list[float]:
    """``x`` and its floating-point neighbours, two either side."""
    out = [x]
    for direction in (np.inf, -np.inf):
        y = x
        for _ in range(2):
            y = float(np.nextafter(y, direction))
            out.append(y)
    return out


def test_the_square_bounds_give_the_range_modifier():
    """``sqrt(d2) <= r`` exactly when ``d2 <= _square_bound(r)``, and the band from ``d2``
    is ``range_modifier(sqrt(d2), listed)``, at the bands' edges to the last bit and at
    random distances. ``r * r`` is not such a bound (the control)."""
    rng = np.random.default_rng(2)
    band_sq = np.array([kernel_squad._square_bound(r) for r in (4.0, 10.0, 50.0)])
    for listed in (4.0, 10.0, 25.0, 50.0, 50.01, 120.0):
        bound = kernel_squad._square_bound(listed)
        edges = [e for r in (4.0, 10.0, 50.0, listed) for e in _around(r)]
        squares = [e * e for e in edges] + [x for e in edges for x in _around(e * e)]
        squares += list(rng.uniform(0.0, 1.2 * listed, 2000) ** 2)
        for d2 in squares:
            d = np.sqrt(d2)
            assert (d2 > bound) == (d > listed), (listed, d2)
            if d <= listed:
                assert kernel_squad._band(d2, band_sq) == range_modifier(d, listed), d2
    four = 16.000000000000004  # the square of a distance that rounds to 4.0
    assert np.sqrt(four) <= 4.0 and four > 4.0 * 4.0  # r * r would call it beyond


@pytest.mark.parametrize("n", [3, 17, 40, 129, 400, 1500])
def test_the_bucket_sort_breaks_ties_as_kernel_parts(n):
    """The squad kernel's tie order (F9 switch1) is ``kernel_parts.break_ties``'s: the same
    dice, the same order, for runs of equal REF short and long."""
    rng = np.random.default_rng(n)
    ref = rng.integers(2, 2 + max(1, n // 100), n).astype(np.int64)
    base_order = np.lexsort((np.arange(n), -ref)).astype(np.int64)
    by_ref, run_end, tie_low = tie_tables(ref, base_order)
    state = tuple(np.uint64(v) for v in (7, 8, 9, 10 + n))
    order, key = np.empty(n, np.int64), np.empty(n, np.uint64)
    expected = break_ties(*state, order, key, by_ref, run_end, tie_low)
    mine, key2 = np.empty(n, np.int64), np.empty(n, np.uint64)
    count = np.empty(1 << kernel_squad.BUCKET_BITS, np.int64)
    got = kernel_squad._break_ties(*state, mine, key2, by_ref, run_end, tie_low, count,
                                   np.empty(n, np.int64))  # fmt: skip
    assert got == expected
    np.testing.assert_array_equal(key2, key)
    np.testing.assert_array_equal(mine, order)
