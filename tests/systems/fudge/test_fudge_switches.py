"""Every rule switch of FUDGE reaches the fight: flipped in a scenario where it matters, it
changes the compiled plan (or, for ``round_seconds``, the reported time), so no kernel can
ignore it. Also the to-hit modifiers of §8.521 and UA22, targeting (UA16) and full cover."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from fudge_helpers import build, duel, one_shot, within_se

from fuzion_sim import simulate
from fuzion_sim.systems import get_system
from fuzion_sim.systems.fudge import run as frun
from fuzion_sim.systems.fudge.compile import compile_scenario


def _charge_scene(charge=None, victim=None, contact=False, wall_scale=12):
    c = {"name": "Bomb", "charge": "Demolition charge", "position": 0, **(charge or {})}
    if contact:
        c["contact"] = "Man"
    return {"name": "c", "system": "fudge", "sides": {
        "a": [c, {"name": "Bomb 2", "charge": "Demolition charge", "tamped": True,
                  "contact": "Wall", "position": 0}],
        "b": [{"name": "Man", "position": 3, **(victim or {})},
              {"name": "Wall", "wounds": 15, "scale": wall_scale, "position": 0}]}}


GRENADE = {"name": "G", "bd": 4, "concussion": 8, "concussion_range": 3, "burst_radius": 4,
           "concussion_value": "Good"}  # fmt: skip
ALIEN = {"alien": {"ducked": True, "cover": "partial", "armour": {"points": 2, "scale": 3}}}
TIMED = {"name": "t", "system": "fudge", "sides": {
    "a": [{"name": "Bomb", "charge": "Dynamite stick", "avg_seconds": 10}],
    "b": [{"name": "Man", "distance": 30}]}}

CASES = {
    "wounds": ("core", duel()),
    "order": ("rolled", duel()),
    "tie_break": ("listed", duel(vaclav={"initiative": 0})),
    "base_difficulty": (1, duel()),
    "modifiers_on": ("skill", duel()),
    "ranged_defence": ("dodge", duel()),
    "propelled_dodge_penalty": (3, duel({"ranged_defence": "dodge"})),
    "dodge_costs_action": (True, duel({"ranged_defence": "dodge"},
                                      vaclav={"tactic": "dodge"})),
    "shot_roll": ("margin", duel()),
    "shot_critical": ("incapacitate", duel()),
    "zero_damage": ("scratch", one_shot(target={"armour": {"points": 3}})),
    "armour_stops": (True, one_shot(target={"armour": {"points": 4},
                                            "damage_capacity": "Terrible"})),
    "scale_beyond_table": ("clamp", one_shot({"weapon": {"name": "W", "bd": 4, "scale": 20}})),
    "armour_scale": ("own", duel(**ALIEN)),
    "firearms_dead_at": ("band", duel()),
    "core_overflow": ("ignore", duel({"wounds": "core"})),
    "core_dead_damage": (6, duel()),
    "wound_penalties": (False, duel()),
    "out_at": ("dead", duel()),
    "concussion_value": ("avoid_roll", _charge_scene({"charge": GRENADE})),
    "blast_scale": ("full", _charge_scene(victim={"scale": 3})),
    "blast_armour": (True, _charge_scene(victim={"armour": {"points": 2}})),
    "tamped_concussion": ("full", _charge_scene({"tamped": True})),
    "blast_damage": ("separate", _charge_scene({"charge": GRENADE})),
    "cover_near": ("cr", _charge_scene(victim={"cover": "partial"})),
    "duck_penalty": (2, duel(**ALIEN)),
    "partial_cover_penalty": (2, duel(**ALIEN)),
    "frag_zones": ("both", _charge_scene({"charge": GRENADE}, victim={"position": 1})),
    "breach_roll": ("shot_table", _charge_scene()),
    "breach_scale": ("table", _charge_scene(wall_scale=20)),
    "contact_concussion": (True, _charge_scene(contact=True)),
    "hit_locations": ("random", duel()),
    "aim_fallback": ("miss", duel({"hit_locations": "aimed"})),
    "location_multiplier_on": ("bd", duel({"hit_locations": "random"})),
    "cripple_out": (False, duel({"hit_locations": "random"})),
    "action_timing": (True, TIMED),
    "fog": ("thick", duel()),
    "light": ("night", duel(vaclav={"weapon": {"name": "IR", "bd": 4, "sight": "infrared"}})),
}  # fmt: skip


def _plans_differ(a, b) -> bool:
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray):
            if x.shape != y.shape or not np.array_equal(x, y):
                return True
        elif x != y:
            return True
    return False


def test_every_switch_has_a_case():
    assert set(CASES) | {"round_seconds"} == set(get_system("fudge").switches)


@pytest.mark.parametrize("switch", sorted(CASES))
def test_each_switch_reaches_the_compiled_fight(switch):
    value, data = CASES[switch]
    base = compile_scenario(build(data))
    flipped = copy.deepcopy(data)
    flipped.setdefault("rules", {})[switch] = value
    assert _plans_differ(base, compile_scenario(build(flipped))), switch


def test_round_seconds_reaches_the_reported_time():
    res = simulate(build(duel({"round_seconds": 5})), trials=2000, progress=False)
    assert res.time_unit["seconds"] == 5.0
    plan = frun.compile_scenario(build(duel({"round_seconds": 5})))
    assert frun.outcome_schema(plan).seconds == 5.0


def _need_bonus(data, a=0, t=1):
    plan = compile_scenario(build(data))
    n = plan.n_combatants
    return int(plan.pair_need[a * n + t]), int(plan.pair_bonus[a * n + t])


def test_the_to_hit_modifiers():
    assert _need_bonus(duel()) == (1, 0)  # 8 m: -1, Good needed
    assert _need_bonus(duel(alien={"speed": "running"})) == (2, 0)
    assert _need_bonus(duel(alien={"speed": "aircraft"})) == (4, 0)
    assert _need_bonus(duel({"light": "pitch_black", "fog": "thick"})) == (6, 0)
    assert _need_bonus(duel(alien={"ducked": True, "cover": "partial"})) == (3, 0)  # -1 -1
    laser = {"name": "L", "bd": 4, "laser": True, "sight": "advanced"}
    assert _need_bonus(duel(vaclav={"weapon": laser})) == (1, 3)  # +2 laser under 10 m
    far = duel(vaclav={"weapon": laser, "distance": 10}, alien={"distance": 10})
    assert _need_bonus(far) == (1, 1)  # at exactly 10 m the laser gives nothing
    ir = {"name": "IR", "bd": 4, "sight": "infrared"}
    assert _need_bonus(duel({"light": "night_moon"}, vaclav={"weapon": ir})) == (2, 2)
    assert _need_bonus(duel({"modifiers_on": "skill"})) == (0, -1)


def _positions(targeting, out_at="incapacitated"):
    """One sure shot a trial (a Legendary shooter, base difficulty -10) at Far (40 m) or
    Near (5 m)."""
    return {"name": "t", "system": "fudge", "seed": 2, "max_rounds": 1,
            "rules": {"out_at": out_at, "base_difficulty": -10}, "sides": {
                "a": [{"name": "A", "skill": "Legendary", "position": 0, "targeting": targeting,
                       "weapon": {"name": "W", "bd": 1}}],
                "b": [{"name": "Far", "position": 40}, {"name": "Near", "position": 5}]}}


@pytest.mark.parametrize(("targeting", "share_near"), [("first", 0.0), ("nearest", 1.0),
                                                       ("random", 0.5), ("strongest", 0.0)])
def test_targeting(targeting, share_near):
    res = simulate(build(_positions(targeting)), trials=4000, keep_trials=True, progress=False)
    assert (res.outcomes.landed[:, 0] == 1).all()
    near = (res.outcomes.taken[:, 2] > 0).mean()
    assert within_se(near, share_near, res.trials)


def test_a_helpless_enemy_is_shot_only_when_nobody_able_is_left():
    """UA16: with out_at: dead a shooter keeps to the first enemy listed until it is helpless
    (Incapacitated or worse), then turns to the one still able to act."""
    from fuzion_sim.api import replay

    data = _positions("first", out_at="dead")
    data["max_rounds"] = 2
    data["sides"]["a"][0]["weapon"] = {"name": "W", "bd": 8}
    sc = build(data)
    turned = 0
    for trial in range(60):
        first, second = [e for e in replay(sc, trial)["events"] if e["kind"] == "shot"]
        helpless = first["level"] in ("incapacitated", "near_death", "dead")
        assert second["target"] == ("Near" if helpless else "Far"), trial
        turned += helpless
    assert 0 < turned < 60


def test_full_cover_stops_both_ways():
    data = duel(alien={"cover": "full"})
    plan = compile_scenario(build(data))
    assert not plan.pair_ok[1] and not plan.pair_ok[2]
    res = simulate(build(data), trials=1000, progress=False)
    assert res.unresolved_probability == 1.0 and res.kill_time()["n"] == 0
    assert res.tally.end_hist[3, 1] == 1000  # nothing happens: over in round 1


def test_a_dodger_who_spends_the_action_never_shoots():
    data = duel({"ranged_defence": "dodge", "dodge_costs_action": True},
                vaclav={"tactic": "dodge", "dodge": "Superb"})
    res = simulate(build(data), trials=20_000, progress=False)
    stats = {r["combatant"]: r for r in res.combatant_stats()}
    assert stats["Vaclav"]["attacks_mean"] == 0
    assert stats["Alien"]["hit_rate"] < 0.3 < 31 / 81  # a Superb dodge against a Fair shot
