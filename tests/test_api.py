"""The Python API for notebooks: errors naming the choices, CLI-style strings, overrides,
docstrings, pmf keys, repr and the Jupyter view."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import fuzion_sim as fz
from fuzion_sim.analysis.balance import BalanceResult
from fuzion_sim.analysis.compare import Comparison
from fuzion_sim.analysis.metrics import Metric
from fuzion_sim.cli import cli
from fuzion_sim.errors import FuzionSimError, UnknownNameError
from fuzion_sim.scenario.variants import Base

ROOT = Path(__file__).resolve().parent.parent
DUEL = str(ROOT / "scenarios" / "marshal-vs-outlaw.yaml")
SQUAD = str(ROOT / "scenarios" / "squad-4v4.yaml")


@pytest.fixture(scope="module")
def duel():
    return fz.simulate(DUEL, trials=4_000, seed=3)


def test_unknown_names_list_the_valid_choices(duel):
    with pytest.raises(UnknownNameError, match=r"no side 'green'; sides are red, blue"):
        duel.win_probability("green")
    with pytest.raises(ValueError, match="sides are red, blue"):  # still a ValueError
        duel.win_interval("green")
    with pytest.raises(UnknownNameError, match="did you mean 'blue'"):
        duel.kill_time("bleu")
    with pytest.raises(UnknownNameError, match="time units are slot, phase, round, second"):
        duel.kill_time_pmf(unit="minute")
    with pytest.raises(UnknownNameError, match="combatants are Marshal, Outlaw"):
        duel.combatant_index("Sheriff")


def test_cli_style_strings_where_the_cli_takes_them():
    a = fz.compare(DUEL, vary=["rules.dice=hero,interlock"], trials=2_000)
    b = fz.compare(DUEL, vary={"rules.dice": ["hero", "interlock"]}, trials=2_000)
    c = fz.compare(DUEL, vary="rules.dice=hero,interlock", trials=2_000)
    assert a.labels == b.labels == c.labels == ["HERO", "Interlock"]
    assert a.differences[0]["win_probability"] == b.differences[0]["win_probability"]
    t1 = fz.sweep(DUEL, ["sides.blue[0].armor.pd=4:8:4"], trials=1_000, plots=False)
    t2 = fz.sweep(DUEL, {"sides.blue[0].armor.pd": "4:8:4"}, trials=1_000, plots=False)
    t3 = fz.sweep(DUEL, [("sides.blue[0].armor.pd", [4, 8])], trials=1_000, plots=False)
    assert list(t1["sides.blue[0].armor.pd"]) == [4, 8]
    assert t1["win_probability.red"].tolist() == t2["win_probability.red"].tolist()
    assert t1["win_probability.red"].tolist() == t3["win_probability.red"].tolist()
    with pytest.raises(FuzionSimError, match="KEY=VALUES"):
        fz.compare(DUEL, vary=["rules.dice"], trials=100)


def test_a_range_without_a_step_gets_the_hint():
    with pytest.raises(FuzionSimError, match=r"START:STOP:STEP.*e\.g\. '0:20:1'"):
        fz.sweep(DUEL, ["sides.blue[0].armor.pd=0:20"], trials=100, plots=False)
    res = CliRunner().invoke(cli, ["sweep", DUEL, "--grid", "sides.blue[0].armor.pd=0:20",
                                   "-o", "unused"])  # fmt: skip
    assert res.exit_code == 2 and "START:STOP:STEP" in res.output


def test_simulate_overrides_dict_pairs_and_text():
    base = json.loads(CliRunner().invoke(cli, ["run", DUEL, "--dice", "interlock", "--trials",
                                               "3000", "--json"]).output)  # fmt: skip
    for overrides in ({"rules.dice": "interlock"}, [("rules.dice", "interlock")],
                      ["rules.dice=interlock"]):  # fmt: skip
        r = fz.simulate(DUEL, trials=3_000, overrides=overrides)
        assert r.rules["dice"] == "interlock"
        assert r.win_probability("red") == base["sides"]["red"]["win_probability"]
    pd = fz.simulate(DUEL, trials=500, overrides={"sides.blue[0].armor.pd": 12})
    assert pd.provenance["scenario_hash"] != fz.simulate(DUEL, trials=500).provenance[
        "scenario_hash"
    ]
    with pytest.raises(fz.ScenarioError):
        fz.simulate(DUEL, trials=100, overrides={"rules.dice": "hexagon"})


def test_pmf_keys_are_one_type(duel):
    kt = duel.kill_time()
    pmf = duel.kill_time_pmf()
    assert list(kt["pmf"]) == pmf.index.tolist()
    assert all(type(k) is int for k in kt["pmf"]) and pmf.index.dtype.kind == "i"
    assert duel.kill_time_cdf()["time"].dtype.kind == "i"
    assert duel.kill_time_pmf(unit="second").index.dtype.kind == "i"
    assert duel.kill_time_pmf(unit="round").index.dtype.kind == "f"
    assert all(isinstance(k, str) for k in duel.to_json_dict()["kill_time"]["pmf"])


def test_repr_is_short_and_html_has_the_summary(duel):
    big = fz.simulate(SQUAD, trials=2_000)
    for r in (duel, big):
        text = repr(r)
        assert len(text) < 2_000 and "trials" in text and "%" in text
    assert re.search(r"red \d+\.\d% \(\d+\.\d-\d+\.\d%\)", repr(duel))
    html = duel._repr_html_()
    assert html.count("<table") == 2
    assert "probability (95% interval)" in html and "mean (95% interval)" in html
    assert '<img alt="Kill-time distribution' in html and "data:image/png;base64," in html
    cmp = fz.compare(SQUAD, ["rules.dice=hero,interlock"], trials=2_000)
    assert len(repr(cmp)) < 2_000 and "verdict" in repr(cmp)
    assert "<table" in cmp._repr_html_() and "<li>" in cmp._repr_html_()


def test_run_help_says_95_percent_once():
    text = CliRunner().invoke(cli, ["run", "--help"]).output
    assert "95%" in text and "95%%" not in text


def _public_methods(cls):
    for name, member in vars(cls).items():
        if name.startswith("_") or name in getattr(cls, "__dataclass_fields__", {}):
            continue
        if callable(member) or isinstance(member, property):
            yield name, member


@pytest.mark.parametrize("cls", [fz.Result, Comparison, BalanceResult, Base, Metric])
def test_every_public_method_has_a_numpy_docstring(cls):
    missing = []
    for name, member in _public_methods(cls):
        func = member.fget if isinstance(member, property) else member
        doc = inspect.getdoc(func) or ""
        if not doc:
            missing.append(f"{name}: no docstring")
            continue
        params = [p for p in inspect.signature(func).parameters if p != "self"]
        if params and not isinstance(member, property) and "Parameters\n----------" not in doc:
            missing.append(f"{name}: no Parameters section")
    assert not missing, missing


PUBLIC = [fz.simulate, fz.compare, fz.sweep, fz.balance, fz.build_report, fz.replay,
          fz.load_scenario]  # fmt: skip


@pytest.mark.parametrize("func", PUBLIC)
def test_public_functions_document_parameters_and_returns(func):
    doc = inspect.getdoc(func)
    assert "Parameters\n----------" in doc and "Returns\n-------" in doc
