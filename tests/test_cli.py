"""The command line: the JSON contract, readable output, and one clear line + status 2 for
every kind of bad input (never a traceback)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml
from builders import write_yaml
from click.testing import CliRunner
from conftest import SCENARIOS

from fuzion_sim.cli import cli

FLAGSHIP = str(SCENARIOS / "marshal-vs-outlaw.yaml")
TIMING_KEYS = {"elapsed_s", "trials_per_second", "threads", "backend"}


def invoke(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def run_json(*args):
    res = invoke("run", *args, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_run_json_contract():
    out = run_json(FLAGSHIP, "--trials", "5000", "--seed", "3")
    for key in ("scenario", "system", "version", "trials", "seed", "rules", "sides",
                "draw_probability", "unresolved_probability", "kill_time", "elapsed_s",
                "trials_per_second"):  # fmt: skip
        assert key in out
    assert out["trials"] == 5000 and out["seed"] == 3 and out["system"] == "fuzion"
    assert out["rules"]["dice"] == "hero" and out["rules"]["criticals"] == "both"
    assert set(out["rules"]) >= {"timing", "initiative", "impairment", "stunned"}
    assert set(out["sides"]) == {"red", "blue"}
    for side in out["sides"].values():
        lo, hi = side["ci95"]
        assert lo <= side["win_probability"] <= hi
    total = sum(s["win_probability"] for s in out["sides"].values())
    assert total + out["draw_probability"] + out["unresolved_probability"] == pytest.approx(1)
    kt = out["kill_time"]
    assert kt["unit"] == "phase"
    assert set(kt["quantiles"]) == {"0.05", "0.25", "0.5", "0.75", "0.95"}
    assert sum(kt["pmf"].values()) == pytest.approx(1)
    assert all(int(k) >= 1 for k in kt["pmf"])


def test_run_json_is_reproducible_and_thread_independent():
    a = run_json(FLAGSHIP, "--trials", "70000", "--threads", "1")
    b = run_json(FLAGSHIP, "--trials", "70000", "--threads", "2")
    for d in (a, b):
        for k in TIMING_KEYS:
            d.pop(k)
    assert a == b


def test_run_dice_override():
    out = run_json(FLAGSHIP, "--trials", "2000", "--dice", "interlock")
    assert out["rules"]["dice"] == "interlock"


def test_run_readable_table():
    res = invoke("run", FLAGSHIP, "--trials", "3000")
    assert res.exit_code == 0
    assert "Who wins" in res.stdout and "95% interval" in res.stdout and "median" in res.stdout


def test_attack_json():
    res = invoke("attack", "--av", "11", "--dv-base", "9", "--dc", "4", "--pd", "6", "--json")
    out = json.loads(res.stdout)
    assert out["p_hit"] == pytest.approx(0.837963, abs=1e-6)
    assert sum(out["damage"]["pmf"].values()) == pytest.approx(1)
    assert next(iter(out["damage"]["pmf"])) == "0"


def test_validate_and_catalog():
    assert "ok" in invoke("validate", FLAGSHIP).stdout
    # At 80 columns the names wrap at spaces (nothing is cut); wider, they fit on one line.
    narrow = invoke("catalog", "weapons").stdout
    assert "Magnum" in narrow and "Pistol" in narrow and "…" not in narrow
    wide = CliRunner(env={"COLUMNS": "140"}).invoke(cli, ["catalog", "weapons"]).stdout
    assert "Magnum Pistol" in wide
    armour = json.loads(invoke("catalog", "armor", "--json").stdout)["armor"]
    assert any(a["name"] == "Light Kevlar" for a in armour)


def flagship() -> dict:
    return yaml.safe_load(open(FLAGSHIP).read())


def _bad(mutate):
    data = flagship()
    mutate(data)
    return data


BAD_INPUTS = {
    "yaml syntax": ("name: [unclosed\n", "bad.yaml:"),
    "unknown key": (_bad(lambda d: d.update(trails=5)), "trails"),
    "wrong type": (_bad(lambda d: d.update(trials="many")), "trials"),
    "zero BODY": (_bad(lambda d: d["sides"]["red"][0]["stats"].update(BODY=0)), "BODY"),
    "empty side": (_bad(lambda d: d["sides"].update(blue=[])), "sides.blue"),
    "one side": (_bad(lambda d: d["sides"].pop("blue")), "sides"),
    "unknown weapon": (
        _bad(lambda d: d["sides"]["red"][0].update(weapon="Magnum Pistl")),
        "Magnum Pistol",
    ),
    "unknown armour": (_bad(lambda d: d["sides"]["red"][0].update(armor="Kevlr")), "Kevlar"),
    "unknown skill": (_bad(lambda d: d["sides"]["red"][0]["skills"].update(Handgunn=3)), "Handgun"),
    "unknown stat": (_bad(lambda d: d["sides"]["red"][0]["stats"].update(REFF=3)), "REF"),
    "unknown rule value": (_bad(lambda d: d["rules"].update(dice="hreo")), "hero"),
    "trials < 1": (_bad(lambda d: d.update(trials=0)), "trials"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_one_line_status_2(tmp_path, case):
    data, expected = BAD_INPUTS[case]
    res = CliRunner().invoke(cli, ["run", str(write_yaml(tmp_path, data))])
    assert res.exit_code == 2, (case, res.output)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("fuzion-sim: error: ")
    assert expected in lines[0]
    assert "Traceback" not in res.output


def test_missing_file_and_bad_option_exit_2(tmp_path):
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "nope.yaml")])
    assert res.exit_code == 2 and "nope.yaml" in res.stderr
    res = CliRunner().invoke(cli, ["run", FLAGSHIP, "--trials", "0"])
    assert res.exit_code == 2


def test_console_script_end_to_end(tmp_path):
    """The installed entry point, as a user runs it: status 2 and no traceback."""
    bad = str(write_yaml(tmp_path, BAD_INPUTS["unknown weapon"][0]))
    proc = subprocess.run(
        [sys.executable, "-m", "fuzion_sim.cli", "run", bad], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "did you mean 'Magnum Pistol'" in proc.stderr
    assert "Traceback" not in proc.stderr
