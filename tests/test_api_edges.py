"""Every public function and method of the Python API checks its arguments: a bad one raises
the project's ``ArgumentError`` (a ``ValueError`` too) whose message starts with the
argument's name, before any work; never a deep ``TypeError``, a math domain error, a
``FileNotFoundError`` from a library, or a silent answer for NaN."""

from __future__ import annotations

import math

import pytest
from conftest import SCENARIOS

import fuzion_sim as fz
from fuzion_sim.errors import ArgumentError, FuzionSimError, ScenarioError

DUEL = str(SCENARIOS / "benchmark-duel.yaml")
NAN = float("nan")


@pytest.fixture(scope="module")
def result():
    return fz.simulate(DUEL, trials=2_000, seed=3)


BAD_CALLS = {
    # simulate and load_scenario
    "overrides int": (lambda r: fz.simulate(DUEL, overrides=123), "overrides"),
    "overrides text without =": (lambda r: fz.simulate(DUEL, overrides=["nokey"]),
                                 "overrides[0]"),
    "overrides pair of int": (lambda r: fz.simulate(DUEL, overrides=[(1, 2)]), "overrides[0]"),
    "scheduler int": (lambda r: fz.simulate(DUEL, backend="dask", scheduler=8786),
                      "scheduler"),
    "scheduler without dask": (lambda r: fz.simulate(DUEL, scheduler="tcp://h:1"),
                               "scheduler"),
    "load path int": (lambda r: fz.load_scenario(123), "path"),
    "load overrides int": (lambda r: fz.load_scenario(DUEL, overrides=5), "overrides"),
    # Result
    "confidence nan": (lambda r: r.win_interval("a", confidence=NAN), "confidence"),
    "confidence 1": (lambda r: r.win_interval("a", confidence=1.0), "confidence"),
    "confidence text": (lambda r: r.win_table(confidence="95%"), "confidence"),
    "quantile 1.5": (lambda r: r.kill_time_quantiles(quantiles=[1.5]), "quantiles[0]"),
    "quantiles a number": (lambda r: r.kill_time_quantiles(quantiles=0.5), "quantiles"),
    "quantiles empty": (lambda r: r.kill_time_quantiles(quantiles=[]), "quantiles"),
    "quantile confidence 0": (lambda r: r.kill_time_quantiles(confidence=0), "confidence"),
    "plot into /proc": (lambda r: r.plot(path="/proc/x/y.png"), "path"),
    "plot path int": (lambda r: r.plot(path=5), "path"),
    "per_trial text": (lambda r: r.to_frame(per_trial="yes"), "per_trial"),
    # compare, sweep, balance, build_report
    "vary int": (lambda r: fz.compare(DUEL, vary=123), "vary"),
    "vary item": (lambda r: fz.compare(DUEL, vary=[123]), "vary[0]"),
    "compare crn text": (lambda r: fz.compare(DUEL, ["rules.dice=hero,interlock"],
                                              common_random_numbers="no"),
                         "common_random_numbers"),
    "compare unknown keyword": (lambda r: fz.compare(DUEL, ["rules.dice=hero,interlock"],
                                                     trails=5), "compare()"),
    "sweep grid int": (lambda r: fz.sweep(DUEL, grid=7), "grid"),
    "sweep out_dir a file": (lambda r: fz.sweep(DUEL, "rules.dice=hero,interlock",
                                                out_dir=DUEL), "out_dir"),
    "sweep on_point": (lambda r: fz.sweep(DUEL, "rules.dice=hero,interlock", on_point=3),
                       "on_point"),
    "balance target nan": (lambda r: fz.balance(DUEL, "sides.b[0].armor.pd", target=NAN),
                           "target"),
    "balance param int": (lambda r: fz.balance(DUEL, 5), "param"),
    "report out_dir None": (lambda r: fz.build_report(DUEL, out_dir=None), "out_dir"),
    "report title int": (lambda r: fz.build_report(DUEL, "/tmp/unused-report", title=5),
                         "title"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_a_bad_argument_is_named(result, case):
    call, name = BAD_CALLS[case]
    with pytest.raises(ArgumentError) as err:
        call(result)
    assert str(err.value).startswith(f"{name}: ") or str(err.value).startswith(f"{name} "), (
        str(err.value))
    assert isinstance(err.value, ValueError) and isinstance(err.value, FuzionSimError)


def test_an_override_error_names_the_override():
    with pytest.raises(ScenarioError) as err:
        fz.simulate(DUEL, overrides={"sides.b[0].armor.pd": -5})
    assert str(err.value).startswith("overrides['sides.b[0].armor.pd']: ")
    with pytest.raises(ScenarioError, match=r"^overrides\['rules.dcie'\]: .*did you mean 'dice'"):
        fz.load_scenario(DUEL, overrides=["rules.dcie=interlock"])


def test_good_arguments_still_work(result):
    lo, hi = result.win_interval("a", confidence=0.9)
    assert 0 <= lo <= result.win_probability("a") <= hi <= 1 and not math.isnan(lo)
    assert set(result.kill_time_quantiles(quantiles=(0.1, 0.9))) == {"0.1", "0.9"}
    sc = fz.load_scenario(DUEL, overrides={"rules.dice": "interlock"})
    assert sc.rules.as_dict()["dice"] == "interlock"
