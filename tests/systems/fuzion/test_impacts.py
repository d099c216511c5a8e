"""Falls and knockback into obstacles (../shared/rulings/vehicles/:
mechanics.md M-40, M-59 to M-62, M-72, rulings.md VA-35 to VA-38, VA-41, examples.md T-01, T-02):
the Falling & Collisions table against the seed's printed values (the tables check), the
weight rows and bands, loading and its errors, the exact ``impact`` answer, the general kernel
held to it (a fall's damage pmf and a knockback into a wall's, by chi-square, each with a
control that must fail), a wall that breaks, the switches, the dispatch, narration and results.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from builders import scenario
from click.testing import CliRunner
from oracles import agrees, chi2_p

from fuzion_sim.cli import cli
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import load_scenario
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import codes, dispatch
from fuzion_sim.systems.fuzion.features.scene.exact import impact_answer, impact_pmf
from fuzion_sim.systems.fuzion.tables import falling_table

SEED_TEXT = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "000_ddf787ccccac5f38.txt"
#: The ladder of T-01: row r, column c holds LADDER[r + c].
LADDER = ["1", "2", "4", "6", "8", "10", "12"] + [f"{k}K" for k in range(1, 22)]
ROOT = Path(__file__).resolve().parents[3]


# --- the table ------------------------------------------------------------------------------


def test_the_table_is_the_seeds_ladder_t01():
    t = falling_table()
    assert len(t.labels) == 18 and t.dc.shape == (18, 11) and t.kills.shape == (18, 11)
    for r in range(18):
        for c in range(11):
            assert t.printed[r][c] == LADDER[r + c], (r, c)
            x = LADDER[r + c]
            if x.endswith("K"):  # T-02: xK = 13 + x DC, x Kills
                assert (t.dc[r, c], t.kills[r, c]) == (13 + int(x[:-1]), int(x[:-1]))
            else:
                assert (t.dc[r, c], t.kills[r, c]) == (int(x), 0)
    assert t.labels[0] == "<50 lbs" and t.labels[-1] == "+100 tons"
    # scenarios.md scenario 4: the 200 lbs row runs from 6 DC (0-10 m) to 15 DC (terminal)
    assert t.dc[3, 0] == 6 and t.dc[3, 5] == 15


@pytest.mark.skipif(not SEED_TEXT.exists(), reason="the seed is not beside the project")
def test_the_table_is_the_seeds_printed_rows():
    lines = SEED_TEXT.read_text(encoding="utf-8").splitlines()
    t = falling_table()
    for label, printed in zip(t.labels, t.printed, strict=True):
        row = next(line for line in lines if line.startswith(label + " "))
        assert row.split()[-11:] == list(printed), label


def test_weight_rows_va36():
    t = falling_table()
    assert t.labels[t.weight_row(72)] == "200 lbs"  # a person (VA-36)
    assert t.labels[t.weight_row(72, "at_or_below")] == "100 lbs"
    assert t.weight_row(10) == 0 and t.weight_row(10, "at_or_below") == 0  # under 50 lbs
    assert t.labels[t.weight_row(1e6)] == "+100 tons"
    assert t.labels[t.weight_row(100 * 907.18474)] == "100 tons"
    # a tie by ratio goes to the heavier row: sqrt(100 * 200) lbs
    assert t.labels[t.weight_row(np.sqrt(100 * 200) * 0.45359237)] == "200 lbs"
    assert t.labels[t.weight_row(1.15 * 1000)] == "1 ton"  # a large car, 1,265 lbs... 2,535
    assert t.labels[t.weight_row(20_000)] == "20 tons"


def test_column_bands_va35_va38():
    t = falling_table()
    assert [t.height_column(h) for h in (0.5, 10, 10.5, 30, 31, 150, 151, 9999)] == [
        0, 0, 1, 1, 2, 4, 5, 5]  # fmt: skip
    assert [t.height_column(h, "eleven") for h in (151, 210, 552, 553)] == [5, 6, 9, 10]
    assert [t.speed_column(v) for v in (14, 14.1, 54, 104, 105)] == [0, 1, 4, 9, 10]
    mph = 0.44704
    assert [t.speed_column(v * mph, "mph10") for v in (10, 10.5, 100, 101)] == [0, 1, 9, 10]


# --- loading --------------------------------------------------------------------------------


def _person(name, position, **extra):
    return {"name": name, "stats": {"REF": 5, "DEX": 5, "CON": 5, "STR": 5, "BODY": 5},
            "position": list(position), **extra}  # fmt: skip


def _err(sides, match, **kw):
    with pytest.raises(ScenarioError, match=match) as info:
        scenario(sides, **kw)
    return info.value


def test_obstacles_and_drops_load():
    sc = scenario({"a": [_person("A", (0, 0), weight="85 kg")], "b": [_person("B", (3, 0))]},
                  obstacles=[{"name": "Wall", "at": [5, -5], "size": [1, 10], "sdp": 30,
                              "weight": "+100 tons"}],
                  drops=[{"name": "Ledge", "at": [0, 9], "height": 8}])  # fmt: skip
    wall = sc.scene["obstacles"][0]
    assert (wall.x, wall.y, wall.w, wall.h, wall.sdp, wall.kills) == (5, -5, 1, 10, 30, 0)
    assert wall.weight_kg > 200_000 * 0.45359237
    assert sc.scene["drops"][0].radius == 1.0 and sc.scene["drops"][0].height == 8
    assert sc.combatants[0].weight_kg == 85.0
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "general"
    rows = plan.arrays.im_row.tolist()
    assert [falling_table().labels[r] for r in rows] == ["200 lbs", "200 lbs"]


def test_loading_errors():
    sides = {"a": [_person("A", (0, 0))], "b": [_person("B", (3, 0))]}
    e = _err(sides, "unknown key 'szie'", obstacles=[{"name": "W", "at": [0, 0], "szie": [1, 1]}])
    assert e.suggestion == "size" and e.path == "obstacles[0].szie"
    _err(sides, "sdp .* or kills, not both",
         obstacles=[{"name": "W", "at": [0, 0], "size": [1, 1], "sdp": 3, "kills": 1}])
    _err(sides, "expected .x, y.", obstacles=[{"name": "W", "at": [0], "size": [1, 1]}])
    _err(sides, "missing key 'height'", drops=[{"name": "D", "at": [0, 0]}])
    _err(sides, "duplicate name 'D'", drops=[{"name": "D", "at": [0, 0], "height": 3},
                                              {"name": "D", "at": [1, 0], "height": 3}])
    jumper = {"a": [_person("A", (0, 0), tactics=[{"do": "jump", "drop": "Ledg"}])],
              "b": [_person("B", (3, 0))]}  # fmt: skip
    e = _err(jumper, "'Ledg' is not a drop", drops=[{"name": "Ledge", "at": [0, 0], "height": 3}])
    assert e.suggestion == "Ledge" and e.path == "sides.a[0].tactics[0].drop"
    _err(jumper, "no drops")
    nodrop = {"a": [_person("A", (0, 0), tactics=[{"do": "jump"}])], "b": [_person("B", (3, 0))]}
    _err(nodrop, "jump needs drop")
    wrong = {"a": [_person("A", (0, 0), tactics=[{"do": "attack", "drop": "X"}])],
             "b": [_person("B", (3, 0))]}  # fmt: skip
    _err(wrong, "'drop' does not apply")
    _err({"a": [_person("A", (0, 0), weight="72 kgs")], "b": [_person("B", (3, 0))]},
         "expected a weight")
    _err(sides, "unknown value|expected one of|as_fal", knockback_collision="as_fal")


def test_a_fight_without_obstacles_keeps_its_kernel_and_outputs():
    sc = scenario({"a": [_person("A", (0, 0))], "b": [_person("B", (3, 0))]}, max_rounds=3)
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel != "general"
    general = fuzion.compile_scenario(sc, kernel="general")
    out = fuzion.run_chunk(general, chunk_key(1, 0), 0, 10)
    assert "falls" not in out.counters
    assert dispatch.no_impacts(general.arrays)


# --- exact ----------------------------------------------------------------------------------


def test_exact_fall_anchor_scenario4():
    # the 200 lbs row at 11-30 m is 8 DC; its mean through PD 6 is 22 (scenarios.md, 4)
    pmf = impact_pmf(8, 0, codes.SCALE_PERSON, 6, 0, 10)
    assert sum(pmf.values()) == 1
    assert abs(float(sum(k * p for k, p in pmf.items())) - 22) < 0.01
    # a Kill-rated target: 2K is 2 Kills less its Kill armour; a plain 12 is nothing (T-02)
    assert impact_pmf(15, 2, codes.SCALE_KILLS, 0, 1, 0) == {1: Fraction(1)}
    assert impact_pmf(12, 0, codes.SCALE_KILLS, 0, 0, 0) == {0: Fraction(1)}
    # Stun against the higher of PD and SD (VA-37 impact_damage: stun)
    stun = impact_pmf(1, 0, codes.SCALE_PERSON, 0, 0, 3, stun=True)
    assert stun == {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}


def test_the_impact_command():
    path = ROOT / "scenarios" / "vehicles" / "rooftop-fall.yaml"
    res = CliRunner().invoke(cli, ["impact", str(path), "--target", "Burglar", "--fall", "15",
                                   "--json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert (got["row"], got["column"], got["dc"]) == ("200 lbs", 2, 8)
    assert abs(got["damage"]["mean"] - (28 - 2)) < 0.01
    res = CliRunner().invoke(cli, ["impact", str(path), "--target", "Burglar", "--speed", "50"])
    assert res.exit_code == 0 and "column 5" in res.output and "14 DC" in res.output
    res = CliRunner().invoke(cli, ["impact", str(path), "--target", "Nobody", "--fall", "3"])
    assert res.exit_code != 0 and "Burglar" in res.output
    res = CliRunner().invoke(cli, ["impact", str(path), "--target", "Burglar"])
    assert res.exit_code != 0 and "exactly one" in res.output


# --- the kernel against the exact answer ----------------------------------------------------


def _counts(values, support):
    return np.array([(values == v).sum() for v in support])


def _outcomes(sc, n=20_000, seed=7):
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "general"
    return fuzion.run_chunk(plan, chunk_key(seed, 0), 0, n)


def test_a_jump_matches_the_exact_fall_pmf():
    # one jump in the first phase from 15 m (200 lbs row, 11-30 m: 8 DC) through PD 6
    jumper = _person("Jumper", (0, 0), hits=1000, stun=1000, armor={"name": "Vest", "pd": 6},
                     tactics=[{"when": "phase == 1", "do": "jump", "drop": "Roof"},
                              {"do": "none"}])  # fmt: skip
    sc = scenario({"a": [jumper], "b": [_person("Idle", (30, 0), tactics=[{"do": "none"}])]},
                  drops=[{"name": "Roof", "at": [5, 0], "radius": 1, "height": 15}])
    out = _outcomes(sc)
    assert (out.counters["falls"][:, 0] == 1).all()
    got = out.counters["impact"][:, 0]
    answer = impact_answer(sc, "Jumper", fall=15)
    assert answer["dc"] == 8
    support = sorted(int(k) for k in answer["damage"]["pmf"])
    probs = np.array([answer["damage"]["pmf"][str(k)] for k in support])
    assert chi2_p(_counts(got, support), probs) > 1e-3
    se = np.sqrt(float(((np.array(support) - answer["damage"]["mean"]) ** 2 * probs).sum())
                 / got.size)  # fmt: skip
    assert agrees(got.mean(), answer["damage"]["mean"], se)
    # control: the pmf of 7 DC (a wrong column) must fail
    wrong = impact_pmf(7, 0, codes.SCALE_PERSON, 6, 0, 10)
    probs7 = np.array([float(wrong.get(k, 0)) for k in support])
    assert chi2_p(_counts(got, support), probs7 / probs7.sum()) < 1e-6
    assert not agrees(got.mean(), float(sum(k * p for k, p in wrong.items())), se)
    # the jumper lands below, at the drop
    assert out.counters["fell"][:, 0].all()


def _wall_fight(sdp=None, **rules):
    hero = {"name": "Hero", "stats": {"REF": 8, "DEX": 9, "CON": 10, "STR": 20, "BODY": 14},
            "skills": {"Hand to Hand": 6}, "weapon": "unarmed", "position": [0, 0],
            "hits": 1000, "stun": 1000,
            "tactics": [{"when": "phase == 1", "do": "punch"}, {"do": "none"}]}  # fmt: skip
    thug = _person("Thug", (2, 0), hits=10_000, stun=10_000, weapon="unarmed",
                   armor={"name": "Jacket", "pd": 4}, tactics=[{"do": "none"}])
    wall = {"name": "Wall", "at": [5, -5], "size": [0.5, 10]}
    if sdp is not None:
        wall["sdp"] = sdp
    rules = {"knockback": True, "impairment": False, "stunned": False, **rules}
    return scenario({"hero": [hero], "thugs": [thug]}, obstacles=[wall], **rules)


def test_a_knockback_into_a_wall_matches_the_exact_pmf():
    # STR 20 punch: 20 + 1d6 - BODY 5 = 16-21 m of knockback, always the 11-30 m column: 8 DC
    sc = _wall_fight()
    out = _outcomes(sc)
    colls = out.counters["collisions"][:, 1]
    # one punch, in the first phase: every one that lands knocks the thug into the wall
    assert colls.max() == 1 and (colls == out.counters["knock"][:, 1].clip(0, 1)).all()
    got = out.counters["impact"][colls == 1, 1]
    assert got.size > 15_000
    answer = impact_answer(sc, "Thug", knockback=18)
    assert (answer["dc"], answer["column"]) == (8, 2)
    support = sorted(int(k) for k in answer["damage"]["pmf"])
    probs = np.array([answer["damage"]["pmf"][str(k)] for k in support])
    p = chi2_p(_counts(got, support), probs)
    assert p > 1e-3
    se = np.sqrt(float(((np.array(support) - answer["damage"]["mean"]) ** 2 * probs).sum())
                 / got.size)  # fmt: skip
    assert agrees(got.mean(), answer["damage"]["mean"], se)
    # control: the 0-10 m column (6 DC) must fail
    wrong = impact_pmf(6, 0, codes.SCALE_PERSON, 4, 0, 10)
    probs6 = np.array([float(wrong.get(k, 0)) for k in support])
    assert chi2_p(_counts(got, support), probs6 / probs6.sum()) < 1e-6
    # every collision stops the thug at the wall's face: no obstacle broken (no sdp)
    assert (out.counters["broke"][:, 1] == 0).all()


def test_a_wall_that_breaks_lets_the_target_through():
    weak = _outcomes(_wall_fight(sdp=1), n=2000)
    assert (weak.counters["broke"][:, 1] == weak.counters["collisions"][:, 1].clip(0, 1)).all()
    strong = _outcomes(_wall_fight(sdp=1_000_000), n=2000)
    assert (strong.counters["broke"][:, 1] == 0).all()


def test_knockback_collision_none_and_speed():
    none = _outcomes(_wall_fight(knockback_collision="none"), n=2000)
    assert none.counters["collisions"][:, 1].sum() > 0
    assert (none.counters["impact"][:, 1] == 0).all()
    # speed: 16-21 m in a 3 s phase is 5.3-7 m/s, the first band: 6 DC for 200 lbs
    sc = _wall_fight(knockback_collision="speed")
    assert impact_answer(sc, "Thug", knockback=18)["dc"] == 6
    stun = _wall_fight(impact_damage="stun", impact_armour=False)
    assert impact_answer(stun, "Thug", knockback=18)["damage_type"] == "stun"


# --- narration, results, scenarios -----------------------------------------------------------


def test_the_replay_tells_the_collision_and_the_fall():
    sc = load_scenario(ROOT / "scenarios" / "vehicles" / "brick-through-a-wall.yaml")
    lines = []
    for trial in range(6):
        lines += fuzion.SYSTEM.replay(sc, fuzion.compile_scenario(sc), sc.seed, trial)["lines"]
    assert any("is knocked into the Brick wall" in line for line in lines)
    roof = load_scenario(ROOT / "scenarios" / "vehicles" / "rooftop-fall.yaml")
    lines = []
    for trial in range(6):
        lines += fuzion.SYSTEM.replay(roof, fuzion.compile_scenario(roof), roof.seed,
                                      trial)["lines"]  # fmt: skip
    assert any(re.search(r"falls 15 m: 8 DC", line) for line in lines)


def test_the_log_adds_up_to_the_bulk_run():
    # an attack's line has the strike's own damage; the collision and fall lines the rest,
    # which counts as dealt by the one who knocked (and taken)
    from fuzion_sim import simulate
    from fuzion_sim.api import replay

    for name in ("brick-through-a-wall.yaml", "rooftop-fall.yaml"):
        sc = load_scenario(ROOT / "scenarios" / "vehicles" / name)
        bulk = simulate(sc, trials=30, seed=4, keep_trials=True, threads=1)
        for trial in range(30):
            events = replay(sc, trial, seed=4)["events"]
            for i, c in enumerate(sc.combatants):
                mine = [e for e in events if e["kind"] == "attack" and e["actor"] == c.name]
                taken = sum(e["damage_through"] for e in events if e["kind"] == "attack"
                            and e.get("target") == c.name)  # fmt: skip
                taken += sum(e["damage_through"] for e in events
                             if e["kind"] in ("fall", "collision") and e["actor"] == c.name)
                assert taken == bulk.outcomes.taken[trial, i], (name, trial, c.name)
                if name.startswith("brick"):  # nobody jumps: all of it dealt by the knocker
                    other = sc.combatants[1 - i].name
                    dealt = sum(e["damage_through"] for e in mine) + sum(
                        e["damage_through"] for e in events
                        if e["kind"] in ("fall", "collision") and e["actor"] == other)
                    assert dealt == bulk.outcomes.dealt[trial, i]


def test_results_report_falls_and_collisions():
    from fuzion_sim import simulate

    sc = load_scenario(ROOT / "scenarios" / "vehicles" / "brick-through-a-wall.yaml")
    res = simulate(sc, trials=2000, seed=3, threads=1).to_json_dict()
    thug = json.dumps(res)
    for key in ("collisions_mean", "impact_damage_mean", "walls_broken_mean", "falls_mean"):
        assert key in thug
