"""The rule options the duel kernel runs itself (hit locations, ...), held to the general kernel.

Each fight here is the benchmark duel (or a variant) with an option on: the duel kernel must
take it (``compile_scenario``) and give the general kernel's fights trial by trial on the same
seed, written per trial and streamed into a tally, knockback units and hits by location too.
A replay (the event log) of such a fight runs on the general kernel and gives the bulk run's
trial.
"""

from __future__ import annotations

import copy
from dataclasses import fields

import numpy as np
import pytest
import yaml
from conftest import SCENARIOS

from fuzion_sim.engine.outcomes import Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import kernel_duel

TRIALS = 20_000
BASE = yaml.safe_load((SCENARIOS / "benchmark-duel.yaml").read_text())


def duel(rules=None, a=None, b=None, both=None) -> dict:
    """The benchmark duel with ``rules`` switched and member keys set (``both`` on each)."""
    data = copy.deepcopy(BASE)
    data["rules"].update(rules or {})
    for member, extra in ((data["sides"]["a"][0], a), (data["sides"]["b"][0], b)):
        member.update(copy.deepcopy(both or {}))
        member.update(copy.deepcopy(extra or {}))
    return data


def same_as_general(data: dict, options: tuple[str, ...], seed: int = 7) -> fuzion.FightPlan:
    """``data``'s fight runs on the duel kernel for ``options`` and gives the general kernel's
    trials, per trial and streamed; returns its plan."""
    sc = scenario_from_dict(data)
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "duel"
    assert plan.duel.options == options
    general = fuzion.compile_scenario(sc, kernel="general")
    key = chunk_key(seed, 0)
    got = fuzion.run_chunk(plan, key, 0, TRIALS)
    want = fuzion.run_chunk(general, key, 0, TRIALS)
    for f in fields(want):
        if f.name not in ("counters", "categories"):
            np.testing.assert_array_equal(getattr(got, f.name), getattr(want, f.name), f.name)
    for group in ("counters", "categories"):
        for name, value in getattr(want, group).items():
            np.testing.assert_array_equal(getattr(got, group)[name], value, name)
    streamed = fuzion.tally_chunk(plan, key, 0, TRIALS).to_state()
    slots = fuzion.max_slots(plan)
    for name, value in Tally.of(want, plan.n_sides, slots, fuzion.run.SCHEMA).to_state().items():
        np.testing.assert_array_equal(streamed[name], value, name)
    return plan


def test_the_bare_duel_keeps_the_bare_kernel():
    plan = same_as_general(duel(), ())
    assert kernel_duel.KERNELS[plan.duel.options] is kernel_duel.run_chunk


# --- hit locations (F27) ------------------------------------------------------------------------

COVERS_CHEST = {"name": "Vest", "pd": 10, "ekd": 4, "covers": ["chest", "vitals", "stomach"]}

LOCATIONS = {
    "random": duel({"hit_locations": "random"}),
    "called head and random": duel({"hit_locations": "called"}, a={"called_shot": "head"}),
    "called both": duel({"hit_locations": "called"}, a={"called_shot": "vitals"},
                        b={"called_shot": "legs"}),
    # a called shot reads nothing under random locations
    "random, called shots ignored": duel({"hit_locations": "random"}, a={"called_shot": "head"}),
    # armour covering part of the body; Stun damage against SD; the watch lines of impairment,
    # stunned, the dying fighting on and bleeding; interlock dice and initiative each phase
    "covers, stun and dying": duel(
        {"hit_locations": "random", "impairment": True, "stunned": True, "dying_can_act": True,
         "dying_penalty": 3},
        a={"armor": COVERS_CHEST, "weapon": {"name": "Sap", "skill": "Handgun", "dc": 6,
                                             "range": 50, "damage": "stun"}},
        b={"armor": COVERS_CHEST, "sd": 3},
    ),
    "interlock, switch2, covers": duel(
        {"hit_locations": "called", "dice": "interlock", "initiative": "switch2"},
        a={"called_shot": "arms"}, both={"armor": COVERS_CHEST},
    ),
    # a heavy weapon: two full groups of the 5d6 table and the rest, each hit to a place
    "heavy dice": duel({"hit_locations": "random"},
                       a={"weapon": {"name": "Rifle", "skill": "Handgun", "dc": 12, "range": 400}}),
}


@pytest.mark.parametrize("name", sorted(LOCATIONS))
def test_hit_locations_equal_the_general_kernel(name):
    plan = same_as_general(LOCATIONS[name], ("locations",))
    assert kernel_duel.KERNELS[plan.duel.options] is kernel_duel.run_chunk_locations


def test_hit_locations_are_counted_by_place():
    sc = scenario_from_dict(LOCATIONS["random"])
    out = fuzion.run_chunk(fuzion.compile_scenario(sc), chunk_key(1, 0), 0, TRIALS)
    hits = out.categories["location_hits"]
    assert hits.sum() == out.landed.sum()  # one place a hit
    assert (hits > 0).all()  # every place is hit by 3d6 in 20,000 fights
    called = scenario_from_dict(LOCATIONS["called both"])
    out = fuzion.run_chunk(fuzion.compile_scenario(called), chunk_key(1, 0), 0, TRIALS)
    names = fuzion.run.SCHEMA.categories[0].labels
    by_place = out.categories["location_hits"]
    assert by_place[1].sum() == by_place[1, names.index("vitals")]  # A's shots all to vitals
    assert by_place[0].sum() == by_place[0, names.index("legs")]


# --- autofire (F15) -----------------------------------------------------------------------------

AUTO = {"name": "Auto Colt", "skill": "Handgun", "dc": 4, "range": 50, "rof": 10, "autofire": True}
FIRE_ALL = [{"do": "attack", "fire": "all"}]

AUTOFIRE = {
    "fire all": duel(both={"weapon": AUTO, "tactics": FIRE_ALL}),
    # -2 to hit for 25 shots; bullets 1 + floor(margin / 2)
    "25 shots, one plus floor": duel(
        {"autofire_hits": "one_plus_floor", "autofire_ratio": 2},
        a={"weapon": {**AUTO, "rof": 25}, "tactics": FIRE_ALL},
    ),
    # fire 4 of 10 under the legendary campaign's ratio, against a revolver
    "fire 4, legendary": duel(
        {"campaign": "legendary"}, a={"weapon": AUTO, "tactics": [{"do": "attack", "fire": 4}]},
    ),
    # each bullet's collateral Stun of what the ones before it left; stunned, impairment
    "stun and impairment": duel(
        {"impairment": True, "stunned": True, "autofire_ratio": 1},
        both={"weapon": {**AUTO, "dc": 6}, "tactics": FIRE_ALL},
    ),
}


@pytest.mark.parametrize("name", sorted(AUTOFIRE))
def test_autofire_equals_the_general_kernel(name):
    plan = same_as_general(AUTOFIRE[name], ("autofire",))
    assert kernel_duel.KERNELS[plan.duel.options] is kernel_duel.run_chunk_autofire


def test_autofire_of_one_shot_is_the_bare_duel():
    """The default tactic fires one shot (``fire`` 1): the bare duel kernel runs it."""
    same_as_general(duel(both={"weapon": AUTO}), ())


def test_autofire_at_hit_locations_runs_on_the_mixed_kernel():
    data = duel({"hit_locations": "random"}, both={"weapon": AUTO, "tactics": FIRE_ALL})
    plan = same_as_general(data, ("locations", "autofire"))
    assert plan.duel.options not in kernel_duel.KERNELS  # run_chunk_options


# --- knockback (F28) and the moves it brings ----------------------------------------------------

CLUB = {"name": "Club", "skill": "Melee", "kind": "melee", "dc": 3, "range": 4}
SHORT_GUN = {"name": "Derringer", "skill": "Handgun", "dc": 4, "range": 10}

KNOCKBACK = {
    "benchmark": duel({"knockback": True}),
    # knocked past the revolver's 50 m: the default tactic runs back into range
    "knocked out of range": duel({"knockback": True, "knockback_unit": 12.0}),
    # ... more than 10 m at a run: a moving target, and out of its cover
    "running target leaves cover": duel(
        {"knockback": True, "knockback_unit": 6.0},
        a={"weapon": SHORT_GUN, "run": 14, "cover": "half_body"},
        b={"weapon": SHORT_GUN, "run": 12, "prone": True, "size": "large"},
    ),
    # clubs 1 m apart: knocked out of reach, each walks back in
    "melee out of reach": duel(
        {"knockback": True, "knockback_unit": 2.0},
        a={"weapon": CLUB, "skills": {"Melee": 5, "Athletics": 3}},
        b={"weapon": CLUB, "skills": {"Melee": 4, "Athletics": 3}, "position": 1},
    ),
    # ... and with a tactic that attacks without closing in: no attack out of reach
    "melee, attack only": duel(
        {"knockback": True, "knockback_unit": 2.0},
        a={"weapon": CLUB, "skills": {"Melee": 5}, "tactics": [{"do": "attack"}]},
        b={"weapon": CLUB, "skills": {"Melee": 4}, "position": 1, "tactics": [{"do": "attack"}]},
    ),
    # off the line (square roots, not |dx|); a ranged attack at extreme range
    "in the plane": duel(
        {"knockback": True, "knockback_unit": 9.0},
        a={"position": [0, 0], "tactics": [{"do": "attack"}]}, b={"position": [2, 1.5]},
    ),
    # Stun damage, impairment, stunned, the dying fighting on; interlock and switch2
    "stun, impairment, dying": duel(
        {"knockback": True, "impairment": True, "stunned": True, "dying_can_act": True,
         "dice": "interlock", "initiative": "switch2"},
        a={"weapon": {"name": "Sap", "skill": "Handgun", "dc": 6, "range": 50, "damage": "stun"}},
    ),
}


@pytest.mark.parametrize("name", sorted(KNOCKBACK))
def test_knockback_equals_the_general_kernel(name):
    plan = same_as_general(KNOCKBACK[name], ("knockback",))
    assert kernel_duel.KERNELS[plan.duel.options] is kernel_duel.run_chunk_knockback


@pytest.mark.parametrize("name", ["knocked out of range", "running target leaves cover",
                                  "melee out of reach"])  # fmt: skip
def test_knockback_makes_them_move(name):
    """The fights above do what they are for: someone runs back (a move in the general
    kernel's event log of a replay)."""
    from fuzion_sim.systems.fuzion.codes import EV_KIND, EVENT_MOVE

    plan = fuzion.compile_scenario(scenario_from_dict(KNOCKBACK[name]))
    moves = sum(int((fuzion.run_logged(plan, 7, t)[1][:, EV_KIND] == EVENT_MOVE).sum())
                for t in range(40))  # fmt: skip
    assert moves > 0


# --- spreads (F17) ------------------------------------------------------------------------------

BLAST = {"name": "Blast Colt", "skill": "Handgun", "dc": 4, "range": 50,
         "area": {"per": "die", "radius": 1}}  # 4 m: the shooter 3 m off is caught too
NARROW = {**BLAST, "name": "Sawn-off", "area": {"per": "barrel", "radius": 1}}  # 1 m

AREA = {
    "both caught": duel(both={"weapon": BLAST}),
    "the target alone": duel(both={"weapon": NARROW}),
    "two barrels, against a revolver": duel(
        a={"weapon": {**NARROW, "barrels": 2}, "position": [0, 0]}, b={"position": [1.5, 0.5]},
    ),
    # interlock's defence die, Stun damage against SD, impairment, stunned, the dying fighting on
    "interlock, stun, dying": duel(
        {"dice": "interlock", "impairment": True, "stunned": True, "dying_can_act": True},
        both={"weapon": {**BLAST, "damage": "stun"}, "sd": 2},
    ),
    # a called shot's modifier counts, its place does not (a blast hits no location)
    "called shot": duel({"hit_locations": "called"}, a={"weapon": BLAST, "called_shot": "head"}),
}


@pytest.mark.parametrize("name", sorted(AREA))
def test_spreads_equal_the_general_kernel(name):
    options = ("locations", "area") if name == "called shot" else ("area",)
    same_as_general(AREA[name], options)
    if options == ("area",):
        assert kernel_duel.KERNELS[options] is kernel_duel.run_chunk_area


def test_a_spread_hurts_its_shooter_when_it_stands_close():
    sc = scenario_from_dict(AREA["both caught"])
    out = fuzion.run_chunk(fuzion.compile_scenario(sc), chunk_key(1, 0), 0, TRIALS)
    np.testing.assert_array_equal(out.taken.sum(axis=1), out.dealt.sum(axis=1))
    assert (out.winner == -1).any()  # both out at once: a draw
    assert (out.taken[:, 0] != out.dealt[:, 1]).any()  # some of A's damage was its own


def test_an_explosive_goes_to_the_general_kernel():
    data = duel(both={"weapon": {**BLAST, "explosive": True}})
    assert fuzion.compile_scenario(scenario_from_dict(data)).kernel == "general"


def test_options_together_run_on_the_mixed_kernel():
    data = duel({"hit_locations": "random", "knockback": True, "knockback_unit": 3.0},
                a={"weapon": AUTO, "tactics": [{"do": "attack", "fire": 4}]},
                b={"weapon": BLAST})  # fmt: skip
    plan = same_as_general(data, ("locations", "autofire", "knockback", "area"))
    assert plan.duel.options not in kernel_duel.KERNELS


# --- replays, the kernel's name, the exact chain ------------------------------------------------


@pytest.mark.parametrize(
    "data", [LOCATIONS["random"], AUTOFIRE["fire all"], KNOCKBACK["knocked out of range"],
             AREA["both caught"]],
)
def test_a_replay_runs_on_the_general_kernel_and_gives_the_bulk_trial(data):
    plan = fuzion.compile_scenario(scenario_from_dict(data))
    assert plan.replay is not None  # the standing kernel runs no hit locations
    bulk = fuzion.run_chunk(plan, chunk_key(3, 0), 0, 40)
    for trial in (0, 17, 39):
        one, events = fuzion.run_logged(plan, 3, trial)
        assert one.winner[0] == bulk.winner[trial]
        np.testing.assert_array_equal(one.dealt[0], bulk.dealt[trial])
        assert len(events) > 0


def test_the_plan_says_which_duel_kernel_runs_it():
    from fuzion_sim.systems.fuzion.describe import describe_kernel

    plan = fuzion.compile_scenario(scenario_from_dict(LOCATIONS["random"]))
    assert describe_kernel(plan) == "runs on the duel kernel with hit locations"
    bare = fuzion.compile_scenario(scenario_from_dict(duel()))
    assert describe_kernel(bare).startswith("runs on the plain duel kernel")
    assert describe_kernel(bare._replace(plain="")) == "runs on the duel kernel"
    assert bare.replay is None  # the standing kernel replays the bare duel


def test_the_exact_chain_still_declines_the_options():
    from fuzion_sim.systems.base import NotAvailable
    from fuzion_sim.systems.fuzion.oracle import fight_check

    with pytest.raises(NotAvailable, match="hit locations"):
        fight_check(scenario_from_dict(LOCATIONS["random"]))
    fight_check(scenario_from_dict(duel()))
