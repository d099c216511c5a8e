"""Sensitivity: stat weights and Sobol indices; a parameter with no effect comes out at zero."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fuzion_sim.analysis.sensitivity import sensitivity
from fuzion_sim.cli import cli
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.scenario.variants import as_base

FLAGSHIP = "scenarios/marshal-vs-outlaw.yaml"
NO_EFFECT = "sides.red[0].skills.Fencing=0:5"  # a skill the Marshal's pistol never uses
ARMOUR = "sides.blue[0].armor.pd=4:12"


@pytest.fixture(scope="module")
def flagship():
    """The flagship with the Marshal's (unused) Fencing skill written out."""
    return as_base(FLAGSHIP).build([("sides.red[0].skills.Fencing", 2)])


def test_local_weights_no_effect_is_zero_within_its_interval(flagship):
    sens = sensitivity(flagship, [NO_EFFECT, ARMOUR], method="local", trials=4000, threads=2)
    rows = {r["param"]: r for r in sens.rows}
    none = rows["sides.red[0].skills.Fencing"]
    assert none["weight_low"] <= 0 <= none["weight_high"] and none["weight"] == 0
    # the control: the Outlaw's armour does change the fight (fewer wins for red)
    pd = rows["sides.blue[0].armor.pd"]
    assert pd["weight_high"] < 0
    assert (pd["at_low"], pd["at_high"]) == (7, 9)  # central difference around PD 8
    assert "no measurable effect" in sens.sentences()[-1]
    assert "Fencing" in sens._repr_html_()


def test_sobol_indices_no_effect_is_zero_and_an_effect_is_not(flagship):
    sens = sensitivity(flagship, [NO_EFFECT, ARMOUR, "sides.red[0].stats.REF=3:10"], n=16,
                       trials=500, n_resamples=200, threads=2)  # fmt: skip
    rows = {r["param"]: r for r in sens.rows}
    none = rows["sides.red[0].skills.Fencing"]
    for key in ("first_order", "total"):
        assert none[f"{key}_low"] <= 0 <= none[f"{key}_high"]
        assert none[key] == pytest.approx(0, abs=1e-12)
    assert rows["sides.red[0].stats.REF"]["total_low"] > 0
    assert sens.evaluations <= 16 * 5


def test_kill_time_weights_have_intervals(flagship):
    sens = sensitivity(flagship, [NO_EFFECT, ARMOUR], method="local", metric="kill_time_mean",
                       trials=3000, threads=2)  # fmt: skip
    rows = {r["param"]: r for r in sens.rows}
    assert rows["sides.red[0].skills.Fencing"]["weight"] == 0
    assert rows["sides.blue[0].armor.pd"]["weight_low"] > 0  # more armour, longer fights


@pytest.mark.parametrize(
    ("path", "param"),
    [
        ("scenarios/fudge/two-fair-shooters.yaml", "sides.vaclav[0].weapon.bd=2:6"),
        ("scenarios/colour/ken-against-bob.yaml", "sides.ken[0].weapon.damage=6:14"),
    ],
)
def test_local_weights_in_the_other_systems(path, param):
    sens = sensitivity(path, [param], method="local", trials=3000, threads=2)
    assert sens.rows[0]["weight_low"] > 0


def test_bad_parameters_fail_clearly(flagship):
    with pytest.raises(FuzionSimError, match="not a number"):
        sensitivity(FLAGSHIP, ["rules.dice=1:2"], method="local")
    with pytest.raises(FuzionSimError, match="KEY=LO:HI"):
        sensitivity(FLAGSHIP, ["sides.blue[0].armor.pd=4"])
    with pytest.raises(FuzionSimError, match="empty range"):
        sensitivity(FLAGSHIP, ["sides.blue[0].armor.pd=9:4"])
    with pytest.raises(FuzionSimError, match="power of 2"):
        sensitivity(flagship, [ARMOUR], n=12)


def test_cli_sensitivity_writes_a_tornado_and_fails_in_one_line(tmp_path, flagship):
    runner = CliRunner()
    out = tmp_path / "sens"
    ok = runner.invoke(cli, ["sensitivity", FLAGSHIP, "--vary", ARMOUR, "--vary",
                             "sides.red[0].stats.REF=3:10", "--local", "--trials", "2000",
                             "-o", str(out), "--json"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    answer = json.loads(ok.output.splitlines()[-1])
    assert answer["method"] == "local" and len(answer["rows"]) == 2
    for name in ("sensitivity.csv", "sensitivity.md", "tornado.png"):
        assert (out / name).is_file()
    bad = runner.invoke(cli, ["sensitivity", FLAGSHIP, "--vary", "rules.dice=1:2"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
