"""What the conformance battery asks of every rule system, asked of FUDGE: the interface's
methods, the switch table of the rulings with its defaults, the catalogues and the member
schema, key paths into catalogue items, determinism, the JSON contract of run and exact, the
attack contract (``wounds`` keyed by level), and NotAvailable answers in one line."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import yaml
from fudge_helpers import ISSUE_EXAMPLE, SCENARIOS, build, duel

from fuzion_sim import load_scenario, simulate
from fuzion_sim.api import exact_attack, exact_fight
from fuzion_sim.scenario.schema import scenario_schema
from fuzion_sim.systems import get_system
from fuzion_sim.systems.base import NotAvailable, OutcomeSchema, RuleSystem
from fuzion_sim.systems.fudge.tables import LEVELS

FUDGE = get_system("fudge")
SHIPPED = sorted(SCENARIOS.glob("*.yaml"))

#: rulings/fudge/rulings.md §12 (U3 and UA1-UA29): every switch and its default.
SWITCH_TABLE = {
    "wounds": "firearms", "order": "fixed", "tie_break": "random", "round_seconds": 3,
    "base_difficulty": 0, "modifiers_on": "difficulty", "ranged_defence": "none",
    "propelled_dodge_penalty": 2, "dodge_costs_action": False, "shot_roll": "separate",
    "shot_critical": "none", "zero_damage": "none", "armour_stops": False,
    "scale_beyond_table": "extrapolate", "armour_scale": "wearer",
    "firearms_dead_at": "capacity", "core_overflow": "up", "core_dead_damage": 0,
    "wound_penalties": True, "out_at": "incapacitated", "concussion_value": "ignore",
    "blast_scale": "none", "blast_armour": False, "tamped_concussion": "half",
    "blast_damage": "combined", "cover_near": "half_cr", "duck_penalty": 1,
    "partial_cover_penalty": 1, "frag_zones": "innermost", "breach_roll": "raw",
    "breach_scale": "raw", "contact_concussion": False, "hit_locations": "none",
    "aim_fallback": "torso", "location_multiplier_on": "total", "cripple_out": True,
    "action_timing": False, "fog": "none", "light": "day",
}  # fmt: skip


def test_every_switch_of_the_rulings_with_its_default():
    assert {k: s.default for k, s in FUDGE.switches.items()} == SWITCH_TABLE
    for key, spec in FUDGE.switches.items():
        assert spec.ruling.startswith(("U", "UA")) and spec.label, key
        if isinstance(spec.kind, tuple):  # the first word listed is the default
            assert spec.kind[0] == spec.default, key


def test_the_interface():
    assert isinstance(FUDGE, RuleSystem) and FUDGE.title
    sc = load_scenario(ISSUE_EXAMPLE)
    plan = FUDGE.compile(sc)
    schema = FUDGE.outcome_schema(plan)
    assert isinstance(schema, OutcomeSchema) and schema.time_unit == {
        "unit": "round", "seconds": 3.0, "per_round": 1}
    assert FUDGE.n_sides(plan) == 2 and FUDGE.n_combatants(plan) == 2
    assert FUDGE.max_slots(plan) == sc.max_rounds
    assert FUDGE.describe_plan(plan) == "runs on the duel kernel"
    assert "Vaclav" in FUDGE.describe_member(sc.combatants[0])
    slow = build({**duel({"round_seconds": 6})})
    assert FUDGE.outcome_schema(FUDGE.compile(slow)).seconds == 6.0
    import pickle

    assert pickle.loads(pickle.dumps(plan)).kernel == "duel"  # for the Dask backend


def test_catalogues_and_schema():
    for kind in FUDGE.catalogue_kinds:
        entries = FUDGE.catalogue(kind)
        assert entries and all(isinstance(e, dict) for e in entries)
        assert set(FUDGE.catalogue_columns[kind]) <= set(entries[0])
    with pytest.raises(NotAvailable):
        FUDGE.catalogue("armor")
    jsonschema.Draft202012Validator.check_schema(FUDGE.member_schema())
    assert FUDGE.catalogue_entry("weapon", "bazooka")["bd"] == 9
    assert FUDGE.catalogue_entry("skill", "x") is None


def test_key_paths_reach_into_catalogue_weapons():
    sc = load_scenario(SCENARIOS / "bazooka.yaml", overrides=[("sides.crew[0].weapon.bd", 12)])
    assert sc.combatants[0].weapon.bd == 12 and sc.combatants[0].weapon.scale == 11


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_same_seed_gives_the_same_run_and_another_seed_another(path):
    a = simulate(path, trials=5000, seed=1, progress=False).to_json_dict()
    b = simulate(path, trials=5000, seed=1, progress=False).to_json_dict()
    c = simulate(path, trials=5000, seed=2, progress=False).to_json_dict()
    for key in ("sides", "kill_time", "combatants", "wound_levels"):
        assert a[key] == b[key], key
    varied = [a[k] != c[k] for k in ("sides", "kill_time", "combatants", "wound_levels")]
    assert any(varied) or path.stem == "dynamite"  # the dynamite is certain


def test_the_run_json_contract():
    out = simulate(SCENARIOS / "vaclav-and-hubert.yaml", trials=4000,
                   progress=False).to_json_dict()  # fmt: skip
    json.dumps(out)
    assert out["system"] == "fudge"
    assert abs(sum(s["win_probability"] for s in out["sides"].values())
               + out["draw_probability"] + out["unresolved_probability"] - 1) < 1e-12
    for who, levels in out["wound_levels"].items():
        assert sum(levels.values()) == 4000, who
    assert set(out["hits_by_location"]) <= {"Vaclav", "Hubert", "Alien 1", "Alien 2"}
    row = out["combatants"]["Alien 1"]
    assert 0 <= row["crippled_mean"] <= row["p_out"] <= 1


def test_the_exact_and_attack_contracts():
    answer = exact_fight(ISSUE_EXAMPLE)
    assert set(answer) >= {"scenario", "system", "method", "sides", "draw_probability",
                           "unresolved_probability", "kill_time"}
    total = sum(s["win_probability"] for s in answer["sides"].values())
    assert abs(total + answer["draw_probability"] + answer["unresolved_probability"] - 1) < 1e-9
    assert abs(sum(float(p) for p in answer["kill_time"]["pmf"].values()) - 1) < 1e-9
    shot = exact_attack(ISSUE_EXAMPLE, "Alien", "Vaclav")
    assert list(shot["wounds"]) == list(LEVELS)
    assert set(shot["damage"]) == {"mean", "pmf"} and 0 < shot["p_hit"] < 1
    with pytest.raises(NotAvailable, match="one armed member against one"):
        FUDGE.exact_check(load_scenario(SCENARIOS / "grenade.yaml"))
    with pytest.raises(NotAvailable) as err:
        exact_fight(build(duel({"hit_locations": "random"})))
    assert "\n" not in str(err.value)


def test_timed_charges_follow_the_time_table():
    """UA29: a charge of avg_seconds goes off at the first round boundary after avg x the
    §8.531 factor; untimed (action_timing false) after exactly avg."""
    data = {"name": "t", "system": "fudge", "max_rounds": 30, "rules": {"action_timing": True},
            "sides": {"a": [{"name": "Bomb", "charge": "Dynamite stick", "avg_seconds": 12}],
                      "b": [{"name": "Man", "distance": 1}]}}  # fmt: skip
    res = simulate(build(data), trials=40_000, seed=3, keep_trials=True, progress=False)
    rounds = res.outcomes.end_slot  # the blast kills the man: the fight ends there
    # 12 s x (1/4, 1/3, 1/2, 1, 1, 1, 2, 3, 4) over 3 s rounds: boundary k = ceil(t / 3) + 1
    want = {2: 1, 3: 4 + 10, 5: 16 + 19 + 16, 9: 10, 13: 4, 17: 1}
    got = dict(zip(*np.unique(rounds, return_counts=True), strict=True))
    assert set(got) == set(want)
    from fudge_helpers import chi_square_p

    assert chi_square_p({int(k): int(v) for k, v in got.items()},
                        {k: v / 81 for k, v in want.items()}) > 1e-3
    data["rules"]["action_timing"] = False
    fixed = simulate(build(data), trials=100, keep_trials=True, progress=False)
    assert set(fixed.outcomes.end_slot) == {5}


def test_one_attack_repeated_agrees_with_exact():
    """The conformance battery's one-attack case (``fudge-one-attack.yaml`` in
    ``tests/systems/conformance/data``): the kernel's
    hit rate and damage per shot against ``attack`` within 4 SE, and a control off by 5
    points that must fail."""
    path = Path(__file__).resolve().parents[1] / "conformance" / "data" / "fudge-one-attack.yaml"
    sc = load_scenario(path)
    answer = exact_attack(sc, "Shooter", "Target")
    res = simulate(sc, progress=False)
    row = res.combatant_table().set_index("combatant").loc["Shooter"]
    attacks = row["attacks_mean"] * res.trials
    assert attacks == 50 * res.trials  # the target never falls
    p = answer["p_hit"]
    se = np.sqrt(p * (1 - p) / attacks)
    assert abs(row["hit_rate"] - p) <= 4 * se and abs(row["hit_rate"] - (p + 0.05)) > 4 * se
    pmf = {int(k): v for k, v in answer["damage"]["pmf"].items()}
    mean = answer["damage"]["mean"]
    sd = np.sqrt(sum(q * (d - mean) ** 2 for d, q in pmf.items()))
    assert abs(row["damage_dealt_mean"] / row["attacks_mean"] - mean) <= 4 * sd / np.sqrt(attacks)
    jsonschema.validate(yaml.safe_load(path.read_text()), scenario_schema(FUDGE))
