"""The battle kernel: which fights it runs, and that it runs them exactly as the general kernel
does, trial by trial (random battles drawn by hypothesis, and big battles with many tied
shooters), per trial and straight into a tally."""

from __future__ import annotations

import numpy as np
import pytest
from fudge_helpers import ISSUE_EXAMPLE, build, duel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzion_sim.engine.outcomes import SHARED, Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import read_yaml
from fuzion_sim.systems.fudge import dispatch
from fuzion_sim.systems.fudge import run as frun
from fuzion_sim.systems.fudge.system import SYSTEM as FUDGE


def _same_as_general(sc, trials=400, first=7):
    """The battle kernel's trials of ``sc`` are the general kernel's, per trial and tallied."""
    fast, slow = frun.compile_scenario(sc), frun.compile_scenario(sc, "general")
    assert fast.kernel == "battle"
    key = chunk_key(41, 2)
    a, b = frun.run_chunk(fast, key, first, trials), frun.run_chunk(slow, key, first, trials)
    for name in SHARED:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for name, value in b.categories.items():
        assert np.array_equal(a.categories[name], value), name
    assert np.array_equal(a.counters["crippled"], b.counters["crippled"])
    streamed = frun.tally_chunk(fast, key, first, trials)
    kept = Tally.of(b, slow.n_sides, frun.max_slots(slow), frun.outcome_schema(slow))
    for name, value in kept.to_state().items():
        assert np.array_equal(streamed.to_state()[name], value), name


def _times(data: dict, times: int) -> dict:
    """``data`` with each side's members ``times`` over."""
    sides = {side: [{**m, "name": f"{m['name']} #{i + 1}"} for i in range(times) for m in ms]
             for side, ms in data["sides"].items()}  # fmt: skip
    return {**data, "sides": sides}


# --- random battles -----------------------------------------------------------------------

RULES = {
    "wounds": ["firearms", "core"],
    "shot_roll": ["separate", "margin", "attack_dice"],
    "out_at": ["incapacitated", "near_death", "dead"],
    "wound_penalties": [True, False],
    "tie_break": ["random", "listed"],
    "zero_damage": ["none", "scratch"],
    "firearms_dead_at": ["capacity", "band"],
    "core_overflow": ["up", "ignore"],
}

_member = st.fixed_dictionaries({
    "skill": st.integers(-1, 3),
    "damage_capacity": st.integers(-2, 2),
    "initiative": st.integers(0, 2),
    "position": st.sampled_from([0, 2, 5, 9, 14, 30]),
    "targeting": st.sampled_from(["first", "nearest"]),
    "cover": st.sampled_from(["none", "none", "partial", "full"]),
    "weapon": st.sampled_from([None, {"name": "Blaster", "bd": 4},
                               {"name": "Pistol", "bd": 2.5}, {"name": "Rifle", "bd": 6}]),
    "armour": st.sampled_from([None, {"points": 1}]),
})  # fmt: skip


@st.composite
def battles(draw):
    """A gunfight the battle kernel runs: 2 or 3 sides of 1 to 5 members (some unarmed), any
    of the rules it honours, first or nearest targeting, ties of initiative."""
    n_sides = draw(st.integers(2, 3))
    sides = {}
    for s in range(n_sides):
        members = draw(st.lists(_member, min_size=1, max_size=5))
        sides[f"side{s}"] = [{"name": f"M{s}.{i}", **{k: v for k, v in m.items() if v is not None}}
                             for i, m in enumerate(members)]  # fmt: skip
    rules = {k: draw(st.sampled_from(v)) for k, v in RULES.items() if draw(st.booleans())}
    if rules.get("wounds") != "core":
        rules.pop("core_overflow", None)
    data = {"name": "drawn", "system": "fudge", "seed": 1, "max_rounds": draw(st.integers(3, 80)),
            "rules": rules, "sides": sides}  # fmt: skip
    return data


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_a_random_battle_runs_as_on_the_general_kernel(data):
    sc = build(data)
    plan = frun.compile_scenario(sc)
    if plan.kernel != "battle":  # a duel, or a fight the table sends elsewhere
        assert plan.kernel == "duel" or dispatch.blocking_reasons(plan.arrays, "battle")
        return
    _same_as_general(sc, trials=150)


# --- big battles ------------------------------------------------------------------------------


@pytest.mark.parametrize(("times", "rules"), [
    (10, {}),  # two groups of ten tied shooters
    (40, {"wounds": "core", "out_at": "dead"}),  # groups too big to rank: sorted by buckets
    (20, {"tie_break": "listed", "shot_roll": "margin"}),
])  # fmt: skip
def test_a_big_battle_runs_as_on_the_general_kernel(times, rules):
    data, _ = read_yaml(ISSUE_EXAMPLE)
    data = {**_times(data, times), "rules": {**data.get("rules", {}), **rules}}
    _same_as_general(build(data), trials=300 if times < 40 else 60)


def test_nearest_targeting_and_unarmed_members_run_as_on_the_general_kernel():
    data = {"name": "line", "system": "fudge", "seed": 3, "sides": {
        "east": [{"name": f"E{i}", "skill": "Fair", "weapon": "Blaster", "position": p,
                  "targeting": "nearest"} for i, p in enumerate((0, 4, 4, 9))],
        "west": [{"name": "Medic", "position": 12},
                 *({"name": f"W{i}", "skill": "Good", "weapon": "Blaster", "position": p}
                   for i, p in enumerate((12, 20, 16)))]}}  # fmt: skip
    _same_as_general(build(data), trials=1000)


# --- the choice of kernel ---------------------------------------------------------------------

TWO_V_TWO = _times(duel(), 2)


def test_a_gunfight_of_many_runs_on_the_battle_kernel_and_says_so():
    plan = frun.compile_scenario(build(TWO_V_TWO))
    assert plan.kernel == "battle"
    assert FUDGE.describe_plan(plan) == "runs on the battle kernel"
    assert frun.compile_scenario(build(duel())).kernel == "duel"


@pytest.mark.parametrize(("rules", "member", "why"), [
    ({"order": "rolled"}, {}, "rules.order is not fixed"),
    ({"order": "simultaneous"}, {}, "rules.order is not fixed"),
    ({"ranged_defence": "dodge"}, {}, "rules.ranged_defence: dodge"),
    ({"hit_locations": "random"}, {}, "hit locations"),
    ({"shot_critical": "incapacitate"}, {}, "rules.shot_critical: incapacitate"),
    ({}, {"targeting": "random"}, "targeting weakest, strongest or random"),
    ({}, {"targeting": "weakest"}, "targeting weakest, strongest or random"),
    ({}, {"weapon": {"name": "Nade", "bd": 4, "concussion": 8, "concussion_range": 3,
                     "burst_radius": 4}, "position": 0, "distance": None},
     "a weapon with a blast"),
])  # fmt: skip
def test_the_battle_kernel_leaves_what_it_does_not_honour_to_the_general_one(rules, member,
                                                                              why):  # fmt: skip
    data = _times(duel(rules, vaclav=member), 2)
    if "position" in member:  # a blast: everyone placed by position
        data["sides"]["alien"] = [{**{k: v for k, v in m.items() if k != "distance"},
                                   "position": 8} for m in data["sides"]["alien"]]  # fmt: skip
    plan = frun.compile_scenario(build(data))
    assert plan.kernel == "general"
    assert why in dispatch.blocking_reasons(plan.arrays, "battle")
    assert why in FUDGE.describe_plan(plan)
    with pytest.raises(ValueError, match="the battle kernel does not honour"):
        frun.compile_scenario(build(data), "battle")


def test_charges_and_barriers_go_to_the_general_kernel():
    data = _times(duel(), 2)
    data["sides"]["vaclav"].append({"name": "Door", "wounds": 3, "distance": 8})
    plan = frun.compile_scenario(build(data))
    assert "a charge or a barrier" in dispatch.blocking_reasons(plan.arrays, "battle")


def test_too_many_kinds_of_shot_go_to_the_general_kernel(monkeypatch):
    plan = frun.compile_scenario(build(TWO_V_TWO)).arrays
    assert len(dispatch.shot_classes(plan)[0]) == 1  # four alike shooters: one kind of shot
    monkeypatch.setattr(dispatch, "MAX_SHOT_CLASSES", 0)
    limit = dispatch.BATTLE_HONOURS[-1]
    assert not limit[0](plan)


def test_shot_classes_group_the_pairs_that_shoot_alike():
    data = _times(duel(vaclav={"skill": "Good"}), 2)
    plan = frun.compile_scenario(build(data)).arrays
    pairs, cls = dispatch.shot_classes(plan)
    n = plan.n_combatants
    assert len(pairs) == 2  # Good shooters on Fair ones, Fair on Good
    by_side: dict = {}
    for a in range(n):
        for t in range(n):
            foes = plan.side[a] != plan.side[t]
            assert (cls[a * n + t] >= 0) == foes
            if foes:
                assert by_side.setdefault(plan.side[a], cls[a * n + t]) == cls[a * n + t]
    assert sorted(by_side.values()) == [0, 1]


# --- the order of tied shooters ------------------------------------------------------------


@pytest.mark.parametrize("g", [2, 3, 10, 16, 17, 50, 128, 130])
@pytest.mark.parametrize("keys", ["random", "close", "equal"])
def test_tied_shooters_are_sorted_as_the_general_kernel_sorts_them(g, keys):
    """Higher key first, then the one listed first: random keys, keys that agree but for their
    last bits (the sorting network's fallback) and equal keys."""
    from fuzion_sim.systems.fudge import kernel_battle as kb

    rng = np.random.default_rng(g)
    ids = np.sort(rng.choice(400, g, replace=False)).astype(np.uint64)
    key = np.zeros(400, np.int64)
    if keys == "random":
        key[ids.astype(np.int64)] = rng.integers(0, 2**63 - 1, g)
    elif keys == "close":
        key[ids.astype(np.int64)] = (1 << 40) + rng.integers(0, 4, g)
    want = sorted(ids.tolist(), key=lambda c: (-key[c], c))
    for sort in (kb._net_sort, kb._bucket_sort, kb._sort_group):
        if (sort is kb._net_sort and g > kb._NET_MAX) or (
                sort is kb._bucket_sort and g > kb._PACKED_MAX):  # fmt: skip
            continue
        order = np.concatenate([[7], ids, [9]]).astype(np.uint64)  # its neighbours stay put
        sort(order, 1, 1 + g, key, np.zeros(g + 1, np.uint64), np.zeros(8 * g + 20, np.int64))
        assert order[1:-1].tolist() == want and order[0] == 7 and order[-1] == 9
