"""Throwing objects and lifting (M-73, M-74, VA-49; ``features/scene/throws.py``,
``throwing.yaml``).

The tables against the seed's lines, the lift (rules-sources 1.3), the Throw on worked
figures, the errors, every switch that changes a thrown object's numbers, the exact answer
(``fuzion-sim impact --thrown``) against the attack's and the kernel's damage per landed hit
against the exact pmf (a control pmf one DC short must be rejected).
"""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from builders import fight
from click.testing import CliRunner
from oracles import agrees, chi2_p

from fuzion_sim.cli import cli
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import load_scenario
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import codes
from fuzion_sim.systems.fuzion.features.scene.exact import impact_answer, impact_pmf
from fuzion_sim.systems.fuzion.features.scene.throws import (
    ThrowError,
    lift_kg,
    throw_figures,
    throw_lift_kg,
    throw_tables,
)
from fuzion_sim.systems.fuzion.model import Thrown
from fuzion_sim.systems.fuzion.oracle import scenario_attack

SEED_TEXT = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "000_ddf787ccccac5f38.txt"
ROOT = Path(__file__).resolve().parents[3]
SCENARIO = ROOT / "scenarios" / "vehicles" / "thrown-car.yaml"


# --- the tables -----------------------------------------------------------------------------


@pytest.mark.skipif(not SEED_TEXT.exists(), reason="the seed is not beside the project")
def test_the_tables_are_the_seeds_lines():
    lines = SEED_TEXT.read_text(encoding="utf-8").splitlines()
    start = lines.index("Throw Table")
    pairs = {}
    for line in lines[start + 1: start + 12]:  # L298-308: three columns of "value distance"
        for value, amount, unit in re.findall(r"(\.?[0-9]+)\s+([0-9,]+)(km|m)\*?", line):
            pairs[float(value)] = float(amount.replace(",", "")) * (1000 if unit == "km" else 1)
    t = throw_tables()
    assert dict(zip(t.values, t.metres, strict=True)) == pairs
    head = lines.index("Throw Modifier Table")
    rows = [line for line in lines[head + 2: head + 40] if line.strip()]
    assert len(rows) == len(t.kg) == 36
    for r, line in enumerate(rows):
        assert int(re.search(r"(-[0-9]+)\s*$", line).group(1)) == t.modifiers[r], line
        if r == 0:
            assert line.startswith("Less than 2 kg") and t.kg[0] == 0
            continue
        m = re.match(r"([0-9.]+)\s*(kg|tons|kt|mt)", line)
        scale = {"kg": 1, "tons": 1e3, "kt": 1e6, "mt": 1e9}[m.group(2)]
        assert float(m.group(1)) * scale == t.kg[r], line
        assert line.startswith(t.printed[r]), line
        if t.examples[r]:
            assert t.examples[r] in line, line


def test_the_tables_shape():
    t = throw_tables()
    assert t.values[:3] == (0.5, 1.0, 2.0) and t.values[-1] == 32 and len(t.values) == 33
    assert t.metres[:12] == (2, 6, 14, 24, 36, 50, 66, 84, 104, 125, 150, 240)
    assert t.modifiers == tuple(-i for i in range(36))
    assert (t.examples[9], t.kg[9]) == ("Small Car", 575)
    assert (t.examples[14], t.modifiers[14]) == ("Battle Tank, Whale", -14)
    assert (t.examples[35], t.modifiers[35]) == ("Mount Everest", -35)
    # between rows (never met: a Throw is whole), the row at or below; below .5 none
    assert t.distance(4.5) == 36 and t.distance(0.5) == 2 and t.distance(0.4) is None
    assert t.distance(0) is None
    with pytest.raises(ThrowError, match="beyond the Throw Table"):
        t.distance(33)


def test_the_lift_rules_sources_1_3():
    # 25 kg x 2^STR (not from the seed): STR 1 = 50 kg ... STR 10 = 25.6 t
    assert [lift_kg(s) for s in (1, 2, 5, 6, 10)] == [50, 100, 800, 1600, 25_600]
    assert throw_lift_kg(10) == 6400 and throw_lift_kg(4) == 100  # a quarter (M-74, L283)


# --- the Throw, its range and its damage ----------------------------------------------------

#: (STR, kg, aerodynamic, balanced, rules) -> (modifier, Throw, metres, row, column, dc, kills)
CASES = [
    # a 900 kg car by STR 10: nearest ratio 1.15 t (-10), 36 m, 12 m/s: the 1 ton row, 1K
    ((10, 900, False, False, {}), (-10, 4, 36, "1 ton", 1, 14, 1)),
    # the same, the heaviest row not above it (575 kg, -9; the 1600 lbs falling row)
    ((10, 900, False, False, {"weight_row": "at_or_below"}), (-9, 5, 50, "1600 lbs", 2, 14, 1)),
    # the same on VA-38's mph bands: 12 m/s is 26.8 mph, the 21-30 mph column: 3K
    ((10, 900, False, False, {"collision_speed_bands": "mph10"}),
     (-10, 4, 36, "1 ton", 3, 16, 3)),
    # a 2 kg brick by STR 5: -1, Throw 8, 104 m, 34.7 m/s: the <50 lbs row's 4th column, 6 DC
    ((5, 2, False, False, {}), (-1, 8, 104, "<50 lbs", 4, 6, 0)),
    # a baseball (-0), aerodynamic and balanced, STR 5: Throw 11, 240 m, 80 m/s: 1K
    ((5, 0.15, True, True, {}), (0, 11, 240, "<50 lbs", 8, 14, 1)),
    # T-04: a small car (575 kg) is the 1600 lbs falling row; by STR 8: Throw 3, 24 m
    ((8, 575, False, False, {}), (-9, 3, 24, "1600 lbs", 1, 12, 0)),
    # T-04: a battle tank (20 t) is the 20 tons row; STR 20: Throw 10, 150 m, 50 m/s: 11K
    ((20, 20_000, False, False, {}), (-14, 10, 150, "20 tons", 5, 24, 11)),
]


@pytest.mark.parametrize(("given", "want"), CASES)
def test_throw_figures(given, want):
    strength, kg, aero, bal, rules = given
    fig = throw_figures(strength, Thrown(kg, aero, bal), rules)
    got = (fig["modifier"], fig["throw"], fig["metres"], fig["row"], fig["column"], fig["dc"],
           fig["kills"])  # fmt: skip
    assert got == want
    assert fig["m_s"] == pytest.approx(fig["metres"] / 3.0)


def test_the_quarter_lift_binds_before_the_throw_falls_below_half():
    # under 25 kg x 2^STR / 4 the heaviest object a thrower may lift still has a Throw >= 1:
    # "you can just throw an object of about a quarter of your lift" (rules-sources 1.3)
    for strength in range(0, 33):
        for mode in ("nearest_ratio", "at_or_below"):
            fig = throw_figures(strength, Thrown(throw_lift_kg(strength)), {"weight_row": mode})
            assert fig["throw"] >= 1, (strength, mode)
    with pytest.raises(ThrowError, match="beyond the Weight Modifier table"):
        throw_figures(40, Thrown(1e11), {})


def _thrower(strength=10, thrown=None, **weapon):
    w = {"name": "Car", "skill": "Thrown", "thrown": thrown or {"weight": "900 kg"}, **weapon}
    return {"name": "Hammer", "stats": {"REF": 6, "DEX": 6, "STR": strength, "BODY": 10},
            "skills": {"Thrown": 6}, "weapon": w, "position": [0, 0]}  # fmt: skip


def _target(**extra):
    return {"name": "Gunman", "stats": {"REF": 5, "DEX": 3, "BODY": 5}, "position": [10, 0],
            **extra}  # fmt: skip


_scenario = partial(fight, sides=("a", "b"), defaults=(_thrower(), _target()))


def _weapon(sc, name="Hammer"):
    return next(c for c in sc.combatants if c.name == name).weapon


def test_a_thrown_object_is_a_ranged_weapon_of_the_tables():
    w = _weapon(_scenario())
    assert (w.kind, w.dc, w.kills, w.range, w.shots, w.damage) == ("ranged", 14, 1, 36, 1,
                                                                   "killing")
    plan = fuzion.compile_scenario(_scenario())
    assert plan.kernel == "general"
    assert int(plan.arrays.w_reload[0]) == 0  # each object thrown once: nothing to reload
    brick = _weapon(_scenario(_thrower(5, {"weight": 2}, shots=4)))
    assert (brick.dc, brick.kills, brick.range, brick.shots) == (6, 0, 104, 4)


def test_every_switch_changes_the_numbers():
    base = _weapon(_scenario())
    assert (base.dc, base.kills, base.range, base.damage) == (14, 1, 36, "killing")
    row = _weapon(_scenario(weight_row="at_or_below"))
    assert (row.dc, row.range) == (14, 50)  # -9, Throw 5: 50 m
    mph = _weapon(_scenario(collision_speed_bands="mph10"))
    assert (mph.dc, mph.kills, mph.range) == (16, 3, 36)
    stun = _weapon(_scenario(impact_damage="stun"))
    assert (stun.dc, stun.damage) == (14, "stun")
    with pytest.raises(ScenarioError, match="thrown_damage is none: throwing is not modelled"):
        _scenario(thrown_damage="none")
    with pytest.raises(ScenarioError, match="impact_armour: false is not built for a thrown"):
        _scenario(impact_armour=False)
    assert _weapon(_scenario(_thrower(thrown={"weight": 900, "aerodynamic": True}))).range == 50
    both = _weapon(_scenario(_thrower(thrown={"weight": 900, "aerodynamic": True,
                                              "balanced": True})))  # fmt: skip
    assert (both.range, both.dc) == (66, 13 + 2)  # Throw 6: 66 m, 22 m/s: the 1 ton row's 2K


@pytest.mark.parametrize(("thrower", "match", "where"), [
    (_thrower(5), r"Hammer cannot throw Car \(900 kg\): STR 5 cannot lift 900 kg to throw it: "
                  r"the deadlift is 800 kg .* a quarter of it, 200 kg \(M-74\)",
     "sides.a[0].weapon.thrown"),
    (_thrower(dc=4), "a thrown object .* takes no 'dc': the damage comes from the Falling",
     "sides.a[0].weapon.dc"),
    (_thrower(kills=2), "takes no 'kills'", "sides.a[0].weapon.kills"),
    (_thrower(range=40), "takes no 'range': the range is the Throw Table", "weapon.range"),
    (_thrower(autofire=True), "takes no 'autofire'", "weapon.autofire"),
    (_thrower(thrown={"weight": 900, "push": 2}), "pushing is the thrower's, not the object's",
     "weapon.thrown.push"),
    (_thrower(thrown={"weight": 900, "aerodinamic": True}), "unknown key", "thrown.aerodinamic"),
    (_thrower(thrown={"aerodynamic": True}), "missing key 'weight'", "weapon.thrown"),
    (_thrower(thrown={"weight": "900 kgs"}), "expected a weight", "thrown.weight"),
    (_thrower(thrown=[900]), "expected a mapping", "weapon.thrown"),
])  # fmt: skip
def test_loading_errors(thrower, match, where):
    with pytest.raises(ScenarioError, match=match) as info:
        _scenario(thrower)
    assert where in str(info.value)


def test_did_you_mean_and_exit_status(tmp_path):
    path = tmp_path / "bad.yaml"
    text = SCENARIO.read_text().replace("thrown: {weight: 900 kg}",
                                        "thrown: {weight: 900 kg, balancd: true}")
    assert text != SCENARIO.read_text()
    path.write_text(text)
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 2
    assert "bad.yaml:" in res.output and "thrown.balancd" in res.output
    assert "balanced" in res.output  # did you mean


# --- the exact answer -----------------------------------------------------------------------


def test_the_impact_command_answers_a_thrown_object():
    res = CliRunner().invoke(cli, ["impact", str(SCENARIO), "--target", "Gunman", "--thrown",
                                   "Hammer", "--json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    answer = json.loads(res.stdout)
    assert (answer["what"], answer["row"], answer["column"], answer["dc"]) == ("thrown", "1 ton",
                                                                              1, 14)
    sc = load_scenario(SCENARIO)
    plan = fuzion.compile_scenario(sc).arrays
    g = [c.name for c in sc.combatants].index("Gunman")
    want = impact_pmf(14, 1, codes.SCALE_PERSON, int(plan.a_pd[g]), 0, int(plan.sd[g]))
    assert answer["damage"]["mean"] == pytest.approx(float(sum(k * p for k, p in want.items())))
    # the attack's exact pmf, given a hit, is the collision's
    att = scenario_attack(sc, "Hammer", "Gunman")
    assert att["damage"]["mean"] / att["p_hit"] == pytest.approx(answer["damage"]["mean"])
    res = CliRunner().invoke(cli, ["impact", str(SCENARIO), "--target", "Hammer", "--thrown",
                                   "Gunman"])  # fmt: skip
    assert res.exit_code != 0 and "not a thrown object" in res.output
    res = CliRunner().invoke(cli, ["impact", str(SCENARIO), "--target", "Gunman", "--thrown",
                                   "Hammer", "--speed", "3"])  # fmt: skip
    assert res.exit_code != 0 and "exactly one" in res.output


def test_the_kernel_matches_the_exact_pmf_of_a_landed_throw():
    # one 900 kg car (14 DC Killing) at a target with PD 6 and Hits to spare, fixed seed
    target = _target(hits=1000, stun=1000, armor={"name": "Vest", "pd": 6},
                     tactics=[{"do": "none"}])  # fmt: skip
    sc = _scenario(None, target)
    plan = fuzion.compile_scenario(sc)
    out = fuzion.run_chunk(plan, chunk_key(11, 0), 0, 6000)
    assert (out.attacks[:, 0] == 1).all()  # one object, thrown once
    landed = out.landed[:, 0] == 1
    got = out.dealt[landed, 0]
    assert got.size > 3000
    answer = impact_answer(sc, "Gunman", thrown="Hammer")
    support = sorted(int(k) for k in answer["damage"]["pmf"])
    probs = np.array([answer["damage"]["pmf"][str(k)] for k in support])
    counts = np.array([(got == v).sum() for v in support])
    assert counts.sum() == got.size
    mean = answer["damage"]["mean"]
    se = np.sqrt(float(((np.array(support) - mean) ** 2 * probs).sum()) / got.size)
    z = (got.mean() - mean) / se
    p = chi2_p(counts, probs)
    assert agrees(got.mean(), mean, se) and p > 1e-3, (z, p)
    # control: 13 DC (one fewer die) must be rejected
    wrong = impact_pmf(13, 0, codes.SCALE_PERSON, 6, 0, 10)
    probs13 = np.array([float(wrong.get(k, 0)) for k in support])
    wrong_mean = float(sum(k * q for k, q in wrong.items()))
    assert chi2_p(counts, probs13 / probs13.sum()) < 1e-6
    assert not agrees(got.mean(), wrong_mean, se)
    print(f"kernel vs exact: n={got.size} z={z:+.2f} p={p:.3f}; "
          f"control z={(got.mean() - wrong_mean) / se:+.1f}")


def test_a_kill_rated_target_takes_the_kills():
    # xK against a Kill-rated target: x Kills less its Kill armour (VA-37), as a collision
    target = _target(kills=30, tactics=[{"do": "none"}],
                     armor={"name": "Plate", "pd": 0, "kills": 1})  # fmt: skip
    sc = _scenario(None, target, collision_speed_bands="mph10")  # 3K
    answer = impact_answer(sc, "Gunman", thrown="Hammer")
    assert answer["damage"]["pmf"] == {"2": 1.0}
    out = fuzion.run_chunk(fuzion.compile_scenario(sc), chunk_key(3, 0), 0, 500)
    landed = out.landed[:, 0] == 1
    assert landed.any() and (out.dealt[landed, 0] == 2).all()


def test_the_scenario_runs():
    sc = load_scenario(SCENARIO)
    w = _weapon(sc)
    assert (w.dc, w.kills, w.range, w.shots) == (14, 1, 36, 3)
    res = CliRunner().invoke(cli, ["validate", str(SCENARIO)])
    assert res.exit_code == 0 and "Throw STR 10 + 4 -10 (1.15 tons) = 4: 36 m" in res.output


def test_a_vehicle_throwing_is_not_built_yet(tmp_path):
    robot = (ROOT / "scenarios" / "vehicles" / "giant-robot-duel.yaml").read_text()
    cannon = "- {name: Beam cannon, skill: Gunnery, "
    text = robot.replace(cannon + "kills: 6, range: 800, energy: true,",
                         cannon + "thrown: {weight: 5 t},")  # fmt: skip
    assert text != robot
    path = tmp_path / "robot.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError, match="throwing an object is not built yet") as info:
        load_scenario(path)
    assert "vehicle.weapons[0].thrown" in str(info.value)
