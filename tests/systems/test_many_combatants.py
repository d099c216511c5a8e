"""A thousand combatants load and compile in time linear in the fight, in every system.

The fights are the shipped squad scenarios with each side's members repeated (FUDGE's placed
in two facing files, with a grenadier in every ten). What is counted, not timed: the calls of
the expensive steps (a colour attack table of 10,000 roll pairs, a FUDGE hit's or blast's
exact arithmetic), which must follow the kinds of member, not the pairs; and every Python
call of loading and compiling, which must grow about as the fight does (four times the
combatants: well under the sixteen times of a step over every pair).
"""

from __future__ import annotations

import copy
import sys

import pytest
import yaml
from conftest import SCENARIOS

from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems import get_system
from fuzion_sim.systems.colour import compile as colour_compile
from fuzion_sim.systems.colour import tables as colour_tables
from fuzion_sim.systems.fudge import compile as fudge_compile

BASES = {"colour": "colour/bench-squad-10v10.yaml", "fudge": "fudge/two-against-one.yaml",
         "fuzion": "squad-4v4.yaml"}  # fmt: skip


def big_fight(system: str, n: int) -> dict:
    """A shipped squad fight of ``system`` with ``n`` combatants, half a side."""
    data = yaml.safe_load((SCENARIOS / BASES[system]).read_text())
    for s, (side, members) in enumerate(list(data["sides"].items())):
        grown = []
        for i in range(n // 2):
            m = dict(copy.deepcopy(members[i % len(members)]), name=f"{side} {i}")
            if system == "fudge":
                m.pop("distance", None)
                m["position"] = [8.0 * s, float(i)]
                if s == 0 and i % 10 == 0:
                    m["weapon"] = "Hand grenade"
            grown.append(m)
        data["sides"][side] = grown
    return data


def _compiled(system: str, n: int):
    sc = scenario_from_dict(big_fight(system, n))
    return sc, get_system(system).compile(sc)


class Counter:
    """Wraps ``fn`` and counts its calls."""

    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.fn(*args, **kwargs)


def test_colour_builds_an_attack_table_per_pair_of_kinds(monkeypatch):
    build = Counter(colour_tables.build)
    monkeypatch.setattr(colour_tables, "build", build)
    sc = scenario_from_dict(big_fight("colour", 1000))
    plan = colour_compile.compile_plan(sc)
    kinds = len(set(colour_tables.sheet_classes(plan.mem, plan.acts, plan.st0).tolist()))
    assert plan.n_combatants == 1000 and kinds == 4
    assert 0 < build.calls <= 2 * 2 * 2  # each side's two kinds on the other's two
    assert (plan.pair_tab[0, 0, 500:] >= 0).all()  # every pair still has its table


def test_fudge_works_out_each_hit_and_blast_once_per_kind(monkeypatch):
    hit = Counter(fudge_compile.hit_damage)
    blast = Counter(fudge_compile._concussion)
    monkeypatch.setattr(fudge_compile, "hit_damage", hit)
    monkeypatch.setattr(fudge_compile, "_concussion", blast)
    plan = _compiled("fudge", 1000)[1]
    assert plan.arrays.n_combatants == 1000
    assert 0 < hit.calls <= 3 * 2 * 9  # weapons x kinds of target x Damage Roll rows
    # one a distinct distance (the files are 1 m apart: under 2,000) and kind of victim
    assert 0 < blast.calls <= 2 * 2_000
    assert (plan.arrays.bl_conc >= 0).sum() > 100_000  # the grenade still reaches everyone


def _python_calls(system: str, n: int) -> int:
    data = big_fight(system, n)
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(count)
    try:
        get_system(system).compile(scenario_from_dict(data))
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.parametrize("system", sorted(BASES))
def test_loading_and_compiling_grow_with_the_fight_not_its_pairs(system):
    _python_calls(system, 8)  # the catalogues and tables every fight shares, read once
    small, big = _python_calls(system, 100), _python_calls(system, 400)
    assert big / small < 6, (small, big)
