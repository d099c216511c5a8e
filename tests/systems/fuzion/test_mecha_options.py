"""The special armour rules for mecha and the mecha range scale (with the vehicles' own
range scale; ../shared/rulings/vehicles/: mechanics.md M-18, M-32 to M-36; rulings.md VA-17,
VA-42 to VA-45; examples.md E-05, E-10; scenarios.md scenario 2; RULINGS F10, F29, F30).

Each rule is off by default (F30) and each of its switches changes the numbers: staged
penetration (``staged_loss``, ``staged_trigger``), structural integrity (``integrity_count``),
powered armour (``powered_split``, ``powered_stun``), chinks' scope (``chinks_scope``) and the
mecha range scale (``mecha_range_scale``, the weapon key ``scale``). The kernel is held to the
exact figures (E-05, E-10, scenario 2's anchors) within 4 standard errors, with controls that
must fail; bad input is one clear error; the dispatch sends what the specialised kernels cannot
honour to the general kernel.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial
from pathlib import Path

import builders
import numpy as np
import pytest
from oracles import agrees

from fuzion_sim import load_scenario, simulate
from fuzion_sim.errors import ScenarioError
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import codes as k
from fuzion_sim.systems.fuzion import dispatch
from fuzion_sim.systems.fuzion.compile import compile_scenario as compile_plan
from fuzion_sim.systems.fuzion.compile import scaled_range_modifier
from fuzion_sim.systems.fuzion.dice import _nd6_counts
from fuzion_sim.systems.fuzion.oracle import integrity_p, scenario_attack, vehicle_locations

ROOT = Path(__file__).resolve().parents[3]
#: A shooter who never misses (AV 50: even a critical failure beats any DV here).
SURE = {"stats": {"REF": 10}, "skills": {"Heavy Weapons": 40, "Gunnery": 40}}
#: Attack in the first phase only.
ONCE = [{"when": "phase == 1", "do": "attack"}, {"do": "none"}]
MECHA_ROWS = ("head", "hands", "arms", "torso", "powerplant", "pilot", "weapon", "legs", "feet")


def pilot(**extra):
    base = {"name": "Pilot", "role": "pilot", "stats": {"REF": 6, "DEX": 4, "BODY": 6},
            "skills": {"Piloting": 3}, "hits": 10_000, "stun": 10_000}  # fmt: skip
    base.update(extra)
    return base


def mecha(name="Robot", kills=1000, armour=2, absent=(), position=(0, 0), weapons=None,
          tactics=None, crew=None, **vehicle):  # fmt: skip
    block = {"class": "mecha", "kills": kills, "heading": 0, "crew": crew or [pilot()],
             **vehicle}  # fmt: skip
    if absent:
        block["absent"] = list(absent)
    if weapons is not None:
        block["weapons"] = weapons
    return {"name": name, "vehicle": block, "armor": {"name": "Plate", "kills": armour},
            "position": list(position), "tactics": tactics or [{"do": "none"}]}  # fmt: skip


def shooter(position=(30, 0), weapon=None, tactics=None, **extra):
    weapon = weapon or {"name": "Cannon", "kills": 3, "skill": "Heavy Weapons", "range": 5000}
    base = {"name": "Shooter", **SURE, "weapon": weapon, "position": list(position),
            "tactics": tactics or ONCE}  # fmt: skip
    base.update(extra)
    return base


#: A target against one attacker, one round long unless told.
fight = partial(builders.fight, sides=("target", "attacker"))


def kills_weapon(kills):
    return {"name": f"{kills}-Kill gun", "kills": kills, "skill": "Heavy Weapons", "range": 5000}


def only(*rows):
    """Every mecha row but these is absent (rolled again, M-24)."""
    return [r for r in MECHA_ROWS if r not in rows]


# --- E-05: the mecha range scale (M-18, VA-17) ----------------------------------------------


@pytest.mark.parametrize(("dist", "listed", "mod"), [
    (40, 4000, 0), (41, 4000, -2), (100, 4000, -2), (101, 4000, -4), (500, 4000, -4),
    (501, 4000, -6), (4000, 4000, -6), (4499, 4000, -6), (4500, 4000, -7), (6000, 4000, -10),
    (300, 400, -4),  # a listed range under 500 m: -4 between Close and it (F10 x10)
])  # fmt: skip
def test_e05_mecha_bands_are_the_people_bands_x10(dist, listed, mod):
    """examples.md E-05 and M-18: Melee <= 40 m +0, Close <= 100 m -2, Medium <= 500 m -4, Long
    to the listed range -6, Extreme -6 and -1 per full 500 m past it: a mecha weapon listed
    at 4,000 m firing at 6,000 m is -6 - floor(2,000 / 500) = -10."""
    gun = {"name": "Rail gun", "skill": "Gunnery", "dc": 1, "range": listed}
    target = {"name": "Target", "hits": 10_000, "position": [dist, 0], "tactics": [{"do": "none"}]}
    sc = fight(target, mecha("Robot", weapons=[gun], tactics=[{"do": "attack"}]))
    plan = compile_plan(sc)
    names = [c.name for c in sc.combatants]
    a, t = names.index("Robot"), names.index("Target")
    assert plan.rscale[a] == 10.0
    assert scaled_range_modifier(plan, a, t, float(dist)) == mod


def _attack_av(sc, attacker="Robot", target="Target", seed=1):
    """The AV of the first attack in a logged trial of the general kernel."""
    plan = fuzion.compile_scenario(sc)
    _, ev = fuzion.run_logged(plan, seed, 0)
    names = [c.name for c in sc.combatants]
    rows = ev[(ev[:, k.EV_KIND] == k.EVENT_ATTACK) & (ev[:, k.EV_ACTOR] == names.index(attacker))]
    return int(rows[0, k.EV_AV])


@pytest.mark.parametrize(("scale", "mode", "target_is_mecha", "mod"), [
    (None, "attacker", False, -10), ("person", "attacker", False, -46),
    ("mecha", "attacker", False, -10), (None, "both_mecha", False, -46),
    (None, "both_mecha", True, -10), (None, "all_vehicles", False, -10),
])  # fmt: skip
def test_e05_in_the_kernel_and_the_exact_attack(scale, mode, target_is_mecha, mod):
    """E-05 where it counts: the AV the general kernel rolls with and the exact ``attack``'s
    AV carry the scaled modifier; a weapon marked ``scale: person`` keeps the people's bands
    (-6 - floor(2,000 / 50) = -46), and ``both_mecha`` scales only against a mecha."""
    gun = {"name": "Rail gun", "skill": "Gunnery", "dc": 1, "range": 4000}
    if scale:
        gun["scale"] = scale
    crew = [pilot(skills={"Piloting": 3, "Gunnery": 5})]
    robot = mecha("Robot", weapons=[gun], tactics=[{"do": "attack"}], crew=crew)
    if target_is_mecha:
        target = mecha("Target", position=(6000, 0), crew=[pilot(name="Other pilot")])
    else:
        target = {"name": "Target", "hits": 10_000, "stun": 10_000, "position": [6000, 0],
                  "tactics": [{"do": "none"}]}  # fmt: skip
    sc = fight(target, robot, max_rounds=1, mecha_range_scale=mode)
    base = fight(target, robot, max_rounds=1, mecha_range_scale=mode)
    exact = scenario_attack(sc, "Robot", "Target")
    av = _attack_av(sc)
    assert av == exact["attack"]["av"]
    # the AV without any range modifier: the pilot's REF + Gunnery (+ the size of a mecha)
    plan = compile_plan(base)
    names = [c.name for c in base.combatants]
    a, t = names.index("Robot"), names.index("Target")
    bare = int(plan.ref[a] + plan.att_skill[a] + plan.tgt_mod_r[t] + plan.att_mod_r[a])
    assert av - bare == mod


def test_a_mecha_melee_reach_is_40_m_and_a_ground_vehicle_keeps_the_people_bands():
    """VA-17: the melee reach of a mecha is x10 (a fist's 4 m is 40 m); a ground vehicle's
    weapon keeps the people's bands under the default ``attacker`` scope, and is scaled under
    ``all_vehicles``."""
    fist = {"name": "Fist", "kind": "melee", "skill": "Hand to Hand", "kills": 2}
    sc = fight({"name": "Target", "hits": 10_000, "position": [35, 0]},
               mecha("Robot", weapons=[fist]))  # fmt: skip
    plan = compile_plan(sc)
    assert plan.w_range[[c.name for c in sc.combatants].index("Robot")] == 40.0
    gun = {"name": "Gun", "skill": "Gunnery", "dc": 4, "range": 400}
    tank = {"name": "Tank", "vehicle": {"class": "ground", "sdp": 100, "crew": [pilot()],
                                        "weapons": [gun]}, "position": [0, 0]}  # fmt: skip
    for mode, factor in (("attacker", 1.0), ("all_vehicles", 10.0), ("both_mecha", 1.0)):
        sc = fight({"name": "Target", "position": [60, 0]}, tank, mecha_range_scale=mode)
        plan = compile_plan(sc)
        assert plan.rscale[[c.name for c in sc.combatants].index("Tank")] == factor


# --- E-10: structural integrity (M-36, VA-45) -----------------------------------------------


def test_e10_structural_integrity_exactly():
    """examples.md E-10: 1d10 above the tenths of a Kill left destroys: 0.1 K left 9/10, 0.5 K
    1/2 (the seed's "6+"), 0.9 K 1/10, 1 K or more 0. The seed's example rolls a d6 (6 on a d6
    is 1/6): a recorded departure (F30 settles the d10). Under ``fractional_part`` only the
    tenths digit counts, so 2.0 K left always fails (VA-45: absurd, kept for completeness)."""
    assert integrity_p(1, 10) == Fraction(9, 10)
    assert integrity_p(5, 10) == Fraction(1, 2)
    assert integrity_p(9, 10) == Fraction(1, 10)
    assert integrity_p(10, 10) == 0 and integrity_p(25, 10) == 0
    assert integrity_p(5, 10) != Fraction(1, 6)  # the seed's d6: departure recorded
    assert integrity_p(20, 10, "fractional_part") == 1
    assert integrity_p(25, 10, "fractional_part") == Fraction(1, 2)
    assert integrity_p(2, 1) == 0  # whole Kills: 2 K left is 20 tenths


@pytest.mark.parametrize(("kills", "armour", "weapon", "row", "left"), [
    (1, 1, 2, "arms", 5),  # 1 K through x1/2: 0.5 K left, 1/2
    (2, 0, 3, "legs", 5),  # 3 K x1/2 of 2 K: 0.5 K left
    (3, 1, 3, "torso", 10),  # 2 K through x1 of 3: 1 K left: never
])  # fmt: skip
def test_e10_in_the_kernel_within_4_se_of_exact(kills, armour, weapon, row, left):
    """One sure hit on a mecha that has only ``row``: the kernel's P(destroyed) against the
    exact ``attack``'s (``structural_integrity.p_destroyed``), within 4 SE; the same run with
    the rule off is the control that must fail (it destroys nothing). Whole-Kill weapons leave
    multiples of 0.5 K, so E-10's 0.1 K and 0.9 K are held by the exact function alone."""
    target = mecha("Robot", kills=kills, armour=armour, absent=only(row))
    sc_on = fight(target, shooter(weapon=kills_weapon(weapon)), structural_integrity=True)
    sc_off = fight(target, shooter(weapon=kills_weapon(weapon)))
    exact = scenario_attack(sc_on, "Shooter", "Robot")["structural_integrity"]
    want = float(integrity_p(left, 10))
    assert exact["p_destroyed"] == pytest.approx(want)
    n = 6000
    on = simulate(sc_on, trials=n, seed=7, threads=1).outcomes.death_slot[:, 0] > 0
    off = simulate(sc_off, trials=n, seed=7, threads=1).outcomes.death_slot[:, 0] > 0
    se = math.sqrt(max(want * (1 - want), 1 / n) / n)
    assert agrees(on.mean(), want, se)
    if 0 < want:
        assert not off.any() and not agrees(off.mean(), want, se)
    else:
        assert not on.any()


def test_integrity_by_the_mecha_table_matches_exact():
    """The whole mecha table (scenario 2's Kestrel: 1 Kill left of armour 1, a 2-Kill gun):
    torso x1 and head and powerplant x2 destroy by damage, the x1/2 rows leave 0.5 K (1/2), the
    pilot row leaves 1 K (never). Kernel within 4 SE of the exact figure; the figure of the
    rule off (damage alone) is rejected."""
    target = mecha("Kestrel", kills=1, armour=1)
    sc = fight(target, shooter(weapon=kills_weapon(2)), structural_integrity=True)
    got = scenario_attack(sc, "Shooter", "Kestrel")
    locs = vehicle_locations(sc.combatants[0].vehicle, "side")
    half = locs["hands"] + locs["arms"] + locs["weapon"] + locs["legs"] + locs["feet"]
    by_damage = locs["torso"] + locs["head"] + locs["powerplant"]
    want = float(by_damage + half / 2)
    assert got["structural_integrity"]["p_destroyed"] == pytest.approx(want)
    assert got["structural_integrity"]["p_scrapped"] == pytest.approx(float(half / 2))
    n = 8000
    dead = simulate(sc, trials=n, seed=3, threads=1).outcomes.death_slot[:, 0] > 0
    se = math.sqrt(want * (1 - want) / n)
    assert agrees(dead.mean(), want, se)
    assert not agrees(dead.mean(), float(by_damage), se)


def test_fractional_part_scraps_a_mecha_with_whole_kills_left():
    """VA-45 ``integrity_count: fractional_part``: 2.0 K left has tenths digit 0, so every
    penetrating hit scraps it; ``total_tenths`` never does."""
    target = mecha("Robot", kills=3, armour=2, absent=only("torso"))
    for count, p in (("total_tenths", 0.0), ("fractional_part", 1.0)):
        sc = fight(target, shooter(weapon=kills_weapon(3)), structural_integrity=True,
                   integrity_count=count)  # fmt: skip
        dead = simulate(sc, trials=300, seed=2, threads=1).outcomes.death_slot[:, 0] > 0
        assert dead.mean() == p


# --- staged penetration (M-33, VA-42) ---------------------------------------------------------


def _taken(sc, trials=50, seed=1):
    return simulate(sc, trials=trials, seed=seed, threads=1).outcomes.taken[:, 0]


THREE = [{"when": "phase <= 3", "do": "attack"}, {"do": "none"}]


@pytest.mark.parametrize(("rule", "loss", "total"), [
    (False, "minus_one", 60), (True, "minus_one", 90), (True, "all", 120), (True, "amount", 110),
])  # fmt: skip
def test_staged_penetration_loses_armour(rule, loss, total):
    """Three sure 5-Kill hits on 3 Kills of armour, no locations (the area is the whole
    vehicle): off, 2 K through each (60 tenths); ``minus_one`` 3 -> 2 -> 1 (20 + 30 + 40);
    ``all`` 3 -> 0 (20 + 50 + 50); ``amount`` loses the Kills through (3 -> 1 -> 0: 20 + 40 +
    50)."""
    target = mecha("Robot", armour=3)
    sc = fight(target, shooter(weapon=kills_weapon(5), tactics=THREE), max_rounds=1,
               vehicle_locations="none", staged_penetration=rule, staged_loss=loss)  # fmt: skip
    assert (_taken(sc) == total).all()


def test_scenario2_staged_2k_to_1k():
    """scenarios.md scenario 2: staged 2 K -> 1 K after a hit with 1 Kill or more through: a
    3-Kill round on the Kestrel's 2 Kills of plate puts 1 K through, the next 2 K."""
    target = mecha("Kestrel", armour=2)
    two = [{"when": "phase <= 2", "do": "attack"}, {"do": "none"}]
    sc = fight(target, shooter(weapon=kills_weapon(3), tactics=two), vehicle_locations="none",
               staged_penetration=True)  # fmt: skip
    assert (_taken(sc) == 10 + 20).all()


def test_staged_trigger_and_area():
    """VA-42: a limb hit of 1 Kill through x1/2 puts 0.5 K into the structure: ``through`` (1
    Kill or more through) does not stage it, ``rating`` (any penetrating hit of a 1-Kill-plus
    weapon) does; the area is the location hit, so the torso keeps its armour."""
    two = [{"when": "phase <= 2", "do": "attack"}, {"do": "none"}]
    arms = mecha("Robot", armour=2, absent=only("arms"))
    for trigger, total in (("through", 10), ("rating", 15)):
        sc = fight(arms, shooter(weapon=kills_weapon(3), tactics=two), staged_penetration=True,
                   staged_trigger=trigger)  # fmt: skip
        assert (_taken(sc) == total).all(), trigger
    # arms and torso: staging one area leaves the other's armour alone
    both = mecha("Robot", armour=2, absent=only("arms", "torso"))
    sc = fight(both, shooter(weapon=kills_weapon(3), tactics=THREE), staged_penetration=True,
               staged_trigger="rating")  # fmt: skip
    res = simulate(sc, trials=400, seed=5, threads=1)
    taken = res.outcomes.taken[:, 0]
    # each hit: 1 K or 2 K through (10 or 20 on the torso, 5 or 10 on the arms), never 3 K
    assert taken.min() >= 15 and taken.max() <= 60 and len(np.unique(taken)) > 3


# --- scenario 2's anchors ---------------------------------------------------------------------


def test_scenario2_beam_through_2k_on_the_powerplant_is_8k():
    """scenarios.md scenario 2: a beam hit (6 Kills) through 2 K of armour on the powerplant
    (x2) is (6 - 2) x 2 = 8 K, 80 tenths, with P = P(hit, no chink) x 21/216."""
    sc = load_scenario(ROOT / "scenarios/vehicles/giant-robot-duel.yaml")
    got = scenario_attack(sc, "Ironclad", "Kestrel")
    assert got["attack"]["unit"] == "tenths of a Kill"
    assert got["locations"]["powerplant"] == pytest.approx(21 / 216)
    pmf = got["damage"]["pmf"]
    assert "80" in pmf and "120" in pmf  # chinked: all 6 Kills x2
    # Medium at 400 m under the mecha scale: -4 (E-05)
    assert got["attack"]["range_m"] == 400.0


# --- chinks' scope (VA-43) --------------------------------------------------------------------


def test_chinks_scope_mecha_spares_people_but_not_vehicles():
    """VA-43 ``chinks_scope: mecha``: chinks ignore only a vehicle's armour. A sure hit (margin
    far past 10) on a person in PD 12 does the dice less 12 (``all``: the whole dice); on a
    Kill-rated mecha it still ignores the Kill armour."""
    gun = {"name": "Gun", "dc": 4, "skill": "Heavy Weapons", "range": 500}
    person = {"name": "Man", "hits": 10_000, "stun": 10_000, "armor": {"name": "Vest", "pd": 12},
              "position": [20, 0], "tactics": [{"do": "none"}]}  # fmt: skip
    lo, counts = _nd6_counts(4)
    means = {}
    for scope in ("all", "mecha"):
        sc = fight(person, shooter(weapon=gun), chinks=True, chinks_scope=scope)
        means[scope] = scenario_attack(sc, "Shooter", "Man")["damage"]["mean"]
    assert means["all"] == pytest.approx(14.0)
    want = sum(max(lo + j - 12, 0) * c for j, c in enumerate(counts)) / 6**4
    assert means["mecha"] == pytest.approx(want)
    # the kernel agrees: every hit is a chink under all, none under mecha
    for scope in ("all", "mecha"):
        sc = fight(person, shooter(weapon=gun), chinks=True, chinks_scope=scope)
        taken = _taken(sc, trials=3000)
        assert agrees(taken.mean(), means[scope], math.sqrt(35 * 4 / 12 / 3000))
    robot = mecha("Robot", armour=2)
    for scope in ("all", "mecha"):
        sc = fight(robot, shooter(weapon=kills_weapon(3)), vehicle_locations="none", chinks=True,
                   chinks_scope=scope)  # fmt: skip
        assert (_taken(sc) == 30).all()


# --- powered armour (M-35, VA-44) -------------------------------------------------------------

SUIT = {"name": "Power suit", "pd": 10, "sdp": 1000}


def trooper(armor=SUIT, **extra):
    base = {"name": "Trooper", "hits": 1000, "stun": 1000, "armor": dict(armor),
            "position": [20, 0], "tactics": [{"do": "none"}]}  # fmt: skip
    base.update(extra)
    return base


def _attack_rows(sc, trials, seed=1):
    """(through, Hits lost, Stun lost) of every attack on the target (combatant 0) in the
    first ``trials`` trials, from the event log of the general kernel."""
    plan = fuzion.compile_scenario(sc)
    general = compile_plan(sc)
    hits0, stun0 = int(general.hits_max[0]), int(general.stun_max[0])
    out = []
    for trial in range(trials):
        _, ev = fuzion.run_logged(plan, seed, trial)
        rows = ev[(ev[:, k.EV_KIND] == k.EVENT_ATTACK) & (ev[:, k.EV_TARGET] == 0)]
        h, s = hits0, stun0
        for r in rows:
            out.append((int(r[k.EV_THROUGH]), h - int(r[k.EV_HITS]), s - int(r[k.EV_STUN]),
                        int(r[k.EV_RAW])))  # fmt: skip
            h, s = int(r[k.EV_HITS]), int(r[k.EV_STUN])
    return np.array(out)


@pytest.mark.parametrize(("split", "wearer"), [("suit_ceil", lambda t: t // 2),
                                                ("wearer_ceil", lambda t: t - t // 2)])
def test_powered_armour_splits_what_gets_through(split, wearer):
    """M-35, VA-44: the damage through the suit's PD is halved, the odd point to the suit
    (``suit_ceil``) or to the wearer (``wearer_ceil``); the wearer's half is killing damage
    to Hits (with collateral Stun). Off (a plain PD 10 vest), the wearer takes all of it."""
    gun = {"name": "Gun", "dc": 6, "skill": "Heavy Weapons", "range": 500}
    sc = fight(trooper(), shooter(weapon=gun), powered_armour=True, powered_split=split)
    rows = _attack_rows(sc, 60)
    through, lost = rows[:, 0], rows[:, 1]
    assert (through > 0).any() and (through % 2 == 1).any()
    np.testing.assert_array_equal(lost, [wearer(t) for t in through])
    plain = fight(trooper({"name": "Vest", "pd": 10}), shooter(weapon=gun))
    rows = _attack_rows(plain, 60)
    np.testing.assert_array_equal(rows[:, 1], rows[:, 0])


def test_powered_stun_as_stun_or_to_hits():
    """VA-44 ``powered_stun``: a Stun attack's wearer half goes to Stun (1 Hit per full 5) under
    ``as_stun``, or to Hits as killing damage under ``to_hits``."""
    stunner = {"name": "Stunner", "dc": 8, "damage": "stun", "skill": "Heavy Weapons",
               "range": 500}  # fmt: skip
    for rule in ("as_stun", "to_hits"):
        sc = fight(trooper(), shooter(weapon=stunner), powered_armour=True, powered_stun=rule)
        rows = _attack_rows(sc, 40)
        half = rows[:, 0] // 2
        assert (half > 4).any()
        if rule == "as_stun":
            np.testing.assert_array_equal(rows[:, 2], half)
            np.testing.assert_array_equal(rows[:, 1], half // 5)
        else:
            np.testing.assert_array_equal(rows[:, 1], half)


def test_a_wrecked_suit_has_pd_0_and_no_split():
    """VA-44: at 0 SDP the suit is wrecked: later hits meet PD 0 and the wearer takes all;
    what the suit's last SDP cannot take goes to the wearer."""
    gun = {"name": "Gun", "dc": 6, "skill": "Heavy Weapons", "range": 500}
    two = [{"when": "phase <= 2", "do": "attack"}, {"do": "none"}]
    sc = fight(trooper({"name": "Old suit", "pd": 3, "sdp": 1}), shooter(weapon=gun, tactics=two),
               powered_armour=True)  # fmt: skip
    rows = _attack_rows(sc, 30)
    first, second = rows[0::2], rows[1::2]
    np.testing.assert_array_equal(first[:, 1], first[:, 0] - 1)  # the suit takes its last 1
    np.testing.assert_array_equal(second[:, 0], second[:, 3])  # PD 0
    np.testing.assert_array_equal(second[:, 1], second[:, 0])  # no split


def test_powered_armour_exact_against_the_kernel():
    """The exact ``attack`` on a suited target adds ``powered_armour`` (the suit's and the
    wearer's shares of a fresh suit); the kernel's mean Hits lost is within 4 SE of the
    wearer's exact mean. The plain split-less mean is the control that must fail."""
    gun = {"name": "Gun", "dc": 6, "skill": "Heavy Weapons", "range": 500}
    sc = fight(trooper(), shooter(weapon=gun), powered_armour=True)
    got = scenario_attack(sc, "Shooter", "Trooper")
    share = got["powered_armour"]
    assert share["suit_sdp"] == 1000 and share["p_wrecked"] == 0.0
    assert share["suit"]["mean"] + share["wearer"]["mean"] == pytest.approx(got["damage"]["mean"])
    rows = _attack_rows(sc, 800)
    lost = rows[:, 1]
    se = lost.std() / math.sqrt(len(lost))
    assert agrees(lost.mean(), share["wearer"]["mean"], se)
    assert not agrees(lost.mean(), got["damage"]["mean"], se)


def test_a_kill_weapon_on_powered_armour_is_13_plus_k_dc():
    """VA-44: a Kill-rated attack on powered armour is 13 + K DC (the suit is a small target,
    F29): a 1-Kill gun rolls 14d6."""
    sc = fight(trooper(), shooter(weapon=kills_weapon(1)), powered_armour=True)
    rows = _attack_rows(sc, 200)
    assert rows[:, 3].min() >= 14 and rows[:, 3].max() <= 84
    assert agrees(rows[:, 3].mean(), 49.0, math.sqrt(14 * 35 / 12 / len(rows)))


def test_powered_armour_runs_on_the_general_kernel_only():
    """dispatch.HONOURS: a fight with a suit never goes to a specialised kernel; the same fight
    without one is not held back by it."""
    gun = {"name": "Gun", "dc": 6, "skill": "Heavy Weapons", "range": 500}
    attack = [{"do": "attack"}]
    suited = compile_plan(fight(trooper(), shooter(weapon=gun, tactics=attack),
                                powered_armour=True))  # fmt: skip
    plain = compile_plan(fight(trooper({"name": "Vest", "pd": 10}),
                               shooter(weapon=gun, tactics=attack), powered_armour=True))
    assert dispatch.kernel_for(suited) == "general"
    for name in dispatch.SPECIALISED:
        assert "powered armour" in dispatch.blocking_reasons(suited, name)
        assert "powered armour" not in dispatch.blocking_reasons(plain, name)
    assert dispatch.no_suits(plain) and not dispatch.no_suits(suited)


# --- bad input, and the rules off -------------------------------------------------------------


def test_a_suit_without_the_rule_is_an_error(tmp_path):
    """Every key a user writes reaches the fight or is an error: armour with ``sdp`` while
    ``rules.powered_armour`` is off (F30's default) names the key, its line and the fix."""
    path = tmp_path / "suit.yaml"
    path.write_text(
        "name: t\nsystem: fuzion\nsides:\n  a:\n    - name: Trooper\n"
        "      armor: {name: Suit, pd: 10, sdp: 30}\n  b:\n    - name: Other\n"
    )  # fmt: skip
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    text = str(err.value)
    assert "rules.powered_armour: true" in text and "armor.sdp" in text and "suit.yaml" in text
    with pytest.raises(ScenarioError, match="powered armour"):
        fight(trooper({"name": "Suit", "kills": 2, "sdp": 10}), shooter(), powered_armour=True)


@pytest.mark.parametrize(("rules", "where", "message"), [
    ({"staged_loss": "minus1"}, "rules.staged_loss", "minus_one"),
    ({"integrity_count": "tenths"}, "rules.integrity_count", "total_tenths"),
    ({"mecha_range_scale": "mecha"}, "rules.mecha_range_scale", "attacker"),
    ({"chinks_scope": "vehicles"}, "rules.chinks_scope", "mecha"),
    ({"powered_split": "suit"}, "rules.powered_split", "suit_ceil"),
])  # fmt: skip
def test_bad_switches_are_one_clear_error(rules, where, message):
    with pytest.raises(ScenarioError) as err:
        fight(mecha("Robot"), shooter(), **rules)
    assert where in str(err.value) and message in str(err.value)


def test_a_bad_weapon_scale_is_one_clear_error():
    gun = {"name": "Gun", "skill": "Gunnery", "dc": 1, "range": 400, "scale": "mech"}
    with pytest.raises(ScenarioError) as err:
        fight({"name": "Target"}, mecha("Robot", weapons=[gun]))
    text = str(err.value)
    assert "vehicle.weapons[0].scale" in text and "mecha" in text


def test_the_options_off_compile_to_nothing():
    """F30: each option off by default; with them off the compiled plan carries zeros and the
    people's range scale for people."""
    sc = fight(mecha("Robot"), shooter())
    plan = compile_plan(sc)
    for opt in (k.OPT_STAGED, k.OPT_INTEGRITY, k.OPT_CHINKS_VEHICLES, k.OPT_POWERED_STUN,
                k.OPT_POWERED_SPLIT, k.OPT_STAGED_TRIGGER):  # fmt: skip
        assert plan.options[opt] == 0
    assert not plan.suit_max.any()
    assert plan.rscale[[c.name for c in sc.combatants].index("Shooter")] == 1.0


def test_the_scenarios_run(tmp_path):
    """The two mecha scenarios load and run with their options on."""
    for name in ("giant-robot-duel", "mecha-vs-infantry"):
        sc = load_scenario(ROOT / f"scenarios/vehicles/{name}.yaml")
        res = simulate(sc, trials=300, seed=1, threads=1)
        assert res.trials == 300
