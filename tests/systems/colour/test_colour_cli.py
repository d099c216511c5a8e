"""The command line on colour scenarios, end to end (click's CliRunner): run, attack, exact,
validate, catalog, schema, replay, compare and report."""

from __future__ import annotations

import json

import yaml
from click.testing import CliRunner
from colour_cases import SCENARIOS, duel, member

from fuzion_sim.cli import cli

KEN_BOB = str(SCENARIOS / "ken-against-bob.yaml")
BOB_RA = str(SCENARIOS / "bob-ra.yaml")


def invoke(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_run_json_reports_what_a_designer_reads():
    res = invoke("run", KEN_BOB, "--trials", "5000", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["system"] == "colour"
    assert set(out["sides"]) == {"ken", "bob"}
    assert out["kill_time"]["unit"] == "round"
    ken = out["combatants"]["Ken"]
    for key in ("p_out", "p_dead", "damage_dealt_mean", "damage_taken_mean", "attacks_mean",
                "hit_rate", "unconscious_mean", "dying_mean", "limbs_broken_mean",
                "limbs_severed_mean"):  # fmt: skip
        assert key in ken, key
    assert set(out["attack_colours"]["Ken"]) <= {"blue", "white", "green", "yellow", "red",
                                                 "super_crit"}  # fmt: skip
    assert "endurance_rolls" in out
    assert out["rules"]["soak"] == "graded" and out["rules"]["ladder"] == "seed004"


def test_run_text_and_switch_flags():
    res = invoke("run", KEN_BOB, "--trials", "2000", "--soak", "literal", "--ladder", "standard")
    assert res.exit_code == 0, res.output
    assert "Who wins" in res.stdout and "attack rolls" in res.stdout


def test_attack_json_keys():
    res = invoke("attack", KEN_BOB, "--attacker", "Ken", "--target", "Bob", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert {"p_hit", "colours", "damage"} <= set(out)
    assert list(out["colours"]) == ["blue", "white", "green", "yellow", "red", "super_crit"]
    assert set(out["damage"]) == {"mean", "pmf"}
    assert abs(sum(out["damage"]["pmf"].values()) - 1) < 1e-9
    assert abs(out["damage"]["pmf"]["10"] - 0.01896) < 1e-9
    text = invoke("attack", KEN_BOB, "--attacker", "Bob", "--target", "Ken")
    assert text.exit_code == 0 and "p hit" in text.stdout


def test_exact_and_its_refusal(tmp_path):
    res = invoke("exact", KEN_BOB, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["kill_time"]["unit"] == "round"
    assert abs(sum(s["win_probability"] for s in out["sides"].values())
               + out["unresolved_probability"] - 1) < 1e-9  # fmt: skip
    family = CliRunner().invoke(cli, ["exact", str(SCENARIOS / "bobs-family.yaml")])
    assert family.exit_code == 2
    assert len(family.output.strip().splitlines()) == 1
    assert "one against one" in family.output


def test_validate_names_the_kernel_and_the_exact_answer():
    res = invoke("validate", KEN_BOB)
    assert res.exit_code == 0
    assert "runs on the duel kernel" in res.stdout and "fuzion-sim exact" in res.stdout
    res = invoke("validate", str(SCENARIOS / "grapple.yaml"))
    assert "runs on the general kernel" in res.stdout


def test_catalog_and_schema():
    for kind in ("weapons", "armor", "shields"):
        res = invoke("catalog", kind, "--system", "colour", "--json")
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)[kind]
    res = CliRunner().invoke(cli, ["catalog", "skills", "--system", "colour"])
    assert res.exit_code == 2 and "weapons, armor, shields" in res.output
    schema = json.loads(invoke("schema", "--system", "colour").stdout)
    assert "soak" in schema["properties"]["rules"]["properties"]


def test_bad_input_exits_2_on_one_line(tmp_path):
    data = duel(member("A", weapon="Crowbr"), member("B"))
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    res = CliRunner().invoke(cli, ["run", str(path)])
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1
    assert "did you mean 'Crowbar'" in res.output


def test_replay_matches_and_reads():
    res = invoke("replay", KEN_BOB, "--trial", "5")
    assert res.exit_code == 0
    assert "rolls" in res.stdout and "the fight ends after round" in res.stdout
    data = json.loads(invoke("replay", KEN_BOB, "--trial", "5", "--json").stdout)
    assert data["unit"] == "round" and data["events"][-1]["kind"] == "end"


def test_compare_soak_readings_and_report(tmp_path):
    res = invoke("compare", BOB_RA, "--vary", "rules.soak=graded,literal", "--trials", "3000",
                 "--json")  # fmt: skip
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert len(out["variants"]) == 2
    wins = [v["sides"]["ken"]["win_probability"] for v in out["variants"]]
    assert wins[0] != wins[1]  # Bob-Ra soaks: the reading matters
    rep = invoke("report", BOB_RA, "-o", str(tmp_path / "rep"), "--trials", "2000",
                 "--compare", "rules.soak=graded,literal")  # fmt: skip
    assert rep.exit_code == 0, rep.output
    text = (tmp_path / "rep" / "index.md").read_text()
    assert "soak=literal" in text and "rounds" in text
    assert (tmp_path / "rep" / "index.html").exists()
