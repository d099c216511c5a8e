"""The analysis commands of the CLI: JSON contracts, rich output and one-line errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fuzion_sim.cli import cli

DUEL = "scenarios/marshal-vs-outlaw.yaml"


def _run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_run_precision_json():
    res = _run("run", DUEL, "--precision", "0.005", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["trials"] == 65536 and out["precision_reached"] and out["max_trials"] == 10_000_000
    for side in out["sides"].values():
        lo, hi = side["ci95"]
        assert (hi - lo) / 2 <= 0.005
    assert {"scenario", "kill_time", "combatants", "rules"} <= set(out)


def test_run_precision_cap_and_max_trials_alone():
    res = _run("run", DUEL, "--precision", "0.001", "--max-trials", "70000", "--json")
    out = json.loads(res.stdout)
    assert out["trials"] == 70000 and not out["precision_reached"]
    assert _run("run", DUEL, "--max-trials", "10").exit_code == 2


def test_compare_json_contract():
    res = _run("compare", DUEL, "--vary", "rules.dice=hero,interlock", "--trials", "4000", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert [v["values"] for v in out["variants"]] == [
        {"rules.dice": "hero"}, {"rules.dice": "interlock"}
    ]  # fmt: skip
    assert set(out["variants"][0]["sides"]) == {"red", "blue"}
    d = out["differences"][0]
    assert d["a"] == 0 and d["b"] == 1
    for key in ("kill_time_mean", "kill_time_median"):
        assert len(d[key]["ci95"]) == 2 and isinstance(d[key]["diff"], float)
    assert len(d["win_probability"]["red"]["ci95"]) == 2
    assert 0 < d["kill_time_test"]["p_value"] <= 1 and d["kill_time_test"]["name"]


def test_compare_table_output():
    res = _run("compare", DUEL, "--vary", "rules.dice=hero,interlock", "--trials", "4000")
    assert res.exit_code == 0 and "Verdict" in res.output and "Interlock" in res.output


def test_balance_json():
    res = _run("balance", DUEL, "--param", "sides.blue[0].armor.pd", "--side", "red",
               "--trials", "4000", "--range", "0:16", "--json")  # fmt: skip
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["param"] == "sides.blue[0].armor.pd" and out["side"] == "red"
    assert 0 <= out["value"] <= 16 and out["trials"] == 4000
    assert out["ci95"][0] <= out["win_probability"] <= out["ci95"][1]


def test_sweep_cli(tmp_path):
    res = _run("sweep", DUEL, "--grid", "sides.blue[0].armor.pd=4:12:4", "--trials", "2000",
               "-o", str(tmp_path))  # fmt: skip
    assert res.exit_code == 0, res.output
    text = (tmp_path / "results.csv").read_text().splitlines()
    assert text[0].startswith("sides.blue[0].armor.pd,win_probability.red,win_probability.blue,")
    assert [line.split(",")[0] for line in text[1:]] == ["4", "8", "12"]


def test_report_cli(tmp_path):
    res = _run("report", DUEL, "--trials", "2000", "-o", str(tmp_path / "r"))
    assert res.exit_code == 0, res.output
    assert (tmp_path / "r" / "index.html").exists() and (tmp_path / "r" / "index.md").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["compare", DUEL, "--vary", "rules.dice=hero,interlok", "--trials", "100"],
        ["compare", DUEL, "--vary", "sides.green[0].hits=1,2", "--trials", "100"],
        ["compare", DUEL, "--trials", "100"],
        ["sweep", DUEL, "--grid", "rules.dice=1:5:0", "-o", "unused"],
        ["sweep", DUEL, "-o", "unused"],
        ["balance", DUEL, "--param", "rules.dice"],
        ["balance", DUEL, "--param", "sides.blue[0].armor.pd", "--range", "5"],
        ["run", DUEL, "--precision", "2"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
