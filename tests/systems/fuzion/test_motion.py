"""Vehicles in motion (../shared/rulings/vehicles/ M-46 to M-52, M-62
to M-66, VA-19, VA-27 to VA-31, VA-39, VA-40): the tactics words and their errors, the exact
manoeuvre odds, the general kernel's losses of control held to them (each with a control that
must fail), rams and crashes against the collision table, speeds, aircraft that crash, walkers
that fall over, the switches, narration and results.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from builders import fight
from click.testing import CliRunner
from oracles import agrees
from vehicle_fixtures import WATCHER, driven

from fuzion_sim import api
from fuzion_sim.cli import cli
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion.dice import hero_roll
from fuzion_sim.systems.fuzion.features.motion.exact import manoeuvre_odds
from fuzion_sim.systems.fuzion.features.scene.exact import impact_answer

#: Two sides, blue and red (a watcher far off unless given).
_scenario = partial(fight, defaults=(None, WATCHER))


def _outcomes(sc, n=6000, seed=11):
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "general"
    return fuzion.run_chunk(plan, chunk_key(seed, 0), 0, n)


def _once(name, **extra):
    """One named manoeuvre in the first phase, then nothing."""
    return [{"when": "phase == 1", "do": "manoeuvre", "name": name, **extra}, {"do": "none"}]


def _share_agrees(hits, n, p):
    return agrees(hits / n, p, np.sqrt(p * (1 - p) / n))


# --- loading and its errors -------------------------------------------------------------------


def _err(match, blue, red=None, **rules):
    with pytest.raises(ScenarioError, match=match) as info:
        _scenario(blue, red, **rules)
    return info.value


def test_tactics_words_and_errors():
    e = _err("manoeuvre needs name", [driven("Car", (0, 0), _once("hi-speed turn"))])
    assert e.suggestion == "high-speed turn" and e.path == "sides.blue[0].tactics[0].name"
    _err("unknown ram kind", [driven("Car", (0, 0), [{"do": "ram", "kind": "rare"}])])
    _err("'kind' does not apply", [driven("Car", (0, 0), [{"do": "steer", "kind": "rear"}])])
    _err("'name' does not apply", [driven("Car", (0, 0), [{"do": "ram", "name": "ram"}])])
    _err("toward or heading, not both",
         [driven("Car", (0, 0), [{"do": "steer", "toward": "away", "heading": 90}])])
    _err("expected a heading", [driven("Car", (0, 0), [{"do": "steer", "heading": "north"}])])
    person = {"name": "Runner", "stats": {"REF": 5}, "position": [0, 0],
              "tactics": [{"do": "steer"}]}  # fmt: skip
    e = _err("not a vehicle: only a vehicle's tactics", [person])
    assert e.path == "sides.blue[0].tactics[0].do"
    _err("changes speed .*drives with steer, not 'run'",
         [driven("Car", (0, 0), [{"do": "accelerate"}, {"do": "run"}])])
    weightless = driven("Car", (0, 0), [{"do": "steer"}])
    del weightless["vehicle"]["weight"]
    _err("has no vehicle.weight", [weightless])
    _err("only an aircraft flies", [driven("Car", (0, 0), [{"do": "steer"}], altitude=100)])
    _err("as_fal|expected one of|unknown", [driven("Car", (0, 0), [{"do": "steer"}])],
         ground_loss="by_severty")


# --- exact ------------------------------------------------------------------------------------


def test_exact_odds_of_a_manoeuvre():
    sc = _scenario([driven("Car", (0, 0), _once("high-speed turn"))])
    odds = manoeuvre_odds(sc, "Car", "high-speed turn")
    roll = hero_roll(True)
    p_made = float(roll.probs[roll.values >= 18 - 10].sum())  # REF 6 + Driving 4
    assert odds["p_made"] == pytest.approx(p_made)
    small = float(roll.probs[(roll.values < 8) & (roll.values >= 5)].sum())  # missed by 1-3
    assert odds["lost"]["skid"] == pytest.approx(small)  # by_severity: 1-3 skids
    assert odds["lost"]["spin"] == pytest.approx(1 - p_made - small)
    assert odds["skid_dice"] == 6  # MOVE 30 = 60 mph: 6d6 m (VA-29)
    literal = manoeuvre_odds(_scenario([driven("Car", (0, 0), _once("swerve"))],
                                       ground_loss="literal"), "Car", "high-speed turn")
    assert literal["lost"]["spin"] == pytest.approx(small)
    jet = _scenario([driven("Jet", (0, 0), _once("swerve"), cls="aircraft", altitude=500)])
    assert set(manoeuvre_odds(jet, "Jet", "swerve")["lost"]) == {"stall", "spin"}
    assert manoeuvre_odds(jet, "Jet", "swerve")["p_regain"]["spin"] == pytest.approx(p_made)
    inter = manoeuvre_odds(_scenario([driven("Car", (0, 0), _once("swerve"))], dice="interlock"),
                           "Car", "high-speed turn")  # DV 18 - 5 against 10 + 1d10
    assert 0.2 < inter["p_made"] < 1.0
    result = CliRunner().invoke(cli, ["manoeuvre", "scenarios/vehicles/car-chase-with-ramming.yaml",
                                      "--vehicle", "Cruiser 1", "--name", "hard turn"])
    assert result.exit_code == 0 and "made" in result.output and "skid" in result.output


# --- the kernel against the exact odds ----------------------------------------------------------


@pytest.mark.parametrize("cls, name", [("ground", "high-speed turn"), ("aircraft", "bootlegger")])
def test_loss_of_control_frequencies_match_exact(cls, name):
    sc = _scenario([driven("Car", (0, 0), _once(name), cls=cls, altitude=0 if cls == "ground"
                         else 4000)], spin_altitude_loss="none")  # fmt: skip
    n = 6000
    out = _outcomes(sc, n)
    odds = manoeuvre_odds(sc, "Car", name)
    lost = out.counters["lost_control"][:, 0]
    spins = out.counters["spins"][:, 0]
    assert lost.max() == 1  # one manoeuvre a fight
    p_lost = 1 - odds["p_made"]
    assert _share_agrees(lost.sum(), n, p_lost)
    assert _share_agrees(spins.sum(), n, odds["lost"]["spin"])
    # control: the other reading of the ground's overlap (literal), or a stall read as a spin
    other = odds["lost"]["skid" if cls == "ground" else "stall"]
    assert not _share_agrees(spins.sum(), n, other)


def test_ground_loss_literal_swaps_skid_and_spin():
    by_severity = _outcomes(_scenario([driven("Car", (0, 0), _once("high-speed turn"))]), 3000)
    literal = _outcomes(_scenario([driven("Car", (0, 0), _once("high-speed turn"))],
                                  ground_loss="literal"), 3000)  # fmt: skip
    assert (by_severity.counters["lost_control"] == literal.counters["lost_control"]).all()
    assert literal.counters["spins"].sum() > 3 * by_severity.counters["spins"].sum()


# --- speeds (VA-19) -----------------------------------------------------------------------------


def test_acceleration_ten_a_phase_or_any():
    # phase 1 speeds up; phase 2 tries an impossible stunt only at MOVE 40 exactly
    tactics = [{"when": "phase == 1", "do": "accelerate"},
               {"when": "phase == 2 and speed == 40", "do": "manoeuvre",
                "name": "impossible stunt"},
               {"do": "none"}]  # fmt: skip
    ten = _outcomes(_scenario([driven("Car", (0, 0), tactics, speed=30, move=50)]), 500)
    assert ten.counters["lost_control"][:, 0].mean() > 0.5  # 30 + 10: it tried
    anyway = _outcomes(_scenario([driven("Car", (0, 0), tactics, speed=30, move=50)],
                                 acceleration="none"), 500)  # fmt: skip
    assert anyway.counters["lost_control"].sum() == 0  # 30 -> 50 at once: no stunt at 40


# --- rams and crashes (VA-39, VA-40) ------------------------------------------------------------


def test_a_rear_ram_does_the_tables_dc_to_both():
    # MOVE 40 into MOVE 30 from behind: 8.3 m/s closing, column 1, the 1 ton row: 1K = 14 DC
    rammer = driven("Rammer", (0, 0), [{"when": "phase == 1", "do": "ram", "kind": "rear"},
                                     {"do": "none"}], speed=40, sdp=2000, ref=7, skill=6)
    sedan = driven("Sedan", (12, 0), [{"do": "none"}], speed=30, sdp=2000, ref=5, skill=3)
    sc = _scenario([rammer], [sedan])
    n = 4000
    out = _outcomes(sc, n)
    rams = out.counters["rams"][:, 0]
    roll = hero_roll(True)
    p_hit = float(roll.probs[7 + 6 + roll.values - 10 >= 5 + 3].sum())
    assert _share_agrees(rams.sum(), n, p_hit)
    answer = impact_answer(sc, "Sedan", speed=25 / 3)
    assert answer["dc"] == 14
    hit = rams == 1
    assert (out.counters["crashes"][hit, 0] == 1).all() and (out.counters["crashes"][hit, 2]
                                                             == 1).all()  # fmt: skip
    got = out.taken[hit, 2]  # the sedan (its driver is 1)
    support = np.array(sorted(int(k) for k in answer["damage"]["pmf"]))
    probs = np.array([answer["damage"]["pmf"][str(k)] for k in support])
    mean = float((support * probs).sum())
    se = np.sqrt(float(((support - mean) ** 2 * probs).sum()) / hit.sum())
    assert agrees(got.mean(), mean, se)
    assert not agrees(got.mean(), mean - 3.5, se)  # control: 13 DC
    # a missed ram loses control (ram_miss_control), or not
    assert (out.counters["lost_control"][~hit, 0] == 1).all()
    calm = _outcomes(_scenario([rammer], [sedan], ram_miss_control=False), 500)
    assert calm.counters["lost_control"].sum() == 0


def test_a_car_into_a_wall_crashes_at_its_speed():
    # MOVE 30 = 25 m/s: column 3 (up to 34 m/s), the 1 ton row: 3K = 16 DC; the wall takes it
    car = driven("Car", (0, 0), [{"do": "steer", "heading": 0}], speed=30, sdp=3000)
    wall = [{"name": "Wall", "at": [40, -5], "size": [1, 10], "weight": "+100 tons"}]
    sc = _scenario([car], obstacles=wall)
    out = _outcomes(sc, 3000)
    assert (out.counters["crashes"][:, 0] == 1).all()  # it stops at the wall: one crash
    answer = impact_answer(sc, "Car", speed=25)
    assert answer["dc"] == 16
    support = np.array(sorted(int(k) for k in answer["damage"]["pmf"]))
    probs = np.array([answer["damage"]["pmf"][str(k)] for k in support])
    mean = float((support * probs).sum())
    se = np.sqrt(float(((support - mean) ** 2 * probs).sum()) / 3000)
    got = out.taken[:, 0]
    assert agrees(got.mean(), mean, se) and not agrees(got.mean(), mean + 3.5, se)
    # the driver inside is thrown about: its own weight (200 lbs) at 25 m/s, 10 DC
    inside = impact_answer(sc, "Car driver", speed=25)
    assert inside["dc"] == 10
    support = np.array(sorted(int(k) for k in inside["damage"]["pmf"]))
    probs = np.array([inside["damage"]["pmf"][str(k)] for k in support])
    mean = float((support * probs).sum())
    se = np.sqrt(float(((support - mean) ** 2 * probs).sum()) / 3000)
    assert agrees(out.taken[:, 1].mean(), mean, se)
    assert not agrees(out.taken[:, 1].mean(), mean + 3.5, se)  # control: 11 DC
    hull = _outcomes(_scenario([car], obstacles=wall, collision_occupants="through_hull"), 300)
    assert hull.taken[:, 1].mean() > mean + 10  # what passed the car's PD 4: about 52
    spared = _outcomes(_scenario([car], obstacles=wall, collision_occupants="none"), 300)
    assert spared.taken[:, 1].sum() == 0


def test_an_aircraft_out_of_control_loses_altitude_and_crashes():
    # an impossible stunt (DV 26) at 100 m: a failed regain roll loses 2 x 50 m and it hits
    # the ground; with spin_altitude_loss: none it never does
    jet = driven("Jet", (0, 0), _once("impossible stunt"), cls="aircraft", altitude=100, move=50,
               speed=50, ref=4, skill=2)
    out = _outcomes(_scenario([jet], max_rounds=3), 1000)
    crashed = out.counters["crashes"][:, 0] == 1
    assert crashed.mean() > 0.5 and (out.counters["lost_control"][crashed, 0] == 1).all()
    assert out.out_slot[crashed, 0].min() > 0  # down: out of the fight
    level = _outcomes(_scenario([jet], max_rounds=3, spin_altitude_loss="none"), 300)
    assert level.counters["crashes"].sum() == 0


def test_a_walker_falls_over_and_gets_up():
    mech = driven("Mech", (0, 0), _once("impossible stunt"), cls="mecha", ref=3, skill=1)
    mech["vehicle"]["crew"][0]["skills"] = {"Piloting": 1}
    out = _outcomes(_scenario([mech]), 300)
    assert out.counters["lost_control"][:, 0].mean() > 0.9
    assert out.taken[:, 0].sum() == 0  # no damage (walker_fall_damage: false)
    hurt = _outcomes(_scenario([mech], walker_fall_damage=True), 300)
    assert hurt.taken[:, 0].mean() > 0


# --- the car chase ------------------------------------------------------------------------------


def test_the_car_chase_runs_and_replays():
    path = "scenarios/vehicles/car-chase-with-ramming.yaml"
    result = api.simulate(path, trials=2000, seed=3, threads=1)
    rows = {r["combatant"]: r for r in result.combatant_stats()}
    assert rows["Cruiser 1"]["rams_mean"] > 0 and rows["Getaway sedan"]["crashes_mean"] > 0
    lines = api.replay(path, trial=0)["lines"]
    assert any("drives" in line for line in lines)


# --- the other switches reach the fight -----------------------------------------------------


@pytest.mark.parametrize("rules", [{"manoeuvre_conditions": "very_rough"},
                                   {"manoeuvre_dv": "plus_roll", "dice": "interlock"}])
def test_manoeuvre_dv_and_conditions_move_the_odds(rules):
    sc = _scenario([driven("Car", (0, 0), _once("hard turn"))], **rules)
    plain = manoeuvre_odds(_scenario([driven("Car", (0, 0), _once("hard turn"))]), "Car",
                           "hard turn")  # fmt: skip
    odds = manoeuvre_odds(sc, "Car", "hard turn")
    assert odds["p_made"] < plain["p_made"] - 0.05
    n = 4000
    lost = _outcomes(sc, n).counters["lost_control"][:, 0].sum()
    assert _share_agrees(lost, n, 1 - odds["p_made"])
    assert not _share_agrees(lost, n, 1 - plain["p_made"])


def test_stall_dv_decides_the_regain():
    # REF 10 + Piloting 9 at an impossible stunt (DV 26): a 3d6 of 4 to 6 stalls (a miss of
    # 1 to 3), 3 spins; then regain rolls at stall_dv: 3 always regains, 40 never (the jet
    # loses 100 m a roll from 150 m and crashes)
    jet = driven("Jet", (0, 0), [{"when": "phase == 1", "do": "manoeuvre",
                                "name": "impossible stunt"}, {"do": "none"}],
               cls="aircraft", altitude=150, move=50, speed=50, ref=10, skill=9)
    for dv, crashed in ((3, 0), (40, 1)):
        out = _outcomes(_scenario([jet], max_rounds=2, criticals="none", stall_dv=dv), 2000)
        stalls = (out.counters["lost_control"][:, 0] == 1) & (out.counters["spins"][:, 0] == 0)
        assert stalls.sum() > 100
        assert (out.counters["crashes"][stalls, 0] == crashed).all()


def test_collision_obstacle_and_side_ram_switches():
    car = driven("Car", (0, 0), [{"do": "steer", "heading": 0}], speed=30, sdp=3000)
    flimsy = [{"name": "Fence", "at": [40, -5], "size": [1, 10], "sdp": 5, "weight": "50 lbs"}]
    same = _outcomes(_scenario([car], obstacles=flimsy), 300)
    kept = _outcomes(_scenario([car], obstacles=flimsy, collision_obstacle="none"), 300)
    assert (same.counters["broke"][:, 0] == 1).all() and kept.counters["broke"].sum() == 0
    # a side ram on a man: each takes the other's weight (the car the man's 200 lbs row), or
    # both the rammer's (side_ram: both_same)
    rammer = driven("Rammer", (0, 0), [{"when": "phase == 1", "do": "ram", "kind": "side"},
                                     {"do": "none"}], speed=30, sdp=3000, ref=9, skill=9)
    man = {"name": "Man", "stats": {"REF": 3, "DEX": 3, "BODY": 10}, "hits": 500, "stun": 500,
           "position": [20, 0], "tactics": [{"do": "none"}]}  # fmt: skip
    each = _outcomes(_scenario([rammer], [man]), 500)
    both = _outcomes(_scenario([rammer], [man], side_ram="both_same"), 500)
    hit_e, hit_b = each.counters["rams"][:, 0] == 1, both.counters["rams"][:, 0] == 1
    assert hit_e.mean() > 0.5 and hit_b.mean() > 0.5
    assert both.taken[hit_b, 0].mean() > each.taken[hit_e, 0].mean() + 20


def test_skid_rounding_under_ten_mph():
    # MOVE 4 is 8 mph: floor_min1 and ceil skid 1d6 m into the wall ahead; floor does not skid
    tactics = [{"when": "phase == 1", "do": "manoeuvre", "name": "impossible stunt",
                "toward": "away"}, {"do": "none"}]  # fmt: skip
    car = driven("Car", (0, 0), tactics, speed=4, move=10, ref=2, skill=0, sdp=3000)
    wall = [{"name": "Wall", "at": [0.5, -5], "size": [1, 10], "weight": "+100 tons"}]
    for rounding, crashes in (("floor_min1", 1), ("ceil", 1), ("floor", 0)):
        out = _outcomes(_scenario([car], obstacles=wall, skid_rounding=rounding,
                                  criticals="none"), 200)  # fmt: skip
        assert (out.counters["lost_control"][:, 0] == 1).all()
        assert (out.counters["crashes"][:, 0] == crashes).all(), rounding
