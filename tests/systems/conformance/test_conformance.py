"""One battery over every registered rule system, driven by its scenarios (``cases.py``), as
scipy.stats runs one battery over every distribution: loading, one line and exit 2 for bad
input, the JSON Schema, 1 vs 2 threads bit-identical, one attack in the kernel against the
exact ``attack`` within 4 SE, replay against the bulk run, the ``run --json`` contract, the
exact fight against the simulation where the system solves it, and the report."""

from __future__ import annotations

import json

import jsonschema
import numpy as np
import pytest
import yaml
from cases import CASES, ROOT, scenarios_of
from click.testing import CliRunner

from fuzion_sim import simulate
from fuzion_sim.analysis.reporting import build_report
from fuzion_sim.api import exact_attack, exact_fight, replay
from fuzion_sim.cli import cli
from fuzion_sim.scenario import load_scenario
from fuzion_sim.scenario.schema import scenario_schema
from fuzion_sim.systems import get_system, system_names
from fuzion_sim.systems.base import NotAvailable

SYSTEMS = sorted(CASES)
#: The timing fields of run --json (everything else is a function of scenario, seed, trials).
TIMING = ("elapsed_s", "trials_per_second", "threads", "backend")


def _run_json(path, *args) -> dict:
    res = CliRunner().invoke(cli, ["run", str(path), "--json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_every_registered_system_has_a_case():
    assert set(system_names()) == set(CASES)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_scenario_loads_and_validates(system):
    paths = scenarios_of(system)
    assert paths, f"{system} ships no scenarios"
    for path in paths:
        sc = load_scenario(path)
        assert sc.system == system
        res = CliRunner().invoke(cli, ["validate", str(path)])
        assert res.exit_code == 0 and ": ok: " in res.output, res.output


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_schema_is_current_and_holds_every_scenario(system):
    schema = scenario_schema(get_system(system))
    shipped = json.loads((ROOT / "schemas" / f"{system}.schema.json").read_text())
    assert shipped == schema, f"schemas/{system}.schema.json is stale: fuzion-sim schema --system"
    jsonschema.Draft202012Validator.check_schema(schema)
    check = jsonschema.Draft202012Validator(schema)
    wrong, right = CASES[system]["misspelt"]
    for path in scenarios_of(system):
        text = path.read_text()
        assert text.startswith("# yaml-language-server: $schema="), path
        data = yaml.safe_load(text)
        assert not list(check.iter_errors(data)), path
    data = yaml.safe_load(scenarios_of(system)[0].read_text())
    member = next(iter(data["sides"].values()))
    member = (member["members"] if isinstance(member, dict) else member)[0]
    member[wrong] = member.pop(right, 1)
    assert list(check.iter_errors(data)), "a misspelt key passes the schema"


@pytest.mark.parametrize("system", SYSTEMS)
def test_bad_input_is_one_line_and_exit_2(system, tmp_path):
    path = scenarios_of(system)[0]
    wrong, right = CASES[system]["misspelt"]
    text = path.read_text()
    data = yaml.safe_load(text)
    side = next(iter(data["sides"]))
    members = data["sides"][side]
    member = (members["members"] if isinstance(members, dict) else members)[0]
    member[wrong] = member.pop(right, 1)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, sort_keys=False))
    for command in ("validate", "run"):
        res = CliRunner().invoke(cli, [command, str(bad)])
        assert res.exit_code == 2, res.output
        lines = res.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("fuzion-sim: error: "), lines
        assert f"unknown key '{wrong}'" in lines[0] and "bad.yaml:" in lines[0]
        assert right in lines[0]  # did you mean


@pytest.mark.parametrize("system", SYSTEMS)
def test_one_or_two_threads_bit_identical(system):
    for path in scenarios_of(system)[:4]:
        one = _run_json(path, "--trials", "3000", "--seed", "3", "--threads", "1")
        two = _run_json(path, "--trials", "3000", "--seed", "3", "--threads", "2")
        for key in TIMING:
            one.pop(key), two.pop(key)
        assert one == two, path


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_json_contract(system):
    out = _run_json(scenarios_of(system)[0], "--trials", "2000")
    assert out["system"] == system and out["trials"] == 2000
    for key in ("trials_per_second", "draw_probability", "unresolved_probability", "kill_time",
                "sides", "combatants", "rules", "seed", "scenario_hash", "version"):
        assert key in out, key
    for side in out["sides"].values():
        assert set(side) >= {"win_probability", "ci95"}
    assert set(out["kill_time"]) >= {"unit", "mean", "se", "quantiles", "pmf"}
    for row in out["combatants"].values():
        assert set(row) >= {"p_out", "p_dead", "attacks_mean", "hit_rate", "damage_dealt_mean",
                            "damage_taken_mean"}  # fmt: skip
    total = sum(s["win_probability"] for s in out["sides"].values())
    assert total + out["draw_probability"] + out["unresolved_probability"] == pytest.approx(1)


@pytest.mark.parametrize("system", SYSTEMS)
def test_one_attack_in_the_kernel_agrees_with_exact(system):
    path, attacker, target = CASES[system]["one_attack"]
    sc = load_scenario(path)
    answer = exact_attack(sc, attacker, target)
    res = simulate(sc, progress=False)
    row = res.combatant_table().set_index("combatant").loc[attacker]
    attacks = row["attacks_mean"] * res.trials
    assert attacks > 10_000
    p = answer["p_hit"]
    assert abs(row["hit_rate"] - p) <= 4 * np.sqrt(p * (1 - p) / attacks)
    pmf = {int(k): v for k, v in answer["damage"]["pmf"].items()}
    mean = answer["damage"]["mean"]
    sd = np.sqrt(sum(q * (d - mean) ** 2 for d, q in pmf.items()))
    per_attack = row["damage_dealt_mean"] / row["attacks_mean"]
    assert abs(per_attack - mean) <= 4 * sd / np.sqrt(attacks)
    # the control that must fail: a hit chance off by 5 points is far outside 4 SE
    assert abs(row["hit_rate"] - (p + 0.05)) > 4 * np.sqrt(p * (1 - p) / attacks)


@pytest.mark.parametrize("system", SYSTEMS)
def test_replay_equals_the_bulk_run(system):
    for path in scenarios_of(system)[:5]:
        sc = load_scenario(path)
        bulk = simulate(sc, trials=300, seed=6, keep_trials=True, progress=False)
        for trial in (0, 137, 299):
            rep = replay(sc, trial, seed=6)
            w = int(bulk.outcomes.winner[trial])
            sides = sc.side_names
            assert rep["winner"] == (sides[w] if w >= 0 else ("draw" if w == -1 else
                                                             "unresolved"))  # fmt: skip
            assert rep["end_time"] == int(bulk.outcomes.end_slot[trial]), (path, trial)
            assert rep["lines"] and rep["events"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_exact_fights_agree_with_the_simulation(system):
    """Every shipped scenario the system solves exactly: ``run`` within 4 SE of ``exact``;
    for the others, one line saying why."""
    solved = 0
    for path in scenarios_of(system):
        sc = load_scenario(path)
        try:
            answer = exact_fight(sc)
        except NotAvailable as why:
            assert str(why) and "\n" not in str(why)
            continue
        solved += 1
        res = simulate(sc, trials=40_000, seed=8, progress=False)
        for side, row in answer["sides"].items():
            p = row["win_probability"]
            assert abs(res.win_probability(side) - p) <= 4 * np.sqrt(p * (1 - p) / res.trials)
        kt = res.kill_time()
        assert abs(kt["mean"] - answer["kill_time"]["mean"]) <= 4 * kt["se"]
    assert solved, f"no shipped {system} scenario is solved exactly"


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_report_renders(system, tmp_path):
    path = scenarios_of(system)[0]
    index = build_report(path, tmp_path / "rep", trials=2000)
    html = index.read_text()
    assert "<table" in html and "data:image/png;base64," in html
    md = (tmp_path / "rep" / "index.md").read_text()
    assert md.startswith("# ") and "## Who wins" in md
