"""The colour kernels agree bit for bit: the duel and squad kernels with the general one, the
general kernel's static tables with its rule-by-rule path, one thread with two, and a replayed
trial with the bulk run's."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from colour_cases import SCENARIOS, duel, fight, member, scenario, shipped

from fuzion_sim import simulate
from fuzion_sim.api import replay
from fuzion_sim.engine.outcomes import SHARED, Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.systems.colour import codes as k
from fuzion_sim.systems.colour import run

SHIPPED = sorted(p.name for p in SCENARIOS.glob("*.yaml"))
KEN = member("Ken", abilities={"Fighting": "Good", "Agility": "Good", "Endurance": "Good"},
             weapon="Machine gun")  # fmt: skip


def outcomes_equal(a, b) -> list[str]:
    bad = [f for f in SHARED if not np.array_equal(getattr(a, f), getattr(b, f))]
    bad += [f for f in a.counters if not np.array_equal(a.counters[f], b.counters[f])]
    bad += [f for f in a.categories if not np.array_equal(a.categories[f], b.categories[f])]
    return bad


def untabled(plan):
    arrays = plan.arrays._replace(opts=plan.arrays.opts.copy())
    arrays.opts[k.O_NO_TABLES] = 1
    return plan._replace(arrays=arrays)


def tally_differs(plan, key, first, n) -> list[str]:
    """The tally fields in which a streamed chunk (``run.tally_chunk``, the kernel adding its
    trials straight into the tally) differs from the tally of its per-trial outcomes."""
    streamed = run.tally_chunk(plan, key, first, n)
    if streamed is None:
        return []
    ref = Tally.of(run.run_chunk(plan, key, first, n), plan.n_sides, run.max_slots(plan),
                   run.outcome_schema(plan)).to_state()  # fmt: skip
    got = streamed.to_state()
    return [f for f in ref if not np.array_equal(ref[f], got[f])]


def check_kernels(sc, n=1500, first=0, seed=5):
    """Every kernel that honours ``sc``, and the general kernel without tables, agree, trial
    by trial and streamed into a tally."""
    chosen = run.compile_scenario(sc)
    plans = {"general": run.compile_scenario(sc, "general")}
    for name in ("duel", "squad"):
        try:
            plans[name] = run.compile_scenario(sc, name)
        except ValueError:
            pass
    plans["rule by rule"] = untabled(plans["general"])
    key = chunk_key(seed, 0)
    ref = run.run_chunk(plans["general"], key, first, n)
    for name, plan in plans.items():
        got = run.run_chunk(plan, key, first, n)
        assert not outcomes_equal(ref, got), (sc.name, name, outcomes_equal(ref, got))
        assert not tally_differs(plan, key, first, n), (sc.name, name)
    return chosen.kernel, ref


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_scenarios_on_every_kernel(name):
    check_kernels(shipped(name), n=400 if "10v10" in name else 1500)


def test_the_chosen_kernels():
    assert run.compile_scenario(shipped("ken-against-bob.yaml")).kernel == "duel"
    assert run.compile_scenario(shipped("bench-squad-10v10.yaml")).kernel == "squad"
    assert run.compile_scenario(shipped("grapple.yaml")).kernel == "general"
    with pytest.raises(ValueError, match="does not honour"):
        run.compile_scenario(shipped("grapple.yaml"), "duel")


CRowbar = {"name": "Crowbar", "kind": "melee", "str_plus": 4}
RULE_CASES = {
    "counter-attacks": ({"counter_attack": True}, "melee"),
    "breakage and rattle": ({"armour_breakage": True, "armour_rattle": True,
                             "armour_damage_table": True}, "armoured"),
    "active armour": ({"armour_roll": "active"}, "armoured"),
    "fallback soak": ({"defence_fallback": "soak_after_failed_dodge"}, "melee"),
    "reactive": ({"defence_choice": "reactive"}, "reactive"),
    "shields each round": ({"shield_mode_choice": "per_round"}, "shields"),
    "simultaneous": ({"initiative_ties": "simultaneous"}, "melee"),
    "aid and flee": ({"aid_fallen": True, "flee_after_wake": True}, "team"),
    "next turn rolls": ({"endurance_roll_timing": "next_turn", "death_at_shift0": "immediate"},
                        "team"),
    "health tracks": ({"health_tracks_endurance": True, "soak": "literal"}, "soakers"),
    "ammunition": ({"ammunition": True}, "guns"),
    "helpless": ({"kill_outright_at_zero": True, "helpless_loss_per": "hit"}, "finishers"),
    "standard ladder": ({"ladder": "standard", "unknown_rank": "nearest", "cs_steps": "table",
                         "cs_clamp": "msh", "cs_combine": "sequential"}, "melee"),
}  # fmt: skip


def case(kind: str):
    """A small fight exercising a group of rules."""
    strong = {"Fighting": "Good", "Strength": "Good", "Endurance": "Good"}
    if kind == "melee":
        return fight({"a": [member("A1", weapon="Crowbar", abilities=strong),
                            member("A2", defence="parry", weapon=CRowbar)],
                      "b": [member("B1", weapon="Crowbar", defence="block"),
                            member("B2", defence="roll_with_blow")]})  # fmt: skip
    if kind == "armoured":
        return fight({"a": [member("A", weapon="Quinn's sword", abilities=strong)],
                      "b": [member("B", armor="Power suit", defence="none"),
                            member("C", armor="Good", natural_armor=5)]})  # fmt: skip
    if kind == "reactive":
        return fight({"a": [KEN, member("A2", weapon="Crowbar")],
                      "b": [member("B", defence=["dodge", "roll_with_blow", "soak"]),
                            member("C", defence=["parry", "soak"], weapon="Crowbar")]})
    if kind == "shields":
        return fight({"a": [KEN, member("A2", weapon="Crowbar")],
                      "b": [member("B", shield="Example shield", shield_mode="deflect")]})
    if kind == "team":
        return fight({"a": [member(f"A{i}", weapon="Crowbar") for i in range(3)],
                      "b": [member(f"B{i}", weapon="Zombie bite") for i in range(3)]})
    if kind == "soakers":
        return fight({"a": [member("A", weapon="Quinn's sword")],
                      "b": [member("B", defence="soak", abilities={"Endurance": "Remarkable"})]})
    if kind == "guns":
        pistol = {"name": "Pistol", "kind": "ranged", "damage": 8, "gun": True, "shots": 3}
        smg = {"name": "SMG", "kind": "ranged", "damage": 6, "rapid_fire": "full_auto",
               "rounds": 5, "shots": 12}  # fmt: skip
        return fight({"a": [member("A", weapon=pistol), member("A2", weapon=smg)],
                      "b": [member("B", weapon="Crowbar"), member("B2")]})
    if kind == "finishers":
        return fight({"a": [member("A", weapon="Crowbar", finish_fallen=True,
                                   abilities=strong), member("A2")],
                      "b": [member("B"), member("B2")]})  # fmt: skip
    raise AssertionError(kind)


@pytest.mark.parametrize("name", sorted(RULE_CASES))
def test_rules_on_every_kernel(name):
    rules, kind = RULE_CASES[name]
    data = case(kind)
    data["rules"] = rules
    check_kernels(scenario(data), n=600)


def test_forms_of_attack_on_every_kernel():
    sniper = member("S", weapon="Brick", aim=1)
    burster = dict(KEN, name="Burster", actions={"do": "burst"})
    grenadier = member("G", weapon={"name": "Grenade", "kind": "ranged", "damage": 15,
                                    "area": True})  # fmt: skip
    caller = member("C", weapon={"name": "Axe", "kind": "melee", "str_plus": 3,
                                 "type": "slashing"}, actions={"do": "attack",
                                                               "called": "left_arm"})
    data = fight({"a": [sniper, burster, grenadier, caller],
                  "b": [member("B1", dive_for_cover=True), member("B2", force_field=10),
                        member("B3", defence="soak"), member("B4", armor="Good")]})
    check_kernels(scenario(data), n=500)


SMG = {"name": "SMG", "kind": "ranged", "damage": 6, "rapid_fire": "full_auto", "rounds": 6}
STRONG = {"Fighting": "Good", "Strength": "Good", "Endurance": "Good", "Agility": "Good"}


@pytest.mark.parametrize("form", ["two actions", "later FEATs", "soak", "next turn"])
def test_duels_off_the_short_loop(form):
    """The duel kernel's turns of more than one action, and of volleys whose later hits roll
    their own FEAT, against the general kernel; the fight ending on a turn's first action
    counts only the attacks made."""
    a = member("A", weapon=CRowbar, abilities=STRONG)
    b = member("B", weapon=SMG, defence="roll_with_blow", actions={"do": "autofire"})
    rules = None
    if form == "two actions":
        a["actions"] = [{"do": "attack"}, {"do": "attack"}]
        b["actions"] = [{"do": "autofire", "rounds": 3}, {"do": "autofire", "rounds": 3}]
    elif form == "later FEATs":
        a["defence"] = "roll_with_blow"
    elif form == "soak":
        a["defence"] = b["defence"] = "soak"
    elif form == "next turn":
        rules = {"endurance_roll_timing": "next_turn"}
    sc = scenario(duel(a, b, rules))
    assert run.compile_scenario(sc).kernel == "duel"
    check_kernels(sc, n=3000)


RANKS = ("Poor", "Typical", "Good", "Excellent", "Remarkable", "Typical", "Monstrous")
WEAPONS = ("Crowbar", "Brick", "Machine gun", "Zombie bite", "Fists", "Quinn's sword", SMG)
ARMOURS = (0, "Typical", "Padded shirt", "Good", "Shift 0")
DEFENCES = ("dodge", "block", "parry", "roll_with_blow", "soak", "none")
RANDOM_RULES = {
    "endurance_roll_timing": ("immediate", "next_turn"), "death_at_shift0": ("next_turn",
    "immediate"), "flee_after_wake": (False, True), "kill_outright_damage": ("net",
    "threatened"), "initiative_ties": ("reroll", "agility"), "soak": ("graded", "literal"),
}  # fmt: skip


def random_fight(seed: int) -> dict:
    """A fight of two or three sides of one to four (every fourth seed one against one), every
    member drawn at random from what the duel and squad kernels honour (weapons, armour,
    defences, targeting, preferred targets, two actions, the fate switches)."""
    rng = np.random.default_rng(seed)
    pick = lambda options: options[int(rng.integers(len(options)))]  # noqa: E731
    sides, names = {}, []
    one_on_one = seed % 4 == 0
    for s in range(2 if one_on_one else int(rng.integers(2, 4))):
        side = []
        for m in range(1 if one_on_one else int(rng.integers(1, 5))):
            abilities = {a: pick(RANKS) for a in ("Fighting", "Agility", "Strength",
                                                  "Endurance")}  # fmt: skip
            keys = {"abilities": abilities, "weapon": copy.deepcopy(pick(WEAPONS)),
                    "armor": pick(ARMOURS), "defence": pick(DEFENCES),
                    "targeting": pick(("first", "first", "weakest", "strongest"))}  # fmt: skip
            if rng.random() < 0.2:
                keys["actions"] = [{"do": "attack"}, {"do": "attack"}]
            side.append(member(f"M{s}{m}", **keys))
            names.append((s, f"M{s}{m}"))
        sides[f"s{s}"] = side
    for s, side in enumerate(sides.values()):
        if rng.random() < 0.3:
            enemies = [name for t, name in names if t != s]
            side[0]["actions"] = {"do": "attack", "target": pick(enemies)}
    rules = {key: pick(options) for key, options in RANDOM_RULES.items()}
    return fight(sides, rules)


@pytest.mark.parametrize("seed", range(24))
def test_random_fights_on_every_kernel(seed):
    """Random fights the duel or squad kernel runs (those it does not, skipped) agree with the
    general kernel trial by trial."""
    sc = scenario(random_fight(seed))
    kernel = run.compile_scenario(sc).kernel
    if kernel == "general":
        pytest.skip("the general kernel's fight")
    check_kernels(sc, n=400)


def test_a_battle_of_more_than_64():
    """Initiative for more than 64 combatants (the squad kernel's words of bits hold 64)."""
    sides = {side: [member(f"{side}{i}", weapon="Brick") for i in range(33)] for side in "ab"}
    sc = scenario(fight(sides))
    assert run.compile_scenario(sc).kernel == "squad"
    check_kernels(sc, n=40)


def test_one_thread_or_two_and_chunks():
    sc = shipped("ken-against-bob.yaml")
    one = simulate(sc, trials=70_000, threads=1, progress=False, keep_trials=True)
    two = simulate(sc, trials=70_000, threads=2, progress=False, keep_trials=True)
    assert not outcomes_equal(one.outcomes, two.outcomes)
    for name, a in one.tally.to_state().items():
        b = two.tally.to_state()[name]
        assert np.array_equal(a, b), name
    streamed = simulate(sc, trials=70_000, threads=2, progress=False, keep_trials=False)
    assert np.array_equal(streamed.tally.end_hist, one.tally.end_hist)
    assert np.array_equal(streamed.tally.categories["attack_colours"],
                          one.tally.categories["attack_colours"])


@pytest.mark.parametrize("name", ["ken-against-bob.yaml", "grapple.yaml",
                                  "called-shot-head.yaml", "zombie-family-reunion.yaml",
                                  "bench-squad-10v10.yaml"])  # fmt: skip
def test_replay_is_the_bulk_runs_trial(name):
    sc = shipped(name)
    plan = run.compile_scenario(sc)
    bulk = run.run_chunk(plan, chunk_key(sc.seed, 0), 0, 40)
    for trial in (0, 7, 39):
        out, _events = run.run_logged(plan, sc.seed, trial)
        row = {f: getattr(bulk, f)[trial] for f in SHARED}
        for f in SHARED:
            assert np.array_equal(getattr(out, f)[0], row[f]), (name, trial, f)
        for f in out.counters:
            assert np.array_equal(out.counters[f][0], bulk.counters[f][trial])
        rep = replay(sc, trial)
        assert rep["end_time"] == int(bulk.end_slot[trial])
        assert rep["lines"][-1].startswith(f"the fight ends after round {rep['end_time']}")
        kinds = {e["kind"] for e in rep["events"]}
        assert {"initiative", "end"} <= kinds


def test_invariants_of_a_team_fight():
    data = case("team")
    data["rules"] = {"aid_fallen": True}
    sc = scenario(data)
    out = run.run_chunk(run.compile_scenario(sc), chunk_key(3, 0), 0, 3000)
    assert (out.dealt.sum(axis=1) == out.taken.sum(axis=1)).all()
    assert ((out.death_slot == 0) | (out.out_slot > 0)).all()  # the dead went out
    assert (out.out_slot <= out.end_slot[:, None]).all()
    assert (out.landed <= out.attacks).all()
    dying, unconscious = out.counters["dying"], out.counters["unconscious"]
    assert (dying <= unconscious).all()
    assert (unconscious[out.death_slot > 0] == 0).all()
    assert set(np.unique(out.winner)) <= {-2, -1, 0, 1}
