"""The package's layering as the code sees it: the public API is the studies and the simulation
as they are defined (no forwarding wrapper), and a study checks its own arguments wherever it is
called from; the command line's form of a study skips the checks click has made."""

from __future__ import annotations

import pytest
from conftest import SCENARIOS

import fuzion_sim as fz
from fuzion_sim import api
from fuzion_sim.analysis import balance, compare, reporting, sweep
from fuzion_sim.errors import ArgumentError

DUEL = str(SCENARIOS / "benchmark-duel.yaml")


@pytest.mark.parametrize("name", api.__all__)
def test_the_api_shows_each_function_where_it_is_defined(name):
    value = getattr(api, name)
    if callable(value):
        assert value.__module__ != "fuzion_sim.api", name
    if name in fz.__all__:
        assert getattr(fz, name) is value, name


#: A study called from its own module, with an argument only the API used to check.
BAD = {
    "compare": (lambda: compare.compare(DUEL, "rules.dice=hero,interlock",
                                        common_random_numbers="yes"), "common_random_numbers"),
    "sweep": (lambda: sweep.sweep(DUEL, "rules.dice=hero,interlock", plots="yes"), "plots"),
    "balance": (lambda: balance.balance(DUEL, 3), "param"),
    "build_report": (lambda: reporting.build_report(DUEL, "out", force="yes"), "force"),
    "unbound": (lambda: compare.compare(DUEL), "compare(): missing a required argument"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_study_checks_its_own_arguments(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    call, start = BAD[case]
    with pytest.raises(ArgumentError) as err:
        call()
    assert str(err.value).startswith(start)
    assert list(tmp_path.iterdir()) == []  # refused before anything ran or was written


def test_the_command_lines_form_skips_the_checks():
    for study in (compare.compare, sweep.sweep, balance.balance, reporting.build_report):
        assert study.unchecked is study.__wrapped__
        assert study.unchecked.__module__ == study.__module__
