"""The ``fuzion-sim`` commands on the FUDGE scenarios, end to end (click's CliRunner): run,
attack, exact, validate, catalog --system fudge, replay, report --compare
rules.wounds=firearms,core, schema, the --wounds flag."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from fudge_helpers import ISSUE_EXAMPLE, ROOT, SCENARIOS

from fuzion_sim.cli import cli
from fuzion_sim.systems.fudge.tables import LEVELS

SHIPPED = sorted(SCENARIOS.glob("*.yaml"))


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_validate_and_run_every_scenario(path):
    res = invoke("validate", path)
    assert res.exit_code == 0, res.output
    assert "system fudge" in res.stdout and "runs on the" in res.stdout
    res = invoke("run", path, "--trials", 3000, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["system"] == "fudge" and out["trials"] == 3000
    assert out["kill_time"]["unit"] == "round"
    for key in ("wound_levels", "hits_by_location", "crippled_by_location", "breach"):
        assert key in out
    for name, row in out["combatants"].items():
        assert {"p_out", "p_dead", "crippled_mean", "attacks_mean"} <= set(row), name
    for levels in out["wound_levels"].values():
        assert set(levels) <= set(LEVELS)
    res = invoke("run", path, "--trials", 2000)
    assert res.exit_code == 0 and "Who wins" in res.stdout


def test_validate_mentions_the_exact_answer():
    assert "an exact answer is available" in invoke("validate", ISSUE_EXAMPLE).stdout
    assert "exact answer" not in invoke("validate", SCENARIOS / "breach.yaml").stdout


def test_attack_json_of_the_issue_example():
    res = invoke("attack", ISSUE_EXAMPLE, "--attacker", "Vaclav", "--target", "Alien", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["p_hit"] == pytest.approx(31 / 81)
    assert list(out["wounds"]) == list(LEVELS)
    assert sum(out["wounds"].values()) == pytest.approx(1)
    assert out["wounds"]["hurt"] == pytest.approx(31 / 81 * 65 / 81)
    pmf = {int(k): v for k, v in out["damage"]["pmf"].items()}
    assert sum(pmf.values()) == pytest.approx(1)
    assert out["damage"]["mean"] == pytest.approx(sum(d * p for d, p in pmf.items()))
    assert out["damage"]["mean"] == pytest.approx(31 / 81 * 4)  # E18: BD is the mean on a hit
    text = invoke("attack", ISSUE_EXAMPLE, "--attacker", "Vaclav", "--target", "Alien")
    assert text.exit_code == 0 and "Wounds" in text.stdout


def test_attack_bazooka_tank_and_breach():
    out = json.loads(invoke("attack", SCENARIOS / "bazooka.yaml", "--attacker", "Gunner",
                            "--target", "Tank", "--json").stdout)
    hit = out["p_hit"]
    assert out["wounds"]["dead"] == pytest.approx(hit / 81)  # E1
    assert out["wounds"]["near_death"] == pytest.approx(hit * 65 / 81)
    out = json.loads(invoke("attack", SCENARIOS / "breach.yaml", "--attacker", "Charge",
                            "--target", "Alien wall", "--json").stdout)
    assert out["breach"]["breached"] == pytest.approx(66 / 81 * 15 / 81)
    out = json.loads(invoke("attack", SCENARIOS / "dynamite.yaml", "--attacker", "Dynamite",
                            "--target", "At 10 m", "--json").stdout)
    assert out["damage"]["pmf"] == {"6": 1.0} and out["wounds"]["very_hurt"] == 1.0


BYSTANDERS = """
name: bystanders at 18 m
system: fudge
sides:
  sapper:
    - {name: Dynamite, charge: Dynamite stick}
  bystanders:
    - {name: Superb, distance: 18, damage_capacity: Superb}
    - {name: Fair, distance: 18}
"""


def test_a_charge_that_reaches_without_wounding_says_so(tmp_path):
    """At 18 m a dynamite stick's blast is 1 point (an eighth of 12, U4): it reaches a Superb
    bystander, whose Damage Capacity takes 2 off, without wounding him (``p_hit`` 1,
    ``p_wound`` 0); a Fair one is Scratched."""
    path = tmp_path / "bystanders.yaml"
    path.write_text(BYSTANDERS)
    args = ("attack", path, "--attacker", "Dynamite", "--target")
    superb = json.loads(invoke(*args, "Superb", "--json").stdout)
    assert superb["p_hit"] == 1.0 and superb["p_wound"] == 0.0
    assert superb["damage"]["pmf"] == {"0": 1.0} and superb["wounds"]["none"] == 1.0
    fair = json.loads(invoke(*args, "Fair", "--json").stdout)
    assert fair["p_hit"] == 1.0 and fair["p_wound"] == 1.0 and fair["wounds"]["scratch"] == 1.0
    assert "p wound = 0.000000" in invoke(*args, "Superb").stdout


def test_a_shot_that_hits_without_wounding_says_so(tmp_path):
    """A hit that armour cancels is a hit (``p_hit``) but no wound (``p_wound``)."""
    path = tmp_path / "armoured.yaml"
    path.write_text(ISSUE_EXAMPLE.read_text().replace(
        "    - name: Alien\n", "    - name: Alien\n      armour: {points: 20}\n"))
    out = json.loads(invoke("attack", path, "--attacker", "Vaclav", "--target", "Alien",
                            "--json").stdout)
    assert out["p_hit"] == pytest.approx(31 / 81) and out["p_wound"] == 0.0


@pytest.mark.parametrize(("args", "text"), [
    (("breach.yaml", "--attacker", "Alien wall", "--target", "Charge"), "is a barrier"),
    (("dynamite.yaml", "--attacker", "At 2 m", "--target", "Dynamite"), "is a charge"),
    (("breach.yaml", "--attacker", "Charge", "--target", "Sergeant"), "same side"),
    (("bazooka.yaml", "--attacker", "Tank", "--target", "Gunner"), "Tank has no weapon"),
    (("bazooka.yaml", "--attacker", "Gunner", "--target", "Tnak"), "did you mean"),
])  # fmt: skip
def test_attack_refusals_are_one_line(args, text):
    res = invoke("attack", SCENARIOS / args[0], *args[1:], "--json")
    assert res.exit_code == 2 and text in res.stderr and res.stderr.count("\n") == 1


def test_exact_command():
    res = invoke("exact", ISSUE_EXAMPLE, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["sides"]["vaclav"]["win_probability"] == pytest.approx(0.5795781, abs=1e-6)
    assert out["kill_time"]["unit"] == "round" and out["method"].startswith("Markov")
    assert "Who wins" in invoke("exact", ISSUE_EXAMPLE).stdout
    res = invoke("exact", SCENARIOS / "two-against-one.yaml")
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "one armed member against one" in res.stderr


def test_catalogues():
    for kind in ("weapons", "ladder", "locations"):
        res = invoke("catalog", kind, "--system", "fudge", "--json")
        assert res.exit_code == 0
        assert json.loads(res.stdout)[kind]
    assert "Bazooka" in invoke("catalog", "--system", "fudge").stdout
    res = invoke("catalog", "ladders", "--system", "fudge")
    assert res.exit_code == 2 and "did you mean 'ladder'" in res.stderr
    assert "fudge" in invoke("systems").stdout


def test_replay_text_and_json():
    res = invoke("replay", SCENARIOS / "vaclav-and-hubert.yaml", "--trial", 4)
    assert res.exit_code == 0 and "shoots" in res.stdout and "the fight ends" in res.stdout
    res = invoke("replay", SCENARIOS / "breach.yaml", "--trial", 1, "--json")
    out = json.loads(res.stdout)
    assert out["unit"] == "round" and out["events"][-1]["kind"] == "end"


def test_the_wounds_flag():
    core = json.loads(invoke("run", ISSUE_EXAMPLE, "--trials", 2000, "--wounds", "core",
                             "--json").stdout)
    assert core["rules"]["wounds"] == "core"
    res = invoke("run", ROOT / "scenarios" / "benchmark-duel.yaml", "--wounds", "core")
    assert res.exit_code == 2 and "--wounds is not an option of system fuzion" in res.stderr


def test_schema_command():
    res = invoke("schema", "--system", "fudge")
    assert json.loads(res.stdout) == json.loads((ROOT / "schemas" / "fudge.schema.json")
                                                .read_text())


def test_report_compares_the_two_wound_tracks(tmp_path):
    out = tmp_path / "report"
    res = invoke("report", ISSUE_EXAMPLE, "--compare", "rules.wounds=firearms,core",
                 "--trials", 4000, "-o", out)
    assert res.exit_code == 0, res.output
    page = (out / "index.md").read_text()
    assert "wounds=core" in page and "wounds=firearms" in page
    assert (out / "index.html").exists() and (out / "compare_win.png").exists()
